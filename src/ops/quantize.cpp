// Quantization ops: QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, MatMulInteger,
// ConvInteger, QLinearMatMul, QLinearConv.
#include "ops/op_families.h"
#include "ops/schema_helpers.h"
#include "ops/shape_rules.h"

namespace oc {
namespace {

Status InferQuantize(InferContext& c) {
  c.outputs[0] = c.in(0);
  c.outputs[0].dtype = c.has_input(2) ? c.in(2).dtype : DataType::kUint8;
  return Status::Ok();
}

Status InferDequantize(InferContext& c) {
  c.outputs[0] = c.in(0);
  c.outputs[0].dtype = c.in(1).dtype;
  return Status::Ok();
}

Status InferDynamicQuantize(InferContext& c) {
  c.outputs[0] = c.in(0);
  c.outputs[0].dtype = DataType::kUint8;
  c.SetOutput(1, DataType::kFloat, {});
  c.SetOutput(2, DataType::kUint8, {});
  return Status::Ok();
}

Status InferMatMulLike(InferContext& c, size_t a, size_t b, DataType out) {
  if (!c.in(a).has_shape || !c.in(b).has_shape) {
    c.SetOutputTypeOnly(0, out);
    return Status::Ok();
  }
  auto s = MatMulOutputShape(c.in(a).shape, c.in(b).shape);
  if (!s.ok()) return c.Error(s.status().message());
  c.SetOutput(0, out, s.value());
  return Status::Ok();
}

Status InferConvLike(InferContext& c, size_t x_index, size_t w_index, DataType out) {
  const ValueInfo& x = c.in(x_index);
  const ValueInfo& w = c.in(w_index);
  if (!x.has_shape || !w.has_shape) {
    c.SetOutputTypeOnly(0, out);
    return Status::Ok();
  }
  Shape o;
  Status s = ConvForwardShape(x.shape, w.shape, c.attrs(), &o);
  if (!s.ok()) return c.Error(s.message());
  c.SetOutput(0, out, o);
  return Status::Ok();
}

}  // namespace

void RegisterQuantizeSchemas(OpRegistry& r) {
  r.Register({"QuantizeLinear", "", 2, 3, 1, 1, InferQuantize});
  r.Register({"DequantizeLinear", "", 2, 3, 1, 1, InferDequantize});
  r.Register({"DynamicQuantizeLinear", "", 1, 1, 3, 3, InferDynamicQuantize});
  r.Register({"MatMulInteger", "", 2, 4, 1, 1,
              [](InferContext& c) { return InferMatMulLike(c, 0, 1, DataType::kInt32); }});
  r.Register({"QLinearMatMul", "", 8, 8, 1, 1,
              [](InferContext& c) { return InferMatMulLike(c, 0, 3, c.in(7).dtype); }});
  r.Register({"ConvInteger", "", 2, 4, 1, 1,
              [](InferContext& c) { return InferConvLike(c, 0, 1, DataType::kInt32); }});
  r.Register({"QLinearConv", "", 8, 9, 1, 1,
              [](InferContext& c) { return InferConvLike(c, 0, 3, c.in(7).dtype); }});
}

}  // namespace oc
