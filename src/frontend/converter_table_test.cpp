// Unit tests of what the Caffe, TensorFlow and AIR frontends share (converter_table.h): the
// table's lookup, supported types and survey, the messages and CANN codes of its errors, and
// whole-message parsing of a binary model.
#include "frontend/converter_table.h"

#include <google/protobuf/wrappers.pb.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace oc::frontend {
namespace {

struct Op {
  std::string name;
};
using Converter = Status (*)(const Op& op, int& calls);

Status Count(const Op&, int& calls) {
  ++calls;
  return Status::Ok();
}

constexpr ParserWords kWords{"Toy", "node", "toy op"};

const ConverterTable<Converter>& Table() {
  static const ConverterTable<Converter> table(kWords, {"Input", "Const"},
                                               {
                                                   {"Relu", Count},
                                                   {"Add", Count},
                                               });
  return table;
}

TEST(ConverterTable, FindsConvertersByType) {
  int calls = 0;
  Converter c = Table().Find("Relu");
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c(Op{"r"}, calls).ok());
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(Table().Find("Input"), nullptr);  // the importer reads built-in types itself
  EXPECT_EQ(Table().Find("Frobnicate"), nullptr);
}

TEST(ConverterTable, LookupNamesTheOpItHasNoConverterFor) {
  ASSERT_TRUE(Table().Lookup("a", "Add").ok());
  auto r = Table().Lookup("weird", "Frobnicate");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
  EXPECT_EQ(r.status().cann_code(), "E19010");
  EXPECT_EQ(r.status().message(),
            "No parser is registered for Op [weird, optype [Frobnicate]]: OpenCANN's Toy parser "
            "has no such toy op");
}

TEST(ConverterTable, SupportsBuiltInAndConvertedTypes) {
  EXPECT_TRUE(Table().Supports("Input"));
  EXPECT_TRUE(Table().Supports("Add"));
  EXPECT_FALSE(Table().Supports("Frobnicate"));
  EXPECT_EQ(Table().Types(), (std::vector<std::string>{"Input", "Const", "Add", "Relu"}));
}

TEST(ConverterTable, SurveysOneOp) {
  const OpSurvey ok = Table().Survey("c", "Const");
  EXPECT_EQ(ok.name, "c");
  EXPECT_EQ(ok.type, "Const");
  EXPECT_TRUE(ok.supported);
  EXPECT_EQ(ok.reason, "");
  const OpSurvey no = Table().Survey("w", "Frobnicate");
  EXPECT_FALSE(no.supported);
  EXPECT_EQ(no.reason, "no parser is registered for this toy op (E19010)");
}

TEST(ConverterTable, OpErrorsNameTheOpAndCarryCannCodes) {
  const Status bad = OpError(kWords, "n1", "Relu", "needs input 0");
  EXPECT_EQ(bad.code(), StatusCode::kParseError);
  EXPECT_EQ(bad.cann_code(), "E19005");
  EXPECT_EQ(bad.message(), "node [n1] (Relu): needs input 0");
  const Status no = OpUnsupported(kWords, "n1", "Relu", "a fused activation");
  EXPECT_EQ(no.code(), StatusCode::kUnsupported);
  EXPECT_EQ(no.cann_code(), "E19010");
  EXPECT_EQ(no.message(),
            "node [n1] (Relu): a fused activation is not supported by OpenCANN's Toy parser");
  const Status invalid = Invalid("the graph computes nothing");
  EXPECT_EQ(invalid.code(), StatusCode::kParseError);
  EXPECT_EQ(invalid.cann_code(), "E19005");
  EXPECT_EQ(invalid.message(), "the graph computes nothing");
}

TEST(ParseBinaryProto, ReadsOnlyWholeMessages) {
  google::protobuf::Int64Value v;
  v.set_value(42);
  const std::string bytes = v.SerializeAsString();
  google::protobuf::Int64Value out;
  ASSERT_TRUE(ParseBinaryProto(bytes, out));
  EXPECT_EQ(out.value(), 42);
  EXPECT_TRUE(ParseBinaryProto("", out));  // an empty message is a message
  EXPECT_FALSE(ParseBinaryProto(bytes.substr(0, bytes.size() - 1), out));
  EXPECT_FALSE(ParseBinaryProto("\xff\xff\xff", out));
}

}  // namespace
}  // namespace oc::frontend
