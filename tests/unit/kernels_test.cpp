// Kernels against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/cpu/cpu_backend.h"
#include "test_graph.h"

namespace oc {
namespace {

using testing::FloatTensor;
using testing::ToVector;

std::vector<Tensor> Eval(const std::string& op, const std::vector<const Tensor*>& in,
                         const std::vector<TensorType>& out, AttributeMap attrs = {},
                         int64_t opset = 17) {
  Node n;
  n.name = "n";
  n.op_type = op;
  n.attrs = std::move(attrs);
  for (size_t i = 0; i < in.size(); ++i) n.inputs.push_back(in[i] ? "i" + std::to_string(i) : "");
  for (size_t i = 0; i < out.size(); ++i) n.outputs.push_back("o" + std::to_string(i));
  auto r = EvaluateNode(CpuBackend(), n, 17, in, out);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? std::move(r).value() : std::vector<Tensor>{};
}

TEST(Kernels, AddBroadcastsRowAndColumn) {
  Tensor a = FloatTensor({2, 1}, {1, 2});
  Tensor b = FloatTensor({3}, {10, 20, 30});
  auto y = Eval("Add", {&a, &b}, {{DataType::kFloat, {2, 3}}});
  EXPECT_EQ(ToVector(y[0]), (std::vector<float>{11, 21, 31, 12, 22, 32}));
}

TEST(Kernels, DivAndPowAndCompare) {
  Tensor a = FloatTensor({3}, {1, 4, 9});
  Tensor b = FloatTensor({}, {2});
  EXPECT_EQ(ToVector(Eval("Div", {&a, &b}, {{DataType::kFloat, {3}}})[0]),
            (std::vector<float>{0.5f, 2, 4.5f}));
  EXPECT_EQ(ToVector(Eval("Pow", {&a, &b}, {{DataType::kFloat, {3}}})[0]),
            (std::vector<float>{1, 16, 81}));
  auto eq = Eval("Greater", {&a, &b}, {{DataType::kBool, {3}}});
  const auto* p = eq[0].data_as<uint8_t>();
  EXPECT_EQ(p[0], 0);
  EXPECT_EQ(p[1], 1);
  EXPECT_EQ(p[2], 1);
}

TEST(Kernels, TransposeAndSlice) {
  Tensor x = FloatTensor({2, 3}, {1, 2, 3, 4, 5, 6});
  AttributeMap perm;
  perm.Set("perm", std::vector<int64_t>{1, 0});
  EXPECT_EQ(ToVector(Eval("Transpose", {&x}, {{DataType::kFloat, {3, 2}}}, perm)[0]),
            (std::vector<float>{1, 4, 2, 5, 3, 6}));
  Tensor starts = Tensor::FromInt64s({1}, {1}), ends = Tensor::FromInt64s({100}, {1});
  Tensor axes = Tensor::FromInt64s({1}, {1}), steps = Tensor::FromInt64s({1}, {1});
  EXPECT_EQ(
      ToVector(Eval("Slice", {&x, &starts, &ends, &axes, &steps}, {{DataType::kFloat, {2, 2}}})[0]),
      (std::vector<float>{2, 3, 5, 6}));
  Tensor rs = Tensor::FromInt64s({-1}, {1}), re = Tensor::FromInt64s({-100}, {1});
  Tensor rstep = Tensor::FromInt64s({-2}, {1});
  EXPECT_EQ(ToVector(Eval("Slice", {&x, &rs, &re, &axes, &rstep}, {{DataType::kFloat, {2, 2}}})[0]),
            (std::vector<float>{3, 1, 6, 4}));
}

TEST(Kernels, GatherRejectsOutOfRangeIndex) {
  Tensor x = FloatTensor({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor idx = Tensor::FromInt64s({2, -3}, {2});
  EXPECT_EQ(ToVector(Eval("Gather", {&x, &idx}, {{DataType::kFloat, {2, 2}}})[0]),
            (std::vector<float>{5, 6, 1, 2}));
  Node n;
  n.name = "g";
  n.op_type = "Gather";
  n.inputs = {"x", "i"};
  n.outputs = {"y"};
  Tensor bad = Tensor::FromInt64s({3}, {1});
  auto r = EvaluateNode(CpuBackend(), n, 17, {&x, &bad}, {{DataType::kFloat, {1, 2}}});
  EXPECT_FALSE(r.ok());
}

TEST(Kernels, SoftmaxRowsSumToOne) {
  Tensor x = FloatTensor({2, 3}, {1, 2, 3, 0, 0, 0});
  auto y = ToVector(Eval("Softmax", {&x}, {{DataType::kFloat, {2, 3}}})[0]);
  const double e1 = std::exp(1.0), e2 = std::exp(2.0), e3 = std::exp(3.0), s = e1 + e2 + e3;
  EXPECT_NEAR(y[0], e1 / s, 1e-6);
  EXPECT_NEAR(y[2], e3 / s, 1e-6);
  EXPECT_NEAR(y[4], 1.0 / 3, 1e-6);
}

TEST(Kernels, ConvMatchesHandComputation) {
  // 1x1x3x3 input, one 2x2 kernel of ones, bias 0.5, stride 1, no pad.
  Tensor x = FloatTensor({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Tensor w = FloatTensor({1, 1, 2, 2}, {1, 1, 1, 1});
  Tensor b = FloatTensor({1}, {0.5f});
  auto y = ToVector(Eval("Conv", {&x, &w, &b}, {{DataType::kFloat, {1, 1, 2, 2}}})[0]);
  EXPECT_EQ(y, (std::vector<float>{12.5f, 16.5f, 24.5f, 28.5f}));
}

TEST(Kernels, MatMulBatchedAndGemmTransposed) {
  Tensor a = FloatTensor({2, 1, 2}, {1, 2, 3, 4});
  Tensor b = FloatTensor({2, 1}, {10, 100});
  EXPECT_EQ(ToVector(Eval("MatMul", {&a, &b}, {{DataType::kFloat, {2, 1, 1}}})[0]),
            (std::vector<float>{210, 430}));
  Tensor ga = FloatTensor({2, 2}, {1, 2, 3, 4});
  Tensor gb = FloatTensor({2, 2}, {1, 0, 1, 1});  // used transposed
  Tensor gc = FloatTensor({2}, {100, 200});
  AttributeMap at;
  at.Set("transB", int64_t{1});
  at.Set("alpha", 2.0f);
  at.Set("beta", 0.5f);
  // A x B^T = [[1,3],[3,7]]; *2 + 0.5*C = [[52,106],[56,114]]
  EXPECT_EQ(ToVector(Eval("Gemm", {&ga, &gb, &gc}, {{DataType::kFloat, {2, 2}}}, at)[0]),
            (std::vector<float>{52, 106, 56, 114}));
}

TEST(Kernels, LayerNormAndReduceMean) {
  Tensor x = FloatTensor({2, 2}, {1, 3, 2, 2});
  Tensor g = FloatTensor({2}, {1, 2});
  Tensor b = FloatTensor({2}, {0, 1});
  auto y = ToVector(Eval("LayerNormalization", {&x, &g, &b}, {{DataType::kFloat, {2, 2}}})[0]);
  const float inv = 1.0f / std::sqrt(1.0f + 1e-5f);
  EXPECT_NEAR(y[0], -inv, 1e-6);
  EXPECT_NEAR(y[1], 2 * inv + 1, 1e-6);
  EXPECT_NEAR(y[2], 0, 1e-6);
  AttributeMap axes;
  axes.Set("axes", std::vector<int64_t>{0});
  axes.Set("keepdims", int64_t{0});
  EXPECT_EQ(ToVector(Eval("ReduceMean", {&x}, {{DataType::kFloat, {2}}}, axes, 11)[0]),
            (std::vector<float>{1.5f, 2.5f}));
}

TEST(Kernels, MaxPoolCeilModeAndGlobalAverage) {
  Tensor x = FloatTensor({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  AttributeMap at;
  at.Set("kernel_shape", std::vector<int64_t>{2, 2});
  at.Set("strides", std::vector<int64_t>{2, 2});
  at.Set("ceil_mode", int64_t{1});
  EXPECT_EQ(ToVector(Eval("MaxPool", {&x}, {{DataType::kFloat, {1, 1, 2, 2}}}, at)[0]),
            (std::vector<float>{5, 6, 8, 9}));
  EXPECT_EQ(ToVector(Eval("GlobalAveragePool", {&x}, {{DataType::kFloat, {1, 1, 1, 1}}})[0]),
            (std::vector<float>{5}));
}

}  // namespace
}  // namespace oc
