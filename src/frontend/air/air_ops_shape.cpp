// GE's shape, data movement and reduction operators, for the table in air_ops.cpp.
#include "frontend/air/air_builder.h"

namespace oc::air_import {

Status Reshape(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  OC_ASSIGN_OR_RETURN(std::string shape, a.In(op, 1));
  AttributeMap cast;
  cast.Set("to", int64_t{static_cast<int64_t>(DataType::kInt64)});
  a.Out(op, a.b.Add1(op.name(), "Reshape", {x, a.b.Add1(op.name(), "Cast", {shape}, cast)}));
  return Status::Ok();
}

Status Transpose(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  std::vector<int64_t> perm;
  if (op.type() == "TransposeD") {
    OC_ASSIGN_OR_RETURN(perm, Ints(op, "perm", true));
  } else {
    OC_ASSIGN_OR_RETURN(perm, ConstInts(op, a, 1, "perm"));
  }
  a.Out(op, a.b.Add1(op.name(), "Transpose", {x}, Perm(perm)));
  return Status::Ok();
}

namespace {

// ReduceXxxD takes its axes as an attribute, ReduceXxx as a constant second input.
Status Reduce(const OpDef& op, AirBuilder& a, const char* onnx) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  std::vector<int64_t> axes;
  if (op.type().back() == 'D') {
    OC_ASSIGN_OR_RETURN(axes, Ints(op, "axes", true));
  } else {
    OC_ASSIGN_OR_RETURN(axes, ConstInts(op, a, 1, "axes input"));
  }
  AttributeMap at;
  at.Set("keepdims", int64_t{Bool(op, "keep_dims", false)});
  if (axes.empty()) {
    // GE reduces over every axis when none are given.
    const int64_t rank = a.b.Rank(x);
    if (rank < 0) return OpUnsupported(op, "a reduction over all axes of unknown rank");
    for (int64_t i = 0; i < rank; ++i) axes.push_back(i);
  }
  if (std::string(onnx) == "ReduceSum") {
    a.Out(op, a.b.Add1(op.name(), onnx, {x, a.b.Ints(op.name() + "_axes", axes)}, at));
  } else {
    at.Set("axes", axes);
    a.Out(op, a.b.Add1(op.name(), onnx, {x}, at));
  }
  return Status::Ok();
}

}  // namespace

Status ReduceMean(const OpDef& op, AirBuilder& a) { return Reduce(op, a, "ReduceMean"); }
Status ReduceSum(const OpDef& op, AirBuilder& a) { return Reduce(op, a, "ReduceSum"); }
Status ReduceMax(const OpDef& op, AirBuilder& a) { return Reduce(op, a, "ReduceMax"); }

// ArgMaxV2 / ArgMin: the axis as input `dimension`; ArgMaxD / ArgMinD: as attribute
// `dimension`. The reduced axis is dropped; attribute dtype (int32 by default, as GE's
// prototypes say) is the index type. A dimension known only at execution (a single op's
// input) takes OpenCANN's oc.ArgMaxV2, which reads it then.
Status ArgMaxMin(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  const bool is_max = op.type().rfind("ArgMax", 0) == 0;
  const DataType index_type = TypeAttr(op, "dtype", DataType::kInt32);
  if (index_type != DataType::kInt32 && index_type != DataType::kInt64)
    return OpError(op, "[dtype] must be DT_INT32 or DT_INT64");
  std::string y;
  if (op.type().back() == 'D') {
    OC_ASSIGN_OR_RETURN(int64_t axis, RequiredInt(op, "dimension"));
    AttributeMap at;
    at.Set("axis", axis);
    at.Set("keepdims", int64_t{0});
    y = a.b.Add1(op.name(), is_max ? "ArgMax" : "ArgMin", {x}, at);
  } else if (a.Const(op, 1)) {
    OC_ASSIGN_OR_RETURN(auto axis, ConstInts(op, a, 1, "dimension input"));
    if (axis.size() != 1) return OpError(op, "input [dimension] must hold one axis");
    AttributeMap at;
    at.Set("axis", axis[0]);
    at.Set("keepdims", int64_t{0});
    y = a.b.Add1(op.name(), is_max ? "ArgMax" : "ArgMin", {x}, at);
  } else {
    OC_ASSIGN_OR_RETURN(std::string dimension, a.In(op, 1));
    y = a.b.Add(op.name(), is_max ? "ArgMaxV2" : "ArgMinV2", {x, dimension}, {}, 1, kOcDomain)
            .front();
  }
  if (index_type == DataType::kInt32) {
    AttributeMap cast;
    cast.Set("to", int64_t{static_cast<int64_t>(DataType::kInt32)});
    y = a.b.Add1(op.name() + "_index_type", "Cast", {y}, cast);
  }
  a.Out(op, y);
  return Status::Ok();
}

Status Cast(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  const DataType to = TypeAttr(op, "dst_type", DataType::kUndefined);
  if (to == DataType::kUndefined) return OpError(op, "[dst_type] is missing or unknown");
  AttributeMap at;
  at.Set("to", int64_t{static_cast<int64_t>(to)});
  a.Out(op, a.b.Add1(op.name(), "Cast", {x}, at));
  return Status::Ok();
}

// ConcatD and ConcatV2D: the axis as attribute concat_dim; ConcatV2: as the last input;
// Concat: as the first.
Status Concat(const OpDef& op, AirBuilder& a) {
  const std::string& t = op.type();
  const size_t n = a.NumInputs(op);
  size_t first = 0, last = n;
  int64_t axis = 0;
  if (t == "ConcatD" || t == "ConcatV2D") {
    OC_ASSIGN_OR_RETURN(axis, RequiredInt(op, "concat_dim"));
  } else {
    if (n < 2) return OpError(op, "needs the axis and at least one tensor");
    const size_t at = t == "ConcatV2" ? n - 1 : 0;
    OC_ASSIGN_OR_RETURN(auto v, ConstInts(op, a, at, "concat axis"));
    if (v.size() != 1) return OpError(op, "the concat axis must be one value");
    axis = v[0];
    if (t == "ConcatV2")
      last = n - 1;
    else
      first = 1;
  }
  std::vector<std::string> in;
  for (size_t i = first; i < last; ++i) {
    OC_ASSIGN_OR_RETURN(std::string v, a.In(op, i));
    in.push_back(v);
  }
  if (in.empty()) return OpError(op, "has nothing to concatenate");
  const int64_t count = Int(op, "N", static_cast<int64_t>(in.size()));
  if (count != static_cast<int64_t>(in.size()))
    return OpError(
        op, "[N] says " + std::to_string(count) + " inputs, it has " + std::to_string(in.size()));
  AttributeMap at;
  at.Set("axis", axis);
  a.Out(op, a.b.Add1(op.name(), "Concat", in, at));
  return Status::Ok();
}

Status ExpandDims(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  OC_ASSIGN_OR_RETURN(auto axes, ConstInts(op, a, 1, "axis"));
  a.Out(op, a.b.Add1(op.name(), "Unsqueeze", {x, a.b.Ints(op.name() + "_axes", axes)}));
  return Status::Ok();
}

Status Unsqueeze(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  OC_ASSIGN_OR_RETURN(auto axes, Ints(op, "axes", true));
  a.Out(op, a.b.Add1(op.name(), "Unsqueeze", {x, a.b.Ints(op.name() + "_axes", axes)}));
  return Status::Ok();
}

Status Squeeze(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  OC_ASSIGN_OR_RETURN(auto axes, Ints(op, "axis", false));
  std::vector<std::string> in{x};
  if (!axes.empty()) in.push_back(a.b.Ints(op.name() + "_axes", axes));
  a.Out(op, a.b.Add1(op.name(), "Squeeze", in));
  return Status::Ok();
}

// Pad: paddings as a constant [rank, 2] input; PadD: as the list-of-lists attribute.
Status Pad(const OpDef& op, AirBuilder& a) {
  OC_ASSIGN_OR_RETURN(std::string x, a.In(op, 0));
  std::vector<std::pair<int64_t, int64_t>> pairs;
  if (op.type() == "PadD") {
    const AttrDef* p = Find(op, "paddings");
    if (!p || p->value_case() != AttrDef::kListListInt)
      return OpError(op, "the required attribute [paddings] is missing or not a list of lists");
    for (const auto& l : p->list_list_int().list_list_i()) {
      if (l.list_i_size() != 2) return OpError(op, "[paddings] needs 2 values per axis");
      pairs.emplace_back(l.list_i(0), l.list_i(1));
    }
  } else {
    OC_ASSIGN_OR_RETURN(auto v, ConstInts(op, a, 1, "paddings input"));
    if (v.size() % 2) return OpError(op, "paddings must be [rank, 2]");
    for (size_t i = 0; i < v.size(); i += 2) pairs.emplace_back(v[i], v[i + 1]);
  }
  std::vector<int64_t> pads(pairs.size() * 2);
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (pairs[i].first < 0 || pairs[i].second < 0)
      return OpError(op, "paddings must not be negative");
    pads[i] = pairs[i].first;
    pads[i + pairs.size()] = pairs[i].second;
  }
  a.Out(op, a.b.Add1(op.name(), "Pad", {x, a.b.Ints(op.name() + "_pads", pads)}));
  return Status::Ok();
}

}  // namespace oc::air_import
