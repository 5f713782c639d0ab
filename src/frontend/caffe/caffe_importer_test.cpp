// Unit tests of the Caffe frontend (caffe_importer.h): small nets built in the test with the
// project's caffe.proto classes (oc_caffe::NetParameter), written as a prototxt and a
// .caffemodel, imported into the IR and checked node by node (ops, wiring, attributes,
// weights); V1 nets, deploy-phase filtering, the survey, and malformed inputs refused with
// CANN's codes (E19005 malformed, E19010 unsupported).
#include "frontend/caffe/caffe_importer.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "caffe.pb.h"
#include "frontend/caffe/caffe_frontend.h"
#include "frontend/importer_test_util.h"

namespace oc {
namespace {

using testing::ExpectRefused;
using testing::OpTypes;

using oc_caffe::BlobProto;
using oc_caffe::LayerParameter;
using oc_caffe::NetParameter;

// A blob of `dims` holding start, start + 1, ... (as floats).
void FillBlob(BlobProto* b, const std::vector<int64_t>& dims, float start) {
  int64_t n = 1;
  for (int64_t d : dims) {
    b->mutable_shape()->add_dim(d);
    n *= d;
  }
  for (int64_t i = 0; i < n; ++i) b->add_data(start + static_cast<float>(i));
}

LayerParameter* AddLayer(NetParameter* net, const std::string& name, const std::string& type,
                         const std::vector<std::string>& bottoms, const std::string& top) {
  LayerParameter* l = net->add_layer();
  l->set_name(name);
  l->set_type(type);
  for (const auto& b : bottoms) l->add_bottom(b);
  if (!top.empty()) l->add_top(top);
  return l;
}

// data [1,3,4,4] -> conv1 (2 filters 3x3, pad 1) -> relu1 (in place) -> pool1 (max 2x2/2)
// -> fc (5 outputs) -> prob (softmax). Layers only: the weights are in Weights().
NetParameter Deploy() {
  NetParameter net;
  net.set_name("tiny");
  auto* data = AddLayer(&net, "data", "Input", {}, "data");
  auto* shape = data->mutable_input_param()->add_shape();
  for (int64_t d : {1, 3, 4, 4}) shape->add_dim(d);
  auto* conv = AddLayer(&net, "conv1", "Convolution", {"data"}, "conv1");
  conv->mutable_convolution_param()->set_num_output(2);
  conv->mutable_convolution_param()->add_kernel_size(3);
  conv->mutable_convolution_param()->add_pad(1);
  AddLayer(&net, "relu1", "ReLU", {"conv1"}, "conv1");
  auto* pool = AddLayer(&net, "pool1", "Pooling", {"conv1"}, "pool1");
  pool->mutable_pooling_param()->set_pool(oc_caffe::PoolingParameter::MAX);
  pool->mutable_pooling_param()->set_kernel_size(2);
  pool->mutable_pooling_param()->set_stride(2);
  AddLayer(&net, "fc", "InnerProduct", {"pool1"}, "fc")
      ->mutable_inner_product_param()
      ->set_num_output(5);
  AddLayer(&net, "prob", "Softmax", {"fc"}, "prob");
  return net;
}

// The trained net: the same layers' blobs (a .caffemodel names layers, no shapes needed).
NetParameter Weights() {
  NetParameter net;
  auto* conv = AddLayer(&net, "conv1", "Convolution", {}, "");
  FillBlob(conv->add_blobs(), {2, 3, 3, 3}, 0.0f);
  FillBlob(conv->add_blobs(), {2}, 100.0f);
  auto* fc = AddLayer(&net, "fc", "InnerProduct", {}, "");
  FillBlob(fc->add_blobs(), {5, 8}, -20.0f);
  FillBlob(fc->add_blobs(), {5}, 7.0f);
  return net;
}

std::string Text(const NetParameter& net) {
  std::string out;
  EXPECT_TRUE(google::protobuf::TextFormat::PrintToString(net, &out));
  return out;
}

Result<Graph> Import(const NetParameter& deploy, const NetParameter* weights = nullptr) {
  return ImportCaffeBuffers(Text(deploy), weights ? weights->SerializeAsString() : "",
                            "tiny.prototxt");
}

void ExpectRefused(const Result<Graph>& r, const std::string& code, const std::string& part) {
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().cann_code(), code) << r.status().ToString();
  EXPECT_NE(r.status().message().find(part), std::string::npos) << r.status().message();
}

TEST(CaffeImporter, ImportsTheTinyNetNodeByNode) {
  const NetParameter w = Weights();
  auto r = Import(Deploy(), &w);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Graph& g = r.value();
  EXPECT_EQ(g.name, "tiny");
  EXPECT_EQ(g.metadata.at("producer_name"), "caffe");
  ASSERT_EQ(g.inputs, std::vector<std::string>{"data"});
  const ValueInfo* in = g.FindValue("data");
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->dtype, DataType::kFloat);
  EXPECT_EQ(in->shape, (Shape{1, 3, 4, 4}));
  ASSERT_EQ(OpTypes(g),
            (std::vector<std::string>{"Conv", "Relu", "MaxPool", "Reshape", "Gemm", "Softmax"}));

  const Node& conv = g.nodes[0];
  ASSERT_EQ(conv.inputs.size(), 3u);
  EXPECT_EQ(conv.inputs[0], "data");
  EXPECT_EQ(conv.attrs.GetInts("kernel_shape"), (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(conv.attrs.GetInts("strides"), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(conv.attrs.GetInts("pads"), (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(conv.attrs.GetInts("dilations"), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(conv.attrs.GetInt("group", -1), 1);
  const Tensor* cw = g.FindInitializer(conv.inputs[1]);
  const Tensor* cb = g.FindInitializer(conv.inputs[2]);
  ASSERT_NE(cw, nullptr);
  ASSERT_NE(cb, nullptr);
  EXPECT_EQ(cw->shape(), (Shape{2, 3, 3, 3}));
  EXPECT_FLOAT_EQ(cw->data_as<float>()[0], 0.0f);
  EXPECT_FLOAT_EQ(cw->data_as<float>()[53], 53.0f);
  EXPECT_EQ(cb->shape(), (Shape{2}));
  EXPECT_FLOAT_EQ(cb->data_as<float>()[1], 101.0f);

  // The in-place ReLU reads the convolution and everything after reads the ReLU.
  const Node& relu = g.nodes[1];
  EXPECT_EQ(relu.inputs, std::vector<std::string>{conv.outputs[0]});
  const Node& pool = g.nodes[2];
  EXPECT_EQ(pool.inputs, std::vector<std::string>{relu.outputs[0]});
  EXPECT_EQ(pool.attrs.GetInts("kernel_shape"), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(pool.attrs.GetInts("strides"), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(pool.attrs.GetInts("pads"), (std::vector<int64_t>{0, 0, 0, 0}));
  EXPECT_EQ(pool.attrs.GetInt("ceil_mode", -1), 1);  // Caffe rounds up by default
  EXPECT_FALSE(pool.attrs.Has("dilations"));

  // InnerProduct: everything from axis 1 is one vector, then Gemm against [5, 8].
  const Node& flat = g.nodes[3];
  EXPECT_EQ(flat.inputs[0], pool.outputs[0]);
  const Tensor* spec = g.FindInitializer(flat.inputs[1]);
  ASSERT_NE(spec, nullptr);
  EXPECT_EQ(spec->ToInt64Vector(), (std::vector<int64_t>{0, -1}));
  const Node& gemm = g.nodes[4];
  ASSERT_EQ(gemm.inputs.size(), 3u);
  EXPECT_EQ(gemm.inputs[0], flat.outputs[0]);
  EXPECT_EQ(gemm.attrs.GetInt("transB", -1), 1);
  const Tensor* fw = g.FindInitializer(gemm.inputs[1]);
  ASSERT_NE(fw, nullptr);
  EXPECT_EQ(fw->shape(), (Shape{5, 8}));
  EXPECT_FLOAT_EQ(fw->data_as<float>()[39], 19.0f);
  const Tensor* fb = g.FindInitializer(gemm.inputs[2]);
  ASSERT_NE(fb, nullptr);
  EXPECT_FLOAT_EQ(fb->data_as<float>()[4], 11.0f);

  const Node& prob = g.nodes[5];
  EXPECT_EQ(prob.inputs, std::vector<std::string>{gemm.outputs[0]});
  EXPECT_EQ(prob.attrs.GetInt("axis", -1), 1);
  EXPECT_EQ(g.outputs, prob.outputs);
  EXPECT_TRUE(g.Verify().ok());
}

TEST(CaffeImporter, BlobsInThePrototxtServeWhenThereIsNoCaffemodel) {
  NetParameter net;
  net.add_input("x");
  for (int64_t d : {1, 4}) net.add_input_dim(d);
  for (int64_t d : {1, 1}) net.add_input_dim(d);
  auto* fc = AddLayer(&net, "fc", "InnerProduct", {"x"}, "y");
  fc->mutable_inner_product_param()->set_num_output(2);
  fc->mutable_inner_product_param()->set_bias_term(false);
  FillBlob(fc->add_blobs(), {2, 4}, 1.0f);
  auto r = Import(net);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Graph& g = r.value();
  EXPECT_EQ(g.FindValue("x")->shape, (Shape{1, 4, 1, 1}));
  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"Reshape", "Gemm"}));
  ASSERT_EQ(g.nodes[1].inputs.size(), 2u);  // no bias
  const Tensor* w = g.FindInitializer(g.nodes[1].inputs[1]);
  ASSERT_NE(w, nullptr);
  EXPECT_FLOAT_EQ(w->data_as<float>()[7], 8.0f);
}

TEST(CaffeImporter, CaffemodelBlobsWinOverPrototxtBlobs) {
  NetParameter net = Deploy();
  FillBlob(net.mutable_layer(1)->add_blobs(), {2, 3, 3, 3}, 1000.0f);  // stale conv1 blobs
  FillBlob(net.mutable_layer(1)->add_blobs(), {2}, 1000.0f);
  const NetParameter w = Weights();
  auto r = Import(net, &w);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Tensor* cw = r->FindInitializer(r->nodes[0].inputs[1]);
  ASSERT_NE(cw, nullptr);
  EXPECT_FLOAT_EQ(cw->data_as<float>()[0], 0.0f);
}

TEST(CaffeImporter, V1NetIsUpgraded) {
  NetParameter net;
  net.add_input("data");
  for (int64_t d : {1, 1, 2, 2}) net.add_input_dim(d);
  auto* sig = net.add_layers();
  sig->set_name("sig");
  sig->set_type(oc_caffe::V1LayerParameter::SIGMOID);
  sig->add_bottom("data");
  sig->add_top("s");
  auto* relu = net.add_layers();
  relu->set_name("relu");
  relu->set_type(oc_caffe::V1LayerParameter::RELU);
  relu->add_bottom("s");
  relu->add_top("s");
  relu->mutable_relu_param()->set_negative_slope(0.25f);
  auto r = Import(net);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(OpTypes(r.value()), (std::vector<std::string>{"Sigmoid", "LeakyRelu"}));
  EXPECT_FLOAT_EQ(r->nodes[1].attrs.GetFloat("alpha", 0), 0.25f);
  EXPECT_EQ(r->nodes[1].inputs, r->nodes[0].outputs);
  EXPECT_EQ(r->outputs, r->nodes[1].outputs);
}

TEST(CaffeImporter, TrainPhaseLayersAreLeftOut) {
  NetParameter net = Deploy();
  // Training-only layers of types OpenCANN has no converter for: skipped in the deploy state.
  auto* loss = AddLayer(&net, "loss", "SoftmaxWithLoss", {"fc", "label"}, "loss");
  loss->add_include()->set_phase(oc_caffe::TRAIN);
  auto* acc = AddLayer(&net, "acc", "Accuracy", {"fc", "label"}, "acc");
  acc->add_exclude()->set_phase(oc_caffe::TEST);
  const NetParameter w = Weights();
  auto r = Import(net, &w);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->nodes.size(), 6u);
}

TEST(CaffeImporter, UnsupportedLayerTypeIsE19010) {
  NetParameter net = Deploy();
  AddLayer(&net, "acc", "Accuracy", {"fc"}, "acc");
  const NetParameter w = Weights();
  auto r = Import(net, &w);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
  EXPECT_EQ(r.status().cann_code(), "E19010");
  EXPECT_EQ(r.status().message(),
            "No parser is registered for Op [acc, optype [Accuracy]]: OpenCANN's Caffe parser has "
            "no such layer type");
}

TEST(CaffeImporter, MalformedPrototxtIsE19005WithTheLine) {
  auto r = ImportCaffeBuffers("name: \"x\"\nlayer { name: \"a\" type: }\n", "", "bad.prototxt");
  ExpectRefused(r, "E19005", "the model file [bad.prototxt] is not a Caffe prototxt: line 2");
}

TEST(CaffeImporter, MalformedCaffemodelIsE19005) {
  auto r = ImportCaffeBuffers(Text(Deploy()), "\xff\xff\xff garbage", "tiny.prototxt");
  ExpectRefused(r, "E19005", "is not a Caffe .caffemodel (NetParameter)");
}

TEST(CaffeImporter, MissingWeightsAreE19005) {
  auto r = Import(Deploy());
  ExpectRefused(r, "E19005", "layer [conv1] (Convolution): needs 2 weight blobs, the model has 0");
}

TEST(CaffeImporter, WeightsOfTheWrongShapeAreE19005) {
  NetParameter w = Weights();
  w.mutable_layer(0)->mutable_blobs(0)->Clear();
  FillBlob(w.mutable_layer(0)->mutable_blobs(0), {2, 3, 1, 9}, 0.0f);
  auto r = Import(Deploy(), &w);
  ExpectRefused(r, "E19005", "weights are [2,3,1,9], the layer needs [2,3,3,3]");
}

TEST(CaffeImporter, BlobWithTooFewValuesIsE19005) {
  NetParameter w = Weights();
  w.mutable_layer(1)->mutable_blobs(1)->mutable_data()->RemoveLast();
  auto r = Import(Deploy(), &w);
  ExpectRefused(r, "E19005", "blob 1 of layer [fc] has 4 values for its shape [5] of 5");
}

// A blob that claims 2^31 elements but holds five is refused before anything is allocated
// (it once zeroed 8 GiB first: issue 30).
TEST(CaffeImporter, HugeBlobClaimIsRefusedBeforeAllocating) {
  NetParameter w = Weights();
  BlobProto* b = w.mutable_layer(1)->mutable_blobs(1);
  b->mutable_shape()->set_dim(0, int64_t{1} << 31);
  auto r = Import(Deploy(), &w);
  ExpectRefused(r, "E19005", "has 5 values for its shape [2147483648]");
}

TEST(CaffeImporter, StructuralErrorsAreE19005) {
  {
    NetParameter net = Deploy();
    AddLayer(&net, "relu1", "ReLU", {"prob"}, "prob");
    const NetParameter w = Weights();
    ExpectRefused(Import(net, &w), "E19005", "two layers are named [relu1]");
  }
  {
    NetParameter net;
    AddLayer(&net, "data", "Input", {}, "data");
    AddLayer(&net, "r", "ReLU", {"nothing"}, "r");
    ExpectRefused(Import(net), "E19005",
                  "layer [r] (ReLU) reads blob [nothing], which no layer before it produces");
  }
  {
    NetParameter net;
    net.set_name("empty");
    ExpectRefused(Import(net), "E19005", "the net [tiny.prototxt] has no layers");
  }
  {
    NetParameter net;
    net.add_input("a");
    net.add_input_dim(1);  // 1 value for an input that needs 4
    AddLayer(&net, "r", "ReLU", {"a"}, "r");
    ExpectRefused(Import(net), "E19005", "the net has 1 input_dim values for 1 inputs (4 each)");
  }
  // An input named "" (a net input or an Input layer's top), read by a layer's bottom "":
  // the graph value "" means an omitted input, so Reshape's shape inference met a null input
  // (found by the structure-aware fuzzer).
  for (bool layer : {false, true}) {
    NetParameter net;
    if (layer) {
      AddLayer(&net, "data", "Input", {}, "")->add_top("");
    } else {
      net.add_input("");
      for (int64_t d : {1, 1, 2, 2}) net.add_input_dim(d);
    }
    AddLayer(&net, "r", "ReLU", {""}, "r");
    ExpectRefused(Import(net), "E19005", "the net declares an input with no name");
  }
}

TEST(CaffeImporter, BadConvolutionParametersAreE19005) {
  NetParameter net = Deploy();
  net.mutable_layer(1)->mutable_convolution_param()->set_group(3);  // 2 outputs in 3 groups
  const NetParameter w = Weights();
  ExpectRefused(Import(net, &w), "E19005", "num_output 2 and group 3 do not fit");
  // A 2^31 x 2^31 kernel: filters times its area overflowed int64 (UBSan; found by the
  // structure-aware fuzzer), now refused like any kernel the weights do not fit.
  for (const char* type : {"Convolution", "Deconvolution"}) {
    NetParameter big = Deploy();
    big.mutable_layer(1)->set_type(type);
    big.mutable_layer(1)->mutable_convolution_param()->set_kernel_size(0, 2147483648u);
    ExpectRefused(Import(big, &w), "E19005", "weights of 54 values do not fit 2 ");
  }
}

class CaffeFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "oc_caffe_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& bytes) {
    std::ofstream(dir_ + "/" + name, std::ios::binary) << bytes;
    return dir_ + "/" + name;
  }
  std::string dir_;
};

TEST_F(CaffeFiles, ImportsFromFiles) {
  const std::string proto = Write("tiny.prototxt", Text(Deploy()));
  const std::string model = Write("tiny.caffemodel", Weights().SerializeAsString());
  auto r = ImportCaffe(proto, model);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->nodes.size(), 6u);
}

TEST_F(CaffeFiles, UnreadableWeightFileIsE19005) {
  const std::string proto = Write("tiny.prototxt", Text(Deploy()));
  auto r = ImportCaffe(proto, dir_ + "/absent.caffemodel");
  ExpectRefused(r, "E19005", "the weight file [" + dir_ + "/absent.caffemodel] cannot be read");
}

TEST_F(CaffeFiles, SurveyListsEveryDeployLayer) {
  NetParameter net = Deploy();
  AddLayer(&net, "acc", "Accuracy", {"fc"}, "acc");
  AddLayer(&net, "loss", "SoftmaxWithLoss", {"fc"}, "loss")
      ->add_include()
      ->set_phase(oc_caffe::TRAIN);
  auto r = SurveyCaffe(Write("net.prototxt", Text(net)));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 7u);  // the TRAIN-only layer is not part of the deploy net
  EXPECT_EQ((*r)[0].name, "data");
  EXPECT_TRUE((*r)[0].supported);
  EXPECT_EQ((*r)[1].type, "Convolution");
  EXPECT_TRUE((*r)[1].supported);
  EXPECT_EQ((*r)[6].name, "acc");
  EXPECT_FALSE((*r)[6].supported);
  EXPECT_EQ((*r)[6].reason, "no parser is registered for this layer type (E19010)");
}

TEST_F(CaffeFiles, FrontendNeedsAnExistingWeightFile) {
  const Frontend f = CaffeFrontend();
  EXPECT_EQ(f.framework, "0");
  EXPECT_EQ(f.name, "Caffe");
  EXPECT_TRUE(f.needs_weight);
  const std::string proto = Write("tiny.prototxt", Text(Deploy()));
  auto r = f.import({proto, dir_ + "/absent.caffemodel"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().cann_code(), "E10001");
  EXPECT_NE(r.status().message().find("parameter [--weight]"), std::string::npos);
  auto ok = f.import({proto, Write("w.caffemodel", Weights().SerializeAsString())});
  EXPECT_TRUE(ok.ok()) << ok.status().ToString();
}

}  // namespace
}  // namespace oc
