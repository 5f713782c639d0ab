// oc.RoundTo: the precision emulation's one op. Rounds float32 values to the nearest
// float16 (or bfloat16) value, ties to even, and keeps them in float32 storage: a tensor
// an NPU would hold in fp16 holds exactly the fp16 values here. The compiler inserts it
// (passes/assign_precision.cpp) where --precision_mode makes an op compute in fp16/bf16.
#include "ops/op_families.h"
#include "ops/schema_helpers.h"

namespace oc {

void RegisterPrecisionSchemas(OpRegistry& r) {
  r.Register({"RoundTo", kOcDomain, 1, 1, 1, 1, [](InferContext& c) {
                const std::string to = c.attrs().GetString("to", "");
                if (to != "float16" && to != "bfloat16")
                  return c.Error("attribute to must be float16 or bfloat16, not [" + to + "]");
                if (c.in(0).dtype != DataType::kFloat) return c.Error("input must be float32");
                return InferSameAsInput(c);
              }});
  r.SetTraits(kOcDomain, "RoundTo", InPlaceOn(0));
}

}  // namespace oc
