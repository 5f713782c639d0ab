// MatMul and Gemm on oneDNN's matmul primitive (float32), with a plain-loop path for
// other numeric types. Constant right-hand sides are packed once at prepare; a 2-D
// constant weight turns a batched MatMul into one large GEMM.
#include <cstring>

#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/dnnl_common.h"
#include "kernels/cpu/kernel_families.h"
#include "ops/shape_rules.h"

namespace oc {
namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

dnnl::memory::dims RowMajorStrides(const dnnl::memory::dims& d) {
  dnnl::memory::dims s(d.size(), 1);
  for (size_t i = d.size(); i-- > 1;) s[i - 1] = s[i] * d[i];
  return s;
}

// One oneDNN matmul call plus the constants it owns.
struct DnnlMatmul {
  dnnl::matmul::primitive_desc pd;
  dnnl::matmul prim;
  dnnl::memory::desc a_md, b_md, c_md;  // the operands as their producers lay them out
  PackedConstant b_packed, bias;
  bool b_const = false;
  // In bf16 (ComputesInBf16) the operands that are not packed constants are converted
  // into the workspace first: they hold bf16 values already, so the conversion is exact.
  bool convert_a = false, convert_b = false;
  dnnl::reorder a_to_bf16, b_to_bf16;
  size_t scratch_off = 0, a_off = 0, b_off = 0;

  // The memory objects of one execution context, re-pointed at each run's buffers.
  struct Memories : KernelRunState {
    explicit Memories(const DnnlMatmul& mm)
        : a(UnboundMemory(mm.a_md)),
          b(UnboundMemory(mm.b_md)),
          c(UnboundMemory(mm.c_md)),
          a_bf16(UnboundMemory(mm.pd.src_desc())),
          b_bf16(UnboundMemory(mm.pd.weights_desc())),
          scratch(UnboundMemory(mm.pd.scratchpad_desc())) {}
    dnnl::memory a, b, c, a_bf16, b_bf16, scratch;
  };

  void Execute(const KernelRunContext& ctx, const void* a, const void* b, void* c) const {
    std::unique_ptr<KernelRunState> local;
    auto& m = RunStateOf<Memories>(ctx, local, [&] { return std::make_unique<Memories>(*this); });
    auto* ws = static_cast<uint8_t*>(ctx.workspace);
    dnnl::memory* a_mem = &Bind(m.a, a);
    if (convert_a) {
      DnnlExecute(a_to_bf16, {{DNNL_ARG_FROM, a_mem}, {DNNL_ARG_TO, &Bind(m.a_bf16, ws + a_off)}});
      a_mem = &m.a_bf16;
    }
    dnnl::memory* b_mem = b_const ? const_cast<dnnl::memory*>(&b_packed.memory) : &Bind(m.b, b);
    if (convert_b) {
      DnnlExecute(b_to_bf16, {{DNNL_ARG_FROM, b_mem}, {DNNL_ARG_TO, &Bind(m.b_bf16, ws + b_off)}});
      b_mem = &m.b_bf16;
    }
    dnnl::memory& scratch = Bind(m.scratch, ws + scratch_off);
    if (bias.storage)
      DnnlExecute(prim, {{DNNL_ARG_SRC, a_mem},
                         {DNNL_ARG_WEIGHTS, b_mem},
                         {DNNL_ARG_BIAS, &bias.memory},
                         {DNNL_ARG_DST, &Bind(m.c, c)},
                         {DNNL_ARG_SCRATCHPAD, &scratch}});
    else
      DnnlExecute(prim, {{DNNL_ARG_SRC, a_mem},
                         {DNNL_ARG_WEIGHTS, b_mem},
                         {DNNL_ARG_DST, &Bind(m.c, c)},
                         {DNNL_ARG_SCRATCHPAD, &scratch}});
    CpuStream().wait();
  }
};

// Builds the primitive. b_plain describes B's real memory; when B is constant it is
// packed into the primitive's preferred layout.
Status BuildMatmul(const std::string& what, const dnnl::memory::desc& a_md,
                   const dnnl::memory::desc& b_plain, const dnnl::memory::desc& c_md,
                   const Tensor* b_const, const dnnl::memory::desc* bias_md, const void* bias_data,
                   float alpha, const AttributeMap& attrs, const Config& config,
                   WorkspaceLayout* ws, DnnlMatmul* out) {
  return DnnlCall(what, [&] {
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    if (alpha != 1.0f) attr.set_output_scales(0, {alpha});
    dnnl::post_ops ops;
    Status s = AppendFusedActivation(attrs, &ops);
    if (!s.ok()) throw std::runtime_error(s.message());
    attr.set_post_ops(ops);
    auto make_pd = [&](dt compute) {
      // Converted operands are dense row-major copies.
      dnnl::memory::desc a_use =
          compute == dt::f32
              ? a_md
              : dnnl::memory::desc(a_md.dims(), compute, RowMajorStrides(a_md.dims()));
      dnnl::memory::desc b_use =
          b_const ? dnnl::memory::desc(b_plain.dims(), compute, tag::any)
          : compute == dt::f32
              ? b_plain
              : dnnl::memory::desc(b_plain.dims(), compute, RowMajorStrides(b_plain.dims()));
      auto desc = bias_md ? dnnl::matmul::desc(a_use, b_use, *bias_md, c_md)
                          : dnnl::matmul::desc(a_use, b_use, c_md);
      return dnnl::matmul::primitive_desc(desc, attr, CpuEngine());
    };
    auto bf16 = ComputesInBf16(attrs, config);
    if (!bf16.ok()) throw std::runtime_error(bf16.status().message());
    dt compute = bf16.value() ? dt::bf16 : dt::f32;
    out->pd = make_pd(compute);
    // No bf16 kernel for this shape: the same bf16 values multiply in fp32.
    if (compute == dt::bf16 && std::string(out->pd.impl_info_str()).rfind("ref", 0) == 0) {
      compute = dt::f32;
      out->pd = make_pd(compute);
    }
    out->prim = dnnl::matmul(out->pd);
    out->a_md = a_md;
    out->b_md = b_plain;
    out->c_md = c_md;
    out->b_const = b_const != nullptr;
    auto& eng = CpuEngine();
    if (compute == dt::bf16) {
      out->convert_a = true;
      out->a_to_bf16 =
          dnnl::reorder(dnnl::reorder::primitive_desc(eng, a_md, eng, out->pd.src_desc()));
      out->a_off = ws->Add(out->pd.src_desc().get_size());
      if (!b_const) {
        out->convert_b = true;
        out->b_to_bf16 =
            dnnl::reorder(dnnl::reorder::primitive_desc(eng, b_plain, eng, out->pd.weights_desc()));
        out->b_off = ws->Add(out->pd.weights_desc().get_size());
      }
    }
    if (b_const) {
      auto packed = PackConstant(b_const->data(), b_plain, out->pd.weights_desc());
      if (!packed.ok()) throw std::runtime_error(packed.status().message());
      out->b_packed = packed.value();
    }
    if (bias_md) {
      auto pb = PackConstant(bias_data, *bias_md, *bias_md);
      if (!pb.ok()) throw std::runtime_error(pb.status().message());
      out->bias = pb.value();
    }
    out->scratch_off = ws->Add(out->pd.scratchpad_desc().get_size());
  });
}

// Plain loops for non-float types: C[b] = A[b] x B[b] with broadcast batch offsets.
template <typename T>
void NaiveMatmul(const T* a, const T* b, T* c, int64_t batches, const std::vector<int64_t>& a_off,
                 const std::vector<int64_t>& b_off, int64_t m, int64_t k, int64_t n) {
  for (int64_t bi = 0; bi < batches; ++bi) {
    const T* pa = a + a_off[bi];
    const T* pb = b + b_off[bi];
    T* pc = c + bi * m * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        T acc = T(0);
        for (int64_t p = 0; p < k; ++p) acc = WrapAdd(acc, WrapMul(pa[i * k + p], pb[p * n + j]));
        pc[i * n + j] = acc;
      }
  }
}

class MatMulKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    type_ = ctx.inputs[0].dtype;
    if (!DispatchArithmetic(type_, []<typename T>() {}))
      return Unsupported("MatMul node [" + ctx.node->name + "] on " + DataTypeName(type_) +
                             ": MatMul takes numbers only (ONNX gives it no bool)",
                         "EZ3003");
    Shape a = ctx.inputs[0].shape, b = ctx.inputs[1].shape;
    if (a.empty() || b.empty()) return ctx.Error("A and B need rank 1 or more");
    if (a.size() == 1) a.insert(a.begin(), 1);
    if (b.size() == 1) b.push_back(1);
    m_ = a[a.size() - 2];
    k_ = a.back();
    n_ = b.back();
    if (b[b.size() - 2] != k_)
      return ctx.Error("A " + ShapeToString(ctx.inputs[0].shape) + " and B " +
                       ShapeToString(ctx.inputs[1].shape) + " do not share K");
    Shape a_batch(a.begin(), a.end() - 2), b_batch(b.begin(), b.end() - 2);
    OC_ASSIGN_OR_RETURN(Shape batch, BroadcastShapes(a_batch, b_batch));
    batches_ = NumElements(batch);
    if (batches_ == 0 || m_ == 0 || n_ == 0) {
      empty_ = true;
      out_bytes_ = ctx.outputs[0].nbytes();
      return Status::Ok();
    }
    if (k_ == 0) {  // sums over nothing: zeros (the fused forms would add a bias to them)
      if (ctx.has_input(2) || ctx.attrs().Has("activation"))
        return ctx.Error("a fused MatMul over K = 0 is not supported");
      zero_k_ = true;
      out_bytes_ = ctx.outputs[0].nbytes();
      return Status::Ok();
    }
    // Batch offsets for the plain path.
    BroadcastPlan plan = BroadcastPlan::Make(
        batch.empty() ? Shape{1} : batch,
        {a_batch.empty() ? Shape{1} : a_batch, b_batch.empty() ? Shape{1} : b_batch});
    for (int64_t bi = 0; bi < batches_; ++bi) {
      int64_t row = bi / plan.inner, col = bi % plan.inner, off[2];
      plan.RowOffsets(row, off);
      a_off_.push_back((off[0] + col * plan.inner_step[0]) * m_ * k_);
      b_off_.push_back((off[1] + col * plan.inner_step[1]) * k_ * n_);
    }
    const bool has_bias = ctx.has_input(2);
    if (type_ != DataType::kFloat) {
      if (has_bias || ctx.attrs().Has("activation")) return ctx.Error("fused MatMul needs float32");
      return Status::Ok();
    }
    use_dnnl_ = true;
    const Tensor* b_const = ctx.constants[1];
    const std::string what = "MatMul node [" + ctx.node->name + "]";
    dnnl::memory::desc bias_md;
    const void* bias_data = nullptr;
    if (has_bias) {
      if (!ctx.constants[2] || ctx.inputs[2].numel() != n_)
        return ctx.Error("fused bias must be a constant of N elements");
      bias_data = ctx.constants[2]->data();
    }
    if (b_const && b_batch.empty()) {
      // [R, K] x [K, N]: every leading dim of A folds into the rows.
      const int64_t rows = NumElements(a) / k_;
      if (has_bias) bias_md = dnnl::memory::desc({1, n_}, dt::f32, tag::ab);
      return BuildMatmul(what, dnnl::memory::desc({rows, k_}, dt::f32, tag::ab),
                         dnnl::memory::desc({k_, n_}, dt::f32, tag::ab),
                         dnnl::memory::desc({rows, n_}, dt::f32, tag::ab), b_const,
                         has_bias ? &bias_md : nullptr, bias_data, 1.0f, ctx.attrs(), *ctx.config,
                         &ws_, &mm_);
    }
    // Batched: equalise ranks, let oneDNN broadcast size-1 batch dims.
    const size_t rank = std::max<size_t>(batch.size(), 1) + 2;
    if (rank > DNNL_MAX_NDIMS) {
      // Past oneDNN's rank (12) the plain loops compute it; a fused bias needs oneDNN.
      if (has_bias || ctx.attrs().Has("activation"))
        return ctx.Error("fused MatMul of rank " + std::to_string(rank) + " (oneDNN takes " +
                         std::to_string(DNNL_MAX_NDIMS) + ")");
      use_dnnl_ = false;
      return Status::Ok();
    }
    auto pad = [&](const Shape& bb, int64_t r, int64_t c) {
      dnnl::memory::dims d(rank - 2 - bb.size(), 1);
      d.insert(d.end(), bb.begin(), bb.end());
      d.push_back(r);
      d.push_back(c);
      return d;
    };
    auto ad = pad(a_batch, m_, k_), bd = pad(b_batch, k_, n_), cd = pad(batch, m_, n_);
    if (has_bias) {
      dnnl::memory::dims bias_dims(rank, 1);
      bias_dims.back() = n_;
      bias_md = dnnl::memory::desc(bias_dims, dt::f32, RowMajorStrides(bias_dims));
    }
    return BuildMatmul(what, dnnl::memory::desc(ad, dt::f32, RowMajorStrides(ad)),
                       dnnl::memory::desc(bd, dt::f32, RowMajorStrides(bd)),
                       dnnl::memory::desc(cd, dt::f32, RowMajorStrides(cd)), b_const,
                       has_bias ? &bias_md : nullptr, bias_data, 1.0f, ctx.attrs(), *ctx.config,
                       &ws_, &mm_);
  }

  size_t WorkspaceSize() const override { return ws_.size(); }

  Status Run(const KernelRunContext& ctx) const override {
    if (empty_) return Status::Ok();
    if (zero_k_) {
      std::memset(ctx.outputs[0], 0, out_bytes_);
      return Status::Ok();
    }
    if (use_dnnl_) {
      return DnnlCall("MatMul",
                      [&] { mm_.Execute(ctx, ctx.inputs[0], ctx.inputs[1], ctx.outputs[0]); });
    }
    bool ok = DispatchArithmetic(type_, [&]<typename T>() {
      NaiveMatmul<T>(static_cast<const T*>(ctx.inputs[0]), static_cast<const T*>(ctx.inputs[1]),
                     static_cast<T*>(ctx.outputs[0]), batches_, a_off_, b_off_, m_, k_, n_);
    });
    return ok ? Status::Ok() : Unsupported("MatMul on unsupported type");
  }

  // A constant B packed by oneDNN and the fused bias are copies of their own.
  bool ReadsConstantAtRun(size_t i) const override {
    if (i == 1) return !(use_dnnl_ && mm_.b_const);
    if (i == 2) return !use_dnnl_;
    return true;
  }

 private:
  DataType type_ = DataType::kFloat;
  int64_t m_ = 0, k_ = 0, n_ = 0, batches_ = 1;
  std::vector<int64_t> a_off_, b_off_;
  bool use_dnnl_ = false, empty_ = false, zero_k_ = false;
  size_t out_bytes_ = 0;
  DnnlMatmul mm_;
  WorkspaceLayout ws_;
};

class GemmKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const auto& at = ctx.attrs();
    if (ctx.inputs[0].dtype != DataType::kFloat)
      return ctx.Error(std::string("Gemm supports float32 only, got ") +
                       DataTypeName(ctx.inputs[0].dtype));
    const bool ta = at.GetInt("transA", 0), tb = at.GetInt("transB", 0);
    const Shape& a = ctx.inputs[0].shape;
    const Shape& b = ctx.inputs[1].shape;
    m_ = ta ? a[1] : a[0];
    k_ = ta ? a[0] : a[1];
    n_ = tb ? b[0] : b[1];
    const float alpha = at.GetFloat("alpha", 1.0f);
    beta_ = at.GetFloat("beta", 1.0f);
    dnnl::memory::desc a_md({m_, k_}, dt::f32,
                            ta ? dnnl::memory::dims{1, m_} : dnnl::memory::dims{k_, 1});
    dnnl::memory::desc b_md({k_, n_}, dt::f32,
                            tb ? dnnl::memory::dims{1, k_} : dnnl::memory::dims{n_, 1});
    dnnl::memory::desc c_md({m_, n_}, dt::f32, tag::ab);
    dnnl::memory::desc bias_md;
    const void* bias_data = nullptr;
    // C is set up for K = 0 too: the result is then beta * C alone.
    if (ctx.has_input(2) && beta_ != 0.0f && m_ > 0 && n_ > 0) {
      Shape cs = ctx.inputs[2].shape;
      while (cs.size() < 2) cs.insert(cs.begin(), 1);
      c_shape_ = cs;
      if (ctx.constants[2]) {
        // beta * C becomes the primitive's bias (broadcast dims stay 1).
        const int64_t cn = NumElements(cs);
        scaled_c_ = Tensor(DataType::kFloat, cs);
        const float* src = ctx.constants[2]->data_as<float>();
        // oneDNN applies the output scale (alpha) to the bias as well: pre-divide.
        const float k = alpha != 0.0f ? beta_ / alpha : beta_;
        for (int64_t i = 0; i < cn; ++i) scaled_c_.mutable_data_as<float>()[i] = k * src[i];
        bias_md = dnnl::memory::desc({cs[0], cs[1]}, dt::f32, tag::ab);
        bias_data = scaled_c_.data();
      } else {
        if (ctx.attrs().Has("activation")) return ctx.Error("fused Gemm needs a constant C");
        add_c_at_run_ = true;
        if (!BroadcastPlan::Valid({m_, n_}, {cs}))
          return ctx.Error("C does not broadcast to [M, N]");
        c_plan_ = BroadcastPlan::Make({m_, n_}, {cs});
      }
    }
    if (m_ == 0 || n_ == 0) {
      empty_ = true;
      return Status::Ok();
    }
    if (k_ == 0 || alpha == 0.0f) {  // result is beta*C only
      if (scaled_c_.data() != nullptr && alpha != 0.0f) {
        float* c = scaled_c_.mutable_data_as<float>();
        for (int64_t i = 0; i < scaled_c_.numel(); ++i) c[i] *= alpha;  // back to beta*C
      }
      zero_k_ = true;
      if (c_shape_.size()) c_plan_ = BroadcastPlan::Make({m_, n_}, {c_shape_});
      return Status::Ok();
    }
    return BuildMatmul("Gemm node [" + ctx.node->name + "]", a_md, b_md, c_md, ctx.constants[1],
                       bias_data ? &bias_md : nullptr, bias_data, alpha, at, *ctx.config, &ws_,
                       &mm_);
  }

  size_t WorkspaceSize() const override { return ws_.size(); }

  Status Run(const KernelRunContext& ctx) const override {
    if (empty_) return Status::Ok();
    float* y = static_cast<float*>(ctx.outputs[0]);
    if (zero_k_) {
      std::memset(y, 0, m_ * n_ * sizeof(float));
    } else {
      OC_RETURN_IF_ERROR(
          DnnlCall("Gemm", [&] { mm_.Execute(ctx, ctx.inputs[0], ctx.inputs[1], y); }));
    }
    if (add_c_at_run_ || (zero_k_ && c_shape_.size())) {
      const float* c =
          add_c_at_run_ ? static_cast<const float*>(ctx.inputs[2]) : scaled_c_.data_as<float>();
      const float scale = add_c_at_run_ ? beta_ : 1.0f;
      const BroadcastPlan& plan = c_plan_;
      for (int64_t r = 0; r < plan.outer; ++r) {
        int64_t off;
        plan.RowOffsets(r, &off);
        for (int64_t i = 0; i < plan.inner; ++i)
          y[r * plan.inner + i] += scale * c[off + i * plan.inner_step[0]];
      }
    }
    return Status::Ok();
  }

  // B packed by oneDNN; a constant C copied into scaled_c_ (beta / alpha applied).
  bool ReadsConstantAtRun(size_t i) const override {
    if (i == 1) return empty_ || zero_k_ || !mm_.b_const;
    if (i == 2) return add_c_at_run_;
    return true;
  }

 private:
  int64_t m_ = 0, k_ = 0, n_ = 0;
  float beta_ = 1.0f;
  Shape c_shape_;
  Tensor scaled_c_;
  bool add_c_at_run_ = false, empty_ = false, zero_k_ = false;
  BroadcastPlan c_plan_;
  DnnlMatmul mm_;
  WorkspaceLayout ws_;
};

}  // namespace

void RegisterMatmulKernels(KernelTable& r) {
  r.SetFamilyTypes("float32 (oneDNN); MatMul also all numeric types");
  r.Add<MatMulKernel>("MatMul");
  r.Add<MatMulKernel>("MatMul", kOcDomain);
  r.Add<GemmKernel>("Gemm");
  r.Add<GemmKernel>("Gemm", kOcDomain);
}

}  // namespace oc
