// Adagrad, Adam, Momentum (ai.onnx.preview.training) and TfIdfVectorizer.
#include <cmath>
#include <cstring>
#include <map>

#include "backend/kernel.h"
#include "kernels/cpu/kernel_families.h"

namespace oc {
namespace {

class OptimizerKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    op_ = ctx.node->op_type;
    groups_in_ = op_ == "Adam" ? 4 : 3;
    n_ = (ctx.inputs.size() - 2) / groups_in_;
    for (size_t i = 0; i < n_; ++i) {
      if (ctx.inputs[2 + i].dtype != DataType::kFloat) return ctx.Error("float32 tensors only");
      sizes_.push_back(ctx.inputs[2 + i].numel());
    }
    const auto& a = ctx.attrs();
    decay_ = a.GetFloat("decay_factor", 0.0f);
    epsilon_ = a.GetFloat("epsilon", 1e-6f);
    norm_ = a.GetFloat("norm_coefficient", 0.0f);
    norm_post_ = a.GetFloat("norm_coefficient_post", 0.0f);
    alpha_ = a.GetFloat("alpha", op_ == "Adam" ? 0.9f : 0.0f);
    beta_ = a.GetFloat("beta", op_ == "Adam" ? 0.999f : 0.0f);
    nesterov_ = a.GetString("mode", "standard") == "nesterov";
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const float R = *static_cast<const float*>(ctx.inputs[0]);
    const int64_t T = *static_cast<const int64_t*>(ctx.inputs[1]);
    for (size_t i = 0; i < n_; ++i) {
      const float* X = static_cast<const float*>(ctx.inputs[2 + i]);
      const float* G = static_cast<const float*>(ctx.inputs[2 + n_ + i]);
      const float* S1 = static_cast<const float*>(ctx.inputs[2 + 2 * n_ + i]);
      float* Xn = static_cast<float*>(ctx.outputs[i]);
      float* S1n = static_cast<float*>(ctx.outputs[n_ + i]);
      for (int64_t k = 0; k < sizes_[i]; ++k) {
        const float g = norm_ * X[k] + G[k];
        if (op_ == "Adagrad") {
          const float r = R / (1 + static_cast<float>(T) * decay_);
          const float h = S1[k] + g * g;
          S1n[k] = h;
          Xn[k] = X[k] - r * g / (std::sqrt(h) + epsilon_);
        } else if (op_ == "Momentum") {
          const float b = T > 0 ? beta_ : 1.0f;
          const float v = alpha_ * S1[k] + b * g;
          S1n[k] = v;
          Xn[k] = nesterov_ ? X[k] - R * (g + alpha_ * v) : X[k] - R * v;
        } else {  // Adam: S1 = V (first moment), S2 = H (second moment); double inside
          const float* S2 = static_cast<const float*>(ctx.inputs[2 + 3 * n_ + i]);
          float* S2n = static_cast<float*>(ctx.outputs[2 * n_ + i]);
          const double gd = static_cast<double>(norm_) * X[k] + G[k];
          const double v =
              alpha_ * static_cast<double>(S1[k]) + (1 - static_cast<double>(alpha_)) * gd;
          const double h =
              beta_ * static_cast<double>(S2[k]) + (1 - static_cast<double>(beta_)) * gd * gd;
          const double hs = std::sqrt(h) + epsilon_;
          const double r =
              T > 0 ? R *
                          std::sqrt(1 -
                                    std::pow(static_cast<double>(beta_), static_cast<double>(T))) /
                          (1 - std::pow(static_cast<double>(alpha_), static_cast<double>(T)))
                    : R;
          S1n[k] = static_cast<float>(v);
          S2n[k] = static_cast<float>(h);
          Xn[k] = static_cast<float>((1 - static_cast<double>(norm_post_)) * (X[k] - r * v / hs));
        }
      }
    }
    return Status::Ok();
  }

 private:
  std::string op_;
  size_t groups_in_ = 3, n_ = 0;
  std::vector<int64_t> sizes_;
  float decay_ = 0, epsilon_ = 1e-6f, norm_ = 0, norm_post_ = 0, alpha_ = 0, beta_ = 0;
  bool nesterov_ = false;
};

class TfIdfKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const auto& a = ctx.attrs();
    if (!a.GetStrings("pool_strings").empty())
      return Unsupported("TfIdfVectorizer node [" + ctx.node->name +
                         "]: string pools are not supported");
    itype_ = ctx.inputs[0].dtype;
    shape_ = ctx.inputs[0].shape;
    mode_ = a.GetString("mode", "TF");
    min_n_ = a.GetInt("min_gram_length", 1);
    max_n_ = a.GetInt("max_gram_length", 1);
    skip_ = a.GetInt("max_skip_count", 0);
    auto counts = a.GetInts("ngram_counts");
    auto indexes = a.GetInts("ngram_indexes");
    auto pool = a.GetInts("pool_int64s");
    weights_ = a.GetFloats("weights");
    width_ = 0;
    for (int64_t i : indexes) width_ = std::max(width_, i + 1);
    // Pool: for gram length n = k+1, entries from counts[k] to counts[k+1].
    int64_t ngram_id = 0;
    for (size_t k = 0; k < counts.size(); ++k) {
      const int64_t n = static_cast<int64_t>(k) + 1;
      const int64_t begin = counts[k];
      const int64_t end = k + 1 < counts.size() ? counts[k + 1] : static_cast<int64_t>(pool.size());
      for (int64_t p = begin; p + n <= end; p += n) {
        std::vector<int64_t> gram(pool.begin() + p, pool.begin() + p + n);
        if (ngram_id >= static_cast<int64_t>(indexes.size()))
          return ctx.Error("ngram_indexes too short");
        table_[gram] = indexes[ngram_id++];
      }
    }
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const int64_t rows = shape_.size() == 2 ? shape_[0] : 1;
    const int64_t len = shape_.empty() ? 0 : shape_.back();
    float* y = static_cast<float*>(ctx.outputs[0]);
    std::memset(y, 0, sizeof(float) * rows * width_);
    auto value = [&](int64_t i) {
      return itype_ == DataType::kInt32 ? static_cast<const int32_t*>(ctx.inputs[0])[i]
                                        : static_cast<const int64_t*>(ctx.inputs[0])[i];
    };
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<double> counts(width_, 0);
      for (int64_t n = min_n_; n <= max_n_; ++n) {
        // Unigrams are counted once; longer grams for every skip distance.
        const int64_t skips = n == 1 ? 0 : skip_;
        for (int64_t s = 0; s <= skips; ++s) {
          const int64_t step = s + 1;
          for (int64_t start = 0; start + (n - 1) * step < len; ++start) {
            std::vector<int64_t> gram;
            for (int64_t k = 0; k < n; ++k) gram.push_back(value(r * len + start + k * step));
            auto it = table_.find(gram);
            if (it != table_.end()) counts[it->second] += 1;
          }
        }
      }
      for (int64_t c = 0; c < width_; ++c) {
        const double w = weights_.empty() ? 1.0 : weights_[c];
        double v = counts[c];
        if (mode_ == "IDF")
          v = v > 0 ? w : 0;
        else if (mode_ == "TFIDF")
          v = v * w;
        y[r * width_ + c] = static_cast<float>(v);
      }
    }
    return Status::Ok();
  }

 private:
  DataType itype_ = DataType::kInt64;
  Shape shape_;
  std::string mode_;
  int64_t min_n_ = 1, max_n_ = 1, skip_ = 0, width_ = 0;
  std::vector<float> weights_;
  std::map<std::vector<int64_t>, int64_t> table_;
};

}  // namespace

void RegisterTrainingKernels(KernelTable& r) {
  r.SetFamilyTypes("float32");
  for (const char* op : {"Adagrad", "Adam", "Momentum"})
    r.Add<OptimizerKernel>(op, "ai.onnx.preview.training");
  r.Add<TfIdfKernel>("TfIdfVectorizer", "", "int32, int64 in; float32 out");
}

}  // namespace oc
