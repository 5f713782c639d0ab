// Data movement kernels. All work on raw bytes with the element size, so every dtype
// is supported by the same code.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "backend/kernel.h"
#include "base/half.h"
#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/kernel_families.h"
#include "ops/shape_rules.h"

namespace oc {
namespace {

// Reshape, Flatten, Squeeze, Unsqueeze: the bytes do not change.
class ReshapeKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    bytes_ = ctx.inputs[0].nbytes();
    if (ctx.outputs[0].nbytes() != bytes_)
      return ctx.Error("cannot reshape " + ShapeToString(ctx.inputs[0].shape) + " to " +
                       ShapeToString(ctx.outputs[0].shape));
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    if (ctx.outputs[0] != ctx.inputs[0] && bytes_)
      std::memcpy(ctx.outputs[0], ctx.inputs[0], bytes_);
    return Status::Ok();
  }

 private:
  size_t bytes_ = 0;
};

// General strided copy: out[i] = in[offset + sum(idx_d * stride_d)] over out dims.
struct StridedCopy {
  Shape dims;
  std::vector<int64_t> in_strides;
  int64_t in_offset = 0;
  size_t esize = 4;

  // Trailing dims that are contiguous in the input are copied as one block; otherwise
  // the last dim is walked with its stride.
  void Run(const uint8_t* in, uint8_t* out, int threads) const {
    const size_t rank = dims.size();
    if (rank == 0) {
      std::memcpy(out, in + in_offset * esize, esize);
      return;
    }
    int64_t block = 1;
    size_t split = rank;
    while (split > 0 && in_strides[split - 1] == block) {
      block *= dims[split - 1];
      --split;
    }
    const bool blocked = split < rank;
    const size_t outer_rank = blocked ? split : rank - 1;
    const int64_t row_elems = blocked ? block : dims[rank - 1];
    const int64_t step = blocked ? 1 : in_strides[rank - 1];
    int64_t rows = 1;
    for (size_t d = 0; d < outer_rank; ++d) rows *= dims[d];
    auto row_fn = [&](int64_t r) {
      int64_t rem = r, off = in_offset;
      for (size_t d = outer_rank; d-- > 0;) {
        off += (rem % dims[d]) * in_strides[d];
        rem /= dims[d];
      }
      uint8_t* o = out + r * row_elems * esize;
      if (blocked) {
        std::memcpy(o, in + off * esize, static_cast<size_t>(row_elems) * esize);
      } else if (esize == 4) {
        for (int64_t i = 0; i < row_elems; ++i)
          std::memcpy(o + i * 4, in + (off + i * step) * 4, 4);
      } else {
        for (int64_t i = 0; i < row_elems; ++i)
          std::memcpy(o + i * esize, in + (off + i * step) * esize, esize);
      }
    };
    if (threads > 1 && rows > 1 && rows * row_elems >= 16384) {
#pragma omp parallel for num_threads(threads) schedule(static)
      for (int64_t r = 0; r < rows; ++r) row_fn(r);
    } else {
      for (int64_t r = 0; r < rows; ++r) row_fn(r);
    }
  }
};

class TransposeKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& in = ctx.inputs[0].shape;
    std::vector<int64_t> perm = ctx.attrs().GetInts("perm");
    if (perm.empty())
      for (size_t i = in.size(); i-- > 0;) perm.push_back(static_cast<int64_t>(i));
    auto st = ContiguousStrides(in);
    copy_.esize = DataTypeSize(ctx.inputs[0].dtype);
    for (int64_t p : perm) {
      if (p < 0) p += static_cast<int64_t>(in.size());
      copy_.dims.push_back(in[p]);
      copy_.in_strides.push_back(st[p]);
    }
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    copy_.Run(static_cast<const uint8_t*>(ctx.inputs[0]), static_cast<uint8_t*>(ctx.outputs[0]),
              ctx.num_threads);
    return Status::Ok();
  }

 private:
  StridedCopy copy_;
};

class SliceKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    std::vector<int64_t> starts, ends, axes, steps;
    if (ctx.attrs().Has("starts")) {
      starts = ctx.attrs().GetInts("starts");
      ends = ctx.attrs().GetInts("ends");
      axes = ctx.attrs().GetInts("axes");
    } else {
      for (size_t i = 1; i < ctx.inputs.size(); ++i)
        if (ctx.has_input(i) && !ctx.constants[i]) return ctx.NeedsValue("starts/ends/axes/steps");
      starts = ctx.constants[1]->ToInt64Vector();
      ends = ctx.constants[2]->ToInt64Vector();
      if (ctx.has_input(3)) axes = ctx.constants[3]->ToInt64Vector();
      if (ctx.has_input(4)) steps = ctx.constants[4]->ToInt64Vector();
    }
    const Shape& in = ctx.inputs[0].shape;
    std::vector<int64_t> begin, step;
    OC_ASSIGN_OR_RETURN(Shape dims, SliceBounds(in, starts, ends, axes, steps, &begin, &step));
    auto st = ContiguousStrides(in);
    copy_.esize = DataTypeSize(ctx.inputs[0].dtype);
    copy_.dims = dims;
    for (size_t d = 0; d < in.size(); ++d) {
      copy_.in_offset += begin[d] * st[d];
      copy_.in_strides.push_back(st[d] * step[d]);
    }
    empty_ = NumElements(dims) == 0;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    if (!empty_)
      copy_.Run(static_cast<const uint8_t*>(ctx.inputs[0]), static_cast<uint8_t*>(ctx.outputs[0]),
                ctx.num_threads);
    return Status::Ok();
  }

 private:
  StridedCopy copy_;
  bool empty_ = false;
};

class ConcatKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& out = ctx.outputs[0].shape;
    OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.attrs().GetInt("axis", 0),
                                                    static_cast<int64_t>(out.size())));
    esize_ = DataTypeSize(ctx.outputs[0].dtype);
    outer_ = 1;
    for (int64_t d = 0; d < axis; ++d) outer_ *= out[d];
    int64_t inner = 1;
    for (size_t d = axis + 1; d < out.size(); ++d) inner *= out[d];
    for (size_t i = 0; i < ctx.inputs.size(); ++i) {
      chunk_.push_back(ctx.has_input(i) ? ctx.inputs[i].shape[axis] * inner * esize_ : 0);
    }
    out_row_ = out[axis] * inner * esize_;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    auto* out = static_cast<uint8_t*>(ctx.outputs[0]);
    for (int64_t o = 0; o < outer_; ++o) {
      size_t pos = o * out_row_;
      for (size_t i = 0; i < chunk_.size(); ++i) {
        if (!chunk_[i]) continue;
        std::memcpy(out + pos, static_cast<const uint8_t*>(ctx.inputs[i]) + o * chunk_[i],
                    chunk_[i]);
        pos += chunk_[i];
      }
    }
    return Status::Ok();
  }

 private:
  size_t esize_ = 4, out_row_ = 0;
  int64_t outer_ = 1;
  std::vector<size_t> chunk_;
};

class SplitKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& in = ctx.inputs[0].shape;
    OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(ctx.attrs().GetInt("axis", 0),
                                                    static_cast<int64_t>(in.size())));
    size_t esize = DataTypeSize(ctx.inputs[0].dtype);
    outer_ = 1;
    for (int64_t d = 0; d < axis; ++d) outer_ *= in[d];
    int64_t inner = 1;
    for (size_t d = axis + 1; d < in.size(); ++d) inner *= in[d];
    // The outputs are cut from X one after another: they must tile its axis exactly.
    int64_t along = 0;
    for (const auto& o : ctx.outputs) {
      if (o.shape.size() != in.size() || o.shape[axis] < 0)
        return ctx.Error("every output needs X's rank and a known length along the axis");
      along += o.shape[axis];
      chunk_.push_back(o.shape[axis] * inner * esize);
    }
    if (along != in[axis])
      return ctx.Error("the outputs hold " + std::to_string(along) + " of the axis' " +
                       std::to_string(in[axis]));
    in_row_ = in[axis] * inner * esize;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* in = static_cast<const uint8_t*>(ctx.inputs[0]);
    for (int64_t o = 0; o < outer_; ++o) {
      size_t pos = o * in_row_;
      for (size_t i = 0; i < chunk_.size(); ++i) {
        if (ctx.outputs[i] && chunk_[i])
          std::memcpy(static_cast<uint8_t*>(ctx.outputs[i]) + o * chunk_[i], in + pos, chunk_[i]);
        pos += chunk_[i];
      }
    }
    return Status::Ok();
  }

 private:
  int64_t outer_ = 1;
  size_t in_row_ = 0;
  std::vector<size_t> chunk_;
};

class GatherKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& d = ctx.inputs[0].shape;
    OC_ASSIGN_OR_RETURN(
        int64_t axis, NormalizeAxis(ctx.attrs().GetInt("axis", 0), static_cast<int64_t>(d.size())));
    index_type_ = ctx.inputs[1].dtype;
    if (index_type_ != DataType::kInt64 && index_type_ != DataType::kInt32)
      return ctx.Error("indices must be int32 or int64");
    size_t esize = DataTypeSize(ctx.inputs[0].dtype);
    outer_ = 1;
    for (int64_t i = 0; i < axis; ++i) outer_ *= d[i];
    int64_t inner = 1;
    for (size_t i = axis + 1; i < d.size(); ++i) inner *= d[i];
    block_ = inner * esize;
    axis_dim_ = d[axis];
    n_idx_ = ctx.inputs[1].numel();
    name_ = ctx.node->name;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* data = static_cast<const uint8_t*>(ctx.inputs[0]);
    auto* out = static_cast<uint8_t*>(ctx.outputs[0]);
    for (int64_t j = 0; j < n_idx_; ++j) {
      int64_t idx = index_type_ == DataType::kInt64 ? static_cast<const int64_t*>(ctx.inputs[1])[j]
                                                    : static_cast<const int32_t*>(ctx.inputs[1])[j];
      if (idx < -axis_dim_ || idx >= axis_dim_)
        return InvalidArgument("Gather node [" + name_ + "]: index " + std::to_string(idx) +
                               " is out of range [" + std::to_string(-axis_dim_) + ", " +
                               std::to_string(axis_dim_) + ")");
    }
    auto body = [&](int64_t o) {
      for (int64_t j = 0; j < n_idx_; ++j) {
        int64_t idx = index_type_ == DataType::kInt64
                          ? static_cast<const int64_t*>(ctx.inputs[1])[j]
                          : static_cast<const int32_t*>(ctx.inputs[1])[j];
        if (idx < 0) idx += axis_dim_;
        std::memcpy(out + (o * n_idx_ + j) * block_, data + (o * axis_dim_ + idx) * block_, block_);
      }
    };
    if (ctx.num_threads > 1 && outer_ > 1) {
#pragma omp parallel for num_threads(ctx.num_threads)
      for (int64_t o = 0; o < outer_; ++o) body(o);
    } else {
      for (int64_t o = 0; o < outer_; ++o) body(o);
    }
    return Status::Ok();
  }

 private:
  DataType index_type_ = DataType::kInt64;
  int64_t outer_ = 1, axis_dim_ = 0, n_idx_ = 0;
  size_t block_ = 0;
  std::string name_;
};

class ShapeKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& s = ctx.inputs[0].shape;
    int64_t rank = static_cast<int64_t>(s.size());
    int64_t start = ctx.attrs().GetInt("start", 0), end = ctx.attrs().GetInt("end", rank);
    if (start < 0) start += rank;
    if (end < 0) end += rank;
    start = std::clamp<int64_t>(start, 0, rank);
    end = std::clamp<int64_t>(end, 0, rank);
    for (int64_t i = start; i < end; ++i) dims_.push_back(s[i]);
    if (ctx.node->op_type == "Size") dims_ = {NumElements(s)};
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    if (!dims_.empty()) std::memcpy(ctx.outputs[0], dims_.data(), dims_.size() * 8);
    return Status::Ok();
  }

 private:
  std::vector<int64_t> dims_;
};

class ConstantKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const AttributeMap& a = ctx.attrs();
    if (const Tensor* t = a.GetTensor("value")) {
      value_ = *t;
    } else if (a.Has("value_float")) {
      value_ = Tensor::Scalar(DataType::kFloat, a.GetFloat("value_float", 0));
    } else if (a.Has("value_int")) {
      value_ = Tensor::Scalar(DataType::kInt64, static_cast<double>(a.GetInt("value_int", 0)));
    } else if (a.Has("value_floats")) {
      auto v = a.GetFloats("value_floats");
      value_ = Tensor(DataType::kFloat, {static_cast<int64_t>(v.size())});
      std::copy(v.begin(), v.end(), value_.mutable_data_as<float>());
    } else if (a.Has("value_ints")) {
      auto v = a.GetInts("value_ints");
      value_ = Tensor::FromInt64s(v, {static_cast<int64_t>(v.size())});
    } else {
      return ctx.Error("Constant has no supported value attribute");
    }
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    if (value_.nbytes()) std::memcpy(ctx.outputs[0], value_.data(), value_.nbytes());
    return Status::Ok();
  }

 private:
  Tensor value_;
};

class ConstantOfShapeKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    if (const Tensor* v = ctx.attrs().GetTensor("value")) {
      if (v->numel() != 1 || v->dtype() != ctx.outputs[0].dtype || DataTypeSize(v->dtype()) == 0)
        return ctx.Error("value must be one element of the output's type");
      value_.assign(static_cast<const uint8_t*>(v->data()),
                    static_cast<const uint8_t*>(v->data()) + DataTypeSize(v->dtype()));
    } else {
      value_.assign(4, 0);
    }
    n_ = ctx.outputs[0].numel();
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    auto* out = static_cast<uint8_t*>(ctx.outputs[0]);
    for (int64_t i = 0; i < n_; ++i)
      std::memcpy(out + i * value_.size(), value_.data(), value_.size());
    return Status::Ok();
  }

 private:
  std::vector<uint8_t> value_;
  int64_t n_ = 0;
};

// Expand and Tile are both strided copies with zero or modular strides.
class ExpandKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& in = ctx.inputs[0].shape;
    const Shape& out = ctx.outputs[0].shape;
    esize_ = DataTypeSize(ctx.inputs[0].dtype);
    if (!BroadcastPlan::Valid(out, {in}))
      return ctx.Error("input does not broadcast to the output");
    plan_ = BroadcastPlan::Make(out, {in});
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* in = static_cast<const uint8_t*>(ctx.inputs[0]);
    auto* out = static_cast<uint8_t*>(ctx.outputs[0]);
    for (int64_t r = 0; r < plan_.outer; ++r) {
      int64_t off;
      plan_.RowOffsets(r, &off);
      uint8_t* o = out + r * plan_.inner * esize_;
      if (plan_.inner_step[0]) {
        std::memcpy(o, in + off * esize_, plan_.inner * esize_);
      } else {
        for (int64_t i = 0; i < plan_.inner; ++i)
          std::memcpy(o + i * esize_, in + off * esize_, esize_);
      }
    }
    return Status::Ok();
  }

 private:
  BroadcastPlan plan_;
  size_t esize_ = 4;
};

class TileKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    in_ = ctx.inputs[0].shape;
    out_ = ctx.outputs[0].shape;
    esize_ = DataTypeSize(ctx.inputs[0].dtype);
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* in = static_cast<const uint8_t*>(ctx.inputs[0]);
    auto* out = static_cast<uint8_t*>(ctx.outputs[0]);
    const int64_t n = NumElements(out_);
    auto in_st = ContiguousStrides(in_);
    for (int64_t i = 0; i < n; ++i) {
      int64_t rem = i, off = 0;
      for (size_t d = out_.size(); d-- > 0;) {
        off += ((rem % out_[d]) % in_[d]) * in_st[d];
        rem /= out_[d];
      }
      std::memcpy(out + i * esize_, in + off * esize_, esize_);
    }
    return Status::Ok();
  }

 private:
  Shape in_, out_;
  size_t esize_ = 4;
};

class RangeKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    type_ = ctx.outputs[0].dtype;
    n_ = ctx.outputs[0].numel();
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    bool ok = DispatchArithmetic(type_, [&]<typename T>() {
      T start = *static_cast<const T*>(ctx.inputs[0]);
      T delta = *static_cast<const T*>(ctx.inputs[2]);
      T* y = static_cast<T*>(ctx.outputs[0]);
      for (int64_t i = 0; i < n_; ++i) y[i] = static_cast<T>(start + static_cast<T>(i) * delta);
    });
    return ok ? Status::Ok() : Unsupported("Range on unsupported type");
  }

 private:
  DataType type_ = DataType::kFloat;
  int64_t n_ = 0;
};

class PadKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    in_ = ctx.inputs[0].shape;
    out_ = ctx.outputs[0].shape;
    type_ = ctx.inputs[0].dtype;
    esize_ = DataTypeSize(type_);
    std::vector<int64_t> pads = ctx.attrs().GetInts("pads");
    if (pads.empty()) {
      if (!ctx.constants[1]) return ctx.NeedsValue("pads");
      pads = ctx.constants[1]->ToInt64Vector();
    }
    const size_t rank = in_.size();
    std::vector<int64_t> axes;
    if (ctx.has_input(3)) {
      if (!ctx.constants[3]) return ctx.NeedsValue("axes");
      axes = ctx.constants[3]->ToInt64Vector();
    } else {
      for (size_t i = 0; i < rank; ++i) axes.push_back(static_cast<int64_t>(i));
    }
    // What the output is made of is checked against what it was sized as: this kernel walks
    // the output and maps each element back into X by begin_.
    if (pads.size() != 2 * axes.size()) return ctx.Error("pads must hold two values per axis");
    begin_.assign(rank, 0);
    Shape padded = in_;
    for (size_t k = 0; k < axes.size(); ++k) {
      OC_ASSIGN_OR_RETURN(int64_t a, NormalizeAxis(axes[k], static_cast<int64_t>(rank)));
      begin_[a] = pads[k];
      padded[a] += pads[k] + pads[k + axes.size()];
    }
    if (padded != out_)
      return ctx.Error("the output " + ShapeToString(out_) + " is not X " + ShapeToString(in_) +
                       " padded by " + std::to_string(pads.size()) + " pads");
    mode_ = ctx.attrs().GetString("mode", "constant");
    value_.assign(esize_, 0);
    if (ctx.has_input(2)) {
      if (!ctx.constants[2]) return ctx.NeedsValue("constant_value");
      if (ctx.constants[2]->numel() != 1 || ctx.constants[2]->dtype() != type_)
        return ctx.Error("constant_value must be one value of X's type");
      std::memcpy(value_.data(), ctx.constants[2]->data(), esize_);
    } else if (ctx.attrs().Has("value")) {
      Tensor v = Tensor::Scalar(type_, ctx.attrs().GetFloat("value", 0));
      std::memcpy(value_.data(), v.data(), esize_);
    }
    if (mode_ != "constant" && mode_ != "reflect" && mode_ != "edge" && mode_ != "wrap")
      return ctx.Error("unknown mode " + mode_);
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* in = static_cast<const uint8_t*>(ctx.inputs[0]);
    auto* out = static_cast<uint8_t*>(ctx.outputs[0]);
    const int64_t n = NumElements(out_);
    auto in_st = ContiguousStrides(in_);
    for (int64_t i = 0; i < n; ++i) {
      int64_t rem = i, off = 0;
      bool outside = false;
      for (size_t d = out_.size(); d-- > 0;) {
        int64_t j = rem % out_[d] - begin_[d];
        rem /= out_[d];
        const int64_t dim = in_[d];
        if (j < 0 || j >= dim) {
          if (mode_ == "constant" || dim == 0) {
            outside = true;
            break;
          }
          if (mode_ == "edge") {
            j = std::clamp<int64_t>(j, 0, dim - 1);
          } else if (mode_ == "wrap") {
            j = ((j % dim) + dim) % dim;
          } else {  // reflect
            const int64_t period = 2 * (dim - 1);
            if (period == 0) {
              j = 0;
            } else {
              j = ((j % period) + period) % period;
              if (j >= dim) j = period - j;
            }
          }
        }
        off += j * in_st[d];
      }
      std::memcpy(out + i * esize_, outside ? value_.data() : in + off * esize_, esize_);
    }
    return Status::Ok();
  }

 private:
  Shape in_, out_;
  std::vector<int64_t> begin_;
  DataType type_ = DataType::kFloat;
  size_t esize_ = 4;
  std::string mode_;
  std::vector<uint8_t> value_;
};

}  // namespace

void RegisterTensorKernels(KernelTable& r) {
  r.SetFamilyTypes("all types");
  for (const char* op : {"Reshape", "Flatten", "Squeeze", "Unsqueeze"}) r.Add<ReshapeKernel>(op);
  r.Add<TransposeKernel>("Transpose");
  r.Add<SliceKernel>("Slice");
  r.Add<ConcatKernel>("Concat");
  r.Add<SplitKernel>("Split");
  r.Add<GatherKernel>("Gather");
  r.Add<ShapeKernel>("Shape");
  r.Add<ShapeKernel>("Size");
  r.Add<ConstantKernel>("Constant");
  r.Add<ConstantOfShapeKernel>("ConstantOfShape");
  r.Add<ExpandKernel>("Expand");
  r.Add<TileKernel>("Tile");
  r.Add<RangeKernel>("Range");
  r.Add<PadKernel>("Pad");
}

}  // namespace oc
