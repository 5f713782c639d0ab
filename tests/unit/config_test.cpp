// The typed configuration (src/base/config.h): the defaults, each variable's valid and invalid
// values, the deprecated name, overriding it in tests, and README.md's table of variables.
#include "base/config.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "backend/kernel.h"
#include "base/shape.h"
#include "base/threads.h"

namespace oc {
namespace {

// ParseConfig over exactly these variables (nothing else is set).
Config Parse(const std::map<std::string, std::string>& vars) {
  return ParseConfig([&](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

Config ParseOne(const std::string& name, const std::string& value) {
  return Parse({{name, value}});
}

TEST(Config, DefaultsWhenNothingIsSet) {
  const Config c = Parse({});
  EXPECT_EQ(c.num_threads, 0);
  EXPECT_EQ(c.log_level, LogLevel::kNull);
  EXPECT_EQ(c.plog_level, LogLevel::kError);
  EXPECT_FALSE(c.plog_to_stdout);
  EXPECT_EQ(c.log_root, "");
  EXPECT_FALSE(c.profile);
  EXPECT_EQ(c.backends, "");
  EXPECT_TRUE(c.conv_algo.error.empty());
  EXPECT_EQ(c.conv_algo.value, ConvAlgoMode::kAuto);
  EXPECT_TRUE(c.bf16_compute.error.empty());
  EXPECT_TRUE(c.bf16_compute.value);
  EXPECT_TRUE(c.int8_plain.error.empty());
  EXPECT_FALSE(c.int8_plain.value);
  EXPECT_EQ(c.max_tensor_bytes, uint64_t{64} << 30);
  EXPECT_EQ(c.atc, "");
  EXPECT_FALSE(c.ort_reference.has_value());
  EXPECT_FALSE(c.python.has_value());
  EXPECT_FALSE(c.ascendc_report);
  EXPECT_EQ(c.soc, "");
  EXPECT_EQ(c.custom_opp_path, "");
  EXPECT_FALSE(c.opp_path.has_value());
  EXPECT_TRUE(c.warnings.empty());
}

TEST(Config, NumThreads) {
  EXPECT_EQ(ParseOne("OCANN_NUM_THREADS", "4").num_threads, 4);
  // Not a number from 1: all cores, as before (atoi's reading).
  for (const char* v : {"0", "-2", "abc", ""})
    EXPECT_EQ(ParseOne("OCANN_NUM_THREADS", v).num_threads, 0) << v;
  EXPECT_EQ(ParseOne("OCANN_NUM_THREADS", "3x").num_threads, 3);
}

TEST(Config, LogLevels) {
  EXPECT_EQ(ParseOne("OCANN_LOG_LEVEL", "debug").log_level, LogLevel::kDebug);
  EXPECT_EQ(ParseOne("OCANN_LOG_LEVEL", "warning").log_level, LogLevel::kWarning);
  EXPECT_EQ(ParseOne("OCANN_LOG_LEVEL", "loud").log_level, LogLevel::kNull);
  EXPECT_EQ(ParseOne("ASCEND_GLOBAL_LOG_LEVEL", "0").plog_level, LogLevel::kDebug);
  EXPECT_EQ(ParseOne("ASCEND_GLOBAL_LOG_LEVEL", "4").plog_level, LogLevel::kNull);
  for (const char* v : {"5", "12", "", "info"})
    EXPECT_EQ(ParseOne("ASCEND_GLOBAL_LOG_LEVEL", v).plog_level, LogLevel::kError) << v;
  EXPECT_TRUE(ParseOne("ASCEND_SLOG_PRINT_TO_STDOUT", "1").plog_to_stdout);
  EXPECT_FALSE(ParseOne("ASCEND_SLOG_PRINT_TO_STDOUT", "yes").plog_to_stdout);
}

TEST(Config, LogFolder) {
  EXPECT_EQ(Parse({{"ASCEND_PROCESS_LOG_PATH", "/l"}, {"HOME", "/h"}}).log_root, "/l");
  EXPECT_EQ(Parse({{"ASCEND_PROCESS_LOG_PATH", ""}, {"HOME", "/h"}}).log_root, "/h/ascend/log");
  EXPECT_EQ(ParseOne("HOME", "/h").log_root, "/h/ascend/log");
  EXPECT_EQ(ParseOne("HOME", "").log_root, "");
}

TEST(Config, ProfileAndBackends) {
  EXPECT_TRUE(ParseOne("OCANN_PROFILE", "1").profile);
  EXPECT_FALSE(ParseOne("OCANN_PROFILE", "0").profile);
  EXPECT_FALSE(ParseOne("OCANN_PROFILE", "").profile);
  EXPECT_EQ(ParseOne("OCANN_BACKENDS", "reference,cpu").backends, "reference,cpu");
}

TEST(Config, ConvAlgoWordsAndMisspellings) {
  const std::map<std::string, ConvAlgoMode> words = {{"auto", ConvAlgoMode::kAuto},
                                                     {"measure", ConvAlgoMode::kMeasure},
                                                     {"direct", ConvAlgoMode::kDirect},
                                                     {"winograd", ConvAlgoMode::kWinograd}};
  for (const auto& [word, mode] : words) {
    auto r = ParseOne("OCANN_CONV_ALGO", word).conv_algo.Get();
    ASSERT_TRUE(r.ok()) << word;
    EXPECT_EQ(r.value(), mode) << word;
  }
  for (const char* bad : {"wino", "", "Direct"}) {
    auto r = ParseOne("OCANN_CONV_ALGO", bad).conv_algo.Get();
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(r.status().message(), "OCANN_CONV_ALGO=" + std::string(bad) +
                                        " is not a valid value: use auto, measure, direct or "
                                        "winograd");
  }
}

TEST(Config, SwitchesTakeZeroOrOne) {
  for (const char* name : {"OCANN_BF16_COMPUTE", "OCANN_INT8_PLAIN"}) {
    SCOPED_TRACE(name);
    auto get = [&](const Config& c) {
      return std::string(name) == "OCANN_INT8_PLAIN" ? c.int8_plain.Get() : c.bf16_compute.Get();
    };
    auto off = get(ParseOne(name, "0")), on = get(ParseOne(name, "1"));
    ASSERT_TRUE(off.ok() && on.ok());
    EXPECT_FALSE(off.value());
    EXPECT_TRUE(on.value());
    for (const char* bad : {"yes", "", "true", "2"}) {
      auto r = get(ParseOne(name, bad));
      ASSERT_FALSE(r.ok()) << bad;
      EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
      EXPECT_EQ(r.status().message(),
                std::string(name) + "=" + bad + " is not a valid value: use 0 or 1");
    }
  }
  // An error in one switch leaves the others usable.
  const Config c = ParseOne("OCANN_INT8_PLAIN", "yes");
  EXPECT_TRUE(c.bf16_compute.Get().ok());
  EXPECT_TRUE(c.conv_algo.Get().ok());
}

TEST(Config, MaxTensorBytes) {
  EXPECT_EQ(ParseOne("OCANN_MAX_TENSOR_BYTES", "1024").max_tensor_bytes, 1024u);
  for (const char* bad : {"0", "12x", ""})
    EXPECT_EQ(ParseOne("OCANN_MAX_TENSOR_BYTES", bad).max_tensor_bytes, uint64_t{64} << 30) << bad;
  EXPECT_TRUE(ParseOne("OCANN_MAX_TENSOR_BYTES", "1024").warnings.empty());
}

TEST(Config, MaxLoopIterations) {
  EXPECT_EQ(Parse({}).max_loop_iterations, UINT64_MAX);
  EXPECT_EQ(ParseOne("OCANN_MAX_LOOP_ITERATIONS", "10").max_loop_iterations, 10u);
  for (const char* bad : {"0", "-3", "ten", ""})
    EXPECT_EQ(ParseOne("OCANN_MAX_LOOP_ITERATIONS", bad).max_loop_iterations, UINT64_MAX) << bad;
}

TEST(Config, DeprecatedMaxTensorBytesStillWorksWithAWarning) {
  const Config old = ParseOne("OC_MAX_TENSOR_BYTES", "2048");
  EXPECT_EQ(old.max_tensor_bytes, 2048u);
  ASSERT_EQ(old.warnings.size(), 1u);
  EXPECT_NE(old.warnings[0].find("OC_MAX_TENSOR_BYTES is deprecated"), std::string::npos);
  EXPECT_NE(old.warnings[0].find("OCANN_MAX_TENSOR_BYTES"), std::string::npos);
  EXPECT_EQ(old.warnings[0].find('\n'), std::string::npos);
  // The new name wins; the old one is still reported.
  const Config both = Parse({{"OC_MAX_TENSOR_BYTES", "2048"}, {"OCANN_MAX_TENSOR_BYTES", "4096"}});
  EXPECT_EQ(both.max_tensor_bytes, 4096u);
  EXPECT_EQ(both.warnings.size(), 1u);

  // The warning goes through the project's logging, one line at warning level.
  const LogLevel before = GetLogLevel();
  SetLogLevel(LogLevel::kWarning);
  ::testing::internal::CaptureStderr();
  LogConfigWarnings(old);
  const std::string err = ::testing::internal::GetCapturedStderr();
  SetLogLevel(before);
  EXPECT_EQ(err, "[WARNING] " + old.warnings[0] + "\n");
}

TEST(Config, ToolPathsAndPackages) {
  EXPECT_EQ(ParseOne("OCANN_ATC", "/opt/atc").atc, "/opt/atc");
  EXPECT_EQ(ParseOne("OCANN_ATC", "").atc, "");
  // Set but empty is not unset for these two (the reader used the value as given).
  EXPECT_EQ(ParseOne("OCANN_ORT_REFERENCE", "/r.py").ort_reference, "/r.py");
  EXPECT_EQ(ParseOne("OCANN_ORT_REFERENCE", "").ort_reference, "");
  EXPECT_EQ(ParseOne("OCANN_PYTHON", "/py").python, "/py");
  EXPECT_TRUE(ParseOne("OCANN_ASCENDC_REPORT", "0").ascendc_report);  // set at all
  EXPECT_EQ(ParseOne("OCANN_SOC", "Ascend910B1").soc, "Ascend910B1");
  EXPECT_EQ(ParseOne("ASCEND_CUSTOM_OPP_PATH", "/a:/b").custom_opp_path, "/a:/b");
  EXPECT_EQ(ParseOne("ASCEND_OPP_PATH", "/opp").opp_path, "/opp");
  EXPECT_EQ(ParseOne("ASCEND_OPP_PATH", "").opp_path, "");
}

TEST(Config, ReadsTheProcessEnvironment) {
  setenv("OCANN_CONV_ALGO", "direct", 1);
  const Config c = ConfigFromEnvironment();
  unsetenv("OCANN_CONV_ALGO");
  ASSERT_TRUE(c.conv_algo.Get().ok());
  EXPECT_EQ(c.conv_algo.value, ConvAlgoMode::kDirect);
}

TEST(Config, TestsOverrideTheProcessConfiguration) {
  const Config* before = &GlobalConfig();
  {
    Config c = GlobalConfig();
    c.num_threads = 3;
    c.max_tensor_bytes = 4096;
    c.int8_plain = {true, {}};
    ScopedConfig scope(c);
    EXPECT_EQ(GlobalConfig().num_threads, 3);
    EXPECT_EQ(DefaultNumThreads(), 3);
    EXPECT_EQ(MaxTensorBytes(), 4096u);
    EXPECT_FALSE(TensorBytes({2048}, 4).ok());
    // Prepare contexts carry it to the kernels.
    KernelPrepareContext ctx;
    EXPECT_TRUE(ctx.config->int8_plain.value);
    {
      Config inner = c;
      inner.num_threads = 5;
      ScopedConfig nested(inner);
      EXPECT_EQ(DefaultNumThreads(), 5);
    }
    EXPECT_EQ(DefaultNumThreads(), 3);
  }
  EXPECT_EQ(&GlobalConfig(), before);
  EXPECT_EQ(MaxTensorBytes(), before->max_tensor_bytes);
}

// The names ParseConfig asks for: every one it knows (it looks each up unconditionally).
std::set<std::string> NamesTheConfigReads() {
  std::set<std::string> names;
  ParseConfig([&](const char* name) -> const char* {
    names.insert(name);
    return nullptr;
  });
  return names;
}

// The first column of README.md's table under "## Environment".
std::set<std::string> NamesInTheReadme() {
  std::ifstream in(std::string(OC_SOURCE_DIR) + "/README.md");
  std::set<std::string> names;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) inside = line == "## Environment";
    if (!inside || line.rfind("| `", 0) != 0) continue;
    const size_t end = line.find('`', 3);
    if (end != std::string::npos) names.insert(line.substr(3, end - 3));
  }
  return names;
}

TEST(Config, ReadmeTableListsEveryVariable) {
  std::set<std::string> want = NamesTheConfigReads();
  EXPECT_GE(want.size(), 20u);
  // Read outside the configuration by design: the Ascend C emulation (src/ascendc) and the
  // OpenMP wait policy, which runs before anything else (base/omp_wait_policy.cpp).
  for (const char* elsewhere :
       {"OCANN_ASCENDC_REPORT_DIR", "OCANN_ASCENDC_SYNC_TIMEOUT_S", "OCANN_OMP_KEEP_DEFAULT"})
    want.insert(elsewhere);
  const std::set<std::string> documented = NamesInTheReadme();
  for (const std::string& n : want)
    EXPECT_TRUE(documented.count(n)) << n << " is read but not in README.md's Environment table";
  for (const std::string& n : documented)
    EXPECT_TRUE(want.count(n)) << n << " is in README.md's Environment table but never read";
}

// Only the configuration reads the environment, in the code it covers.
TEST(Config, NothingElseReadsTheEnvironment) {
  namespace fs = std::filesystem;
  const fs::path root = OC_SOURCE_DIR;
  // Their own settings, by design (see config.h).
  const std::set<std::string> allowed = {"src/base/config.cpp", "src/base/omp_wait_policy.cpp"};
  const std::set<std::string> allowed_dirs = {"src/ascendc"};
  size_t files = 0;
  for (const char* dir : {"src", "tools", "python"}) {
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".cpp" && ext != ".h" && ext != ".cc")) continue;
      const std::string rel = fs::relative(e.path(), root).generic_string();
      bool skip = allowed.count(rel) > 0;
      for (const std::string& d : allowed_dirs) skip = skip || rel.rfind(d + "/", 0) == 0;
      if (skip) continue;
      ++files;
      std::ifstream in(e.path());
      std::stringstream text;
      text << in.rdbuf();
      EXPECT_EQ(text.str().find("getenv("), std::string::npos)
          << rel << " reads the environment: add the setting to oc::Config instead";
    }
  }
  EXPECT_GT(files, 100u);
}

}  // namespace
}  // namespace oc
