// What a TensorFlow op converter works with: the NodeDef, its inputs as IR values (TF's
// "node:k" outputs mapped to IR names), constant inputs' values, and the graph builder.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "frontend/converter_table.h"
#include "frontend/graph_builder.h"
#include "tf_graph.pb.h"

namespace oc::tf_import {

class Context {
 public:
  explicit Context(GraphBuilder& b) : b_(b) {}
  GraphBuilder& b() { return b_; }

  // Data input i of the node (control inputs "^x" are not counted).
  Result<std::string> Input(const oc_tf::NodeDef& n, size_t i) const;
  size_t NumInputs(const oc_tf::NodeDef& n) const;
  // The value of input i when it is a constant, else nullptr.
  const Tensor* ConstInput(const oc_tf::NodeDef& n, size_t i) const;
  Result<std::vector<int64_t>> IntsInput(const oc_tf::NodeDef& n, size_t i) const;
  // Output k of the node is `value`.
  void SetOutput(const oc_tf::NodeDef& n, int k, const std::string& value);
  void SetValue(const std::string& tf_name, const std::string& value) { values_[tf_name] = value; }
  // The IR value of a TF output name ("node", "node:1"), or nullptr.
  const std::string* Value(const std::string& tf_name) const;

 private:
  GraphBuilder& b_;
  std::map<std::string, std::string> values_;  // "node" / "node:k" -> IR value
};

// Attributes, with the defaults TensorFlow's op registry gives them.
int64_t AttrInt(const oc_tf::NodeDef& n, const std::string& key, int64_t def);
float AttrFloat(const oc_tf::NodeDef& n, const std::string& key, float def);
bool AttrBool(const oc_tf::NodeDef& n, const std::string& key, bool def);
std::string AttrString(const oc_tf::NodeDef& n, const std::string& key, const std::string& def);
std::vector<int64_t> AttrInts(const oc_tf::NodeDef& n, const std::string& key);
// A TF dtype as ours; kUndefined when OpenCANN has none.
DataType FromTfType(int tf_type);
Result<Tensor> TensorFromProto(const oc_tf::TensorProto& t, const std::string& what);

Status NodeError(const oc_tf::NodeDef& n, const std::string& msg);
Status NodeUnsupported(const oc_tf::NodeDef& n, const std::string& what);

// "node:1" -> "node" (names without an output index are returned as they are).
std::string SplitInputName(const std::string& input);

inline constexpr frontend::ParserWords kTfWords{"TensorFlow", "node", "op"};

using OpConverter = Status (*)(const oc_tf::NodeDef& n, Context& c);
// Shapes, data movement and indexing (tf_ops_shape.cpp); the other converters are tf_ops.cpp's.
Status Reshape(const oc_tf::NodeDef& n, Context& c);
Status Squeeze(const oc_tf::NodeDef& n, Context& c);
Status ExpandDims(const oc_tf::NodeDef& n, Context& c);
Status Transpose(const oc_tf::NodeDef& n, Context& c);
Status ConcatV2(const oc_tf::NodeDef& n, Context& c);
Status Pack(const oc_tf::NodeDef& n, Context& c);
Status Unpack(const oc_tf::NodeDef& n, Context& c);
Status Pad(const oc_tf::NodeDef& n, Context& c);
Status ShapeOp(const oc_tf::NodeDef& n, Context& c);
Status Cast(const oc_tf::NodeDef& n, Context& c);
Status ArgMax(const oc_tf::NodeDef& n, Context& c);
Status Slice(const oc_tf::NodeDef& n, Context& c);
Status StridedSlice(const oc_tf::NodeDef& n, Context& c);
Status Gather(const oc_tf::NodeDef& n, Context& c);
Status Fill(const oc_tf::NodeDef& n, Context& c);
Status Range(const oc_tf::NodeDef& n, Context& c);
// TF op names -> their converters (tf_ops.cpp); Placeholder, Const and NoOp are the importer's.
const frontend::ConverterTable<OpConverter>& Converters();

}  // namespace oc::tf_import
