// Unit tests of msopgen/project.h: the operator project GenerateProject writes for OpSpecs
// built in the test (the exact file list, the op definition, per-combination kernel
// registrations, the SoC family) and what it refuses (an output folder that holds files).
#include "msopgen/project.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "msopgen/op_spec.h"

namespace oc::msopgen {
namespace {

namespace fs = std::filesystem;

OpSpec AddCustom() {
  OpSpec op;
  op.op = "AddCustom";
  op.kernel_name = "add_custom";
  for (const char* name : {"x", "y"})
    op.inputs.push_back(
        {name, "required", {"DT_FLOAT16", "DT_FLOAT"}, {"FORMAT_ND", "FORMAT_ND"}, name});
  op.outputs.push_back(
      {"z", "required", {"DT_FLOAT16", "DT_FLOAT"}, {"FORMAT_ND", "FORMAT_ND"}, "z"});
  op.combos = 2;
  return op;
}

class ProjectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "oc_msopgen_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
  }
  void TearDown() override { fs::remove_all(root_); }

  // Every regular file under `dir`, relative to it.
  static std::set<std::string> Files(const std::string& dir) {
    std::set<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file()) out.insert(fs::relative(e.path(), dir).string());
    return out;
  }
  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  std::string root_;
};

TEST_F(ProjectTest, WritesTheExpectedFiles) {
  ProjectOptions o;
  o.out_dir = root_ + "/proj";
  ASSERT_TRUE(GenerateProject({AddCustom()}, o).ok());
  const std::set<std::string> expected = {"CMakeLists.txt",
                                          "CMakePresets.json",
                                          "README.md",
                                          "build.sh",
                                          "framework/README.md",
                                          "op_api/aclnn_add_custom.cpp",
                                          "op_api/aclnn_add_custom.h",
                                          "op_host/add_custom.cpp",
                                          "op_host/add_custom_tiling.h",
                                          "op_kernel/add_custom.cpp",
                                          "op_kernel/add_custom_combo.cpp",
                                          "op_kernel/add_custom_entry.cpp",
                                          "scripts/install.sh",
                                          "scripts/set_env.bash.in"};
  EXPECT_EQ(Files(o.out_dir), expected);
  // Nothing is left beside the project (the staging folder is renamed into place).
  EXPECT_EQ(std::distance(fs::directory_iterator(root_), fs::directory_iterator()), 1);
}

TEST_F(ProjectTest, ScriptsAreExecutable) {
  ProjectOptions o;
  o.out_dir = root_ + "/proj";
  ASSERT_TRUE(GenerateProject({AddCustom()}, o).ok());
  for (const char* f : {"/build.sh", "/scripts/install.sh"}) {
    struct stat st {};
    ASSERT_EQ(::stat((o.out_dir + f).c_str(), &st), 0) << f;
    EXPECT_NE(st.st_mode & S_IXUSR, 0u) << f;
  }
}

TEST_F(ProjectTest, HostFileDefinesTheOpWithItsTypesAndSocFamily) {
  ProjectOptions o;
  o.out_dir = root_ + "/proj";
  ASSERT_TRUE(GenerateProject({AddCustom()}, o).ok());
  const std::string host = Read(o.out_dir + "/op_host/add_custom.cpp");
  EXPECT_NE(host.find("this->Input(\"x\")"), std::string::npos);
  EXPECT_NE(host.find("this->Input(\"y\")"), std::string::npos);
  EXPECT_NE(host.find("this->Output(\"z\")"), std::string::npos);
  EXPECT_NE(host.find(".DataType({ge::DT_FLOAT16, ge::DT_FLOAT})"), std::string::npos);
  EXPECT_NE(host.find(".Format({ge::FORMAT_ND, ge::FORMAT_ND})"), std::string::npos);
  // Ascend910B3 (the default) is configured as its family, ascend910b.
  EXPECT_NE(host.find("AddConfig(\"ascend910b\")"), std::string::npos);
  EXPECT_NE(host.find("AddCustom"), std::string::npos);
}

TEST_F(ProjectTest, OtherSocGivesItsFamily) {
  ProjectOptions o;
  o.out_dir = root_ + "/proj";
  o.soc = "Ascend310P3";
  ASSERT_TRUE(GenerateProject({AddCustom()}, o).ok());
  EXPECT_NE(Read(o.out_dir + "/op_host/add_custom.cpp").find("AddConfig(\"ascend310p\")"),
            std::string::npos);
}

TEST_F(ProjectTest, EntryFileRegistersOneKernelPerTypeCombination) {
  ProjectOptions o;
  o.out_dir = root_ + "/proj";
  ASSERT_TRUE(GenerateProject({AddCustom()}, o).ok());
  const std::string entry = Read(o.out_dir + "/op_kernel/add_custom_entry.cpp");
  // Two inputs and one output, plus workspace and tiling: 5 GM arguments.
  EXPECT_NE(entry.find("OC_KERNEL_ADD_TYPED(AddCustom, add_custom_0, 5, {ge::DT_FLOAT16, "
                       "ge::DT_FLOAT16, ge::DT_FLOAT16});"),
            std::string::npos)
      << entry;
  EXPECT_NE(entry.find("OC_KERNEL_ADD_TYPED(AddCustom, add_custom_1, 5, {ge::DT_FLOAT, "
                       "ge::DT_FLOAT, ge::DT_FLOAT});"),
            std::string::npos)
      << entry;
  EXPECT_EQ(entry.find("add_custom_2"), std::string::npos);
  const std::string cmake = Read(o.out_dir + "/CMakeLists.txt");
  EXPECT_NE(cmake.find("DTYPE_X=half DTYPE_Y=half DTYPE_Z=half"), std::string::npos);
  EXPECT_NE(cmake.find("DTYPE_X=float DTYPE_Y=float DTYPE_Z=float"), std::string::npos);
}

TEST_F(ProjectTest, AttributesGetTheirDefaultsInTheOpDefinition) {
  OpSpec op = AddCustom();
  op.attrs.push_back({"alpha", "optional", "float", "0.5f"});
  op.attrs.push_back({"n", "required", "int", ""});
  ProjectOptions o;
  o.out_dir = root_ + "/proj";
  ASSERT_TRUE(GenerateProject({op}, o).ok());
  const std::string host = Read(o.out_dir + "/op_host/add_custom.cpp");
  EXPECT_NE(host.find("this->Attr(\"alpha\").AttrType(OPTIONAL).Float(0.5f);"), std::string::npos)
      << host;
  EXPECT_NE(host.find("this->Attr(\"n\").AttrType(REQUIRED).Int(0);"), std::string::npos) << host;
  // The aclnn API takes float attributes as double.
  EXPECT_NE(Read(o.out_dir + "/op_api/aclnn_add_custom.h").find("double alpha"), std::string::npos);
}

TEST_F(ProjectTest, ListAttributesBecomeAclnnArrays) {
  OpSpec op = AddCustom();
  op.attrs.push_back({"axes", "optional", "listInt", "1, 2"});
  op.attrs.push_back({"weights", "optional", "listFloat", "0.5"});
  ProjectOptions o;
  o.out_dir = root_ + "/proj";
  ASSERT_TRUE(GenerateProject({op}, o).ok());
  const auto files = Files(o.out_dir);
  EXPECT_TRUE(files.count("op_api/aclnn_add_custom.cpp"));
  EXPECT_NE(Read(o.out_dir + "/CMakeLists.txt").find("op_api/aclnn_add_custom.cpp"),
            std::string::npos);
  const std::string h = Read(o.out_dir + "/op_api/aclnn_add_custom.h");
  EXPECT_NE(h.find("const aclIntArray *axes"), std::string::npos) << h;
  EXPECT_NE(h.find("const aclFloatArray *weights"), std::string::npos) << h;
  EXPECT_NE(Read(o.out_dir + "/op_host/add_custom.cpp").find(".ListInt({1, 2})"),
            std::string::npos);
}

TEST_F(ProjectTest, TwoOpsGetTwoSetsOfSources) {
  OpSpec relu;
  relu.op = "ReluCustom";
  relu.kernel_name = "relu_custom";
  relu.inputs.push_back({"x", "required", {"DT_FLOAT"}, {"FORMAT_ND"}, "x"});
  relu.outputs.push_back({"y", "required", {"DT_FLOAT"}, {"FORMAT_ND"}, "y"});
  relu.combos = 1;
  ProjectOptions o;
  o.out_dir = root_ + "/proj";
  o.vendor = "acme";
  ASSERT_TRUE(GenerateProject({AddCustom(), relu}, o).ok());
  const auto files = Files(o.out_dir);
  EXPECT_EQ(files.size(), 14u + 7u);
  for (const char* f : {"op_host/relu_custom.cpp", "op_host/relu_custom_tiling.h",
                        "op_kernel/relu_custom.cpp", "op_kernel/relu_custom_entry.cpp",
                        "op_api/aclnn_relu_custom.h", "op_api/aclnn_relu_custom.cpp"})
    EXPECT_TRUE(files.count(f)) << f;
  const std::string cmake = Read(o.out_dir + "/CMakeLists.txt");
  EXPECT_NE(cmake.find("acme"), std::string::npos);
  EXPECT_NE(cmake.find("cust_op_add_custom"), std::string::npos);
  EXPECT_NE(cmake.find("cust_op_relu_custom"), std::string::npos);
}

TEST_F(ProjectTest, FolderThatHoldsFilesIsRefusedAndLeftAlone) {
  const std::string out = root_ + "/proj";
  fs::create_directories(out);
  std::ofstream(out + "/keep.txt") << "mine";
  ProjectOptions o;
  o.out_dir = out;
  Status s = GenerateProject({AddCustom()}, o);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "output folder [" + out + "] already holds files; give an empty or new folder");
  EXPECT_EQ(Files(out), std::set<std::string>{"keep.txt"});
}

TEST_F(ProjectTest, EmptyExistingFolderIsFilled) {
  const std::string out = root_ + "/proj";
  fs::create_directories(out);
  ProjectOptions o;
  o.out_dir = out + "/";
  ASSERT_TRUE(GenerateProject({AddCustom()}, o).ok());
  EXPECT_TRUE(fs::is_regular_file(out + "/CMakeLists.txt"));
}

TEST_F(ProjectTest, FrameworkIsRecordedInTheReadme) {
  ProjectOptions o;
  o.out_dir = root_ + "/proj";
  o.framework = "onnx";
  ASSERT_TRUE(GenerateProject({AddCustom()}, o).ok());
  EXPECT_NE(Read(o.out_dir + "/README.md").find("Framework given with -f: onnx"),
            std::string::npos);
}

}  // namespace
}  // namespace oc::msopgen

namespace oc::msopgen {
namespace {

TEST_F(ProjectTest, InPlaceOutputIsTheInputInTheKernelAndAclnn) {
  // ScatterSub(x, index) -> x: the kernel takes the output as x_ref; CANN's aclnn function
  // takes x once, as an input.
  OpSpec op;
  op.op = "ScatterSub";
  op.kernel_name = "scatter_sub";
  op.inputs.push_back({"x", "required", {"DT_FLOAT"}, {"FORMAT_ND"}, "x"});
  op.inputs.push_back({"index", "required", {"DT_INT32"}, {"FORMAT_ND"}, "index"});
  op.outputs.push_back({"x", "required", {"DT_FLOAT"}, {"FORMAT_ND"}, "x_ref"});
  op.combos = 1;
  ProjectOptions o;
  o.out_dir = root_ + "/proj";
  ASSERT_TRUE(GenerateProject({op}, o).ok());
  const std::string kernel = Read(o.out_dir + "/op_kernel/scatter_sub.cpp");
  EXPECT_NE(kernel.find("scatter_sub(GM_ADDR x, GM_ADDR index, GM_ADDR x_ref, GM_ADDR workspace"),
            std::string::npos)
      << kernel;
  const std::string aclnn = Read(o.out_dir + "/op_api/aclnn_scatter_sub.h");
  EXPECT_NE(aclnn.find("const aclTensor *x, const aclTensor *index, uint64_t *workspaceSize"),
            std::string::npos)
      << aclnn;
  EXPECT_EQ(aclnn.find("x_ref"), std::string::npos);
  const std::string host = Read(o.out_dir + "/op_host/scatter_sub.cpp");
  EXPECT_NE(host.find("this->Output(\"x\")"), std::string::npos);
}

}  // namespace
}  // namespace oc::msopgen
