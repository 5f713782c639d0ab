// Pooling: MaxPool / AveragePool on oneDNN (plain layouts), global pools with plain loops.
#include <sleef.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/cpu/cpu_backend.h"
#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/dnnl_common.h"
#include "kernels/cpu/kernel_families.h"
#include "kernels/cpu/vec_math.h"
#include "ops/shape_rules.h"

namespace oc {
namespace {

using dt = dnnl::memory::data_type;

// Window geometry shared by the oneDNN and the plain-loop paths.
struct PoolGeometry {
  Shape in, out;
  std::vector<int64_t> kernel, strides, dil, pads;
};

// Plain loops: any numeric type, MaxPool's Indices output, LpPool. Also the reference the
// oneDNN path is tested against.
template <typename T>
void RefPool(const PoolGeometry& g, const std::string& op, bool include_pad, int64_t p_norm,
             int64_t storage_order, const T* x, T* y, int64_t* indices) {
  const size_t nd = g.in.size() - 2;
  const int64_t planes = g.in[0] * g.in[1];
  int64_t in_plane = 1, out_plane = 1;
  for (size_t d = 0; d < nd; ++d) {
    in_plane *= g.in[2 + d];
    out_plane *= g.out[2 + d];
  }
  std::vector<int64_t> o(nd), k(nd);
  for (int64_t p = 0; p < planes; ++p) {
    for (int64_t oi = 0; oi < out_plane; ++oi) {
      int64_t rem = oi;
      for (size_t d = nd; d-- > 0;) {
        o[d] = rem % g.out[2 + d];
        rem /= g.out[2 + d];
      }
      double acc = op == "MaxPool" ? -std::numeric_limits<double>::infinity() : 0.0;
      int64_t best = -1, count = 0, window = 1;
      for (size_t d = 0; d < nd; ++d) window *= g.kernel[d];
      for (int64_t ki = 0; ki < window; ++ki) {
        int64_t r = ki, off = 0, col_off = 0;
        bool inside = true, in_padded = true;
        for (size_t d = nd; d-- > 0;) {
          k[d] = r % g.kernel[d];
          r /= g.kernel[d];
        }
        int64_t stride_rm = 1;
        std::vector<int64_t> pos(nd);
        for (size_t d = 0; d < nd; ++d) {
          pos[d] = o[d] * g.strides[d] - g.pads[d] + k[d] * g.dil[d];
          if (pos[d] < 0 || pos[d] >= g.in[2 + d]) inside = false;
          if (pos[d] < -g.pads[d] || pos[d] >= g.in[2 + d] + g.pads[d + nd]) in_padded = false;
        }
        if (!inside) {
          if (include_pad && in_padded) ++count;
          continue;
        }
        for (size_t d = nd; d-- > 0;) {
          off += pos[d] * stride_rm;
          stride_rm *= g.in[2 + d];
        }
        // Column-major index for storage_order=1 (2-D only in practice).
        int64_t stride_cm = 1;
        for (size_t d = 0; d < nd; ++d) {
          col_off += pos[d] * stride_cm;
          stride_cm *= g.in[2 + d];
        }
        const double v = static_cast<double>(x[p * in_plane + off]);
        ++count;
        if (op == "MaxPool") {
          if (v > acc || best < 0) {
            acc = v;
            best = p * in_plane + (storage_order ? col_off : off);
          }
        } else if (op == "LpPool") {
          acc += std::pow(std::abs(v), static_cast<double>(p_norm));
        } else {
          acc += v;
        }
      }
      double result = acc;
      if (op == "AveragePool") result = count ? acc / static_cast<double>(count) : 0.0;
      if (op == "LpPool") result = std::pow(acc, 1.0 / static_cast<double>(p_norm));
      y[p * out_plane + oi] = SaturatingCast<T>(result);
      if (indices) indices[p * out_plane + oi] = best;
    }
  }
}

class PoolKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const TensorType& x = ctx.inputs[0];
    const auto& a = ctx.attrs();
    const size_t rank = x.shape.size();
    if (rank < 3) return ctx.Error("input must have rank >= 3");
    const size_t n = rank - 2;
    op_ = ctx.node->op_type;
    std::vector<int64_t> kernel = a.GetInts("kernel_shape");
    std::vector<int64_t> strides = a.GetInts("strides", std::vector<int64_t>(n, 1));
    std::vector<int64_t> dil = a.GetInts("dilations", std::vector<int64_t>(n, 1));
    std::vector<int64_t> pads = a.GetInts("pads");
    Shape spatial;
    OC_RETURN_IF_ERROR(ConvOutputShape(Shape(x.shape.begin() + 2, x.shape.end()), kernel, strides,
                                       dil, a.GetString("auto_pad", "NOTSET"),
                                       a.GetInt("ceil_mode", 0) != 0, &pads, &spatial));
    geo_ = {x.shape, ctx.outputs[0].shape, kernel, strides, dil, pads};
    type_ = x.dtype;
    include_pad_ = a.GetInt("count_include_pad", 0) != 0;
    p_norm_ = a.GetInt("p", 2);
    storage_order_ = a.GetInt("storage_order", 0);
    want_indices_ = ctx.outputs.size() > 1 && !ctx.node->outputs[1].empty();
    use_ref_ = x.dtype != DataType::kFloat || want_indices_ || op_ == "LpPool" || n > 3;
    if (use_ref_) {
      if (!DispatchNumeric(type_, []<typename T>() {}) || type_ == DataType::kBool)
        return ctx.Error(std::string("type ") + DataTypeName(type_) + " is not supported");
      return Status::Ok();
    }
    dnnl::memory::dims k(kernel.begin(), kernel.end()), s(strides.begin(), strides.end()), d, pl,
        pr;
    for (size_t i = 0; i < n; ++i) {
      d.push_back(dil[i] - 1);
      pl.push_back(pads[i]);
      // ceil_mode: extend the right padding so the last window exists.
      int64_t need =
          (spatial[i] - 1) * strides[i] + (kernel[i] - 1) * dil[i] + 1 - x.shape[2 + i] - pads[i];
      pr.push_back(std::max<int64_t>(pads[i + n], need));
    }
    // oneDNN would count the overhang ceil_mode adds as padding: an average that counts pads
    // then divides by too much at the edge (torch, Caffe and the reference count pads only).
    bool overhang = false;
    for (size_t i = 0; i < n; ++i) overhang |= pr[i] > pads[i + n];
    if (op_ == "AveragePool" && include_pad_ && overhang) {
      use_ref_ = true;
      return Status::Ok();
    }
    auto alg = op_ == "MaxPool" ? dnnl::algorithm::pooling_max
               : include_pad_   ? dnnl::algorithm::pooling_avg_include_padding
                                : dnnl::algorithm::pooling_avg_exclude_padding;
    return DnnlCall("pool node [" + ctx.node->name + "]", [&] {
      src_md_ = dnnl::memory::desc(ToDims(x.shape), dt::f32, PlainTag(rank));
      dst_md_ = dnnl::memory::desc(ToDims(ctx.outputs[0].shape), dt::f32, PlainTag(rank));
      dnnl::primitive_attr attr;
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      dnnl::pooling_v2_forward::desc desc(dnnl::prop_kind::forward_inference, alg, src_md_, dst_md_,
                                          s, k, d, pl, pr);
      pd_ = dnnl::pooling_v2_forward::primitive_desc(desc, attr, CpuEngine());
      prim_ = dnnl::pooling_v2_forward(pd_);
      scratch_ = pd_.scratchpad_desc().get_size();
    });
  }
  size_t WorkspaceSize() const override { return scratch_; }
  Status Run(const KernelRunContext& ctx) const override {
    if (use_ref_) {
      int64_t* idx = want_indices_ ? static_cast<int64_t*>(ctx.outputs[1]) : nullptr;
      const bool ok = DispatchArithmetic(type_, [&]<typename T>() {
        RefPool<T>(geo_, op_, include_pad_, p_norm_, storage_order_,
                   static_cast<const T*>(ctx.inputs[0]), static_cast<T*>(ctx.outputs[0]), idx);
      });
      if (!ok) return Unsupported("Pool on an unsupported type");
      return Status::Ok();
    }
    return DnnlCall("pool", [&] {
      std::unique_ptr<KernelRunState> local;
      auto& m = RunStateOf<Memories>(ctx, local, [&] { return std::make_unique<Memories>(*this); });
      DnnlExecute(prim_, {{DNNL_ARG_SRC, &Bind(m.src, ctx.inputs[0])},
                          {DNNL_ARG_DST, &Bind(m.dst, ctx.outputs[0])},
                          {DNNL_ARG_SCRATCHPAD, &Bind(m.scratch, ctx.workspace)}});
      CpuStream().wait();
    });
  }

 private:
  // The memory objects of one execution context, re-pointed at each run's buffers.
  struct Memories : KernelRunState {
    explicit Memories(const PoolKernel& k)
        : src(UnboundMemory(k.src_md_)),
          dst(UnboundMemory(k.dst_md_)),
          scratch(UnboundMemory(k.pd_.scratchpad_desc())) {}
    dnnl::memory src, dst, scratch;
  };

  PoolGeometry geo_;
  std::string op_;
  DataType type_ = DataType::kFloat;
  bool include_pad_ = false, want_indices_ = false, use_ref_ = false;
  int64_t p_norm_ = 2, storage_order_ = 0;
  dnnl::memory::desc src_md_, dst_md_;
  dnnl::pooling_v2_forward::primitive_desc pd_;
  dnnl::pooling_v2_forward prim_;
  size_t scratch_ = 0;
};

class GlobalPoolKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& s = ctx.inputs[0].shape;
    if (ctx.inputs[0].dtype != DataType::kFloat) return ctx.Error("float32 only");
    batch_ = s[0];
    per_batch_ = s[1];
    channels_ = s[0] * s[1];
    spatial_ = 1;
    for (size_t i = 2; i < s.size(); ++i) spatial_ *= s[i];
    is_max_ = ctx.node->op_type == "GlobalMaxPool";
    channels_last_ = ctx.input_layout(0) == kLayoutChannelsLast;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const float* x = static_cast<const float*>(ctx.inputs[0]);
    float* y = static_cast<float*>(ctx.outputs[0]);
    if (channels_last_) return RunChannelsLast(x, y, ctx.num_threads);
#pragma omp parallel for num_threads(ctx.num_threads) if (channels_ * spatial_ > 65536)
    for (int64_t c = 0; c < channels_; ++c) {
      const float* p = x + c * spatial_;
      if (is_max_) {
        float m = -std::numeric_limits<float>::infinity();
        for (int64_t i = 0; i < spatial_; ++i) m = std::max(m, p[i]);
        y[c] = m;
      } else {
        y[c] = static_cast<float>(SumOf(p, spatial_) / static_cast<double>(spatial_));
      }
    }
    return Status::Ok();
  }

 private:
  // Sixteen independent float partial sums (vectorised), added in double: the serial
  // double chain ran at one add per four cycles.
  static double SumOf(const float* p, int64_t n) {
    float lanes[16] = {};
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
      for (int k = 0; k < 16; ++k) lanes[k] += p[i + k];
    double acc = 0;
    for (float l : lanes) acc += l;
    for (; i < n; ++i) acc += p[i];
    return acc;
  }

  // N,spatial,C in memory: each position adds a contiguous row of C values, so the loop
  // over channels vectorises; channel blocks split across threads. Float partial sums are
  // flushed into double every 256 positions to keep long sums accurate.
  Status RunChannelsLast(const float* x, float* y, int threads) const {
    const int64_t c = per_batch_;
    constexpr int64_t kBlock = 64, kFlush = 256;
    const int64_t blocks = (c + kBlock - 1) / kBlock;
#pragma omp parallel for collapse(2) num_threads(threads) if (channels_ * spatial_ > 65536)
    for (int64_t b = 0; b < batch_; ++b)
      for (int64_t blk = 0; blk < blocks; ++blk) {
        const int64_t c0 = blk * kBlock, w = std::min(c, c0 + kBlock) - c0;
        const float* base = x + b * spatial_ * c + c0;
        float* out = y + b * c + c0;
        if (is_max_) {
          float m[kBlock];
          for (int64_t k = 0; k < w; ++k) m[k] = -std::numeric_limits<float>::infinity();
          for (int64_t i = 0; i < spatial_; ++i) {
            const float* row = base + i * c;
#pragma omp simd
            for (int64_t k = 0; k < w; ++k) m[k] = std::max(m[k], row[k]);
          }
          for (int64_t k = 0; k < w; ++k) out[k] = m[k];
          continue;
        }
        double total[kBlock] = {};
        for (int64_t i0 = 0; i0 < spatial_; i0 += kFlush) {
          float acc[kBlock] = {};
          const int64_t i1 = std::min(spatial_, i0 + kFlush);
          for (int64_t i = i0; i < i1; ++i) {
            const float* row = base + i * c;
#pragma omp simd
            for (int64_t k = 0; k < w; ++k) acc[k] += row[k];
          }
          for (int64_t k = 0; k < w; ++k) total[k] += acc[k];
        }
        for (int64_t k = 0; k < w; ++k)
          out[k] = static_cast<float>(total[k] / static_cast<double>(spatial_));
      }
    return Status::Ok();
  }

  int64_t batch_ = 0, per_batch_ = 0, channels_ = 0, spatial_ = 0;
  bool is_max_ = false, channels_last_ = false;
};

}  // namespace

void RegisterNnKernels(KernelTable& r) {
  r.SetFamilyTypes(
      "float32 (oneDNN); MaxPool/AveragePool/LpPool: all numeric types through plain loops");
  r.Add<PoolKernel>("MaxPool");
  r.Add<PoolKernel>("AveragePool");
  r.Add<PoolKernel>("LpPool");
  r.Add<GlobalPoolKernel>("GlobalAveragePool");
  r.Add<GlobalPoolKernel>("GlobalMaxPool");
}

}  // namespace oc
