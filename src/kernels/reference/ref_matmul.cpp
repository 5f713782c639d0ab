// Reference MatMul (numpy semantics: 1-D operands promoted, batch dims broadcast) and
// Gemm (transA/transB, alpha, beta, broadcast C); the fused oc.MatMul adds a bias of N
// values and oc.MatMul/oc.Gemm an activation.
#include "kernels/reference/ref_util.h"
#include "ops/fused_activation.h"

namespace oc::ref {
namespace {

struct Activation {
  FusedActivation kind = FusedActivation::kNone;
  float alpha = 0, beta = 0;
  Status Read(const KernelPrepareContext& ctx) {
    const std::string name = ctx.attrs().GetString("activation", "");
    if (!ParseFusedActivation(name, &kind)) return ctx.Error("unknown fused activation " + name);
    alpha = ctx.attrs().GetFloat("activation_alpha", 0.0f);
    beta = ctx.attrs().GetFloat("activation_beta", 0.0f);
    return Status::Ok();
  }
  float operator()(float v) const { return ApplyFusedActivation(kind, v, alpha, beta); }
};

class MatMulKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    Shape a = ctx.inputs[0].shape, b = ctx.inputs[1].shape;
    if (a.empty() || b.empty()) return ctx.Error("MatMul of a scalar");
    if (a.size() == 1) a.insert(a.begin(), 1);
    if (b.size() == 1) b.push_back(1);
    m_ = a[a.size() - 2];
    k_ = a.back();
    n_ = b.back();
    if (b[b.size() - 2] != k_) return ctx.Error("inner dimensions differ");
    Shape batch_a(a.begin(), a.end() - 2), batch_b(b.begin(), b.end() - 2);
    const size_t rank = std::max(batch_a.size(), batch_b.size());
    Shape batch(rank, 1);
    for (size_t i = 0; i < rank; ++i) {
      const int64_t da = i + batch_a.size() >= rank ? batch_a[i + batch_a.size() - rank] : 1;
      const int64_t db = i + batch_b.size() >= rank ? batch_b[i + batch_b.size() - rank] : 1;
      if (da != db && da != 1 && db != 1) return ctx.Error("batch dims do not broadcast");
      batch[i] = std::max(da, db);
    }
    a_index_ = BroadcastIndex(batch_a, batch);
    b_index_ = BroadcastIndex(batch_b, batch);
    has_bias_ = ctx.has_input(2);
    if (has_bias_ && ctx.inputs[2].numel() != n_) return ctx.Error("bias must have N values");
    return act_.Read(ctx);
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* a = static_cast<const float*>(ctx.inputs[0]);
    const auto* b = static_cast<const float*>(ctx.inputs[1]);
    const auto* bias = has_bias_ ? static_cast<const float*>(ctx.inputs[2]) : nullptr;
    auto* y = static_cast<float*>(ctx.outputs[0]);
    for (size_t s = 0; s < a_index_.size(); ++s) {
      const float* as = a + a_index_[s] * m_ * k_;
      const float* bs = b + b_index_[s] * k_ * n_;
      float* ys = y + static_cast<int64_t>(s) * m_ * n_;
      for (int64_t i = 0; i < m_; ++i)
        for (int64_t j = 0; j < n_; ++j) {
          double acc = bias ? bias[j] : 0.0;
          for (int64_t p = 0; p < k_; ++p)
            acc += static_cast<double>(as[i * k_ + p]) * bs[p * n_ + j];
          ys[i * n_ + j] = act_(static_cast<float>(acc));
        }
    }
    return Status::Ok();
  }

 private:
  int64_t m_ = 0, k_ = 0, n_ = 0;
  std::vector<int64_t> a_index_, b_index_;
  bool has_bias_ = false;
  Activation act_;
};

class GemmKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape &a = ctx.inputs[0].shape, &b = ctx.inputs[1].shape;
    if (a.size() != 2 || b.size() != 2) return ctx.Error("Gemm takes 2-D A and B");
    trans_a_ = ctx.attrs().GetInt("transA", 0) != 0;
    trans_b_ = ctx.attrs().GetInt("transB", 0) != 0;
    alpha_ = ctx.attrs().GetFloat("alpha", 1.0f);
    beta_ = ctx.attrs().GetFloat("beta", 1.0f);
    m_ = trans_a_ ? a[1] : a[0];
    k_ = trans_a_ ? a[0] : a[1];
    n_ = trans_b_ ? b[0] : b[1];
    if ((trans_b_ ? b[1] : b[0]) != k_) return ctx.Error("inner dimensions differ");
    has_c_ = ctx.has_input(2);
    if (has_c_) c_index_ = BroadcastIndex(ctx.inputs[2].shape, {m_, n_});
    return act_.Read(ctx);
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* a = static_cast<const float*>(ctx.inputs[0]);
    const auto* b = static_cast<const float*>(ctx.inputs[1]);
    const auto* c = has_c_ ? static_cast<const float*>(ctx.inputs[2]) : nullptr;
    auto* y = static_cast<float*>(ctx.outputs[0]);
    for (int64_t i = 0; i < m_; ++i)
      for (int64_t j = 0; j < n_; ++j) {
        double acc = 0;
        for (int64_t p = 0; p < k_; ++p) {
          const float av = trans_a_ ? a[p * m_ + i] : a[i * k_ + p];
          const float bv = trans_b_ ? b[j * k_ + p] : b[p * n_ + j];
          acc += static_cast<double>(av) * bv;
        }
        double v = alpha_ * acc;
        if (c) v += static_cast<double>(beta_) * c[c_index_[i * n_ + j]];
        y[i * n_ + j] = act_(static_cast<float>(v));
      }
    return Status::Ok();
  }

 private:
  bool trans_a_ = false, trans_b_ = false, has_c_ = false;
  float alpha_ = 1, beta_ = 1;
  int64_t m_ = 0, k_ = 0, n_ = 0;
  std::vector<int64_t> c_index_;
  Activation act_;
};

bool FloatSingle(const Node& node, const std::vector<TensorType>& in) {
  FusedActivation act;
  return FloatInputs(in) && SingleOutput(node) &&
         ParseFusedActivation(node.attrs.GetString("activation", ""), &act);
}

}  // namespace

void RegisterRefMatMul(RefTable& t) {
  auto plain_matmul = [](const Node& n, const std::vector<TensorType>& in) {
    return FloatSingle(n, in) && AtMostInputs(in, 2);
  };
  t.Add<MatMulKernel>("MatMul", plain_matmul, "float32");
  t.Add<MatMulKernel>("MatMul", FloatSingle, "float32", kOcDomain);
  t.Add<GemmKernel>("Gemm", FloatSingle, "float32");
  t.Add<GemmKernel>("Gemm", FloatSingle, "float32", kOcDomain);
}

}  // namespace oc::ref
