// QLinearConv, ConvInteger, QLinearMatMul and MatMulInteger: oneDNN's int8 path against the
// plain integer loops of the same kernel (OCANN_INT8_PLAIN=1 selects them), bit for bit,
// over strides, padding, groups, zero points, per-channel scales, biases and output types.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <optional>

#include "kernels/cpu/cpu_backend.h"
#include "test_graph.h"

namespace oc::testing {
namespace {

Tensor Bytes(DataType t, const Shape& shape, uint32_t seed, int lo, int hi) {
  Tensor out(t, shape);
  uint32_t s = seed * 2654435761u + 1;
  auto* p = static_cast<uint8_t*>(out.mutable_data());
  for (int64_t i = 0; i < out.numel(); ++i) {
    s = s * 1664525u + 1013904223u;
    const int v = lo + static_cast<int>((s >> 8) % static_cast<uint32_t>(hi - lo + 1));
    p[i] = static_cast<uint8_t>(v);
  }
  return out;
}

Tensor Scalar(DataType t, double v) {
  Tensor out(t, {});
  if (t == DataType::kFloat)
    out.mutable_data_as<float>()[0] = static_cast<float>(v);
  else if (t == DataType::kInt32)
    out.mutable_data_as<int32_t>()[0] = static_cast<int32_t>(v);
  else
    static_cast<uint8_t*>(out.mutable_data())[0] = static_cast<uint8_t>(static_cast<int>(v));
  return out;
}

struct QConvCase {
  Shape x, w;
  std::vector<int64_t> strides{1, 1}, pads{1, 1, 1, 1};
  int64_t group = 1;
  DataType x_type = DataType::kUint8, y_type = DataType::kUint8;
  int x_zero = 128, y_zero = 3;
  bool per_channel = true, bias = true, qlinear = true;
};

// The output bytes of one run; `plain` selects the integer loops.
std::vector<uint8_t> RunQConv(const QConvCase& c, bool plain, std::string* impl_error) {
  // Compile (constant folding prepares kernels) and load with the switch.
  std::optional<ScopedConfig> config(std::in_place,
                                     ConfigWithVariable("OCANN_INT8_PLAIN", plain ? "1" : nullptr));
  GraphBuilder b;
  b.Input("x", c.x_type, c.x);
  b.Const("w", Bytes(DataType::kInt8, c.w, 3, -127, 127));
  std::vector<std::string> in;
  if (c.qlinear) {
    b.Const("xs", Scalar(DataType::kFloat, 0.02));
    b.Const("xz", Scalar(c.x_type, c.x_zero));
    Tensor ws(DataType::kFloat, {c.per_channel ? c.w[0] : 1});
    for (int64_t i = 0; i < ws.numel(); ++i)
      ws.mutable_data_as<float>()[i] = 0.001f * static_cast<float>(1 + i % 7);
    b.Const("ws", ws);
    b.Const("wz", Scalar(DataType::kInt8, 0));
    b.Const("ys", Scalar(DataType::kFloat, 0.05));
    b.Const("yz", Scalar(c.y_type, c.y_zero));
    in = {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz"};
    if (c.bias) {
      Tensor bias(DataType::kInt32, {c.w[0]});
      for (int64_t i = 0; i < c.w[0]; ++i)
        bias.mutable_data_as<int32_t>()[i] = static_cast<int32_t>(i * 37 % 501) - 250;
      b.Const("bias", bias);
      in.push_back("bias");
    }
  } else {
    b.Const("xz", Scalar(c.x_type, c.x_zero));
    in = {"x", "w", "xz"};
  }
  Node& n = b.Add(c.qlinear ? "QLinearConv" : "ConvInteger", in, {"y"});
  n.attrs.Set("strides", c.strides);
  n.attrs.Set("pads", c.pads);
  if (c.group != 1) n.attrs.Set("group", c.group);
  b.Output("y");
  b.g.opset_version = 13;
  auto bytes = CompileToOm(b.g);
  if (!bytes.ok()) {
    *impl_error = bytes.status().ToString();
    return {};
  }
  LoadOptions lo;
  auto backends = BackendRegistry::Global().Order("cpu");
  lo.backends = backends.value();
  auto model = Model::Load(MappedFile::FromCopy(bytes->data(), bytes->size()), lo);
  config.reset();
  if (!model.ok()) {
    *impl_error = model.status().ToString();
    return {};
  }
  Tensor x = Bytes(c.x_type, c.x, 5, c.x_type == DataType::kUint8 ? 0 : -128,
                   c.x_type == DataType::kUint8 ? 255 : 127);
  std::vector<uint8_t> y((*model)->outputs()[0].bytes);
  Status s =
      (*model)->Execute({x.data()}, {static_cast<size_t>(x.nbytes())}, {y.data()}, {y.size()});
  if (!s.ok()) *impl_error = s.ToString();
  return y;
}

void Check(const QConvCase& c) {
  std::string err;
  auto fast = RunQConv(c, false, &err);
  ASSERT_TRUE(err.empty()) << err;
  auto plain = RunQConv(c, true, &err);
  ASSERT_TRUE(err.empty()) << err;
  ASSERT_EQ(fast.size(), plain.size());
  size_t differ = 0;
  for (size_t i = 0; i < fast.size(); ++i) differ += fast[i] != plain[i];
  EXPECT_EQ(differ, 0u) << "of " << fast.size() << " output bytes";
  // The output is not trivially saturated.
  size_t distinct = 0;
  std::vector<bool> seen(256);
  for (uint8_t v : fast)
    if (!seen[v]) seen[v] = true, ++distinct;
  EXPECT_GT(distinct, 8u);
}

TEST(QuantizedConv, Int8PathMatchesThePlainLoops) {
  Check({{1, 16, 12, 12}, {32, 16, 3, 3}});
  Check({{2, 8, 11, 9}, {16, 8, 3, 3}, {2, 2}, {1, 0, 1, 2}});
  Check({{1, 32, 8, 8}, {32, 1, 3, 3}, {1, 1}, {1, 1, 1, 1}, 32});  // depthwise
  Check({{1, 24, 7, 7},
         {48, 24, 1, 1},
         {1, 1},
         {0, 0, 0, 0},
         1,
         DataType::kInt8,
         DataType::kInt8,
         -5,
         -2,
         false,
         false});
  Check({{1, 3, 15, 15},
         {8, 3, 5, 5},
         {2, 2},
         {2, 2, 2, 2},
         1,
         DataType::kUint8,
         DataType::kUint8,
         0,
         0});
}

TEST(QuantizedConv, ConvIntegerInt8PathMatchesThePlainLoops) {
  QConvCase c{{1, 16, 10, 10}, {8, 16, 3, 3}};
  c.qlinear = false;
  c.x_zero = 100;
  std::string err;
  auto fast = RunQConv(c, false, &err);
  ASSERT_TRUE(err.empty()) << err;
  auto plain = RunQConv(c, true, &err);
  ASSERT_TRUE(err.empty()) << err;
  EXPECT_EQ(fast, plain);
}

// QLinearMatMul / MatMulInteger: A [2, 5, 64] (its leading dims fold into rows) times a
// constant int8 B [64, 48].
std::vector<uint8_t> RunQMatMul(bool qlinear, DataType a_type, DataType y_type, int a_zero,
                                bool plain, std::string* err) {
  std::optional<ScopedConfig> config(std::in_place,
                                     ConfigWithVariable("OCANN_INT8_PLAIN", plain ? "1" : nullptr));
  GraphBuilder b;
  const Shape as = {2, 5, 64};
  b.Input("a", a_type, as);
  b.Const("b", Bytes(DataType::kInt8, {64, 48}, 9, -127, 127));
  b.Const("az", Scalar(a_type, a_zero));
  std::vector<std::string> in;
  if (qlinear) {
    b.Const("as", Scalar(DataType::kFloat, 0.02));
    b.Const("bs", Scalar(DataType::kFloat, 0.004));
    b.Const("bz", Scalar(DataType::kInt8, 0));
    b.Const("ys", Scalar(DataType::kFloat, 0.3));
    b.Const("yz", Scalar(y_type, 7));
    in = {"a", "as", "az", "b", "bs", "bz", "ys", "yz"};
  } else {
    in = {"a", "b", "az"};
  }
  b.Add(qlinear ? "QLinearMatMul" : "MatMulInteger", in, {"y"});
  b.Output("y");
  b.g.opset_version = 13;
  auto bytes = CompileToOm(b.g);
  if (!bytes.ok()) {
    *err = bytes.status().ToString();
    return {};
  }
  LoadOptions lo;
  lo.backends = BackendRegistry::Global().Order("cpu").value();
  auto model = Model::Load(MappedFile::FromCopy(bytes->data(), bytes->size()), lo);
  config.reset();
  if (!model.ok()) {
    *err = model.status().ToString();
    return {};
  }
  Tensor a = Bytes(a_type, as, 11, a_type == DataType::kUint8 ? 0 : -128,
                   a_type == DataType::kUint8 ? 255 : 127);
  std::vector<uint8_t> y((*model)->outputs()[0].bytes);
  Status s =
      (*model)->Execute({a.data()}, {static_cast<size_t>(a.nbytes())}, {y.data()}, {y.size()});
  if (!s.ok()) *err = s.ToString();
  return y;
}

TEST(QuantizedMatMul, Int8PathMatchesThePlainLoops) {
  struct Case {
    bool qlinear;
    DataType a, y;
    int zero;
  };
  for (const Case& c : {Case{true, DataType::kUint8, DataType::kUint8, 128},
                        Case{true, DataType::kInt8, DataType::kInt8, -3},
                        Case{true, DataType::kUint8, DataType::kInt8, 0},
                        Case{false, DataType::kUint8, DataType::kInt32, 100},
                        Case{false, DataType::kInt8, DataType::kInt32, 0}}) {
    std::string err;
    auto fast = RunQMatMul(c.qlinear, c.a, c.y, c.zero, false, &err);
    ASSERT_TRUE(err.empty()) << err;
    auto plain = RunQMatMul(c.qlinear, c.a, c.y, c.zero, true, &err);
    ASSERT_TRUE(err.empty()) << err;
    ASSERT_EQ(fast.size(), plain.size());
    size_t differ = 0;
    for (size_t i = 0; i < fast.size(); ++i) differ += fast[i] != plain[i];
    EXPECT_EQ(differ, 0u) << "qlinear " << c.qlinear << " zero " << c.zero;
    std::vector<bool> seen(256);
    size_t distinct = 0;
    for (uint8_t v : fast)
      if (!seen[v]) seen[v] = true, ++distinct;
    EXPECT_GT(distinct, 8u);
  }
}

// A misspelt switch is refused, naming the variable, wherever the kernel is first prepared
// (constant folding at compile time, or load).
TEST(QuantizedConv, InvalidPlainSwitchIsRefused) {
  GraphBuilder b;
  b.Input("x", DataType::kUint8, {1, 4, 4, 4});
  b.Const("w", Bytes(DataType::kInt8, {4, 4, 1, 1}, 3, -127, 127));
  b.Const("xz", Scalar(DataType::kUint8, 0));
  b.Add("ConvInteger", {"x", "w", "xz"}, {"y"});
  b.Output("y");
  b.g.opset_version = 13;
  ScopedConfig misspelt(ConfigWithVariable("OCANN_INT8_PLAIN", "yes"));
  Status s = Status::Ok();
  auto bytes = CompileToOm(b.g);
  if (!bytes.ok()) {
    s = bytes.status();
  } else {
    LoadOptions lo;
    lo.backends = BackendRegistry::Global().Order("cpu").value();
    auto model = Model::Load(MappedFile::FromCopy(bytes->data(), bytes->size()), lo);
    if (!model.ok()) s = model.status();
  }
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("OCANN_INT8_PLAIN"), std::string::npos) << s.ToString();
}

}  // namespace
}  // namespace oc::testing

namespace oc::testing {
namespace {

// NaN has no integer: QuantizeLinear and DynamicQuantizeLinear store 0 for it rather than
// the undefined float -> uint8 conversion std::clamp left (UBSan's finding, issue 30).
TEST(QuantizeNaN, StoresZero) {
  Node q;
  q.name = "q";
  q.op_type = "QuantizeLinear";
  q.inputs = {"x", "s", "z"};
  q.outputs = {"y"};
  Tensor x = FloatTensor({3}, {std::nanf(""), 1.0f, -1.0f});
  Tensor scale = FloatTensor({}, {0.5f});
  Tensor zp(DataType::kUint8, {});
  *static_cast<uint8_t*>(zp.mutable_data()) = 10;
  auto r = EvaluateNode(CpuBackend(), q, 17, {&x, &scale, &zp}, {{DataType::kUint8, {3}}});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const auto* y = static_cast<const uint8_t*>((*r)[0].data());
  EXPECT_EQ(y[0], 0);
  EXPECT_EQ(y[1], 12);
  EXPECT_EQ(y[2], 8);
  Node d;
  d.name = "d";
  d.op_type = "DynamicQuantizeLinear";
  d.inputs = {"x"};
  d.outputs = {"y", "s", "z"};
  auto dr = EvaluateNode(CpuBackend(), d, 17, {&x},
                         {{DataType::kUint8, {3}}, {DataType::kFloat, {}}, {DataType::kUint8, {}}});
  ASSERT_TRUE(dr.ok()) << dr.status().ToString();
  EXPECT_EQ(static_cast<const uint8_t*>((*dr)[0].data())[0], 0);
}

}  // namespace
}  // namespace oc::testing
