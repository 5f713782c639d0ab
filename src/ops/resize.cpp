// Resize (opsets 10-13+) and Upsample (opsets 7-9).
#include <cmath>

#include "ops/op_families.h"
#include "ops/schema_helpers.h"
#include "ops/shape_rules.h"

namespace oc {

Result<Shape> ResizeOutputShape(const Shape& in, const Tensor* scales, const Tensor* sizes) {
  Shape out(in.size());
  if (sizes && sizes->numel() > 0) {
    if (sizes->numel() != static_cast<int64_t>(in.size()))
      return InvalidArgument("sizes must have one value per input dimension");
    for (size_t i = 0; i < in.size(); ++i) out[i] = sizes->GetAsInt(static_cast<int64_t>(i));
    return out;
  }
  if (!scales || scales->numel() != static_cast<int64_t>(in.size()))
    return InvalidArgument("scales must have one value per input dimension");
  for (size_t i = 0; i < in.size(); ++i) {
    const double s = scales->GetAsDouble(static_cast<int64_t>(i));
    if (s <= 0) return InvalidArgument("scales must be positive");
    out[i] = static_cast<int64_t>(std::floor(static_cast<double>(in[i]) * s));
  }
  return out;
}

namespace {

Status InferResize(InferContext& c) {
  const ValueInfo& x = c.in(0);
  const Tensor *scales = nullptr, *sizes = nullptr;
  Tensor attr_scales;
  bool known = true;
  if (c.node->op_type == "Upsample" || c.opset < 11) {
    if (c.num_inputs() > 1) {
      scales = c.constant(1);
      known = scales != nullptr;
    } else if (c.attrs().Has("scales")) {
      auto f = c.attrs().GetFloats("scales");
      attr_scales = Tensor(DataType::kFloat, {static_cast<int64_t>(f.size())});
      std::copy(f.begin(), f.end(), attr_scales.mutable_data_as<float>());
      scales = &attr_scales;
    }
  } else {
    if (c.has_input(3)) {
      sizes = c.constant(3);
      known = sizes != nullptr;
    }
    if (c.has_input(2) && !c.has_input(3)) {
      scales = c.constant(2);
      known = scales != nullptr;
    }
    if (scales && scales->numel() == 0) scales = nullptr;
    if (sizes && sizes->numel() == 0) sizes = nullptr;
  }
  if (!known || !x.has_shape || (!scales && !sizes)) {
    if (x.has_shape)
      c.SetOutput(0, x.dtype, Shape(x.shape.size(), -1));
    else
      c.SetOutputTypeOnly(0, x.dtype);
    return Status::Ok();
  }
  auto out = ResizeOutputShape(x.shape, scales, sizes);
  if (!out.ok()) return c.Error(out.status().message());
  c.SetOutput(0, x.dtype, out.value());
  return Status::Ok();
}

}  // namespace

void RegisterResizeSchemas(OpRegistry& r) {
  r.Register({"Resize", "", 1, 4, 1, 1, InferResize});
  r.Register({"Upsample", "", 1, 2, 1, 1, InferResize});
  r.SetTraits("", "Resize", NeedsValuesOf({1, 2, 3}));
  r.SetTraits("", "Upsample", NeedsValuesOf({1}));
}

}  // namespace oc
