// Reference element-wise kernels: unary math and activations, Clip, and the numpy-
// broadcasting arithmetic ops (Add, Sub, Mul, Div, Pow; variadic Sum, Mean, Max, Min).
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/reference/ref_util.h"

namespace oc::ref {
namespace {

using UnaryFn = float (*)(float, float, float);

struct UnaryOp {
  const char* name;
  UnaryFn fn;
  float alpha, beta;  // defaults of the op's attributes
};

const UnaryOp kUnary[] = {
    {"Relu", [](float x, float, float) { return x > 0 ? x : 0.0f; }, 0, 0},
    {"Sigmoid", [](float x, float, float) { return 1.0f / (1.0f + std::exp(-x)); }, 0, 0},
    {"Tanh", [](float x, float, float) { return std::tanh(x); }, 0, 0},
    {"Exp", [](float x, float, float) { return std::exp(x); }, 0, 0},
    {"Log", [](float x, float, float) { return std::log(x); }, 0, 0},
    {"Sqrt", [](float x, float, float) { return std::sqrt(x); }, 0, 0},
    {"Abs", [](float x, float, float) { return std::fabs(x); }, 0, 0},
    {"Neg", [](float x, float, float) { return -x; }, 0, 0},
    {"Erf", [](float x, float, float) { return std::erf(x); }, 0, 0},
    {"Reciprocal", [](float x, float, float) { return 1.0f / x; }, 0, 0},
    {"Floor", [](float x, float, float) { return std::floor(x); }, 0, 0},
    {"Ceil", [](float x, float, float) { return std::ceil(x); }, 0, 0},
    {"Softplus", [](float x, float, float) { return std::log1p(std::exp(x)); }, 0, 0},
    {"LeakyRelu", [](float x, float a, float) { return x >= 0 ? x : a * x; }, 0.01f, 0},
    {"Elu", [](float x, float a, float) { return x >= 0 ? x : a * (std::exp(x) - 1.0f); }, 1.0f, 0},
    {"HardSigmoid",
     [](float x, float a, float b) { return std::max(0.0f, std::min(1.0f, a * x + b)); }, 0.2f,
     0.5f},
    {"HardSwish",
     [](float x, float, float) { return x * std::max(0.0f, std::min(1.0f, x / 6.0f + 0.5f)); }, 0,
     0},
};

class UnaryKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const std::string& op = ctx.node->op_type;
    n_ = ctx.inputs[0].numel();
    if (op == "Gelu") {
      const bool tanh = ctx.attrs().GetString("approximate", "none") == "tanh";
      fn_ = tanh ? +[](float x, float, float) {
        const float k = std::sqrt(2.0f / static_cast<float>(M_PI));
        return 0.5f * x * (1.0f + std::tanh(k * (x + 0.044715f * x * x * x)));
      }
                 : +[](float x, float, float) { return 0.5f * x * (1.0f + std::erf(x / std::sqrt(2.0f))); };
      return Status::Ok();
    }
    for (const auto& u : kUnary)
      if (op == u.name) {
        fn_ = u.fn;
        alpha_ = ctx.attrs().GetFloat("alpha", u.alpha);
        beta_ = ctx.attrs().GetFloat("beta", u.beta);
        return Status::Ok();
      }
    return ctx.Error("no reference kernel");
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* x = static_cast<const float*>(ctx.inputs[0]);
    auto* y = static_cast<float*>(ctx.outputs[0]);
    for (int64_t i = 0; i < n_; ++i) y[i] = fn_(x[i], alpha_, beta_);
    return Status::Ok();
  }

 private:
  UnaryFn fn_ = nullptr;
  float alpha_ = 0, beta_ = 0;
  int64_t n_ = 0;
};

// Clip: bounds from attributes (opset < 11) or from constant inputs 1 and 2.
class ClipKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    n_ = ctx.inputs[0].numel();
    lo_ = ctx.attrs().GetFloat("min", std::numeric_limits<float>::lowest());
    hi_ = ctx.attrs().GetFloat("max", std::numeric_limits<float>::max());
    for (size_t i = 1; i < 3; ++i) {
      if (!ctx.has_input(i)) continue;
      OC_ASSIGN_OR_RETURN(const double bound, ctx.OneDouble(i, i == 1 ? "min" : "max"));
      (i == 1 ? lo_ : hi_) = static_cast<float>(bound);
    }
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* x = static_cast<const float*>(ctx.inputs[0]);
    auto* y = static_cast<float*>(ctx.outputs[0]);
    for (int64_t i = 0; i < n_; ++i) y[i] = std::min(std::max(x[i], lo_), hi_);
    return Status::Ok();
  }

 private:
  float lo_ = 0, hi_ = 0;
  int64_t n_ = 0;
};

// Binary and variadic ops fold their inputs left to right, each broadcast to the output.
class BroadcastKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    op_ = ctx.node->op_type;
    out_n_ = ctx.outputs[0].numel();
    index_.clear();
    for (size_t i = 0; i < ctx.inputs.size(); ++i)
      index_.push_back(BroadcastIndex(ctx.inputs[i].shape, ctx.outputs[0].shape));
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    auto* y = static_cast<float*>(ctx.outputs[0]);
    std::vector<float> acc(static_cast<size_t>(out_n_));
    const auto* x0 = static_cast<const float*>(ctx.inputs[0]);
    for (int64_t e = 0; e < out_n_; ++e) acc[e] = x0[index_[0][e]];
    for (size_t i = 1; i < index_.size(); ++i) {
      const auto* x = static_cast<const float*>(ctx.inputs[i]);
      for (int64_t e = 0; e < out_n_; ++e) acc[e] = Apply(acc[e], x[index_[i][e]]);
    }
    if (op_ == "Mean")
      for (auto& v : acc) v /= static_cast<float>(index_.size());
    std::copy(acc.begin(), acc.end(), y);  // acc first: the output may alias an input
    return Status::Ok();
  }

 private:
  float Apply(float a, float b) const {
    if (op_ == "Add" || op_ == "Sum" || op_ == "Mean") return a + b;
    if (op_ == "Sub") return a - b;
    if (op_ == "Mul") return a * b;
    if (op_ == "Div") return a / b;
    if (op_ == "Pow") return std::pow(a, b);
    if (op_ == "Max") return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
    return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
  }
  std::string op_;
  int64_t out_n_ = 0;
  std::vector<std::vector<int64_t>> index_;
};

bool FloatOnly(const Node& node, const std::vector<TensorType>& in) {
  return FloatInputs(in) && SingleOutput(node);
}

}  // namespace

void RegisterRefElementwise(RefTable& t) {
  for (const auto& u : kUnary) t.Add<UnaryKernel>(u.name, FloatOnly, "float32");
  t.Add<UnaryKernel>("Gelu", FloatOnly, "float32");
  t.Add<ClipKernel>(
      "Clip", [](const Node& n, const std::vector<TensorType>& in) { return FloatOnly(n, in); },
      "float32");
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Pow", "Sum", "Mean", "Max", "Min"})
    t.Add<BroadcastKernel>(op, FloatOnly, "float32");
}

}  // namespace oc::ref
