// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (log-softmax over axis 1, then NLL).
#include <cmath>
#include <limits>

#include "backend/kernel.h"
#include "kernels/cpu/kernel_families.h"

namespace oc {
namespace {

class LossKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    type_ = ctx.inputs[0].dtype;
    if (type_ != DataType::kFloat && type_ != DataType::kDouble)
      return ctx.Error("float32 and float64 only");
    const Shape& x = ctx.inputs[0].shape;
    if (x.size() < 2) return ctx.Error("input must have rank >= 2");
    n_ = x[0];
    c_ = x[1];
    d_ = 1;
    for (size_t a = 2; a < x.size(); ++a) d_ *= x[a];
    ttype_ = ctx.inputs[1].dtype;
    if (ttype_ != DataType::kInt32 && ttype_ != DataType::kInt64)
      return ctx.Error("target must be int32/int64");
    has_weight_ = ctx.has_input(2);
    reduction_ = ctx.attrs().GetString("reduction", "mean");
    has_ignore_ = ctx.attrs().Has("ignore_index");
    ignore_ = ctx.attrs().GetInt("ignore_index", 0);
    softmax_ = ctx.node->op_type == "SoftmaxCrossEntropyLoss";
    want_log_prob_ = softmax_ && ctx.outputs.size() > 1 && !ctx.node->outputs[1].empty();
    name_ = ctx.node->name;
    return Status::Ok();
  }

  Status Run(const KernelRunContext& ctx) const override {
    return type_ == DataType::kFloat ? RunT<float>(ctx) : RunT<double>(ctx);
  }

 private:
  template <typename T>
  Status RunT(const KernelRunContext& ctx) const {
    const T* x = static_cast<const T*>(ctx.inputs[0]);
    const T* w = has_weight_ ? static_cast<const T*>(ctx.inputs[2]) : nullptr;
    std::vector<T> scratch;
    const T* logp = x;
    if (softmax_) {
      T* lp = want_log_prob_ ? static_cast<T*>(ctx.outputs[1]) : nullptr;
      if (!lp) {
        scratch.resize(static_cast<size_t>(n_ * c_ * d_));
        lp = scratch.data();
      }
      for (int64_t n = 0; n < n_; ++n)
        for (int64_t d = 0; d < d_; ++d) {
          T m = -std::numeric_limits<T>::infinity();
          for (int64_t c = 0; c < c_; ++c) m = std::max(m, x[(n * c_ + c) * d_ + d]);
          double sum = 0;
          for (int64_t c = 0; c < c_; ++c)
            sum += std::exp(static_cast<double>(x[(n * c_ + c) * d_ + d] - m));
          const double lse = static_cast<double>(m) + std::log(sum);
          for (int64_t c = 0; c < c_; ++c)
            lp[(n * c_ + c) * d_ + d] = static_cast<T>(x[(n * c_ + c) * d_ + d] - lse);
        }
      logp = lp;
    }
    T* y = static_cast<T*>(ctx.outputs[0]);
    double total = 0, weight_sum = 0;
    for (int64_t n = 0; n < n_; ++n)
      for (int64_t d = 0; d < d_; ++d) {
        const int64_t e = n * d_ + d;
        const int64_t t = ttype_ == DataType::kInt64
                              ? static_cast<const int64_t*>(ctx.inputs[1])[e]
                              : static_cast<const int32_t*>(ctx.inputs[1])[e];
        double loss = 0, wt = 0;
        if (!(has_ignore_ && t == ignore_)) {
          if (t < 0 || t >= c_)
            return InvalidArgument("node [" + name_ + "]: target " + std::to_string(t) +
                                   " is outside [0, " + std::to_string(c_) + ")");
          wt = w ? static_cast<double>(w[t]) : 1.0;
          loss = -static_cast<double>(logp[(n * c_ + t) * d_ + d]) * wt;
        }
        if (reduction_ == "none") y[e] = static_cast<T>(loss);
        total += loss;
        weight_sum += wt;
      }
    if (reduction_ == "sum") y[0] = static_cast<T>(total);
    if (reduction_ == "mean") y[0] = static_cast<T>(weight_sum == 0 ? 0.0 : total / weight_sum);
    return Status::Ok();
  }

  DataType type_ = DataType::kFloat, ttype_ = DataType::kInt64;
  int64_t n_ = 0, c_ = 0, d_ = 1, ignore_ = 0;
  bool has_weight_ = false, has_ignore_ = false, softmax_ = false, want_log_prob_ = false;
  std::string reduction_, name_;
};

}  // namespace

void RegisterLossKernels(KernelTable& r) {
  r.SetFamilyTypes("float32, float64");
  r.Add<LossKernel>("NegativeLogLikelihoodLoss");
  r.Add<LossKernel>("SoftmaxCrossEntropyLoss");
}

}  // namespace oc
