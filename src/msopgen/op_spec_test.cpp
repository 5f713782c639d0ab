// Unit tests of msopgen/op_spec.h: op.json files written by the test, parsed into OpSpecs
// (type spellings, default formats, attribute defaults as C++ literals) or refused with a
// message naming the file and the field; and the SnakeCase / KernelType helpers.
#include "msopgen/op_spec.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace oc::msopgen {
namespace {

class OpSpecTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "oc_op_spec_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Writes `json` to <tmp>/op.json and parses it.
  Result<std::vector<OpSpec>> ParseText(const std::string& json) {
    path_ = dir_ + "/op.json";
    std::ofstream(path_) << json;
    return ParseOpSpecs(path_);
  }
  // Expects a refusal whose message is "<path>: <field>: <why...>".
  void ExpectRefused(const std::string& json, const std::string& field_and_why) {
    auto r = ParseText(json);
    ASSERT_FALSE(r.ok()) << json;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(r.status().message().rfind(path_ + ": " + field_and_why, 0), 0u)
        << r.status().message();
  }

  std::string dir_, path_;
};

// CANN's sample AddCustom: two inputs and one output, fp16 and float.
const char* kAddCustom = R"([{
  "op": "AddCustom",
  "input_desc": [
    {"name": "x", "param_type": "required", "format": ["ND", "ND"], "type": ["fp16", "float"]},
    {"name": "y", "param_type": "required", "format": ["ND", "ND"], "type": ["fp16", "float"]}
  ],
  "output_desc": [
    {"name": "z", "param_type": "required", "format": ["ND", "ND"], "type": ["fp16", "float"]}
  ]
}])";

TEST_F(OpSpecTest, ParsesTheAddCustomSample) {
  auto r = ParseText(kAddCustom);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 1u);
  const OpSpec& op = r->front();
  EXPECT_EQ(op.op, "AddCustom");
  EXPECT_EQ(op.kernel_name, "add_custom");
  ASSERT_EQ(op.inputs.size(), 2u);
  ASSERT_EQ(op.outputs.size(), 1u);
  EXPECT_EQ(op.inputs[0].name, "x");
  EXPECT_EQ(op.inputs[1].name, "y");
  EXPECT_EQ(op.outputs[0].name, "z");
  EXPECT_EQ(op.inputs[0].types, (std::vector<std::string>{"DT_FLOAT16", "DT_FLOAT"}));
  EXPECT_EQ(op.outputs[0].formats, (std::vector<std::string>{"FORMAT_ND", "FORMAT_ND"}));
  EXPECT_EQ(op.inputs[0].param_type, "required");
  EXPECT_EQ(op.combos, 2u);
  EXPECT_TRUE(op.attrs.empty());
}

TEST_F(OpSpecTest, SingleObjectIsOneOpAndFormatDefaultsToNd) {
  auto r = ParseText(R"({"op": "ReluCustom",
    "input_desc": [{"name": "x", "type": ["half", "bfloat16", "int8"]}],
    "output_desc": [{"name": "y", "type": ["float16", "bf16", "int8"]}]})");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 1u);
  const OpSpec& op = r->front();
  EXPECT_EQ(op.inputs[0].types, (std::vector<std::string>{"DT_FLOAT16", "DT_BF16", "DT_INT8"}));
  EXPECT_EQ(op.outputs[0].types, op.inputs[0].types);
  EXPECT_EQ(op.inputs[0].formats,
            (std::vector<std::string>{"FORMAT_ND", "FORMAT_ND", "FORMAT_ND"}));
  EXPECT_EQ(op.inputs[0].param_type, "required");
  EXPECT_EQ(op.combos, 3u);
}

TEST_F(OpSpecTest, OpWithoutInputsIsAccepted) {
  auto r = ParseText(R"([{"op": "FillCustom", "output_desc": [{"name": "y", "type": ["fp32"]}]}])");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->front().inputs.empty());
  EXPECT_EQ(r->front().outputs[0].types, std::vector<std::string>{"DT_FLOAT"});
}

TEST_F(OpSpecTest, AttributeDefaultsBecomeCppLiterals) {
  auto r = ParseText(R"([{"op": "ScaleCustom",
    "input_desc": [{"name": "x", "type": ["float"]}],
    "output_desc": [{"name": "y", "type": ["float"]}],
    "attr": [
      {"name": "n", "type": "int", "default_value": "3"},
      {"name": "alpha", "type": "float", "default_value": 0.5},
      {"name": "beta", "type": "float", "default_value": "2"},
      {"name": "flag", "type": "bool", "default_value": "True"},
      {"name": "off", "type": "bool", "default_value": false},
      {"name": "mode", "type": "str", "default_value": "a\"b"},
      {"name": "axes", "type": "list_int", "default_value": "[1, -2]"},
      {"name": "ws", "type": "listFloat", "default_value": [0.25, 1]},
      {"name": "k", "param_type": "required", "type": "int"}
    ]}])");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& a = r->front().attrs;
  ASSERT_EQ(a.size(), 9u);
  EXPECT_EQ(a[0].default_value, "3");
  EXPECT_EQ(a[1].default_value, "0.5f");
  EXPECT_EQ(a[2].default_value, "2.0f");
  EXPECT_EQ(a[3].default_value, "true");
  EXPECT_EQ(a[4].default_value, "false");
  EXPECT_EQ(a[5].default_value, "\"a\\\"b\"");
  EXPECT_EQ(a[6].type, "listInt");
  EXPECT_EQ(a[6].default_value, "1, -2");
  EXPECT_EQ(a[7].type, "listFloat");
  EXPECT_EQ(a[7].default_value, "0.25f, 1.0f");
  EXPECT_EQ(a[0].param_type, "optional");
  EXPECT_EQ(a[8].param_type, "required");
  EXPECT_EQ(a[8].default_value, "");
}

TEST_F(OpSpecTest, StringDefaultEscapesNonPrintableBytes) {
  auto r = ParseText(R"([{"op": "StrCustom", "output_desc": [{"name": "y", "type": ["float"]}],
    "attr": [{"name": "s", "type": "str", "default_value": "a\nb\\c"}]}])");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->front().attrs[0].default_value, "\"a\\012b\\\\c\"");
}

TEST_F(OpSpecTest, UnknownDataTypeIsRefusedNamingTheField) {
  ExpectRefused(R"([{"op": "AddCustom",
    "input_desc": [{"name": "x", "type": ["fp16", "half4"]}],
    "output_desc": [{"name": "z", "type": ["fp16", "fp16"]}]}])",
                "[0].input_desc[0].type[1]: \"half4\" is not a data type (");
}

TEST_F(OpSpecTest, MissingOutputDescIsRefused) {
  ExpectRefused(R"([{"op": "AddCustom", "input_desc": [{"name": "x", "type": ["fp16"]}]}])",
                "[0].output_desc: is missing");
}

TEST_F(OpSpecTest, AnOpNeedsAnInputOrAnOutput) {
  ExpectRefused(R"([{"op": "AddCustom", "output_desc": []}])",
                "[0]: needs at least one input or output");
  // An op that only updates its inputs (no outputs) is accepted.
  auto r = ParseText(R"([{"op": "Eye", "input_desc": [{"name": "y", "type": ["float"]}],
                          "output_desc": []}])");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->front().combos, 1u);
}

TEST_F(OpSpecTest, OpNameMustBeCamelCase) {
  ExpectRefused(R"([{"op": "addCustom", "output_desc": [{"name": "z", "type": ["fp16"]}]}])",
                "[0].op: \"addCustom\" must be a CamelCase identifier");
  ExpectRefused(R"([{"op": "Add-Custom", "output_desc": [{"name": "z", "type": ["fp16"]}]}])",
                "[0].op: \"Add-Custom\" must be a CamelCase identifier");
}

TEST_F(OpSpecTest, SecondOpOfTheSameNameIsRefused) {
  ExpectRefused(R"([{"op": "AddCustom", "output_desc": [{"name": "z", "type": ["fp16"]}]},
                    {"op": "AddCustom", "output_desc": [{"name": "z", "type": ["fp16"]}]}])",
                "[1].op: \"AddCustom\" is given twice");
}

TEST_F(OpSpecTest, TypeListsOfDifferentLengthsAreRefused) {
  ExpectRefused(R"([{"op": "AddCustom",
    "input_desc": [{"name": "x", "type": ["fp16"]}],
    "output_desc": [{"name": "z", "type": ["fp16", "float"]}]}])",
                "[0]: \"x\" lists 1 types, \"z\" lists 2");
}

TEST_F(OpSpecTest, FormatListMustMatchTheTypeList) {
  ExpectRefused(R"([{"op": "AddCustom",
    "output_desc": [{"name": "z", "type": ["fp16", "float", "int32"], "format": ["ND", "ND"]}]}])",
                "[0].output_desc[0].format: has 2 entries, type has 3");
  ExpectRefused(R"([{"op": "AddCustom",
    "output_desc": [{"name": "z", "type": ["fp16"], "format": ["NC1HWC0"]}]}])",
                "[0].output_desc[0].format[0]: must be one of ND, NCHW, NHWC, NCDHW, NDHWC");
}

// Spellings CANN's msopgen takes and its own examples use: one format for every type (and
// the reverse), "string" for str, "value" for default_value, lists as "{1, 2}", "{}" or {}.
TEST_F(OpSpecTest, SpellingsCannAcceptsAreAccepted) {
  auto r = ParseText(R"([{"op": "ScaleCustom",
    "input_desc": [{"name": "x", "type": ["fp16", "float"], "format": ["ND"]}],
    "output_desc": [{"name": "y", "type": ["fp16"], "format": ["ND", "NCHW"]}],
    "attr": [{"name": "mode", "type": "string", "value": "fast"},
             {"name": "dims", "type": "list_int", "value": "{1, 2}"},
             {"name": "none", "type": "listInt", "default_value": "{}"},
             {"name": "empty", "type": "listFloat", "default_value": {}}]}])");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const OpSpec& op = r->front();
  ASSERT_EQ(op.inputs[0].formats.size(), 2u);
  EXPECT_EQ(op.inputs[0].formats[1], "FORMAT_ND");
  ASSERT_EQ(op.outputs[0].types.size(), 2u);
  EXPECT_EQ(op.outputs[0].types[1], op.outputs[0].types[0]);
  EXPECT_EQ(op.outputs[0].formats[1], "FORMAT_NCHW");
  ASSERT_EQ(op.attrs.size(), 4u);
  EXPECT_EQ(op.attrs[0].type, "str");
  EXPECT_EQ(op.attrs[0].default_value, "\"fast\"");
  EXPECT_EQ(op.attrs[1].type, "listInt");
  EXPECT_EQ(op.attrs[1].default_value, "1, 2");
  EXPECT_EQ(op.attrs[2].default_value, "");
  EXPECT_EQ(op.attrs[3].type, "listFloat");
  EXPECT_EQ(op.attrs[3].default_value, "");
}

TEST_F(OpSpecTest, AnOutputNamedLikeAnInputUpdatesItInPlace) {
  // CANN's ScatterSub-style ops: the kernel takes the output as x_ref.
  auto r = ParseText(R"([{"op": "ScatterSub",
    "input_desc": [{"name": "x", "type": ["fp16"]}, {"name": "index", "type": ["int32"]}],
    "output_desc": [{"name": "x", "type": ["fp16"]}]}])");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->front().inputs[0].arg_name, "x");
  EXPECT_EQ(r->front().outputs[0].arg_name, "x_ref");
  ExpectRefused(R"([{"op": "AddCustom",
    "input_desc": [{"name": "x", "type": ["fp16"]}, {"name": "x", "type": ["fp16"]}],
    "output_desc": [{"name": "z", "type": ["fp16"]}]}])",
                "[0]: input/output name \"x\" is used twice");
}

TEST_F(OpSpecTest, MoreSpellingsCannAccepts) {
  auto r = ParseText(R"([{"op": "Mode",
    "input_desc": [{"name": "x", "type": "float32", "format": "ND"}],
    "output_desc": [{"name": "y", "type": "float32"}],
    "attr": [{"name": "dim", "type": "int32", "value": "-1"},
             {"name": "n", "type": "int64", "value": 2},
             {"name": "keep", "type": "bool", "value": "FALSE"},
             {"name": "on", "type": "bool", "value": "TRUE"}]}])");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto& a = r->front().attrs;
  EXPECT_EQ(a[0].type, "int");
  EXPECT_EQ(a[0].default_value, "-1");
  EXPECT_EQ(a[1].type, "int");
  EXPECT_EQ(a[2].default_value, "false");
  EXPECT_EQ(a[3].default_value, "true");
  EXPECT_EQ(r->front().inputs[0].types, std::vector<std::string>{"DT_FLOAT"});
}

TEST_F(OpSpecTest, DynamicInputsAreRefused) {
  ExpectRefused(R"([{"op": "AddNCustom",
    "input_desc": [{"name": "x", "param_type": "dynamic", "type": ["fp16"]}],
    "output_desc": [{"name": "y", "type": ["fp16"]}]}])",
                "[0].input_desc[0].param_type: \"dynamic\" must be required or optional");
}

TEST_F(OpSpecTest, BadAttributesAreRefused) {
  ExpectRefused(R"([{"op": "A", "output_desc": [{"name": "y", "type": ["fp16"]}],
    "attr": [{"name": "n", "type": "int"}]}])",
                "[0].attr[0].default_value: an optional attribute needs a default value");
  ExpectRefused(R"([{"op": "A", "output_desc": [{"name": "y", "type": ["fp16"]}],
    "attr": [{"name": "n", "type": "int", "default_value": "1.5"}]}])",
                "[0].attr[0].default_value: \"1.5\" is not a value of type int");
  ExpectRefused(R"([{"op": "A", "output_desc": [{"name": "y", "type": ["fp16"]}],
    "attr": [{"name": "n", "type": "double", "default_value": 1}]}])",
                "[0].attr[0].type: \"double\" must be int, float, bool, str, listInt or listFloat");
  ExpectRefused(R"([{"op": "A", "output_desc": [{"name": "y", "type": ["fp16"]}],
    "attr": [{"name": "f", "type": "float", "default_value": "inf"}]}])",
                "[0].attr[0].default_value: \"inf\" is not a value of type float");
}

TEST_F(OpSpecTest, ParameterNamesMustBeIdentifiers) {
  ExpectRefused(R"([{"op": "A", "output_desc": [{"name": "1y", "type": ["fp16"]}]}])",
                "[0].output_desc[0].name: \"1y\" is not an identifier");
}

TEST_F(OpSpecTest, MalformedFilesAreRefused) {
  ExpectRefused("[{\"op\": ", "(file): is not valid JSON");
  ExpectRefused("[]", "(file): must be a list of op descriptions");
  ExpectRefused("42", "(file): must be a list of op descriptions");
  ExpectRefused("[7]", "[0]: must be an object");
}

TEST_F(OpSpecTest, MissingFileIsRefusedNamingIt) {
  const std::string missing = dir_ + "/absent.json";
  auto r = ParseOpSpecs(missing);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "cannot read the op description file [" + missing + "]");
}

TEST(MsopgenNames, SnakeCaseSplitsWords) {
  // CANN's names: its documentation (Conv2D -> conv2_d) and projects it generated.
  EXPECT_EQ(SnakeCase("AddCustom"), "add_custom");
  EXPECT_EQ(SnakeCase("Conv2D"), "conv2_d");
  EXPECT_EQ(SnakeCase("NLLLoss"), "nll_loss");
  EXPECT_EQ(SnakeCase("SoftMax"), "soft_max");
  EXPECT_EQ(SnakeCase("GEMMCustom"), "gemm_custom");
  EXPECT_EQ(SnakeCase("PagedAttentionKVCache"), "paged_attention_kv_cache");
  EXPECT_EQ(SnakeCase("CustomReLU"), "custom_re_lu");
  EXPECT_EQ(SnakeCase("Add"), "add");
  EXPECT_EQ(SnakeCase("MatMulV2Custom"), "mat_mul_v2_custom");
}

TEST(MsopgenNames, KernelTypeMapsGeTypesToAscendCTypes) {
  EXPECT_EQ(KernelType("DT_FLOAT16"), "half");
  EXPECT_EQ(KernelType("DT_FLOAT"), "float");
  EXPECT_EQ(KernelType("DT_BF16"), "bfloat16_t");
  EXPECT_EQ(KernelType("DT_INT32"), "int32_t");
  EXPECT_EQ(KernelType("DT_BOOL"), "bool");
  EXPECT_EQ(KernelType("DT_SOMETHING"), "uint8_t");
}

}  // namespace
}  // namespace oc::msopgen
