#include "kernels/cpu/integer_dnnl.h"

#include <algorithm>
#include <cmath>

#include "kernels/cpu/multiversion.h"
#include "ops/shape_rules.h"

namespace oc {
namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

int32_t ScalarInt(const Tensor& t) {
  switch (t.dtype()) {
    case DataType::kUint8:
      return t.data_as<uint8_t>()[0];
    case DataType::kInt8:
      return t.data_as<int8_t>()[0];
    case DataType::kInt32:
      return t.data_as<int32_t>()[0];
    default:
      return 0;
  }
}

// y = saturate(nearbyint(float(acc + bias) * multiplier) + zero_point), as quantize.cpp's
// Requantize and StoreSaturated compute it, over one output channel's plane; y is uint8
// (lo 0, hi 255) or int8 (-128, 127).
OC_MULTIVERSION void RequantizePlane(const int32_t* acc, int32_t bias, float multiplier,
                                     int32_t zero_point, int64_t n, bool is_unsigned, void* y) {
  const float lo = is_unsigned ? 0.0f : -128.0f, hi = is_unsigned ? 255.0f : 127.0f;
  const float zp = static_cast<float>(zero_point);
  if (is_unsigned) {
    auto* out = static_cast<uint8_t*>(y);
    for (int64_t i = 0; i < n; ++i) {
      const float v =
          std::nearbyintf(static_cast<float>(static_cast<int64_t>(acc[i]) + bias) * multiplier) +
          zp;
      out[i] = static_cast<uint8_t>(std::clamp(v, lo, hi));
    }
  } else {
    auto* out = static_cast<int8_t*>(y);
    for (int64_t i = 0; i < n; ++i) {
      const float v =
          std::nearbyintf(static_cast<float>(static_cast<int64_t>(acc[i]) + bias) * multiplier) +
          zp;
      out[i] = static_cast<int8_t>(std::clamp(v, lo, hi));
    }
  }
}

}  // namespace

struct DnnlIntegerConv::Memories : KernelRunState {
  explicit Memories(const DnnlIntegerConv& k)
      : src_user(UnboundMemory(k.src_user_)),
        src(UnboundMemory(k.pd_.src_desc())),
        acc(UnboundMemory(k.pd_.dst_desc())),
        acc_plain(UnboundMemory(k.acc_user_)),
        scratch(UnboundMemory(k.pd_.scratchpad_desc())) {}
  dnnl::memory src_user, src, acc, acc_plain, scratch;
};

bool DnnlIntegerConv::Prepare(const KernelPrepareContext& ctx, bool qlinear) {
  qlinear_ = qlinear;
  const size_t wi = qlinear ? 3 : 1;
  const TensorType& x = ctx.inputs[0];
  const TensorType& w = ctx.inputs[wi];
  if (x.shape.size() != 4 || w.shape.size() != 4) return false;
  if (x.dtype != DataType::kUint8 && x.dtype != DataType::kInt8) return false;
  if (w.dtype != DataType::kInt8 || !ctx.constants[wi]) return false;
  out_type_ = ctx.outputs[0].dtype;
  if (qlinear ? (out_type_ != DataType::kUint8 && out_type_ != DataType::kInt8)
              : out_type_ != DataType::kInt32)
    return false;
  // Constant scalars (or absent inputs) only.
  const size_t xzp = 2, wzp = qlinear ? 5 : 3;
  auto scalar = [&](size_t i) {
    return !ctx.has_input(i) || (ctx.constants[i] && ctx.inputs[i].numel() == 1);
  };
  if (!scalar(xzp)) return false;
  if (ctx.has_input(wzp)) {
    const Tensor* z = ctx.constants[wzp];
    if (!z || z->dtype() != DataType::kInt8) return false;
    for (int64_t i = 0; i < z->numel(); ++i)
      if (z->data_as<int8_t>()[i] != 0) return false;  // oneDNN's weights have no zero point
  }
  x_zero_ = ctx.has_input(xzp) ? ScalarInt(*ctx.constants[xzp]) : 0;
  cout_ = w.shape[0];
  batch_ = x.shape[0];
  plane_ = ctx.outputs[0].shape[2] * ctx.outputs[0].shape[3];
  multiplier_.assign(static_cast<size_t>(cout_), 1.0f);
  bias_.assign(static_cast<size_t>(cout_), 0);
  if (qlinear) {
    if (!scalar(1) || !scalar(6) || !scalar(7) || !ctx.constants[1] || !ctx.constants[6] ||
        !ctx.constants[4])
      return false;
    const Tensor& ws = *ctx.constants[4];
    if (ws.numel() != 1 && ws.numel() != cout_) return false;
    const float xs = ctx.constants[1]->data_as<float>()[0];
    const float ys = ctx.constants[6]->data_as<float>()[0];
    for (int64_t c = 0; c < cout_; ++c)
      multiplier_[c] = (xs * ws.data_as<float>()[ws.numel() > 1 ? c : 0]) / ys;
    y_zero_ = ctx.has_input(7) ? ScalarInt(*ctx.constants[7]) : 0;
    if (ctx.has_input(8)) {
      if (!ctx.constants[8] || ctx.inputs[8].numel() != cout_) return false;
      std::copy_n(ctx.constants[8]->data_as<int32_t>(), cout_, bias_.begin());
    }
  }
  const auto& a = ctx.attrs();
  const int64_t group = a.GetInt("group", 1);
  std::vector<int64_t> kernel(w.shape.begin() + 2, w.shape.end());
  std::vector<int64_t> strides = a.GetInts("strides", std::vector<int64_t>(2, 1));
  std::vector<int64_t> dil = a.GetInts("dilations", std::vector<int64_t>(2, 1));
  std::vector<int64_t> pads = a.GetInts("pads");
  Shape spatial;
  if (!ConvOutputShape(Shape(x.shape.begin() + 2, x.shape.end()), kernel, strides, dil,
                       a.GetString("auto_pad", "NOTSET"), false, &pads, &spatial)
           .ok())
    return false;
  Status s = DnnlCall("integer Conv", [&] {
    auto& eng = CpuEngine();
    const dt x_dt = x.dtype == DataType::kUint8 ? dt::u8 : dt::s8;
    dnnl::memory::dims wdims = ToDims(w.shape);
    if (group > 1) {
      wdims[0] /= group;
      wdims.insert(wdims.begin(), group);
    }
    src_user_ = dnnl::memory::desc(ToDims(x.shape), x_dt, tag::nchw);
    acc_user_ = dnnl::memory::desc(ToDims(ctx.outputs[0].shape), dt::s32, tag::nchw);
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    if (x_zero_ != 0) attr.set_zero_points(DNNL_ARG_SRC, 0, {DNNL_RUNTIME_S32_VAL});
    dnnl::memory::dims d_dil = {dil[0] - 1, dil[1] - 1};
    dnnl::convolution_forward::desc desc(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
        dnnl::memory::desc(ToDims(x.shape), x_dt, tag::any),
        dnnl::memory::desc(wdims, dt::s8, tag::any),
        dnnl::memory::desc(ToDims(ctx.outputs[0].shape), dt::s32, tag::any),
        {strides[0], strides[1]}, d_dil, {pads[0], pads[1]}, {pads[2], pads[3]});
    pd_ = dnnl::convolution_forward::primitive_desc(desc, attr, eng);
  });
  if (!s.ok() || std::string(pd_.impl_info_str()).rfind("ref", 0) == 0) return false;
  s = DnnlCall("integer Conv", [&] {
    auto& eng = CpuEngine();
    conv_ = dnnl::convolution_forward(pd_);
    dnnl::memory::dims wdims = ToDims(w.shape);
    tag wtag = tag::oihw;
    if (group > 1) {
      wdims[0] /= group;
      wdims.insert(wdims.begin(), group);
      wtag = tag::goihw;
    }
    auto packed = PackConstant(ctx.constants[wi]->data(), dnnl::memory::desc(wdims, dt::s8, wtag),
                               pd_.weights_desc());
    if (!packed.ok()) throw std::runtime_error(packed.status().message());
    weights_ = packed.value();
    src_reorder_ = pd_.src_desc() != src_user_;
    acc_reorder_ = pd_.dst_desc() != acc_user_;
    if (src_reorder_) {
      src_off_ = ws_.Add(pd_.src_desc().get_size());
      to_src_ = dnnl::reorder(dnnl::reorder::primitive_desc(eng, src_user_, eng, pd_.src_desc()));
    }
    acc_off_ = ws_.Add(pd_.dst_desc().get_size());
    if (acc_reorder_) {
      acc_plain_off_ = ws_.Add(acc_user_.get_size());
      from_acc_ = dnnl::reorder(dnnl::reorder::primitive_desc(eng, pd_.dst_desc(), eng, acc_user_));
    }
    scratch_off_ = ws_.Add(pd_.scratchpad_desc().get_size());
    zero_point_value_ = {x_zero_};
    zero_point_ =
        dnnl::memory(dnnl::memory::desc({1}, dt::s32, tag::x), eng, zero_point_value_.data());
  });
  return s.ok();
}

Status DnnlIntegerConv::Run(const KernelRunContext& ctx) const {
  auto* ws = static_cast<uint8_t*>(ctx.workspace);
  Status s = DnnlCall("integer Conv", [&] {
    std::unique_ptr<KernelRunState> local;
    auto& m = RunStateOf<Memories>(ctx, local, [&] { return std::make_unique<Memories>(*this); });
    dnnl::memory& src_user = Bind(m.src_user, ctx.inputs[0]);
    dnnl::memory& src = src_reorder_ ? Bind(m.src, ws + src_off_) : src_user;
    if (src_reorder_) DnnlExecute(to_src_, {{DNNL_ARG_FROM, &src_user}, {DNNL_ARG_TO, &src}});
    // ConvInteger writes its int32 result straight into the output when the layouts agree.
    void* acc_data = !qlinear_ && !acc_reorder_ ? ctx.outputs[0] : ws + acc_off_;
    dnnl::memory& acc = Bind(m.acc, acc_data);
    dnnl::memory& scratch = Bind(m.scratch, ws + scratch_off_);
    if (x_zero_ != 0)
      DnnlExecute(conv_, {{DNNL_ARG_SRC, &src},
                          {DNNL_ARG_WEIGHTS, &weights_.memory},
                          {DNNL_ARG_DST, &acc},
                          {DNNL_ARG_SCRATCHPAD, &scratch},
                          {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, &zero_point_}});
    else
      DnnlExecute(conv_, {{DNNL_ARG_SRC, &src},
                          {DNNL_ARG_WEIGHTS, &weights_.memory},
                          {DNNL_ARG_DST, &acc},
                          {DNNL_ARG_SCRATCHPAD, &scratch}});
    if (acc_reorder_) {
      void* plain = qlinear_ ? ws + acc_plain_off_ : ctx.outputs[0];
      DnnlExecute(from_acc_, {{DNNL_ARG_FROM, &acc}, {DNNL_ARG_TO, &Bind(m.acc_plain, plain)}});
    }
    CpuStream().wait();
  });
  if (!s.ok() || !qlinear_) return s;
  const auto* acc =
      reinterpret_cast<const int32_t*>(ws + (acc_reorder_ ? acc_plain_off_ : acc_off_));
  const int64_t rows = batch_ * cout_;
#pragma omp parallel for num_threads(ctx.num_threads) if (rows * plane_ > 32768)
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t c = r % cout_;
    RequantizePlane(acc + r * plane_, bias_[c], multiplier_[c], y_zero_, plane_,
                    out_type_ == DataType::kUint8,
                    static_cast<uint8_t*>(ctx.outputs[0]) + r * plane_);
  }
  return Status::Ok();
}

struct DnnlIntegerMatmul::Memories : KernelRunState {
  explicit Memories(const DnnlIntegerMatmul& k)
      : a(UnboundMemory(k.a_md_)),
        c(UnboundMemory(k.c_md_)),
        scratch(UnboundMemory(k.pd_.scratchpad_desc())) {}
  dnnl::memory a, c, scratch;
};

bool DnnlIntegerMatmul::Prepare(const KernelPrepareContext& ctx, bool qlinear) {
  qlinear_ = qlinear;
  const size_t bi = qlinear ? 3 : 1;
  const TensorType& a = ctx.inputs[0];
  const TensorType& b = ctx.inputs[bi];
  if (a.shape.size() < 2 || b.shape.size() != 2) return false;
  if (a.dtype != DataType::kUint8 && a.dtype != DataType::kInt8) return false;
  if (b.dtype != DataType::kInt8 || !ctx.constants[bi]) return false;
  out_type_ = ctx.outputs[0].dtype;
  if (qlinear ? (out_type_ != DataType::kUint8 && out_type_ != DataType::kInt8)
              : out_type_ != DataType::kInt32)
    return false;
  const int64_t k = a.shape.back();
  if (b.shape[0] != k) return false;
  n_ = b.shape[1];
  rows_ = a.numel() / std::max<int64_t>(k, 1);
  if (k == 0 || n_ == 0 || rows_ == 0) return false;
  auto scalar = [&](size_t i) {
    return !ctx.has_input(i) || (ctx.constants[i] && ctx.inputs[i].numel() == 1);
  };
  const size_t azp = 2, bzp = qlinear ? 5 : 3;
  if (!scalar(azp)) return false;
  if (ctx.has_input(bzp)) {
    const Tensor* z = ctx.constants[bzp];
    if (!z || z->dtype() != DataType::kInt8) return false;
    for (int64_t i = 0; i < z->numel(); ++i)
      if (z->data_as<int8_t>()[i] != 0) return false;
  }
  a_zero_ = ctx.has_input(azp) ? ScalarInt(*ctx.constants[azp]) : 0;
  if (qlinear) {
    // The plain kernel reads one scale each (scalars only here).
    for (size_t i : {size_t{1}, size_t{4}, size_t{6}})
      if (!ctx.constants[i] || ctx.inputs[i].numel() != 1) return false;
    if (!scalar(7)) return false;
    multiplier_ = (ctx.constants[1]->data_as<float>()[0] * ctx.constants[4]->data_as<float>()[0]) /
                  ctx.constants[6]->data_as<float>()[0];
    y_zero_ = ctx.has_input(7) ? ScalarInt(*ctx.constants[7]) : 0;
  }
  Status s = DnnlCall("integer MatMul", [&] {
    auto& eng = CpuEngine();
    const dt a_dt = a.dtype == DataType::kUint8 ? dt::u8 : dt::s8;
    a_md_ = dnnl::memory::desc({rows_, k}, a_dt, tag::ab);
    c_md_ = dnnl::memory::desc({rows_, n_}, dt::s32, tag::ab);
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    if (a_zero_ != 0) attr.set_zero_points(DNNL_ARG_SRC, 0, {DNNL_RUNTIME_S32_VAL});
    dnnl::matmul::desc desc(a_md_, dnnl::memory::desc({k, n_}, dt::s8, tag::any), c_md_);
    pd_ = dnnl::matmul::primitive_desc(desc, attr, eng);
    if (std::string(pd_.impl_info_str()).rfind("ref", 0) == 0)
      throw std::runtime_error("no int8 matmul kernel");
    matmul_ = dnnl::matmul(pd_);
    auto packed = PackConstant(ctx.constants[bi]->data(),
                               dnnl::memory::desc({k, n_}, dt::s8, tag::ab), pd_.weights_desc());
    if (!packed.ok()) throw std::runtime_error(packed.status().message());
    b_ = packed.value();
    if (qlinear_) acc_off_ = ws_.Add(c_md_.get_size());
    scratch_off_ = ws_.Add(pd_.scratchpad_desc().get_size());
    zero_point_value_ = {a_zero_};
    zero_point_ =
        dnnl::memory(dnnl::memory::desc({1}, dt::s32, tag::x), eng, zero_point_value_.data());
  });
  return s.ok();
}

Status DnnlIntegerMatmul::Run(const KernelRunContext& ctx) const {
  auto* ws = static_cast<uint8_t*>(ctx.workspace);
  void* acc_data = qlinear_ ? ws + acc_off_ : ctx.outputs[0];
  Status s = DnnlCall("integer MatMul", [&] {
    std::unique_ptr<KernelRunState> local;
    auto& m = RunStateOf<Memories>(ctx, local, [&] { return std::make_unique<Memories>(*this); });
    dnnl::memory& a = Bind(m.a, ctx.inputs[0]);
    dnnl::memory& c = Bind(m.c, acc_data);
    dnnl::memory& scratch = Bind(m.scratch, ws + scratch_off_);
    if (a_zero_ != 0)
      DnnlExecute(matmul_, {{DNNL_ARG_SRC, &a},
                            {DNNL_ARG_WEIGHTS, &b_.memory},
                            {DNNL_ARG_DST, &c},
                            {DNNL_ARG_SCRATCHPAD, &scratch},
                            {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, &zero_point_}});
    else
      DnnlExecute(matmul_, {{DNNL_ARG_SRC, &a},
                            {DNNL_ARG_WEIGHTS, &b_.memory},
                            {DNNL_ARG_DST, &c},
                            {DNNL_ARG_SCRATCHPAD, &scratch}});
    CpuStream().wait();
  });
  if (!s.ok() || !qlinear_) return s;
  const auto* acc = static_cast<const int32_t*>(acc_data);
#pragma omp parallel for num_threads(ctx.num_threads) if (rows_ * n_ > 32768)
  for (int64_t r = 0; r < rows_; ++r)
    RequantizePlane(acc + r * n_, 0, multiplier_, y_zero_, n_, out_type_ == DataType::kUint8,
                    static_cast<uint8_t*>(ctx.outputs[0]) + r * n_);
  return Status::Ok();
}

}  // namespace oc
