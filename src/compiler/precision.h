// --precision_mode and the flags that refine it, as the compiler applies them.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"

namespace oc {

enum class PrecisionMode {
  kOrigin,      // must_keep_origin_dtype / origin; also the CPU default
  kForceFp16,   // force_fp16 / fp16: every float op computes in fp16
  kCubeFp16In,  // force_fp32 = cube_fp16in_fp32out: cube ops read fp16, write fp32
  kCubeFp16,    // allow_fp32_to_fp16: cube ops in fp16, the rest in fp32
  kMixedFp16,   // allow_mix_precision(_fp16) / mixed_float16: allow/block/gray lists
  kMixedBf16,   // allow_mix_precision_bf16 / mixed_bfloat16
};

struct PrecisionOptions {
  PrecisionMode mode = PrecisionMode::kOrigin;
  std::string name;  // the flag value, for messages and the .om
  // --keep_dtype: node names and op types (from "OpType::Relu" lines) kept in fp32.
  std::set<std::string> keep_nodes, keep_types;
  // --modify_mixlist: op types added to / removed from the allow ("white") and block
  // ("black") lists; gray ones follow their producer.
  std::set<std::string> allow_add, allow_remove, block_add, block_remove, gray_add;
  // --customize_dtypes: the dtype an op computes in ("float16", "bfloat16", "float32"), by
  // node name or op type; it wins over the mode and --keep_dtype.
  std::map<std::string, std::string> custom_nodes, custom_types;
};

// Parses --precision_mode (v2 = false) or --precision_mode_v2 (v2 = true); E10001 naming the
// flag for an unknown value. allow_fp32_to_bf16 keeps fp32 wherever a kernel has fp32,
// which every kernel here has: it maps to kOrigin.
Result<PrecisionOptions> ParsePrecisionMode(const std::string& value, bool v2);
// --keep_dtype file: one node name or OpType::Type per line; # comments.
Status ParseKeepDtype(const std::string& text, PrecisionOptions* options);
// --customize_dtypes file: "Name::InputDtype:float16,float16,OutputDtype:float16" or
// "OpType::Conv:InputDtype:...,OutputDtype:..." lines. OpenCANN gives an op one dtype, so
// every dtype of a line must agree (E10001 otherwise).
Status ParseCustomizeDtypes(const std::string& text, PrecisionOptions* options);
// --modify_mixlist JSON: {"black-list": {"to-add": [...], "to-remove": [...]}, "white-list":
// {...}, "gray-list": {...}}; only in the mixed modes.
Status ParseModifyMixlist(const std::string& text, PrecisionOptions* options);

}  // namespace oc
