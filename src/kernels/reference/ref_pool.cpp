// Reference pooling: MaxPool and AveragePool over 1-3 spatial dims (pads, auto_pad,
// strides, dilations, ceil_mode, count_include_pad), GlobalAveragePool, GlobalMaxPool.
#include <algorithm>
#include <limits>

#include "kernels/reference/ref_util.h"
#include "ops/shape_rules.h"

namespace oc::ref {
namespace {

class PoolKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& x = ctx.inputs[0].shape;
    if (x.size() < 3 || x.size() > 5)
      return ctx.Error("reference pooling takes 1 to 3 spatial dims");
    const size_t n = x.size() - 2;
    const auto& a = ctx.attrs();
    is_max_ = ctx.node->op_type == "MaxPool";
    count_pad_ = a.GetInt("count_include_pad", 0) != 0;
    auto ints = [&](const char* name, size_t count, int64_t v) {
      auto r = a.GetInts(name);
      return r.empty() ? std::vector<int64_t>(count, v) : r;
    };
    std::vector<int64_t> kernel = a.GetInts("kernel_shape");
    auto strides = ints("strides", n, 1), dil = ints("dilations", n, 1),
         pads = ints("pads", 2 * n, 0);
    Shape in_spatial(x.begin() + 2, x.end()), out_spatial;
    OC_RETURN_IF_ERROR(ConvOutputShape(in_spatial, kernel, strides, dil,
                                       a.GetString("auto_pad", "NOTSET"),
                                       a.GetInt("ceil_mode", 0) != 0, &pads, &out_spatial));
    auto to3 = [&](const std::vector<int64_t>& v, int64_t fill) {
      std::vector<int64_t> r(3 - n, fill);
      r.insert(r.end(), v.begin(), v.end());
      return r;
    };
    in_ = to3(in_spatial, 1);
    out_ = to3(out_spatial, 1);
    k_ = to3(kernel, 1);
    stride_ = to3(strides, 1);
    dil_ = to3(dil, 1);
    pad_begin_ = to3(std::vector<int64_t>(pads.begin(), pads.begin() + n), 0);
    pad_end_ = to3(std::vector<int64_t>(pads.begin() + n, pads.end()), 0);
    planes_ = x[0] * x[1];
    return Status::Ok();
  }

  Status Run(const KernelRunContext& ctx) const override {
    const auto* x = static_cast<const float*>(ctx.inputs[0]);
    auto* y = static_cast<float*>(ctx.outputs[0]);
    const int64_t in_sp = in_[0] * in_[1] * in_[2], out_sp = out_[0] * out_[1] * out_[2];
    for (int64_t p = 0; p < planes_; ++p)
      for (int64_t od = 0; od < out_[0]; ++od)
        for (int64_t oh = 0; oh < out_[1]; ++oh)
          for (int64_t ow = 0; ow < out_[2]; ++ow) {
            float best = -std::numeric_limits<float>::infinity();
            double sum = 0;
            int64_t count = 0, padded_count = 0;
            const int64_t o[3] = {od, oh, ow};
            for (int64_t kd = 0; kd < k_[0]; ++kd)
              for (int64_t kh = 0; kh < k_[1]; ++kh)
                for (int64_t kw = 0; kw < k_[2]; ++kw) {
                  const int64_t kk[3] = {kd, kh, kw};
                  int64_t pos[3];
                  bool inside = true, in_padded = true;
                  for (int d = 0; d < 3; ++d) {
                    pos[d] = o[d] * stride_[d] - pad_begin_[d] + kk[d] * dil_[d];
                    inside = inside && pos[d] >= 0 && pos[d] < in_[d];
                    // count_include_pad counts pads, never the overhang ceil_mode adds.
                    in_padded = in_padded && pos[d] < in_[d] + pad_end_[d];
                  }
                  padded_count += in_padded;
                  if (!inside) continue;
                  const float v = x[p * in_sp + (pos[0] * in_[1] + pos[1]) * in_[2] + pos[2]];
                  best = std::max(best, v);
                  sum += v;
                  ++count;
                }
            float r;
            if (is_max_)
              r = best;
            else
              r = static_cast<float>(sum / std::max<int64_t>(1, count_pad_ ? padded_count : count));
            y[p * out_sp + (od * out_[1] + oh) * out_[2] + ow] = r;
          }
    return Status::Ok();
  }

 private:
  bool is_max_ = true, count_pad_ = false;
  int64_t planes_ = 0;
  std::vector<int64_t> in_, out_, k_, stride_, dil_, pad_begin_, pad_end_;
};

class GlobalPoolKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& x = ctx.inputs[0].shape;
    if (x.size() < 2) return ctx.Error("global pooling needs N and C");
    planes_ = x[0] * x[1];
    spatial_ = planes_ ? ctx.inputs[0].numel() / planes_ : 0;
    is_max_ = ctx.node->op_type == "GlobalMaxPool";
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* x = static_cast<const float*>(ctx.inputs[0]);
    auto* y = static_cast<float*>(ctx.outputs[0]);
    for (int64_t p = 0; p < planes_; ++p) {
      double sum = 0;
      float best = -std::numeric_limits<float>::infinity();
      for (int64_t i = 0; i < spatial_; ++i) {
        sum += x[p * spatial_ + i];
        best = std::max(best, x[p * spatial_ + i]);
      }
      y[p] = is_max_ ? best : static_cast<float>(sum / static_cast<double>(spatial_));
    }
    return Status::Ok();
  }

 private:
  int64_t planes_ = 0, spatial_ = 0;
  bool is_max_ = false;
};

bool PoolSupported(const Node& node, const std::vector<TensorType>& in) {
  // MaxPool's indices output and AveragePool's dilations (opset 19) are CPU-only.
  if (node.op_type == "AveragePool" && node.attrs.Has("dilations")) return false;
  return FloatInputs(in) && SingleOutput(node) && node.attrs.Has("kernel_shape");
}

bool GlobalSupported(const Node& node, const std::vector<TensorType>& in) {
  return FloatInputs(in) && SingleOutput(node);
}

}  // namespace

void RegisterRefPool(RefTable& t) {
  t.Add<PoolKernel>("MaxPool", PoolSupported, "float32");
  t.Add<PoolKernel>("AveragePool", PoolSupported, "float32");
  t.Add<GlobalPoolKernel>("GlobalAveragePool", GlobalSupported, "float32");
  t.Add<GlobalPoolKernel>("GlobalMaxPool", GlobalSupported, "float32");
}

}  // namespace oc::ref
