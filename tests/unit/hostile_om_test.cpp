// A .om is untrusted input: files written with a valid checksum but a lying ModelDef (wrong
// descriptions, wrong arity, bad memory plans, impossible sizes) are refused at load with a
// message naming what is wrong, and never reach a kernel.
#include <gtest/gtest.h>

#include <cstring>

#include "om/om_format.h"
#include "runtime/model.h"
#include "test_graph.h"

namespace oc {
namespace {

using testing::FloatTensor;
using testing::GraphBuilder;

// x[2,4] -> MatMul(w[4,3]) -> Relu -> Neg -> y: two planned intermediates.
CompiledGraph Chain() {
  GraphBuilder b;
  b.g.name = "chain";
  b.Input("x", DataType::kFloat, {2, 4});
  b.Const("w", FloatTensor({4, 3}, testing::Pseudo(12, 5)));
  b.Add("MatMul", {"x", "w"}, {"m"});
  b.Add("Relu", {"m"}, {"r"});
  b.Add("Neg", {"r"}, {"y"});
  b.Output("y");
  CompileOptions off;  // unfused, so that every value stays visible
  for (const auto& p : PipelinePassNames()) off.disabled_passes.insert(p);
  auto cg = oc::testing::Compile(b.g, off);
  EXPECT_TRUE(cg.ok()) << cg.status().ToString();
  return std::move(cg).value();
}

Status LoadBytes(const std::string& bytes) {
  return Model::Load(MappedFile::FromCopy(bytes.data(), bytes.size())).status();
}

Status LoadTampered(const std::function<void(Graph&, MemoryPlan&)>& tamper) {
  CompiledGraph cg = Chain();
  tamper(cg.graph, cg.plan);
  auto bytes = SerializeOm(cg.graph, cg.plan, {});
  if (!bytes.ok()) return bytes.status();
  return LoadBytes(bytes.value());
}

void ExpectRefused(const Status& s, const std::string& needle) {
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kParseError) << s.ToString();
  EXPECT_NE(s.message().find(needle), std::string::npos) << s.ToString();
}

TEST(HostileOm, UntamperedLoads) {
  EXPECT_TRUE(LoadTampered([](Graph&, MemoryPlan&) {}).ok());
}

TEST(HostileOm, DescriptionThatTheOpDoesNotCompute) {
  ExpectRefused(LoadTampered([](Graph& g, MemoryPlan&) {
                  g.values["m"].shape = {2, 5};
                }),
                "output [m] of node");
  ExpectRefused(LoadTampered([](Graph& g, MemoryPlan&) { g.values["r"].dtype = DataType::kInt32; }),
                "output [r] of node");
  // A wrong input description is caught where it is consumed.
  ExpectRefused(LoadTampered([](Graph& g, MemoryPlan&) {
                  g.values["x"].shape = {2, 7};
                }),
                "does not fit its op");
}

TEST(HostileOm, WrongArity) {
  ExpectRefused(LoadTampered([](Graph& g, MemoryPlan&) { g.nodes[0].inputs.pop_back(); }),
                "inputs, expected");
  ExpectRefused(LoadTampered([](Graph& g, MemoryPlan&) { g.nodes[1].inputs.push_back("m"); }),
                "inputs, expected");
}

TEST(HostileOm, BadMemoryPlans) {
  ExpectRefused(LoadTampered([](Graph&, MemoryPlan& p) { p.offsets["m"] = p.arena_size; }),
                "outside");
  ExpectRefused(LoadTampered([](Graph&, MemoryPlan& p) { p.offsets["m"] += 8; }), "misaligned");
  ExpectRefused(LoadTampered([](Graph&, MemoryPlan& p) { p.arena_size = 0; }), "arena");
  // m is read by the Relu that writes r: the two may not share bytes.
  ExpectRefused(LoadTampered([](Graph&, MemoryPlan& p) {
                  p.offsets["r"] = p.offsets["m"];
                  p.arena_size = std::max(p.arena_size, p.offsets["m"] + 64);
                }),
                "share memory");
}

TEST(HostileOm, ImpossibleSizes) {
  ExpectRefused(LoadTampered([](Graph& g, MemoryPlan&) {
                  g.values["x"].shape = {int64_t{1} << 62, 4};
                }),
                "shape [");
  ExpectRefused(LoadTampered([](Graph& g, MemoryPlan&) {
                  g.values["x"].shape = {2, -7};
                }),
                "invalid dim");
}

TEST(HostileOm, ChecksumCannotBeSwitchedOff) {
  auto bytes = SerializeOm(Chain().graph, Chain().plan, {});
  ASSERT_TRUE(bytes.ok());
  std::string flagged = bytes.value();
  OmHeader h;
  std::memcpy(&h, flagged.data(), sizeof(h));
  h.is_checksum = 1;
  std::memcpy(flagged.data(), &h, sizeof(h));
  ExpectRefused(LoadBytes(flagged), "checksum");
}

TEST(HostileOm, ValueDependentShapeDescribedAsStatic) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {6});
  b.Add("NonZero", {"x"}, {"nz"});
  b.Add("Neg", {"nz"}, {"y"});
  b.Output("y");
  auto cg = oc::testing::Compile(b.g, {});
  ASSERT_TRUE(cg.ok()) << cg.status().ToString();
  cg->graph.values["nz"].shape = {1, 2};  // a count only the data decides
  cg->plan.offsets["nz"] = 0;
  cg->plan.arena_size = std::max<size_t>(cg->plan.arena_size, 64);
  auto bytes = SerializeOm(cg->graph, cg->plan, {});
  ASSERT_TRUE(bytes.ok());
  ExpectRefused(LoadBytes(bytes.value()), "output [nz] of node");
}

}  // namespace
}  // namespace oc

namespace oc {
namespace {

// Two image-size gear graphs whose gear tables the file may shorten or fill with nonsense.
Status LoadGears(const std::string& mode, std::vector<int64_t> g0, std::vector<int64_t> g1) {
  std::vector<OmGraph> graphs;
  for (auto* gear : {&g0, &g1}) {
    GraphBuilder b;
    b.Input("x", DataType::kFloat, {1, 4});
    b.Input(kDynamicGearInput, DataType::kInt64, {2});
    b.Add("Relu", {"x"}, {"y"});
    b.Output("y");
    auto cg = oc::testing::Compile(b.g, {});
    if (!cg.ok()) return cg.status();
    graphs.push_back({cg->graph, cg->plan, *gear});
  }
  OmWriteOptions options;
  options.model_attrs[kDynamicModeAttr] = mode;
  auto bytes = SerializeOm(graphs, options);
  if (!bytes.ok()) return bytes.status();
  return LoadBytes(bytes.value());
}

TEST(HostileOm, GearTablesAreChecked) {
  EXPECT_TRUE(LoadGears("image_size", {8, 8}, {16, 16}).ok());
  ExpectRefused(LoadGears("image_size", {8}, {16, 16}), "values, expected 2");
  ExpectRefused(LoadGears("batch", {1, 2}, {4}), "values, expected 1");
  ExpectRefused(LoadGears("dims", {1, 2}, {4}), "values, expected 2");
  ExpectRefused(LoadGears("image_size", {8, -3}, {16, 16}), "not a size");
  ExpectRefused(LoadGears("warp", {8, 8}, {16, 16}), "unknown gear mode");
}

}  // namespace
}  // namespace oc
