#include "frontend/caffe/caffe_importer.h"

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <map>
#include <set>

#include "base/file.h"
#include "frontend/caffe/caffe_builder.h"

namespace oc {
namespace {

using caffe_import::Builder;
using caffe_import::Converters;
using caffe_import::Weights;
using frontend::Invalid;
using oc_caffe::LayerParameter;
using oc_caffe::NetParameter;
using oc_caffe::V1LayerParameter;

// The V1 enum's layer types under their V2 names.
std::string V1TypeName(V1LayerParameter::LayerType t) {
  static const std::map<int, const char*> names = {
      {V1LayerParameter::ABSVAL, "AbsVal"},
      {V1LayerParameter::ARGMAX, "ArgMax"},
      {V1LayerParameter::BNLL, "BNLL"},
      {V1LayerParameter::CONCAT, "Concat"},
      {V1LayerParameter::CONVOLUTION, "Convolution"},
      {V1LayerParameter::DECONVOLUTION, "Deconvolution"},
      {V1LayerParameter::DROPOUT, "Dropout"},
      {V1LayerParameter::ELTWISE, "Eltwise"},
      {V1LayerParameter::EXP, "Exp"},
      {V1LayerParameter::FLATTEN, "Flatten"},
      {V1LayerParameter::INNER_PRODUCT, "InnerProduct"},
      {V1LayerParameter::LRN, "LRN"},
      {V1LayerParameter::POOLING, "Pooling"},
      {V1LayerParameter::POWER, "Power"},
      {V1LayerParameter::RELU, "ReLU"},
      {V1LayerParameter::SIGMOID, "Sigmoid"},
      {V1LayerParameter::SILENCE, "Silence"},
      {V1LayerParameter::SOFTMAX, "Softmax"},
      {V1LayerParameter::SPLIT, "Split"},
      {V1LayerParameter::SLICE, "Slice"},
      {V1LayerParameter::TANH, "TanH"},
      {V1LayerParameter::THRESHOLD, "Threshold"},
  };
  auto it = names.find(t);
  return it != names.end() ? it->second : V1LayerParameter::LayerType_Name(t);
}

// A V1 layer as the V2 message (the parameter messages are the same types).
LayerParameter Upgrade(const V1LayerParameter& v1) {
  LayerParameter l;
  l.set_name(v1.name());
  l.set_type(V1TypeName(v1.type()));
  *l.mutable_bottom() = v1.bottom();
  *l.mutable_top() = v1.top();
  *l.mutable_blobs() = v1.blobs();
  *l.mutable_include() = v1.include();
  *l.mutable_exclude() = v1.exclude();
  if (v1.has_argmax_param()) *l.mutable_argmax_param() = v1.argmax_param();
  if (v1.has_concat_param()) *l.mutable_concat_param() = v1.concat_param();
  if (v1.has_convolution_param()) *l.mutable_convolution_param() = v1.convolution_param();
  if (v1.has_dropout_param()) *l.mutable_dropout_param() = v1.dropout_param();
  if (v1.has_eltwise_param()) *l.mutable_eltwise_param() = v1.eltwise_param();
  if (v1.has_exp_param()) *l.mutable_exp_param() = v1.exp_param();
  if (v1.has_inner_product_param()) *l.mutable_inner_product_param() = v1.inner_product_param();
  if (v1.has_lrn_param()) *l.mutable_lrn_param() = v1.lrn_param();
  if (v1.has_pooling_param()) *l.mutable_pooling_param() = v1.pooling_param();
  if (v1.has_power_param()) *l.mutable_power_param() = v1.power_param();
  if (v1.has_relu_param()) *l.mutable_relu_param() = v1.relu_param();
  if (v1.has_softmax_param()) *l.mutable_softmax_param() = v1.softmax_param();
  if (v1.has_slice_param()) *l.mutable_slice_param() = v1.slice_param();
  if (v1.has_threshold_param()) *l.mutable_threshold_param() = v1.threshold_param();
  return l;
}

std::vector<LayerParameter> Layers(const NetParameter& net) {
  std::vector<LayerParameter> out(net.layer().begin(), net.layer().end());
  for (const auto& v1 : net.layers()) out.push_back(Upgrade(v1));
  return out;
}

// Whether a rule holds in the deploy state (phase TEST, level 0, no stages).
bool RuleHolds(const oc_caffe::NetStateRule& r) {
  if (r.has_phase() && r.phase() != oc_caffe::TEST) return false;
  if (r.has_min_level() && r.min_level() > 0) return false;
  if (r.has_max_level() && r.max_level() < 0) return false;
  return r.stage_size() == 0;  // the deploy state has no stages
}

bool InTestPhase(const LayerParameter& l) {
  if (l.has_phase() && l.phase() != oc_caffe::TEST) return false;
  if (l.include_size() > 0) {
    for (const auto& r : l.include())
      if (RuleHolds(r)) return true;
    return false;
  }
  for (const auto& r : l.exclude())
    if (RuleHolds(r)) return false;
  return true;
}

Result<NetParameter> ParsePrototxt(const std::string& text, const std::string& path) {
  NetParameter net;
  google::protobuf::TextFormat::Parser parser;
  // Fields of Caffe forks and training-only settings: skipped, the layer type decides.
  parser.AllowUnknownField(true);
  parser.AllowUnknownExtension(true);
  // Nesting deeper than any net needs would otherwise recurse off the stack.
  parser.SetRecursionLimit(64);
  struct Collector : google::protobuf::io::ErrorCollector {
    std::string first;
    void AddError(int line, int column, const std::string& message) override {
      if (first.empty())
        first = "line " + std::to_string(line + 1) + ", column " + std::to_string(column + 1) +
                ": " + message;
    }
    void AddWarning(int, int, const std::string&) override {}
  } errors;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(text, &net))
    return Invalid("the model file [" + path + "] is not a Caffe prototxt: " + errors.first);
  return net;
}

Result<NetParameter> ParseCaffemodel(const std::string& bytes, const std::string& path) {
  NetParameter net;
  if (!frontend::ParseBinaryProto(bytes, net))
    return Invalid("the weight file [" + path + "] is not a Caffe .caffemodel (NetParameter)");
  return net;
}

// Graph inputs: the net's `input` fields or its Input layers.
Status AddInput(Builder& b, const std::string& name, const oc_caffe::BlobShape* shape) {
  // The input's name is its value's name in the graph, where "" marks an omitted input: a
  // layer reading it would reach shape inference with no input at all.
  if (name.empty()) return Invalid("the net declares an input with no name");
  if (b.HasBlob(name)) return Invalid("the net declares the input [" + name + "] twice");
  ValueInfo vi;
  vi.dtype = DataType::kFloat;
  if (shape) {
    vi.has_shape = true;
    for (int64_t d : shape->dim()) {
      if (d < -1) return Invalid("input [" + name + "] has the dim " + std::to_string(d));
      vi.shape.push_back(d);
    }
  }
  b.graph().values[name] = vi;
  b.graph().inputs.push_back(name);
  b.SetTop(name, name);
  return Status::Ok();
}

Status NetInputs(const NetParameter& net, Builder& b) {
  if (net.input_dim_size() > 0 && net.input_dim_size() != 4 * net.input_size())
    return Invalid("the net has " + std::to_string(net.input_dim_size()) +
                   " input_dim values for " + std::to_string(net.input_size()) +
                   " inputs (4 each)");
  if (net.input_shape_size() > 0 && net.input_shape_size() != net.input_size())
    return Invalid("the net has " + std::to_string(net.input_shape_size()) +
                   " input_shape entries for " + std::to_string(net.input_size()) + " inputs");
  for (int i = 0; i < net.input_size(); ++i) {
    oc_caffe::BlobShape shape;
    const oc_caffe::BlobShape* s = nullptr;
    if (net.input_shape_size() > 0) {
      s = &net.input_shape(i);
    } else if (net.input_dim_size() > 0) {
      for (int k = 0; k < 4; ++k) shape.add_dim(net.input_dim(4 * i + k));
      s = &shape;
    }
    OC_RETURN_IF_ERROR(AddInput(b, net.input(i), s));
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<OpSurvey>> SurveyCaffe(const std::string& prototxt) {
  OC_ASSIGN_OR_RETURN(std::string text, ReadFile(prototxt));
  OC_ASSIGN_OR_RETURN(NetParameter net, ParsePrototxt(text, prototxt));
  std::vector<OpSurvey> out;
  for (const auto& l : Layers(net)) {
    if (InTestPhase(l)) out.push_back(Converters().Survey(l.name(), l.type()));
  }
  return out;
}

Result<Graph> ImportCaffe(const std::string& prototxt, const std::string& caffemodel) {
  OC_ASSIGN_OR_RETURN(std::string text, ReadFile(prototxt));
  std::string bytes;
  if (!caffemodel.empty()) {
    auto read = ReadFile(caffemodel);
    if (!read.ok()) return Invalid("the weight file [" + caffemodel + "] cannot be read");
    bytes = std::move(read).value();
  }
  return ImportCaffeBuffers(text, bytes, prototxt);
}

Result<Graph> ImportCaffeBuffers(const std::string& text, const std::string& bytes,
                                 const std::string& prototxt) {
  OC_ASSIGN_OR_RETURN(NetParameter net, ParsePrototxt(text, prototxt));
  NetParameter trained;
  if (!bytes.empty()) {
    OC_ASSIGN_OR_RETURN(trained, ParseCaffemodel(bytes, "weights of " + prototxt));
  }
  // Weights by layer name; a prototxt's own blobs count when the .caffemodel has none.
  std::map<std::string, const google::protobuf::RepeatedPtrField<oc_caffe::BlobProto>*>
      trained_blobs;
  const std::vector<LayerParameter> trained_layers = Layers(trained);
  for (const auto& l : trained_layers)
    if (l.blobs_size() > 0) trained_blobs[l.name()] = &l.blobs();

  Builder b;
  b.graph().name = net.name().empty() ? "caffe_net" : net.name();
  b.graph().opset_version = 13;
  OC_RETURN_IF_ERROR(NetInputs(net, b));
  const std::vector<LayerParameter> layers = Layers(net);
  if (layers.empty()) return Invalid("the net [" + prototxt + "] has no layers");
  std::set<std::string> names, node_names;
  for (const auto& l : layers) {
    if (!InTestPhase(l)) continue;
    if (l.name().empty()) return Invalid("a layer of type [" + l.type() + "] has no name");
    if (!names.insert(l.name()).second) return Invalid("two layers are named [" + l.name() + "]");
    if (l.type() == "Input") {
      const auto& p = l.input_param();
      if (p.shape_size() > 1 && p.shape_size() != l.top_size())
        return Invalid("Input layer [" + l.name() + "] has " + std::to_string(p.shape_size()) +
                       " shapes for " + std::to_string(l.top_size()) + " tops");
      for (int i = 0; i < l.top_size(); ++i)
        OC_RETURN_IF_ERROR(AddInput(b, l.top(i),
                                    p.shape_size() == 0   ? nullptr
                                    : p.shape_size() == 1 ? &p.shape(0)
                                                          : &p.shape(i)));
      continue;
    }
    OC_ASSIGN_OR_RETURN(auto convert, Converters().Lookup(l.name(), l.type()));
    Weights w;
    const auto it = trained_blobs.find(l.name());
    const auto& blobs = it != trained_blobs.end() ? *it->second : l.blobs();
    for (int i = 0; i < blobs.size(); ++i) {
      auto t = caffe_import::BlobToTensor(
          blobs[i], "blob " + std::to_string(i) + " of layer [" + l.name() + "]");
      if (!t.ok()) return Invalid(t.status().message());
      w.blobs.push_back(std::move(t).value());
    }
    const size_t first_node = b.graph().nodes.size();
    Status s = convert(l, w, b);
    if (!s.ok()) {
      if (!s.cann_code().empty()) return s;
      return Status(s.code(), s.message(), "E19005");
    }
    NameAfterSource(b.graph(), first_node, l.top_size() > 0 ? b.Current(l.top(0)) : std::string(),
                    l.name(), node_names);
  }
  // The net's outputs: what no layer reads.
  Graph& g = b.graph();
  std::set<std::string> read;
  for (const auto& n : g.nodes)
    for (const auto& in : n.inputs) read.insert(in);
  for (const auto& n : g.nodes)
    for (const auto& out : n.outputs)
      if (!read.count(out)) g.outputs.push_back(out);
  if (g.outputs.empty()) return Invalid("the net [" + prototxt + "] computes nothing");
  b.ForgetInferredValues();
  g.metadata["producer_name"] = "caffe";
  return std::move(g);
}

}  // namespace oc
