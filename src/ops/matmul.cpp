// MatMul (numpy semantics with batch broadcasting) and Gemm.
#include "ops/op_families.h"
#include "ops/schema_helpers.h"
#include "ops/shape_rules.h"

namespace oc {

Result<Shape> MatMulOutputShape(const Shape& a_in, const Shape& b_in) {
  if (a_in.empty() || b_in.empty()) return InvalidArgument("MatMul inputs must not be scalars");
  Shape a = a_in, b = b_in;
  const bool a_vec = a.size() == 1, b_vec = b.size() == 1;
  if (a_vec) a.insert(a.begin(), 1);
  if (b_vec) b.push_back(1);
  int64_t k1 = a.back(), k2 = b[b.size() - 2];
  if (k1 >= 0 && k2 >= 0 && k1 != k2)
    return ShapeMismatch("MatMul inner dimensions differ: " + ShapeToString(a_in) + " x " +
                         ShapeToString(b_in));
  OC_ASSIGN_OR_RETURN(
      Shape batch, BroadcastShapes(Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2)));
  if (!a_vec) batch.push_back(a[a.size() - 2]);
  if (!b_vec) batch.push_back(b.back());
  return batch;
}

namespace {

Status InferMatMul(InferContext& c) {
  if (c.node->domain.empty()) OC_RETURN_IF_ERROR(CheckSameType(c, {0, 1, 2}));
  if (!c.in(0).has_shape || !c.in(1).has_shape) {
    c.SetOutputTypeOnly(0, c.in(0).dtype);
    return Status::Ok();
  }
  auto s = MatMulOutputShape(c.in(0).shape, c.in(1).shape);
  if (!s.ok()) return c.Error(s.status().message());
  c.SetOutput(0, c.in(0).dtype, s.value());
  return Status::Ok();
}

Status InferGemm(InferContext& c) {
  if (c.node->domain.empty()) OC_RETURN_IF_ERROR(CheckSameType(c, {0, 1, 2}));
  if (!c.in(0).has_shape || !c.in(1).has_shape) {
    c.SetOutputTypeOnly(0, c.in(0).dtype);
    return Status::Ok();
  }
  const Shape& a = c.in(0).shape;
  const Shape& b = c.in(1).shape;
  if (a.size() != 2 || b.size() != 2) return c.Error("A and B must be 2-D");
  const bool ta = c.attrs().GetInt("transA", 0), tb = c.attrs().GetInt("transB", 0);
  int64_t m = ta ? a[1] : a[0], k1 = ta ? a[0] : a[1];
  int64_t k2 = tb ? b[1] : b[0], n = tb ? b[0] : b[1];
  if (k1 >= 0 && k2 >= 0 && k1 != k2)
    return c.Error("inner dimensions differ: " + ShapeToString(a) + " x " + ShapeToString(b));
  if (c.has_input(2) && c.in(2).has_shape) {
    auto bc = BroadcastShapes({m, n}, c.in(2).shape);
    if (!bc.ok() || bc.value() != Shape{m, n}) return c.Error("C cannot broadcast to [M,N]");
  }
  c.SetOutput(0, c.in(0).dtype, {m, n});
  return Status::Ok();
}

}  // namespace

void RegisterMatmulSchemas(OpRegistry& r) {
  r.Register({"MatMul", "", 2, 2, 1, 1, InferMatMul});
  // MatMul/Gemm with fused bias and activation, made by the compiler.
  r.Register({"MatMul", kOcDomain, 2, 3, 1, 1, InferMatMul});
  r.Register({"Gemm", "", 2, 3, 1, 1, InferGemm});
  r.Register({"Gemm", kOcDomain, 2, 3, 1, 1, InferGemm});
}

}  // namespace oc
