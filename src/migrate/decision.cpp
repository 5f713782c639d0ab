// The seed's decision tree (section 4), cost table (4.1), not-advised cases (4.2) and
// workload suitability (3.1, 3.2), applied to the findings.
#include <algorithm>
#include <map>

#include "migrate/analysis.h"

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

namespace {

bool Has(const Analysis& a, const std::string& prefix) {
  for (const auto& m : a.modules)
    if (m == prefix || m.rfind(prefix + ".", 0) == 0) return true;
  for (const auto& n : a.names)
    if (n.find(prefix) != std::string::npos) return true;
  return false;
}

// Workload type and the seed's suitability rating (3.1 training, 3.2 inference).
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
  const bool nlp = Has(*a, "transformers") || Has(*a, "peft") || Has(*a, "trl") ||
                   Has(*a, "vllm") || Has(*a, "tokenizers") || Has(*a, "sentencepiece");
  const bool cv = Has(*a, "torchvision") || Has(*a, "timm") || Has(*a, "ultralytics") ||
                  Has(*a, "cv2") || Has(*a, "mmdet") || Has(*a, "detectron2");
  const bool rec = Has(*a, "torchrec") || Has(*a, "EmbeddingBag") || Has(*a, "dlrm");
  const bool rl = Has(*a, "gym") || Has(*a, "gymnasium") || Has(*a, "stable_baselines3") ||
                  Has(*a, "ray.rllib");
  const bool sci = Has(*a, "scipy") || Has(*a, "jax") || Has(*a, "numba") || Has(*a, "cupy") ||
                   Has(*a, "cuquantum");
  std::string id = "unknown";
  if (rl)
    id = "rl";
  else if (rec)
    id = "recommendation";
  else if (nlp)
    id = a->trains ? "llm" : "llm_inference";
  else if (cv)
    id = a->trains ? "cv_training" : "cv_inference";
  else if (sci)
    id = "scientific";
  else if (Has(*a, "torch"))
    id = a->trains ? "dl_training" : "dl_inference";  // PyTorch without a domain library
  const W& w = kW.at(id);
  a->workload = w.id;
  a->workload_title = w.title;
  a->suitability = w.rating;
  a->suitability_note = w.note;
}

}  // namespace

void Decide(Analysis* a) {
  DetectWorkload(a);
  a->estimate.clear();
  auto add = [&](std::string what, int n, double lo, double hi, std::string basis) {
    a->estimate.push_back({std::move(what), n, lo, hi, std::move(basis)});
  };
  // Counts per class.
  std::map<Branch, int> per_branch;
  std::set<std::string> libraries, blockers;
  int auto_fix = 0;
  for (const auto& f : a->findings) {
    ++per_branch[f.branch];
    auto_fix += f.auto_migratable;
    if (f.branch == Branch::kNvidiaLibrary && f.severity >= Severity::kMedium)
      libraries.insert(f.rule);
    if (f.severity == Severity::kBlocker) blockers.insert(f.rule);
  }
  int simple = 0, complex = 0;
  for (const auto& k : a->kernels) (k.complex ? complex : simple)++;
  const int triton_simple = a->triton_kernels - a->triton_complex;
  // Base cost by workload (4.1): CV < 1 day; NLP and the rest 1-3 days.
  const bool cv = a->workload == "cv_training" || a->workload == "cv_inference";
  if (cv)
    add("device strings and settings (" + std::to_string(auto_fix) + " automatic edits)",
        per_branch[Branch::kStandardModel], 0.5, 1, "4.1 standard CV model: < 5 lines, < 1 day");
  else
    add("device strings, settings and environment (" + std::to_string(auto_fix) +
            " automatic edits)",
        per_branch[Branch::kStandardModel], 1, 3,
        "4.1 standard NLP model: device strings + environment, 1-3 days");
  if (per_branch[Branch::kDistributed])
    add("NCCL -> HCCL", per_branch[Branch::kDistributed], 0.5, 1,
        "decision tree: HCCL has a similar API");
  // Kernels: the first of each kind costs the seed's figure, more ones less each (the
  // toolchain and the testing harness are set up once).
  if (simple)
    add("simple CUDA kernels (Ascend C rewrite)", simple, 5 + 3.0 * (simple - 1),
        10 + 5.0 * (simple - 1), "4.1 simple custom kernel: 1-2 weeks");
  if (complex)
    add("complex CUDA kernels (rewrite + tuning)", complex, 20 + 10.0 * (complex - 1),
        40 + 20.0 * (complex - 1), "4.1 complex custom kernel: 1-2 months");
  if (triton_simple > 0)
    add("simple Triton kernels (Ascend C rewrite)", triton_simple, 5 + 3.0 * (triton_simple - 1),
        10 + 5.0 * (triton_simple - 1), "decision tree: Triton -> Ascend C; 4.1 simple kernel");
  if (a->triton_complex)
    add("complex Triton kernels (rewrite + tuning)", a->triton_complex,
        20 + 10.0 * (a->triton_complex - 1), 40 + 20.0 * (a->triton_complex - 1),
        "4.1 complex kernel");
  if (per_branch[Branch::kCompile])
    add("torch.compile / CUDA graphs -> TorchAir or eager", per_branch[Branch::kCompile], 2, 5,
        "decision tree: GE / MindSpore graph mode");
  for (const auto& lib : libraries)
    if (!blockers.count(lib))
      add("replace " + lib, 1, 1, 3, "decision tree: CANN counterparts with other APIs");
  if (per_branch[Branch::kFramework]) {
    const bool lightning =
        std::any_of(a->findings.begin(), a->findings.end(),
                    [](const Finding& f) { return f.rule.rfind("lightning", 0) == 0; });
    add(lightning ? "PyTorch Lightning on NPU (limited support)"
                  : "Hugging Face Trainer via accelerate + torch_npu",
        per_branch[Branch::kFramework], lightning ? 2 : 0.5, lightning ? 5 : 1,
        "decision tree: framework adaptation status");
  }
  // A whole pipeline (data, training, deployment) is the seed's 2-4 weeks at least.
  const bool deploys = Has(*a, "tensorrt") || Has(*a, "torch.onnx") || Has(*a, "onnxruntime");
  if (a->trains && deploys)
    add("full pipeline: data + training + deployment toolchain", 1, 10, 20,
        "4.1 full training pipeline: 2-4 weeks");
  a->estimate_low = a->estimate_high = 0;
  for (const auto& e : a->estimate) a->estimate_low += e.low, a->estimate_high += e.high;

  // Verdict: the highest level any branch reaches, and the branch that set it.
  a->level = Level::kLow;
  a->deciding = Branch::kStandardModel;
  a->reason = "only device strings and settings to change";
  auto raise = [&](Level l, Branch b, std::string why) {
    if (l > a->level) a->level = l, a->deciding = b, a->reason = std::move(why);
  };
  // Ties go to the branch listed first: kernels, then libraries, compile, frameworks.
  if (complex || a->triton_complex)
    raise(Level::kHigh, complex ? Branch::kCustomKernel : Branch::kTriton,
          "complex kernels to rewrite and tune (1-2 months)");
  if (simple || triton_simple > 0)
    raise(Level::kMedium, simple ? Branch::kCustomKernel : Branch::kTriton,
          "simple kernels to rewrite in Ascend C (1-2 weeks each)");
  if (!libraries.empty())
    raise(Level::kMedium, Branch::kNvidiaLibrary,
          "NVIDIA libraries to replace with CANN counterparts");
  if (per_branch[Branch::kCompile])
    raise(Level::kMedium, Branch::kCompile,
          "torch.compile / CUDA graphs are not supported directly");
  const bool lightning_used =
      std::any_of(a->findings.begin(), a->findings.end(),
                  [](const Finding& f) { return f.rule.rfind("lightning", 0) == 0; });
  if (lightning_used)
    raise(Level::kMedium, Branch::kFramework, "PyTorch Lightning has limited Ascend support");
  // Not advised (4.2).
  a->not_advised.clear();
  if (!blockers.empty()) {
    std::string list;
    for (const auto& b : blockers) list += (list.empty() ? "" : ", ") + b;
    a->not_advised.push_back("depends on NVIDIA-only software with no Ascend counterpart (" + list +
                             ")");
    raise(Level::kNotAdvised, Branch::kNvidiaLibrary, a->not_advised.back());
  }
  if (a->triton_kernels >= 3) {
    a->not_advised.push_back(std::to_string(a->triton_kernels) +
                             " Triton kernels to rewrite without community replacements");
    raise(Level::kNotAdvised, Branch::kTriton, a->not_advised.back());
  }
}

}  // namespace oc::migrate
