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
  int layers, hidden, heads;
};

// Decoder-only transformers of common sizes (Llama-style shapes).
const std::map<std::string, Arch>& KnownModels() {
  static const std::map<std::string, Arch> m = {
      {"1b", {1.1e9, 22, 2048, 32}},         {"3b", {3.2e9, 26, 3200, 32}},
      {"7b", {6.7e9, 32, 4096, 32}},         {"8b", {8.0e9, 32, 4096, 32}},
      {"13b", {13.0e9, 40, 5120, 40}},       {"14b", {14.2e9, 40, 5120, 40}},
      {"30b", {32.5e9, 60, 6656, 52}},       {"34b", {34.0e9, 48, 8192, 64}},
      {"65b", {65.2e9, 80, 8192, 64}},       {"70b", {70.0e9, 80, 8192, 64}},
      {"llama-7b", {6.7e9, 32, 4096, 32}},   {"llama-13b", {13.0e9, 40, 5120, 40}},
      {"llama-70b", {70.0e9, 80, 8192, 64}}, {"qwen-7b", {7.7e9, 32, 4096, 32}},
      {"bert-base", {0.11e9, 12, 768, 12}},  {"bert-large", {0.34e9, 24, 1024, 16}},
      {"gpt2", {0.124e9, 12, 768, 12}}};
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
    r.heads = it->second.heads;
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
  }
  r.device_gib = dev->second;
  r.usable_gib = dev->second * 0.9;  // runtime, workspace and fragmentation
  const double P = r.params, L = r.layers, h = r.hidden, a = r.heads, b = q.batch, s = q.seq;
  const double act_bytes = 2;  // activations in 16-bit
  // Activations per layer (Korthikanti et al.): s*b*h*(34 + 5*a*s/h) bytes in 16-bit, no
  // recomputation; with full recomputation only each layer's input (2*s*b*h) stays.
  const double act_full = L * s * b * h * (34 + 5 * a * s / h) * (act_bytes / 2) / kGiB;
  const double act_recompute = L * 2 * s * b * h / kGiB + s * b * h * (34 + 5 * a * s / h) / kGiB;
  if (q.method == "inference") {
    r.parts.push_back({"weights", P * wbytes / kGiB});
    r.parts.push_back({"KV cache", 2 * L * b * s * h * 2 / kGiB});
    r.parts.push_back({"activations (one layer at a time)", s * b * h * 12 * 2 / kGiB});
    r.activations_recompute_gib = r.parts.back().gib;
  } else if (q.method == "full") {
    // Mixed precision with Adam: 16-bit weights and gradients, fp32 master weights and moments.
    r.parts.push_back({"weights (16-bit)", P * 2 / kGiB});
    r.parts.push_back({"gradients (16-bit)", P * 2 / kGiB});
    r.parts.push_back({"optimizer: fp32 master weights + Adam moments", P * 12 / kGiB});
    r.parts.push_back({"activations", act_full});
    r.activations_recompute_gib = act_recompute;
  } else {
    // LoRA on the attention and MLP projections: 2*r*(in+out) per matrix, 7 matrices per layer.
    const double lora = L * 7 * 2 * q.lora_rank * (h + 2.7 * h);
    r.parts.push_back(
        {q.method == "qlora" ? "frozen weights (4-bit)" : "frozen weights", P * wbytes / kGiB});
    r.parts.push_back({"LoRA adapters + gradients + Adam (" +
                           std::to_string(static_cast<long long>(lora)) + " params)",
                       lora * 16 / kGiB});
    r.parts.push_back({"activations", act_full});
    r.activations_recompute_gib = act_recompute;
  }
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
                "model %s: %.2fB parameters (%d layers, hidden %d, %d heads), %s on %s (%.0f GiB, "
                "%.1f usable)\n",
                r.model.c_str(), r.params / 1e9, r.layers, r.hidden, r.heads, r.method.c_str(),
                r.device.c_str(), r.device_gib, r.usable_gib);
  os << buf;
  for (const auto& p : r.parts) {
    std::snprintf(buf, sizeof(buf), "  %-55s %9.2f GiB\n", p.name.c_str(), p.gib);
    os << buf;
  }
  std::snprintf(buf, sizeof(buf), "  %-55s %9.2f GiB\n  %-55s %9.2f GiB\n  %-55s %9.2f GiB\n",
                "total", r.total_gib, "activations with full recomputation",
                r.activations_recompute_gib, "total with recomputation", r.total_recompute_gib);
  os << buf << "verdict: " << r.verdict << "\n";
  return os.str();
}

std::string FitJson(const FitResult& r) {
  nlohmann::ordered_json j;
  j["model"] = r.model;
  j["params"] = r.params;
  j["layers"] = r.layers;
  j["hidden"] = r.hidden;
  j["heads"] = r.heads;
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
  return j.dump(2) + "\n";
}

}  // namespace oc::migrate
