// Unit tests of gpu2npu's reports (migrate/report.h) on an analysis built by hand and
// decided: the JSON report's fields, the terminal summary with and without colour, the HTML
// page escaping what the scanned code contains, and the three CSV files of Huawei's tool.
#include "migrate/report.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace oc::migrate {
namespace {

Analysis Sample() {
  Analysis a;
  a.root = "proj";
  a.files = 2;
  a.code_lines = 40;
  Finding cuda;
  cuda.file = "train.py";
  cuda.line = 3;
  cuda.column = 9;
  cuda.snippet = "x = x.cuda()  # <b>";
  cuda.rule = "tensor.cuda";
  cuda.api = ".cuda()";
  cuda.severity = Severity::kLow;
  cuda.counterpart = ".npu()";
  cuda.auto_migratable = true;
  cuda.message = "moves a tensor or module to the GPU";
  Finding raw;
  raw.file = "ops/k,1.py";
  raw.line = 7;
  raw.end_line = 7;
  raw.snippet = "k = cupy.RawKernel(src, \"f\")";
  raw.rule = "cupy.kernel";
  raw.api = "cupy.RawKernel";
  raw.branch = Branch::kCustomKernel;
  raw.severity = Severity::kHigh;
  raw.counterpart = "an Ascend C kernel";
  raw.message = "a raw \"CUDA\" kernel";
  Finding info;
  info.file = "train.py";
  info.line = 1;
  info.rule = "cudnn.settings";
  info.api = "torch.backends.cudnn.benchmark";
  info.severity = Severity::kInfo;
  a.findings = {cuda, raw, info};
  a.warnings = {{"bad.py", "skipped: unterminated string starting at line 1"}};
  Decide(&a);
  return a;
}

TEST(Report, JsonCarriesVerdictEstimateAndFindings) {
  const Analysis a = Sample();
  const auto j = nlohmann::json::parse(JsonReport(a));
  EXPECT_EQ(j["schema"], "opencann.gpu2npu/2");
  EXPECT_EQ(j["root"], "proj");
  EXPECT_EQ(j["files"], 2);
  EXPECT_EQ(j["lines"], 40);
  EXPECT_EQ(j["verdict"]["level"], LevelName(a.level));
  EXPECT_EQ(j["verdict"]["branch"], BranchId(a.deciding));
  EXPECT_EQ(j["verdict"]["reason"], a.reason);
  EXPECT_EQ(j["estimate"]["items"].size(), a.estimate.size());
  EXPECT_EQ(j["estimate"]["high_days"], a.estimate_high);
  EXPECT_EQ(j["findings_by_branch"],
            (nlohmann::json{{"standard_model", 2}, {"custom_cuda_kernel", 1}}));
  ASSERT_EQ(j["findings"].size(), 3u);
  const auto& f = j["findings"][0];
  EXPECT_EQ(f["file"], "train.py");
  EXPECT_EQ(f["line"], 3);
  EXPECT_EQ(f["column"], 9);
  EXPECT_EQ(f["rule"], "tensor.cuda");
  EXPECT_EQ(f["severity"], "low");
  EXPECT_EQ(f["auto"], true);
  EXPECT_EQ(f["usage"], "required");
  EXPECT_EQ(j["findings"][1]["branch"], "custom_cuda_kernel");
  ASSERT_EQ(j["warnings"].size(), 1u);
  EXPECT_EQ(j["warnings"][0]["file"], "bad.py");
  EXPECT_EQ(j["triton_kernels"]["count"], 0);
}

TEST(Report, TerminalSummaryWithAndWithoutColour) {
  const Analysis a = Sample();
  const std::string plain = TerminalReport(a, false);
  EXPECT_EQ(plain.rfind("gpu2npu: proj (2 files, 40 lines)\n", 0), 0u);
  EXPECT_NE(plain.find("verdict:  " + std::string(LevelName(a.level))), std::string::npos);
  EXPECT_NE(plain.find("  train.py:3:9 [low] .cuda() -> .npu() (auto)\n"), std::string::npos);
  EXPECT_NE(plain.find("warning: bad.py: skipped: unterminated string"), std::string::npos);
  EXPECT_EQ(plain.find('\033'), std::string::npos);
  EXPECT_NE(TerminalReport(a, true).find("\033["), std::string::npos);
}

TEST(Report, HtmlEscapesWhatTheCodeContains) {
  const std::string html = HtmlReport(Sample());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(html.find("<b>\n"), std::string::npos);
  EXPECT_EQ(html.find("# <b>"), std::string::npos);
  EXPECT_NE(html.find("# &lt;b&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("k = cupy.RawKernel(src, &quot;f&quot;)"), std::string::npos);
}

TEST(Report, MarkdownNamesTheVerdict) {
  const Analysis a = Sample();
  const std::string md = MarkdownReport(a);
  EXPECT_NE(md.find(LevelName(a.level)), std::string::npos);
  EXPECT_NE(md.find("train.py"), std::string::npos);
}

class CsvReports : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "oc_report_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::string dir_;
};

TEST_F(CsvReports, WritesHuaweisThreeFiles) {
  const std::string out = dir_ + "/report";
  ASSERT_TRUE(WriteCsvReports(Sample(), out).ok());
  EXPECT_EQ(Read(out + "/cuda_op_list.csv"),
            "File,Api\n"
            "train.py,.cuda()\n"
            "\"ops/k,1.py\",cupy.RawKernel\n"
            "train.py,torch.backends.cudnn.benchmark\n");
  // High severity: the raw kernel only (fields with commas or quotes are quoted).
  EXPECT_EQ(Read(out + "/unsupported_api.csv"),
            "File,Start Line,End Line,OP,Tips\n"
            "\"ops/k,1.py\",7,7,cupy.RawKernel,\"a raw \"\"CUDA\"\" kernel; on Ascend: an Ascend "
            "C kernel\"\n");
  const std::string perf = Read(out + "/api_performance_advice.csv");
  EXPECT_NE(perf.find("train.py,1,0,torch.backends.cudnn.benchmark,"), std::string::npos) << perf;
  EXPECT_EQ(perf.find("cupy"), std::string::npos);
}

TEST_F(CsvReports, ExistingReportsAreReplaced) {
  const std::string out = dir_ + "/report";
  std::filesystem::create_directories(out);
  std::ofstream(out + "/cuda_op_list.csv") << "stale";
  std::ofstream(out + "/notes.txt") << "mine";
  ASSERT_TRUE(WriteCsvReports(Sample(), out).ok());
  EXPECT_EQ(Read(out + "/cuda_op_list.csv").rfind("File,Api\n", 0), 0u);
  EXPECT_EQ(Read(out + "/notes.txt"), "mine");
}

}  // namespace
}  // namespace oc::migrate
