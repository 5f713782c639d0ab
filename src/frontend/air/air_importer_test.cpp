// Unit tests of the MindSpore AIR frontend (air_importer.h): small GE ModelDefs built in the
// test with the project's ge_ir.proto classes (ge::proto::ModelDef, the .om's schema),
// serialized, imported into the IR and checked node by node (ops, "op:k" wiring, control
// edges, Data indices, constants); the survey; and malformed models refused with CANN's
// codes (E19005 malformed, E19010 unsupported).
#include "frontend/air/air_importer.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "frontend/air/air_frontend.h"
#include "frontend/importer_test_util.h"
#include "ge_ir.pb.h"

namespace oc {
namespace {

using testing::ExpectRefused;
using testing::OpTypes;

using ge::proto::GraphDef;
using ge::proto::ModelDef;
using ge::proto::OpDef;

OpDef* AddOp(GraphDef* g, const std::string& name, const std::string& type,
             const std::vector<std::string>& inputs = {}) {
  OpDef* op = g->add_op();
  op->set_name(name);
  op->set_type(type);
  for (const auto& in : inputs) op->add_input(in);
  return op;
}

OpDef* Data(GraphDef* g, const std::string& name, int64_t index, const std::vector<int64_t>& dims,
            int dtype = ge::proto::DT_FLOAT) {
  OpDef* op = AddOp(g, name, "Data");
  (*op->mutable_attr())["index"].set_i(index);
  auto* desc = op->add_output_desc();
  desc->set_dtype(static_cast<ge::proto::DataType>(dtype));
  for (int64_t d : dims) desc->mutable_shape()->add_dim(d);
  return op;
}

// A float Const of `dims` holding start, start + 1, ...
OpDef* FloatConst(GraphDef* g, const std::string& name, const std::vector<int64_t>& dims,
                  float start) {
  OpDef* op = AddOp(g, name, "Const");
  auto* t = (*op->mutable_attr())["value"].mutable_t();
  t->mutable_desc()->set_dtype(ge::proto::DT_FLOAT);
  int64_t count = 1;
  for (int64_t d : dims) {
    t->mutable_desc()->mutable_shape()->add_dim(d);
    count *= d;
  }
  std::vector<float> v(static_cast<size_t>(count));
  for (size_t i = 0; i < v.size(); ++i) v[i] = start + static_cast<float>(i);
  t->set_data(std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float)));
  return op;
}

// The tensor a Const op carries.
ge::proto::TensorDef* ConstTensor(OpDef* op) { return (*op->mutable_attr())["value"].mutable_t(); }

// x [2, 3] -> MatMul w [3, 4] -> Relu -> NetOutput.
ModelDef Dense() {
  ModelDef m;
  m.set_name("dense");
  GraphDef* g = m.add_graph();
  g->set_name("main");
  Data(g, "x", 0, {2, 3});
  FloatConst(g, "w", {3, 4}, 0.5f);
  AddOp(g, "mm", "MatMul", {"x:0", "w:0"});
  AddOp(g, "act", "Relu", {"mm:0"});
  AddOp(g, "out", "NetOutput", {"act:0"});
  return m;
}

Result<Graph> Import(const ModelDef& m) {
  return ImportAirBytes(m.SerializeAsString(), "model.air");
}

TEST(AirImporter, ImportsADenseGraphNodeByNode) {
  auto r = Import(Dense());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const Graph& g = r.value();
  EXPECT_EQ(g.name, "main");
  EXPECT_EQ(g.metadata.at("producer_name"), "mindspore_air");
  ASSERT_EQ(g.inputs, std::vector<std::string>{"x"});
  EXPECT_EQ(g.FindValue("x")->dtype, DataType::kFloat);
  EXPECT_EQ(g.FindValue("x")->shape, (Shape{2, 3}));
  ASSERT_EQ(OpTypes(g), (std::vector<std::string>{"MatMul", "Relu"}));
  EXPECT_EQ(g.nodes[0].inputs, (std::vector<std::string>{"x", "w"}));
  const Tensor* w = g.FindInitializer("w");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->dtype(), DataType::kFloat);
  EXPECT_EQ(w->shape(), (Shape{3, 4}));
  EXPECT_FLOAT_EQ(w->data_as<float>()[0], 0.5f);
  EXPECT_FLOAT_EQ(w->data_as<float>()[11], 11.5f);
  EXPECT_EQ(g.nodes[1].inputs, g.nodes[0].outputs);
  EXPECT_EQ(g.outputs, g.nodes[1].outputs);
  EXPECT_TRUE(g.Verify().ok());
}

TEST(AirImporter, AGraphInMemoryImportsAsItsBytesDo) {
  const ModelDef m = Dense();
  auto bytes = Import(m);
  auto memory = ImportAirGraph(m.graph(0), "model.air");
  ASSERT_TRUE(bytes.ok() && memory.ok()) << memory.status().ToString();
  EXPECT_EQ(memory->name, bytes->name);
  EXPECT_EQ(memory->inputs, bytes->inputs);
  EXPECT_EQ(memory->outputs, bytes->outputs);
  EXPECT_EQ(OpTypes(memory.value()), OpTypes(bytes.value()));
  for (size_t i = 0; i < memory->nodes.size(); ++i)
    EXPECT_EQ(memory->nodes[i].inputs, bytes->nodes[i].inputs);
  EXPECT_EQ(memory->metadata, bytes->metadata);
  // A name for the graph in messages, as the file's path is for bytes.
  GraphDef empty;
  ExpectRefused(ImportAirGraph(empty, "Add"), StatusCode::kParseError, "E19005",
                "the AIR graph [Add] has no NetOutput");
}

TEST(AirImporter, ControlEdgesAreNotDataInputs) {
  ModelDef m = Dense();
  GraphDef* g = m.mutable_graph(0);
  g->mutable_op(3)->add_input("w:-1");   // act after w: a control edge
  g->mutable_op(4)->add_input("mm:-1");  // NetOutput's control edge: not an output
  auto r = Import(m);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->nodes[1].inputs, r->nodes[0].outputs);
  EXPECT_EQ(r->outputs.size(), 1u);
}

TEST(AirImporter, TransposeFlagAddsATranspose) {
  ModelDef m = Dense();
  GraphDef* g = m.mutable_graph(0);
  // w as [4, 3], used transposed.
  auto* shape = ConstTensor(g->mutable_op(1))->mutable_desc()->mutable_shape();
  shape->set_dim(0, 4);
  shape->set_dim(1, 3);
  (*g->mutable_op(2)->mutable_attr())["transpose_x2"].set_b(true);
  auto r = Import(m);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(OpTypes(r.value()), (std::vector<std::string>{"Transpose", "MatMul", "Relu"}));
  EXPECT_EQ(r->nodes[0].inputs, std::vector<std::string>{"w"});
  EXPECT_EQ(r->nodes[0].attrs.GetInts("perm"), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(r->nodes[1].inputs, (std::vector<std::string>{"x", r->nodes[0].outputs[0]}));
}

TEST(AirImporter, GraphInputsFollowTheDataIndices) {
  ModelDef m;
  GraphDef* g = m.add_graph();
  Data(g, "b", 1, {4});
  Data(g, "a", 0, {4});
  AddOp(g, "sum", "Add", {"a:0", "b:0"});
  AddOp(g, "out", "NetOutput", {"sum:0"});
  auto r = Import(m);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->name, "air_graph");  // the graph has no name
  EXPECT_EQ(r->inputs, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(OpTypes(r.value()), std::vector<std::string>{"Add"});
  EXPECT_EQ(r->nodes[0].inputs, (std::vector<std::string>{"a", "b"}));
}

TEST(AirImporter, IdentityPassesItsInputThrough) {
  ModelDef m;
  GraphDef* g = m.add_graph();
  Data(g, "x", 0, {2});
  AddOp(g, "id", "Identity", {"x:0"});
  AddOp(g, "sq", "Square", {"id:0"});
  AddOp(g, "out", "NetOutput", {"sq:0"});
  auto r = Import(m);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(OpTypes(r.value()), std::vector<std::string>{"Mul"});
  EXPECT_EQ(r->nodes[0].inputs, (std::vector<std::string>{"x", "x"}));
}

TEST(AirImporter, DataIndicesWithAGapAreE19005) {
  ModelDef m;
  GraphDef* g = m.add_graph();
  Data(g, "a", 0, {4});
  Data(g, "b", 2, {4});
  AddOp(g, "sum", "Add", {"a:0", "b:0"});
  AddOp(g, "out", "NetOutput", {"sum:0"});
  ExpectRefused(Import(m), StatusCode::kParseError, "E19005",
                "the Data ops' indices are not 0..1 (Data op [b] says 2)");
}

TEST(AirImporter, UnknownOpTypeIsE19010) {
  ModelDef m = Dense();
  m.mutable_graph(0)->mutable_op(3)->set_type("FancyGeOp");
  ExpectRefused(Import(m), StatusCode::kUnsupported, "E19010",
                "No parser is registered for Op [act, optype [FancyGeOp]]: OpenCANN's AIR parser "
                "has no such GE operator");
}

TEST(AirImporter, UnsupportedDataTypeIsE19010) {
  ModelDef m;
  GraphDef* g = m.add_graph();
  Data(g, "x", 0, {2}, 99);
  AddOp(g, "out", "NetOutput", {"x:0"});
  ExpectRefused(Import(m), StatusCode::kUnsupported, "E19010",
                "op [x] (Data): its data type is not supported by OpenCANN's AIR parser");
}

TEST(AirImporter, ConstWithTheWrongByteCountIsE19005) {
  ModelDef m = Dense();
  ConstTensor(m.mutable_graph(0)->mutable_op(1))->mutable_data()->resize(8);
  ExpectRefused(Import(m), StatusCode::kParseError, "E19005",
                "op [w] (Const): has 8 bytes for its shape [3,4]");
}

TEST(AirImporter, StructuralErrorsAreE19005) {
  ExpectRefused(ImportAirBytes("\xff\xff\xff\xff garbage", "junk.air"), StatusCode::kParseError,
                "E19005", "the model file [junk.air] is not an AIR model (GE ModelDef)");
  ExpectRefused(Import(ModelDef()), StatusCode::kParseError, "E19005",
                "the AIR model [model.air] has 0 graphs; OpenCANN reads one");
  {
    ModelDef m = Dense();
    const GraphDef copy = m.graph(0);
    *m.add_graph() = copy;
    ExpectRefused(Import(m), StatusCode::kParseError, "E19005", "has 2 graphs");
  }
  {
    ModelDef m = Dense();
    m.mutable_graph(0)->mutable_op()->RemoveLast();  // no NetOutput
    ExpectRefused(Import(m), StatusCode::kParseError, "E19005",
                  "the AIR graph [model.air] has no NetOutput");
  }
  {
    ModelDef m = Dense();
    m.mutable_graph(0)->mutable_op(3)->set_input(0, "later:0");
    ExpectRefused(Import(m), StatusCode::kParseError, "E19005",
                  "op [act] (Relu): reads [later:0], which no op before makes");
  }
  {
    ModelDef m = Dense();
    m.mutable_graph(0)->mutable_op(4)->set_input(0, "ghost:0");
    ExpectRefused(Import(m), StatusCode::kParseError, "E19005",
                  "op [out] (NetOutput): returns [ghost:0], which nothing makes");
  }
  {
    ModelDef m = Dense();
    m.mutable_graph(0)->mutable_op(3)->set_name("mm");
    ExpectRefused(Import(m), StatusCode::kParseError, "E19005", "two ops are named [mm]");
  }
  {
    ModelDef m = Dense();
    m.mutable_graph(0)->mutable_op(1)->mutable_attr()->erase("value");
    ExpectRefused(Import(m), StatusCode::kParseError, "E19005", "op [w] (Const): has no value");
  }
}

class AirFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "oc_air_XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Write(const ModelDef& m) {
    const std::string path = dir_ + "/model.air";
    std::ofstream(path, std::ios::binary) << m.SerializeAsString();
    return path;
  }
  std::string dir_;
};

TEST_F(AirFiles, ImportsFromAFileAndThroughTheFrontend) {
  const std::string path = Write(Dense());
  auto r = ImportAir(path);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(OpTypes(r.value()), (std::vector<std::string>{"MatMul", "Relu"}));
  const Frontend f = AirFrontend();
  EXPECT_EQ(f.framework, "1");
  EXPECT_EQ(f.name, "MindSpore");
  auto via = f.import({path, ""});
  ASSERT_TRUE(via.ok()) << via.status().ToString();
  EXPECT_EQ(via->nodes.size(), 2u);
}

TEST_F(AirFiles, SurveyMarksEveryOp) {
  ModelDef m = Dense();
  m.mutable_graph(0)->mutable_op(3)->set_type("FancyGeOp");
  auto r = SurveyAir(Write(m));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->size(), 5u);
  EXPECT_TRUE((*r)[0].supported);  // Data
  EXPECT_TRUE((*r)[1].supported);  // Const
  EXPECT_TRUE((*r)[2].supported);  // MatMul
  EXPECT_EQ((*r)[3].name, "act");
  EXPECT_FALSE((*r)[3].supported);
  EXPECT_EQ((*r)[3].reason, "no parser is registered for this GE operator (E19010)");
  EXPECT_TRUE((*r)[4].supported);  // NetOutput
}

}  // namespace
}  // namespace oc
