#include "migrate/fit.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "opencann/soc_table.h"

namespace oc::migrate {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

struct Arch {
  double params;
  int layers, hidden, heads, kv_heads, intermediate;
};

// Decoder-only transformers of common sizes (published configs: Llama 2/3, TinyLlama,
// OpenLLaMA, Qwen, CodeLlama; BERT and GPT-2 for the small end).
const std::map<std::string, Arch>& KnownModels() {
  static const std::map<std::string, Arch> m = {{"1b", {1.1e9, 22, 2048, 32, 4, 5632}},
                                                {"3b", {3.2e9, 26, 3200, 32, 32, 8640}},
                                                {"7b", {6.7e9, 32, 4096, 32, 32, 11008}},
                                                {"8b", {8.0e9, 32, 4096, 32, 8, 14336}},
                                                {"13b", {13.0e9, 40, 5120, 40, 40, 13824}},
                                                {"14b", {14.2e9, 40, 5120, 40, 40, 13696}},
                                                {"30b", {32.5e9, 60, 6656, 52, 52, 17920}},
                                                {"34b", {34.0e9, 48, 8192, 64, 8, 22016}},
                                                {"65b", {65.2e9, 80, 8192, 64, 64, 22016}},
                                                {"70b", {70.0e9, 80, 8192, 64, 8, 28672}},
                                                {"llama-7b", {6.7e9, 32, 4096, 32, 32, 11008}},
                                                {"llama-13b", {13.0e9, 40, 5120, 40, 40, 13824}},
                                                {"llama-70b", {70.0e9, 80, 8192, 64, 8, 28672}},
                                                {"llama3-8b", {8.0e9, 32, 4096, 32, 8, 14336}},
                                                {"qwen-7b", {7.7e9, 32, 4096, 32, 32, 11008}},
                                                {"bert-base", {0.11e9, 12, 768, 12, 12, 3072}},
                                                {"bert-large", {0.34e9, 24, 1024, 16, 16, 4096}},
                                                {"gpt2", {0.124e9, 12, 768, 12, 12, 3072}}};
  return m;
}

// Device memory in GiB: Ascend chips from the one SoC table, NVIDIA GPUs to compare with.
const std::map<std::string, double>& Devices() {
  static const std::map<std::string, double> d = [] {
    std::map<std::string, double> m = {{"A100-80GB", 80}, {"A100-40GB", 40}, {"H100", 80},
                                       {"H800", 80},      {"H200", 141},     {"V100", 32},
                                       {"L40S", 48},      {"RTX4090", 24},   {"A10", 24}};
    for (const auto& s : opencann::kSocTable) m[s.name] = s.hbm_gib;
    return m;
  }();
  return d;
}

double BytesOf(const std::string& dtype) {
  if (dtype == "fp32" || dtype == "float32") return 4;
  if (dtype == "fp16" || dtype == "bf16" || dtype == "float16" || dtype == "bfloat16") return 2;
  if (dtype == "int8") return 1;
  if (dtype == "int4" || dtype == "nf4") return 0.5;
  return -1;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::vector<std::string> KnownDevices() {
  std::vector<std::string> out;
  for (const auto& [k, v] : Devices()) out.push_back(k);
  return out;
}

Result<FitResult> EstimateFit(const FitRequest& q) {
  FitResult r;
  r.model = q.model;
  r.method = q.method;
  r.device = q.device;
  auto dev = Devices().find(q.device);
  if (dev == Devices().end()) {
    std::string list;
    for (const auto& d : KnownDevices()) list += (list.empty() ? "" : ", ") + d;
    return InvalidArgument("unknown device [" + q.device + "]; known: " + list);
  }
  if (q.method != "inference" && q.method != "full" && q.method != "lora" && q.method != "qlora")
    return InvalidArgument("--method must be inference, full, lora or qlora, not [" + q.method +
                           "]");
  const double wbytes = q.method == "qlora" ? 0.5 : BytesOf(Lower(q.dtype));
  if (wbytes < 0) return InvalidArgument("--dtype must be fp32, fp16, bf16, int8 or int4");
  if (q.batch < 1 || q.seq < 1) return InvalidArgument("--batch and --seq must be positive");
  // Model shape: known name, or a count like 7B / 1.3e9 with a Llama-like shape.
  const std::string key = Lower(q.model);
  if (auto it = KnownModels().find(key); it != KnownModels().end()) {
    r.params = it->second.params, r.layers = it->second.layers, r.hidden = it->second.hidden,
    r.heads = it->second.heads, r.kv_heads = it->second.kv_heads,
    r.intermediate = it->second.intermediate;
  } else {
    double scale = 1;
    std::string num = key;
    if (!num.empty() && (num.back() == 'b' || num.back() == 'm' || num.back() == 'k')) {
      scale = num.back() == 'b' ? 1e9 : num.back() == 'm' ? 1e6 : 1e3;
      num.pop_back();
    }
    char* end = nullptr;
    const double v = std::strtod(num.c_str(), &end);
    if (num.empty() || !end || *end || v <= 0)
      return InvalidArgument("--params [" + q.model +
                             "] is not a parameter count (7B, 1.3e9) or a known model");
    r.params = v * scale;
    // P ~= 12 L h^2 with L ~= h / 128 (Llama-like aspect ratio).
    r.hidden = static_cast<int>(std::round(std::cbrt(r.params * 128 / 12) / 128) * 128);
    if (r.hidden < 128) r.hidden = 128;
    r.layers = std::max(1, static_cast<int>(std::round(r.params / (12.0 * r.hidden * r.hidden))));
    r.heads = std::max(1, r.hidden / 128);
    r.kv_heads = r.heads;
    r.intermediate = 4 * r.hidden;  // the 12 L h^2 count assumes a 4h MLP
  }
  if (q.kv_heads < 0 || (q.kv_heads > 0 && r.heads % q.kv_heads != 0))
    return InvalidArgument("--kv-heads " + std::to_string(q.kv_heads) + " must divide the " +
                           std::to_string(r.heads) + " attention heads");
  if (q.kv_heads > 0) r.kv_heads = q.kv_heads;
  if (q.attention != "fused" && q.attention != "eager")
    return InvalidArgument("--attention must be fused or eager, not [" + q.attention + "]");
  if (q.lora_rank < 1) return InvalidArgument("--lora-rank must be positive");
  r.device_gib = dev->second;
  r.usable_gib = dev->second * 0.9;  // runtime, workspace and fragmentation
  const double P = r.params, L = r.layers, h = r.hidden, a = r.heads, b = q.batch, s = q.seq;
  const double head_dim = h / a, kv_width = r.kv_heads * head_dim, inter = r.intermediate;
  // Activations per layer (Korthikanti et al.): s*b*h*34 bytes in 16-bit plus 5*a*s^2*b for
  // the attention scores, softmax and dropout mask. Fused attention (npu_fusion_attention,
  // FlashAttention) never stores the score matrix, so the second term goes. With full
  // recomputation only each layer's input (2*s*b*h) stays, plus one layer's working set.
  const bool fused = q.attention == "fused";
  const double per_layer = s * b * h * 34 + (fused ? 0 : 5 * a * s * s * b);
  const double act_full = L * per_layer / kGiB;
  const double act_recompute = (L * 2 * s * b * h + per_layer) / kGiB;
  const std::string act_name =
      std::string("activations (") + (fused ? "fused attention" : "eager attention") + ")";
  if (q.method == "inference") {
    r.parts.push_back({"weights", P * wbytes / kGiB});
    // K and V per layer: kv_heads * head_dim wide (grouped-query attention shares them).
    r.parts.push_back({"KV cache (" + std::to_string(r.kv_heads) + " KV heads)",
                       2 * L * b * s * kv_width * 2 / kGiB});
    r.parts.push_back({"activations (one layer at a time)", s * b * h * 12 * 2 / kGiB});
    r.activations_recompute_gib = r.parts.back().gib;
  } else if (q.method == "full") {
    // Mixed precision with Adam: 16-bit weights and gradients, fp32 master weights and moments.
    r.parts.push_back({"weights (16-bit)", P * 2 / kGiB});
    r.parts.push_back({"gradients (16-bit)", P * 2 / kGiB});
    r.parts.push_back({"optimizer: fp32 master weights + Adam moments", P * 12 / kGiB});
    r.parts.push_back({act_name, act_full});
    r.activations_recompute_gib = act_recompute;
  } else {
    // LoRA: r*(in+out) per adapted matrix, from the target modules' real shapes.
    const std::map<std::string, std::pair<double, double>> shapes = {
        {"q", {h, h}},        {"k", {h, kv_width}}, {"v", {h, kv_width}}, {"o", {h, h}},
        {"gate", {h, inter}}, {"up", {h, inter}},   {"down", {inter, h}}};
    std::vector<std::string> targets;
    std::string list = Lower(q.lora_targets);
    if (list == "all" || list == "all-linear" || list == "all_linear")
      list = "q,k,v,o,gate,up,down";
    for (size_t p = 0; p <= list.size();) {
      size_t e = list.find(',', p);
      if (e == std::string::npos) e = list.size();
      std::string t = list.substr(p, e - p);
      if (t.size() > 5 && t.compare(t.size() - 5, 5, "_proj") == 0) t.resize(t.size() - 5);
      if (!t.empty()) targets.push_back(t);
      p = e + 1;
    }
    double per = 0;
    for (const auto& t : targets) {
      auto it = shapes.find(t);
      if (it == shapes.end())
        return InvalidArgument("--lora-targets: unknown module [" + t +
                               "]; use q,k,v,o,gate,up,down (or q_proj, ...) or all");
      per += q.lora_rank * (it->second.first + it->second.second);
    }
    if (targets.empty()) return InvalidArgument("--lora-targets names no module");
    r.lora_params = L * per;
    r.parts.push_back(
        {q.method == "qlora" ? "frozen weights (4-bit)" : "frozen weights", P * wbytes / kGiB});
    r.parts.push_back({"LoRA adapters + gradients + Adam (" +
                           std::to_string(static_cast<long long>(r.lora_params)) +
                           " params, r=" + std::to_string(q.lora_rank) + ")",
                       r.lora_params * 16 / kGiB});
    r.parts.push_back({act_name, act_full});
    r.activations_recompute_gib = act_recompute;
    if (q.method == "qlora")
      r.notes.push_back(
          "QLoRA keeps the weights in 4-bit through bitsandbytes NF4, whose NPU backend is "
          "unverified (gpu2npu analyse reports bitsandbytes as a blocker); check it before "
          "relying on this, or use --method lora in bf16");
  }
  if (q.method == "inference" && (q.dtype == "int8" || q.dtype == "int4"))
    r.notes.push_back(
        "int8/int4 weights on NPU: quantize with CANN's AMCT or use torch_npu's "
        "npu_weight_quant_batchmatmul; bitsandbytes kernels are CUDA-only");
  r.total_gib = 0;
  for (const auto& p : r.parts) r.total_gib += p.gib;
  r.total_recompute_gib = r.total_gib - r.parts.back().gib + r.activations_recompute_gib;
  r.fits = r.total_gib <= r.usable_gib;
  r.fits_with_recompute = r.total_recompute_gib <= r.usable_gib;
  // Cards: the states (everything but activations) shard across cards; each card keeps
  // its own micro-batch's activations (with recomputation when that helps).
  const double act = r.fits ? r.parts.back().gib : r.activations_recompute_gib;
  const double states = r.total_gib - r.parts.back().gib;
  if (r.fits || r.fits_with_recompute) {
    r.cards = 1;
  } else if (act >= r.usable_gib) {
    r.cards = 0;  // one card cannot hold one micro-batch's activations: smaller batch / seq
  } else {
    r.cards = static_cast<int>(std::ceil(states / (r.usable_gib - act)));
    if (q.method == "inference") {
      // Tensor parallelism splits the heads: the degree must divide them (and the KV heads,
      // or be a multiple of them).
      const int needed = r.cards;
      auto divides = [&](int c) {
        return r.heads % c == 0 && (r.kv_heads % c == 0 || c % r.kv_heads == 0);
      };
      while (r.cards <= r.heads && !divides(r.cards)) ++r.cards;
      if (r.cards > r.heads)
        r.cards = 0;
      else if (r.cards != needed)
        r.notes.push_back(std::to_string(needed) +
                          " cards hold the weights, but a tensor-parallel "
                          "degree must divide the " +
                          std::to_string(r.heads) + " heads: " + std::to_string(r.cards));
    }
  }
  char buf[256];
  if (r.fits)
    std::snprintf(buf, sizeof(buf), "fits one %s: %.1f of %.1f usable GiB", q.device.c_str(),
                  r.total_gib, r.usable_gib);
  else if (r.fits_with_recompute)
    std::snprintf(buf, sizeof(buf),
                  "fits one %s with activation recomputation: %.1f of %.1f usable GiB",
                  q.device.c_str(), r.total_recompute_gib, r.usable_gib);
  else if (r.cards > 0)
    std::snprintf(buf, sizeof(buf),
                  "does not fit one %s (%.1f GiB needed, %.1f usable): %d cards with %s",
                  q.device.c_str(), r.total_recompute_gib, r.usable_gib, r.cards,
                  q.method == "inference" ? "the weights split over them (tensor parallel)"
                                          : "sharded states (ZeRO-3 / FSDP) and recomputation");
  else
    std::snprintf(buf, sizeof(buf),
                  "one micro-batch's activations (%.1f GiB with recomputation) exceed a %s: lower "
                  "--batch or --seq",
                  r.activations_recompute_gib, q.device.c_str());
  r.verdict = buf;
  return r;
}

std::string FitText(const FitResult& r) {
  std::ostringstream os;
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "model %s: %.2fB parameters (%d layers, hidden %d, %d heads, %d KV heads), %s on "
                "%s (%.0f GiB, %.1f usable)\n",
                r.model.c_str(), r.params / 1e9, r.layers, r.hidden, r.heads, r.kv_heads,
                r.method.c_str(), r.device.c_str(), r.device_gib, r.usable_gib);
  os << buf;
  for (const auto& p : r.parts) {
    std::snprintf(buf, sizeof(buf), "  %-55s %9.2f GiB\n", p.name.c_str(), p.gib);
    os << buf;
  }
  std::snprintf(buf, sizeof(buf), "  %-55s %9.2f GiB\n  %-55s %9.2f GiB\n  %-55s %9.2f GiB\n",
                "total", r.total_gib, "activations with full recomputation",
                r.activations_recompute_gib, "total with recomputation", r.total_recompute_gib);
  os << buf << "verdict: " << r.verdict << "\n";
  for (const auto& n : r.notes) os << "note: " << n << "\n";
  return os.str();
}

std::string FitJson(const FitResult& r) {
  nlohmann::ordered_json j;
  j["model"] = r.model;
  j["params"] = r.params;
  j["layers"] = r.layers;
  j["hidden"] = r.hidden;
  j["heads"] = r.heads;
  j["kv_heads"] = r.kv_heads;
  j["intermediate"] = r.intermediate;
  j["lora_params"] = r.lora_params;
  j["method"] = r.method;
  j["device"] = r.device;
  j["device_gib"] = r.device_gib;
  j["usable_gib"] = r.usable_gib;
  j["parts"] = nlohmann::ordered_json::array();
  for (const auto& p : r.parts) j["parts"].push_back({{"name", p.name}, {"gib", p.gib}});
  j["total_gib"] = r.total_gib;
  j["activations_recompute_gib"] = r.activations_recompute_gib;
  j["total_recompute_gib"] = r.total_recompute_gib;
  j["fits"] = r.fits;
  j["fits_with_recompute"] = r.fits_with_recompute;
  j["cards"] = r.cards;
  j["verdict"] = r.verdict;
  j["notes"] = r.notes;
  return j.dump(2) + "\n";
}

}  // namespace oc::migrate
