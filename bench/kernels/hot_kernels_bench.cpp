// Google Benchmark suite for the CPU backend's hot kernels, each run as a one-node model
// through the compiler and the runtime (what an application's step costs, dispatch
// included). Shapes are those that dominate the reference models: resnet50's 3x3 and 1x1
// convolutions, efficientnet's depthwise convolution and squeeze-and-excitation scale, the
// BERT-like encoder's matmuls, softmax and layer normalisation. Counters: GFLOP per second for the
// cube ops, GB/s (bytes read and written) for the rest.
//
//   build/bin/oc_hot_kernels_bench [--benchmark_filter=Conv] [--threads via OCANN_NUM_THREADS]
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "test_graph.h"

namespace oc::testing {
namespace {

int Threads() {
  const char* t = std::getenv("OCANN_NUM_THREADS");
  return t ? std::max(1, std::atoi(t)) : 1;
}

struct Prepared {
  std::shared_ptr<Model> model;
  std::vector<std::vector<float>> inputs;
  std::vector<std::vector<float>> outputs;
};

// Compiles and loads `g`; fills inputs with pseudo-random values.
bool Prepare(Graph g, const std::string& precision, Prepared* out, benchmark::State& state) {
  CompileOptions opts;
  if (!precision.empty()) {
    auto p = ParsePrecisionMode(precision, false);
    if (!p.ok()) {
      state.SkipWithError(p.status().ToString().c_str());
      return false;
    }
    opts.precision = p.value();
  }
  std::vector<Shape> in_shapes;
  for (const auto& name : g.inputs) in_shapes.push_back(g.values[name].shape);
  auto bytes = CompileToOm(std::move(g), opts);
  if (!bytes.ok()) {
    state.SkipWithError(bytes.status().ToString().c_str());
    return false;
  }
  LoadOptions lo;
  lo.num_threads = Threads();
  auto backends = BackendRegistry::Global().Order("");
  if (!backends.ok()) {
    state.SkipWithError(backends.status().ToString().c_str());
    return false;
  }
  lo.backends = backends.value();
  auto model = Model::Load(MappedFile::FromCopy(bytes->data(), bytes->size()), lo);
  if (!model.ok()) {
    state.SkipWithError(model.status().ToString().c_str());
    return false;
  }
  out->model = std::move(model.value());
  uint32_t seed = 1;
  for (const auto& s : in_shapes) out->inputs.push_back(Pseudo(NumElements(s), seed++));
  for (const auto& o : out->model->outputs())
    out->outputs.emplace_back((o.bytes + 3) / sizeof(float));
  return true;
}

void Loop(benchmark::State& state, Prepared& p, double flop, double bytes) {
  std::vector<const void*> in;
  std::vector<size_t> in_sizes;
  std::vector<void*> outs;
  std::vector<size_t> out_sizes;
  for (auto& v : p.inputs) {
    in.push_back(v.data());
    in_sizes.push_back(v.size() * sizeof(float));
  }
  for (auto& v : p.outputs) {
    outs.push_back(v.data());
    out_sizes.push_back(v.size() * sizeof(float));
  }
  for (auto _ : state) {
    Status s = p.model->Execute(in, in_sizes, outs, out_sizes);
    if (!s.ok()) {
      state.SkipWithError(s.ToString().c_str());
      return;
    }
    benchmark::DoNotOptimize(outs[0]);
  }
  if (flop > 0)
    state.counters["GFLOP"] =
        benchmark::Counter(flop * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  if (bytes > 0)
    state.counters["GB"] =
        benchmark::Counter(bytes * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

// Conv [1, ic, hw, hw] with oc filters of k x k (stride 1, same padding) and a fused ReLU.
void BM_Conv(benchmark::State& state, int64_t ic, int64_t oc, int64_t hw, int64_t k, int64_t group,
             const std::string& precision) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {1, ic, hw, hw});
  b.Const("w", FloatTensor({oc, ic / group, k, k}, Pseudo(oc * ic / group * k * k, 7)));
  b.Const("bias", FloatTensor({oc}, Pseudo(oc, 8)));
  auto& c = b.Add("Conv", {"x", "w", "bias"}, {"c"});
  c.attrs.Set("pads", std::vector<int64_t>{k / 2, k / 2, k / 2, k / 2});
  c.attrs.Set("group", group);
  b.Add("Relu", {"c"}, {"y"});
  b.Output("y");
  Prepared p;
  if (!Prepare(b.g, precision, &p, state)) return;
  Loop(state, p, 2.0 * oc * (ic / group) * k * k * hw * hw, 0);
}

// [m, k] x [k, n] with a constant B and bias (a transformer's linear layer).
void BM_Linear(benchmark::State& state, int64_t m, int64_t k, int64_t n,
               const std::string& precision) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {m, k});
  b.Const("w", FloatTensor({k, n}, Pseudo(k * n, 9)));
  b.Const("bias", FloatTensor({n}, Pseudo(n, 10)));
  b.Add("MatMul", {"x", "w"}, {"mm"});
  b.Add("Add", {"mm", "bias"}, {"y"});
  b.Output("y");
  Prepared p;
  if (!Prepare(b.g, precision, &p, state)) return;
  Loop(state, p, 2.0 * m * k * n, 0);
}

void BM_Softmax(benchmark::State& state, int64_t rows, int64_t cols) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {rows, cols});
  b.Add("Softmax", {"x"}, {"y"}).attrs.Set("axis", int64_t{-1});
  b.Output("y");
  Prepared p;
  if (!Prepare(b.g, "", &p, state)) return;
  Loop(state, p, 0, 8.0 * rows * cols);
}

void BM_LayerNorm(benchmark::State& state, int64_t rows, int64_t cols) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {rows, cols});
  b.Const("g", FloatTensor({cols}, Pseudo(cols, 11)));
  b.Const("beta", FloatTensor({cols}, Pseudo(cols, 12)));
  b.Add("LayerNormalization", {"x", "g", "beta"}, {"y"}).attrs.Set("axis", int64_t{-1});
  b.Output("y");
  Prepared p;
  if (!Prepare(b.g, "", &p, state)) return;
  Loop(state, p, 0, 8.0 * rows * cols);
}

// A squeeze-and-excitation scale: x [1, c, hw, hw] times a per-channel [1, c, 1, 1].
void BM_ChannelScale(benchmark::State& state, int64_t c, int64_t hw) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {1, c, hw, hw});
  b.Input("s", DataType::kFloat, {1, c, 1, 1});
  b.Add("Mul", {"x", "s"}, {"y"});
  b.Output("y");
  Prepared p;
  if (!Prepare(b.g, "", &p, state)) return;
  Loop(state, p, 0, 8.0 * c * hw * hw);
}

void BM_GlobalAveragePool(benchmark::State& state, int64_t c, int64_t hw) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {1, c, hw, hw});
  b.Add("GlobalAveragePool", {"x"}, {"y"});
  b.Output("y");
  Prepared p;
  if (!Prepare(b.g, "", &p, state)) return;
  Loop(state, p, 0, 4.0 * c * hw * hw);
}

// QLinearConv [1, c, hw, hw] (uint8) with int8 3x3 weights, per-channel scales, a bias.
// OCANN_INT8_PLAIN=1 times the plain integer loops instead of oneDNN's int8 kernels.
void BM_QLinearConv(benchmark::State& state, int64_t c, int64_t hw) {
  GraphBuilder b;
  b.Input("x", DataType::kUint8, {1, c, hw, hw});
  auto scalar = [](DataType t, double v) {
    Tensor out(t, {});
    if (t == DataType::kFloat)
      out.mutable_data_as<float>()[0] = static_cast<float>(v);
    else
      static_cast<uint8_t*>(out.mutable_data())[0] = static_cast<uint8_t>(static_cast<int>(v));
    return out;
  };
  Tensor w(DataType::kInt8, {c, c, 3, 3});
  for (int64_t i = 0; i < w.numel(); ++i)
    w.mutable_data_as<int8_t>()[i] = static_cast<int8_t>((i * 37) % 255 - 127);
  Tensor ws(DataType::kFloat, {c});
  for (int64_t i = 0; i < c; ++i) ws.mutable_data_as<float>()[i] = 0.001f;
  Tensor bias(DataType::kInt32, {c});
  for (int64_t i = 0; i < c; ++i) bias.mutable_data_as<int32_t>()[i] = static_cast<int32_t>(i);
  b.Const("xs", scalar(DataType::kFloat, 0.02));
  b.Const("xz", scalar(DataType::kUint8, 128));
  b.Const("w", w);
  b.Const("ws", ws);
  b.Const("wz", scalar(DataType::kInt8, 0));
  b.Const("ys", scalar(DataType::kFloat, 0.05));
  b.Const("yz", scalar(DataType::kUint8, 0));
  b.Const("bias", bias);
  auto& n = b.Add("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "bias"}, {"y"});
  n.attrs.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  b.Output("y");
  b.g.opset_version = 13;
  Prepared p;
  if (!Prepare(b.g, "", &p, state)) return;
  // uint8 input: the float buffer is only reused as bytes.
  Loop(state, p, 2.0 * c * c * 9 * hw * hw, 0);
}

const char* kBf16 = "allow_mix_precision_bf16";

BENCHMARK_CAPTURE(BM_Conv, resnet_3x3_64ch_56, 64, 64, 56, 3, 1, "")->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Conv, resnet_3x3_64ch_56_bf16, 64, 64, 56, 3, 1, kBf16)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Conv, resnet_1x1_256to64_56, 256, 64, 56, 1, 1, "")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Conv, resnet_1x1_256to64_56_bf16, 256, 64, 56, 1, 1, kBf16)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Conv, effnet_depthwise_3x3_144ch_56, 144, 144, 56, 3, 144, "")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Linear, bert_ffn_128x768x3072, 128, 768, 3072, "")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Linear, bert_ffn_128x768x3072_bf16, 128, 768, 3072, kBf16)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_QLinearConv, resnet_3x3_64ch_56_int8, 64, 56)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Softmax, attention_1536x128, 1536, 128)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_LayerNorm, bert_128x768, 128, 768)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ChannelScale, effnet_144ch_56, 144, 56)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_GlobalAveragePool, effnet_144ch_56, 144, 56)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace oc::testing

BENCHMARK_MAIN();
