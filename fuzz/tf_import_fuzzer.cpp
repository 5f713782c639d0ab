// libFuzzer: a TensorFlow GraphDef (.pb bytes) through the importer, the compiler and the
// .om writer, then the .om through the loader and one execution (round_trip.h).
//
// Structure-aware: the custom mutator parses the input as a GraphDef and changes it with
// proto_mutator.h's generic mutations or the TensorFlow ones below (node inputs with
// ^control and :N ports, op types, attribute values of another kind, tensor_content against
// the tensor's shape and dtype, shapes, node names).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_util.h"
#include "proto_mutator.h"
#include "round_trip.h"
#include "tf_graph.pb.h"

namespace {

using google::protobuf::Message;
using oc::fuzz::All;
using oc::fuzz::BoundaryFloat;
using oc::fuzz::BoundaryInt;
using oc::fuzz::RemoveAt;
using oc::fuzz::Rng;
using oc_tf::AttrValue;
using oc_tf::GraphDef;
using oc_tf::NodeDef;
using oc_tf::TensorProto;
using oc_tf::TensorShapeProto;

const std::vector<std::string> kOps = oc::fuzz::Words(
    "Placeholder Const Identity Conv2D DepthwiseConv2dNative MaxPool AvgPool "
    "BiasAdd FusedBatchNorm FusedBatchNormV3 MatMul BatchMatMulV2 Add AddV2 Sub "
    "Mul RealDiv Maximum Pow Relu Relu6 Sigmoid Tanh Softmax Mean Sum Max Reshape "
    "Squeeze ExpandDims Transpose ConcatV2 Pack Unpack Pad PadV2 Shape Cast ArgMax "
    "Slice StridedSlice GatherV2 Fill Range ResizeBilinear NoOp NoSuchOp ''");
const std::vector<std::string> kAttrKeys = oc::fuzz::Words(
    "T dtype value strides padding data_format ksize shape N axis Tidx keep_dims "
    "transpose_a transpose_b adj_x epsilon is_training dilations begin_mask "
    "end_mask shrink_axis_mask new_axis_mask ellipsis_mask squeeze_dims "
    "align_corners half_pixel_centers DstT SrcT output_type num");
const std::vector<std::string> kStrings = oc::fuzz::Words("SAME VALID EXPLICIT NHWC NCHW '' x");

GraphDef& AsGraph(Message& root) { return static_cast<GraphDef&>(root); }

bool NodeInputs(Message& root, Rng& rng) {
  GraphDef& g = AsGraph(root);
  if (g.node_size() == 0) return false;
  const int i = static_cast<int>(rng.Below(g.node_size()));
  NodeDef* n = g.mutable_node(i);
  const int k = static_cast<int>(rng.Below(n->input_size()));
  const std::string other = g.node(static_cast<int>(rng.Below(g.node_size()))).name();
  const std::string later = g.node(i + static_cast<int>(rng.Below(g.node_size() - i))).name();
  static const char* const kPorts[] = {":0",          ":1",   ":2", ":-1", ":99",
                                       ":2147483648", ":abc", ":",  ":0:0"};
  auto set = [&](const std::string& name) {
    if (n->input_size() == 0)
      n->add_input(name);
    else
      n->set_input(k, name);
  };
  switch (rng.Below(8)) {
    case 0:  // a control input (^name), possibly before data inputs
      if (rng.OneIn(2))
        set("^" + other);
      else
        n->add_input(rng.OneIn(4) ? std::string("^") : "^" + other);
      return true;
    case 1:  // an output port that may not exist
      set(other + rng.Pick(kPorts));
      return true;
    case 2:
      set("");
      return true;
    case 3:  // this or a later node: a self-loop or a cycle
      set(later + (rng.OneIn(2) ? "" : ":0"));
      return true;
    case 4:
      set("no_such_node");
      return true;
    case 5:  // an input missing
      if (n->input_size() == 0) return false;
      RemoveAt(n->mutable_input(), k);
      return true;
    case 6:  // an input more
      n->add_input(other);
      return true;
    default:
      if (n->input_size() < 2) return false;
      n->mutable_input()->SwapElements(k, (k + 1) % n->input_size());
      return true;
  }
}

bool NodeNames(Message& root, Rng& rng) {
  GraphDef& g = AsGraph(root);
  if (g.node_size() == 0) return false;
  NodeDef* n = g.mutable_node(static_cast<int>(rng.Below(g.node_size())));
  switch (rng.Below(3)) {
    case 0:
      n->set_name("");
      return true;
    case 1:
      n->set_name(g.node(static_cast<int>(rng.Below(g.node_size()))).name());
      return true;
    default:  // names with a port or a control mark in them
      n->set_name(n->name() + (rng.OneIn(2) ? ":1" : "^"));
      return true;
  }
}

bool OpTypes(Message& root, Rng& rng) {
  GraphDef& g = AsGraph(root);
  if (g.node_size() == 0) return false;
  g.mutable_node(static_cast<int>(rng.Below(g.node_size())))->set_op(rng.Pick(kOps));
  return true;
}

void MutateShapeProto(TensorShapeProto* s, Rng& rng) {
  switch (rng.Below(5)) {
    case 0:
      if (s->dim_size()) {
        auto* d = s->mutable_dim(static_cast<int>(rng.Below(s->dim_size())));
        d->set_size(BoundaryInt(rng, d->size()));
        break;
      }
      [[fallthrough]];
    case 1:
      s->add_dim()->set_size(rng.OneIn(2) ? static_cast<int64_t>(rng.Below(4)) : -1);
      break;
    case 2:
      if (s->dim_size()) RemoveAt(s->mutable_dim(), rng.Below(s->dim_size()));
      break;
    case 3:
      s->set_unknown_rank(!s->unknown_rank());
      break;
    default:
      s->clear_dim();
      break;
  }
}

// An attribute value of a random kind.
void FillAttr(AttrValue* v, Message& root, Rng& rng) {
  switch (rng.Below(9)) {
    case 0:
      v->set_i(BoundaryInt(rng, 1));
      break;
    case 1:
      v->set_f(static_cast<float>(BoundaryFloat(rng, 1)));
      break;
    case 2:
      v->set_s(rng.Pick(kStrings));
      break;
    case 3:
      v->set_b(rng.OneIn(2));
      break;
    case 4:
      v->set_type(static_cast<oc_tf::DataType>(rng.Below(26)));
      break;
    case 5:
      MutateShapeProto(v->mutable_shape(), rng);
      break;
    case 6: {
      auto tensors = All<TensorProto>(root);
      if (tensors.empty())
        v->mutable_tensor()->set_dtype(oc_tf::DT_FLOAT);
      else
        v->mutable_tensor()->CopyFrom(TensorProto(*rng.Pick(tensors)));
      break;
    }
    case 7: {
      auto* list = v->mutable_list();
      for (size_t k = rng.Below(5); k > 0; --k)
        list->add_i(rng.OneIn(2) ? static_cast<int64_t>(rng.Below(3)) : BoundaryInt(rng, 1));
      break;
    }
    default:
      v->set_placeholder("T");
      break;
  }
}

bool Attrs(Message& root, Rng& rng) {
  GraphDef& g = AsGraph(root);
  if (g.node_size() == 0) return false;
  NodeDef* n = g.mutable_node(static_cast<int>(rng.Below(g.node_size())));
  auto& attrs = *n->mutable_attr();
  std::vector<std::string> keys;
  for (const auto& [key, value] : attrs) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  switch (rng.Below(4)) {
    case 0:  // an attribute missing
      if (keys.empty()) return false;
      attrs.erase(rng.Pick(keys));
      return true;
    case 1:  // an attribute of another kind
      if (keys.empty()) return false;
      FillAttr(&attrs[rng.Pick(keys)], root, rng);
      return true;
    case 2:  // an attribute more (or one replaced) under a name some op reads
      FillAttr(&attrs[rng.Pick(kAttrKeys)], root, rng);
      return true;
    default:  // a list attribute's value at a boundary, or the list emptied
      return oc::fuzz::MutateIntList(attrs, keys, rng);
  }
}

// tensor_content (and the typed values) against the shape and dtype the tensor claims.
bool Tensors(Message& root, Rng& rng) {
  auto tensors = All<TensorProto>(root);
  if (tensors.empty()) return false;
  TensorProto* t = rng.Pick(tensors);
  switch (rng.Below(7)) {
    case 0:  // content shorter than the shape claims
      if (t->tensor_content().empty()) return false;
      t->mutable_tensor_content()->resize(rng.Below(t->tensor_content().size()));
      return true;
    case 1:  // longer
      t->mutable_tensor_content()->append(1 + rng.Below(64), '\x01');
      return true;
    case 2:
      MutateShapeProto(t->mutable_tensor_shape(), rng);
      return true;
    case 3:
      t->set_dtype(static_cast<oc_tf::DataType>(rng.Below(26)));
      return true;
    case 4:  // one typed value for many elements (TF broadcasts it), or a few more
      for (size_t k = 1 + rng.Below(3); k > 0; --k) {
        if (rng.OneIn(2))
          t->add_float_val(static_cast<float>(BoundaryFloat(rng, 1)));
        else
          t->add_int_val(static_cast<int32_t>(BoundaryInt(rng, 1)));
      }
      if (rng.OneIn(2)) t->clear_tensor_content();
      return true;
    case 5:  // no values at all
      t->clear_tensor_content();
      t->clear_float_val();
      t->clear_int_val();
      t->clear_int64_val();
      t->clear_double_val();
      return true;
    default:  // strings in a tensor
      t->add_string_val(rng.OneIn(2) ? "abc" : "\xff");
      return true;
  }
}

bool Shapes(Message& root, Rng& rng) {
  auto shapes = All<TensorShapeProto>(root);
  if (shapes.empty()) return false;
  MutateShapeProto(rng.Pick(shapes), rng);
  return true;
}

const oc::fuzz::ProtoFormat& Format() {
  static const oc::fuzz::ProtoFormat format{
      &GraphDef::default_instance(),
      {NodeInputs, NodeNames, OpTypes, Attrs, Tensors, Shapes},
      false};
  return format;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  oc::fuzz::SetUpHarness();
  oc::fuzz::QuietProtobuf();
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  if (oc::fuzz::ImportOnly())
    (void)oc::fuzz::ImportInput(oc::fuzz::InputKind::kTensorFlow, bytes);
  else
    oc::fuzz::CheckRoundTrip(oc::fuzz::InputKind::kTensorFlow, bytes);
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
