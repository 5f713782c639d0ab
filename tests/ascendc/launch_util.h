// Shared by the Ascend C tests: run a kernel body and keep what it printed, so a test can
// assert on the emulator's report as a user would read it.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>

#include "kernel_operator.h"
#include "tikicpulib.h"

namespace oc_test {

// Runs `body` on `blocks` blocks; returns (launch succeeded, everything printed to stdout).
template <typename F>
std::pair<bool, std::string> Launch(const char* name, uint32_t blocks, F body) {
  testing::internal::CaptureStdout();
  const bool ok = AscendC::detail::RunKernel(name, blocks, body);
  return {ok, testing::internal::GetCapturedStdout()};
}

// Runs `body` in `mode` without printing the report or writing cost files; the result holds
// the errors, warnings and cost estimate.
inline AscendC::detail::LaunchResult LaunchQuiet(
    const char* name, uint32_t blocks, const std::function<void()>& body,
    AscendC::KernelMode mode = AscendC::KernelMode::AIV_MODE) {
  AscendC::detail::LaunchOptions options;
  options.report = false;
  options.mode = mode;
  return AscendC::detail::Launch(name, blocks, body, options);
}

// How many times `piece` occurs in `text` (overlaps counted).
inline size_t Count(const std::string& text, const std::string& piece) {
  size_t n = 0;
  for (size_t at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) ++n;
  return n;
}

}  // namespace oc_test

#define EXPECT_HAS(text, piece) EXPECT_NE((text).find(piece), std::string::npos) << (text)
