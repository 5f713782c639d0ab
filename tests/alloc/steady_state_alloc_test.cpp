// Steady-state inference allocates nothing: after the first executions (which may prepare
// dynamic steps and warm caches), Model::Execute runs from the planned arena and the
// kernels' own buffers. The C++ allocator is replaced in this binary only, counting every
// operator new on every thread while the counting window is open. Sanitizer builds bring
// their own allocator and skip the test.
#include <gtest/gtest.h>

#include "counting_allocator.h"
#include "test_graph.h"

namespace oc::testing {
namespace {

// A small CNN and a transformer-like tail: convolutions (channels-last between them), max
// pooling, a squeeze-and-excitation scale, a residual add, reshape, MatMul with bias,
// LayerNorm and Softmax.
Graph TestModel() {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {1, 8, 16, 16});
  b.Const("w1", FloatTensor({16, 8, 3, 3}, Pseudo(16 * 8 * 9, 1)));
  b.Add("Conv", {"x", "w1"}, {"c1"}).attrs.Set("pads", std::vector<int64_t>{1, 1, 1, 1});
  b.Add("Relu", {"c1"}, {"r0"});
  auto& pool = b.Add("MaxPool", {"r0"}, {"r1"});
  pool.attrs.Set("kernel_shape", std::vector<int64_t>{2, 2});
  pool.attrs.Set("strides", std::vector<int64_t>{2, 2});
  b.Add("GlobalAveragePool", {"r1"}, {"g"});
  b.Add("Sigmoid", {"g"}, {"s"});
  b.Add("Mul", {"r1", "s"}, {"m"});
  b.Const("w2", FloatTensor({16, 16, 1, 1}, Pseudo(256, 2)));
  b.Add("Conv", {"m", "w2"}, {"c2"});
  b.Add("Add", {"c2", "r1"}, {"res"});
  Tensor shape(DataType::kInt64, {2});
  shape.mutable_data_as<int64_t>()[0] = 16;
  shape.mutable_data_as<int64_t>()[1] = 64;
  b.Const("shape", shape);
  b.Add("Reshape", {"res", "shape"}, {"flat"});
  b.Const("w3", FloatTensor({64, 32}, Pseudo(64 * 32, 3)));
  b.Add("MatMul", {"flat", "w3"}, {"mm"});
  b.Const("bias", FloatTensor({32}, Pseudo(32, 5)));
  b.Add("Add", {"mm", "bias"}, {"mb"});
  b.Const("gamma", FloatTensor({32}, Pseudo(32, 6)));
  b.Const("beta", FloatTensor({32}, Pseudo(32, 7)));
  b.Add("LayerNormalization", {"mb", "gamma", "beta"}, {"ln"}).attrs.Set("axis", int64_t{-1});
  b.Add("Softmax", {"ln"}, {"y"}).attrs.Set("axis", int64_t{-1});
  b.Output("y");
  return b.g;
}

TEST(SteadyState, ExecuteAllocatesNothing) {
  if (!OC_COUNTING_ALLOCATOR) GTEST_SKIP() << "sanitizer build: its allocator is not replaced";
  auto bytes = CompileToOm(TestModel());
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  LoadOptions lo;
  lo.num_threads = 2;
  auto backends = BackendRegistry::Global().Order("");
  ASSERT_TRUE(backends.ok());
  lo.backends = backends.value();
  auto model = Model::Load(MappedFile::FromCopy(bytes->data(), bytes->size()), lo);
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  std::vector<float> x = Pseudo(8 * 16 * 16, 4), y((*model)->outputs()[0].bytes / sizeof(float));
  const std::vector<const void*> in = {x.data()};
  const std::vector<size_t> in_sizes = {x.size() * sizeof(float)};
  const std::vector<void*> out = {y.data()};
  const std::vector<size_t> out_sizes = {y.size() * sizeof(float)};
  for (int i = 0; i < 3; ++i) ASSERT_TRUE((*model)->Execute(in, in_sizes, out, out_sizes).ok());
  StartCounting();
  for (int i = 0; i < 20; ++i) ASSERT_TRUE((*model)->Execute(in, in_sizes, out, out_sizes).ok());
  StopCounting();
  EXPECT_EQ(g_allocations.load(), 0u) << "operator new calls in 20 steady-state executions "
                                         "(OC_ALLOC_TRACE=N shows where)";
  // What oneDNN allocates inside its primitive execution: a handful per primitive call.
  std::printf("oneDNN-internal allocations per execution: %.1f\n", g_onednn.load() / 20.0);
}

}  // namespace
}  // namespace oc::testing
