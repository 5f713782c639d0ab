// The seed's decision tree (section 4), cost table (4.1), not-advised cases (4.2) and
// workload suitability (3.1, 3.2), applied to the findings.
#include <algorithm>
#include <cstdio>
#include <map>

#include "migrate/analysis.h"
#include "migrate/ports.h"

namespace oc::migrate {

const char* BranchId(Branch b) {
  static const char* const ids[] = {
      "standard_model", "distributed",    "custom_cuda_kernel", "triton",
      "torch_compile",  "nvidia_library", "training_framework"};
  return ids[static_cast<int>(b)];
}

const char* BranchTitle(Branch b) {
  static const char* const titles[] = {"Standard model (device strings)",
                                       "Distributed (NCCL)",
                                       "Custom CUDA kernels",
                                       "Triton kernels",
                                       "torch.compile / Dynamo / CUDA graphs",
                                       "NVIDIA-only libraries",
                                       "Training frameworks (Lightning, HF Trainer)"};
  return titles[static_cast<int>(b)];
}

const char* SeverityName(Severity s) {
  static const char* const names[] = {"info", "low", "medium", "high", "blocker"};
  return names[static_cast<int>(s)];
}

const char* LevelName(Level l) {
  static const char* const names[] = {"low", "medium", "high", "not advised"};
  return names[static_cast<int>(l)];
}

const std::vector<TreeNode>& DecisionTree() {
  static const std::vector<TreeNode> tree = {
      {Branch::kStandardModel, "Standard PyTorch model (ResNet/BERT/ViT/Llama)?",
       "Low cost: replace .cuda() with .npu(), check accuracy.", Level::kLow},
      {Branch::kCustomKernel, "Custom CUDA kernels?",
       "Simple (elementwise, activation): rewrite in Ascend C, 1-2 weeks. Complex (FlashAttention, "
       "fused ops): look for a torch_npu fused op, else 4-8 weeks.",
       Level::kHigh},
      {Branch::kNvidiaLibrary, "NVIDIA-only libraries (cuDNN/cuBLAS/NCCL/TensorRT/...)?",
       "CANN has counterparts with other APIs: cuDNN/cuBLAS -> CANN ops, NCCL -> HCCL, TensorRT -> "
       "ATC; cuQuantum, DALI, CV-CUDA and bitsandbytes have none.",
       Level::kMedium},
      {Branch::kDistributed, "NCCL collectives?", "HCCL, with a similar API.", Level::kLow},
      {Branch::kTriton, "Triton kernels?", "Not supported: rewrite in Ascend C.", Level::kHigh},
      {Branch::kCompile, "torch.compile / Dynamo?",
       "Not supported directly: MindSpore graph mode or CANN GE (TorchAir).", Level::kMedium},
      {Branch::kFramework, "PyTorch Lightning / Hugging Face Trainer?",
       "Lightning: limited support. HF Trainer: works through accelerate + torch_npu.",
       Level::kMedium},
  };
  return tree;
}

const char* UsageName(Usage u) {
  static const char* const names[] = {"required", "optional", "dependency only", "auxiliary"};
  return names[static_cast<int>(u)];
}

std::map<std::string, double> WorkloadEvidence(const std::set<std::string>& modules,
                                               const std::set<std::string>& names) {
  struct Class {
    const char* id;
    std::vector<const char*> modules;  // module prefixes
    std::vector<const char*> names;    // resolved names (substring)
  };
  static const std::vector<Class> kClasses = {
      {"cv",
       {"torchvision", "timm", "ultralytics", "cv2", "mmdet", "mmcv", "mmseg", "detectron2",
        "diffusers", "albumentations", "kornia", "segmentation_models_pytorch"},
       {"Conv2d"}},
      {"nlp",
       {"transformers", "peft", "trl", "vllm", "tokenizers", "sentencepiece", "tiktoken",
        "datasets", "megatron", "fairseq"},
       {}},
      {"recommendation", {"torchrec", "dlrm", "deepctr"}, {"EmbeddingBag"}},
      {"rl", {"gym", "gymnasium", "stable_baselines3", "ray.rllib", "tianshou"}, {}},
      {"scientific", {"scipy", "jax", "numba", "cupy", "cuquantum", "sympy"}, {}},
  };
  std::map<std::string, double> out;
  for (const auto& c : kClasses) {
    bool hit = false;
    for (const auto& m : modules)
      for (const char* p : c.modules) hit |= m == p || m.rfind(std::string(p) + ".", 0) == 0;
    for (const auto& n : names)
      for (const char* p : c.names) hit |= n.find(p) != std::string::npos;
    if (hit) out[c.id] += 1;  // one file, one vote: a single import does not decide
  }
  for (const auto& m : modules)
    if (m == "torch" || m.rfind("torch.", 0) == 0) out["torch"] = 1;
  return out;
}

namespace {

// Workload type and the seed's suitability rating (3.1 training, 3.2 inference), by the
// number of files that show each domain.
void DetectWorkload(Analysis* a) {
  struct W {
    const char *id, *title, *rating, *note;
  };
  static const std::map<std::string, W> kW = {
      {"cv_training",
       {"cv_training", "CV training", "excellent",
        "standard operators fully covered; AMP speeds up well"}},
      {"llm",
       {"llm", "NLP / LLM training", "good",
        "SFT/LoRA fits 64 GB; pre-training needs a distributed NPU stack"}},
      {"recommendation",
       {"recommendation", "Recommendation (DLRM-like)", "good",
        "embedding lookups + MLP suit the NPU"}},
      {"rl",
       {"rl", "Reinforcement learning", "fair", "non-standard computation, more custom operators"}},
      {"scientific",
       {"scientific", "Scientific computing", "fair", "no CUDA-like general parallel ecosystem"}},
      {"cv_inference",
       {"cv_inference", "CV inference", "excellent",
        "ATC + AscendCL give good latency and throughput"}},
      {"llm_inference",
       {"llm_inference", "LLM inference", "good (maturing)", "MindSpore Lite or vLLM-Ascend"}},
      {"dl_training",
       {"dl_training", "PyTorch training (domain not recognised)", "good",
        "standard operators are covered; custom code decides"}},
      {"dl_inference",
       {"dl_inference", "PyTorch inference (domain not recognised)", "good",
        "export to ONNX, convert with ATC"}},
      {"unknown", {"unknown", "Unclassified", "unknown", "no model or framework signals found"}},
  };
  auto id_of = [&](const std::string& c) -> std::string {
    if (c == "cv") return a->trains ? "cv_training" : "cv_inference";
    if (c == "nlp") return a->trains ? "llm" : "llm_inference";
    return c;
  };
  // Classes by weight; ties go to the order of the seed's table (CV, NLP, ...).
  static const char* const kOrder[] = {"cv", "nlp", "recommendation", "rl", "scientific"};
  std::vector<std::pair<double, int>> ranked;
  for (int i = 0; i < 5; ++i)
    if (auto it = a->workload_weight.find(kOrder[i]); it != a->workload_weight.end())
      ranked.push_back({-it->second, i});
  std::sort(ranked.begin(), ranked.end());
  std::string id = "unknown";
  if (!ranked.empty())
    id = id_of(kOrder[ranked[0].second]);
  else if (a->workload_weight.count("torch"))
    id = a->trains ? "dl_training" : "dl_inference";  // PyTorch without a domain library
  a->workload_runner_up = ranked.size() > 1 ? kW.at(id_of(kOrder[ranked[1].second])).title : "";
  const W& w = kW.at(id);
  a->workload = w.id;
  a->workload_title = w.title;
  a->suitability = w.rating;
  a->suitability_note = w.note;
}

std::string Where(const std::string& file, int line) {
  return line > 0 ? file + ":" + std::to_string(line) : file;
}

bool Counts(const Finding& f) { return f.usage == Usage::kRequired && !f.covered; }

}  // namespace

void Decide(Analysis* a) {
  DetectWorkload(a);
  a->estimate.clear();
  a->next_steps.clear();
  struct Item {
    Level level;
    Branch branch;
    std::string reason;
  };
  std::vector<Item> levels;  // parallel to a->estimate
  auto add = [&](std::string what, int n, double lo, double hi, std::string basis,
                 std::vector<std::string> evidence, Level level, Branch branch,
                 std::string reason) {
    if (evidence.size() > 3) evidence.resize(3);
    a->estimate.push_back({std::move(what), n, lo, hi, std::move(basis), std::move(evidence)});
    levels.push_back({level, branch, std::move(reason)});
  };
  auto evidence_of = [&](auto pred) {
    std::vector<std::string> ev;
    for (const auto& f : a->findings)
      if (pred(f) && ev.size() < 3) ev.push_back(Where(f.file, f.line));
    return ev;
  };

  // Existing support: the work is validating the NPU path, not writing it.
  if (a->supports_ascend)
    add("nothing to port for the existing NPU path: run and validate it on hardware", 1, 0, 1,
        "the project already runs on Ascend", a->support_evidence, Level::kLow,
        Branch::kStandardModel, a->support_summary);

  // Device strings and settings, by how many lines change (4.1's two standard rows).
  int edits = 0, manual = 0;
  bool libtorch = false;
  for (const auto& f : a->findings) {
    if (f.covered || f.branch != Branch::kStandardModel || f.severity == Severity::kInfo ||
        f.rule == "deploy.onnx")
      continue;
    // Every automatic edit in the product is made and reviewed (behind a flag too); tests
    // and examples are edited as well but checked by running them; what needs a person
    // counts when the project requires it.
    if (f.auto_migratable && f.usage != Usage::kAuxiliary)
      edits += f.count;
    else if (f.usage == Usage::kRequired && f.rule.rfind("libtorch", 0) == 0)
      libtorch = true;
    else if (f.usage == Usage::kRequired)
      ++manual;
  }
  auto standard = [](const Finding& f) {
    return !f.covered &&
           (f.usage == Usage::kRequired || (f.auto_migratable && f.usage != Usage::kAuxiliary)) &&
           f.branch == Branch::kStandardModel && f.severity != Severity::kInfo &&
           f.rule.rfind("libtorch", 0) != 0 && f.rule != "deploy.onnx";
  };
  if (edits + manual > 0) {
    const std::string what = "device strings and settings: " + std::to_string(edits) +
                             " automatic edits, " + std::to_string(manual) + " to review";
    // The workload's row (CV < 1 day, NLP and the rest 1-3 days) or, when more lines change
    // than that row assumes, the row for the number of edits, whichever is larger.
    const bool cv = a->workload == "cv_training" || a->workload == "cv_inference";
    const int n = edits + manual;
    double lo = cv ? 0.5 : 1, hi = cv ? 1 : 3;
    std::string basis = cv ? "4.1 standard CV model: a few lines, < 1 day"
                           : "4.1 standard NLP model: device strings + environment, 1-3 days";
    if (n <= 3 && cv) lo = 0.25;
    if (n > 20 && cv)
      lo = 1, hi = 3,
      basis = "4.1 standard model: " + std::to_string(n) +
              " edits (gpu2npu migrate makes them), 1-3 days";
    if (n > 100)
      lo = 2, hi = 5,
      basis = "4.1 standard model scaled: " + std::to_string(n) +
              " edits (gpu2npu migrate makes them); review and testing take the time";
    add(what, n, lo, hi, basis, evidence_of(standard), Level::kLow, Branch::kStandardModel,
        "only device strings and settings to change");
  }
  // In a CUDA extension the C++ device checks go with the kernels (below); in an
  // application they are the port.
  const bool extension = !a->kernels.empty() ||
                         std::any_of(a->findings.begin(), a->findings.end(), [](const Finding& f) {
                           return f.rule.rfind("cpp_extension", 0) == 0;
                         });
  if (libtorch && !extension)
    add("libtorch C++ device code -> torch_npu's C++ API", 1, 2, 5,
        "decision tree: standard model, C++ side",
        evidence_of([](const Finding& f) { return Counts(f) && f.rule.rfind("libtorch", 0) == 0; }),
        Level::kMedium, Branch::kStandardModel, "libtorch C++ code targets CUDA devices");

  // Distributed.
  auto dist = [](const Finding& f) { return Counts(f) && f.branch == Branch::kDistributed; };
  auto dist_manual = [&](const Finding& f) { return dist(f) && !f.auto_migratable; };
  if (std::any_of(a->findings.begin(), a->findings.end(), dist)) {
    const bool manual_comm =
        std::any_of(a->findings.begin(), a->findings.end(), [&](const Finding& f) {
          return dist_manual(f) && (f.rule == "cuda.nccl" || f.rule == "cuda.comm");
        });
    add(manual_comm ? "NCCL -> HCCL, torch.cuda.nccl/comm calls -> torch.distributed"
                    : "NCCL -> HCCL",
        1, manual_comm ? 1 : 0.5, manual_comm ? 3 : 1, "decision tree: HCCL has a similar API",
        evidence_of(dist), Level::kLow, Branch::kDistributed, "NCCL collectives move to HCCL");
  }

  // CUDA kernels, one op per source file and forward/backward pair.
  struct Group {
    bool complex = false, helper = true, covered = true;
    std::string port, first;
    int kernels = 0;
  };
  std::map<std::string, Group> groups;
  for (const auto& k : a->kernels) {
    if (k.usage != Usage::kRequired) continue;
    Group& g = groups[k.group.empty() ? k.file + ":" + k.name : k.group];
    g.complex |= k.complex;
    g.helper &= k.helper;
    g.covered &= k.covered;
    if (g.port.empty()) g.port = k.port;
    if (g.first.empty()) g.first = Where(k.file, k.line) + " " + k.name;
    ++g.kernels;
  }
  int simple = 0, complex = 0, helpers = 0, covered_ops = 0, kernels_simple = 0,
      kernels_complex = 0;
  std::vector<std::string> ev_simple, ev_complex, ev_helper, ev_covered;
  std::map<std::string, std::vector<std::string>> ported;  // port -> ops
  for (const auto& [name, g] : groups) {
    if (g.covered) {
      ++covered_ops, ev_covered.push_back(g.first);
    } else if (!g.port.empty()) {
      ported[g.port].push_back(g.first);
    } else if (g.helper) {
      ++helpers, ev_helper.push_back(g.first);
    } else if (g.complex) {
      ++complex, kernels_complex += g.kernels, ev_complex.push_back(g.first);
    } else {
      ++simple, kernels_simple += g.kernels, ev_simple.push_back(g.first);
    }
  }
  if (covered_ops)
    add("CUDA ops that already have an NPU implementation in the project", covered_ops, 0, 0,
        "existing NPU sources", ev_covered, Level::kLow, Branch::kCustomKernel,
        "every CUDA op has an NPU implementation");
  for (const auto& [port, ops] : ported) {
    const Port* p = nullptr;
    for (const auto& k : a->kernels)
      if (k.port == port) p = KernelPort(k.name, k.file);
    const double lo = p ? p->low : 1, hi = p ? p->high : 3;
    add("adopt the community port " + port + " for " + std::to_string(ops.size()) + " op" +
            (ops.size() == 1 ? "" : "s"),
        static_cast<int>(ops.size()), lo, hi,
        "decision tree: complex kernel -> look for a torch_npu fused op first", ops, Level::kMedium,
        Branch::kCustomKernel, "CUDA ops replaced by community NPU ports");
  }
  if (helpers)
    add("helper kernels (pointer/index setup): fold into the host code", helpers, 0.25 * helpers,
        0.5 * helpers, "trivial", ev_helper, Level::kLow, Branch::kCustomKernel,
        "helper kernels only");
  // A project that already runs on Ascend (an op library with an NPU backend) is not asked
  // to port every CUDA-only op: the ones a model needs are ported, each costing the seed's
  // kernel row.
  if (a->supports_ascend && (simple || complex)) {
    std::vector<std::string> ev = ev_complex;
    ev.insert(ev.end(), ev_simple.begin(), ev_simple.end());
    add("CUDA-only ops without an NPU implementation (" + std::to_string(simple + complex) +
            "): port only those a model needs, " + (complex ? "20-40" : "5-10") + " days each",
        simple + complex, 0, complex ? 40 : 10, "4.1 custom kernel rows, per op actually used", ev,
        Level::kMedium, Branch::kCustomKernel,
        std::to_string(simple + complex) + " CUDA-only ops have no NPU implementation yet");
    simple = complex = 0;
  }
  if (simple)
    add("simple CUDA ops to rewrite in Ascend C (" + std::to_string(kernels_simple) + " kernels)",
        simple, 5 + 3.0 * (simple - 1), 10 + 5.0 * (simple - 1),
        "4.1 simple custom kernel: 1-2 weeks (the first; later ones reuse the toolchain)",
        ev_simple, Level::kMedium, Branch::kCustomKernel,
        "simple CUDA kernels to rewrite in Ascend C (1-2 weeks each)");
  if (complex)
    add("complex CUDA ops to rewrite and tune in Ascend C (" + std::to_string(kernels_complex) +
            " kernels)",
        complex, 20 + 10.0 * (complex - 1), 40 + 20.0 * (complex - 1),
        "4.1 complex custom kernel: 1-2 months (the first; later ones reuse the toolchain)",
        ev_complex, Level::kHigh, Branch::kCustomKernel,
        "complex CUDA kernels without an NPU port to rewrite and tune (1-2 months)");
  // CUDA build plumbing without kernels of its own (a .cu file in another language).
  auto build = [](const Finding& f) { return Counts(f) && f.branch == Branch::kCustomKernel; };
  if (groups.empty() && std::any_of(a->findings.begin(), a->findings.end(), build))
    add("CUDA extension / runtime code to port", 1, 3, 8, "4.1 simple custom kernel, partly",
        evidence_of(build), Level::kMedium, Branch::kCustomKernel,
        "CUDA extension code to port (no kernels found in the sources)");

  // Triton kernels, one op per file and forward/backward pair (like CUDA ops).
  struct TritonOp {
    bool complex = false, covered = true;
    std::string equivalent, first;
  };
  std::map<std::string, TritonOp> t_ops;
  for (const auto& k : a->triton) {
    if (k.usage != Usage::kRequired) continue;
    TritonOp& op = t_ops[k.group.empty() ? k.file + ":" + k.name : k.group];
    op.complex |= k.complex;
    op.covered &= k.covered;
    if (op.equivalent.empty()) op.equivalent = k.equivalent;
    if (op.first.empty())
      op.first = Where(k.file, k.line) + " " + k.name +
                 (k.equivalent.empty() ? "" : " -> " + k.equivalent);
  }
  int t_equiv = 0, t_simple = 0, t_complex = 0, t_covered = 0;
  std::vector<std::string> ev_equiv, ev_ts, ev_tc, ev_tcov;
  for (const auto& [name, op] : t_ops) {
    if (op.covered)
      ++t_covered, ev_tcov.push_back(op.first);
    else if (!op.equivalent.empty())
      ++t_equiv, ev_equiv.push_back(op.first);
    else if (op.complex)
      ++t_complex, ev_tc.push_back(op.first);
    else
      ++t_simple, ev_ts.push_back(op.first);
  }
  if (t_covered)
    add("Triton ops that already have an NPU version in the project", t_covered, 0, 0,
        "existing NPU sources", ev_tcov, Level::kLow, Branch::kTriton,
        "every Triton op has an NPU version");
  if (t_equiv)
    add("Triton ops with a torch / torch_npu equivalent: call the op instead", t_equiv,
        0.5 + 0.25 * (t_equiv - 1), 1 + 0.5 * (t_equiv - 1),
        "decision tree: look for an existing NPU op before a rewrite", ev_equiv, Level::kLow,
        Branch::kTriton, "Triton kernels that native ops replace");
  if (a->supports_ascend && (t_simple || t_complex)) {
    std::vector<std::string> ev = ev_tc;
    ev.insert(ev.end(), ev_ts.begin(), ev_ts.end());
    add("Triton ops without an NPU version (" + std::to_string(t_simple + t_complex) +
            "): triton-ascend first, else port only those a model needs",
        t_simple + t_complex, 0, t_complex ? 40 : 10,
        "4.1 custom kernel rows, per op actually used", ev, Level::kMedium, Branch::kTriton,
        std::to_string(t_simple + t_complex) + " Triton ops have no NPU version yet");
    t_simple = t_complex = 0;
  }
  if (t_simple)
    add("simple Triton ops: triton-ascend first, else Ascend C", t_simple, 5 + 3.0 * (t_simple - 1),
        10 + 5.0 * (t_simple - 1), "decision tree: Triton -> Ascend C; 4.1 simple kernel", ev_ts,
        Level::kMedium, Branch::kTriton, "simple Triton kernels to port");
  if (t_complex)
    add("complex Triton ops: triton-ascend first, else Ascend C", t_complex,
        20 + 10.0 * (t_complex - 1), 40 + 20.0 * (t_complex - 1), "4.1 complex kernel", ev_tc,
        Level::kHigh, Branch::kTriton, "complex Triton kernels to rewrite and tune");

  // torch.compile / CUDA graphs: once; behind a flag it is switched off, not ported.
  auto compile_req = [](const Finding& f) {
    return Counts(f) && f.branch == Branch::kCompile && f.severity != Severity::kInfo;
  };
  auto compile_opt = [](const Finding& f) {
    return f.branch == Branch::kCompile && f.usage == Usage::kOptional;
  };
  if (std::any_of(a->findings.begin(), a->findings.end(), compile_req))
    add("torch.compile / CUDA graphs -> TorchAir, NPUGraph or eager", 1, 2, 5,
        "decision tree: GE / MindSpore graph mode", evidence_of(compile_req), Level::kMedium,
        Branch::kCompile, "torch.compile / CUDA graphs are on the main path");
  else if (std::any_of(a->findings.begin(), a->findings.end(), compile_opt))
    add("torch.compile behind a flag: run with it off (eager), try TorchAir later", 1, 0, 0.5,
        "the flag already exists", evidence_of(compile_opt), Level::kLow, Branch::kCompile,
        "torch.compile is optional");

  // NVIDIA libraries: each family once; blockers go to 4.2 unless a port exists.
  std::map<std::string, std::vector<const Finding*>> libs;
  std::set<std::string> blockers;
  for (const auto& f : a->findings) {
    if (f.branch != Branch::kNvidiaLibrary || !Counts(f) || f.severity < Severity::kLow ||
        f.rule == "deploy.onnx")
      continue;
    libs[LibraryFamily(f.rule)].push_back(&f);
    if (f.severity == Severity::kBlocker && f.port.empty()) blockers.insert(f.rule);
  }
  const bool pipeline =
      a->trains && std::any_of(a->findings.begin(), a->findings.end(),
                               [](const Finding& f) { return Counts(f) && f.rule == "tensorrt"; });
  for (const auto& [family, fs] : libs) {
    if (std::any_of(fs.begin(), fs.end(),
                    [&](const Finding* f) { return blockers.count(f->rule) > 0; }))
      continue;
    if (pipeline && family == "tensorrt") continue;  // in the pipeline row
    // The port of the most demanding use decides (Ascend's apex fork over native AMP).
    const Port* p = nullptr;
    for (const auto* f : fs) {
      const Port* q = LibraryPort(f->rule);
      if (!q && !f->port.empty()) q = LibraryPort(family);
      if (q && (!p || q->high > p->high)) p = q;
    }
    std::vector<std::string> ev;
    for (const auto* f : fs) ev.push_back(Where(f->file, f->line));
    // A counterpart adopted in a day (drop the 8-bit load, native AMP) is a low-cost change.
    if (p)
      add("replace " + family + " with " + p->what, 1, p->low, p->high,
          "decision tree: CANN / community counterpart", ev,
          p->high <= 1 ? Level::kLow : Level::kMedium, Branch::kNvidiaLibrary,
          "NVIDIA libraries to replace with their NPU counterparts");
    else
      add("replace " + family, 1, 1, 3, "decision tree: CANN counterparts with other APIs", ev,
          Level::kMedium, Branch::kNvidiaLibrary,
          "NVIDIA libraries to replace with CANN counterparts");
  }
  // Optional dependencies: dropping them is a requirements edit.
  auto optional_lib = [](const Finding& f) {
    return f.branch == Branch::kNvidiaLibrary && f.severity >= Severity::kMedium &&
           (f.usage == Usage::kOptional || f.usage == Usage::kDependency);
  };
  if (std::any_of(a->findings.begin(), a->findings.end(), optional_lib))
    add("optional NVIDIA dependencies: leave them out of the NPU install", 1, 0, 0.5,
        "not used on the main path", evidence_of(optional_lib), Level::kLow, Branch::kNvidiaLibrary,
        "NVIDIA libraries are optional");

  // Frameworks.
  auto lightning = [](const Finding& f) { return Counts(f) && f.rule.rfind("lightning", 0) == 0; };
  auto hf = [](const Finding& f) {
    return Counts(f) && f.branch == Branch::kFramework && f.rule.rfind("lightning", 0) != 0;
  };
  if (std::any_of(a->findings.begin(), a->findings.end(), lightning))
    add("PyTorch Lightning on NPU: a custom accelerator or transfer_to_npu", 1, 2, 5,
        "decision tree: framework adaptation status", evidence_of(lightning), Level::kMedium,
        Branch::kFramework, "PyTorch Lightning has no built-in Ascend accelerator");
  else if (std::any_of(a->findings.begin(), a->findings.end(), hf))
    add("Hugging Face Trainer / accelerate with torch_npu", 1, 0.5, 1,
        "decision tree: framework adaptation status", evidence_of(hf), Level::kLow,
        Branch::kFramework, "Hugging Face Trainer works through accelerate + torch_npu");

  // Deployment: TensorRT in a training project is the seed's whole pipeline; an ONNX export
  // on the main path is one atc conversion.
  auto trt = [](const Finding& f) { return Counts(f) && f.rule == "tensorrt"; };
  auto onnx = [](const Finding& f) { return Counts(f) && f.rule == "deploy.onnx"; };
  if (a->trains && std::any_of(a->findings.begin(), a->findings.end(), trt))
    add("full pipeline: data + training + TensorRT deployment -> atc + AscendCL", 1, 10, 20,
        "4.1 full training pipeline: 2-4 weeks", evidence_of(trt), Level::kMedium,
        Branch::kNvidiaLibrary, "a training and TensorRT deployment pipeline to move");
  else if (std::any_of(a->findings.begin(), a->findings.end(), onnx))
    add("ONNX export -> atc conversion and an AscendCL check", 1, 1, 3,
        "atc --framework=5 (docs/atc.md)", evidence_of(onnx), Level::kLow, Branch::kStandardModel,
        "ONNX export converts with atc");

  a->estimate_low = a->estimate_high = 0;
  for (const auto& e : a->estimate) a->estimate_low += e.low, a->estimate_high += e.high;

  // Verdict: the highest level an item reaches; among equals, the item that costs most.
  a->level = Level::kLow;
  a->deciding = Branch::kStandardModel;
  a->reason = a->estimate.empty() ? "nothing needs to change"
                                  : "only device strings and settings to change";
  if (a->supports_ascend) a->reason = a->support_summary;
  double weight = -1;
  for (size_t i = 0; i < levels.size(); ++i) {
    const Item& it = levels[i];
    const double hi = a->estimate[i].high;
    if (it.level > a->level || (it.level == a->level && hi > weight)) {
      a->level = it.level, a->deciding = it.branch, a->reason = it.reason, weight = hi;
    }
  }
  if (a->supports_ascend)
    a->reason =
        a->level > Level::kLow ? a->support_summary + "; still " + a->reason : a->support_summary;
  // Not advised (4.2): required software without a counterpart, many Triton kernels without
  // replacements.
  a->not_advised.clear();
  if (!blockers.empty()) {
    std::string list;
    for (const auto& b : blockers) list += (list.empty() ? "" : ", ") + b;
    a->not_advised.push_back("depends on NVIDIA-only software with no Ascend counterpart (" + list +
                             ")");
    a->level = Level::kNotAdvised, a->deciding = Branch::kNvidiaLibrary,
    a->reason = a->not_advised.back();
  }
  if (t_simple + t_complex >= 3) {
    a->not_advised.push_back(std::to_string(t_simple + t_complex) +
                             " Triton ops to rewrite without community replacements");
    if (a->level != Level::kNotAdvised)
      a->level = Level::kNotAdvised, a->deciding = Branch::kTriton,
      a->reason = a->not_advised.back();
  }
  // What to do next: the three largest items.
  std::vector<size_t> order(a->estimate.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t x, size_t y) { return a->estimate[x].high > a->estimate[y].high; });
  for (size_t i = 0; i < order.size() && a->next_steps.size() < 3; ++i) {
    const auto& e = a->estimate[order[i]];
    if (e.high <= 0) continue;
    char days[64];
    std::snprintf(days, sizeof(days), " (%g-%g days)", e.low, e.high);
    a->next_steps.push_back(e.what + days + (e.evidence.empty() ? "" : ": " + e.evidence.front()));
  }
}

}  // namespace oc::migrate
