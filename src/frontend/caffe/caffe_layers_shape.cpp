// Caffe's layers that route blobs, change shapes or reduce (Concat, Slice, Split, Dropout,
// Silence, Flatten, Reshape, Permute, ArgMax, Crop, Reduction, Tile).
#include <algorithm>
#include <string>
#include <vector>

#include "frontend/caffe/caffe_layers.h"

namespace oc::caffe_import {

Status Concat(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.concat_param();
  std::vector<std::string> in;
  for (int i = 0; i < l.bottom_size(); ++i) {
    OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, static_cast<size_t>(i)));
    in.push_back(x);
  }
  if (in.empty()) return LayerError(l, "has no bottoms");
  AttributeMap a;
  a.Set("axis",
        int64_t{p.has_axis() || !p.has_concat_dim() ? p.axis()
                                                    : static_cast<int32_t>(p.concat_dim())});
  return SetTops(l, b, {b.Add1(l.name(), "Concat", in, a)});
}

Status Slice(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.slice_param();
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  int64_t axis = p.has_axis() || !p.has_slice_dim() ? p.axis() : p.slice_dim();
  const size_t tops = static_cast<size_t>(l.top_size());
  if (tops < 1) return LayerError(l, "has no tops");
  AttributeMap a;
  a.Set("axis", axis);
  std::vector<std::string> inputs{x};
  if (p.slice_point_size() > 0) {
    if (static_cast<size_t>(p.slice_point_size()) != tops - 1)
      return LayerError(l, "has " + std::to_string(p.slice_point_size()) + " slice points for " +
                               std::to_string(tops) + " tops");
    const Shape* shape = KnownShape(b, x);
    if (!shape) return Unsupported(l, "slice points on an input of unknown shape");
    const int64_t rank = static_cast<int64_t>(shape->size());
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) return LayerError(l, "axis is out of range");
    std::vector<int64_t> sizes;
    int64_t prev = 0;
    for (uint32_t point : p.slice_point()) {
      if (point <= prev || point >= (*shape)[axis])
        return LayerError(l, "slice points must rise inside the axis");
      sizes.push_back(point - prev);
      prev = point;
    }
    sizes.push_back((*shape)[axis] - prev);
    inputs.push_back(b.Ints(l.name() + "_split", sizes));
  }
  return SetTops(l, b, b.Add(l.name(), "Split", inputs, a, tops));
}

Status Split(const LayerParameter& l, const Weights&, Builder& b) {
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  for (int i = 0; i < l.top_size(); ++i) b.SetTop(l.top(i), x);
  return Status::Ok();
}

Status Dropout(const LayerParameter& l, const Weights&, Builder& b) {
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));  // identity at inference
  return SetTops(l, b, {x});
}

Status Silence(const LayerParameter& l, const Weights&, Builder& b) {
  for (int i = 0; i < l.bottom_size(); ++i) OC_RETURN_IF_ERROR(b.Bottom(l, i).status());
  return Status::Ok();
}

Status Flatten(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.flatten_param();
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const int64_t rank = Rank(b, x);
  int64_t axis = p.axis(), end = p.end_axis();
  if ((axis < 0 || end < 0) && rank < 0)
    return Unsupported(l, "negative axes on an input of unknown rank");
  if (axis < 0) axis += rank;
  if (end < 0) end += rank;
  std::vector<int64_t> spec(static_cast<size_t>(axis), 0);
  spec.push_back(-1);
  if (rank >= 0 && end < rank - 1) {
    const Shape* shape = KnownShape(b, x);
    if (!shape) return Unsupported(l, "end_axis before the last axis on an unknown shape");
    for (int64_t i = end + 1; i < rank; ++i) spec.push_back((*shape)[i]);
  }
  return SetTops(l, b, {b.Add1(l.name(), "Reshape", {x, b.Ints(l.name() + "_shape", spec)})});
}

Status Reshape(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.reshape_param();
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  std::vector<int64_t> dims(p.shape().dim().begin(), p.shape().dim().end());
  std::vector<int64_t> spec;
  if (p.axis() == 0 && p.num_axes() == -1) {
    spec = dims;
  } else {
    const Shape* shape = KnownShape(b, x);
    if (!shape) return Unsupported(l, "axis or num_axes on an input of unknown shape");
    const int64_t rank = static_cast<int64_t>(shape->size());
    int64_t axis = p.axis() < 0 ? p.axis() + rank + 1 : p.axis();
    int64_t end = p.num_axes() < 0 ? rank : axis + p.num_axes();
    if (axis < 0 || axis > rank || end > rank)
      return LayerError(l, "axis or num_axes out of range");
    for (int64_t i = 0; i < axis; ++i) spec.push_back((*shape)[i]);
    for (size_t i = 0; i < dims.size(); ++i)
      spec.push_back(dims[i] == 0 ? (*shape)[axis + static_cast<int64_t>(i)] : dims[i]);
    for (int64_t i = end; i < rank; ++i) spec.push_back((*shape)[i]);
  }
  return SetTops(l, b, {b.Add1(l.name(), "Reshape", {x, b.Ints(l.name() + "_shape", spec)})});
}

Status Permute(const LayerParameter& l, const Weights&, Builder& b) {
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  std::vector<int64_t> perm(l.permute_param().order().begin(), l.permute_param().order().end());
  const int64_t rank = Rank(b, x);
  // Axes the order leaves out follow in their own order.
  for (int64_t i = 0; rank >= 0 && i < rank; ++i)
    if (std::find(perm.begin(), perm.end(), i) == perm.end()) perm.push_back(i);
  AttributeMap a;
  a.Set("perm", perm);
  return SetTops(l, b, {b.Add1(l.name(), "Transpose", {x}, a)});
}

Status ArgMax(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.argmax_param();
  if (p.out_max_val() || p.top_k() != 1) return Unsupported(l, "out_max_val or top_k above 1");
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  AttributeMap a;
  a.Set("keepdims", int64_t{1});
  std::string in = x;
  if (p.has_axis()) {
    a.Set("axis", int64_t{p.axis()});
  } else {
    // Over everything after the first axis, as (N, 1, 1).
    in = b.Add1(l.name(), "Reshape", {x, b.Ints(l.name() + "_flat", {0, -1})});
    a.Set("axis", int64_t{1});
  }
  std::string y = b.Add1(l.name(), "ArgMax", {in}, a);
  AttributeMap c;
  c.Set("to", int64_t{static_cast<int64_t>(DataType::kFloat)});
  y = b.Add1(l.name(), "Cast", {y}, c);
  if (!p.has_axis()) y = b.Add1(l.name(), "Unsqueeze", {y, b.Ints(l.name() + "_axes", {2})});
  return SetTops(l, b, {y});
}

Status Crop(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.crop_param();
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  OC_ASSIGN_OR_RETURN(std::string ref, b.Bottom(l, 1));
  const Shape* xs = KnownShape(b, x);
  const Shape* rs = KnownShape(b, ref);
  if (!xs || !rs) return Unsupported(l, "inputs of unknown shape");
  const int64_t rank = static_cast<int64_t>(xs->size());
  if (static_cast<int64_t>(rs->size()) != rank) return LayerError(l, "inputs differ in rank");
  int64_t axis = p.axis() < 0 ? p.axis() + rank : p.axis();
  if (axis < 0 || axis >= rank) return LayerError(l, "axis is out of range");
  const int64_t n = rank - axis;
  if (p.offset_size() != 0 && p.offset_size() != 1 && p.offset_size() != n)
    return LayerError(l, "needs 0, 1 or " + std::to_string(n) + " offsets");
  std::vector<int64_t> starts, ends, axes;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t off = p.offset_size() == 0 ? 0 : p.offset(p.offset_size() == 1 ? 0 : i);
    const int64_t d = axis + i;
    if (off + (*rs)[d] > (*xs)[d]) return LayerError(l, "the crop runs past the input");
    starts.push_back(off);
    ends.push_back(off + (*rs)[d]);
    axes.push_back(d);
  }
  return SetTops(l, b,
                 {b.Add1(l.name(), "Slice",
                         {x, b.Ints(l.name() + "_starts", starts), b.Ints(l.name() + "_ends", ends),
                          b.Ints(l.name() + "_axes", axes)})});
}

Status Reduction(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.reduction_param();
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const int64_t rank = Rank(b, x);
  if (rank < 0) return Unsupported(l, "an input of unknown rank");
  const int64_t axis = p.axis() < 0 ? p.axis() + rank : p.axis();
  if (axis < 0 || axis > rank) return LayerError(l, "axis is out of range");
  std::vector<int64_t> axes;
  for (int64_t i = axis; i < rank; ++i) axes.push_back(i);
  AttributeMap a;
  a.Set("keepdims", int64_t{0});
  std::string y;
  using R = oc_caffe::ReductionParameter;
  if (p.operation() == R::SUM) {
    y = b.Add1(l.name(), "ReduceSum", {x, b.Ints(l.name() + "_axes", axes)}, a);
  } else {
    a.Set("axes", axes);
    y = b.Add1(l.name(),
               p.operation() == R::ASUM    ? "ReduceL1"
               : p.operation() == R::SUMSQ ? "ReduceSumSquare"
                                           : "ReduceMean",
               {x}, a);
  }
  return SetTops(l, b, {Affine(l, b, y, p.coeff(), 0)});
}

Status Tile(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.tile_param();
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const int64_t rank = Rank(b, x);
  if (rank < 0) return Unsupported(l, "an input of unknown rank");
  const int64_t axis = p.axis() < 0 ? p.axis() + rank : p.axis();
  if (axis < 0 || axis >= rank || p.tiles() < 1) return LayerError(l, "axis or tiles invalid");
  std::vector<int64_t> reps(static_cast<size_t>(rank), 1);
  reps[axis] = p.tiles();
  return SetTops(l, b, {b.Add1(l.name(), "Tile", {x, b.Ints(l.name() + "_reps", reps)})});
}

}  // namespace oc::caffe_import
