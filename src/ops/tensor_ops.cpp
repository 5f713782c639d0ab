// Data movement ops: shape changes, gathers, slices, concatenation, constants.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

#include "ops/op_families.h"
#include "ops/schema_helpers.h"
#include "ops/shape_rules.h"

namespace oc {

Result<Shape> ReshapeTarget(const Shape& in, const std::vector<int64_t>& spec, bool allowzero) {
  // The spec first: one -1 at most, no other negative value.
  int64_t infer_at = -1;
  for (size_t i = 0; i < spec.size(); ++i) {
    if (spec[i] == -1) {
      if (infer_at >= 0) return InvalidArgument("Reshape: more than one -1 in the shape");
      infer_at = static_cast<int64_t>(i);
    } else if (spec[i] < -1) {
      return InvalidArgument("Reshape: invalid dimension " + std::to_string(spec[i]));
    }
  }
  // 0 copies the input's dim (unknown stays unknown); the known products on both sides
  // and which unknown input dims are copied as they are.
  Shape out(spec.begin(), spec.end());
  std::set<size_t> unknown_in, unknown_copied;
  int64_t known_in = 1, known_out = 1;
  for (size_t j = 0; j < in.size(); ++j) {
    if (in[j] < 0)
      unknown_in.insert(j);
    else if (__builtin_mul_overflow(known_in, in[j], &known_in))
      return InvalidArgument("Reshape: the input " + ShapeToString(in) + " has too many elements");
  }
  bool other_unknown = false;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 0 && !allowzero) {
      if (i >= in.size()) return InvalidArgument("Reshape: 0 refers past the input rank");
      out[i] = in[i];
      if (in[i] < 0) {
        unknown_copied.insert(i);
        continue;
      }
    }
    if (static_cast<int64_t>(i) == infer_at) continue;
    if (out[i] < 0)
      other_unknown = true;
    else if (__builtin_mul_overflow(known_out, out[i], &known_out))
      return InvalidArgument("Reshape: the shape " +
                             ShapeToString(Shape(spec.begin(), spec.end())) +
                             " has too many elements");
  }
  if (infer_at >= 0) {
    // Computable when every unknown input dim is copied to the output unchanged: they
    // cancel (a dynamic batch N: [N, 3, 4, 14] to [0, -1] gives [N, 168]).
    if (other_unknown || unknown_in != unknown_copied) {
      out[infer_at] = -1;
      return out;
    }
    if (known_out == 0 || known_in % known_out != 0)
      return ShapeMismatch("Reshape: cannot reshape " + ShapeToString(in) + " to " +
                           ShapeToString(Shape(spec.begin(), spec.end())));
    out[infer_at] = known_in / known_out;
  } else if (unknown_in.empty() && !other_unknown && unknown_copied.empty() &&
             known_in != known_out) {
    return ShapeMismatch("Reshape: cannot reshape " + ShapeToString(in) + " to " +
                         ShapeToString(out));
  }
  return out;
}

Result<std::vector<int64_t>> SliceBounds(const Shape& in, const std::vector<int64_t>& starts,
                                         const std::vector<int64_t>& ends,
                                         const std::vector<int64_t>& axes_in,
                                         const std::vector<int64_t>& steps_in,
                                         std::vector<int64_t>* begin_out,
                                         std::vector<int64_t>* step_out) {
  const int64_t rank = static_cast<int64_t>(in.size());
  std::vector<int64_t> axes = axes_in;
  if (axes.empty()) {
    axes.resize(starts.size());
    std::iota(axes.begin(), axes.end(), 0);
  }
  std::vector<int64_t> steps = steps_in.empty() ? std::vector<int64_t>(starts.size(), 1) : steps_in;
  if (starts.size() != ends.size() || axes.size() != starts.size() || steps.size() != starts.size())
    return InvalidArgument("Slice: starts, ends, axes and steps differ in length");
  std::vector<int64_t> out_dims(in.begin(), in.end());
  begin_out->assign(rank, 0);
  step_out->assign(rank, 1);
  for (size_t k = 0; k < axes.size(); ++k) {
    OC_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(axes[k], rank));
    int64_t dim = in[a];
    int64_t step = steps[k];
    if (step == 0) return InvalidArgument("Slice: step is 0");
    int64_t s = starts[k], e = ends[k];
    if (dim < 0) {  // an unknown dim: its slice is unknown too, never clamped to 0
      out_dims[a] = -1;
      (*begin_out)[a] = s;
      (*step_out)[a] = step;
      continue;
    }
    if (s < 0) s += dim;
    if (e < 0) e += dim;
    if (step > 0) {
      s = std::clamp<int64_t>(s, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
      out_dims[a] = e > s ? (e - s + step - 1) / step : 0;
    } else {
      s = std::clamp<int64_t>(s, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
      out_dims[a] = s > e ? (s - e - step - 1) / (-step) : 0;
    }
    (*begin_out)[a] = s;
    (*step_out)[a] = step;
  }
  return out_dims;
}

std::vector<int64_t> NodeAxes(const AttributeMap& attrs, bool given, const Tensor* input,
                              bool* known) {
  *known = true;
  std::vector<int64_t> axes = attrs.GetInts("axes");
  if (!axes.empty() || !given) return axes;
  if (input) return input->ToInt64Vector();
  *known = false;
  return {};
}

std::vector<int64_t> AxesFromInputOrAttr(const InferContext& ctx, size_t input_index, bool* known) {
  return NodeAxes(ctx.attrs(), ctx.has_input(input_index), ctx.constant(input_index), known);
}

namespace {

Status InferReshape(InferContext& c) {
  const Tensor* spec = c.constant(1);
  if (!spec || !c.in(0).has_shape) {
    if (c.in(1).has_shape && c.in(1).shape.size() == 1 && c.in(1).shape[0] >= 0)
      c.SetOutput(0, c.in(0).dtype, Shape(c.in(1).shape[0], -1));
    else
      c.SetOutputTypeOnly(0, c.in(0).dtype);
    return Status::Ok();
  }
  auto out = ReshapeTarget(c.in(0).shape, spec->ToInt64Vector(), c.attrs().GetInt("allowzero", 0));
  if (!out.ok()) return c.Error(out.status().message());
  c.SetOutput(0, c.in(0).dtype, out.value());
  return Status::Ok();
}

Status InferFlatten(InferContext& c) {
  const Shape& s = c.in(0).shape;
  // axis lies in [-r, r]; a negative one counts from the end of the r dims.
  const int64_t rank = static_cast<int64_t>(s.size());
  int64_t axis = c.attrs().GetInt("axis", 1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank) return c.Error("axis out of range for rank " + std::to_string(rank));
  int64_t a = 1, b = 1;
  for (size_t i = 0; i < s.size(); ++i) {
    int64_t& acc = static_cast<int64_t>(i) < axis ? a : b;
    if (acc < 0 || s[i] < 0)
      acc = -1;
    else if (__builtin_mul_overflow(acc, s[i], &acc))
      return c.Error("the flattened size of " + ShapeToString(s) + " overflows");
  }
  c.SetOutput(0, c.in(0).dtype, {a, b});
  return Status::Ok();
}

Status InferTranspose(InferContext& c) {
  if (!c.in(0).has_shape) {
    c.SetOutputTypeOnly(0, c.in(0).dtype);
    return Status::Ok();
  }
  const Shape& s = c.in(0).shape;
  std::vector<int64_t> perm = c.attrs().GetInts("perm");
  if (perm.empty()) {
    perm.resize(s.size());
    std::iota(perm.rbegin(), perm.rend(), 0);
  }
  if (perm.size() != s.size()) return c.Error("perm length differs from the input rank");
  Shape out(s.size());
  std::vector<bool> seen(s.size(), false);
  for (size_t i = 0; i < perm.size(); ++i) {
    int64_t p = perm[i] < 0 ? perm[i] + static_cast<int64_t>(s.size()) : perm[i];
    if (p < 0 || p >= static_cast<int64_t>(s.size()) || seen[p]) return c.Error("invalid perm");
    seen[p] = true;
    out[i] = s[p];
  }
  c.SetOutput(0, c.in(0).dtype, out);
  return Status::Ok();
}

Status InferConcat(InferContext& c) {
  OC_RETURN_IF_ERROR(CheckAllSameType(c));
  if (!c.in(0).has_shape) {
    c.SetOutputTypeOnly(0, c.in(0).dtype);
    return Status::Ok();
  }
  const int64_t rank = static_cast<int64_t>(c.in(0).shape.size());
  if (rank == 0) return c.Error("inputs must have rank 1 or more, not scalars");
  auto axis_r = NormalizeAxis(c.attrs().GetInt("axis", 0), rank);
  if (!axis_r.ok()) return c.Error(axis_r.status().message());
  int64_t axis = axis_r.value();
  Shape out = c.in(0).shape;
  out[axis] = 0;
  for (size_t i = 0; i < c.num_inputs(); ++i) {
    if (!c.has_input(i)) continue;
    const ValueInfo& v = c.in(i);
    if (!v.has_shape) {
      c.SetOutputTypeOnly(0, c.in(0).dtype);
      return Status::Ok();
    }
    if (static_cast<int64_t>(v.shape.size()) != rank) return c.Error("inputs differ in rank");
    if (v.dtype != c.in(0).dtype) return c.Error("inputs differ in type");
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis) continue;
      if (out[d] >= 0 && v.shape[d] >= 0 && out[d] != v.shape[d])
        return c.Error("input " + std::to_string(i) + " has shape " + ShapeToString(v.shape) +
                       ", incompatible with " + ShapeToString(c.in(0).shape));
    }
    out[axis] = (out[axis] < 0 || v.shape[axis] < 0) ? -1 : out[axis] + v.shape[axis];
  }
  c.SetOutput(0, c.in(0).dtype, out);
  return Status::Ok();
}

Status InferSplit(InferContext& c) {
  const Shape& s = c.in(0).shape;
  auto axis_r = NormalizeAxis(c.attrs().GetInt("axis", 0), static_cast<int64_t>(s.size()));
  if (!axis_r.ok()) return c.Error(axis_r.status().message());
  int64_t axis = axis_r.value();
  std::vector<int64_t> split = c.attrs().GetInts("split");
  if (split.empty() && c.has_input(1)) {
    if (!c.constant(1)) {
      for (size_t i = 0; i < c.outputs.size(); ++i) c.SetOutputTypeOnly(i, c.in(0).dtype);
      return Status::Ok();
    }
    split = c.constant(1)->ToInt64Vector();
  }
  const int64_t n = static_cast<int64_t>(c.outputs.size());
  if (split.empty()) {
    if (s[axis] < 0) {
      for (int64_t i = 0; i < n; ++i) {
        Shape o = s;
        o[axis] = -1;
        c.SetOutput(i, c.in(0).dtype, o);
      }
      return Status::Ok();
    }
    const int64_t chunk = s[axis] / n + (s[axis] % n != 0);  // ceil, without s + n - 1
    for (int64_t i = 0; i < n; ++i)
      split.push_back(std::min(chunk, std::max<int64_t>(0, s[axis] - chunk * i)));
  }
  if (static_cast<int64_t>(split.size()) != n) return c.Error("split count differs from outputs");
  int64_t total = 0;
  for (size_t i = 0; i < split.size(); ++i) {
    Shape o = s;
    o[axis] = split[i];
    total += split[i];
    c.SetOutput(i, c.in(0).dtype, o);
  }
  if (s[axis] >= 0 && total != s[axis]) return c.Error("split sizes do not sum to the axis size");
  return Status::Ok();
}

Status InferSlice(InferContext& c) {
  std::vector<int64_t> starts, ends, axes, steps;
  if (c.attrs().Has("starts")) {  // opset < 10
    starts = c.attrs().GetInts("starts");
    ends = c.attrs().GetInts("ends");
    axes = c.attrs().GetInts("axes");
  } else {
    for (size_t i = 1; i < c.num_inputs(); ++i) {
      if (c.has_input(i) && !c.constant(i)) {
        if (!c.in(0).has_shape) {
          c.SetOutputTypeOnly(0, c.in(0).dtype);
          return Status::Ok();
        }
        // Bounds known only at run time: the sliced axes are unknown, the others are kept
        // when the axes themselves are constant.
        const int64_t rank = static_cast<int64_t>(c.in(0).shape.size());
        Shape out(c.in(0).shape.size(), -1);
        if (c.has_input(3) && c.constant(3)) {
          out = c.in(0).shape;
          for (int64_t a : c.constant(3)->ToInt64Vector()) {
            auto axis = NormalizeAxis(a, rank);
            if (!axis.ok()) return c.Error(axis.status().message());
            out[axis.value()] = -1;
          }
        } else if (!c.has_input(3) && c.in(1).has_shape && c.in(1).shape.size() == 1 &&
                   c.in(1).shape[0] >= 0 && c.in(1).shape[0] <= rank) {
          // Without axes, starts' length k slices the first k axes.
          out = c.in(0).shape;
          for (int64_t a = 0; a < c.in(1).shape[0]; ++a) out[a] = -1;
        }
        c.SetOutput(0, c.in(0).dtype, out);
        return Status::Ok();
      }
    }
    if (!c.constant(1) || !c.constant(2))
      return c.Error("takes starts and ends (inputs 1 and 2) from opset 10");
    starts = c.constant(1)->ToInt64Vector();
    ends = c.constant(2)->ToInt64Vector();
    if (c.has_input(3)) axes = c.constant(3)->ToInt64Vector();
    if (c.has_input(4)) steps = c.constant(4)->ToInt64Vector();
  }
  if (!c.in(0).has_shape) {
    c.SetOutputTypeOnly(0, c.in(0).dtype);
    return Status::Ok();
  }
  std::vector<int64_t> b, st;
  auto dims = SliceBounds(c.in(0).shape, starts, ends, axes, steps, &b, &st);
  if (!dims.ok()) return c.Error(dims.status().message());
  c.SetOutput(0, c.in(0).dtype, dims.value());
  return Status::Ok();
}

Status InferGather(InferContext& c) {
  if (!c.in(0).has_shape || !c.in(1).has_shape) {
    c.SetOutputTypeOnly(0, c.in(0).dtype);
    return Status::Ok();
  }
  const Shape& d = c.in(0).shape;
  auto axis_r = NormalizeAxis(c.attrs().GetInt("axis", 0), static_cast<int64_t>(d.size()));
  if (!axis_r.ok()) return c.Error(axis_r.status().message());
  int64_t axis = axis_r.value();
  // Constant indices past the axis are the model's error, found before it runs.
  if (const Tensor* idx = c.constant(1);
      idx && d[axis] >= 0 &&
      (idx->dtype() == DataType::kInt64 || idx->dtype() == DataType::kInt32)) {
    for (int64_t i = 0; i < idx->numel(); ++i) {
      const int64_t v = idx->GetAsInt(i);
      if (v < -d[axis] || v >= d[axis])
        return c.Error("index " + std::to_string(v) + " is out of range for axis " +
                       std::to_string(axis) + " of size " + std::to_string(d[axis]));
    }
  }
  Shape out(d.begin(), d.begin() + axis);
  out.insert(out.end(), c.in(1).shape.begin(), c.in(1).shape.end());
  out.insert(out.end(), d.begin() + axis + 1, d.end());
  c.SetOutput(0, c.in(0).dtype, out);
  return Status::Ok();
}

Status InferUnsqueeze(InferContext& c) {
  bool known = false;
  std::vector<int64_t> axes = AxesFromInputOrAttr(c, 1, &known);
  if (!known || !c.in(0).has_shape) {
    c.SetOutputTypeOnly(0, c.in(0).dtype);
    return Status::Ok();
  }
  const int64_t out_rank = static_cast<int64_t>(c.in(0).shape.size() + axes.size());
  std::vector<bool> is_new(out_rank, false);
  for (int64_t a : axes) {
    auto n = NormalizeAxis(a, out_rank);
    if (!n.ok() || is_new[n.value()]) return c.Error("invalid or repeated axis");
    is_new[n.value()] = true;
  }
  Shape out;
  size_t j = 0;
  for (int64_t i = 0; i < out_rank; ++i) out.push_back(is_new[i] ? 1 : c.in(0).shape[j++]);
  c.SetOutput(0, c.in(0).dtype, out);
  return Status::Ok();
}

Status InferSqueeze(InferContext& c) {
  bool known = false;
  std::vector<int64_t> axes = AxesFromInputOrAttr(c, 1, &known);
  if (!known || !c.in(0).has_shape) {
    c.SetOutputTypeOnly(0, c.in(0).dtype);
    return Status::Ok();
  }
  const Shape& s = c.in(0).shape;
  std::vector<bool> drop(s.size(), false);
  if (axes.empty()) {
    for (size_t i = 0; i < s.size(); ++i) drop[i] = s[i] == 1;
  } else {
    for (int64_t a : axes) {
      auto n = NormalizeAxis(a, static_cast<int64_t>(s.size()));
      if (!n.ok()) return c.Error(n.status().message());
      if (s[n.value()] != 1 && s[n.value()] >= 0)
        return c.Error("cannot squeeze axis " + std::to_string(a) + " of size " +
                       std::to_string(s[n.value()]));
      drop[n.value()] = true;
    }
  }
  Shape out;
  for (size_t i = 0; i < s.size(); ++i)
    if (!drop[i]) out.push_back(s[i]);
  c.SetOutput(0, c.in(0).dtype, out);
  return Status::Ok();
}

Status InferShape(InferContext& c) {
  if (!c.in(0).has_shape) {
    c.SetOutput(0, DataType::kInt64, {-1});
    return Status::Ok();
  }
  int64_t rank = static_cast<int64_t>(c.in(0).shape.size());
  int64_t start = c.attrs().GetInt("start", 0), end = c.attrs().GetInt("end", rank);
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, 0, rank);
  c.SetOutput(0, DataType::kInt64, {std::max<int64_t>(0, end - start)});
  return Status::Ok();
}

Status InferConstant(InferContext& c) {
  const AttributeMap& a = c.attrs();
  if (const Tensor* t = a.GetTensor("value")) {
    c.SetOutput(0, t->dtype(), t->shape());
  } else if (a.Has("value_float")) {
    c.SetOutput(0, DataType::kFloat, {});
  } else if (a.Has("value_int")) {
    c.SetOutput(0, DataType::kInt64, {});
  } else if (a.Has("value_floats")) {
    c.SetOutput(0, DataType::kFloat, {static_cast<int64_t>(a.GetFloats("value_floats").size())});
  } else if (a.Has("value_ints")) {
    c.SetOutput(0, DataType::kInt64, {static_cast<int64_t>(a.GetInts("value_ints").size())});
  } else {
    return c.Error("Constant has no supported value attribute");
  }
  return Status::Ok();
}

Status InferConstantOfShape(InferContext& c) {
  DataType dt = DataType::kFloat;
  if (const Tensor* v = c.attrs().GetTensor("value")) {
    // ONNX: a one-element tensor; its element fills the output.
    if (v->numel() != 1)
      return c.Error("value must hold one element, it holds " + std::to_string(v->numel()));
    dt = v->dtype();
  }
  if (const Tensor* s = c.constant(0)) {
    Shape shape = s->ToInt64Vector();
    for (int64_t d : shape)
      if (d < 0) return c.Error("negative dimension in shape");
    c.SetOutput(0, dt, shape);
  } else if (c.in(0).has_shape && c.in(0).shape.size() == 1 && c.in(0).shape[0] >= 0) {
    c.SetOutput(0, dt, Shape(c.in(0).shape[0], -1));
  } else {
    c.SetOutputTypeOnly(0, dt);
  }
  return Status::Ok();
}

Status InferExpand(InferContext& c) {
  const Tensor* s = c.constant(1);
  if (!s || !c.in(0).has_shape) {
    c.SetOutputTypeOnly(0, c.in(0).dtype);
    return Status::Ok();
  }
  auto b = BroadcastShapes(c.in(0).shape, s->ToInt64Vector());
  if (!b.ok()) return c.Error(b.status().message());
  c.SetOutput(0, c.in(0).dtype, b.value());
  return Status::Ok();
}

Status InferTile(InferContext& c) {
  const Tensor* r = c.constant(1);
  if (!r || !c.in(0).has_shape) {
    c.SetOutputTypeOnly(0, c.in(0).dtype);
    return Status::Ok();
  }
  auto reps = r->ToInt64Vector();
  Shape out = c.in(0).shape;
  if (reps.size() != out.size()) return c.Error("repeats length differs from rank");
  for (size_t i = 0; i < out.size(); ++i) {
    if (reps[i] < 0) return c.Error("repeats must be 0 or more, got " + std::to_string(reps[i]));
    if (out[i] >= 0 && reps[i] > 0 && out[i] > std::numeric_limits<int64_t>::max() / reps[i])
      return c.Error("the tiled dim overflows");
    out[i] = out[i] < 0 ? -1 : out[i] * reps[i];
  }
  c.SetOutput(0, c.in(0).dtype, out);
  return Status::Ok();
}

Status InferRange(InferContext& c) {
  const Tensor *s = c.constant(0), *l = c.constant(1), *d = c.constant(2);
  if (!s || !l || !d) {
    c.SetOutput(0, c.in(0).dtype, {-1});
    return Status::Ok();
  }
  if (s->numel() != 1 || l->numel() != 1 || d->numel() != 1)
    return c.Error("start, limit and delta must each hold one value");
  double start = s->GetAsDouble(0), limit = l->GetAsDouble(0), delta = d->GetAsDouble(0);
  if (delta == 0) return c.Error("delta is 0");
  const double count = std::ceil((limit - start) / delta);
  if (!(count < 9.0e18)) return c.Error("the range has too many elements");
  int64_t n = std::max<int64_t>(0, static_cast<int64_t>(count));
  c.SetOutput(0, c.in(0).dtype, {n});
  return Status::Ok();
}

Status InferPad(InferContext& c) {
  std::vector<int64_t> pads = c.attrs().GetInts("pads");
  if (pads.empty() && !c.has_input(1))
    return c.Error("pads is required (an attribute before opset 11, the second input since)");
  if (pads.empty()) {
    if (!c.constant(1) || !c.in(0).has_shape) {
      if (c.in(0).has_shape)
        c.SetOutput(0, c.in(0).dtype, Shape(c.in(0).shape.size(), -1));
      else
        c.SetOutputTypeOnly(0, c.in(0).dtype);
      return Status::Ok();
    }
    pads = c.constant(1)->ToInt64Vector();
  }
  Shape out = c.in(0).shape;
  const size_t rank = out.size();
  std::vector<int64_t> axes;
  if (c.has_input(3)) {
    if (!c.constant(3)) return c.Error("axes must be constant");
    axes = c.constant(3)->ToInt64Vector();
  } else {
    for (size_t i = 0; i < rank; ++i) axes.push_back(static_cast<int64_t>(i));
  }
  if (pads.size() != 2 * axes.size()) return c.Error("pads length must be twice the axes count");
  for (size_t k = 0; k < axes.size(); ++k) {
    auto a = NormalizeAxis(axes[k], static_cast<int64_t>(rank));
    if (!a.ok()) return c.Error(a.status().message());
    int64_t& d = out[a.value()];
    if (d >= 0) d += pads[k] + pads[k + axes.size()];
  }
  c.SetOutput(0, c.in(0).dtype, out);
  return Status::Ok();
}

}  // namespace

void RegisterTensorSchemas(OpRegistry& r) {
  r.Register({"Reshape", "", 2, 2, 1, 1, InferReshape});
  r.Register({"Flatten", "", 1, 1, 1, 1, InferFlatten});
  r.Register({"Transpose", "", 1, 1, 1, 1, InferTranspose});
  r.Register(Variadic({"Concat", "", 1, 1 << 20, 1, 1, InferConcat}));
  r.Register({"Split", "", 1, 2, 1, 1 << 20, InferSplit});
  r.Register({"Slice", "", 1, 5, 1, 1, InferSlice});
  r.Register({"Gather", "", 2, 2, 1, 1, InferGather});
  r.Register({"Unsqueeze", "", 1, 2, 1, 1, InferUnsqueeze});
  r.Register({"Squeeze", "", 1, 2, 1, 1, InferSqueeze});
  r.Register({"Shape", "", 1, 1, 1, 1, InferShape});
  r.Register({"Size", "", 1, 1, 1, 1, [](InferContext& c) {
                c.SetOutput(0, DataType::kInt64, {});
                return Status::Ok();
              }});
  r.Register({"Constant", "", 0, 0, 1, 1, InferConstant});
  r.Register({"ConstantOfShape", "", 1, 1, 1, 1, InferConstantOfShape});
  r.Register({"Expand", "", 2, 2, 1, 1, InferExpand});
  r.Register({"Tile", "", 2, 2, 1, 1, InferTile});
  r.Register({"Range", "", 3, 3, 1, 1, InferRange});
  r.Register({"Pad", "", 1, 4, 1, 1, InferPad});
  // Pure reshapes: the output may be the input's buffer (their kernels copy nothing then).
  for (const char* op : {"Reshape", "Flatten", "Squeeze", "Unsqueeze"}) {
    OpTraits t;
    t.in_place_input = 0;
    if (std::string(op) != "Flatten") t.value_inputs = {1};
    // Reshape's output rank is its shape's length whatever the input's rank.
    t.infers_unknown_rank = std::string(op) == "Reshape";
    r.SetTraits("", op, t);
  }
  r.SetTraits("", "Slice", NeedsValuesOf({1, 2, 3, 4}));
  r.SetTraits("", "Split", NeedsValuesOf({1}));
  r.SetTraits("", "ConstantOfShape", NeedsValuesOf({0}));
  r.SetTraits("", "Expand", NeedsValuesOf({1}));
  r.SetTraits("", "Tile", NeedsValuesOf({1}));
  r.SetTraits("", "Range", NeedsValuesOf({0, 1, 2}));
  r.SetTraits("", "Pad", NeedsValuesOf({1, 2, 3}));
}

}  // namespace oc
