// Graph-wide checks on names (issue 30: an .om written with a name that is not UTF-8 could
// not be read back).
#include "ir/graph.h"

#include <gtest/gtest.h>

namespace oc {
namespace {

Graph OneNode(const std::string& node_name) {
  Graph g;
  g.name = "g";
  g.inputs = {"x"};
  g.outputs = {"y"};
  Node n;
  n.name = node_name;
  n.op_type = "Relu";
  n.inputs = {"x"};
  n.outputs = {"y"};
  g.nodes.push_back(n);
  return g;
}

TEST(GraphNames, Utf8NamesPass) {
  EXPECT_TRUE(CheckNamesAreUtf8(OneNode("relu")).ok());
  EXPECT_TRUE(CheckNamesAreUtf8(OneNode("\xE5\x8D\xB7\xE7\xA7\xAF")).ok());  // 卷积
  EXPECT_TRUE(CheckNamesAreUtf8(OneNode("\xF0\x9F\x98\x80")).ok());          // U+1F600
}

TEST(GraphNames, MalformedUtf8IsRefusedWithTheNameEscaped) {
  for (const char* bad : {"bad\xff", "\xC0\xAF",  // overlong '/'
                          "\xED\xA0\x80",         // a surrogate
                          "\xF4\x90\x80\x80",     // past U+10FFFF
                          "cut\xE5\x8D", "\x80lead"}) {
    Status s = CheckNamesAreUtf8(OneNode(bad));
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_NE(s.message().find("node name"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("\\x"), std::string::npos) << s.message();
  }
}

TEST(GraphNames, SubgraphNamesAreChecked) {
  Graph outer = OneNode("if");
  auto body = std::make_shared<Graph>(OneNode("inner"));
  body->nodes[0].outputs = {"y\xfe"};
  outer.nodes[0].attrs.Set("then_branch", body);
  Status s = CheckNamesAreUtf8(outer);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("value name [y\\xfe]"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace oc

namespace oc {
namespace {

TEST(BoolInitializers, NonzeroBytesBecomeOneAndTheLoaderRefusesThem) {
  Graph g;
  Tensor t(DataType::kBool, {3});
  auto* b = static_cast<uint8_t*>(t.mutable_data());
  b[0] = 0;
  b[1] = 190;  // a byte an ONNX file's raw data can hold
  b[2] = 1;
  g.initializers["m"] = t;
  EXPECT_FALSE(CheckBoolInitializers(g).ok());
  NormalizeBoolInitializers(g);
  const auto* n = static_cast<const uint8_t*>(g.initializers.at("m").data());
  EXPECT_EQ(n[0], 0);
  EXPECT_EQ(n[1], 1);
  EXPECT_EQ(n[2], 1);
  EXPECT_TRUE(CheckBoolInitializers(g).ok());
}

TEST(StringValues, AreRefusedInSubgraphsToo) {
  Graph outer = OneNode("if");
  EXPECT_TRUE(CheckNoStringValues(outer).ok());
  auto body = std::make_shared<Graph>(OneNode("inner"));
  body->values["s"] = ValueInfo{DataType::kString, {4}, true};
  outer.nodes[0].attrs.Set("then_branch", body);
  Status s = CheckNoStringValues(outer);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.cann_code(), "EZ3003");
  EXPECT_NE(s.message().find("value [s] is a string tensor"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace oc
