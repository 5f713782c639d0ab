// DFT, STFT and MelWeightMatrix. The transforms are direct O(n^2) sums in double:
// exact enough for the reference, simple enough to trust.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "backend/kernel.h"
#include "kernels/cpu/kernel_families.h"

namespace oc {
namespace {

double ValueAt(DataType t, const void* p, int64_t i) {
  return t == DataType::kDouble ? static_cast<const double*>(p)[i]
                                : static_cast<const float*>(p)[i];
}
void Store(DataType t, void* p, int64_t i, double v) {
  if (t == DataType::kDouble)
    static_cast<double*>(p)[i] = v;
  else
    static_cast<float*>(p)[i] = static_cast<float>(v);
}

// One DFT bin: sum over t < count of sample(t) * e^(sign * 2 pi i k t / n).
// `sample(t, &re, &im)` reads the t-th complex input value.
template <typename Sample>
void DftBin(Sample&& sample, int64_t count, int64_t k, int64_t n, double sign, double* re_out,
            double* im_out) {
  double re = 0, im = 0;
  for (int64_t t = 0; t < count; ++t) {
    double xr = 0, xi = 0;
    sample(t, &xr, &xi);
    const double ang = sign * 2 * M_PI * static_cast<double>(k) * static_cast<double>(t) / n;
    re += xr * std::cos(ang) - xi * std::sin(ang);
    im += xr * std::sin(ang) + xi * std::cos(ang);
  }
  *re_out = re;
  *im_out = im;
}

class DftKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    type_ = ctx.inputs[0].dtype;
    if (type_ != DataType::kFloat && type_ != DataType::kDouble)
      return ctx.Error("float types only");
    in_ = ctx.inputs[0].shape;
    out_ = ctx.outputs[0].shape;
    const int64_t rank = static_cast<int64_t>(in_.size());
    axis_ = ctx.attrs().GetInt("axis", 1);
    if (axis_ < 0) axis_ += rank;
    inverse_ = ctx.attrs().GetInt("inverse", 0) != 0;
    n_ = in_[axis_];
    if (ctx.has_input(1)) {
      OC_ASSIGN_OR_RETURN(n_, ctx.OneInt(1, "dft_length"));
    }
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const int64_t comp = in_.back();  // 1 real, 2 complex
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis_; ++d) outer *= in_[d];
    for (size_t d = axis_ + 1; d + 1 < in_.size(); ++d) inner *= in_[d];
    const int64_t len_in = in_[axis_], len_out = out_[axis_];
    const double sign = inverse_ ? 1.0 : -1.0;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i)
        for (int64_t k = 0; k < len_out; ++k) {
          double re = 0, im = 0;
          DftBin(
              [&](int64_t t, double* xr, double* xi) {
                const int64_t base = ((o * len_in + t) * inner + i) * comp;
                *xr = ValueAt(type_, ctx.inputs[0], base);
                *xi = comp == 2 ? ValueAt(type_, ctx.inputs[0], base + 1) : 0.0;
              },
              std::min(n_, len_in), k, n_, sign, &re, &im);
          if (inverse_) {
            re /= n_;
            im /= n_;
          }
          const int64_t ob = ((o * len_out + k) * inner + i) * 2;
          Store(type_, ctx.outputs[0], ob, re);
          Store(type_, ctx.outputs[0], ob + 1, im);
        }
    return Status::Ok();
  }

 private:
  DataType type_ = DataType::kFloat;
  Shape in_, out_;
  int64_t axis_ = 1, n_ = 0;
  bool inverse_ = false;
};

class StftKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    type_ = ctx.inputs[0].dtype;
    if (type_ != DataType::kFloat && type_ != DataType::kDouble)
      return ctx.Error("float types only");
    in_ = ctx.inputs[0].shape;
    out_ = ctx.outputs[0].shape;
    OC_ASSIGN_OR_RETURN(step_, ctx.OneInt(1, "frame_step"));
    has_window_ = ctx.has_input(2);
    frame_ = has_window_ ? ctx.inputs[2].shape[0] : 0;
    if (ctx.has_input(3)) {
      OC_ASSIGN_OR_RETURN(frame_, ctx.OneInt(3, "frame_length"));
    }
    if (frame_ <= 0 || step_ <= 0) return ctx.Error("frame_length and frame_step must be positive");
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const int64_t batch = in_[0], len = in_[1], comp = in_.size() > 2 ? in_[2] : 1;
    const int64_t frames = out_[1], bins = out_[2];
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t f = 0; f < frames; ++f)
        for (int64_t k = 0; k < bins; ++k) {
          double re = 0, im = 0;
          // Samples past the signal's end count as zero.
          const int64_t count = std::min(frame_, len - f * step_);
          DftBin(
              [&](int64_t t, double* xr, double* xi) {
                const int64_t pos = f * step_ + t;
                const double w = has_window_ ? ValueAt(type_, ctx.inputs[2], t) : 1.0;
                *xr = w * ValueAt(type_, ctx.inputs[0], (b * len + pos) * comp);
                *xi =
                    comp == 2 ? w * ValueAt(type_, ctx.inputs[0], (b * len + pos) * comp + 1) : 0.0;
              },
              count, k, frame_, -1.0, &re, &im);
          const int64_t ob = ((b * frames + f) * bins + k) * 2;
          Store(type_, ctx.outputs[0], ob, re);
          Store(type_, ctx.outputs[0], ob + 1, im);
        }
    return Status::Ok();
  }

 private:
  DataType type_ = DataType::kFloat;
  Shape in_, out_;
  int64_t step_ = 1, frame_ = 0;
  bool has_window_ = false;
};

class MelKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    OC_ASSIGN_OR_RETURN(const int64_t mel, ctx.OneInt(0, "num_mel_bins"));
    OC_ASSIGN_OR_RETURN(const int64_t dft, ctx.OneInt(1, "dft_length"));
    OC_ASSIGN_OR_RETURN(const int64_t rate, ctx.OneInt(2, "sample_rate"));
    OC_ASSIGN_OR_RETURN(const double lo, ctx.OneDouble(3, "lower_edge_hertz"));
    OC_ASSIGN_OR_RETURN(const double hi, ctx.OneDouble(4, "upper_edge_hertz"));
    type_ = ctx.outputs[0].dtype;
    rows_ = dft / 2 + 1;
    cols_ = mel;
    if (ctx.outputs[0].shape != Shape{rows_, cols_})
      return ctx.Error("the output " + ShapeToString(ctx.outputs[0].shape) +
                       " is not [dft_length / 2 + 1, num_mel_bins]");
    values_.assign(static_cast<size_t>(rows_ * cols_), 0.0);
    const double lo_mel = 2595 * std::log10(1 + lo / 700), hi_mel = 2595 * std::log10(1 + hi / 700);
    const double step = (hi_mel - lo_mel) / static_cast<double>(mel + 2);
    std::vector<int64_t> bins(mel + 2);
    for (int64_t i = 0; i < mel + 2; ++i) {
      const double hz = 700 * (std::pow(10.0, (i * step + lo_mel) / 2595) - 1);
      bins[i] = static_cast<int64_t>(std::floor((dft + 1) * hz / rate));
    }
    for (int64_t i = 0; i < mel; ++i) {
      const int64_t l = bins[i], c = bins[i + 1], h = bins[i + 2];
      auto set = [&](int64_t j, double v) {
        if (j >= 0 && j < rows_) values_[j * cols_ + i] = v;
      };
      if (c - l == 0)
        set(c, 1);
      else
        for (int64_t j = l; j <= c; ++j)
          set(j, static_cast<double>(j - l) / static_cast<double>(c - l));
      if (h - c > 0)
        for (int64_t j = c; j < h; ++j)
          set(j, static_cast<double>(h - j) / static_cast<double>(h - c));
    }
    return Status::Ok();
  }
  bool OutputShapes(std::vector<Shape>* shapes) const override {
    *shapes = {{rows_, cols_}};
    return true;
  }
  Status Run(const KernelRunContext& ctx) const override {
    const size_t es = DataTypeSize(type_);
    for (size_t i = 0; i < values_.size(); ++i) {
      Tensor s = Tensor::Scalar(type_, values_[i]);
      std::memcpy(static_cast<uint8_t*>(ctx.outputs[0]) + i * es, s.data(), es);
    }
    return Status::Ok();
  }

 private:
  DataType type_ = DataType::kFloat;
  int64_t rows_ = 0, cols_ = 0;
  std::vector<double> values_;
};

}  // namespace

void RegisterSpectralKernels(KernelTable& r) {
  r.SetFamilyTypes("float32, float64");
  r.Add<DftKernel>("DFT");
  r.Add<StftKernel>("STFT");
  r.Add<MelKernel>("MelWeightMatrix");
}

}  // namespace oc
