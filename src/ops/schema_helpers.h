// Small helpers shared by the schema family files.
#pragma once

#include <climits>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "ops/op_schema.h"

namespace oc {

// Output 0 gets input 0's type and shape.
Status InferSameAsInput(InferContext& ctx);
// Registers `op_type` with the same-as-input rule and arity [min_in, max_in].
void RegisterUnary(OpRegistry& r, const std::string& op_type, int min_in = 1, int max_in = 1);
// ONNX's type constraints bind one type T to these inputs (those given): all the same.
inline Status CheckSameType(const InferContext& ctx, std::initializer_list<size_t> inputs) {
  const ValueInfo* first = nullptr;
  for (size_t i : inputs) {
    if (!ctx.has_input(i)) continue;
    if (!first) {
      first = &ctx.in(i);
    } else if (ctx.in(i).dtype != first->dtype) {
      return ctx.Error(std::string("input types differ: ") + DataTypeName(first->dtype) + " and " +
                       DataTypeName(ctx.in(i).dtype) + " (input " + std::to_string(i) + ")");
    }
  }
  return Status::Ok();
}
// The same for every input.
inline Status CheckAllSameType(const InferContext& ctx) {
  for (size_t i = 1; i < ctx.num_inputs(); ++i) OC_RETURN_IF_ERROR(CheckSameType(ctx, {0, i}));
  return Status::Ok();
}

// An element type named by an attribute (Cast's `to`, EyeLike's `dtype`, ...): one the
// runtime holds numbers of, or an error naming the attribute.
inline Status DtypeAttr(const InferContext& ctx, const char* name, DataType fallback,
                        DataType* dtype) {
  const int64_t v = ctx.attrs().GetInt(name, static_cast<int64_t>(fallback));
  if (v <= 0 || v > INT32_MAX || !IsValidDataType(static_cast<int32_t>(v)) ||
      static_cast<DataType>(v) == DataType::kString)
    return ctx.Error(std::string("attribute ") + name + " names the invalid element type " +
                     std::to_string(v));
  *dtype = static_cast<DataType>(v);
  return Status::Ok();
}

// Rank of input i, or -1 when unknown.
inline int64_t RankOf(const InferContext& ctx, size_t i) {
  return ctx.has_input(i) && ctx.in(i).has_shape ? static_cast<int64_t>(ctx.in(i).shape.size())
                                                 : -1;
}

}  // namespace oc
