// Unit tests of AnalyseProject (migrate/analysis.h) on small project folders written by the
// test: which files are read (by kind; vendored and VCS folders skipped), what becomes a
// warning (binary, syntax errors, invalid UTF-8), NPU folders as support signals, and the
// verdict the whole pipeline (analyse, weigh, decide) reaches.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "migrate/analysis.h"

namespace oc::migrate {
namespace {

namespace fs = std::filesystem;

class ProjectScan : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "oc_scan_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    root_ = tmpl;
  }
  void TearDown() override { fs::remove_all(root_); }
  void Write(const std::string& rel, const std::string& text) {
    const fs::path p = fs::path(root_) / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
  std::vector<std::string> Warnings(const Analysis& a) {
    std::vector<std::string> out;
    for (const auto& w : a.warnings) out.push_back(w.file + ": " + w.message);
    return out;
  }
  std::string root_;
};

TEST_F(ProjectScan, StandardProjectIsLowCost) {
  Write("train.py",
        "import torch\nimport torchvision\nmodel = torchvision.models.resnet50().cuda()\n"
        "loss.backward()\n");
  Write("README.md", "model.cuda()\n");  // not a source kind
  Write(".git/hooks/x.py", "x.cuda()\n");
  Write("node_modules/pkg/y.py", "y.cuda()\n");
  auto r = AnalyseProject(root_);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->files, 1);
  EXPECT_EQ(r->code_lines, 4);
  ASSERT_EQ(r->findings.size(), 1u);
  EXPECT_EQ(r->findings[0].file, "train.py");
  EXPECT_EQ(r->findings[0].line, 3);
  EXPECT_EQ(r->findings[0].rule, "tensor.cuda");
  EXPECT_TRUE(r->trains);
  EXPECT_EQ(r->workload, "cv_training");
  EXPECT_EQ(r->level, Level::kLow);
  EXPECT_EQ(r->deciding, Branch::kStandardModel);
  EXPECT_TRUE(r->warnings.empty());
}

TEST_F(ProjectScan, UnreadableFilesBecomeWarnings) {
  Write("good.py", "x = 1\n");
  Write("broken.py", "s = 'never closed\n");
  Write("blob.py", std::string("a\0b", 3));
  Write("latin1.py", "# caf\xe9\nx = y.cuda()\n");
  auto r = AnalyseProject(root_);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::vector<std::string> w = Warnings(r.value());
  std::sort(w.begin(), w.end());
  EXPECT_EQ(
      w, (std::vector<std::string>{"blob.py: skipped: binary file",
                                   "broken.py: skipped: unterminated string starting at line 1",
                                   "latin1.py: not UTF-8 text: 1 invalid bytes read as U+FFFD"}));
  // The file with a stray byte is still analysed.
  EXPECT_EQ(r->files, 2);
  ASSERT_EQ(r->findings.size(), 1u);
  EXPECT_EQ(r->findings[0].file, "latin1.py");
}

TEST_F(ProjectScan, FindingsComeSortedByFileAndLine) {
  Write("b.py", "x.cuda()\ny.cuda()\n");
  Write("a/c.py", "import torch\ntorch.cuda.synchronize()\n");
  Write("scripts/run.sh", "export CUDA_VISIBLE_DEVICES=0\n");
  auto r = AnalyseProject(root_);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::vector<std::string> where;
  for (const auto& f : r->findings) where.push_back(f.file + ":" + std::to_string(f.line));
  EXPECT_EQ(where, (std::vector<std::string>{"a/c.py:2", "b.py:1", "b.py:2", "scripts/run.sh:1"}));
  EXPECT_EQ(r->files, 3);
}

TEST_F(ProjectScan, NpuSourceFolderShowsExistingSupport) {
  Write("csrc/cuda/nms_kernel.cu", "__global__ void nms_kernel(float* b) { b[0] = 0; }\n");
  Write("csrc/npu/nms_npu.cpp", "void nms_npu() {}\n");
  Write("ops.py", "import torch_npu\n");
  auto r = AnalyseProject(root_);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->supports_ascend);
  ASSERT_EQ(r->kernels.size(), 1u);
  EXPECT_TRUE(r->kernels[0].covered);
  EXPECT_EQ(r->level, Level::kLow);
}

TEST_F(ProjectScan, RequiredBlockerIsNotAdvised) {
  Write("requirements.txt", "nvidia-dali-cuda120\n");
  Write("data.py", "from nvidia.dali import pipeline_def\n");
  auto r = AnalyseProject(root_);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->level, Level::kNotAdvised);
  ASSERT_FALSE(r->not_advised.empty());
  EXPECT_EQ(r->not_advised[0], "depends on NVIDIA-only software with no Ascend counterpart (dali)");
}

TEST_F(ProjectScan, SingleFileAndMissingPath) {
  Write("one.py", "x = x.cuda()\n");
  auto r = AnalyseProject(root_ + "/one.py");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->files, 1);
  ASSERT_EQ(r->findings.size(), 1u);
  EXPECT_EQ(r->findings[0].file, "one.py");
  auto missing = AnalyseProject(root_ + "/absent");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), "[" + root_ + "/absent] does not exist");
}

}  // namespace
}  // namespace oc::migrate
