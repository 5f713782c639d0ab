// gpu2npu: should this GPU project move to an Ascend NPU, what will it cost, what changes.
//   gpu2npu analyse PATH [--format text|json|markdown] [-o FILE] [--csv DIR] [--no-color]
//   gpu2npu tree
// Exit code: 0 no findings, 1 findings, 2 error.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "base/file.h"
#include "migrate/analysis.h"
#include "migrate/fit.h"
#include "migrate/migrate.h"
#include "migrate/report.h"

namespace {

const char* const kAnalyseHelp =
    "usage: gpu2npu analyse PATH [--format text|json|markdown|html] [-o FILE] [--csv DIR]\n"
    "                       [--no-color]\n"
    "  Reads a project (folder or file), walks the seed's decision tree and cost table and\n"
    "  prints the verdict, the estimate in person-days and every finding.\n"
    "  --format   text (default), json (schema opencann.gpu2npu/2), markdown, html\n"
    "  -o FILE    write the report to FILE instead of stdout\n"
    "  --csv DIR  also write cuda_op_list.csv, unsupported_api.csv, api_performance_advice.csv\n"
    "  exit code: 0 nothing found, 1 findings, 2 error\n";
const char* const kMigrateHelp =
    "usage: gpu2npu migrate PATH -o OUT\n"
    "  Copies PATH to OUT (new or empty, not overlapping PATH) and rewrites the copy for\n"
    "  torch_npu: device strings (f-strings and format strings too), .cuda(), torch.cuda.*,\n"
    "  AMP, NCCL -> HCCL, CUDA graphs -> NPUGraph, environment variables, notebooks cell by\n"
    "  cell. OUT/gpu2npu_report/ holds change_list.csv, unmigrated.csv and migration.diff\n"
    "  (patch -p1 applies it to the original). exit code: 0 done, 2 error\n";
const char* const kFitHelp =
    "usage: gpu2npu fit --params 7B|13B|1.3e9|llama-7b [--method inference|full|lora|qlora]\n"
    "                   [--dtype bf16] [--batch 1] [--seq 2048] [--device Ascend910B3]\n"
    "                   [--lora-rank 16] [--lora-targets q,v] [--kv-heads N]\n"
    "                   [--attention fused|eager] [--format text|json]\n"
    "  Memory for weights, gradients, optimizer states, KV cache and activations against one\n"
    "  card. --lora-targets: q,k,v,o,gate,up,down or all (PEFT's Llama default: q,v).\n"
    "  --attention fused (default on NPU: npu_fusion_attention keeps no score matrix) or\n"
    "  eager. exit code: 0 fits one card, 1 does not, 2 error\n";
const char* const kTreeHelp =
    "usage: gpu2npu tree\n  Prints the decision tree the verdict applies.\n";

int PrintUsage(int code) {
  std::fprintf(code ? stderr : stdout,
               "usage: gpu2npu COMMAND [OPTIONS]   (gpu2npu COMMAND --help for details)\n"
               "  analyse PATH   verdict, estimate and findings for a GPU project\n"
               "  migrate PATH -o OUT   a migrated copy, its diff and what is left for a person\n"
               "  fit --params 7B --method lora   will a model fit one card\n"
               "  tree           the decision tree the verdict applies\n"
               "exit code: 0 nothing found / fits, 1 findings / does not fit, 2 error\n");
  return code;
}

bool WantsHelp(int argc, char** argv) {
  for (int i = 2; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace oc::migrate;
  if (argc < 2) return PrintUsage(2);
  const std::string cmd = argv[1];
  if (cmd == "-h" || cmd == "--help" || cmd == "help") return PrintUsage(0);
  if (WantsHelp(argc, argv)) {
    const char* help = cmd == "analyse" || cmd == "analyze" ? kAnalyseHelp
                       : cmd == "migrate"                   ? kMigrateHelp
                       : cmd == "fit"                       ? kFitHelp
                       : cmd == "tree"                      ? kTreeHelp
                                                            : nullptr;
    if (!help) {
      std::fprintf(stderr, "gpu2npu: unknown command [%s]\n", cmd.c_str());
      return PrintUsage(2);
    }
    std::fputs(help, stdout);
    return 0;
  }
  if (cmd == "tree") {
    for (const auto& n : DecisionTree())
      std::printf("%-22s %-60s -> %s [%s]\n", BranchId(n.branch), n.question, n.answer,
                  LevelName(n.level));
    return 0;
  }
  if (cmd == "migrate") {
    std::string src, out;
    for (int i = 2; i < argc; ++i) {
      const std::string a = argv[i];
      if ((a == "-o" || a == "--output") && i + 1 < argc)
        out = argv[++i];
      else if (!a.empty() && a[0] != '-' && src.empty())
        src = a;
      else {
        std::fprintf(stderr, "gpu2npu migrate: unexpected argument [%s]\n%s", a.c_str(),
                     kMigrateHelp);
        return 2;
      }
    }
    if (src.empty() || out.empty()) {
      std::fprintf(stderr, "%s", kMigrateHelp);
      return 2;
    }
    auto m = MigrateProject(src, out);
    if (!m.ok()) {
      std::fprintf(stderr, "gpu2npu migrate: %s\n", m.status().message().c_str());
      return 2;
    }
    std::printf("gpu2npu migrate: %zu edits in %d files, written to %s\n", m->edits.size(),
                m->files_changed, out.c_str());
    for (const auto& e : m->edits)
      std::printf("  %s:%d %s\n", e.file.c_str(), e.line, e.message.c_str());
    std::printf("left for a person: %zu findings (gpu2npu_report/unmigrated.csv)\n",
                m->left.size());
    for (const auto& f : m->left)
      std::printf("  %s:%d [%s] %s -> %s\n", f.file.c_str(), f.line, SeverityName(f.severity),
                  f.api.c_str(), f.counterpart.c_str());
    std::printf("edits: gpu2npu_report/change_list.csv, gpu2npu_report/migration.diff\n");
    return 0;
  }
  if (cmd == "fit") {
    FitRequest q;
    std::string format = "text";
    for (int i = 2; i < argc; ++i) {
      const std::string a = argv[i];
      if (i + 1 >= argc) {
        std::fprintf(stderr, "gpu2npu fit: option [%s] needs a value\n", a.c_str());
        return 2;
      }
      const std::string v = argv[++i];
      try {
        if (a == "--params" || a == "--model")
          q.model = v;
        else if (a == "--method")
          q.method = v;
        else if (a == "--dtype")
          q.dtype = v;
        else if (a == "--batch")
          q.batch = std::stoi(v);
        else if (a == "--seq")
          q.seq = std::stoi(v);
        else if (a == "--device")
          q.device = v;
        else if (a == "--lora-rank")
          q.lora_rank = std::stoi(v);
        else if (a == "--lora-targets")
          q.lora_targets = v;
        else if (a == "--kv-heads")
          q.kv_heads = std::stoi(v);
        else if (a == "--attention")
          q.attention = v;
        else if (a == "--format")
          format = v;
        else {
          std::fprintf(stderr, "gpu2npu fit: unknown option [%s]\n", a.c_str());
          return 2;
        }
      } catch (...) {
        std::fprintf(stderr, "gpu2npu fit: [%s] needs a number, got [%s]\n", a.c_str(), v.c_str());
        return 2;
      }
    }
    auto r = EstimateFit(q);
    if (!r.ok()) {
      std::fprintf(stderr, "gpu2npu fit: %s\n", r.status().message().c_str());
      return 2;
    }
    std::fputs((format == "json" ? FitJson(r.value()) : FitText(r.value())).c_str(), stdout);
    return r->fits || r->fits_with_recompute ? 0 : 1;
  }
  if (cmd != "analyse" && cmd != "analyze") {
    std::fprintf(stderr, "gpu2npu: unknown command [%s]\n", cmd.c_str());
    return PrintUsage(2);
  }
  std::string path, format = "text", out, csv;
  bool color = isatty(STDOUT_FILENO);
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string* v) {
      if (i + 1 >= argc) return false;
      *v = argv[++i];
      return true;
    };
    if (a == "--format" || a == "-f") {
      if (!value(&format)) {
        std::fputs(kAnalyseHelp, stderr);
        return 2;
      }
    } else if (a.rfind("--format=", 0) == 0) {
      format = a.substr(9);
    } else if (a == "-o" || a == "--output") {
      if (!value(&out)) {
        std::fputs(kAnalyseHelp, stderr);
        return 2;
      }
    } else if (a == "--csv") {
      if (!value(&csv)) {
        std::fputs(kAnalyseHelp, stderr);
        return 2;
      }
    } else if (a == "--no-color") {
      color = false;
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "gpu2npu: unknown option [%s]\n", a.c_str());
      {
        std::fputs(kAnalyseHelp, stderr);
        return 2;
      }
    } else if (path.empty()) {
      path = a;
    } else {
      {
        std::fputs(kAnalyseHelp, stderr);
        return 2;
      }
    }
  }
  if (path.empty()) {
    std::fputs(kAnalyseHelp, stderr);
    return 2;
  }
  if (format != "text" && format != "json" && format != "markdown" && format != "html") {
    std::fprintf(stderr, "gpu2npu: --format must be text, json, markdown or html\n");
    return 2;
  }
  auto analysis = AnalyseProject(path);
  if (!analysis.ok()) {
    std::fprintf(stderr, "gpu2npu: %s\n", analysis.status().message().c_str());
    return 2;
  }
  const Analysis& a = analysis.value();
  for (const auto& w : a.warnings)
    std::fprintf(stderr, "[WARNING] %s: %s\n", w.file.c_str(), w.message.c_str());
  if (a.files == 0) {
    // A verdict over no code would read as "nothing to port".
    std::fprintf(stderr, "gpu2npu: %s: no source, notebook or build file could be analysed\n",
                 path.c_str());
    return 2;
  }
  const std::string report = format == "json"       ? JsonReport(a)
                             : format == "markdown" ? MarkdownReport(a)
                             : format == "html"     ? HtmlReport(a)
                                                    : TerminalReport(a, color && out.empty());
  if (out.empty()) {
    std::fputs(report.c_str(), stdout);
  } else if (auto s = oc::WriteFileAtomic(out, report); !s.ok()) {
    std::fprintf(stderr, "gpu2npu: %s\n", s.message().c_str());
    return 2;
  }
  if (!csv.empty())
    if (auto s = WriteCsvReports(a, csv); !s.ok()) {
      std::fprintf(stderr, "gpu2npu: %s\n", s.message().c_str());
      return 2;
    }
  return a.findings.empty() && a.kernels.empty() ? 0 : 1;
}
