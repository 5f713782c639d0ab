// Conv (and the compiler's fused oc.Conv: activation plus an optional residual sum as
// input 3) on oneDNN. Weights are reordered once at prepare into the layout the
// primitive picked; activations are reordered in and out per run when it picked a
// blocked layout.
#include <cstring>

#include "kernels/cpu/conv_algorithm.h"
#include "kernels/cpu/cpu_backend.h"
#include "kernels/cpu/dnnl_common.h"
#include "kernels/cpu/kernel_families.h"
#include "kernels/cpu/spatial3.h"
#include "ops/shape_rules.h"

namespace oc {
namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

class ConvKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const TensorType& x = ctx.inputs[0];
    const TensorType& w = ctx.inputs[1];
    if (x.dtype != DataType::kFloat || w.dtype != DataType::kFloat)
      return ctx.Error(std::string("only float32 convolution is supported, got ") +
                       DataTypeName(x.dtype));
    if (!ctx.constants[1]) return ctx.NeedsValue("its weights");
    if (ctx.has_input(2) && !ctx.constants[2]) return ctx.NeedsValue("its bias");
    const size_t rank = x.shape.size();
    if (rank < 3 || rank > 5) return ctx.Error("only 1-D, 2-D and 3-D convolution is supported");
    const size_t n = rank - 2;
    const auto& a = ctx.attrs();
    const int64_t group = a.GetInt("group", 1);
    std::vector<int64_t> kernel = a.GetInts("kernel_shape");
    if (kernel.empty()) kernel.assign(w.shape.begin() + 2, w.shape.end());
    std::vector<int64_t> strides = a.GetInts("strides", std::vector<int64_t>(n, 1));
    std::vector<int64_t> dil = a.GetInts("dilations", std::vector<int64_t>(n, 1));
    std::vector<int64_t> pads = a.GetInts("pads");
    Shape spatial;
    OC_RETURN_IF_ERROR(ConvOutputShape(Shape(x.shape.begin() + 2, x.shape.end()), kernel, strides,
                                       dil, a.GetString("auto_pad", "NOTSET"), false, &pads,
                                       &spatial));
    dnnl::memory::dims d_strides(strides.begin(), strides.end()), d_dil, pad_l, pad_r;
    for (size_t i = 0; i < n; ++i) {
      d_dil.push_back(dil[i] - 1);
      pad_l.push_back(pads[i]);
      pad_r.push_back(pads[i + n]);
    }
    dnnl::memory::dims wdims = ToDims(w.shape);
    tag wtag = PlainTag(rank);
    if (group > 1) {
      wdims[0] /= group;
      wdims.insert(wdims.begin(), group);
      wtag = rank == 3 ? tag::goiw : rank == 4 ? tag::goihw : tag::goidhw;
    }
    has_sum_ = ctx.has_input(3);
    out_bytes_ = ctx.outputs[0].nbytes();
    const bool in_blocked = ctx.input_layout(0) == kLayoutChannelsLast;
    const bool out_blocked = ctx.output_layout(0) == kLayoutChannelsLast;
    const bool res_blocked = ctx.input_layout(3) == kLayoutChannelsLast;
    // A convolution the precision mode gives bf16 reads values that hold bf16 numbers
    // already (the compiler rounded them): on a CPU with bf16 dot products it multiplies
    // them in bf16 with fp32 accumulation, as the NPU's cube does, at twice the fp32 rate.
    OC_ASSIGN_OR_RETURN(const bool bf16, ComputesInBf16(a, *ctx.config));
    dt cdt = bf16 ? dt::bf16 : dt::f32;
    OC_ASSIGN_OR_RETURN(const ConvAlgoMode algo, ctx.config->conv_algo.Get());
    return DnnlCall("Conv node [" + ctx.node->name + "]", [&] {
      auto& eng = CpuEngine();
      auto user_md = [&](const Shape& s, bool blocked) {
        return dnnl::memory::desc(ToDims(s), dt::f32, blocked ? tag::nhwc : PlainTag(rank));
      };
      src_user_ = user_md(x.shape, in_blocked);
      dst_user_ = user_md(ctx.outputs[0].shape, out_blocked);
      res_user_ = user_md(ctx.outputs[0].shape, res_blocked);
      dnnl::memory::desc w_plain(wdims, dt::f32, wtag);
      dnnl::memory::desc b_md({w.shape[0]}, dt::f32, tag::a);
      dnnl::primitive_attr attr;
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      dnnl::post_ops ops;
      if (has_sum_) ops.append_sum(1.0f);
      Status s = AppendFusedActivation(a, &ops);
      if (!s.ok()) throw std::runtime_error(s.message());
      attr.set_post_ops(ops);
      // A blocked neighbour fixes the layout (forced = true); otherwise oneDNN picks the
      // fastest.
      auto make_pd = [&](dt compute, bool forced,
                         dnnl::algorithm alg = dnnl::algorithm::convolution_direct) {
        dnnl::memory::desc src(ToDims(x.shape), compute,
                               forced && in_blocked ? tag::nhwc : tag::any);
        dnnl::memory::desc dst =
            forced && out_blocked
                ? dst_user_
                : dnnl::memory::desc(ToDims(ctx.outputs[0].shape), dt::f32, tag::any);
        dnnl::memory::desc w_any(wdims, compute, tag::any);
        auto desc =
            ctx.has_input(2)
                ? dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference, alg, src,
                                                  w_any, b_md, dst, d_strides, d_dil, pad_l, pad_r)
                : dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference, alg, src,
                                                  w_any, dst, d_strides, d_dil, pad_l, pad_r);
        return dnnl::convolution_forward::primitive_desc(desc, attr, eng);
      };
      auto is_ref = [&] { return std::string(pd_.impl_info_str()).rfind("ref", 0) == 0; };
      pd_ = make_pd(cdt, true);
      // Some shapes (e.g. depthwise with some post-ops) have no optimised kernel for the
      // forced blocked layout: let oneDNN choose and reorder at the edges instead.
      if ((in_blocked || out_blocked) && is_ref()) pd_ = make_pd(cdt, false);
      // Nor for bf16 (depthwise with a sum, 3-D): the same bf16 values multiply in fp32.
      if (cdt == dt::bf16 && is_ref()) {
        cdt = dt::f32;
        pd_ = make_pd(cdt, true);
        if ((in_blocked || out_blocked) && is_ref()) pd_ = make_pd(cdt, false);
      }
      // 3x3 stride-1 layers may run as fp32 Winograd (fewer multiplications; oneDNN's
      // kernels want their own blocked layout, so the edges reorder). A bf16 layer may too:
      // its inputs hold bf16 values, and Winograd's rounding (about 1e-6 relative) is far
      // below bf16's step, so it stays the bf16 computation the mode asks for.
      const bool winograd_shape = rank == 4 && group == 1 && kernel == std::vector<int64_t>{3, 3} &&
                                  strides == std::vector<int64_t>{1, 1} &&
                                  dil == std::vector<int64_t>{1, 1};
      // `auto` keeps bf16 layers direct: bf16 direct runs near fp32 Winograd's speed and
      // needs no layout change; `measure` times both.
      const bool bf16_auto = cdt == dt::bf16 && algo == ConvAlgoMode::kAuto;
      if (winograd_shape && !bf16_auto)
        pd_ = ChooseConvAlgorithm(
            pd_, [&] { return make_pd(dt::f32, false, dnnl::algorithm::convolution_winograd); },
            src_user_, dst_user_,
            std::string(has_sum_ ? "sum," : "") + a.GetString("activation", "") +
                (ctx.has_input(2) ? ",bias" : ""),
            algo);
      conv_ = dnnl::convolution_forward(pd_);
      auto packed = PackConstant(ctx.constants[1]->data(), w_plain, pd_.weights_desc());
      if (!packed.ok()) throw std::runtime_error(packed.status().message());
      weights_ = packed.value();
      if (ctx.has_input(2)) {
        auto pb = PackConstant(ctx.constants[2]->data(), b_md, b_md);
        if (!pb.ok()) throw std::runtime_error(pb.status().message());
        bias_ = pb.value();
      }
      src_reorder_ = pd_.src_desc() != src_user_;
      dst_reorder_ = pd_.dst_desc() != dst_user_;
      res_reorder_ = has_sum_ && pd_.dst_desc() != res_user_;
      if (src_reorder_) {
        src_off_ = ws_.Add(pd_.src_desc().get_size());
        to_blocked_ =
            dnnl::reorder(dnnl::reorder::primitive_desc(eng, src_user_, eng, pd_.src_desc()));
      }
      if (dst_reorder_) {
        dst_off_ = ws_.Add(pd_.dst_desc().get_size());
        from_blocked_ =
            dnnl::reorder(dnnl::reorder::primitive_desc(eng, pd_.dst_desc(), eng, dst_user_));
      }
      if (res_reorder_) {
        sum_in_ = dnnl::reorder(dnnl::reorder::primitive_desc(eng, res_user_, eng, pd_.dst_desc()));
        // The planner may give the output the residual's buffer; a reorder cannot run in
        // place, so it then goes through a temporary.
        if (!dst_reorder_) res_tmp_off_ = ws_.Add(pd_.dst_desc().get_size());
      }
      scratch_off_ = ws_.Add(pd_.scratchpad_desc().get_size());
    });
  }

  size_t WorkspaceSize() const override { return ws_.size(); }

  Status Run(const KernelRunContext& ctx) const override {
    return DnnlCall("Conv", [&] {
      std::unique_ptr<KernelRunState> local;
      auto& m = RunStateOf<Memories>(ctx, local, [&] { return std::make_unique<Memories>(*this); });
      auto* ws = static_cast<uint8_t*>(ctx.workspace);
      dnnl::memory& src_user = Bind(m.src_user, ctx.inputs[0]);
      dnnl::memory& dst_user = Bind(m.dst_user, ctx.outputs[0]);
      dnnl::memory& src = src_reorder_ ? Bind(m.src, ws + src_off_) : src_user;
      dnnl::memory& dst = dst_reorder_ ? Bind(m.dst, ws + dst_off_) : dst_user;
      if (src_reorder_) DnnlExecute(to_blocked_, {{DNNL_ARG_FROM, &src_user}, {DNNL_ARG_TO, &src}});
      if (has_sum_) {
        // The sum post-op adds what dst holds: put the residual there first.
        void* dst_data = dst_reorder_ ? ws + dst_off_ : ctx.outputs[0];
        if (res_reorder_) {
          dnnl::memory& res = Bind(m.res_user, ctx.inputs[3]);
          if (ctx.inputs[3] == dst_data) {
            dnnl::memory& tmp = Bind(m.res_tmp, ws + res_tmp_off_);
            DnnlExecute(sum_in_, {{DNNL_ARG_FROM, &res}, {DNNL_ARG_TO, &tmp}});
            CpuStream().wait();
            std::memcpy(dst_data, ws + res_tmp_off_, out_bytes_);
          } else {
            DnnlExecute(sum_in_, {{DNNL_ARG_FROM, &res}, {DNNL_ARG_TO, &dst}});
          }
        } else if (ctx.inputs[3] != dst_data) {
          std::memcpy(dst_data, ctx.inputs[3], out_bytes_);
        }
      }
      dnnl::memory& scratch = Bind(m.scratch, ws + scratch_off_);
      if (bias_.storage)
        DnnlExecute(conv_, {{DNNL_ARG_SRC, &src},
                            {DNNL_ARG_WEIGHTS, &weights_.memory},
                            {DNNL_ARG_BIAS, &bias_.memory},
                            {DNNL_ARG_DST, &dst},
                            {DNNL_ARG_SCRATCHPAD, &scratch}});
      else
        DnnlExecute(conv_, {{DNNL_ARG_SRC, &src},
                            {DNNL_ARG_WEIGHTS, &weights_.memory},
                            {DNNL_ARG_DST, &dst},
                            {DNNL_ARG_SCRATCHPAD, &scratch}});
      if (dst_reorder_)
        DnnlExecute(from_blocked_, {{DNNL_ARG_FROM, &dst}, {DNNL_ARG_TO, &dst_user}});
      CpuStream().wait();
    });
  }

  // Weights and bias live packed in weights_ / bias_ after Prepare.
  bool ReadsConstantAtRun(size_t i) const override { return i != 1 && i != 2; }

 private:
  // The memory objects of one execution context, re-pointed at each run's buffers.
  struct Memories : KernelRunState {
    explicit Memories(const ConvKernel& k)
        : src_user(UnboundMemory(k.src_user_)),
          dst_user(UnboundMemory(k.dst_user_)),
          src(UnboundMemory(k.pd_.src_desc())),
          dst(UnboundMemory(k.pd_.dst_desc())),
          res_user(UnboundMemory(k.res_user_)),
          res_tmp(UnboundMemory(k.pd_.dst_desc())),
          scratch(UnboundMemory(k.pd_.scratchpad_desc())) {}
    dnnl::memory src_user, dst_user, src, dst, res_user, res_tmp, scratch;
  };

  dnnl::convolution_forward::primitive_desc pd_;
  dnnl::convolution_forward conv_;
  dnnl::memory::desc src_user_, dst_user_, res_user_;  // layouts the neighbours use
  PackedConstant weights_, bias_;
  dnnl::reorder to_blocked_, from_blocked_, sum_in_;
  bool src_reorder_ = false, dst_reorder_ = false, res_reorder_ = false, has_sum_ = false;
  size_t src_off_ = 0, dst_off_ = 0, scratch_off_ = 0, res_tmp_off_ = 0, out_bytes_ = 0;
  WorkspaceLayout ws_;
};

}  // namespace

void RegisterConvKernels(KernelTable& r) {
  r.SetFamilyTypes("float32 (oneDNN)");
  r.Add<ConvKernel>("Conv");
  r.Add<ConvKernel>("Conv", kOcDomain);
}

}  // namespace oc

namespace oc {
namespace {

// ConvTranspose as the adjoint of a convolution: every input pixel scatters
// x * W[c_in, c_out] into the output window. Weights [C_in, C_out/group, k...].
class ConvTransposeKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    x_ = ctx.inputs[0].shape;
    w_ = ctx.inputs[1].shape;
    if (ctx.inputs[0].dtype != DataType::kFloat) return ctx.Error("float32 only");
    if (x_.size() < 3 || x_.size() > 5) return ctx.Error("1-D to 3-D only");
    Shape out;
    OC_RETURN_IF_ERROR(ConvTransposeGeometry(x_, w_, ctx.attrs(), &pads_, &out));
    y_ = ctx.outputs[0].shape;
    if (out != y_) return ctx.Error("output shape mismatch");
    const size_t n = x_.size() - 2;
    strides_ = ctx.attrs().GetInts("strides", std::vector<int64_t>(n, 1));
    dil_ = ctx.attrs().GetInts("dilations", std::vector<int64_t>(n, 1));
    group_ = ctx.attrs().GetInt("group", 1);
    has_bias_ = ctx.has_input(2);
    if (x_[1] != w_[0] || x_[1] % group_) return ctx.Error("channels do not match the weights");
    return Status::Ok();
  }

  Status Run(const KernelRunContext& ctx) const override {
    const float* x = static_cast<const float*>(ctx.inputs[0]);
    const float* w = static_cast<const float*>(ctx.inputs[1]);
    const float* b = has_bias_ ? static_cast<const float*>(ctx.inputs[2]) : nullptr;
    float* y = static_cast<float*>(ctx.outputs[0]);
    // Pad spatial rank to 3 so one loop nest serves 1-D, 2-D and 3-D.
    const Spatial3 g(x_, y_, w_, strides_, dil_, pads_);
    const int64_t *xs = g.x, *ys = g.y, *ks = g.k, *st = g.stride, *dl = g.dil, *pb = g.pad;
    const int64_t batch = x_[0], cin = x_[1], cout = y_[1], cin_g = cin / group_,
                  cout_g = cout / group_;
    const int64_t x_plane = xs[0] * xs[1] * xs[2], y_plane = ys[0] * ys[1] * ys[2];
    const int64_t k_plane = ks[0] * ks[1] * ks[2];
#pragma omp parallel for num_threads(ctx.num_threads) if (batch * cout * y_plane > 65536)
    for (int64_t bo = 0; bo < batch * cout; ++bo) {
      const int64_t bn = bo / cout, co = bo % cout, g = co / cout_g, col = co % cout_g;
      float* yp = y + bo * y_plane;
      const float bias = b ? b[co] : 0.0f;
      for (int64_t i = 0; i < y_plane; ++i) yp[i] = bias;
      for (int64_t ci = g * cin_g; ci < (g + 1) * cin_g; ++ci) {
        const float* xp = x + (bn * cin + ci) * x_plane;
        const float* wp = w + (ci * cout_g + col) * k_plane;
        for (int64_t i0 = 0; i0 < xs[0]; ++i0)
          for (int64_t i1 = 0; i1 < xs[1]; ++i1)
            for (int64_t i2 = 0; i2 < xs[2]; ++i2) {
              const float v = xp[(i0 * xs[1] + i1) * xs[2] + i2];
              for (int64_t k0 = 0; k0 < ks[0]; ++k0) {
                const int64_t o0 = i0 * st[0] - pb[0] + k0 * dl[0];
                if (o0 < 0 || o0 >= ys[0]) continue;
                for (int64_t k1 = 0; k1 < ks[1]; ++k1) {
                  const int64_t o1 = i1 * st[1] - pb[1] + k1 * dl[1];
                  if (o1 < 0 || o1 >= ys[1]) continue;
                  for (int64_t k2 = 0; k2 < ks[2]; ++k2) {
                    const int64_t o2 = i2 * st[2] - pb[2] + k2 * dl[2];
                    if (o2 < 0 || o2 >= ys[2]) continue;
                    yp[(o0 * ys[1] + o1) * ys[2] + o2] += v * wp[(k0 * ks[1] + k1) * ks[2] + k2];
                  }
                }
              }
            }
      }
    }
    return Status::Ok();
  }

 private:
  Shape x_, w_, y_;
  std::vector<int64_t> pads_, strides_, dil_;
  int64_t group_ = 1;
  bool has_bias_ = false;
};

}  // namespace

void RegisterConvTransposeKernels(KernelTable& r) {
  r.Add<ConvTransposeKernel>("ConvTranspose", "", "float32");
}

}  // namespace oc
