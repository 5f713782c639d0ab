// gpu2npu fit: will a model fit one card? Memory for weights, gradients, optimizer states and
// activations (with and without recomputation) for inference, full fine-tuning with Adam,
// LoRA and QLoRA-like training, against a device's memory.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"

namespace oc::migrate {

struct FitRequest {
  std::string model = "7B";     // parameter count ("7B", "1.3e9") or a known name
  std::string method = "lora";  // inference, full, lora, qlora
  std::string dtype = "bf16";   // fp32, fp16, bf16, int8, int4 (weights)
  int batch = 1, seq = 2048;
  std::string device = "Ascend910B3";
  int lora_rank = 16;
  std::string lora_targets = "q,v";  // PEFT's default for Llama; "all" = every linear layer
  int kv_heads = 0;                  // 0: the model's own (GQA/MQA), or heads
  std::string attention = "fused";   // fused (npu_fusion_attention) or eager
};

struct FitPart {
  std::string name;
  double gib = 0;
};

struct FitResult {
  std::string model, device, method;
  double params = 0;  // count
  int layers = 0, hidden = 0, heads = 0, kv_heads = 0, intermediate = 0;
  double lora_params = 0;
  std::vector<std::string> notes;  // caveats: 4-bit library support, tensor-parallel degree
  double device_gib = 0, usable_gib = 0;
  std::vector<FitPart> parts;            // without recomputation
  double activations_recompute_gib = 0;  // activations with full recomputation
  double total_gib = 0, total_recompute_gib = 0;
  bool fits = false, fits_with_recompute = false;
  int cards = 1;  // cards needed (states sharded, ZeRO-3 style; inference: a tensor-parallel
                  // degree that divides the attention heads) when one is not enough
  std::string verdict;
};

Result<FitResult> EstimateFit(const FitRequest& request);
std::vector<std::string> KnownDevices();
std::string FitText(const FitResult& r);
std::string FitJson(const FitResult& r);

}  // namespace oc::migrate
