// The round-trip property (fuzz/round_trip.h) over committed corpora, deterministically:
// every input the converter accepts must load back through the runtime from the .om bytes
// the compiler wrote, and execute once on zero-filled inputs. ctest round_trip_corpus runs
// it over the importer harnesses' seeds and regressions and the bad-input corpus.
//
//   oc_round_trip_corpus [-v] KIND:PATH...
//
// KIND is onnx, caffe, tf or air; PATH a file or a folder (its files, not recursing). A
// caffe input is the fuzz harness's joined form (prototxt, "#WEIGHTS" line, .caffemodel),
// or a .prototxt file taken with the .caffemodel of the same stem beside it. Exit 1 when the
// runtime refuses an .om the compiler wrote; every outcome is counted on stdout.
#include <google/protobuf/stubs/logging.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "base/file.h"
#include "base/log.h"
#include "frontend/caffe/caffe_importer.h"
#include "round_trip.h"

namespace fs = std::filesystem;
using oc::fuzz::InputKind;
using oc::fuzz::RoundTrip;

namespace {

bool KindOf(const std::string& word, InputKind* kind) {
  static const std::map<std::string, InputKind> kKinds = {{"onnx", InputKind::kOnnx},
                                                          {"caffe", InputKind::kCaffeJoined},
                                                          {"tf", InputKind::kTensorFlow},
                                                          {"air", InputKind::kAir}};
  auto it = kKinds.find(word);
  if (it == kKinds.end()) return false;
  *kind = it->second;
  return true;
}

oc::fuzz::RoundTripResult RunFile(InputKind kind, const fs::path& path) {
  auto bytes = oc::ReadFile(path.string());
  if (!bytes.ok()) {
    oc::fuzz::RoundTripResult r;
    r.detail = bytes.status().ToString();
    return r;
  }
  if (kind == InputKind::kCaffeJoined && path.extension() == ".prototxt") {
    fs::path weights = path;
    weights.replace_extension(".caffemodel");
    std::string model;
    if (fs::is_regular_file(weights)) {
      auto read = oc::ReadFile(weights.string());
      if (read.ok()) model = read.value();
    }
    return oc::fuzz::RunRoundTrip(oc::ImportCaffeBuffers(bytes.value(), model, path.string()),
                                  kind);
  }
  return oc::fuzz::RunRoundTrip(
      oc::fuzz::ImportInput(kind, bytes.value(), path.parent_path().string()), kind);
}

std::string FirstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

}  // namespace

int main(int argc, char** argv) {
  oc::SetLogLevel(oc::LogLevel::kNull);
  google::protobuf::SetLogHandler(nullptr);  // invalid UTF-8 in the corpus: expected, not news
  bool verbose = false;
  // With --refusals-ok a loader refusal is atc's refusal (atc loads what it writes before
  // keeping it): the inputs that once crashed are replayed for crashes only.
  bool refusals_ok = false;
  std::vector<std::pair<InputKind, fs::path>> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "-v") {
      verbose = true;
      continue;
    }
    if (arg == "--refusals-ok") {
      refusals_ok = true;
      continue;
    }
    const size_t colon = arg.find(':');
    InputKind kind;
    if (colon == std::string::npos || !KindOf(arg.substr(0, colon), &kind)) {
      std::fprintf(stderr, "usage: %s [-v] [--refusals-ok] {onnx,caffe,tf,air}:PATH...\n", argv[0]);
      return 2;
    }
    const fs::path path = arg.substr(colon + 1);
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<fs::path> found;
      for (const auto& e : fs::directory_iterator(path, ec))
        if (e.is_regular_file() && e.path().extension() != ".caffemodel" &&
            e.path().extension() != ".bin" && e.path().extension() != ".data")
          found.push_back(e.path());
      std::sort(found.begin(), found.end());
      for (const auto& f : found) files.emplace_back(kind, f);
    } else if (fs::is_regular_file(path, ec)) {
      files.emplace_back(kind, path);
    } else {
      std::fprintf(stderr, "%s: no such file or folder\n", path.c_str());
      return 2;
    }
  }
  const auto start = std::chrono::steady_clock::now();
  std::map<std::string, std::map<RoundTrip, size_t>> counts;
  std::vector<std::string> refused, failed;
  for (const auto& [kind, path] : files) {
    const auto r = RunFile(kind, path);
    counts[oc::fuzz::FrameworkOf(kind)][r.outcome]++;
    const std::string line = path.string() + ": " + oc::fuzz::RoundTripName(r.outcome) +
                             (r.detail.empty() ? "" : " -- " + FirstLine(r.detail));
    if (verbose) std::printf("%s\n", line.c_str());
    if (r.outcome == RoundTrip::kLoadRefused) refused.push_back(line);
    if (r.outcome == RoundTrip::kExecutionFailed) failed.push_back(line);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%-10s %6s %10s %8s %8s %9s %8s %8s\n", "framework", "files", "converted", "executed",
              "too big", "exec err", "refused", "no .om");
  for (const auto& entry : counts) {
    // Named, not a structured binding: clang 14 cannot capture one in the lambda below.
    const std::string& framework = entry.first;
    const auto& c = entry.second;
    size_t total = 0;
    for (const auto& [outcome, n] : c) total += n;
    auto get = [&](RoundTrip o) {
      auto it = c.find(o);
      return it == c.end() ? size_t{0} : it->second;
    };
    const size_t converted = total - get(RoundTrip::kNotConverted);
    std::printf("%-10s %6zu %10zu %8zu %8zu %9zu %8zu %8zu\n", ("--framework=" + framework).c_str(),
                total, converted, get(RoundTrip::kExecuted), get(RoundTrip::kLoaded),
                get(RoundTrip::kExecutionFailed), get(RoundTrip::kLoadRefused),
                get(RoundTrip::kNotSerialized));
  }
  for (const auto& line : failed)
    std::printf("execution error (not a failure): %s\n", line.c_str());
  for (const auto& line : refused) std::printf("REFUSED: %s\n", line.c_str());
  std::printf("%zu inputs in %.1f s; %zu .om files the runtime refused\n", files.size(), seconds,
              refused.size());
  return refused.empty() || refusals_ok ? 0 : 1;
}
