// The device seam, proven with a backend whose memory the host cannot read: a model that
// crosses between it and the CPU backend several times gives the CPU's bytes, every value
// reaches the device only through copies the runtime inserted, and a host read of device
// memory faults.
#include "kernels/guarded/guarded_backend.h"

#include <gtest/gtest.h>

#include <cstring>
#include <mutex>
#include <tuple>

#include "kernels/cpu/cpu_backend.h"
#include "test_graph.h"

namespace oc {
namespace {

using testing::FloatTensor;
using testing::GraphBuilder;
using testing::Pseudo;

// MatMul (cpu) -> Sin -> Add x (guarded) -> MatMul (cpu) -> Softmax -> Mul c (guarded)
// -> MatMul (cpu): four crossings, a caller input and a constant read on the device, and a
// graph output (s) made on the device and read again by it.
Graph CrossingGraph(Shape x_shape = {4, 16}) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, x_shape);
  b.Const("w1", FloatTensor({16, 16}, Pseudo(256, 1)));
  b.Const("w2", FloatTensor({16, 16}, Pseudo(256, 2)));
  b.Const("w3", FloatTensor({16, 8}, Pseudo(128, 3)));
  b.Const("c", FloatTensor({16}, Pseudo(16, 4)));
  b.Add("MatMul", {"x", "w1"}, {"m1"});
  b.Add("Sin", {"m1"}, {"s"});
  b.Add("Add", {"s", "x"}, {"a"});
  b.Add("MatMul", {"a", "w2"}, {"m2"});
  b.Add("Softmax", {"m2"}, {"sm"}).attrs.Set("axis", int64_t{-1});
  b.Add("Mul", {"sm", "c"}, {"t"});
  b.Add("MatMul", {"t", "w3"}, {"y"});
  b.Output("y");
  b.Output("s");
  return b.g;
}

struct Run {
  std::vector<std::vector<float>> outputs;
  std::map<std::string, size_t> placed;
  std::vector<float> sin_seen;  // what an observer read of the Sin step's output
};

class SinObserver : public StepObserver {
 public:
  explicit SinObserver(std::vector<float>* seen) : seen_(seen) {}
  void OnStep(const StepRecord& r) override {
    if (*r.op_type != "Sin") return;
    seen_->resize(static_cast<size_t>(NumElements(r.outputs[0].shape)));
    status = r.outputs[0].CopyPlain(seen_->data());
  }
  Status status;

 private:
  std::vector<float>* seen_;
};

Result<Run> RunOn(const std::string& om, std::vector<const Backend*> backends,
                  const std::vector<float>& x, Shape x_shape = {}) {
  LoadOptions lo;
  lo.backends = std::move(backends);
  OC_ASSIGN_OR_RETURN(auto model, Model::Load(MappedFile::FromCopy(om.data(), om.size()), lo));
  Run run;
  auto observer = std::make_shared<SinObserver>(&run.sin_seen);
  model->SetObserver(observer);
  run.placed = model->NodesPerBackend();
  ExecuteIo io;
  io.inputs = {x.data()};
  io.input_sizes = {x.size() * sizeof(float)};
  if (!x_shape.empty()) io.input_shapes = {x_shape};
  for (const auto& o : model->outputs()) {
    const size_t n = o.bytes ? o.bytes / sizeof(float) : x.size();
    run.outputs.emplace_back(n);
  }
  for (auto& o : run.outputs) {
    io.outputs.push_back(o.data());
    io.output_sizes.push_back(o.size() * sizeof(float));
  }
  OC_RETURN_IF_ERROR(model->Execute(io));
  OC_RETURN_IF_ERROR(observer->status);
  return run;
}

TEST(GuardedBackend, ModelCrossingSpacesGivesTheCpuBytes) {
  auto om = testing::CompileToOm(CrossingGraph());
  ASSERT_TRUE(om.ok()) << om.status().ToString();
  // The device runs the CPU backend's own kernels on plain layouts, so its share must be
  // bit-identical; only the memory it lives in differs.
  auto guarded = MakeGuardedBackend(CpuBackend(), {"Sin", "Add", "Softmax", "Mul"});
  const std::vector<float> x = Pseudo(64, 9);
  auto cpu = RunOn(*om, {&CpuBackend()}, x);
  ASSERT_TRUE(cpu.ok()) << cpu.status().ToString();
  auto split = RunOn(*om, {guarded.get(), &CpuBackend()}, x);
  ASSERT_TRUE(split.ok()) << split.status().ToString();
  EXPECT_EQ(split->placed["guarded"], 4u);
  EXPECT_EQ(split->placed["cpu"], 3u);
  ASSERT_EQ(split->outputs.size(), 2u);
  for (size_t o = 0; o < 2; ++o) {
    ASSERT_EQ(split->outputs[o].size(), cpu->outputs[o].size());
    EXPECT_EQ(0, std::memcmp(split->outputs[o].data(), cpu->outputs[o].data(),
                             cpu->outputs[o].size() * sizeof(float)))
        << "output " << o;
  }
  // Observers (dumps, compare) read device tensors through the backend, never directly.
  EXPECT_EQ(split->sin_seen, cpu->sin_seen);
  EXPECT_EQ(split->sin_seen, split->outputs[1]);
}

// The CPU backend, counting the kernels it creates per op type (to see where nodes ran).
class CountingCpu final : public Backend {
 public:
  const char* name() const override { return "counting-cpu"; }
  bool Supports(const Node& n, const std::vector<TensorType>& in) const override {
    return CpuBackend().Supports(n, in);
  }
  Result<std::unique_ptr<Kernel>> CreateKernel(const KernelPrepareContext& ctx) const override {
    std::lock_guard<std::mutex> lock(mutex);
    ++created[ctx.node->op_type];
    return CpuBackend().CreateKernel(ctx);
  }
  std::string TypesOf(const std::string& d, const std::string& o) const override {
    return CpuBackend().TypesOf(d, o);
  }
  void BeginExecution(int n) const override { CpuBackend().BeginExecution(n); }
  mutable std::mutex mutex;
  mutable std::map<std::string, int> created;
};

std::shared_ptr<Graph> Body(
    std::vector<std::string> inputs, std::vector<ValueInfo> input_infos,
    std::vector<std::tuple<std::string, std::vector<std::string>, std::string>> nodes,
    std::vector<std::pair<std::string, ValueInfo>> outputs) {
  auto g = std::make_shared<Graph>();
  g->opset_version = 17;
  for (size_t i = 0; i < inputs.size(); ++i) {
    g->inputs.push_back(inputs[i]);
    g->values[inputs[i]] = input_infos[i];
  }
  for (auto& [op, in, out] : nodes) {
    Node n;
    n.name = "body_" + op + "_" + out;
    n.op_type = op;
    n.inputs = in;
    n.outputs = {out};
    g->nodes.push_back(std::move(n));
  }
  for (auto& [name, vi] : outputs) {
    g->outputs.push_back(name);
    g->values[name] = vi;
  }
  return g;
}

// MatMul (cpu) -> If (cpu; both branches run Sin/Add/Mul on the device, reading the outer
// m1) -> Loop (cpu; a body of Sin and Add on the device, three trips) -> MatMul (cpu).
Graph ControlFlowGraph() {
  const ValueInfo f{DataType::kFloat, {4, 16}, true};
  const ValueInfo b{DataType::kBool, {}, true};
  const ValueInfo i64{DataType::kInt64, {}, true};
  GraphBuilder gb;
  gb.Input("x", DataType::kFloat, {4, 16});
  gb.Input("c", DataType::kBool, {});
  gb.Const("w1", FloatTensor({16, 16}, Pseudo(256, 1)));
  gb.Const("w2", FloatTensor({16, 8}, Pseudo(128, 2)));
  Tensor trips(DataType::kInt64, {});
  *static_cast<int64_t*>(trips.mutable_data()) = 3;
  gb.Const("trips", trips);
  gb.Add("MatMul", {"x", "w1"}, {"m1"});
  Node& branch = gb.Add("If", {"c", "m1"}, {"i"});
  branch.captured_inputs_begin = 1;
  branch.attrs.Set("then_branch",
                   Body({}, {}, {{"Sin", {"m1"}, "t1"}, {"Add", {"t1", "m1"}, "t2"}}, {{"t2", f}}));
  branch.attrs.Set("else_branch",
                   Body({}, {}, {{"Mul", {"m1", "m1"}, "e1"}, {"Sin", {"e1"}, "e2"}}, {{"e2", f}}));
  Node& loop = gb.Add("Loop", {"trips", "", "i"}, {"l"});
  loop.attrs.Set(
      "body",
      Body({"n", "cond_in", "v"}, {i64, b, f},
           {{"Sin", {"v"}, "s"}, {"Add", {"s", "v"}, "v2"}, {"Identity", {"cond_in"}, "cond_out"}},
           {{"cond_out", b}, {"v2", f}}));
  gb.Add("MatMul", {"l", "w2"}, {"y"});
  gb.Output("y");
  return gb.g;
}

TEST(GuardedBackend, ControlFlowBodiesCrossToTheDevice) {
  auto om = testing::CompileToOm(ControlFlowGraph());
  ASSERT_TRUE(om.ok()) << om.status().ToString();
  CountingCpu inner;
  auto guarded = MakeGuardedBackend(inner, {"Sin", "Add", "Mul"});
  const std::vector<float> x = Pseudo(64, 3);
  for (bool cond : {true, false}) {
    auto run = [&](std::vector<const Backend*> backends) -> Result<std::vector<float>> {
      LoadOptions lo;
      lo.backends = std::move(backends);
      OC_ASSIGN_OR_RETURN(auto model,
                          Model::Load(MappedFile::FromCopy(om->data(), om->size()), lo));
      std::vector<float> y(32);
      const bool c = cond;
      OC_RETURN_IF_ERROR(model->Execute({x.data(), &c}, {x.size() * 4, 1}, {y.data()}, {128}));
      return y;
    };
    auto cpu = run({&CpuBackend()});
    ASSERT_TRUE(cpu.ok()) << cpu.status().ToString();
    inner.created.clear();
    auto split = run({guarded.get(), &CpuBackend()});
    ASSERT_TRUE(split.ok()) << split.status().ToString();
    EXPECT_EQ(*split, *cpu) << "cond " << cond;
    // The bodies' Sin and Add (or Mul) were prepared for the device, on every trip.
    EXPECT_GE(inner.created["Sin"], 4) << "cond " << cond;
    EXPECT_GE(inner.created[cond ? "Add" : "Mul"], 1) << "cond " << cond;
  }
}

TEST(GuardedBackend, RegisteredInstanceRunsTheReferenceKernels) {
  auto om = testing::CompileToOm(CrossingGraph());
  ASSERT_TRUE(om.ok()) << om.status().ToString();
  const std::vector<float> x = Pseudo(64, 5);
  auto order = BackendRegistry::Global().Order("guarded,cpu");
  ASSERT_TRUE(order.ok()) << order.status().ToString();
  auto split = RunOn(*om, *order, x);
  ASSERT_TRUE(split.ok()) << split.status().ToString();
  auto reference = RunOn(*om, BackendRegistry::Global().Order("reference,cpu").value(), x);
  ASSERT_TRUE(reference.ok()) << reference.status().ToString();
  EXPECT_GE(split->placed["guarded"], 4u);
  // Same kernels as the reference backend's, so the same bytes as that placement.
  EXPECT_EQ(split->outputs, reference->outputs);
  // The default order never places a node there.
  auto defaults = BackendRegistry::Global().Order();
  ASSERT_TRUE(defaults.ok());
  for (const Backend* b : *defaults) EXPECT_STRNE(b->name(), "guarded");
}

TEST(GuardedBackend, StepsWithRunTimeShapesRunOnTheHost) {
  // With a dynamic batch every step is prepared at execution; those read input values and
  // use per-execution host memory, so they leave the device for the first host backend.
  CompileOptions opts;
  opts.dynamic_inputs = true;
  auto om = testing::CompileToOm(CrossingGraph({-1, 16}), opts);
  ASSERT_TRUE(om.ok()) << om.status().ToString();
  auto guarded = MakeGuardedBackend(CpuBackend(), {"Sin", "Add", "Softmax", "Mul"});
  const std::vector<float> x = Pseudo(48, 11);
  auto split = RunOn(*om, {guarded.get(), &CpuBackend()}, x, {3, 16});
  ASSERT_TRUE(split.ok()) << split.status().ToString();
  auto cpu = RunOn(*om, {&CpuBackend()}, x, {3, 16});
  ASSERT_TRUE(cpu.ok()) << cpu.status().ToString();
  EXPECT_EQ(split->placed.count("guarded"), 0u);
  EXPECT_EQ(split->outputs, cpu->outputs);
}

TEST(GuardedBackend, DynamicInputsInDeviceMemoryAreRefusedByName) {
  // Caller buffers on the device (AscendCL's case) with an input sized only at run time:
  // no room can be planned for it at load, so the load says so instead of failing later.
  CompileOptions opts;
  opts.dynamic_inputs = true;
  auto om = testing::CompileToOm(CrossingGraph({-1, 16}), opts);
  ASSERT_TRUE(om.ok()) << om.status().ToString();
  LoadOptions lo;
  lo.backends = {&CpuBackend()};
  lo.io_backend = &GuardedBackend();
  auto model = Model::Load(MappedFile::FromCopy(om->data(), om->size()), lo);
  ASSERT_FALSE(model.ok());
  EXPECT_EQ(model.status().code(), StatusCode::kUnsupported) << model.status().ToString();
  EXPECT_NE(model.status().message().find("static shapes"), std::string::npos)
      << model.status().message();
}

TEST(GuardedBackend, HostPointersAreRefusedAndHostReadsFault) {
  const Backend& g = GuardedBackend();
  EXPECT_FALSE(g.host_accessible());
  void* device = g.AllocateDeviceMemory(256);
  ASSERT_NE(device, nullptr);
  EXPECT_TRUE(IsGuardedAddress(device));
  std::vector<float> host(64, 1.5f), back(64, 0.0f);
  ASSERT_TRUE(g.Copy(device, host.data(), 256, Backend::CopyKind::kHostToDevice).ok());
  ASSERT_TRUE(g.Copy(back.data(), device, 256, Backend::CopyKind::kDeviceToHost).ok());
  EXPECT_EQ(back, host);
  // A host pointer where device memory is needed, or a copy past the allocation.
  EXPECT_FALSE(g.Copy(host.data(), back.data(), 256, Backend::CopyKind::kHostToDevice).ok());
  EXPECT_FALSE(g.Copy(back.data(), device, 512, Backend::CopyKind::kDeviceToHost).ok());
  // The runtime never hands the device a host pointer: a kernel given one refuses it.
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {64});
  b.Add("Relu", {"x"}, {"y"});
  KernelPrepareContext ctx = MakePrepareContext(b.g, b.g.nodes[0], nullptr, 1);
  ctx.inputs = {TensorType{DataType::kFloat, {64}}};
  ctx.outputs = {TensorType{DataType::kFloat, {64}}};
  auto kernel = g.CreateKernel(ctx);
  ASSERT_TRUE(kernel.ok()) << kernel.status().ToString();
  const void* in[] = {host.data()};
  void* out[] = {device};
  KernelRunContext run;
  run.inputs = in;
  run.outputs = out;
  const Status refused = (*kernel)->Run(run);
  EXPECT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("not in its memory"), std::string::npos) << refused.message();
  in[0] = device;
  EXPECT_TRUE((*kernel)->Run(run).ok());
  // Reading device memory from the host faults, as it would on a GPU.
  EXPECT_DEATH(
      {
        volatile const float* p = static_cast<const float*>(device);
        std::printf("%f\n", p[0]);
      },
      "");
  g.FreeDeviceMemory(device);
  EXPECT_FALSE(IsGuardedAddress(device));
}

}  // namespace
}  // namespace oc
