// The .om's own attributes (prefix "_oc_"): what OpenCANN stores in the GE ModelDef beside
// GE's fields so that a model reads back exactly. Written by om_writer.cpp, read by
// om_reader.cpp and shown by om_json.cpp; nothing outside src/om names them.
#pragma once

namespace oc::om_attrs {

inline constexpr const char* kInputs = "_oc_inputs";    // op: value names read (NetOutput: outputs)
inline constexpr const char* kOutputs = "_oc_outputs";  // op: value names written
inline constexpr const char* kDomain = "_oc_domain";    // op: the op's domain when not ai.onnx
// op: where a control-flow node's captured (outer-scope) inputs begin
inline constexpr const char* kExplicitInputs = "_oc_explicit_inputs";
inline constexpr const char* kMemOffset = "_oc_mem_offset";      // output desc: arena offset
inline constexpr const char* kDynamicDims = "_oc_dynamic_dims";  // input desc: -1 dims kept
inline constexpr const char* kArenaSize = "_oc_arena_size";      // graph (or model): arena bytes
inline constexpr const char* kGear = "_oc_gear";                 // graph: the gear's values
inline constexpr const char* kOpset = "_oc_opset";               // model: ai.onnx opset
inline constexpr const char* kMetaPrefix = "_oc_meta_";          // model: the source's metadata

}  // namespace oc::om_attrs
