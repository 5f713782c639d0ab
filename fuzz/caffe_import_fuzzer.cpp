// libFuzzer: a Caffe prototxt and .caffemodel (the input split at the first "\n#WEIGHTS\n"
// line: text before, binary after) through the importer, the compiler and the .om writer,
// then the .om through the loader and one execution (round_trip.h).
//
// Structure-aware: the custom mutator parses the prototxt (text format) and the .caffemodel
// (wire format) as NetParameter and changes one of them: generic mutations
// (proto_mutator.h) or the Caffe ones below (bottoms and tops, layer types, blob shapes
// against their data, blob counts, net inputs), for "layer" and V1 "layers" alike.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "caffe.pb.h"
#include "fuzz_util.h"
#include "proto_mutator.h"
#include "round_trip.h"

namespace {

using google::protobuf::Message;
using oc::fuzz::All;
using oc::fuzz::BoundaryFloat;
using oc::fuzz::BoundaryInt;
using oc::fuzz::RemoveAt;
using oc::fuzz::Rng;
using oc_caffe::BlobProto;
using oc_caffe::BlobShape;
using oc_caffe::LayerParameter;
using oc_caffe::NetParameter;
using oc_caffe::V1LayerParameter;

const std::vector<std::string> kTypes = oc::fuzz::Words(
    "Input Convolution Deconvolution InnerProduct Pooling ReLU Sigmoid TanH "
    "Softmax Concat Eltwise BatchNorm Scale Bias Flatten Reshape Slice Split "
    "Dropout LRN Permute PriorBox DetectionOutput Normalize Upsample Interp Crop "
    "Power Exp Log PReLU ELU ArgMax Reduction Tile Threshold AbsVal BNLL Silence "
    "NoSuchLayer '' convolution Data");

NetParameter& AsNet(Message& root) { return static_cast<NetParameter&>(root); }

// Every blob name the net has: inputs and the tops of every layer.
std::vector<std::string> Blobs(NetParameter& net) {
  std::vector<std::string> out(net.input().begin(), net.input().end());
  for (const auto& l : net.layer()) out.insert(out.end(), l.top().begin(), l.top().end());
  for (const auto& l : net.layers()) out.insert(out.end(), l.top().begin(), l.top().end());
  return out;
}

// Bottoms and tops of the i-th of `layers`, a later layer's tops naming a cycle.
template <typename Layer>
bool Wiring(google::protobuf::RepeatedPtrField<Layer>& layers, NetParameter& net, Rng& rng) {
  if (layers.empty()) return false;
  const int i = static_cast<int>(rng.Below(layers.size()));
  Layer& l = layers[i];
  const auto blobs = Blobs(net);
  const int b = static_cast<int>(rng.Below(l.bottom_size()));
  const int t = static_cast<int>(rng.Below(l.top_size()));
  auto set_bottom = [&](const std::string& name) {
    if (l.bottom_size() == 0)
      l.add_bottom(name);
    else
      l.set_bottom(b, name);
  };
  switch (rng.Below(8)) {
    case 0:
      set_bottom("");
      return true;
    case 1: {  // a later layer's top: read before it exists, or a cycle
      const Layer& later = layers[i + static_cast<int>(rng.Below(layers.size() - i))];
      if (later.top_size() == 0) return false;
      set_bottom(later.top(static_cast<int>(rng.Below(later.top_size()))));
      return true;
    }
    case 2:
      set_bottom("no_such_blob");
      return true;
    case 3:  // a bottom missing or one more
      if (l.bottom_size() && rng.OneIn(2))
        RemoveAt(l.mutable_bottom(), b);
      else
        l.add_bottom(blobs.empty() ? "data" : rng.Pick(blobs));
      return true;
    case 4:  // a top missing or one more
      if (l.top_size() && rng.OneIn(2))
        RemoveAt(l.mutable_top(), t);
      else
        l.add_top(rng.OneIn(2) || blobs.empty() ? "fz" + std::to_string(rng.Below(100))
                                                : rng.Pick(blobs));
      return true;
    case 5:  // a top named after an existing blob (in place, or made twice)
      if (l.top_size() == 0 || blobs.empty()) return false;
      l.set_top(t, rng.Pick(blobs));
      return true;
    case 6:  // a top renamed: its readers lose it
      if (l.top_size() == 0) return false;
      l.set_top(t, rng.OneIn(3) ? std::string() : "renamed");
      return true;
    default: {  // a name empty or taken
      const Layer& other = layers[static_cast<int>(rng.Below(layers.size()))];
      l.set_name(rng.OneIn(3) ? std::string() : other.name());
      return true;
    }
  }
}

bool LayerWiring(Message& root, Rng& rng) {
  NetParameter& net = AsNet(root);
  if (net.layers_size() && (net.layer_size() == 0 || rng.OneIn(2)))
    return Wiring(*net.mutable_layers(), net, rng);
  return Wiring(*net.mutable_layer(), net, rng);
}

bool LayerTypes(Message& root, Rng& rng) {
  NetParameter& net = AsNet(root);
  if (net.layer_size()) {
    net.mutable_layer(static_cast<int>(rng.Below(net.layer_size())))->set_type(rng.Pick(kTypes));
    return true;
  }
  if (net.layers_size()) {
    const auto* e = V1LayerParameter::LayerType_descriptor();
    net.mutable_layers(static_cast<int>(rng.Below(net.layers_size())))
        ->set_type(static_cast<V1LayerParameter::LayerType>(
            e->value(static_cast<int>(rng.Below(e->value_count())))->number()));
    return true;
  }
  return false;
}

void MutateShape(BlobShape* s, Rng& rng) {
  switch (rng.Below(4)) {
    case 0:
      if (s->dim_size()) {
        const int d = static_cast<int>(rng.Below(s->dim_size()));
        s->set_dim(d, BoundaryInt(rng, s->dim(d)));
        break;
      }
      [[fallthrough]];
    case 1:
      s->add_dim(rng.OneIn(2) ? static_cast<int64_t>(rng.Below(4)) : BoundaryInt(rng, 1));
      break;
    case 2:
      if (s->dim_size()) RemoveAt(s->mutable_dim(), rng.Below(s->dim_size()));
      break;
    default:
      s->clear_dim();
      break;
  }
}

// A blob's shape against its data: dims changed, the legacy 4-D fields, fewer or more
// values, doubles instead of floats.
bool BlobData(Message& root, Rng& rng) {
  auto blobs = All<BlobProto>(root);
  if (blobs.empty()) return false;
  BlobProto* b = rng.Pick(blobs);
  switch (rng.Below(6)) {
    case 0:
      MutateShape(b->mutable_shape(), rng);
      return true;
    case 1: {  // the legacy num/channels/height/width, with or without a shape
      if (rng.OneIn(2)) b->clear_shape();
      const int32_t v = static_cast<int32_t>(BoundaryInt(rng, 1));
      switch (rng.Below(4)) {
        case 0:
          b->set_num(v);
          break;
        case 1:
          b->set_channels(v);
          break;
        case 2:
          b->set_height(v);
          break;
        default:
          b->set_width(v);
          break;
      }
      return true;
    }
    case 2:  // fewer values than the shape claims
      if (b->data_size() == 0) return false;
      b->mutable_data()->Truncate(static_cast<int>(rng.Below(b->data_size())));
      return true;
    case 3:  // more
      for (size_t k = 1 + rng.Below(8); k > 0; --k)
        b->add_data(static_cast<float>(BoundaryFloat(rng)));
      return true;
    case 4:  // as doubles, sometimes beside the floats
      for (float v : b->data()) b->add_double_data(v);
      if (!rng.OneIn(3)) b->clear_data();
      return true;
    default:  // one value NaN, infinite or huge
      if (b->data_size() == 0) return false;
      b->set_data(static_cast<int>(rng.Below(b->data_size())),
                  static_cast<float>(BoundaryFloat(rng, 1)));
      return true;
  }
}

// How many blobs a layer has: one missing, one more (another layer's), two swapped.
template <typename Layer>
bool BlobCount(Layer& l, NetParameter& net, Rng& rng) {
  switch (rng.Below(3)) {
    case 0:
      if (l.blobs_size() == 0) return false;
      RemoveAt(l.mutable_blobs(), rng.Below(l.blobs_size()));
      return true;
    case 1: {
      auto blobs = All<BlobProto>(net);
      if (blobs.empty()) return false;
      l.add_blobs()->CopyFrom(BlobProto(*rng.Pick(blobs)));
      return true;
    }
    default:
      if (l.blobs_size() < 2) return false;
      l.mutable_blobs()->SwapElements(0, l.blobs_size() - 1);
      return true;
  }
}

bool LayerBlobs(Message& root, Rng& rng) {
  NetParameter& net = AsNet(root);
  if (net.layer_size())
    return BlobCount(*net.mutable_layer(static_cast<int>(rng.Below(net.layer_size()))), net, rng);
  if (net.layers_size())
    return BlobCount(*net.mutable_layers(static_cast<int>(rng.Below(net.layers_size()))), net, rng);
  return false;
}

// The net's inputs: input_dim, input_shape, Input layers' shapes, input names.
bool NetInputs(Message& root, Rng& rng) {
  NetParameter& net = AsNet(root);
  switch (rng.Below(4)) {
    case 0: {
      if (net.input_dim_size() && !rng.OneIn(4)) {
        const int d = static_cast<int>(rng.Below(net.input_dim_size()));
        net.set_input_dim(d, static_cast<int32_t>(BoundaryInt(rng, net.input_dim(d))));
      } else if (net.input_dim_size() && rng.OneIn(2)) {
        net.mutable_input_dim()->RemoveLast();
      } else {
        net.add_input_dim(static_cast<int32_t>(rng.Below(4)));
      }
      return true;
    }
    case 1: {  // a shape (net input_shape, an Input layer's, a blob's)
      auto shapes = All<BlobShape>(root);
      if (shapes.empty()) return false;
      MutateShape(rng.Pick(shapes), rng);
      return true;
    }
    case 2:  // an input twice, empty, or one more without dims
      if (net.input_size() && rng.OneIn(2))
        net.add_input(net.input(static_cast<int>(rng.Below(net.input_size()))));
      else if (net.input_size() && rng.OneIn(2))
        net.set_input(static_cast<int>(rng.Below(net.input_size())), "");
      else
        net.add_input("extra");
      return true;
    default:  // shapes beside input_dim, or neither
      if (rng.OneIn(2)) {
        net.clear_input_dim();
        net.clear_input_shape();
      } else {
        net.add_input_shape()->add_dim(1);
      }
      return true;
  }
}

const oc::fuzz::ProtoFormat& TextFormat() {
  static const oc::fuzz::ProtoFormat format{
      &NetParameter::default_instance(),
      {LayerWiring, LayerTypes, BlobData, LayerBlobs, NetInputs},
      true};
  return format;
}

const oc::fuzz::ProtoFormat& WeightsFormat() {
  static const oc::fuzz::ProtoFormat format{
      &NetParameter::default_instance(), {LayerWiring, BlobData, LayerBlobs}, false};
  return format;
}

// The input's two parts (weights empty when the separator is missing).
struct Parts {
  std::string text, weights;
  bool has_weights = false;
};
Parts Split(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  Parts p;
  const size_t at = input.find(oc::fuzz::kCaffeWeightsSeparator);
  p.text = input.substr(0, at);
  if (at != std::string::npos) {
    p.has_weights = true;
    p.weights = input.substr(at + std::strlen(oc::fuzz::kCaffeWeightsSeparator));
  }
  return p;
}
std::string Join(const Parts& p) {
  return p.has_weights ? p.text + oc::fuzz::kCaffeWeightsSeparator + p.weights : p.text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  oc::fuzz::SetUpHarness();
  oc::fuzz::QuietProtobuf();
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  if (oc::fuzz::ImportOnly())
    (void)oc::fuzz::ImportInput(oc::fuzz::InputKind::kCaffeJoined, bytes);
  else
    oc::fuzz::CheckRoundTrip(oc::fuzz::InputKind::kCaffeJoined, bytes);
  return 0;
}

// The prototxt two times in three, the .caffemodel otherwise (when there is one); a part
// that does not parse, or a change that does not fit, falls back to LLVMFuzzerMutate.
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  oc::fuzz::QuietProtobuf();
  Rng rng(seed);
  if (!rng.OneIn(10)) {
    const std::string original(reinterpret_cast<const char*>(data), size);
    Parts parts = Split(data, size);
    const bool weights = parts.has_weights && !parts.weights.empty() && rng.OneIn(3);
    for (int attempt = 0; attempt < 4; ++attempt) {
      std::string changed;
      if (!oc::fuzz::MutateSerialized(weights ? WeightsFormat() : TextFormat(),
                                      weights ? parts.weights : parts.text, &changed, rng))
        break;
      Parts out = parts;
      (weights ? out.weights : out.text) = changed;
      const std::string joined = Join(out);
      if (joined.size() > max_size || joined == original) continue;
      std::memcpy(data, joined.data(), joined.size());
      return joined.size();
    }
  }
  return LLVMFuzzerMutate(data, size, max_size);
}

// The prototext of one input with a part of the other's net, the weights kept.
extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1,
                                            const uint8_t* data2, size_t size2, uint8_t* out,
                                            size_t max_out_size, unsigned int seed) {
  oc::fuzz::QuietProtobuf();
  Rng rng(seed);
  Parts a = Split(data1, size1), b = Split(data2, size2);
  NetParameter na, nb;
  if (oc::fuzz::ParseAs(TextFormat(), a.text, na) && oc::fuzz::ParseAs(TextFormat(), b.text, nb) &&
      oc::fuzz::CrossOverGeneric(na, nb, rng)) {
    std::string text;
    if (oc::fuzz::SerializeAs(TextFormat(), na, &text)) {
      a.text = text;
      const std::string joined = Join(a);
      if (joined.size() <= max_out_size) {
        std::memcpy(out, joined.data(), joined.size());
        return joined.size();
      }
    }
  }
  return oc::fuzz::SpliceBytes(data1, size1, data2, size2, out, max_out_size, rng);
}
