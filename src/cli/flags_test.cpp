// Unit tests of cli/flags.h: CANN-style command lines (--key=value, --key value, -key=value,
// boolean flags) parsed against a table of known keys, and the CANN codes of what is refused.
#include "cli/flags.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace oc {
namespace {

const std::set<std::string> kKnown = {"model", "output", "mode", "help", "verbose"};
const std::set<std::string> kBoolean = {"help", "verbose"};

// argv[0] is the program; `args` follow it.
Result<Flags> Parse(std::vector<std::string> args) {
  args.insert(args.begin(), "tool");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return Flags::Parse(static_cast<int>(argv.size()), argv.data(), kKnown, kBoolean);
}

TEST(CliFlags, EqualsFormGivesTheValue) {
  auto r = Parse({"--model=net.onnx", "--output=out/net"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->Get("model"), "net.onnx");
  EXPECT_EQ(r->Get("output"), "out/net");
  EXPECT_EQ(r->all().size(), 2u);
}

TEST(CliFlags, SeparateValueFormTakesTheNextArgument) {
  auto r = Parse({"--model", "net.onnx", "--mode", "0"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->Get("model"), "net.onnx");
  EXPECT_EQ(r->Get("mode"), "0");
  EXPECT_EQ(r->all().size(), 2u);
}

TEST(CliFlags, SingleDashIsAcceptedLikeDoubleDash) {
  auto r = Parse({"-model=a.pb", "-mode", "3"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->Get("model"), "a.pb");
  EXPECT_EQ(r->Get("mode"), "3");
}

TEST(CliFlags, OnlyTheFirstEqualsSplitsKeyAndValue) {
  auto r = Parse({"--output=a=b=c"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->Get("output"), "a=b=c");
}

TEST(CliFlags, EmptyValueAfterEqualsIsKeptAsGiven) {
  auto r = Parse({"--output="});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->Has("output"));
  EXPECT_EQ(r->Get("output", "default"), "");
}

TEST(CliFlags, BooleanFlagAloneIsTrue) {
  auto r = Parse({"--help", "--model=m"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->Get("help"), "true");
  // A boolean does not swallow the argument after it.
  EXPECT_EQ(r->Get("model"), "m");
}

TEST(CliFlags, BooleanFlagAtTheEndIsTrue) {
  auto r = Parse({"--model=m", "--verbose"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->Get("verbose"), "true");
}

TEST(CliFlags, BooleanFlagTakesAnExplicitValue) {
  auto r = Parse({"--verbose=false"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->Get("verbose"), "false");
}

TEST(CliFlags, LaterOccurrenceReplacesEarlierOne) {
  auto r = Parse({"--mode=0", "--mode", "3"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->Get("mode"), "3");
}

TEST(CliFlags, AbsentFlagGivesTheDefault) {
  auto r = Parse({"--mode=0"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->Has("model"));
  EXPECT_EQ(r->Get("model"), "");
  EXPECT_EQ(r->Get("model", "fallback"), "fallback");
}

TEST(CliFlags, NoArgumentsGiveNoFlags) {
  auto r = Parse({});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->all().empty());
  EXPECT_EQ(r->command_line(), "tool");
}

TEST(CliFlags, CommandLineIsArgvJoinedBySpaces) {
  auto r = Parse({"--model", "m.onnx", "--help"});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->command_line(), "tool --model m.onnx --help");
}

TEST(CliFlags, UnknownFlagIsRefusedWithE10001) {
  auto r = Parse({"--model=m", "--modle=x"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().cann_code(), "E10001");
  EXPECT_EQ(r.status().message(),
            "Value [--modle=x] is invalid. Reason: [--modle] is not a known parameter.");
}

TEST(CliFlags, UnknownFlagWithoutValueIsRefusedByItsName) {
  auto r = Parse({"--frobnicate"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().cann_code(), "E10001");
  EXPECT_EQ(r.status().message(),
            "Value [--frobnicate] is invalid. Reason: [--frobnicate] is not a known parameter.");
}

TEST(CliFlags, KeysAreCaseSensitive) {
  auto r = Parse({"--Model=m"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().cann_code(), "E10001");
}

TEST(CliFlags, PositionalArgumentIsRefusedWithE10001) {
  auto r = Parse({"net.onnx"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().cann_code(), "E10001");
  EXPECT_EQ(r.status().message(),
            "Value [net.onnx] is invalid. Reason: options look like --name=value.");
}

TEST(CliFlags, LoneDashIsRefused) {
  auto r = Parse({"-"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().cann_code(), "E10001");
}

TEST(CliFlags, ValueFlagWithoutValueIsRefusedWithE10004) {
  auto r = Parse({"--mode=0", "--model"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().cann_code(), "E10004");
  EXPECT_EQ(r.status().message(), "Value for --model is empty.");
}

}  // namespace
}  // namespace oc
