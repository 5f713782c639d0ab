// TensorFlow's shape, data movement and indexing ops, for the table in tf_ops.cpp.
#include <limits>

#include "frontend/tensorflow/tf_context.h"

namespace oc::tf_import {

using oc_tf::NodeDef;

Status Reshape(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::string shape, c.Input(n, 1));
  AttributeMap a;
  a.Set("allowzero", int64_t{1});  // TF's 0 is a size, not "copy"
  AttributeMap cast;
  cast.Set("to", int64_t{static_cast<int64_t>(DataType::kInt64)});
  shape = c.b().Add1(n.name(), "Cast", {shape}, cast);
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Reshape", {x, shape}, a));
  return Status::Ok();
}

Status Squeeze(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  std::vector<int64_t> axes = AttrInts(n, "squeeze_dims");
  std::vector<std::string> in{x};
  if (!axes.empty()) in.push_back(c.b().Ints(n.name() + "_axes", axes));
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Squeeze", in));
  return Status::Ok();
}

Status ExpandDims(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> axes, c.IntsInput(n, 1));
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Unsqueeze", {x, c.b().Ints(n.name() + "_axes", axes)}));
  return Status::Ok();
}

Status Transpose(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> perm, c.IntsInput(n, 1));
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Transpose", {x}, Perm(perm)));
  return Status::Ok();
}

Status ConcatV2(const NodeDef& n, Context& c) {
  const size_t count = c.NumInputs(n);
  if (count < 2) return NodeError(n, "needs values and an axis");
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> axis, c.IntsInput(n, count - 1));
  if (axis.size() != 1) return NodeError(n, "the axis must be one value");
  std::vector<std::string> in;
  for (size_t i = 0; i + 1 < count; ++i) {
    OC_ASSIGN_OR_RETURN(std::string v, c.Input(n, i));
    in.push_back(v);
  }
  AttributeMap a;
  a.Set("axis", axis[0]);
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Concat", in, a));
  return Status::Ok();
}

Status Pack(const NodeDef& n, Context& c) {
  const int64_t axis = AttrInt(n, "axis", 0);
  std::vector<std::string> in;
  for (size_t i = 0; i < c.NumInputs(n); ++i) {
    OC_ASSIGN_OR_RETURN(std::string v, c.Input(n, i));
    in.push_back(c.b().Add1(n.name(), "Unsqueeze", {v, c.b().Ints(n.name() + "_axis", {axis})}));
  }
  if (in.empty()) return NodeError(n, "has no values");
  AttributeMap a;
  a.Set("axis", axis);
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Concat", in, a));
  return Status::Ok();
}

// Unpack (tf.unstack): `num` slices along `axis`, each without that axis; output k is "name:k".
Status Unpack(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  const int64_t num = AttrInt(n, "num", -1);
  int64_t axis = AttrInt(n, "axis", 0);
  if (num < 1 || num > 4096) return NodeError(n, "[num] must be 1..4096");
  if (const Shape* s = c.b().KnownShape(x)) {
    const int64_t rank = static_cast<int64_t>(s->size());
    if (axis < -rank || axis >= rank) return NodeError(n, "[axis] is out of range");
    if (axis < 0) axis += rank;
    if ((*s)[axis] != num)
      return NodeError(
          n, "[num] is " + std::to_string(num) + ", the axis holds " + std::to_string((*s)[axis]));
  }
  AttributeMap a;
  a.Set("axis", axis);
  const auto parts = c.b().Add(n.name(), "Split", {x}, a, static_cast<size_t>(num));
  for (size_t k = 0; k < parts.size(); ++k)
    c.SetOutput(
        n, static_cast<int>(k),
        c.b().Add1(n.name(), "Squeeze", {parts[k], c.b().Ints(n.name() + "_axis", {axis})}));
  return Status::Ok();
}

Status Pad(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> p, c.IntsInput(n, 1));
  if (p.size() % 2) return NodeError(n, "paddings must be [rank, 2]");
  std::vector<int64_t> pads(p.size());
  const size_t r = p.size() / 2;
  for (size_t i = 0; i < r; ++i) {
    pads[i] = p[2 * i];
    pads[r + i] = p[2 * i + 1];
  }
  std::vector<std::string> in{x, c.b().Ints(n.name() + "_pads", pads)};
  if (n.op() == "PadV2") {
    OC_ASSIGN_OR_RETURN(std::string v, c.Input(n, 2));
    in.push_back(v);
  }
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Pad", in));
  return Status::Ok();
}

Status ShapeOp(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  std::string y = c.b().Add1(n.name(), "Shape", {x});
  if (AttrInt(n, "out_type", oc_tf::DT_INT32) == oc_tf::DT_INT32) {
    AttributeMap a;
    a.Set("to", int64_t{static_cast<int64_t>(DataType::kInt32)});
    y = c.b().Add1(n.name(), "Cast", {y}, a);
  }
  c.SetOutput(n, 0, y);
  return Status::Ok();
}

Status Cast(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  const DataType to = FromTfType(static_cast<int>(AttrInt(n, "DstT", 0)));
  if (to == DataType::kUndefined) return NodeUnsupported(n, "the target type");
  AttributeMap a;
  a.Set("to", int64_t{static_cast<int64_t>(to)});
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Cast", {x}, a));
  return Status::Ok();
}

Status ArgMax(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> axis, c.IntsInput(n, 1));
  if (axis.size() != 1) return NodeError(n, "the dimension must be one value");
  AttributeMap a;
  a.Set("axis", axis[0]);
  a.Set("keepdims", int64_t{0});
  std::string y = c.b().Add1(n.name(), n.op() == "ArgMin" ? "ArgMin" : "ArgMax", {x}, a);
  if (AttrInt(n, "output_type", oc_tf::DT_INT64) == oc_tf::DT_INT32) {
    AttributeMap cast;
    cast.Set("to", int64_t{static_cast<int64_t>(DataType::kInt32)});
    y = c.b().Add1(n.name(), "Cast", {y}, cast);
  }
  c.SetOutput(n, 0, y);
  return Status::Ok();
}

Status Slice(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> begin, c.IntsInput(n, 1));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> size, c.IntsInput(n, 2));
  if (begin.size() != size.size()) return NodeError(n, "begin and size differ in length");
  std::vector<int64_t> end(begin.size()), axes(begin.size());
  for (size_t i = 0; i < begin.size(); ++i) {
    end[i] = size[i] < 0 ? std::numeric_limits<int64_t>::max() : begin[i] + size[i];
    axes[i] = static_cast<int64_t>(i);
  }
  c.SetOutput(n, 0,
              c.b().Add1(n.name(), "Slice",
                         {x, c.b().Ints(n.name() + "_b", begin), c.b().Ints(n.name() + "_e", end),
                          c.b().Ints(n.name() + "_a", axes)}));
  return Status::Ok();
}

Status StridedSlice(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> begin, c.IntsInput(n, 1));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> end, c.IntsInput(n, 2));
  OC_ASSIGN_OR_RETURN(std::vector<int64_t> strides, c.IntsInput(n, 3));
  if (AttrInt(n, "ellipsis_mask", 0) || AttrInt(n, "new_axis_mask", 0))
    return NodeUnsupported(n, "ellipsis_mask and new_axis_mask");
  const int64_t bm = AttrInt(n, "begin_mask", 0), em = AttrInt(n, "end_mask", 0),
                sm = AttrInt(n, "shrink_axis_mask", 0);
  if (begin.size() != end.size() || begin.size() != strides.size())
    return NodeError(n, "begin, end and strides differ in length");
  const int64_t big = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> axes, squeeze;
  for (size_t i = 0; i < begin.size(); ++i) {
    axes.push_back(static_cast<int64_t>(i));
    if (strides[i] == 0) return NodeError(n, "a stride of 0");
    if (bm & (int64_t{1} << i)) begin[i] = strides[i] > 0 ? 0 : big;
    if (em & (int64_t{1} << i)) end[i] = strides[i] > 0 ? big : -big;
    if (sm & (int64_t{1} << i)) {
      end[i] = begin[i] == -1 ? big : begin[i] + 1;
      strides[i] = 1;
      squeeze.push_back(static_cast<int64_t>(i));
    }
  }
  std::string y =
      c.b().Add1(n.name(), "Slice",
                 {x, c.b().Ints(n.name() + "_b", begin), c.b().Ints(n.name() + "_e", end),
                  c.b().Ints(n.name() + "_a", axes), c.b().Ints(n.name() + "_s", strides)});
  if (!squeeze.empty())
    y = c.b().Add1(n.name(), "Squeeze", {y, c.b().Ints(n.name() + "_sq", squeeze)});
  c.SetOutput(n, 0, y);
  return Status::Ok();
}

Status Gather(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string x, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::string idx, c.Input(n, 1));
  int64_t axis = 0;
  if (n.op() == "GatherV2") {
    OC_ASSIGN_OR_RETURN(std::vector<int64_t> a, c.IntsInput(n, 2));
    if (a.size() != 1) return NodeError(n, "the axis must be one value");
    axis = a[0];
    if (AttrInt(n, "batch_dims", 0) != 0) return NodeUnsupported(n, "batch_dims");
  }
  AttributeMap a;
  a.Set("axis", axis);
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Gather", {x, idx}, a));
  return Status::Ok();
}

Status Fill(const NodeDef& n, Context& c) {
  OC_ASSIGN_OR_RETURN(std::string dims, c.Input(n, 0));
  OC_ASSIGN_OR_RETURN(std::string v, c.Input(n, 1));
  AttributeMap cast;
  cast.Set("to", int64_t{static_cast<int64_t>(DataType::kInt64)});
  dims = c.b().Add1(n.name(), "Cast", {dims}, cast);
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Expand", {v, dims}));
  return Status::Ok();
}

Status Range(const NodeDef& n, Context& c) {
  std::vector<std::string> in;
  for (size_t i = 0; i < 3; ++i) {
    OC_ASSIGN_OR_RETURN(std::string v, c.Input(n, i));
    in.push_back(v);
  }
  c.SetOutput(n, 0, c.b().Add1(n.name(), "Range", in));
  return Status::Ok();
}

}  // namespace oc::tf_import
