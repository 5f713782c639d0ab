// Small helpers shared by the schema family files.
#pragma once

#include <string>

#include "ops/op_schema.h"

namespace oc {

// Output 0 gets input 0's type and shape.
Status InferSameAsInput(InferContext& ctx);
// Registers `op_type` with the same-as-input rule and arity [min_in, max_in].
void RegisterUnary(OpRegistry& r, const std::string& op_type, int min_in = 1, int max_in = 1);
// Rank of input i, or -1 when unknown.
inline int64_t RankOf(const InferContext& ctx, size_t i) {
  return ctx.has_input(i) && ctx.in(i).has_shape ? static_cast<int64_t>(ctx.in(i).shape.size())
                                                 : -1;
}

}  // namespace oc
