// DFT, STFT and MelWeightMatrix (opset 17).
#include "ops/op_families.h"
#include "ops/schema_helpers.h"

namespace oc {
namespace {

Status InferDft(InferContext& c) {
  const ValueInfo& x = c.in(0);
  if (!x.has_shape) {
    c.SetOutputTypeOnly(0, x.dtype);
    return Status::Ok();
  }
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  int64_t axis = c.attrs().GetInt("axis", 1);
  if (axis < 0) axis += rank;
  if (axis <= 0 || axis >= rank - 1) return c.Error("axis must name a signal dimension");
  Shape out = x.shape;
  out.back() = 2;
  int64_t n = x.shape[axis];
  if (c.has_input(1)) {
    if (!c.constant(1)) {
      out[axis] = -1;
      c.SetOutput(0, x.dtype, out);
      return Status::Ok();
    }
    n = c.constant(1)->GetAsInt(0);
  }
  out[axis] = c.attrs().GetInt("onesided", 0) ? n / 2 + 1 : n;
  c.SetOutput(0, x.dtype, out);
  return Status::Ok();
}

Status InferStft(InferContext& c) {
  const ValueInfo& x = c.in(0);
  const Tensor* step = c.constant(1);
  int64_t frame = -1;
  if (c.has_input(3))
    frame = c.constant(3) ? c.constant(3)->GetAsInt(0) : -1;
  else if (c.has_input(2) && c.in(2).has_shape)
    frame = c.in(2).shape[0];
  if (!x.has_shape || !step || frame < 0) {
    c.SetOutput(0, x.dtype, {-1, -1, -1, 2});
    return Status::Ok();
  }
  const int64_t frames = (x.shape[1] - frame) / step->GetAsInt(0) + 1;
  const int64_t bins = c.attrs().GetInt("onesided", 1) ? frame / 2 + 1 : frame;
  c.SetOutput(0, x.dtype, {x.shape[0], frames, bins, 2});
  return Status::Ok();
}

Status InferMel(InferContext& c) {
  const DataType dt = static_cast<DataType>(c.attrs().GetInt("output_datatype", 1));
  if (c.constant(0) && c.constant(1)) {
    c.SetOutput(0, dt, {c.constant(1)->GetAsInt(0) / 2 + 1, c.constant(0)->GetAsInt(0)});
  } else {
    c.SetOutput(0, dt, {-1, -1});
  }
  return Status::Ok();
}

}  // namespace

void RegisterSpectralSchemas(OpRegistry& r) {
  r.Register({"DFT", "", 1, 2, 1, 1, InferDft});
  r.Register({"STFT", "", 2, 4, 1, 1, InferStft});
  r.Register({"MelWeightMatrix", "", 5, 5, 1, 1, InferMel});
}

}  // namespace oc
