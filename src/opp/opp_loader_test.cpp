// Unit tests of opp/opp_loader.h without a compiled package: vendor folders with a missing,
// empty or broken op_impl/lib (found, skipped or refused), the bridge from OpDefs registered
// in libopregister to OpenCANN's registries (each refusal and its message, and a good op's
// schema inferring shapes through the package's functions), and ASCEND_CUSTOM_OPP_PATH /
// ASCEND_OPP_PATH (read once per process: those tests run in a child process).
#include "opp/opp_loader.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ir/graph.h"
#include "ops/op_schema.h"
#include "register/op_def_registry.h"

namespace oc {
namespace {

namespace fs = std::filesystem;

std::string MakeTempDir() {
  std::string tmpl = (fs::temp_directory_path() / "oc_opp_XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) return "";
  return tmpl;
}

class OppFolders : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = MakeTempDir();
    ASSERT_FALSE(root_.empty());
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string root_;
};

TEST_F(OppFolders, VendorFolderWithoutOpImplLibIsNotFound) {
  const std::string vendor = root_ + "/customize";
  fs::create_directories(vendor + "/op_impl");  // no lib/ below it
  Status s = LoadOpPackages({vendor});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_EQ(s.message(),
            "operator package [" + vendor +
                "] has neither op_impl/lib (OpenCANN's msopgen) nor op_impl/ai_core/tbe "
                "(CANN's op-project template)");
}

// CANN's op-project template layout: kernel binaries that opc did not compile (an NPU's .o
// from CANN) are refused by name before anything is loaded.
TEST_F(OppFolders, TemplatePackageWithNpuBinariesIsRefused) {
  const std::string vendor = root_ + "/customize";
  const std::string bin = vendor + "/op_impl/ai_core/tbe/kernel/ascend910b/add_custom";
  fs::create_directories(bin);
  fs::create_directories(vendor + "/op_impl/ai_core/tbe/op_tiling/lib/linux/x86_64");
  std::ofstream(bin + "/AddCustom_1.o") << "\x7f"
                                           "ELF";
  std::ofstream(bin + "/AddCustom_1.json")
      << R"({"binFileName": "AddCustom_1", "magic": "RT_DEV_BINARY_MAGIC_ELF"})";
  Status s = LoadOpPackages({vendor});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kUnsupported);
  EXPECT_NE(s.message().find("[" + bin + "/AddCustom_1.o] was not compiled by OpenCANN's opc"),
            std::string::npos)
      << s.message();
}

// A vendor folder holding both layouts (packages installed into one vendor merge): the
// template's binaries are checked too.
TEST_F(OppFolders, VendorWithBothLayoutsLoadsTheTemplatesToo) {
  const std::string vendor = root_ + "/customize";
  fs::create_directories(vendor + "/op_impl/lib");
  const std::string bin = vendor + "/op_impl/ai_core/tbe/kernel/ascend910b/add_custom";
  fs::create_directories(bin);
  std::ofstream(bin + "/AddCustom_1.o") << "x";
  std::ofstream(bin + "/AddCustom_1.json") << R"({"magic": "RT_DEV_BINARY_MAGIC_ELF"})";
  Status s = LoadOpPackages({vendor});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kUnsupported) << s.message();
}

// A template package built for other compute units loads (its op definitions are there) and
// has no kernels for the emulated chip.
TEST_F(OppFolders, TemplatePackageForAnotherComputeUnitLoadsNoKernels) {
  const std::string vendor = root_ + "/customize";
  fs::create_directories(vendor + "/op_impl/ai_core/tbe/kernel/ascend310b/add_custom");
  fs::create_directories(vendor + "/op_impl/ai_core/tbe/kernel/config/ascend310b");
  fs::create_directories(vendor + "/op_impl/ai_core/tbe/op_tiling/lib/linux/x86_64");
  const size_t before = CustomOpSummary().size();
  EXPECT_TRUE(LoadOpPackages({vendor}).ok());
  EXPECT_EQ(CustomOpSummary().size(), before);
}

TEST_F(OppFolders, MissingVendorFolderIsNotFound) {
  Status s = LoadOpPackages({root_ + "/absent"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
}

TEST_F(OppFolders, EmptyLibFolderLoadsNothing) {
  const std::string vendor = root_ + "/customize";
  fs::create_directories(vendor + "/op_impl/lib");
  const size_t before = CustomOpSummary().size();
  EXPECT_TRUE(LoadOpPackages({vendor}).ok());
  EXPECT_EQ(CustomOpSummary().size(), before);
}

TEST_F(OppFolders, FilesThatAreNotSharedLibrariesAreIgnored) {
  const std::string lib = root_ + "/customize/op_impl/lib";
  fs::create_directories(lib);
  // Not libraries by name: never opened, so their contents do not matter.
  std::ofstream(lib + "/README.txt") << "not a library";
  std::ofstream(lib + "/libop.so.bak") << "not a library";
  std::ofstream(lib + "/so") << "not a library";
  EXPECT_TRUE(LoadOpPackages({root_ + "/customize"}).ok());
}

TEST_F(OppFolders, BrokenLibraryIsRefusedNamingTheFile) {
  const std::string lib = root_ + "/customize/op_impl/lib";
  fs::create_directories(lib);
  const std::string file = lib + "/libcust_op_broken.so";
  std::ofstream(file) << "this is not an ELF file";
  Status s = LoadOpPackages({root_ + "/customize"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kParseError);
  EXPECT_EQ(s.message().rfind("operator package library [" + file + "] cannot be loaded: ", 0), 0u)
      << s.message();
}

// BUG: a library is marked as loaded before dlopen runs, so after a failed load the same
// package is skipped and a second LoadOpPackages of the folder reports success although
// nothing was loaded.
TEST_F(OppFolders, BrokenLibraryIsRefusedEveryTime) {
  const std::string lib = root_ + "/customize/op_impl/lib";
  fs::create_directories(lib);
  std::ofstream(lib + "/libcust_op_broken.so") << "this is not an ELF file";
  EXPECT_FALSE(LoadOpPackages({root_ + "/customize"}).ok());
  Status again = LoadOpPackages({root_ + "/customize"});
  EXPECT_FALSE(again.ok());
  EXPECT_EQ(again.code(), StatusCode::kParseError);
}

TEST_F(OppFolders, FirstMissingFolderStopsTheList) {
  const std::string good = root_ + "/good";
  fs::create_directories(good + "/op_impl/lib");
  Status s = LoadOpPackages({good, root_ + "/bad"});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(
      s.message(),
      "operator package [" + root_ +
          "/bad] has neither op_impl/lib (OpenCANN's msopgen) nor op_impl/ai_core/tbe (CANN's "
          "op-project template)");
}

// ---- The bridge: OpDefs and kernel entries as a package's static initialisers leave them.

void OcUnitTestKernel() {}

ge::graphStatus CopyShape(gert::InferShapeContext* c) {
  *c->GetOutputShape(0) = *c->GetInputShape(0);
  return ge::GRAPH_SUCCESS;
}

// Registers an op of `type` (one float input x, one output y) as package `source` would,
// with a kernel of `num_args` GM arguments unless num_args < 0.
ops::OpDef& AddPackageOp(const std::string& type, const std::string& source, int num_args,
                         bool infer = true, std::vector<ge::DataType> kernel_types = {}) {
  auto& reg = ops::OpDefRegistry::Global();
  reg.SetCurrentSource(source.c_str());
  auto def = std::make_unique<ops::OpDef>(type.c_str());
  def->Input("x").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
  def->Output("y").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
  if (infer) def->SetInferShape(CopyShape);
  ops::OpDef& out = *def;
  reg.AddOpDef(std::move(def));
  if (num_args >= 0)
    reg.AddKernel(ops::KernelEntry(type.c_str(), (type + "_kernel_0").c_str(),
                                   reinterpret_cast<void*>(&OcUnitTestKernel), num_args,
                                   std::move(kernel_types)));
  reg.SetCurrentSource("");
  return out;
}

std::string Where(const std::string& source, const std::string& type) {
  return "operator package [" + source + "], op [" + type + "]: ";
}

TEST(OppBridge, OpWithoutKernelIsRefused) {
  AddPackageOp("OcUtNoKernel", "libcust_op_a.so", -1);
  Status s = LoadOpPackages({});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kParseError);
  EXPECT_EQ(s.message(), Where("libcust_op_a.so", "OcUtNoKernel") +
                             "no kernel is registered for the op (the op_kernel entry file of "
                             "the msopgen project, or the template's opc binaries, are missing)");
  // A refused definition is reported once; the next load goes on.
  EXPECT_TRUE(LoadOpPackages({}).ok());
}

TEST(OppBridge, OpWithoutInferShapeServesAclnnOnly) {
  AddPackageOp("OcUtNoInfer", "libcust_op_b.so", 4, /*infer=*/false);
  ASSERT_TRUE(LoadOpPackages({}).ok());
  const OpSchema* schema = OpRegistry::Global().Find("custom", "OcUtNoInfer");
  ASSERT_NE(schema, nullptr);
  Node node;
  node.name = "n";
  node.op_type = "OcUtNoInfer";
  ValueInfo x{DataType::kFloat, {4}, true};
  InferContext ic;
  ic.node = &node;
  ic.inputs = {&x};
  ic.const_inputs = {nullptr};
  ic.outputs.resize(1);
  // aclnn: the output tensors give the shapes; the type is the OpDef's.
  ic.aclnn = true;
  ASSERT_TRUE(RunSchema(*schema, ic).ok());
  EXPECT_EQ(ic.outputs[0].dtype, DataType::kFloat);
  EXPECT_FALSE(ic.outputs[0].has_shape);
  // A graph has nothing to size the output with: refused, naming why.
  ic.aclnn = false;
  Status s = RunSchema(*schema, ic);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("no SetInferShape function, so a graph cannot size its outputs"),
            std::string::npos)
      << s.message();
}

TEST(OppBridge, KernelWithWrongArgumentCountIsRefused) {
  AddPackageOp("OcUtArgs", "libcust_op_c.so", 3);
  Status s = LoadOpPackages({});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), Where("libcust_op_c.so", "OcUtArgs") +
                             "kernel [OcUtArgs_kernel_0] takes 3 GM arguments, the OpDef has 1 "
                             "inputs and 1 outputs (+ workspace and tiling = 4)");
}

TEST(OppBridge, KernelTypesMustCoverInputsAndOutputs) {
  AddPackageOp("OcUtTypes", "libcust_op_d.so", 4, true, {ge::DT_FLOAT});
  Status s = LoadOpPackages({});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), Where("libcust_op_d.so", "OcUtTypes") +
                             "kernel [OcUtTypes_kernel_0] is registered for 1 types, the op has "
                             "2 inputs and outputs");
}

TEST(OppBridge, DynamicInputIsUnsupported) {
  ops::OpDef& def = AddPackageOp("OcUtDynamic", "libcust_op_e.so", 5);
  def.Input("rest").ParamType(ops::DYNAMIC).DataType({ge::DT_FLOAT});
  Status s = LoadOpPackages({});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kUnsupported);
  EXPECT_EQ(s.message(), Where("libcust_op_e.so", "OcUtDynamic") +
                             "dynamic (variadic) input [rest] is not supported yet");
}

TEST(OppBridge, OutputTypeFromTheDeclaredCombination) {
  // A comparison: float or half in, bool out, no InferDataType. The output's type is the
  // one declared in the column the input types match, not the first input's.
  auto& reg = ops::OpDefRegistry::Global();
  reg.SetCurrentSource("libcust_op_g.so");
  auto def = std::make_unique<ops::OpDef>("OcUtCompare");
  def->Input("x").ParamType(ops::REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
  def->Output("y").ParamType(ops::REQUIRED).DataType({ge::DT_BOOL, ge::DT_INT8});
  def->SetInferShape(CopyShape);
  reg.AddOpDef(std::move(def));
  reg.AddKernel(ops::KernelEntry("OcUtCompare", "OcUtCompare_kernel_0",
                                 reinterpret_cast<void*>(&OcUnitTestKernel), 4, {}));
  reg.SetCurrentSource("");
  ASSERT_TRUE(LoadOpPackages({}).ok());
  const OpSchema* schema = OpRegistry::Global().Find("custom", "OcUtCompare");
  ASSERT_NE(schema, nullptr);
  Node node;
  node.name = "c";
  node.op_type = "OcUtCompare";
  for (auto [in, want] : {std::pair{DataType::kFloat, DataType::kBool},
                          std::pair{DataType::kFloat16, DataType::kInt8}}) {
    ValueInfo x{in, {8}, true};
    InferContext ic;
    ic.node = &node;
    ic.inputs = {&x};
    ic.const_inputs = {nullptr};
    ic.outputs.resize(1);
    ASSERT_TRUE(RunSchema(*schema, ic).ok());
    EXPECT_EQ(ic.outputs[0].dtype, want);
  }
}

TEST(OppBridge, BuiltInOnnxOpNameIsThePackagesInTheCustomDomain) {
  AddPackageOp("Relu", "libcust_op_f.so", 4);
  testing::internal::CaptureStderr();
  Status s = LoadOpPackages({});
  const std::string err = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_NE(err.find("the type is also a built-in op"), std::string::npos) << err;
  // aclnnRelu (domain "custom") finds the package's op, ONNX Relu keeps the built-in.
  const OpSchema* custom = OpRegistry::Global().Find("custom", "Relu");
  const OpSchema* onnx = OpRegistry::Global().Find("", "Relu");
  ASSERT_NE(custom, nullptr);
  ASSERT_NE(onnx, nullptr);
  EXPECT_NE(custom, onnx);
  EXPECT_EQ(custom->domain, "custom");
}

TEST(OppBridge, AnOpDefinedTwiceKeepsTheFirstPackage) {
  // The same package installed under ASCEND_CUSTOM_OPP_PATH and ASCEND_OPP_PATH/vendors:
  // the first found keeps the op, the second is named in one warning line, not an error.
  AddPackageOp("OcUtTwice", "first/libcust_op.so", 4);
  AddPackageOp("OcUtTwice", "second/libcust_op.so", 4);
  testing::internal::CaptureStderr();
  const Status s = LoadOpPackages({});
  const std::string err = testing::internal::GetCapturedStderr();
  ASSERT_TRUE(s.ok()) << s.ToString();
  const auto summary = CustomOpSummary();
  EXPECT_NE(std::find(summary.begin(), summary.end(), "OcUtTwice (first/libcust_op.so)"),
            summary.end());
  EXPECT_EQ(std::find(summary.begin(), summary.end(), "OcUtTwice (second/libcust_op.so)"),
            summary.end());
  EXPECT_NE(err.find("also defined by [first/libcust_op.so], which comes first and is used"),
            std::string::npos)
      << err;
}

TEST(OppBridge, GoodOpIsRegisteredAndInfersThroughThePackage) {
  AddPackageOp("OcUtGood", "libcust_op_good.so", 4, true, {ge::DT_FLOAT, ge::DT_FLOAT});
  ASSERT_TRUE(LoadOpPackages({}).ok());
  const auto summary = CustomOpSummary();
  EXPECT_NE(std::find(summary.begin(), summary.end(), "OcUtGood (libcust_op_good.so)"),
            summary.end());
  // Custom ops match their type in any domain.
  const OpSchema* schema = OpRegistry::Global().Find("my.domain", "OcUtGood");
  ASSERT_NE(schema, nullptr);
  EXPECT_EQ(schema->domain, kAnyDomain);
  EXPECT_EQ(schema->min_inputs, 1);
  EXPECT_EQ(schema->max_inputs, 1);
  EXPECT_EQ(schema->max_outputs, 1);

  Graph g;
  g.inputs = {"a"};
  g.values["a"] = ValueInfo{DataType::kFloat, {2, 3}, true};
  Node n;
  n.name = "custom";
  n.op_type = "OcUtGood";
  n.domain = "my.domain";
  n.inputs = {"a"};
  n.outputs = {"b"};
  ASSERT_TRUE(InferNode(g, n).ok());
  const ValueInfo* b = g.FindValue("b");
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(b->has_shape);
  EXPECT_EQ(b->shape, (Shape{2, 3}));
  EXPECT_EQ(b->dtype, DataType::kFloat);

  // A type the package does not declare is refused at inference, naming the node.
  g.values["i"] = ValueInfo{DataType::kInt32, {4}, true};
  n.inputs = {"i"};
  n.outputs = {"j"};
  Status s = InferNode(g, n);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("node [custom] (custom op OcUtGood from libcust_op_good.so): input "
                             "[x] has type int32; the package supports float32"),
            std::string::npos)
      << s.message();
}

// ---- The environment: LoadCustomOpPackages reads it once per process, so each case runs
// in a fresh child process (the "threadsafe" death-test style re-executes the binary).

// A vendor folder with a library that cannot be loaded.
void BrokenPackage(const std::string& vendor) {
  fs::create_directories(vendor + "/op_impl/lib");
  std::ofstream(vendor + "/op_impl/lib/libcust_op.so") << "not an ELF file";
}

// Runs LoadCustomOpPackages, prints its status and exits 0 (ok) or 3 (error); `dir` is
// removed first (the child never returns to the test's cleanup).
[[noreturn]] void LoadAndExit(const std::string& dir) {
  Status s = LoadCustomOpPackages();
  std::error_code ec;
  fs::remove_all(dir, ec);
  std::fprintf(stderr, "%s\n", s.ok() ? "OK" : s.message().c_str());
  std::fflush(stderr);
  std::_Exit(s.ok() ? 0 : 3);
}

class OppEnvironment : public ::testing::Test {
 protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    root_ = MakeTempDir();
    ASSERT_FALSE(root_.empty());
    ::unsetenv("ASCEND_CUSTOM_OPP_PATH");
    ::unsetenv("ASCEND_OPP_PATH");
  }
  void TearDown() override {
    fs::remove_all(root_);
    ::unsetenv("ASCEND_CUSTOM_OPP_PATH");
    ::unsetenv("ASCEND_OPP_PATH");
  }
  std::string root_;
};

TEST_F(OppEnvironment, StaleEntriesOfTheCustomPathAreSkipped) {
  fs::create_directories(root_ + "/no_lib/op_impl");
  fs::create_directories(root_ + "/empty/op_impl/lib");
  const std::string path = root_ + "/absent::" + root_ + "/no_lib:" + root_ + "/empty:";
  ::setenv("ASCEND_CUSTOM_OPP_PATH", path.c_str(), 1);
  EXPECT_EXIT(LoadAndExit(root_), ::testing::ExitedWithCode(0), "OK");
}

TEST_F(OppEnvironment, CustomPathPackagesLoadBeforeInstalledVendors) {
  BrokenPackage(root_ + "/custom_first");
  BrokenPackage(root_ + "/opp/vendors/acme");
  ::setenv("ASCEND_CUSTOM_OPP_PATH", (root_ + "/absent:" + root_ + "/custom_first").c_str(), 1);
  ::setenv("ASCEND_OPP_PATH", (root_ + "/opp").c_str(), 1);
  EXPECT_EXIT(LoadAndExit(root_), ::testing::ExitedWithCode(3),
              "operator package library \\[.*/custom_first/op_impl/lib/libcust_op\\.so\\] "
              "cannot be loaded");
}

TEST_F(OppEnvironment, InstalledVendorsFollowLoadPriority) {
  BrokenPackage(root_ + "/opp/vendors/alpha");
  BrokenPackage(root_ + "/opp/vendors/beta");
  std::ofstream(root_ + "/opp/vendors/config.ini") << "load_priority=beta,alpha\n";
  ::setenv("ASCEND_OPP_PATH", (root_ + "/opp").c_str(), 1);
  EXPECT_EXIT(LoadAndExit(root_), ::testing::ExitedWithCode(3),
              "\\[.*/vendors/beta/op_impl/lib/libcust_op\\.so\\] cannot be loaded");
}

TEST_F(OppEnvironment, InstalledVendorsWithoutConfigLoadByName) {
  BrokenPackage(root_ + "/opp/vendors/zeta");
  BrokenPackage(root_ + "/opp/vendors/eta");
  fs::create_directories(root_ + "/opp/vendors/alpha");  // no op_impl/lib: not a package
  ::setenv("ASCEND_OPP_PATH", (root_ + "/opp").c_str(), 1);
  EXPECT_EXIT(LoadAndExit(root_), ::testing::ExitedWithCode(3),
              "\\[.*/vendors/eta/op_impl/lib/libcust_op\\.so\\] cannot be loaded");
}

TEST_F(OppEnvironment, NoEnvironmentLoadsNothing) {
  EXPECT_EXIT(LoadAndExit(root_), ::testing::ExitedWithCode(0), "OK");
}

}  // namespace
}  // namespace oc

// The tiling context's tensors: shapes, data type and format of every input and output,
// and a constant input's value where the node knows it.
TEST(TilingContext, InputAndOutputTensors) {
  gert::NodeView node;
  node.input_shapes.emplace_back(gert::Shape{2, 3}, gert::Shape{2, 3});
  node.input_shapes.emplace_back(gert::Shape{1}, gert::Shape{1});
  node.output_shapes.emplace_back(gert::Shape{2}, gert::Shape{2});
  gert::CompileTimeTensorDesc f16, i32;
  f16.Set(ge::DT_FLOAT16, ge::FORMAT_ND);
  i32.Set(ge::DT_INT32, ge::FORMAT_ND);
  node.input_descs = {f16, i32};
  node.output_descs = {f16};
  const int32_t axis = 1;
  node.input_values = {nullptr, &axis};
  gert::TilingContext c(&node);
  const gert::Tensor* x = c.GetInputTensor(0);
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->GetShapeSize(), 6);
  EXPECT_EQ(x->GetStorageShape().GetDim(1), 3);
  EXPECT_EQ(x->GetDataType(), ge::DT_FLOAT16);
  EXPECT_EQ(x->GetData<float>(), nullptr);  // not known when tiling runs
  ASSERT_NE(c.GetInputTensor(1)->GetData<int32_t>(), nullptr);
  EXPECT_EQ(*c.GetInputTensor(1)->GetData<int32_t>(), 1);
  EXPECT_EQ(c.GetInputTensor(2), nullptr);
  EXPECT_EQ(c.GetOutputTensor(0)->GetShapeSize(), 2);
  node.input_present = {true, false};
  gert::TilingContext optional(&node);
  EXPECT_EQ(optional.GetOptionalInputTensor(1), nullptr);
}

TEST(TilingContext, StructTilingIsTheRawDataWithItsSize) {
  // The newer tiling style: a plain struct the tiling function fills in place.
  struct AddTiling {
    uint32_t total;
    uint32_t tiles;
    float scale;
  };
  gert::NodeView node;
  gert::TilingContext c(&node);
  AddTiling* t = c.GetTilingData<AddTiling>();
  ASSERT_NE(t, nullptr);
  t->total = 4096;
  t->tiles = 8;
  t->scale = 0.5f;
  EXPECT_EQ(c.GetRawTilingData()->GetDataSize(), sizeof(AddTiling));
  EXPECT_EQ(static_cast<void*>(t), c.GetRawTilingData()->GetData());
  AddTiling copy;
  std::memcpy(&copy, c.GetRawTilingData()->GetData(), sizeof(copy));
  EXPECT_EQ(copy.total, 4096u);
  EXPECT_EQ(copy.scale, 0.5f);
}

namespace oc {
namespace {

TEST(OppRuntimeAttrs, AnIntAttributeReadsAsOtherIntegerTypes) {
  // Tiling code reads an Int attribute as uint32_t (CANN's int64 storage, low bytes).
  gert::RuntimeAttrs attrs;
  gert::RuntimeAttrs::Value k;
  k.kind = gert::RuntimeAttrs::Value::kInt;
  k.i = 4;
  attrs.values().push_back(k);
  gert::RuntimeAttrs::Value f;
  f.kind = gert::RuntimeAttrs::Value::kFloat;
  f.f = 0.5f;
  attrs.values().push_back(f);
  ASSERT_NE(attrs.GetAttrPointer<uint32_t>(0), nullptr);
  EXPECT_EQ(*attrs.GetAttrPointer<uint32_t>(0), 4u);
  EXPECT_EQ(*attrs.GetAttrPointer<int32_t>(0), 4);
  EXPECT_EQ(*attrs.GetInt(0), 4);
  EXPECT_EQ(attrs.GetAttrPointer<double>(0), nullptr);
  EXPECT_EQ(attrs.GetAttrPointer<uint32_t>(2), nullptr);  // past the attributes
}

TEST(OppRuntimeAttrs, AnAttributeReadAsAnotherTypeIsItsBytesReinterpreted) {
  // Tiling code that indexes attributes wrongly (GetBool(0) on a float) reads the storage
  // reinterpreted, as CANN's does, with a warning; never a null pointer to crash on.
  gert::RuntimeAttrs attrs;
  gert::RuntimeAttrs::Value f;
  f.kind = gert::RuntimeAttrs::Value::kFloat;
  f.f = 0.5f;
  attrs.values().push_back(f);
  gert::RuntimeAttrs::Value list;
  list.kind = gert::RuntimeAttrs::Value::kListInt;
  list.ints = {3, 4};
  attrs.values().push_back(list);
  ASSERT_NE(attrs.GetAttrPointer<uint32_t>(0), nullptr);
  EXPECT_EQ(*attrs.GetAttrPointer<uint32_t>(0), 0x3F000000u);  // 0.5f's bits
  ASSERT_NE(attrs.GetBool(0), nullptr);
  ASSERT_NE(attrs.GetFloat(1), nullptr);
  EXPECT_EQ(*attrs.GetFloat(1), 0.0f);  // a list read as a scalar: zeros
  ASSERT_NE(attrs.GetListInt(0), nullptr);
  EXPECT_EQ(attrs.GetListInt(0)->GetSize(), 0u);
  EXPECT_EQ(attrs.GetListInt(1)->GetSize(), 2u);
}

}  // namespace
}  // namespace oc
