// Attributes OpenCANN adds to a model, written by one layer and read by another: their
// names and value types in one place, so a reader and a writer cannot drift apart. They
// travel in the .om with the "_oc_" prefix (GE ignores attributes it does not know).
#pragma once

#include <string>

#include "ir/attribute.h"

namespace oc {

// A node attribute of value type T.
template <typename T>
struct NodeAttr {
  const char* name;
};

inline std::string GetAttr(const AttributeMap& attrs, NodeAttr<std::string> key,
                           const std::string& fallback) {
  return attrs.GetString(key.name, fallback);
}
inline void SetAttr(AttributeMap& attrs, NodeAttr<std::string> key, std::string value) {
  attrs.Set(key.name, std::move(value));
}

// The compute dtype the precision mode chose for a float op ("float32", "float16",
// "bfloat16"): written by the compiler's AssignPrecision, read by kernels (bf16 compute)
// and by ocann-compare.
inline constexpr NodeAttr<std::string> kComputeDtype{"_oc_dtype"};

// Model attributes (string values, the .om's model-level attribute map).
// Comma-separated names of the inputs that take images through static AIPP: written by the
// driver, read by the runtime (those inputs are NHWC) and by ocann-compare.
inline constexpr const char* kAippInputsAttr = "_oc_aipp_inputs";

}  // namespace oc
