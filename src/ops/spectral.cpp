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
    OC_RETURN_IF_ERROR(c.OneValue(1, &n));
    if (n <= 0) return c.Error("dft_length must be positive");
  }
  out[axis] = c.attrs().GetInt("onesided", 0) ? n / 2 + 1 : n;
  c.SetOutput(0, x.dtype, out);
  return Status::Ok();
}

Status InferStft(InferContext& c) {
  const ValueInfo& x = c.in(0);
  if (x.has_shape && (x.shape.size() != 3 || (x.shape[2] != 1 && x.shape[2] != 2)))
    return c.Error("signal must be [batch, length, 1 or 2], got " + ShapeToString(x.shape));
  int64_t step = -1;
  if (c.constant(1)) {
    OC_RETURN_IF_ERROR(c.OneValue(1, &step));
    if (step <= 0) return c.Error("frame_step must be positive");
  }
  int64_t frame = -1;
  if (c.has_input(2) && c.in(2).has_shape && c.in(2).shape.size() != 1)
    return c.Error("window must be of rank 1");
  if (c.has_input(3)) {
    if (c.constant(3)) OC_RETURN_IF_ERROR(c.OneValue(3, &frame));
    if (c.constant(3) && frame <= 0) return c.Error("frame_length must be positive");
  } else if (c.has_input(2) && c.in(2).has_shape) {
    frame = c.in(2).shape[0];
  }
  if (!x.has_shape || step < 0 || frame < 0 || x.shape[1] < 0) {
    c.SetOutput(0, x.dtype, {-1, -1, -1, 2});
    return Status::Ok();
  }
  if (frame > x.shape[1]) return c.Error("frame_length is longer than the signal");
  const int64_t frames = (x.shape[1] - frame) / step + 1;
  const int64_t bins = c.attrs().GetInt("onesided", 1) ? frame / 2 + 1 : frame;
  c.SetOutput(0, x.dtype, {x.shape[0], frames, bins, 2});
  return Status::Ok();
}

Status InferMel(InferContext& c) {
  DataType dt = DataType::kUndefined;
  OC_RETURN_IF_ERROR(DtypeAttr(c, "output_datatype", DataType::kFloat, &dt));
  if (c.constant(0) && c.constant(1)) {
    int64_t mel_bins = 0, dft_length = 0;
    OC_RETURN_IF_ERROR(c.OneValue(0, &mel_bins));
    OC_RETURN_IF_ERROR(c.OneValue(1, &dft_length));
    if (mel_bins <= 0 || dft_length <= 0)
      return c.Error("num_mel_bins and dft_length must be positive");
    c.SetOutput(0, dt, {dft_length / 2 + 1, mel_bins});
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
