#include "migrate/ports.h"

#include <cctype>
#include <vector>

namespace oc::migrate {
namespace {

std::string Lower(const std::string& s) {
  std::string out;
  for (char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

struct KernelEntry {
  std::vector<const char*> all;  // every word must appear in the name
  Port port;
};

// From ../shared/reference/migration-extra.md section 1 (torch_npu fused ops, first releases)
// and section 2 (mmcv's NPU ops). Order matters: the more specific entry comes first.
const std::vector<KernelEntry>& KernelPorts() {
  static const std::vector<KernelEntry> kPorts = {
      {{"ms", "deform", "attn"},
       {"mmcv's NPU ms_deform_attn (build mmcv with FORCE_NPU=1)",
        "multi-scale deformable attention", 2, 5}},
      {{"multi_scale_deform"},
       {"mmcv's NPU ms_deform_attn (build mmcv with FORCE_NPU=1)",
        "multi-scale deformable attention", 2, 5}},
      {{"deform", "roi"},
       {"mmcv's NPU deform_roi_pool (FORCE_NPU=1)", "deformable RoI pooling", 2, 5}},
      {{"deform"},
       {"torch_npu.npu_deformable_conv2d (torch_npu.contrib DCNv2 / ModulatedDeformConv)",
        "DCNv1/v2 forward and backward, torch_npu since v1.5.0-3.0.rc1", 2, 5}},
      {{"dcn"},
       {"torch_npu.npu_deformable_conv2d (torch_npu.contrib DCNv2 / ModulatedDeformConv)",
        "DCNv1/v2 forward and backward, torch_npu since v1.5.0-3.0.rc1", 2, 5}},
      {{"roi", "align", "rotated"},
       {"mmcv's NPU roi_align_rotated (FORCE_NPU=1)", "rotated RoIAlign", 2, 4}},
      {{"roi", "align"},
       {"torch_npu.npu_roi_align (torch_npu.contrib ROIAlign)", "RoIAlign, v1.5.0-3.0.rc1", 1, 3}},
      {{"ps", "roi"}, {"torch_npu.npu_ps_roi_pooling", "position-sensitive RoI pooling", 1, 3}},
      {{"nms", "rotated"}, {"torch_npu.npu_nms_rotated", "rotated NMS, v1.5.0-3.0.rc1", 1, 3}},
      {{"nms"}, {"torch_npu.npu_nms_v4 / npu_batch_nms", "NMS and batched per-class NMS", 1, 3}},
      {{"giou"}, {"torch_npu.npu_giou", "generalised IoU", 1, 2}},
      {{"diou"}, {"torch_npu.npu_diou", "distance IoU", 1, 2}},
      {{"ciou"}, {"torch_npu.npu_ciou", "complete IoU", 1, 2}},
      {{"iou"}, {"torch_npu.npu_iou / npu_rotated_iou", "IoU family", 1, 2}},
      {{"bbox"},
       {"torch_npu.npu_bounding_box_decode / npu_bounding_box_encode", "box coder", 1, 2}},
      {{"focal", "loss"},
       {"mmcv's NPU sigmoid/softmax focal loss (FORCE_NPU=1)", "focal loss", 1, 3}},
      {{"rms", "norm"},
       {"torch_npu.npu_rms_norm (npu_add_rms_norm with the residual add)", "RMSNorm", 1, 2}},
      {{"rmsnorm"},
       {"torch_npu.npu_rms_norm (npu_add_rms_norm with the residual add)", "RMSNorm", 1, 2}},
      {{"layer", "norm"}, {"torch.nn.functional.layer_norm (NPU kernel)", "LayerNorm", 0.5, 1}},
      {{"layernorm"}, {"torch.nn.functional.layer_norm (NPU kernel)", "LayerNorm", 0.5, 1}},
      {{"group", "norm"},
       {"torch.nn.functional.group_norm / torch_npu.npu_group_norm_silu", "GroupNorm (+SiLU)", 0.5,
        1}},
      {{"rotary"},
       {"torch_npu.npu_rotary_mul / npu_apply_rotary_pos_emb", "RoPE, v1.11.0-5.0.rc3", 1, 2}},
      {{"rope"},
       {"torch_npu.npu_rotary_mul / npu_apply_rotary_pos_emb", "RoPE, v1.11.0-5.0.rc3", 1, 2}},
      {{"masked", "softmax"},
       {"torch_npu.npu_scaled_masked_softmax", "Megatron's fused scale-mask-softmax", 1, 2}},
      {{"flash"},
       {"torch_npu.npu_fusion_attention (training) / npu_fused_infer_attention_score",
        "FlashAttention-2 forward and backward", 2, 5}},
      {{"attention"},
       {"torch_npu.npu_fusion_attention (training) / npu_fused_infer_attention_score",
        "fused attention", 2, 5}},
      {{"attn"},
       {"torch_npu.npu_fusion_attention (training) / npu_fused_infer_attention_score",
        "fused attention", 2, 5}},
      {{"swiglu"}, {"torch_npu.npu_swiglu", "SwiGLU", 0.5, 1}},
      {{"geglu"}, {"torch_npu.npu_geglu", "GeGLU", 0.5, 1}},
      {{"moe"}, {"torch_npu.npu_moe_* (gating, init/finalize routing)", "MoE routing", 2, 5}},
      {{"grouped", "gemm"}, {"torch_npu.npu_grouped_matmul", "grouped GEMM", 1, 3}},
      {{"group", "gemm"}, {"torch_npu.npu_grouped_matmul", "grouped GEMM", 1, 3}},
      {{"cross", "entropy"},
       {"torch_npu.npu_cross_entropy_loss (7.0.0) / F.cross_entropy", "fused cross entropy", 0.5,
        1}},
      {{"top", "p"}, {"torch_npu.npu_top_k_top_p", "sampling filter (7.1.0)", 0.5, 1}},
  };
  return kPorts;
}

bool AllIn(const std::string& hay, const std::vector<const char*>& words) {
  for (const char* w : words)
    if (hay.find(w) == std::string::npos) return false;
  return true;
}

}  // namespace

const Port* KernelPort(const std::string& kernel_name, const std::string& file) {
  const std::string name = Lower(kernel_name);
  std::string stem = Lower(file);
  if (const size_t slash = stem.find_last_of('/'); slash != std::string::npos)
    stem = stem.substr(slash + 1);
  for (const auto& e : KernelPorts())
    if (AllIn(name, e.all)) return &e.port;
  for (const auto& e : KernelPorts())
    if (AllIn(stem, e.all)) return &e.port;
  return nullptr;
}

std::string TritonEquivalent(const std::string& name, const std::set<std::string>& tl) {
  const std::string n = Lower(name);
  struct E {
    std::vector<const char*> words;
    const char* op;
  };
  static const std::vector<E> kNamed = {
      {{"flash"}, "torch_npu.npu_fusion_attention"},
      {{"attn"}, "torch_npu.npu_fusion_attention"},
      {{"attention"}, "torch_npu.npu_fusion_attention"},
      {{"rms"}, "torch_npu.npu_rms_norm"},
      {{"layer", "norm"}, "torch.nn.functional.layer_norm"},
      {{"layernorm"}, "torch.nn.functional.layer_norm"},
      {{"group", "norm"}, "torch.nn.functional.group_norm"},
      {{"softmax"}, "torch.softmax"},
      {{"cross", "entropy"}, "torch.nn.functional.cross_entropy"},
      {{"rotary"}, "torch_npu.npu_rotary_mul"},
      {{"rope"}, "torch_npu.npu_rotary_mul"},
      {{"swiglu"}, "torch_npu.npu_swiglu"},
      {{"geglu"}, "torch_npu.npu_geglu"},
      {{"gelu"}, "torch.nn.functional.gelu (torch_npu.npu_fast_gelu)"},
      {{"silu"}, "torch.nn.functional.silu"},
      {{"relu"}, "torch.relu"},
      {{"sigmoid"}, "torch.sigmoid"},
      {{"tanh"}, "torch.tanh"},
      {{"dropout"}, "torch.nn.functional.dropout"},
      {{"matmul"}, "torch.matmul"},
      {{"gemm"}, "torch.matmul"},
      {{"mm_"}, "torch.matmul"},
      {{"add"}, "torch.add"},
      {{"mul"}, "torch.mul"},
      {{"copy"}, "Tensor.copy_"},
      {{"transpose"}, "Tensor.transpose"},
      {{"cumsum"}, "torch.cumsum"},
      {{"sum"}, "torch.sum"},
      {{"mean"}, "torch.mean"},
      {{"max"}, "torch.max"},
  };
  for (const auto& e : kNamed)
    if (AllIn(n, e.words)) return e.op;
  // Unnamed elementwise kernels: loads, one arithmetic family, a store, nothing else.
  static const std::set<std::string> kElementwise = {
      "program_id",  "arange",         "load",    "store",   "exp",     "log",       "sqrt",
      "abs",         "where",          "maximum", "minimum", "sigmoid", "cdiv",      "full",
      "zeros",       "rsqrt",          "cos",     "sin",     "to",      "constexpr", "num_programs",
      "multiple_of", "max_contiguous", "fma"};
  if (!tl.count("dot") && !tl.empty()) {
    bool all = true;
    for (const auto& c : tl) all &= kElementwise.count(c) > 0;
    if (all) return "torch elementwise ops (one expression)";
  }
  return "";
}

const Port* LibraryPort(const std::string& rule) {
  static const std::vector<std::pair<const char*, Port>> kLib = {
      {"flash_attn",
       {"torch_npu.npu_fusion_attention (HF attn_implementation=\"flash_attention_2\" maps to it)",
        "FlashAttention-2 on NPU", 1, 3}},
      {"xformers",
       {"torch_npu.npu_fusion_attention / F.scaled_dot_product_attention",
        "memory-efficient attention on NPU", 1, 3}},
      {"apex",
       {"Ascend/apex (apex patched for NPU: amp, NpuFusedAdam)", "build the Ascend fork", 1, 2}},
      {"apex.amp", {"torch.amp (native AMP on NPU)", "drop apex.amp", 0.5, 1}},
      {"apex.optimizers", {"Ascend/apex NpuFused* optimizers or torch.optim", "", 0.5, 1}},
      {"apex.normalization",
       {"torch.nn.LayerNorm / torch_npu.npu_rms_norm", "fused norms have NPU ops", 0.5, 1}},
      {"deepspeed",
       {"DeepSpeed's built-in NPU accelerator (DS_ACCELERATOR=npu)",
        "accelerator/npu_accelerator.py, hccl", 0.5, 2}},
      {"mmcv", {"mmcv built with FORCE_NPU=1 (about 45 NPU ops)", "", 1, 2}},
      {"triton",
       {"triton-ascend (Atlas A2/A3, ~85% of the Triton API)", "try before rewriting", 1, 3}},
      {"vllm", {"vLLM-Ascend (platform plugin)", "", 1, 3}},
      {"megatron", {"MindSpeed (import mindspeed.megatron_adaptor)", "", 2, 5}},
      {"lightning",
       {"a custom Lightning accelerator or torch_npu's transfer_to_npu",
        "Lightning has no built-in NPU accelerator", 2, 5}},
      {"ort.cuda",
       {"CANNExecutionProvider (onnxruntime built with CANN) or atc + AscendCL",
        "same ONNX model, another provider", 1, 3}},
      {"tensorrt",
       {"export to ONNX, atc to an .om, AscendCL (or msame) to run it", "engine code rewritten", 2,
        5}},
      {"bnb.quantized_load",
       {"load the weights in bf16 (drop load_in_8bit/4bit); check the fit with gpu2npu fit",
        "bitsandbytes on NPU is unverified", 0.5, 1}},
      {"bnb.optim",
       {"torch.optim.AdamW (more optimizer memory) or DeepSpeed CPU-offload Adam", "", 0.5, 1}},
  };
  for (const auto& [id, port] : kLib)
    if (rule == id) return &port;
  return nullptr;
}

}  // namespace oc::migrate
