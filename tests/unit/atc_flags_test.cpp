// atc's flag table (cli/atc_flags.h) and flag checks (atc/atc_options.h) without running
// atc: what is accepted, what is refused, and the CANN code and message of each refusal.
#include "cli/atc_flags.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "atc/atc_options.h"
#include "base/log.h"

namespace oc {
namespace {

Result<Flags> Parse(std::vector<std::string> args) {
  args.insert(args.begin(), "atc");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return ParseAtcFlags(static_cast<int>(argv.size()), argv.data());
}

// A command line the test expects to parse (the checks are what is under test).
Flags Cmd(const std::vector<std::string>& args) {
  auto r = Parse(args);
  if (!r.ok()) {
    ADD_FAILURE() << r.status().ToString();
    return Flags();
  }
  return r.value();
}

// --mode=0's conversion flags that are valid, plus `more` (later ones replace earlier ones).
Flags ConvertCmd(const std::vector<std::string>& more) {
  std::vector<std::string> args = {"--model=m.onnx", "--framework=5", "--output=out",
                                   "--soc_version=Ascend910B3"};
  args.insert(args.end(), more.begin(), more.end());
  return Cmd(args);
}

void ExpectRefused(const Status& s, const std::string& code, const std::string& message) {
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.cann_code(), code) << s.ToString();
  EXPECT_EQ(s.message(), message);
}

std::string InvalidValue(const std::string& value, const std::string& flag,
                         const std::string& reason) {
  return "Value [" + value + "] for parameter [--" + flag + "] is invalid. Reason: " + reason;
}

// --log changes the process's log level: each test that passes it puts the level back.
class AtcFlags : public ::testing::Test {
 protected:
  void SetUp() override { level_ = GetLogLevel(); }
  void TearDown() override { SetLogLevel(level_); }

 private:
  LogLevel level_ = LogLevel::kNull;
};

TEST_F(AtcFlags, TableHoldsEveryFlagOnce) {
  const auto& names = AtcFlagNames();
  for (const char* flag : {"mode",
                           "model",
                           "weight",
                           "framework",
                           "output",
                           "soc_version",
                           "input_shape",
                           "input_format",
                           "precision_mode",
                           "precision_mode_v2",
                           "fusion_switch_file",
                           "log",
                           "om",
                           "json",
                           "check_report",
                           "dynamic_batch_size",
                           "dynamic_image_size",
                           "dynamic_dims",
                           "singleop",
                           "help",
                           "h",
                           "host_env_os",
                           "op_select_implmode"})
    EXPECT_TRUE(names.count(flag)) << flag;
  EXPECT_EQ(names.size(), 42u);
  EXPECT_EQ(AtcBooleanFlags(), (std::set<std::string>{"help", "h"}));
  for (const auto& b : AtcBooleanFlags()) EXPECT_TRUE(names.count(b)) << b;
  // Every flag of the table parses, in each of CANN's spellings; a boolean one also alone,
  // and then the next argument is not its value.
  for (const auto& name : names) {
    std::vector<std::vector<std::string>> spellings = {{"--" + name + "=v"}, {"-" + name + "=v"}};
    if (!AtcBooleanFlags().count(name)) spellings.push_back({"--" + name, "v"});
    for (const auto& args : spellings) {
      auto f = Parse(args);
      ASSERT_TRUE(f.ok()) << args[0] << ": " << f.status().ToString();
      EXPECT_EQ(f->Get(name), "v") << args[0];
    }
  }
  for (const auto& name : AtcBooleanFlags()) {
    auto alone = Parse({"--" + name, "--model=m.onnx"});
    ASSERT_TRUE(alone.ok()) << name << ": " << alone.status().ToString();
    EXPECT_EQ(alone->Get(name), "true");
    EXPECT_EQ(alone->Get("model"), "m.onnx");
    EXPECT_EQ(Parse({"--" + name, "v"}).status().cann_code(), "E10001");
  }
  // A flag that takes a value takes the next argument as it.
  auto model = Parse({"--model", "--help"});
  ASSERT_TRUE(model.ok());
  EXPECT_EQ(model->Get("model"), "--help");
  EXPECT_FALSE(model->Has("help"));
}

TEST_F(AtcFlags, UnknownFlagsAndBadArgumentsAreRefused) {
  ExpectRefused(Parse({"--frobnicate=1"}).status(), "E10001",
                "Value [--frobnicate=1] is invalid. Reason: [--frobnicate] is not a known "
                "parameter.");
  // CANN's flag names are exact: no other case, no dashes for underscores.
  EXPECT_EQ(Parse({"--Model=m.onnx"}).status().cann_code(), "E10001");
  EXPECT_EQ(Parse({"--soc-version=Ascend910B3"}).status().cann_code(), "E10001");
  ExpectRefused(Parse({"m.onnx"}).status(), "E10001",
                "Value [m.onnx] is invalid. Reason: options look like --name=value.");
  // A flag that takes a value, last and without one.
  ExpectRefused(Parse({"--model"}).status(), "E10004", "Value for --model is empty.");
}

TEST_F(AtcFlags, ModeValues) {
  const std::map<std::string, AtcMode> accepted = {{"0", AtcMode::kBuild},
                                                   {"1", AtcMode::kToJson},
                                                   {"3", AtcMode::kPreCheck},
                                                   {"6", AtcMode::kShowInfo}};
  for (const auto& [value, mode] : accepted) {
    auto m = CheckAtcFlags(Cmd({"--mode=" + value}));
    ASSERT_TRUE(m.ok()) << value << ": " << m.status().ToString();
    EXPECT_EQ(m.value(), mode) << value;
  }
  auto by_default = CheckAtcFlags(Cmd({"--model=m.onnx"}));
  ASSERT_TRUE(by_default.ok());
  EXPECT_EQ(by_default.value(), AtcMode::kBuild);
  auto single = CheckAtcFlags(Cmd({"--singleop=ops.json"}));
  ASSERT_TRUE(single.ok());
  EXPECT_EQ(single.value(), AtcMode::kSingleOp);
  for (const char* value : {"2", "4", "5", "7", "-1", "00", "build", ""})
    ExpectRefused(CheckAtcFlags(Cmd({std::string("--mode=") + value})).status(), "E10001",
                  InvalidValue(value, "mode", "the value must be 0, 1, 3 or 6."));
}

TEST_F(AtcFlags, FlagsOfAnotherModeOrFrameworkAreRefused) {
  ExpectRefused(CheckAtcFlags(Cmd({"--om=a.om"})).status(), "E10001",
                InvalidValue("a.om", "om", "it applies to --mode=1 or --mode=6, not --mode=0."));
  EXPECT_TRUE(CheckAtcFlags(Cmd({"--mode=6", "--om=a.om"})).ok());
  ExpectRefused(CheckAtcFlags(Cmd({"--mode=6", "--om=a.om", "--json=a.json"})).status(), "E10001",
                InvalidValue("a.json", "json", "it applies to --mode=1, not --mode=6."));
  ExpectRefused(CheckAtcFlags(Cmd({"--mode=1", "--check_report=r.json"})).status(), "E10001",
                InvalidValue("r.json", "check_report", "it applies to --mode=3, not --mode=1."));
  EXPECT_TRUE(CheckAtcFlags(Cmd({"--mode=3", "--check_report=r.json"})).ok());
  ExpectRefused(CheckAtcFlags(ConvertCmd({"--weight=w.caffemodel"})).status(), "E10001",
                InvalidValue("w.caffemodel", "weight", "it is only for --framework=0 (Caffe)."));
  EXPECT_TRUE(CheckAtcFlags(ConvertCmd({"--framework=0", "--weight=w.caffemodel"})).ok());
  ExpectRefused(CheckAtcFlags(ConvertCmd({"--optypelist_for_implmode=Conv"})).status(), "E10001",
                InvalidValue("Conv", "optypelist_for_implmode", "it needs --op_select_implmode."));
  EXPECT_TRUE(CheckAtcFlags(ConvertCmd({"--op_select_implmode=high_precision",
                                        "--optypelist_for_implmode=Conv"}))
                  .ok());
}

TEST_F(AtcFlags, LogValues) {
  for (const char* value : {"debug", "info", "warning", "error", "null"})
    EXPECT_TRUE(CheckAtcFlags(ConvertCmd({std::string("--log=") + value})).ok()) << value;
  ExpectRefused(CheckAtcFlags(ConvertCmd({"--log=loud"})).status(), "E10010",
                "Value [loud] for parameter [--log] is invalid. The value must be debug, info, "
                "warning, error or null.");
  EXPECT_EQ(CheckAtcFlags(ConvertCmd({"--log="})).status().cann_code(), "E10010");
}

// The flags OpenCANN takes only with the value that means what it does anyway.
TEST_F(AtcFlags, UnsupportedFlagValues) {
  struct Case {
    std::string flag;
    std::vector<std::string> accepted, refused;
    std::string reason;
  };
  const std::vector<Case> cases = {
      // The NPU's implementation and memory choices: every CANN value, recorded.
      {"op_select_implmode",
       {"high_precision", "high_precision_for_all", "high_performance", "high_performance_for_all"},
       {"fast"},
       "the value must be high_precision, high_performance, high_precision_for_all, "
       "high_performance_for_all."},
      {"enable_small_channel", {"0", "1"}, {"2"}, "the value must be 0, 1."},
      {"buffer_optimize",
       {"l2_optimize", "off_optimize", "l1_optimize"},
       {"l3_optimize"},
       "the value must be l2_optimize, l1_optimize, off_optimize."},
      {"allow_hf32", {"true", "false"}, {"1"}, "the value must be true, false."},
      {"is_input_adjust_hw_layout",
       {"false"},
       {"true"},
       "OpenCANN does not support hardware-layout (NC1HWC0) model inputs; the value it takes "
       "is false."},
      {"is_output_adjust_hw_layout",
       {"false"},
       {"true"},
       "OpenCANN does not support hardware-layout (NC1HWC0) model outputs; the value it takes "
       "is false."},
      {"op_debug_level",
       {"0"},
       {"1", "2", "3", "4"},
       "OpenCANN does not support operator debug builds; the value it takes is 0."},
      {"save_original_model",
       {"false"},
       {"true"},
       "OpenCANN does not support saving the original model beside the .om; the value it "
       "takes is false."},
      {"dump_mode",
       {"0"},
       {"1"},
       "OpenCANN does not support models built for dumping operator shapes; the value it takes "
       "is 0."},
      {"host_env_os",
       {"linux"},
       {"windows", "Linux"},
       "OpenCANN does not support host operating systems other than Linux; the value it takes "
       "is linux."},
      {"host_env_cpu",
       {"x86_64", "aarch64"},
       {"riscv64", "arm"},
       "OpenCANN does not support host CPUs other than x86_64 and aarch64; the value it takes "
       "is x86_64, aarch64."},
  };
  for (const auto& c : cases) {
    for (const auto& v : c.accepted) {
      auto m = CheckAtcFlags(ConvertCmd({"--" + c.flag + "=" + v}));
      EXPECT_TRUE(m.ok()) << c.flag << "=" << v << ": " << m.status().ToString();
    }
    for (const auto& v : c.refused)
      ExpectRefused(CheckAtcFlags(ConvertCmd({"--" + c.flag + "=" + v})).status(), "E10001",
                    InvalidValue(v, c.flag, c.reason));
  }
}

TEST_F(AtcFlags, RequiredConversionFlags) {
  ExpectRefused(CheckConvertFlags(Cmd({"--model=m.onnx", "--soc_version=Ascend910B3"})).status(),
                "E10007",
                "[--framework] is required. The value must be [0(Caffe) or 1(MindSpore) or "
                "3(TensorFlow) or 5(Onnx)].");
  ExpectRefused(CheckConvertFlags(Cmd({"--framework=5", "--soc_version=Ascend910B3"})).status(),
                "E10004", "Value for --model is empty.");
  ExpectRefused(CheckConvertFlags(ConvertCmd({"--model="})).status(), "E10004",
                "Value for --model is empty.");
  ExpectRefused(CheckConvertFlags(Cmd({"--model=m.onnx", "--framework=5"})).status(), "E10004",
                "Value for --soc_version is empty.");
  ExpectRefused(CheckConvertFlags(ConvertCmd({"--framework=0"})).status(), "E10008",
                "Input parameter[--weight]'s value is empty when framework is 0(Caffe).");
  for (const char* flag : {"out_nodes", "input_fp16_nodes", "output_type"})
    ExpectRefused(CheckConvertFlags(ConvertCmd({std::string("--") + flag + "="})).status(),
                  "E10004", std::string("Value for --") + flag + " is empty.");
  ExpectRefused(CheckOutputFlag(Cmd({"--model=m.onnx"})), "E10004", "Value for --output is empty.");
  ExpectRefused(CheckOutputFlag(Cmd({"--output="})), "E10004", "Value for --output is empty.");
  // --mode=1 needs --om and --json; --mode=6 --om.
  ExpectRefused(CheckJsonFlags(Cmd({"--mode=1", "--json=a.json"})), "E10004",
                "Value for --om is empty.");
  ExpectRefused(CheckJsonFlags(Cmd({"--mode=1", "--om=a.om"})), "E10004",
                "Value for --json is empty.");
  ExpectRefused(CheckOmFlag(Cmd({"--mode=6"})), "E10004", "Value for --om is empty.");
  ExpectRefused(
      CheckOmFlag(Cmd({"--mode=6", "--om=/nonexistent/a.om"})), "E10001",
      InvalidValue("/nonexistent/a.om", "om", "the file does not exist or cannot be read."));
  ExpectRefused(CheckOmFlag(Cmd({"--mode=6", "--om=/tmp"})), "E10001",
                InvalidValue("/tmp", "om", "it is a directory, not an .om file."));
  // With --framework, --mode=1's --om is a source model, which the frontend checks.
  EXPECT_TRUE(CheckJsonFlags(
                  Cmd({"--mode=1", "--om=/nonexistent/m.onnx", "--json=a.json", "--framework=5"}))
                  .ok());
}

TEST_F(AtcFlags, SingleOpFlags) {
  auto o =
      CheckSingleOpFlags(Cmd({"--singleop=ops.json", "--output=dir", "--soc_version=Ascend310P3"}));
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->soc_version, "Ascend310P3");
  for (const char* other : {"model", "framework", "weight", "input_shape", "insert_op_conf",
                            "dynamic_batch_size", "dynamic_image_size", "dynamic_dims"})
    ExpectRefused(
        CheckSingleOpFlags(Cmd({"--singleop=ops.json", "--output=dir", "--soc_version=Ascend910B3",
                                std::string("--") + other + "=x"}))
            .status(),
        "E10001", InvalidValue("x", other, "it does not apply with --singleop."));
  ExpectRefused(
      CheckSingleOpFlags(Cmd({"--singleop=ops.json", "--soc_version=Ascend910B3"})).status(),
      "E10004", "Value for --output is empty.");
  ExpectRefused(CheckSingleOpFlags(Cmd({"--singleop=ops.json", "--output=dir"})).status(), "E10004",
                "Value for --soc_version is empty.");
  ExpectRefused(
      CheckSingleOpFlags(Cmd({"--singleop=ops.json", "--output=dir", "--soc_version=Ascend9"}))
          .status(),
      "E10001", InvalidValue("Ascend9", "soc_version", "OpenCANN does not know this SoC."));
}

TEST_F(AtcFlags, FrameworkValues) {
  for (const char* fw : {"0", "1", "3", "5"}) {
    std::vector<std::string> args = {std::string("--framework=") + fw};
    if (std::string(fw) == "0") args.push_back("--weight=w.caffemodel");
    auto o = CheckConvertFlags(ConvertCmd(args));
    ASSERT_TRUE(o.ok()) << fw << ": " << o.status().ToString();
    EXPECT_EQ(o->framework, fw);
    // TensorFlow's inputs are NHWC unless told otherwise, the others' NCHW.
    EXPECT_EQ(o->input_format, std::string(fw) == "3" ? "NHWC" : "NCHW") << fw;
  }
  for (const char* fw : {"2", "4", "6", "9", "onnx", ""})
    ExpectRefused(CheckConvertFlags(ConvertCmd({std::string("--framework=") + fw})).status(),
                  "E10007",
                  std::string("[--framework] is invalid: [") + fw +
                      "]. The value must be [0(Caffe) or 1(MindSpore) or 3(TensorFlow) or "
                      "5(Onnx)].");
}

TEST_F(AtcFlags, ConvertOptionsCarryTheFlags) {
  auto o = CheckConvertFlags(
      ConvertCmd({"--soc_version=Ascend310P3", "--input_shape=x:1,3,8,8", "--out_nodes=conv:0",
                  "--input_fp16_nodes=x", "--output_type=FP16", "--insert_op_conf=aipp.cfg"}));
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->model, "m.onnx");
  EXPECT_EQ(o->soc_version, "Ascend310P3");
  ASSERT_EQ(o->shapes.size(), 1u);
  EXPECT_EQ(o->shapes[0].name, "x");
  EXPECT_EQ(o->shapes[0].dims, (Shape{1, 3, 8, 8}));
  EXPECT_EQ(o->out_nodes, "conv:0");
  EXPECT_EQ(o->input_fp16_nodes, "x");
  EXPECT_EQ(o->output_type, "FP16");
  EXPECT_EQ(o->insert_op_conf, "aipp.cfg");
  EXPECT_TRUE(o->compile.reuse_memory);
  EXPECT_FALSE(o->gears.has_value());
  EXPECT_NE(o->command_line.find("--out_nodes=conv:0"), std::string::npos) << o->command_line;
}

TEST_F(AtcFlags, SocVersionValues) {
  for (const char* soc : {"Ascend910B3", "Ascend910B4", "Ascend310P3", "Ascend310B1"})
    EXPECT_TRUE(CheckConvertFlags(ConvertCmd({std::string("--soc_version=") + soc})).ok()) << soc;
  auto bad = CheckConvertFlags(ConvertCmd({"--soc_version=Ascend9999"}));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().cann_code(), "E10001");
  EXPECT_EQ(
      bad.status().message().rfind(
          InvalidValue("Ascend9999", "soc_version", "it is not a supported chip. Supported: "), 0),
      0u)
      << bad.status().message();
  EXPECT_NE(bad.status().message().find("Ascend910B3"), std::string::npos);
  ExpectRefused(CheckConvertFlags(ConvertCmd({"--soc_version="})).status(), "E10004",
                "Value for --soc_version is empty.");
}

TEST_F(AtcFlags, InputFormatValues) {
  for (const char* fmt : {"NCHW", "ND", "NCDHW"}) {
    auto o = CheckConvertFlags(ConvertCmd({std::string("--input_format=") + fmt}));
    ASSERT_TRUE(o.ok()) << fmt << ": " << o.status().ToString();
    EXPECT_EQ(o->input_format, fmt);
  }
  // Channels-last formats only for the frameworks whose models may be channels-last.
  for (const char* fmt : {"NHWC", "NDHWC"}) {
    EXPECT_TRUE(
        CheckConvertFlags(ConvertCmd({"--framework=3", std::string("--input_format=") + fmt})).ok())
        << fmt;
    ExpectRefused(CheckConvertFlags(ConvertCmd({std::string("--input_format=") + fmt})).status(),
                  "E10001",
                  InvalidValue(fmt, "input_format",
                               "for ONNX models (--framework=5) the value must be NCHW, ND or "
                               "NCDHW."));
    ExpectRefused(CheckConvertFlags(ConvertCmd({"--framework=0", "--weight=w.caffemodel",
                                                std::string("--input_format=") + fmt}))
                      .status(),
                  "E10001",
                  InvalidValue(fmt, "input_format",
                               "for Caffe models (--framework=0) the value must be NCHW, ND or "
                               "NCDHW."));
  }
  for (const char* fmt : {"NCWH", "nchw", "NC1HWC0", ""})
    ExpectRefused(
        CheckConvertFlags(ConvertCmd({std::string("--input_format=") + fmt})).status(), "E10001",
        InvalidValue(fmt, "input_format", "the value must be NCHW, NHWC, ND, NCDHW or NDHWC."));
}

TEST_F(AtcFlags, DisableReuseMemoryValues) {
  auto reuse = CheckConvertFlags(ConvertCmd({"--disable_reuse_memory=0"}));
  ASSERT_TRUE(reuse.ok());
  EXPECT_TRUE(reuse->compile.reuse_memory);
  auto no_reuse = CheckConvertFlags(ConvertCmd({"--disable_reuse_memory=1"}));
  ASSERT_TRUE(no_reuse.ok());
  EXPECT_FALSE(no_reuse->compile.reuse_memory);
  for (const char* v : {"2", "-1", "true", ""})
    ExpectRefused(
        CheckConvertFlags(ConvertCmd({std::string("--disable_reuse_memory=") + v})).status(),
        "E10001", InvalidValue(v, "disable_reuse_memory", "the value must be 0 or 1."));
}

TEST_F(AtcFlags, PrecisionModeValues) {
  for (const char* mode : {"force_fp16", "force_fp32", "allow_fp32_to_fp16",
                           "must_keep_origin_dtype", "allow_mix_precision"}) {
    auto o = CheckConvertFlags(ConvertCmd({std::string("--precision_mode=") + mode}));
    ASSERT_TRUE(o.ok()) << mode << ": " << o.status().ToString();
    EXPECT_EQ(o->compile.precision.name, mode);
  }
  for (const char* mode : {"fp16", "origin", "mixed_float16", "mixed_bfloat16"})
    EXPECT_TRUE(CheckConvertFlags(ConvertCmd({std::string("--precision_mode_v2=") + mode})).ok())
        << mode;
  for (const char* flag : {"precision_mode", "precision_mode_v2"}) {
    auto bad = CheckConvertFlags(ConvertCmd({std::string("--") + flag + "=fp3"}));
    ASSERT_FALSE(bad.ok()) << flag;
    EXPECT_EQ(bad.status().cann_code(), "E10001");
    EXPECT_EQ(
        bad.status().message().rfind(InvalidValue("fp3", flag, "the value must be one of "), 0), 0u)
        << bad.status().message();
  }
  ExpectRefused(
      CheckConvertFlags(ConvertCmd({"--precision_mode=force_fp16", "--precision_mode_v2=fp16"}))
          .status(),
      "E10001", "Parameters [--precision_mode] and [--precision_mode_v2] cannot be used together.");
  // bfloat16 is refused on the chips that have none.
  ExpectRefused(
      CheckConvertFlags(
          ConvertCmd({"--soc_version=Ascend310P3", "--precision_mode=allow_mix_precision_bf16"}))
          .status(),
      "E10001",
      InvalidValue("allow_mix_precision_bf16", "precision_mode", "Ascend310P3 has no bfloat16."));
  ExpectRefused(
      CheckConvertFlags(
          ConvertCmd({"--soc_version=Ascend310P3", "--precision_mode_v2=mixed_bfloat16"}))
          .status(),
      "E10001",
      InvalidValue("mixed_bfloat16", "precision_mode_v2", "Ascend310P3 has no bfloat16."));
  EXPECT_TRUE(CheckConvertFlags(ConvertCmd({"--precision_mode=allow_mix_precision_bf16"})).ok());
  for (const char* flag : {"keep_dtype", "customize_dtypes", "modify_mixlist"})
    ExpectRefused(
        CheckConvertFlags(ConvertCmd({std::string("--") + flag + "=/nonexistent/x.cfg"})).status(),
        "E10001", InvalidValue("/nonexistent/x.cfg", flag, "the file cannot be read."));
}

// The numeric limits: output path length, gear counts and values.
TEST_F(AtcFlags, NumericRanges) {
  const std::string long_path(4001, 'a');
  ExpectRefused(CheckOutputFlag(Cmd({"--output=" + long_path})), "E10021",
                "Path [" + long_path.substr(0, 64) + "...] for parameter [--output] is too long.");
  EXPECT_TRUE(CheckOutputFlag(Cmd({"--output=" + std::string(4000, 'a')})).ok());
  ExpectRefused(CheckOutputFlag(Cmd({"--output=/tmp/"})), "E10022",
                "Path [/tmp/] for parameter [--output] has no file name.");
  ExpectRefused(CheckOutputFlag(Cmd({"--output=/nonexistent/dir/m"})), "E10001",
                InvalidValue("/nonexistent/dir/m", "output",
                             "the folder [/nonexistent/dir] does not exist; create it first."));
  EXPECT_TRUE(CheckOutputFlag(Cmd({"--output=/tmp/m"})).ok());

  auto gears =
      CheckConvertFlags(ConvertCmd({"--input_shape=x:-1,3", "--dynamic_batch_size=1,2,4"}));
  ASSERT_TRUE(gears.ok()) << gears.status().ToString();
  ASSERT_TRUE(gears->gears.has_value());
  EXPECT_EQ(gears->gears->kind, GearKind::kBatch);
  EXPECT_EQ(gears->gears->gears, (std::vector<std::vector<int64_t>>{{1}, {2}, {4}}));
  std::string hundred, hundred_one;
  for (int i = 1; i <= 101; ++i) {
    if (i <= 100) hundred += (i > 1 ? "," : "") + std::to_string(i);
    hundred_one += (i > 1 ? "," : "") + std::to_string(i);
  }
  EXPECT_TRUE(
      CheckConvertFlags(ConvertCmd({"--input_shape=x:-1,3", "--dynamic_batch_size=" + hundred}))
          .ok());
  const std::vector<std::pair<std::string, std::string>> refused = {
      {"1", "the number of gears must be between 2 and 100, got 1"},
      {hundred_one, "the number of gears must be between 2 and 100, got 101"},
      {"1,0", "gear values must be positive, got 0"},
      {"1,-2", "gear values must be positive, got -2"},
      {"1,x", "[x] is not a number"},
      {"2,2", "a gear is given twice"},
  };
  for (const auto& [value, reason] : refused)
    ExpectRefused(
        CheckConvertFlags(ConvertCmd({"--input_shape=x:-1,3", "--dynamic_batch_size=" + value}))
            .status(),
        "E10001", InvalidValue(value, "dynamic_batch_size", reason));
  ExpectRefused(
      CheckConvertFlags(ConvertCmd({"--input_shape=x:1,3,-1,-1", "--dynamic_image_size=8,8;16"}))
          .status(),
      "E10001",
      InvalidValue("8,8;16", "dynamic_image_size", "each gear must be \"height,width\", got [16]"));
  ExpectRefused(CheckConvertFlags(ConvertCmd({"--dynamic_batch_size=1,2"})).status(), "E10001",
                "Parameter [--dynamic_batch_size] needs [--input_shape] with -1 at the "
                "dimensions the gears set.");
  EXPECT_EQ(CheckConvertFlags(ConvertCmd({"--input_shape=x:-1,3", "--dynamic_batch_size=1,2",
                                          "--dynamic_dims=1;2"}))
                .status()
                .cann_code(),
            "E10009");
  EXPECT_EQ(CheckConvertFlags(ConvertCmd({"--input_shape=x:99999999999999999999999,4"}))
                .status()
                .cann_code(),
            "E10002");
  EXPECT_EQ(CheckConvertFlags(ConvertCmd({"--input_shape=x"})).status().cann_code(), "E10002");
}

TEST_F(AtcFlags, FusionSwitchFile) {
  // A folder of its own: other runs of this test may share the temporary folder.
  std::string tmpl = ::testing::TempDir() + "atc_flags_XXXXXX";
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  const std::string dir = tmpl;
  auto write = [&](const std::string& name, const std::string& text) {
    const std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    return path;
  };
  auto lines = ReadFusionSwitch(write("switch.cfg", "# off\nFuseConvActivation:off\n\n"));
  ASSERT_TRUE(lines.ok()) << lines.status().ToString();
  EXPECT_EQ(lines.value(), (std::set<std::string>{"FuseConvActivation"}));
  // ALL turns every fusion off; a named pass may turn itself back on.
  auto all = ReadFusionSwitch(write(
      "switch.json", R"({"Switch": {"GraphFusion": {"ALL": "off", "FuseConvActivation": "on"}}})"));
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_FALSE(all->empty());
  EXPECT_FALSE(all->count("FuseConvActivation"));
  EXPECT_FALSE(all->count("InferShapes"));
  const std::string bad_value = write("bad_value.cfg", "FuseConvActivation:maybe\n");
  ExpectRefused(ReadFusionSwitch(bad_value).status(), "E10001",
                InvalidValue(bad_value, "fusion_switch_file",
                             "pass [FuseConvActivation] is set to [maybe]; the value must be on "
                             "or off."));
  const std::string bad_line = write("bad_line.cfg", "FuseConvActivation\n");
  ExpectRefused(ReadFusionSwitch(bad_line).status(), "E10001",
                InvalidValue(bad_line, "fusion_switch_file",
                             "line [FuseConvActivation] is not \"PassName:off\""));
  const std::string bad_section = write("bad_section.json", R"({"Switch": {"Other": {}}})");
  ExpectRefused(ReadFusionSwitch(bad_section).status(), "E10001",
                InvalidValue(bad_section, "fusion_switch_file",
                             "unknown section [Other]; the sections are GraphFusion and "
                             "UBFusion."));
  ExpectRefused(
      ReadFusionSwitch("/nonexistent/switch.cfg").status(), "E10001",
      InvalidValue("/nonexistent/switch.cfg", "fusion_switch_file", "the file cannot be read."));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace oc
