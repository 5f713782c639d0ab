// libFuzzer: ONNX bytes through the importer, the compiler and the .om writer (what atc does
// with a model file), then the .om through the runtime's loader and one execution (the
// round-trip property, round_trip.h). Any Status is fine; a crash, a sanitizer report, a
// hang, a leak or a loader refusing what the compiler wrote is a finding.
//
// Structure-aware: the custom mutator parses the input as a ModelProto and changes it with
// proto_mutator.h's generic mutations or the ONNX ones below (names, node inputs and
// outputs, attributes, tensors, external data, opsets, subgraphs, op types, graph I/O).
#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_util.h"
#include "proto_mutator.h"
#include "round_trip.h"

namespace {

using google::protobuf::Message;
using oc::fuzz::All;
using oc::fuzz::BoundaryFloat;
using oc::fuzz::BoundaryInt;
using oc::fuzz::BoundaryString;
using oc::fuzz::RemoveAt;
using oc::fuzz::Rng;
using onnx::AttributeProto;
using onnx::GraphProto;
using onnx::ModelProto;
using onnx::NodeProto;
using onnx::TensorProto;
using onnx::ValueInfoProto;

const std::vector<std::string> kOps = oc::fuzz::Words(
    "Add Sub Mul Div Relu Sigmoid Tanh MatMul Gemm Conv ConvTranspose MaxPool "
    "AveragePool GlobalAveragePool BatchNormalization Reshape Transpose Concat "
    "Split Slice Gather Squeeze Unsqueeze Flatten Softmax ReduceMean ReduceSum "
    "Shape Cast Expand Tile Pad Resize TopK ArgMax Where Equal Not Identity "
    "Constant ConstantOfShape Range NonZero Einsum LSTM GRU RNN If Loop Scan "
    "QuantizeLinear DequantizeLinear LayerNormalization Clip Sqrt Pow OneHot "
    "ScatterND GatherND CumSum Dropout InstanceNormalization LRN DepthToSpace "
    "Upsample Sum Max Mean SequenceConstruct Attention");
const std::vector<std::string> kDomains =
    oc::fuzz::Words("'' ai.onnx ai.onnx.ml com.unknown com.microsoft ai.onnx.preview.training");
const std::vector<std::string> kAttrNames = oc::fuzz::Words(
    "axis axes perm kernel_shape pads strides dilations group to keepdims transA "
    "transB alpha beta epsilon mode auto_pad split starts ends value k largest "
    "sorted batch_dims num_scan_inputs direction hidden_size blocksize exclusive "
    "reverse allowzero then_branch else_branch body");
const std::vector<std::string> kStringValues = oc::fuzz::Words(
    "'' NOTSET SAME_UPPER VALID nearest linear DCR forward bidirectional constant "
    "reflect");
const std::vector<int> kDtypes = {0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13,
                                  14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 99, -1};

ModelProto& AsModel(Message& root) { return static_cast<ModelProto&>(root); }

// Every name a value has in the graph: inputs, initializers, node outputs.
std::vector<std::string> Values(const GraphProto& g) {
  std::vector<std::string> out;
  for (const auto& v : g.input()) out.push_back(v.name());
  for (const auto& t : g.initializer()) out.push_back(t.name());
  for (const auto& n : g.node())
    for (const auto& o : n.output()) out.push_back(o);
  return out;
}

// A graph that has nodes (the main one or a subgraph).
GraphProto* GraphWithNodes(Message& root, Rng& rng) {
  std::vector<GraphProto*> graphs;
  for (auto* g : All<GraphProto>(root))
    if (g->node_size()) graphs.push_back(g);
  return graphs.empty() ? nullptr : rng.Pick(graphs);
}

std::string FreshName(Rng& rng) { return "fz" + std::to_string(rng.Below(1000)); }

bool NodeName(Message& root, Rng& rng) {
  auto nodes = All<NodeProto>(root);
  if (nodes.empty()) return false;
  rng.Pick(nodes)->set_name(rng.OneIn(3) ? std::string() : rng.Pick(nodes)->name());
  return true;
}

bool NodeInputs(Message& root, Rng& rng) {
  GraphProto* g = GraphWithNodes(root, rng);
  if (!g) return false;
  const int i = static_cast<int>(rng.Below(g->node_size()));
  NodeProto* n = g->mutable_node(i);
  const int k = static_cast<int>(rng.Below(n->input_size()));
  auto values = Values(*g);
  auto set = [&](const std::string& name) {
    if (n->input_size() == 0)
      n->add_input(name);
    else
      n->set_input(k, name);
  };
  switch (rng.Below(7)) {
    case 0:  // an empty name for an input: omitted, even where the op requires it
      set("");
      return true;
    case 1:  // an input missing
      if (n->input_size() == 0) return false;
      RemoveAt(n->mutable_input(), k);
      return true;
    case 2:  // an extra input
      n->add_input(values.empty() || rng.OneIn(4) ? std::string() : rng.Pick(values));
      return true;
    case 3: {  // the output of this or a later node: a cycle or a self-loop
      const NodeProto& later = g->node(i + static_cast<int>(rng.Below(g->node_size() - i)));
      if (later.output_size() == 0) return false;
      set(later.output(static_cast<int>(rng.Below(later.output_size()))));
      return true;
    }
    case 4:  // a value nothing makes
      set(rng.OneIn(2) ? "no_such_value" : FreshName(rng));
      return true;
    case 5: {  // a value of another graph (an outer scope, or a branch's inner value)
      auto graphs = All<GraphProto>(root);
      auto other = Values(*rng.Pick(graphs));
      if (other.empty()) return false;
      set(rng.Pick(other));
      return true;
    }
    default:  // two inputs swapped
      if (n->input_size() < 2) return false;
      n->mutable_input()->SwapElements(k, (k + 1) % n->input_size());
      return true;
  }
}

bool NodeOutputs(Message& root, Rng& rng) {
  GraphProto* g = GraphWithNodes(root, rng);
  if (!g) return false;
  NodeProto* n = g->mutable_node(static_cast<int>(rng.Below(g->node_size())));
  const int k = static_cast<int>(rng.Below(n->output_size()));
  auto values = Values(*g);
  switch (rng.Below(5)) {
    case 0:  // an output missing
      if (n->output_size() == 0) return false;
      RemoveAt(n->mutable_output(), k);
      return true;
    case 1:  // an extra output
      n->add_output(rng.OneIn(3) && !values.empty() ? rng.Pick(values) : FreshName(rng));
      return true;
    case 2:  // an output that another node, an input or an initializer also makes
      if (n->output_size() == 0 || values.empty()) return false;
      n->set_output(k, rng.Pick(values));
      return true;
    case 3:  // an empty output name
      if (n->output_size() == 0) return false;
      n->set_output(k, "");
      return true;
    default:  // renamed: its consumers and the graph outputs lose their producer
      if (n->output_size() == 0) return false;
      n->set_output(k, FreshName(rng));
      return true;
  }
}

// A graph to put in an attribute: empty, a copy of one in the model, or one Identity node
// reading a value of the outer scope.
GraphProto SomeGraph(Message& root, Rng& rng) {
  GraphProto out;
  auto graphs = All<GraphProto>(root);
  switch (rng.Below(3)) {
    case 0:
      out.set_name("empty");
      break;
    case 1:  // (a model whose nodes are all in functions has no graph to copy)
      if (!graphs.empty()) out.CopyFrom(*rng.Pick(graphs));
      break;
    default: {
      out.set_name("identity");
      auto values = Values(AsModel(root).graph());
      NodeProto* n = out.add_node();
      n->set_op_type("Identity");
      n->add_input(values.empty() ? "x" : rng.Pick(values));
      n->add_output("sub_out");
      ValueInfoProto* o = out.add_output();
      o->set_name("sub_out");
      o->mutable_type()->mutable_tensor_type()->set_elem_type(TensorProto::FLOAT);
      break;
    }
  }
  return out;
}

void FillAttribute(Message& root, AttributeProto* a, Rng& rng) {
  auto tensors = All<TensorProto>(root);
  switch (a->type()) {
    case AttributeProto::FLOAT:
      a->set_f(static_cast<float>(BoundaryFloat(rng, 1)));
      break;
    case AttributeProto::INT:
      a->set_i(BoundaryInt(rng, 1));
      break;
    case AttributeProto::STRING:
      a->set_s(rng.OneIn(2) ? rng.Pick(kStringValues) : BoundaryString(rng, {}, "x"));
      break;
    case AttributeProto::TENSOR:
      if (!tensors.empty())
        a->mutable_t()->CopyFrom(TensorProto(*rng.Pick(tensors)));
      else
        a->mutable_t()->set_data_type(TensorProto::FLOAT);
      break;
    case AttributeProto::GRAPH:
      *a->mutable_g() = SomeGraph(root, rng);
      break;
    case AttributeProto::FLOATS:
      for (size_t i = rng.Below(4); i > 0; --i)
        a->add_floats(static_cast<float>(BoundaryFloat(rng)));
      break;
    case AttributeProto::INTS:
      for (size_t i = rng.Below(6); i > 0; --i)
        a->add_ints(rng.OneIn(2) ? static_cast<int64_t>(rng.Below(4)) : BoundaryInt(rng));
      break;
    case AttributeProto::STRINGS:
      for (size_t i = rng.Below(3); i > 0; --i) a->add_strings(rng.Pick(kStringValues));
      break;
    case AttributeProto::TENSORS:
      if (!tensors.empty()) a->add_tensors()->CopyFrom(TensorProto(*rng.Pick(tensors)));
      break;
    case AttributeProto::GRAPHS:
      *a->add_graphs() = SomeGraph(root, rng);
      break;
    case AttributeProto::SPARSE_TENSOR:
      a->mutable_sparse_tensor()->mutable_values()->set_data_type(TensorProto::FLOAT);
      break;
    case AttributeProto::TYPE_PROTO:
      a->mutable_tp()->mutable_tensor_type()->set_elem_type(rng.Pick(kDtypes));
      break;
    default:
      break;
  }
}

bool AttributeKind(Message& root, Rng& rng) {
  auto attrs = All<AttributeProto>(root);
  if (attrs.empty()) return false;
  AttributeProto* a = rng.Pick(attrs);
  const int kind = rng.OneIn(8) ? static_cast<int>(rng.Below(40))
                                : AttributeProto::AttributeType_descriptor()
                                      ->value(static_cast<int>(rng.Below(15)))
                                      ->number();
  if (rng.OneIn(2)) {  // the old payload gone, or kept beside the new kind
    const std::string name = a->name();
    a->Clear();
    a->set_name(name);
  }
  if (AttributeProto::AttributeType_IsValid(kind)) {
    a->set_type(static_cast<AttributeProto::AttributeType>(kind));
    if (!rng.OneIn(3)) FillAttribute(root, a, rng);
  } else {
    a->clear_type();
    a->GetReflection()->MutableUnknownFields(a)->AddVarint(AttributeProto::kTypeFieldNumber,
                                                           static_cast<uint64_t>(kind));
  }
  return true;
}

bool Attributes(Message& root, Rng& rng) {
  auto nodes = All<NodeProto>(root);
  if (nodes.empty()) return false;
  NodeProto* n = rng.Pick(nodes);
  const int k = static_cast<int>(rng.Below(n->attribute_size()));
  switch (rng.Below(5)) {
    case 0:  // an attribute missing
      if (n->attribute_size() == 0) return false;
      RemoveAt(n->mutable_attribute(), k);
      return true;
    case 1:  // an attribute given twice
      if (n->attribute_size() == 0) return false;
      n->add_attribute()->CopyFrom(AttributeProto(n->attribute(k)));
      return true;
    case 2:  // an attribute renamed (to nothing, or to another op's attribute)
      if (n->attribute_size() == 0) return false;
      n->mutable_attribute(k)->set_name(rng.OneIn(4) ? std::string() : rng.Pick(kAttrNames));
      return true;
    case 3: {  // a new attribute of a likely name and any kind
      AttributeProto* a = n->add_attribute();
      a->set_name(rng.Pick(kAttrNames));
      static const AttributeProto::AttributeType kKinds[] = {
          AttributeProto::INT,    AttributeProto::INTS,   AttributeProto::FLOAT,
          AttributeProto::STRING, AttributeProto::TENSOR, AttributeProto::GRAPH,
          AttributeProto::FLOATS};
      a->set_type(rng.Pick(kKinds));
      FillAttribute(root, a, rng);
      return true;
    }
    default: {  // one value of a list attribute at a boundary
      if (n->attribute_size() == 0) return false;
      AttributeProto* a = n->mutable_attribute(k);
      if (a->ints_size() == 0) return false;
      a->set_ints(static_cast<int>(rng.Below(a->ints_size())), BoundaryInt(rng, 1));
      return true;
    }
  }
}

bool TensorType(Message& root, Rng& rng) {
  auto tensors = All<TensorProto>(root);
  if (tensors.empty()) return false;
  rng.Pick(tensors)->set_data_type(rng.Pick(kDtypes));
  return true;
}

bool TensorDims(Message& root, Rng& rng) {
  auto tensors = All<TensorProto>(root);
  if (tensors.empty()) return false;
  TensorProto* t = rng.Pick(tensors);
  switch (rng.Below(5)) {
    case 0:  // a dim huge, negative or zero
      if (t->dims_size() == 0) return false;
      t->set_dims(static_cast<int>(rng.Below(t->dims_size())), BoundaryInt(rng, 1));
      return true;
    case 1:
      t->add_dims(rng.OneIn(2) ? static_cast<int64_t>(rng.Below(3)) : BoundaryInt(rng, 1));
      return true;
    case 2:
      if (t->dims_size() == 0) return false;
      RemoveAt(t->mutable_dims(), rng.Below(t->dims_size()));
      return true;
    case 3:  // a scalar
      t->clear_dims();
      return true;
    default:  // rank 40
      while (t->dims_size() < 40) t->add_dims(1);
      return true;
  }
}

bool TensorData(Message& root, Rng& rng) {
  auto tensors = All<TensorProto>(root);
  if (tensors.empty()) return false;
  TensorProto* t = rng.Pick(tensors);
  switch (rng.Below(6)) {
    case 0:  // raw data shorter than the dims claim
      if (t->raw_data().empty()) return false;
      t->mutable_raw_data()->resize(rng.Below(t->raw_data().size()));
      return true;
    case 1:  // longer
      t->mutable_raw_data()->append(1 + rng.Below(64), '\x7f');
      return true;
    case 2: {  // typed values moved into raw data, one value short
      if (t->float_data_size() == 0 && t->int64_data_size() == 0) return false;
      std::string raw;
      if (t->float_data_size())
        raw.assign(reinterpret_cast<const char*>(t->float_data().data()),
                   sizeof(float) * static_cast<size_t>(t->float_data_size() - 1));
      else
        raw.assign(reinterpret_cast<const char*>(t->int64_data().data()),
                   sizeof(int64_t) * static_cast<size_t>(t->int64_data_size() - 1));
      t->clear_float_data();
      t->clear_int64_data();
      t->set_raw_data(raw);
      return true;
    }
    case 3:  // typed values beside the raw data, or of another type than the tensor's
      switch (rng.Below(3)) {
        case 0:
          t->add_float_data(static_cast<float>(BoundaryFloat(rng)));
          break;
        case 1:
          t->add_int64_data(BoundaryInt(rng));
          break;
        default:
          t->add_int32_data(static_cast<int32_t>(BoundaryInt(rng)));
          break;
      }
      return true;
    case 4:  // no data at all
      t->clear_raw_data();
      t->clear_float_data();
      t->clear_int32_data();
      t->clear_int64_data();
      t->clear_double_data();
      return true;
    default:  // strings in a numeric tensor
      t->add_string_data(rng.OneIn(2) ? "abc" : "\xff");
      return true;
  }
}

bool ExternalData(Message& root, Rng& rng) {
  auto tensors = All<TensorProto>(root);
  if (tensors.empty()) return false;
  TensorProto* t = rng.Pick(tensors);
  static const char* const kLocations[] = {"w.bin",     "",  "../../etc/passwd", "/etc/passwd",
                                           "a/../../b", ".", "/dev/zero",        "/proc/self/mem"};
  static const char* const kNumbers[] = {
      "0", "-1", "4096", "abc", "99999999999999999999", "18446744073709551615", "", "1e3"};
  static const char* const kKeys[] = {"location", "offset", "length", "checksum", "unknown"};
  t->set_data_location(rng.OneIn(6) ? TensorProto::DEFAULT : TensorProto::EXTERNAL);
  if (rng.OneIn(3)) t->clear_external_data();
  for (size_t i = 1 + rng.Below(3); i > 0; --i) {
    auto* e = t->add_external_data();
    e->set_key(rng.OneIn(4) ? rng.Pick(kKeys) : "location");
    e->set_value(e->key() == "location" ? rng.Pick(kLocations) : rng.Pick(kNumbers));
  }
  if (!rng.OneIn(3)) t->clear_raw_data();
  return true;
}

bool ValueTypes(Message& root, Rng& rng) {
  auto infos = All<ValueInfoProto>(root);
  if (infos.empty()) return false;
  ValueInfoProto* v = rng.Pick(infos);
  switch (rng.Below(6)) {
    case 0:
      v->mutable_type()->mutable_tensor_type()->set_elem_type(rng.Pick(kDtypes));
      return true;
    case 1:
    case 2: {  // a dim huge, negative or zero; symbolic, or saying nothing
      if (!v->type().tensor_type().has_shape()) return false;
      auto* shape = v->mutable_type()->mutable_tensor_type()->mutable_shape();
      if (shape->dim_size() == 0) return false;
      auto* dim = shape->mutable_dim(static_cast<int>(rng.Below(shape->dim_size())));
      if (rng.OneIn(2))
        dim->set_dim_value(BoundaryInt(rng, dim->dim_value()));
      else if (rng.OneIn(2))
        dim->set_dim_param(rng.OneIn(2) ? "N" : "");
      else
        dim->Clear();
      return true;
    }
    case 3: {  // rank changed: a dim more or less, rank 40, or no shape at all
      auto* tt = v->mutable_type()->mutable_tensor_type();
      auto* shape = tt->mutable_shape();
      switch (rng.Below(4)) {
        case 0:
          shape->add_dim()->set_dim_value(static_cast<int64_t>(rng.Below(4)));
          break;
        case 1:
          if (shape->dim_size() == 0) return false;
          RemoveAt(shape->mutable_dim(), rng.Below(shape->dim_size()));
          break;
        case 2:
          while (shape->dim_size() < 40) shape->add_dim()->set_dim_value(1);
          break;
        default:
          tt->clear_shape();
          break;
      }
      return true;
    }
    case 4:  // no type, or not a tensor
      if (rng.OneIn(2))
        v->clear_type();
      else
        v->mutable_type()->mutable_sequence_type()->mutable_elem_type()->mutable_tensor_type();
      return true;
    default: {  // renamed to nothing or to another value
      auto values = Values(AsModel(root).graph());
      v->set_name(rng.OneIn(3) || values.empty() ? std::string() : rng.Pick(values));
      return true;
    }
  }
}

bool Opsets(Message& root, Rng& rng) {
  ModelProto& m = AsModel(root);
  static const int64_t kVersions[] = {0,  1,  6,  7,  9,  11, 12,  13, 15,
                                      16, 17, 18, 19, 20, 21, 999, -1};
  const int k = static_cast<int>(rng.Below(m.opset_import_size()));
  switch (rng.Below(5)) {
    case 0:
      if (m.opset_import_size() == 0) return false;
      m.mutable_opset_import(k)->set_version(rng.Pick(kVersions));
      return true;
    case 1:
      if (m.opset_import_size() == 0) return false;
      m.mutable_opset_import(k)->set_domain(rng.Pick(kDomains));
      return true;
    case 2: {  // a domain imported twice, at two versions
      auto* o = m.add_opset_import();
      o->set_domain(m.opset_import_size() > 1 ? m.opset_import(k).domain() : "");
      o->set_version(rng.Pick(kVersions));
      return true;
    }
    case 3:
      m.clear_opset_import();
      return true;
    default: {
      static const int64_t kIr[] = {0, 1, 3, 4, 7, 8, 9, 10, 99, -1};
      m.set_ir_version(rng.Pick(kIr));
      return true;
    }
  }
}

bool Subgraphs(Message& root, Rng& rng) {
  ModelProto& m = AsModel(root);
  auto nodes = All<NodeProto>(root);
  switch (rng.Below(5)) {
    case 0: {  // a node turned into If, Loop or Scan with bodies
      if (nodes.empty()) return false;
      NodeProto* n = rng.Pick(nodes);
      static const char* const kControl[] = {"If", "Loop", "Scan"};
      const std::string op = rng.Pick(kControl);
      n->set_op_type(op);
      if (rng.OneIn(2)) n->clear_attribute();
      auto add = [&](const char* name) {
        AttributeProto* a = n->add_attribute();
        a->set_name(name);
        a->set_type(AttributeProto::GRAPH);
        *a->mutable_g() = SomeGraph(root, rng);
      };
      if (op == "If") {
        add("then_branch");
        if (!rng.OneIn(4)) add("else_branch");
      } else {
        add("body");
      }
      if (op == "Scan") {
        AttributeProto* a = n->add_attribute();
        a->set_name("num_scan_inputs");
        a->set_type(AttributeProto::INT);
        a->set_i(static_cast<int64_t>(rng.Below(3)));
      }
      return true;
    }
    case 1: {  // a body or branch removed
      for (auto* n : nodes)
        for (int k = 0; k < n->attribute_size(); ++k)
          if (n->attribute(k).has_g() && rng.OneIn(2)) {
            RemoveAt(n->mutable_attribute(), k);
            return true;
          }
      return false;
    }
    case 2: {  // a subgraph emptied: no nodes, no outputs or no inputs
      std::vector<GraphProto*> subs;
      for (auto* g : All<GraphProto>(root))
        if (g != &m.graph()) subs.push_back(g);
      if (subs.empty()) return false;
      GraphProto* g = rng.Pick(subs);
      switch (rng.Below(3)) {
        case 0:
          g->clear_node();
          break;
        case 1:
          g->clear_output();
          break;
        default:
          g->clear_input();
          break;
      }
      return true;
    }
    case 3: {  // a graph attribute on any node
      if (nodes.empty()) return false;
      AttributeProto* a = rng.Pick(nodes)->add_attribute();
      static const char* const kNames[] = {"then_branch", "else_branch", "body", "g"};
      a->set_name(rng.Pick(kNames));
      a->set_type(rng.OneIn(4) ? AttributeProto::GRAPHS : AttributeProto::GRAPH);
      if (a->type() == AttributeProto::GRAPH)
        *a->mutable_g() = SomeGraph(root, rng);
      else
        *a->add_graphs() = SomeGraph(root, rng);
      return true;
    }
    default: {  // the then and else branches swapped, or one replaced by the main graph
      for (auto* n : nodes)
        for (int k = 0; k < n->attribute_size(); ++k)
          if (n->attribute(k).has_g()) {
            if (rng.OneIn(2)) {
              *n->mutable_attribute(k)->mutable_g() = GraphProto(m.graph());
            } else if (n->attribute_size() > 1) {
              n->mutable_attribute()->SwapElements(k, (k + 1) % n->attribute_size());
            }
            return true;
          }
      return false;
    }
  }
}

bool OpTypes(Message& root, Rng& rng) {
  auto nodes = All<NodeProto>(root);
  if (nodes.empty()) return false;
  NodeProto* n = rng.Pick(nodes);
  static const char* const kUnknown[] = {"NoSuchOp", "", "relu", "Relu ", "Conv2D", "Custom"};
  switch (rng.Below(4)) {
    case 0:
    case 1:
      n->set_op_type(rng.Pick(kOps));
      return true;
    case 2:
      n->set_op_type(rng.Pick(kUnknown));
      return true;
    default:
      n->set_domain(rng.Pick(kDomains));
      return true;
  }
}

bool GraphIo(Message& root, Rng& rng) {
  auto graphs = All<GraphProto>(root);
  if (graphs.empty()) return false;
  GraphProto* g = rng.Pick(graphs);
  auto values = Values(*g);
  switch (rng.Below(6)) {
    case 0:  // an output dropped
      if (g->output_size() == 0) return false;
      RemoveAt(g->mutable_output(), rng.Below(g->output_size()));
      return true;
    case 1: {  // an output more: an intermediate value, an input, or nothing's
      ValueInfoProto* o = g->add_output();
      if (g->output_size() > 1) o->CopyFrom(ValueInfoProto(g->output(0)));
      o->set_name(values.empty() || rng.OneIn(4) ? FreshName(rng) : rng.Pick(values));
      return true;
    }
    case 2:  // an input dropped
      if (g->input_size() == 0) return false;
      RemoveAt(g->mutable_input(), rng.Below(g->input_size()));
      return true;
    case 3:  // an input or an initializer twice
      if (g->input_size() && rng.OneIn(2))
        g->add_input()->CopyFrom(ValueInfoProto(g->input(rng.Below(g->input_size()))));
      else if (g->initializer_size())
        g->add_initializer()->CopyFrom(
            TensorProto(g->initializer(rng.Below(g->initializer_size()))));
      else
        return false;
      return true;
    case 4: {  // an input named after what a node makes
      if (values.empty()) return false;
      ValueInfoProto* in = g->add_input();
      in->set_name(rng.Pick(values));
      in->mutable_type()->mutable_tensor_type()->set_elem_type(TensorProto::FLOAT);
      return true;
    }
    default:  // an initializer dropped or renamed
      if (g->initializer_size() == 0) return false;
      if (rng.OneIn(2))
        RemoveAt(g->mutable_initializer(), rng.Below(g->initializer_size()));
      else
        g->mutable_initializer(rng.Below(g->initializer_size()))
            ->set_name(values.empty() ? std::string() : rng.Pick(values));
      return true;
  }
}

const oc::fuzz::ProtoFormat& Format() {
  static const oc::fuzz::ProtoFormat format{
      &ModelProto::default_instance(),
      {NodeName, NodeInputs, NodeOutputs, AttributeKind, Attributes, TensorType, TensorDims,
       TensorData, ExternalData, ValueTypes, Opsets, Subgraphs, OpTypes, GraphIo},
      false};
  return format;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  oc::fuzz::SetUpHarness();
  oc::fuzz::QuietProtobuf();
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  if (oc::fuzz::ImportOnly())
    (void)oc::fuzz::ImportInput(oc::fuzz::InputKind::kOnnx, bytes);
  else
    oc::fuzz::CheckRoundTrip(oc::fuzz::InputKind::kOnnx, bytes);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  oc::fuzz::QuietProtobuf();
  return oc::fuzz::MutateProtoInput(Format(), data, size, max_size, seed);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1,
                                            const uint8_t* data2, size_t size2, uint8_t* out,
                                            size_t max_out_size, unsigned int seed) {
  oc::fuzz::QuietProtobuf();
  return oc::fuzz::CrossOverProtoInputs(Format(), data1, size1, data2, size2, out, max_out_size,
                                        seed);
}
