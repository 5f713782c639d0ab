#include "frontend/tensorflow/tf_importer.h"

#include <cstring>
#include <functional>
#include <map>
#include <set>

#include "base/file.h"
#include "frontend/tensorflow/tf_context.h"

namespace oc {
namespace tf_import {

namespace {

// "node", "node:k" -> ("node", k); control inputs start with '^'.
std::pair<std::string, int> SplitInput(const std::string& in) {
  const size_t colon = in.rfind(':');
  if (colon == std::string::npos) return {in, 0};
  const std::string index = in.substr(colon + 1);
  if (index.empty() || index.find_first_not_of("0123456789") != std::string::npos) return {in, 0};
  return {in.substr(0, colon), std::atoi(index.c_str())};
}

std::vector<std::string> DataInputs(const oc_tf::NodeDef& n) {
  std::vector<std::string> out;
  for (const auto& in : n.input())
    if (in.empty() || in[0] != '^') out.push_back(in);
  return out;
}

const oc_tf::AttrValue* Attr(const oc_tf::NodeDef& n, const std::string& key) {
  auto it = n.attr().find(key);
  return it == n.attr().end() ? nullptr : &it->second;
}

}  // namespace

Status NodeError(const oc_tf::NodeDef& n, const std::string& msg) {
  return frontend::OpError(kTfWords, n.name(), n.op(), msg);
}

Status NodeUnsupported(const oc_tf::NodeDef& n, const std::string& what) {
  return frontend::OpUnsupported(kTfWords, n.name(), n.op(), what);
}

int64_t AttrInt(const oc_tf::NodeDef& n, const std::string& key, int64_t def) {
  const auto* a = Attr(n, key);
  if (!a) return def;
  if (a->value_case() == oc_tf::AttrValue::kI) return a->i();
  if (a->value_case() == oc_tf::AttrValue::kType) return a->type();
  return def;
}

float AttrFloat(const oc_tf::NodeDef& n, const std::string& key, float def) {
  const auto* a = Attr(n, key);
  return a && a->value_case() == oc_tf::AttrValue::kF ? a->f() : def;
}

bool AttrBool(const oc_tf::NodeDef& n, const std::string& key, bool def) {
  const auto* a = Attr(n, key);
  return a && a->value_case() == oc_tf::AttrValue::kB ? a->b() : def;
}

std::string AttrString(const oc_tf::NodeDef& n, const std::string& key, const std::string& def) {
  const auto* a = Attr(n, key);
  return a && a->value_case() == oc_tf::AttrValue::kS ? a->s() : def;
}

std::vector<int64_t> AttrInts(const oc_tf::NodeDef& n, const std::string& key) {
  const auto* a = Attr(n, key);
  if (!a || a->value_case() != oc_tf::AttrValue::kList) return {};
  return {a->list().i().begin(), a->list().i().end()};
}

DataType FromTfType(int t) {
  switch (t) {
    case oc_tf::DT_FLOAT:
      return DataType::kFloat;
    case oc_tf::DT_DOUBLE:
      return DataType::kDouble;
    case oc_tf::DT_INT32:
      return DataType::kInt32;
    case oc_tf::DT_UINT8:
      return DataType::kUint8;
    case oc_tf::DT_INT16:
      return DataType::kInt16;
    case oc_tf::DT_INT8:
      return DataType::kInt8;
    case oc_tf::DT_INT64:
      return DataType::kInt64;
    case oc_tf::DT_BOOL:
      return DataType::kBool;
    case oc_tf::DT_UINT16:
      return DataType::kUint16;
    case oc_tf::DT_HALF:
      return DataType::kFloat16;
    case oc_tf::DT_BFLOAT16:
      return DataType::kBFloat16;
    case oc_tf::DT_UINT32:
      return DataType::kUint32;
    case oc_tf::DT_UINT64:
      return DataType::kUint64;
    default:
      return DataType::kUndefined;
  }
}

Result<Tensor> TensorFromProto(const oc_tf::TensorProto& t, const std::string& what) {
  const DataType dt = FromTfType(t.dtype());
  if (dt == DataType::kUndefined)
    return Status(
        StatusCode::kUnsupported,
        what + ": the TensorFlow type " + oc_tf::DataType_Name(t.dtype()) + " is not supported",
        "E19010");
  Shape shape;
  for (const auto& d : t.tensor_shape().dim()) {
    if (d.size() < 0) return ParseError(what + " has the dim " + std::to_string(d.size()));
    shape.push_back(d.size());
  }
  auto bytes = TensorBytes(shape, DataTypeSize(dt));
  if (!bytes.ok()) return ParseError(what + ": " + bytes.status().message());
  // Raw content is checked against the claimed shape before anything is allocated.
  if (!t.tensor_content().empty() && t.tensor_content().size() != bytes.value())
    return ParseError(what + " has " + std::to_string(t.tensor_content().size()) +
                      " bytes for its shape " + ShapeToString(shape));
  const size_t n = bytes.value() / DataTypeSize(dt);
  // So are typed values: none, or more than the shape holds, is refused before a claim of
  // 2^33 elements allocates (one value for many elements is TF's splat form).
  if (t.tensor_content().empty() && n > 0) {
    int values = -1;
    switch (dt) {
      case DataType::kFloat:
        values = t.float_val_size();
        break;
      case DataType::kDouble:
        values = t.double_val_size();
        break;
      case DataType::kInt32:
        values = t.int_val_size();
        break;
      case DataType::kInt64:
        values = t.int64_val_size();
        break;
      case DataType::kBool:
        values = t.bool_val_size();
        break;
      default:
        break;  // refused below
    }
    if (values == 0 || (values > 0 && static_cast<size_t>(values) > n))
      return ParseError(what + " has " + std::to_string(values) + " values for " +
                        std::to_string(n) + " elements");
  }
  Tensor out(dt, shape);
  if (!t.tensor_content().empty()) {
    std::memcpy(out.mutable_data(), t.tensor_content().data(), bytes.value());
    return out;
  }
  // Typed values; fewer than the shape holds repeat the last (TF's splat form).
  auto fill = [&](auto& field, auto convert) -> Status {
    if (n == 0) return Status::Ok();
    if (field.size() == 0 || static_cast<size_t>(field.size()) > n)
      return ParseError(what + " has " + std::to_string(field.size()) + " values for " +
                        std::to_string(n) + " elements");
    for (size_t i = 0; i < n; ++i)
      convert(i, field[static_cast<int>(std::min<size_t>(i, field.size() - 1))]);
    return Status::Ok();
  };
  void* p = out.mutable_data();
  switch (dt) {
    case DataType::kFloat:
      OC_RETURN_IF_ERROR(
          fill(t.float_val(), [&](size_t i, float v) { static_cast<float*>(p)[i] = v; }));
      break;
    case DataType::kDouble:
      OC_RETURN_IF_ERROR(
          fill(t.double_val(), [&](size_t i, double v) { static_cast<double*>(p)[i] = v; }));
      break;
    case DataType::kInt32:
      OC_RETURN_IF_ERROR(
          fill(t.int_val(), [&](size_t i, int32_t v) { static_cast<int32_t*>(p)[i] = v; }));
      break;
    case DataType::kInt64:
      OC_RETURN_IF_ERROR(
          fill(t.int64_val(), [&](size_t i, int64_t v) { static_cast<int64_t*>(p)[i] = v; }));
      break;
    case DataType::kBool:
      OC_RETURN_IF_ERROR(
          fill(t.bool_val(), [&](size_t i, bool v) { static_cast<uint8_t*>(p)[i] = v; }));
      break;
    default:
      return Status(StatusCode::kUnsupported,
                    what + ": typed values of " + DataTypeName(dt) + " are not supported",
                    "E19010");
  }
  return out;
}

Result<std::string> Context::Input(const oc_tf::NodeDef& n, size_t i) const {
  const auto inputs = DataInputs(n);
  if (i >= inputs.size())
    return NodeError(
        n, "needs input " + std::to_string(i) + ", it has " + std::to_string(inputs.size()));
  const auto [node, k] = SplitInput(inputs[i]);
  auto it = values_.find(k == 0 ? node : node + ":" + std::to_string(k));
  if (it == values_.end()) return NodeError(n, "reads [" + inputs[i] + "], which nothing produces");
  return it->second;
}

size_t Context::NumInputs(const oc_tf::NodeDef& n) const { return DataInputs(n).size(); }

const std::string* Context::Value(const std::string& tf_name) const {
  auto it = values_.find(tf_name);
  return it == values_.end() ? nullptr : &it->second;
}

const Tensor* Context::ConstInput(const oc_tf::NodeDef& n, size_t i) const {
  auto v = Input(n, i);
  if (!v.ok()) return nullptr;
  return b_.graph().FindInitializer(v.value());
}

Result<std::vector<int64_t>> Context::IntsInput(const oc_tf::NodeDef& n, size_t i) const {
  const Tensor* t = ConstInput(n, i);
  if (!t) return NodeUnsupported(n, "input " + std::to_string(i) + " that is not a constant");
  if (t->dtype() != DataType::kInt32 && t->dtype() != DataType::kInt64)
    return NodeError(n, "input " + std::to_string(i) + " must be int32 or int64");
  return t->ToInt64Vector();
}

void Context::SetOutput(const oc_tf::NodeDef& n, int k, const std::string& value) {
  values_[k == 0 ? n.name() : n.name() + ":" + std::to_string(k)] = value;
}

}  // namespace tf_import

namespace {

using frontend::Invalid;
using tf_import::Context;

// Nodes in an order where every data input comes first; cycles are refused.
Result<std::vector<const oc_tf::NodeDef*>> Sorted(const oc_tf::GraphDef& g) {
  std::map<std::string, const oc_tf::NodeDef*> by_name;
  for (const auto& n : g.node()) {
    if (n.name().empty()) return Invalid("a node of op [" + n.op() + "] has no name");
    if (!by_name.emplace(n.name(), &n).second)
      return Invalid("two nodes are named [" + n.name() + "]");
  }
  std::vector<const oc_tf::NodeDef*> order;
  std::map<std::string, int> state;  // 1 visiting, 2 done
  std::vector<std::pair<const oc_tf::NodeDef*, int>> stack;
  for (const auto& root : g.node()) {
    if (state[root.name()] == 2) continue;
    stack.push_back({&root, 0});
    state[root.name()] = 1;
    while (!stack.empty()) {
      auto& [n, next] = stack.back();
      if (next < n->input_size()) {
        std::string in = n->input(next++);
        if (!in.empty() && in[0] == '^') in = in.substr(1);
        const std::string src = tf_import::SplitInputName(in);
        auto it = by_name.find(src);
        if (it == by_name.end())
          return Invalid("node [" + n->name() + "] reads [" + in + "], which no node produces");
        int& s = state[src];
        if (s == 1)
          return Invalid("the graph has a cycle through [" + src +
                         "] (TensorFlow 1 control flow is not supported)");
        if (s == 0) {
          s = 1;
          stack.push_back({it->second, 0});
        }
        continue;
      }
      state[n->name()] = 2;
      order.push_back(n);
      stack.pop_back();
    }
  }
  return order;
}

}  // namespace

namespace tf_import {
std::string SplitInputName(const std::string& in) {
  const size_t colon = in.rfind(':');
  if (colon == std::string::npos) return in;
  const std::string index = in.substr(colon + 1);
  if (index.empty() || index.find_first_not_of("0123456789") != std::string::npos) return in;
  return in.substr(0, colon);
}
}  // namespace tf_import

Result<oc_tf::GraphDef> ParseGraphDef(const std::string& bytes, const std::string& path) {
  oc_tf::GraphDef g;
  if (!frontend::ParseBinaryProto(bytes, g))
    return Invalid("the model file [" + path + "] is not a TensorFlow GraphDef (.pb)");
  if (g.node_size() == 0) return Invalid("the graph [" + path + "] has no nodes");
  return g;
}

Result<Graph> ImportTensorFlowBytes(const std::string& bytes, const std::string& path) {
  OC_ASSIGN_OR_RETURN(oc_tf::GraphDef gd, ParseGraphDef(bytes, path));
  OC_ASSIGN_OR_RETURN(auto order, Sorted(gd));
  GraphBuilder b;
  b.graph().name = "tf_graph";
  b.graph().opset_version = 14;  // Reshape's allowzero
  Context c(b);
  std::set<std::string> consumed;
  for (const auto& n : gd.node())
    for (const auto& in : n.input())
      consumed.insert(tf_import::SplitInputName(in[0] == '^' ? in.substr(1) : in));
  std::vector<const oc_tf::NodeDef*> converted;
  std::set<std::string> node_names;  // of the IR nodes so far
  for (const oc_tf::NodeDef* n : order) {
    if (n->op() == "NoOp") continue;
    if (n->op() == "Placeholder" || n->op() == "PlaceholderWithDefault") {
      if (n->op() == "PlaceholderWithDefault")
        return tf_import::NodeUnsupported(*n, "PlaceholderWithDefault");
      ValueInfo vi;
      const int64_t tf_type = tf_import::AttrInt(*n, "dtype", 0);
      if (tf_type == 0) return tf_import::NodeError(*n, "has no dtype");
      vi.dtype = tf_import::FromTfType(static_cast<int>(tf_type));
      if (vi.dtype == DataType::kUndefined) return tf_import::NodeUnsupported(*n, "its dtype");
      auto it = n->attr().find("shape");
      if (it != n->attr().end() && it->second.has_shape() && !it->second.shape().unknown_rank()) {
        vi.has_shape = true;
        for (const auto& d : it->second.shape().dim()) {
          if (d.size() < -1) return tf_import::NodeError(*n, "a dim below -1");
          vi.shape.push_back(d.size());
        }
      }
      b.graph().values[n->name()] = vi;
      b.graph().inputs.push_back(n->name());
      c.SetValue(n->name(), n->name());
      continue;
    }
    if (n->op() == "Const") {
      auto it = n->attr().find("value");
      if (it == n->attr().end() || !it->second.has_tensor())
        return tf_import::NodeError(*n, "has no value");
      OC_ASSIGN_OR_RETURN(
          Tensor t, tf_import::TensorFromProto(it->second.tensor(), "node [" + n->name() + "]"));
      c.SetValue(n->name(), b.Constant(n->name(), std::move(t)));
      continue;
    }
    OC_ASSIGN_OR_RETURN(auto convert, tf_import::Converters().Lookup(n->name(), n->op()));
    const size_t first_node = b.graph().nodes.size();
    OC_RETURN_IF_ERROR(convert(*n, c));
    const std::string* out = c.Value(n->name());
    NameAfterSource(b.graph(), first_node, out ? *out : std::string(), n->name(), node_names);
    converted.push_back(n);
  }
  // Outputs: what no node reads (a frozen graph names none).
  for (const oc_tf::NodeDef* n : converted) {
    if (consumed.count(n->name())) continue;
    if (const std::string* v = c.Value(n->name())) b.graph().outputs.push_back(*v);
  }
  if (b.graph().outputs.empty()) return Invalid("the graph [" + path + "] computes nothing");
  b.ForgetInferredValues();
  b.graph().metadata["producer_name"] = "tensorflow";
  return std::move(b.graph());
}

Result<Graph> ImportTensorFlow(const std::string& path) {
  OC_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
  return ImportTensorFlowBytes(bytes, path);
}

Result<std::vector<OpSurvey>> SurveyTensorFlow(const std::string& path) {
  OC_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
  OC_ASSIGN_OR_RETURN(oc_tf::GraphDef gd, ParseGraphDef(bytes, path));
  std::vector<OpSurvey> out;
  for (const auto& n : gd.node()) out.push_back(tf_import::Converters().Survey(n.name(), n.op()));
  return out;
}

}  // namespace oc
