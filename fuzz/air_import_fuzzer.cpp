// libFuzzer: a MindSpore AIR model (GE ModelDef bytes) through the importer, the compiler
// and the .om writer, then the .om through the loader and one execution (round_trip.h).
//
// Structure-aware: the custom mutator parses the input as a GE ModelDef and changes it with
// proto_mutator.h's generic mutations or the AIR ones below ("op:index" edges and ":-1"
// control edges, GE op types, tensor descriptions, Const data against its description,
// attributes of another kind, Data indices, the graph count, op names).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_util.h"
#include "ge_ir.pb.h"
#include "proto_mutator.h"
#include "round_trip.h"

namespace {

using ge::proto::AttrDef;
using ge::proto::GraphDef;
using ge::proto::ModelDef;
using ge::proto::OpDef;
using ge::proto::TensorDef;
using ge::proto::TensorDescriptor;
using google::protobuf::Message;
using oc::fuzz::All;
using oc::fuzz::BoundaryFloat;
using oc::fuzz::BoundaryInt;
using oc::fuzz::RemoveAt;
using oc::fuzz::Rng;

const std::vector<std::string> kTypes = oc::fuzz::Words(
    "Data Const Constant NetOutput Conv2D DepthwiseConv2D MaxPool AvgPool BiasAdd "
    "BatchNorm MatMul MatMulV2 BatchMatMul Add Sub Mul RealDiv Relu Relu6 Sigmoid "
    "Tanh Softmax SoftmaxV2 ReduceSum ReduceMeanD Reshape Transpose TransposeD "
    "ConcatV2 ConcatD Pad PadD Cast Squeeze Unsqueeze Flatten LayerNorm Gelu GEMM "
    "Identity NoSuchOp ''");
const std::vector<std::string> kAttrKeys = oc::fuzz::Words(
    "index strides pads dilations groups data_format padding axis axes keep_dims "
    "keepdims transpose_x1 transpose_x2 epsilon perm value N alpha begin_norm_axis "
    "ksize kernel_shape to dst_type concat_dim is_training");

ModelDef& AsModel(Message& root) { return static_cast<ModelDef&>(root); }

// The ops of one graph (the first, which the importer reads, most of the time).
GraphDef* SomeGraph(Message& root, Rng& rng) {
  ModelDef& m = AsModel(root);
  if (m.graph_size() == 0) return nullptr;
  return m.mutable_graph(rng.OneIn(4) ? static_cast<int>(rng.Below(m.graph_size())) : 0);
}

bool Edges(Message& root, Rng& rng) {
  GraphDef* g = SomeGraph(root, rng);
  if (!g || g->op_size() == 0) return false;
  const int i = static_cast<int>(rng.Below(g->op_size()));
  OpDef* op = g->mutable_op(i);
  const int k = static_cast<int>(rng.Below(op->input_size()));
  const std::string other = g->op(static_cast<int>(rng.Below(g->op_size()))).name();
  const std::string later = g->op(i + static_cast<int>(rng.Below(g->op_size() - i))).name();
  static const char* const kIndices[] = {":0",  ":1",          ":2",   ":-1", ":-2",
                                         ":99", ":2147483648", ":abc", ":",   ""};
  auto set = [&](const std::string& name) {
    if (op->input_size() == 0)
      op->add_input(name);
    else
      op->set_input(k, name);
  };
  switch (rng.Below(7)) {
    case 0:  // an output index that may not exist, or none
      set(other + rng.Pick(kIndices));
      return true;
    case 1:  // a control edge (":-1") in place of a data edge, or one more
      if (rng.OneIn(2))
        set(other + ":-1");
      else
        op->add_input(other + ":-1");
      return true;
    case 2:  // this op or a later one: a self-loop or a cycle
      set(later + ":0");
      return true;
    case 3:
      set(rng.OneIn(2) ? std::string() : "no_such_op:0");
      return true;
    case 4:  // an edge missing
      if (op->input_size() == 0) return false;
      RemoveAt(op->mutable_input(), k);
      return true;
    case 5:  // an edge more
      op->add_input(other + ":0");
      return true;
    default:
      if (op->input_size() < 2) return false;
      op->mutable_input()->SwapElements(k, (k + 1) % op->input_size());
      return true;
  }
}

bool OpTypesAndNames(Message& root, Rng& rng) {
  GraphDef* g = SomeGraph(root, rng);
  if (!g || g->op_size() == 0) return false;
  OpDef* op = g->mutable_op(static_cast<int>(rng.Below(g->op_size())));
  switch (rng.Below(4)) {
    case 0:
    case 1:
      op->set_type(rng.Pick(kTypes));
      return true;
    case 2:
      op->set_name("");
      return true;
    default:
      op->set_name(g->op(static_cast<int>(rng.Below(g->op_size()))).name());
      return true;
  }
}

void MutateDims(TensorDescriptor* d, Rng& rng) {
  auto* dims = d->mutable_shape()->mutable_dim();
  switch (rng.Below(4)) {
    case 0:
      if (!dims->empty()) {
        const int k = static_cast<int>(rng.Below(dims->size()));
        dims->Set(k, BoundaryInt(rng, dims->Get(k)));
        break;
      }
      [[fallthrough]];
    case 1:
      dims->Add(rng.OneIn(2) ? static_cast<int64_t>(rng.Below(4)) : -1);
      break;
    case 2:
      if (!dims->empty()) RemoveAt(dims, rng.Below(dims->size()));
      break;
    default:
      dims->Clear();
      break;
  }
}

bool Descriptions(Message& root, Rng& rng) {
  auto descs = All<TensorDescriptor>(root);
  if (descs.empty()) return false;
  TensorDescriptor* d = rng.Pick(descs);
  switch (rng.Below(3)) {
    case 0: {
      static const int kDtypes[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 27, 28, 99, -1};
      d->set_dtype(static_cast<ge::proto::DataType>(rng.Pick(kDtypes)));
      return true;
    }
    case 1:
      MutateDims(d, rng);
      return true;
    default: {  // an op's descriptions fewer or more than its edges
      GraphDef* g = SomeGraph(root, rng);
      if (!g || g->op_size() == 0) return false;
      OpDef* op = g->mutable_op(static_cast<int>(rng.Below(g->op_size())));
      auto* list = rng.OneIn(2) ? op->mutable_output_desc() : op->mutable_input_desc();
      if (!list->empty() && rng.OneIn(2))
        RemoveAt(list, rng.Below(list->size()));
      else
        list->Add()->CopyFrom(TensorDescriptor(*d));
      return true;
    }
  }
}

// A constant's bytes against its description.
bool ConstData(Message& root, Rng& rng) {
  auto tensors = All<TensorDef>(root);
  if (tensors.empty()) return false;
  TensorDef* t = rng.Pick(tensors);
  switch (rng.Below(4)) {
    case 0:
      if (t->data().empty()) return false;
      t->mutable_data()->resize(rng.Below(t->data().size()));
      return true;
    case 1:
      t->mutable_data()->append(1 + rng.Below(64), '\x02');
      return true;
    case 2:
      MutateDims(t->mutable_desc(), rng);
      return true;
    default:
      t->clear_data();
      return true;
  }
}

// An attribute value of a random kind.
void FillAttr(AttrDef* a, Message& root, Rng& rng) {
  switch (rng.Below(8)) {
    case 0:
      a->set_i(BoundaryInt(rng, 1));
      break;
    case 1:
      a->set_f(static_cast<float>(BoundaryFloat(rng, 1)));
      break;
    case 2:
      a->set_s(rng.OneIn(2) ? "NCHW" : (rng.OneIn(2) ? "SAME" : ""));
      break;
    case 3:
      a->set_b(rng.OneIn(2));
      break;
    case 4: {
      auto* list = a->mutable_list();
      list->set_val_type(AttrDef::ListValue::VT_LIST_INT);
      for (size_t k = rng.Below(5); k > 0; --k)
        list->add_i(rng.OneIn(2) ? static_cast<int64_t>(rng.Below(3)) : BoundaryInt(rng, 1));
      break;
    }
    case 5: {
      auto tensors = All<TensorDef>(root);
      if (tensors.empty())
        a->mutable_t()->mutable_desc()->set_dtype(ge::proto::DT_FLOAT);
      else
        a->mutable_t()->CopyFrom(TensorDef(*rng.Pick(tensors)));
      break;
    }
    case 6:
      a->set_dt(BoundaryInt(rng, 1));
      break;
    default:
      a->mutable_g()->set_name("g");
      break;
  }
}

bool Attrs(Message& root, Rng& rng) {
  GraphDef* g = SomeGraph(root, rng);
  if (!g || g->op_size() == 0) return false;
  OpDef* op = g->mutable_op(static_cast<int>(rng.Below(g->op_size())));
  auto& attrs = *op->mutable_attr();
  std::vector<std::string> keys;
  for (const auto& [key, value] : attrs) keys.push_back(key);
  std::sort(keys.begin(), keys.end());
  switch (rng.Below(4)) {
    case 0:
      if (keys.empty()) return false;
      attrs.erase(rng.Pick(keys));
      return true;
    case 1:
      if (keys.empty()) return false;
      FillAttr(&attrs[rng.Pick(keys)], root, rng);
      return true;
    case 2:
      FillAttr(&attrs[rng.Pick(kAttrKeys)], root, rng);
      return true;
    default:  // a list's value at a boundary, or the list emptied
      return oc::fuzz::MutateIntList(attrs, keys, rng);
  }
}

// The Data ops' "index": taken twice, out of range, negative, or not an int.
bool DataIndex(Message& root, Rng& rng) {
  GraphDef* g = SomeGraph(root, rng);
  if (!g) return false;
  std::vector<OpDef*> data;
  for (auto& op : *g->mutable_op())
    if (op.type() == "Data") data.push_back(&op);
  if (data.empty()) return false;
  AttrDef& index = (*rng.Pick(data)->mutable_attr())["index"];
  switch (rng.Below(3)) {
    case 0:
      index.set_i(static_cast<int64_t>(rng.Below(data.size() + 1)));
      return true;
    case 1:
      index.set_i(BoundaryInt(rng, 0));
      return true;
    default:
      index.set_s("0");
      return true;
  }
}

// Graphs: one more (a copy), one fewer, the NetOutput gone or twice.
bool Graphs(Message& root, Rng& rng) {
  ModelDef& m = AsModel(root);
  if (m.graph_size() == 0) return false;
  GraphDef* g = m.mutable_graph(0);
  switch (rng.Below(4)) {
    case 0:
      m.add_graph()->CopyFrom(GraphDef(*g));
      return true;
    case 1:
      RemoveAt(m.mutable_graph(), rng.Below(m.graph_size()));
      return true;
    default: {
      for (int k = 0; k < g->op_size(); ++k)
        if (g->op(k).type() == "NetOutput") {
          if (rng.OneIn(2))
            RemoveAt(g->mutable_op(), k);
          else
            g->add_op()->CopyFrom(OpDef(g->op(k)));
          return true;
        }
      return false;
    }
  }
}

const oc::fuzz::ProtoFormat& Format() {
  static const oc::fuzz::ProtoFormat format{
      &ModelDef::default_instance(),
      {Edges, OpTypesAndNames, Descriptions, ConstData, Attrs, DataIndex, Graphs},
      false};
  return format;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  oc::fuzz::SetUpHarness();
  oc::fuzz::QuietProtobuf();
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  if (oc::fuzz::ImportOnly())
    (void)oc::fuzz::ImportInput(oc::fuzz::InputKind::kAir, bytes);
  else
    oc::fuzz::CheckRoundTrip(oc::fuzz::InputKind::kAir, bytes);
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
