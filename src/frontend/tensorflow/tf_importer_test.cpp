// Unit tests of the TensorFlow frontend (tf_importer.h): small frozen GraphDefs built in the
// test with the project's tf_graph.proto classes (oc_tf::GraphDef), serialized, imported into
// the IR and checked node by node (ops, wiring, layout transposes, attributes, constants);
// "node:k" and "^control" inputs, the survey, and malformed graphs refused (E19005 or a
// parse error atc reports as E19005; E19010 for what OpenCANN does not convert).
#include "frontend/tensorflow/tf_importer.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "frontend/importer_test_util.h"
#include "frontend/tensorflow/tf_frontend.h"
#include "tf_graph.pb.h"

namespace oc {
namespace {

using testing::ExpectRefused;
using testing::OpTypes;

using oc_tf::GraphDef;
using oc_tf::NodeDef;

NodeDef* AddNode(GraphDef* g, const std::string& name, const std::string& op,
                 const std::vector<std::string>& inputs = {}) {
  NodeDef* n = g->add_node();
  n->set_name(name);
  n->set_op(op);
  for (const auto& in : inputs) n->add_input(in);
  return n;
}

void Placeholder(GraphDef* g, const std::string& name, const std::vector<int64_t>& dims) {
  NodeDef* n = AddNode(g, name, "Placeholder");
  (*n->mutable_attr())["dtype"].set_type(oc_tf::DT_FLOAT);
  auto* shape = (*n->mutable_attr())["shape"].mutable_shape();
  for (int64_t d : dims) shape->add_dim()->set_size(d);
}

// A float Const of `dims` holding start, start + 1, ... in tensor_content.
NodeDef* FloatConst(GraphDef* g, const std::string& name, const std::vector<int64_t>& dims,
                    float start) {
  NodeDef* n = AddNode(g, name, "Const");
  auto* t = (*n->mutable_attr())["value"].mutable_tensor();
  t->set_dtype(oc_tf::DT_FLOAT);
  int64_t count = 1;
  for (int64_t d : dims) {
    t->mutable_tensor_shape()->add_dim()->set_size(d);
    count *= d;
  }
  std::vector<float> v(static_cast<size_t>(count));
  for (size_t i = 0; i < v.size(); ++i) v[i] = start + static_cast<float>(i);
  t->set_tensor_content(std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4));
  (*n->mutable_attr())["dtype"].set_type(oc_tf::DT_FLOAT);
  return n;
}

void SetInts(NodeDef* n, const std::string& key, const std::vector<int64_t>& v) {
  auto* list = (*n->mutable_attr())[key].mutable_list();
  for (int64_t x : v) list->add_i(x);
}

// x [1, 4] -> MatMul w [4, 3] -> BiasAdd b [3] -> Relu.
GraphDef Dense() {
  GraphDef g;
  Placeholder(&g, "x", {1, 4});
  FloatConst(&g, "w", {4, 3}, 0.0f);
  FloatConst(&g, "b", {3}, 10.0f);
  AddNode(&g, "mm", "MatMul", {"x", "w"});
  AddNode(&g, "ba", "BiasAdd", {"mm", "b"});
  AddNode(&g, "out", "Relu", {"ba"});
  return g;
}

Result<Graph> Import(const GraphDef& g) {
  return ImportTensorFlowBytes(g.SerializeAsString(), "model.pb");
}

TEST(TfImporter, ImportsADenseLayerNodeByNode) {
  auto r = Import(Dense());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Graph& g = r.value();
  EXPECT_EQ(g.metadata.at("producer_name"), "tensorflow");
  ASSERT_EQ(g.inputs, std::vector<std::string>{"x"});
  EXPECT_EQ(g.FindValue("x")->dtype, DataType::kFloat);
  EXPECT_EQ(g.FindValue("x")->shape, (Shape{1, 4}));
  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"MatMul", "Add", "Relu"}));
  EXPECT_EQ(g.nodes[0].inputs, (std::vector<std::string>{"x", "w"}));
  const Tensor* w = g.FindInitializer("w");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->shape(), (Shape{4, 3}));
  EXPECT_FLOAT_EQ(w->data_as<float>()[11], 11.0f);
  // NHWC (the default) BiasAdd adds the bias as it is.
  EXPECT_EQ(g.nodes[1].inputs, (std::vector<std::string>{g.nodes[0].outputs[0], "b"}));
  EXPECT_FLOAT_EQ(g.FindInitializer("b")->data_as<float>()[2], 12.0f);
  EXPECT_EQ(g.nodes[2].inputs, g.nodes[1].outputs);
  EXPECT_EQ(g.outputs, g.nodes[2].outputs);
  EXPECT_TRUE(g.Verify().ok());
}

TEST(TfImporter, NhwcConvolutionGetsTransposesAroundIt) {
  GraphDef g;
  Placeholder(&g, "img", {1, 5, 5, 2});
  FloatConst(&g, "filter", {3, 3, 2, 4}, 0.0f);  // HWIO
  NodeDef* conv = AddNode(&g, "conv", "Conv2D", {"img", "filter"});
  SetInts(conv, "strides", {1, 2, 2, 1});
  (*conv->mutable_attr())["padding"].set_s("SAME");
  auto r = Import(g);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Graph& ir = r.value();
  ASSERT_EQ(OpTypes(ir), (std::vector<std::string>{"Transpose", "Transpose", "Conv", "Transpose"}));
  // HWIO -> OIHW, NHWC -> NCHW, and back to NHWC.
  EXPECT_EQ(ir.nodes[0].inputs, std::vector<std::string>{"filter"});
  EXPECT_EQ(ir.nodes[0].attrs.GetInts("perm"), (std::vector<int64_t>{3, 2, 0, 1}));
  EXPECT_EQ(ir.nodes[1].inputs, std::vector<std::string>{"img"});
  EXPECT_EQ(ir.nodes[1].attrs.GetInts("perm"), (std::vector<int64_t>{0, 3, 1, 2}));
  const Node& c = ir.nodes[2];
  EXPECT_EQ(c.inputs, (std::vector<std::string>{ir.nodes[1].outputs[0], ir.nodes[0].outputs[0]}));
  EXPECT_EQ(c.attrs.GetInts("strides"), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(c.attrs.GetInts("dilations"), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(c.attrs.GetString("auto_pad", ""), "SAME_UPPER");
  EXPECT_EQ(c.attrs.GetInt("group", -1), 1);
  EXPECT_EQ(ir.nodes[3].attrs.GetInts("perm"), (std::vector<int64_t>{0, 2, 3, 1}));
  EXPECT_EQ(ir.outputs, ir.nodes[3].outputs);
}

TEST(TfImporter, TransposedMatMulOperandGetsATranspose) {
  GraphDef g;
  Placeholder(&g, "x", {2, 4});
  FloatConst(&g, "w", {3, 4}, 0.0f);
  NodeDef* mm = AddNode(&g, "mm", "MatMul", {"x", "w"});
  (*mm->mutable_attr())["transpose_b"].set_b(true);
  auto r = Import(g);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(OpTypes(r.value()), (std::vector<std::string>{"Transpose", "MatMul"}));
  EXPECT_EQ(r->nodes[0].inputs, std::vector<std::string>{"w"});
  EXPECT_EQ(r->nodes[0].attrs.GetInts("perm"), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(r->nodes[1].inputs, (std::vector<std::string>{"x", r->nodes[0].outputs[0]}));
}

TEST(TfImporter, OutputIndexAndControlInputsAreResolved) {
  GraphDef g = Dense();
  AddNode(&g, "init", "NoOp");
  // "mm:0" is "mm"; "^init" orders the node after init and is no data input.
  g.mutable_node(4)->set_input(0, "mm:0");
  g.mutable_node(4)->add_input("^init");
  auto r = Import(g);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(OpTypes(r.value()), (std::vector<std::string>{"MatMul", "Add", "Relu"}));
  EXPECT_EQ(r->nodes[1].inputs.size(), 2u);
  EXPECT_EQ(r->nodes[1].inputs[0], r->nodes[0].outputs[0]);
}

TEST(TfImporter, NodesMayComeBeforeTheirInputs) {
  GraphDef g;
  AddNode(&g, "out", "Sigmoid", {"x"});
  Placeholder(&g, "x", {3});
  auto r = Import(g);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(OpTypes(r.value()), std::vector<std::string>{"Sigmoid"});
  EXPECT_EQ(r->nodes[0].inputs, std::vector<std::string>{"x"});
}

TEST(TfImporter, TypedConstValuesRepeatTheLastOne) {
  GraphDef g;
  Placeholder(&g, "x", {3});
  NodeDef* c = AddNode(&g, "c", "Const");
  auto* t = (*c->mutable_attr())["value"].mutable_tensor();
  t->set_dtype(oc_tf::DT_FLOAT);
  t->mutable_tensor_shape()->add_dim()->set_size(3);
  t->add_float_val(1.5f);
  t->add_float_val(2.5f);
  AddNode(&g, "y", "Mul", {"x", "c"});
  auto r = Import(g);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Tensor* ct = r->FindInitializer("c");
  ASSERT_NE(ct, nullptr);
  ASSERT_EQ(ct->shape(), (Shape{3}));
  EXPECT_FLOAT_EQ(ct->data_as<float>()[0], 1.5f);
  EXPECT_FLOAT_EQ(ct->data_as<float>()[1], 2.5f);
  EXPECT_FLOAT_EQ(ct->data_as<float>()[2], 2.5f);
  EXPECT_EQ(OpTypes(r.value()), std::vector<std::string>{"Mul"});
}

TEST(TfImporter, ConstWithTheWrongByteCountIsAParseError) {
  GraphDef g;
  Placeholder(&g, "x", {3});
  NodeDef* c = FloatConst(&g, "c", {2}, 0.0f);  // 8 bytes
  auto* shape = (*c->mutable_attr())["value"].mutable_tensor()->mutable_tensor_shape();
  shape->mutable_dim(0)->set_size(3);
  AddNode(&g, "y", "Add", {"x", "c"});
  ExpectRefused(Import(g), StatusCode::kParseError, "", "node [c] has 8 bytes for its shape [3]");
}

// Content that claims 2^31 elements but holds two is refused before the 8 GiB tensor is
// allocated (issue 30).
TEST(TfImporter, HugeConstClaimIsRefusedBeforeAllocating) {
  GraphDef g;
  Placeholder(&g, "x", {3});
  NodeDef* c = FloatConst(&g, "c", {2}, 0.0f);
  auto* shape = (*c->mutable_attr())["value"].mutable_tensor()->mutable_tensor_shape();
  shape->mutable_dim(0)->set_size(int64_t{1} << 31);
  AddNode(&g, "y", "Add", {"x", "c"});
  ExpectRefused(Import(g), StatusCode::kParseError, "",
                "node [c] has 8 bytes for its shape [2147483648]");
}

// The same for typed values: a claim of 2^33 int32 elements with no int_val (float_val given
// instead) allocated 32 GiB before counting them (seen while triaging the structure-aware
// fuzzer's out-of-memory reports).
TEST(TfImporter, HugeTypedConstClaimIsRefusedBeforeAllocating) {
  GraphDef g;
  Placeholder(&g, "x", {3});
  NodeDef* c = AddNode(&g, "c", "Const");
  auto* t = (*c->mutable_attr())["value"].mutable_tensor();
  t->set_dtype(oc_tf::DT_INT32);
  t->mutable_tensor_shape()->add_dim()->set_size(int64_t{1} << 33);
  t->add_float_val(1.0f);
  AddNode(&g, "y", "Add", {"x", "c"});
  ExpectRefused(Import(g), StatusCode::kParseError, "",
                "node [c] has 0 values for 8589934592 elements");
}

TEST(TfImporter, UnknownOpIsE19010) {
  GraphDef g = Dense();
  AddNode(&g, "weird", "FancyOp", {"out"});
  ExpectRefused(Import(g), StatusCode::kUnsupported, "E19010",
                "No parser is registered for Op [weird, optype [FancyOp]]: OpenCANN's TensorFlow "
                "parser has no such op");
}

TEST(TfImporter, UnsupportedPlaceholdersAndAttributesAreE19010) {
  {
    GraphDef g = Dense();
    g.mutable_node(0)->set_op("PlaceholderWithDefault");
    ExpectRefused(Import(g), StatusCode::kUnsupported, "E19010",
                  "node [x] (PlaceholderWithDefault): PlaceholderWithDefault is not supported");
  }
  {
    GraphDef g;
    Placeholder(&g, "x", {1, 2, 2, 3});
    for (const char* p : {"scale", "offset", "mean", "var"}) FloatConst(&g, p, {3}, 1.0f);
    NodeDef* bn = AddNode(&g, "bn", "FusedBatchNormV3", {"x", "scale", "offset", "mean", "var"});
    (*bn->mutable_attr())["is_training"].set_b(true);
    ExpectRefused(Import(g), StatusCode::kUnsupported, "E19010",
                  "node [bn] (FusedBatchNormV3): is_training: true is not supported");
  }
}

TEST(TfImporter, BytesThatAreNotAGraphDefAreE19005) {
  auto r = ImportTensorFlowBytes("\xff\xff\xff\xff not protobuf", "junk.pb");
  ExpectRefused(r, StatusCode::kParseError, "E19005",
                "the model file [junk.pb] is not a TensorFlow GraphDef (.pb)");
}

TEST(TfImporter, StructuralErrorsAreE19005) {
  ExpectRefused(Import(GraphDef()), StatusCode::kParseError, "E19005",
                "the graph [model.pb] has no nodes");
  {
    GraphDef g = Dense();
    AddNode(&g, "late", "Relu", {"nope:1"});
    ExpectRefused(Import(g), StatusCode::kParseError, "E19005",
                  "node [late] reads [nope:1], which no node produces");
  }
  {
    GraphDef g;
    AddNode(&g, "a", "Relu", {"b"});
    AddNode(&g, "b", "Relu", {"a"});
    ExpectRefused(Import(g), StatusCode::kParseError, "E19005", "the graph has a cycle through");
  }
  {
    GraphDef g = Dense();
    AddNode(&g, "mm", "Relu", {"out"});
    ExpectRefused(Import(g), StatusCode::kParseError, "E19005", "two nodes are named [mm]");
  }
  {
    GraphDef g;
    Placeholder(&g, "x", {2});
    ExpectRefused(Import(g), StatusCode::kParseError, "E19005",
                  "the graph [model.pb] computes nothing");
  }
  {
    GraphDef g = Dense();
    g.mutable_node(0)->mutable_attr()->erase("dtype");
    ExpectRefused(Import(g), StatusCode::kParseError, "E19005",
                  "node [x] (Placeholder): has no dtype");
  }
}

class TfFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "oc_tf_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const GraphDef& g) {
    const std::string path = dir_ + "/model.pb";
    std::ofstream(path, std::ios::binary) << g.SerializeAsString();
    return path;
  }
  std::string dir_;
};

TEST_F(TfFiles, ImportsFromAFileAndThroughTheFrontend) {
  const std::string path = Write(Dense());
  auto r = ImportTensorFlow(path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->nodes.size(), 3u);
  const Frontend f = TensorFlowFrontend();
  EXPECT_EQ(f.framework, "3");
  EXPECT_FALSE(f.needs_weight);
  auto via = f.import({path, ""});
  ASSERT_TRUE(via.ok()) << via.status().ToString();
  EXPECT_EQ(OpTypes(via.value()), OpTypes(r.value()));
}

TEST_F(TfFiles, SurveyMarksEveryNode) {
  GraphDef g = Dense();
  AddNode(&g, "weird", "FancyOp", {"out"});
  auto r = SurveyTensorFlow(Write(g));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 7u);
  for (size_t i = 0; i < 6; ++i) EXPECT_TRUE((*r)[i].supported) << (*r)[i].name;
  EXPECT_EQ((*r)[6].name, "weird");
  EXPECT_EQ((*r)[6].type, "FancyOp");
  EXPECT_FALSE((*r)[6].supported);
  EXPECT_EQ((*r)[6].reason, "no parser is registered for this op (E19010)");
}

TEST_F(TfFiles, MissingFileIsRefused) {
  EXPECT_FALSE(ImportTensorFlow(dir_ + "/absent.pb").ok());
  EXPECT_FALSE(SurveyTensorFlow(dir_ + "/absent.pb").ok());
}

}  // namespace
}  // namespace oc
