// ConvInteger, QLinearConv, MatMulInteger and QLinearMatMul on oneDNN's int8 kernels
// (AVX512-VNNI where the CPU has it): the accumulation is exact int32 in both, so oneDNN
// computes conv(x - x_zero_point, w) or (a - a_zero_point) x b and this file adds the bias
// and requantises with the plain kernels' own arithmetic (quantize.cpp), bit for bit.
#pragma once

#include <dnnl.hpp>
#include <vector>

#include "backend/kernel.h"
#include "kernels/cpu/dnnl_common.h"

namespace oc {

class DnnlIntegerConv {
 public:
  // Whether this node is one it runs: 2-D, uint8 or int8 input, constant int8 weights with
  // zero zero points, constant scalar zero points and scales (per-channel weight scales
  // allowed), a constant bias; the caller keeps its plain loops otherwise.
  bool Prepare(const KernelPrepareContext& ctx, bool qlinear);
  size_t WorkspaceSize() const { return ws_.size(); }
  Status Run(const KernelRunContext& ctx) const;

 private:
  struct Memories;
  bool qlinear_ = false;
  DataType out_type_ = DataType::kInt32;
  int64_t batch_ = 1, cout_ = 1, plane_ = 1;
  int32_t x_zero_ = 0, y_zero_ = 0;
  std::vector<float> multiplier_;  // per output channel
  std::vector<int32_t> bias_;      // per output channel (zeros without one)
  dnnl::convolution_forward::primitive_desc pd_;
  dnnl::convolution_forward conv_;
  dnnl::memory::desc src_user_, acc_user_;
  dnnl::reorder to_src_, from_acc_;
  bool src_reorder_ = false, acc_reorder_ = false;
  PackedConstant weights_;
  dnnl::memory zero_point_;
  std::vector<int32_t> zero_point_value_;
  size_t src_off_ = 0, acc_off_ = 0, acc_plain_off_ = 0, scratch_off_ = 0;
  WorkspaceLayout ws_;
};

class DnnlIntegerMatmul {
 public:
  // Whether this node is one it runs: uint8 or int8 A of any rank (its leading dims fold
  // into rows), a constant 2-D int8 B with zero zero points, constant scalar zero points
  // and scales; the caller keeps its plain loops otherwise.
  bool Prepare(const KernelPrepareContext& ctx, bool qlinear);
  size_t WorkspaceSize() const { return ws_.size(); }
  Status Run(const KernelRunContext& ctx) const;

 private:
  struct Memories;
  bool qlinear_ = false;
  DataType out_type_ = DataType::kInt32;
  int64_t rows_ = 1, n_ = 1;
  int32_t a_zero_ = 0, y_zero_ = 0;
  float multiplier_ = 1.0f;
  dnnl::matmul::primitive_desc pd_;
  dnnl::matmul matmul_;
  dnnl::memory::desc a_md_, c_md_;
  PackedConstant b_;
  dnnl::memory zero_point_;
  std::vector<int32_t> zero_point_value_;
  size_t acc_off_ = 0, scratch_off_ = 0;
  WorkspaceLayout ws_;
};

}  // namespace oc
