// RNN, GRU and LSTM with every ONNX option: directions, sequence lengths, initial states,
// peepholes, clip, custom activations, linear_before_reset, input_forget, layout.
// Computed in double per step; gate inputs X*W^T for all steps first.
#include <cmath>
#include <cstring>
#include <functional>

#include "backend/kernel.h"
#include "kernels/cpu/kernel_families.h"
#include "ops/shape_rules.h"

namespace oc {
namespace {

using Act = std::function<double(double)>;

Result<Act> MakeActivation(const std::string& name, float alpha, float beta, bool has_a,
                           bool has_b) {
  auto a = [&](double d) { return has_a ? static_cast<double>(alpha) : d; };
  auto b = [&](double d) { return has_b ? static_cast<double>(beta) : d; };
  if (name == "Sigmoid") return Act([](double x) { return 1 / (1 + std::exp(-x)); });
  if (name == "Tanh") return Act([](double x) { return std::tanh(x); });
  if (name == "Relu") return Act([](double x) { return x > 0 ? x : 0; });
  const double al = a(0), be = b(0);
  if (name == "Affine") return Act([al, be](double x) { return al * x + be; });
  if (name == "LeakyRelu") {
    double k = a(0.01);
    return Act([k](double x) { return x >= 0 ? x : k * x; });
  }
  if (name == "ThresholdedRelu") {
    double k = a(1.0);
    return Act([k](double x) { return x > k ? x : 0; });
  }
  if (name == "ScaledTanh") return Act([al, be](double x) { return al * std::tanh(be * x); });
  if (name == "HardSigmoid") {
    double k = a(0.2), o = b(0.5);
    return Act([k, o](double x) { return std::max(0.0, std::min(1.0, k * x + o)); });
  }
  if (name == "Elu") {
    double k = a(1.0);
    return Act([k](double x) { return x >= 0 ? x : k * (std::exp(x) - 1); });
  }
  if (name == "Softsign") return Act([](double x) { return x / (1 + std::abs(x)); });
  if (name == "Softplus") return Act([](double x) { return std::log1p(std::exp(x)); });
  return Unsupported("unknown activation " + name);
}

class RecurrentKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    op_ = ctx.node->op_type;
    if (ctx.inputs[0].dtype != DataType::kFloat) return ctx.Error("float32 only");
    const auto& a = ctx.attrs();
    // Every weight's shape against X, the direction and hidden_size: Run reads them by
    // these dims.
    std::vector<const Shape*> shapes;
    for (size_t i = 0; i < ctx.inputs.size(); ++i)
      shapes.push_back(ctx.has_input(i) ? &ctx.inputs[i].shape : nullptr);
    RecurrentDims d;
    Status checked = RecurrentShapes(op_, a, shapes, &d);
    if (!checked.ok()) return ctx.Error(checked.message());
    for (const Shape* s : shapes)
      if (s && !IsStatic(*s)) return ctx.Error("input shapes must be known when prepared");
    gates_ = d.gates;
    layout_ = a.GetInt("layout", 0);
    seq_ = d.seq;
    batch_ = d.batch;
    input_ = d.input;
    dirs_ = d.dirs;
    hidden_ = d.hidden;
    direction_ = a.GetString("direction", "forward");
    clip_ = a.GetFloat("clip", 0.0f);
    has_clip_ = a.Has("clip");
    linear_before_reset_ = a.GetInt("linear_before_reset", 0) != 0;
    input_forget_ = a.GetInt("input_forget", 0) != 0;
    const size_t per_dir = op_ == "LSTM" ? 3 : op_ == "GRU" ? 2 : 1;
    std::vector<std::string> names = a.GetStrings("activations");
    if (names.empty()) {
      for (int64_t d = 0; d < dirs_; ++d) {
        if (op_ == "RNN")
          names.push_back("Tanh");
        else if (op_ == "GRU")
          names.insert(names.end(), {"Sigmoid", "Tanh"});
        else
          names.insert(names.end(), {"Sigmoid", "Tanh", "Tanh"});
      }
    }
    if (names.size() != per_dir * dirs_) return ctx.Error("wrong number of activations");
    auto alphas = a.GetFloats("activation_alpha"), betas = a.GetFloats("activation_beta");
    for (size_t i = 0; i < names.size(); ++i) {
      OC_ASSIGN_OR_RETURN(Act f, MakeActivation(names[i], i < alphas.size() ? alphas[i] : 0,
                                                i < betas.size() ? betas[i] : 0, i < alphas.size(),
                                                i < betas.size()));
      acts_.push_back(f);
    }
    has_b_ = ctx.has_input(3);
    has_lens_ = ctx.has_input(4);
    has_h0_ = ctx.has_input(5);
    has_c0_ = op_ == "LSTM" && ctx.has_input(6);
    has_p_ = op_ == "LSTM" && ctx.has_input(7);
    n_out_ = ctx.node->outputs.size();
    for (size_t k = 0; k < n_out_; ++k) want_.push_back(!ctx.node->outputs[k].empty());
    return Status::Ok();
  }

  Status Run(const KernelRunContext& ctx) const override {
    const float* X = static_cast<const float*>(ctx.inputs[0]);
    const float* W = static_cast<const float*>(ctx.inputs[1]);
    const float* R = static_cast<const float*>(ctx.inputs[2]);
    const float* B = has_b_ ? static_cast<const float*>(ctx.inputs[3]) : nullptr;
    const int32_t* lens = has_lens_ ? static_cast<const int32_t*>(ctx.inputs[4]) : nullptr;
    const float* H0 = has_h0_ ? static_cast<const float*>(ctx.inputs[5]) : nullptr;
    const float* C0 = has_c0_ ? static_cast<const float*>(ctx.inputs[6]) : nullptr;
    const float* P = has_p_ ? static_cast<const float*>(ctx.inputs[7]) : nullptr;
    float* Y = n_out_ > 0 && want_[0] ? static_cast<float*>(ctx.outputs[0]) : nullptr;
    float* YH = n_out_ > 1 && want_[1] ? static_cast<float*>(ctx.outputs[1]) : nullptr;
    float* YC = n_out_ > 2 && want_[2] ? static_cast<float*>(ctx.outputs[2]) : nullptr;
    const int64_t H = hidden_, G = gates_, I = input_;
    const size_t per_dir = op_ == "LSTM" ? 3 : op_ == "GRU" ? 2 : 1;
    if (Y) std::memset(Y, 0, sizeof(float) * seq_ * dirs_ * batch_ * H);
    auto x_at = [&](int64_t t, int64_t b, int64_t i) {
      return static_cast<double>(layout_ ? X[(b * seq_ + t) * I + i] : X[(t * batch_ + b) * I + i]);
    };
    auto y_index = [&](int64_t t, int64_t d, int64_t b, int64_t h) {
      return layout_ ? ((b * seq_ + t) * dirs_ + d) * H + h
                     : ((t * dirs_ + d) * batch_ + b) * H + h;
    };
    auto state_index = [&](int64_t d, int64_t b, int64_t h) {
      return layout_ ? (b * dirs_ + d) * H + h : (d * batch_ + b) * H + h;
    };
    for (int64_t d = 0; d < dirs_; ++d) {
      const bool reverse = direction_ == "reverse" || (direction_ == "bidirectional" && d == 1);
      const float* w = W + d * G * H * I;
      const float* r = R + d * G * H * H;
      const float* wb = B ? B + d * 2 * G * H : nullptr;
      const float* rb = B ? wb + G * H : nullptr;
      const float* p = P ? P + d * 3 * H : nullptr;
      const Act& f = acts_[d * per_dir];
      const Act& g = per_dir > 1 ? acts_[d * per_dir + 1] : f;
      const Act& hact = per_dir > 2 ? acts_[d * per_dir + 2] : g;
      for (int64_t b = 0; b < batch_; ++b) {
        const int64_t len = lens ? std::min<int64_t>(lens[b], seq_) : seq_;
        std::vector<double> h(H, 0.0), c(H, 0.0);
        for (int64_t k = 0; k < H; ++k) {
          if (H0) h[k] = H0[(d * batch_ + b) * H + k];
          if (C0) c[k] = C0[(d * batch_ + b) * H + k];
        }
        std::vector<double> xg(G * H), hg(G * H);
        for (int64_t s = 0; s < len; ++s) {
          const int64_t t = reverse ? len - 1 - s : s;
          for (int64_t j = 0; j < G * H; ++j) {
            double acc = wb ? wb[j] : 0.0;
            for (int64_t i = 0; i < I; ++i) acc += x_at(t, b, i) * w[j * I + i];
            xg[j] = acc;
            double acc2 = rb ? rb[j] : 0.0;
            for (int64_t k = 0; k < H; ++k) acc2 += h[k] * r[j * H + k];
            hg[j] = acc2;
          }
          auto clip = [&](double v) {
            return has_clip_ ? std::max<double>(-clip_, std::min<double>(clip_, v)) : v;
          };
          std::vector<double> nh(H), nc(H);
          if (op_ == "RNN") {
            for (int64_t k = 0; k < H; ++k) nh[k] = f(clip(xg[k] + hg[k]));
          } else if (op_ == "GRU") {
            for (int64_t k = 0; k < H; ++k) {
              const double z = f(clip(xg[k] + hg[k]));
              const double rr = f(clip(xg[H + k] + hg[H + k]));
              double hh;
              if (linear_before_reset_) {
                hh = g(clip(xg[2 * H + k] + rr * hg[2 * H + k]));
              } else {
                // r applies element-wise to H_{t-1} before the recurrence weights.
                double acc = rb ? rb[2 * H + k] : 0.0;
                for (int64_t m = 0; m < H; ++m) {
                  const double rm = f(clip(xg[H + m] + hg[H + m]));
                  acc += rm * h[m] * r[(2 * H + k) * H + m];
                }
                hh = g(clip(xg[2 * H + k] + acc));
              }
              nh[k] = (1 - z) * hh + z * h[k];
            }
          } else {  // LSTM gates i, o, f, c
            for (int64_t k = 0; k < H; ++k) {
              double gi = xg[k] + hg[k] + (p ? p[k] * c[k] : 0);
              double gf = xg[2 * H + k] + hg[2 * H + k] + (p ? p[2 * H + k] * c[k] : 0);
              const double i_gate = f(clip(gi));
              const double f_gate = input_forget_ ? 1 - i_gate : f(clip(gf));
              const double c_gate = g(clip(xg[3 * H + k] + hg[3 * H + k]));
              nc[k] = f_gate * c[k] + i_gate * c_gate;
              const double o_gate = f(clip(xg[H + k] + hg[H + k] + (p ? p[H + k] * nc[k] : 0)));
              nh[k] = o_gate * hact(nc[k]);
            }
            c = nc;
          }
          h = nh;
          if (Y)
            for (int64_t k = 0; k < H; ++k) Y[y_index(t, d, b, k)] = static_cast<float>(h[k]);
        }
        for (int64_t k = 0; k < H; ++k) {
          if (YH) YH[state_index(d, b, k)] = static_cast<float>(h[k]);
          if (YC) YC[state_index(d, b, k)] = static_cast<float>(c[k]);
        }
      }
    }
    return Status::Ok();
  }

 private:
  std::string op_, direction_;
  int64_t gates_ = 1, layout_ = 0, seq_ = 0, batch_ = 0, input_ = 0, dirs_ = 1, hidden_ = 0;
  float clip_ = 0;
  bool has_clip_ = false, linear_before_reset_ = false, input_forget_ = false;
  bool has_b_ = false, has_lens_ = false, has_h0_ = false, has_c0_ = false, has_p_ = false;
  size_t n_out_ = 0;
  std::vector<bool> want_;
  std::vector<Act> acts_;
};

}  // namespace

void RegisterRecurrentKernels(KernelTable& r) {
  r.SetFamilyTypes("float32");
  r.Add<RecurrentKernel>("RNN");
  r.Add<RecurrentKernel>("GRU");
  r.Add<RecurrentKernel>("LSTM");
}

}  // namespace oc
