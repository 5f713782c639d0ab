// ocann-compare: the accuracy comparison of an .om against its source model.
//   ocann-compare -m model.onnx -om model.om [-i in0.npy,in1.bin] [-d DUMP_DIR] [-o DIR]
// With -d it compares the dump files of a run (an NPU's or OpenCANN's) instead of running
// the .om itself.
// Writes DIR/compare_result.csv (CANN's columns) and prints a summary naming the first op
// that breaks a threshold and the atc flag that keeps it in fp32.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "base/file.h"
#include "compare/compare.h"

namespace {

int Usage() {
  std::fprintf(stderr,
               "usage: ocann-compare -m MODEL.onnx -om MODEL.om [-i IN0.npy,IN1.bin,...] "
               "[-d DUMP_DIR] [--reference opencann|onnxruntime] [-o OUTPUT_DIR]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  oc::CompareOptions o;
  std::string out_dir = ".";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (a == "-h" || a == "--help") {
      Usage();
      return 0;
    }
    if ((a == "-m" || a == "--model") && (v = value())) {
      o.source_model = v;
    } else if ((a == "-om" || a == "--om") && (v = value())) {
      o.om_model = v;
    } else if ((a == "-i" || a == "--input") && (v = value())) {
      std::string list = v;
      size_t pos = 0;
      while (pos <= list.size()) {
        size_t c = list.find(',', pos);
        if (c == std::string::npos) c = list.size();
        if (c > pos) o.inputs.push_back(list.substr(pos, c - pos));
        pos = c + 1;
      }
    } else if (a == "--reference" && (v = value())) {
      o.reference = v;
    } else if ((a == "-d" || a == "--dump") && (v = value())) {
      o.dump_dir = v;
    } else if ((a == "-o" || a == "--output") && (v = value())) {
      out_dir = v;
    } else {
      std::fprintf(stderr, "ocann-compare: unknown or incomplete argument [%s]\n", a.c_str());
      return Usage();
    }
  }
  if (o.source_model.empty() || o.om_model.empty()) return Usage();
  auto report = oc::RunCompare(o);
  if (!report.ok()) {
    std::fprintf(stderr, "ocann-compare: %s\n", report.status().ToString().c_str());
    return 1;
  }
  if (oc::Status s = oc::CreateDirectories(out_dir); !s.ok()) {
    std::fprintf(stderr, "ocann-compare: %s\n", s.ToString().c_str());
    return 1;
  }
  const std::string csv = out_dir + "/compare_result.csv";
  if (oc::Status s = oc::WriteFileAtomic(csv, oc::CompareCsv(report.value())); !s.ok()) {
    std::fprintf(stderr, "ocann-compare: %s\n", s.ToString().c_str());
    return 1;
  }
  const std::string html = out_dir + "/compare_report.html";
  if (oc::Status s = oc::WriteFileAtomic(html, oc::CompareHtml(report.value())); !s.ok()) {
    std::fprintf(stderr, "ocann-compare: %s\n", s.ToString().c_str());
    return 1;
  }
  std::printf("%s", oc::CompareSummary(report.value()).c_str());
  std::printf("result: %s\nreport: %s\n", csv.c_str(), html.c_str());
  return 0;
}
