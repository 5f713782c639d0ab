// Index-driven kernels. Element moves are done on bytes with the element size, so every
// dtype works; arithmetic (reductions in scatters, CumSum, comparisons) dispatches on type.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "backend/kernel.h"
#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/kernel_families.h"

namespace oc {
namespace {

int64_t IndexAt(DataType t, const void* p, int64_t i) {
  return t == DataType::kInt32 ? static_cast<const int32_t*>(p)[i]
                               : static_cast<const int64_t*>(p)[i];
}

Status CheckIndexType(const KernelPrepareContext& ctx, size_t i) {
  const DataType t = ctx.inputs[i].dtype;
  if (t != DataType::kInt32 && t != DataType::kInt64)
    return ctx.Error("indices must be int32 or int64");
  return Status::Ok();
}

Status BadIndex(const std::string& node, int64_t idx, int64_t dim) {
  return InvalidArgument("node [" + node + "]: index " + std::to_string(idx) +
                         " is out of range [" + std::to_string(-dim) + ", " + std::to_string(dim) +
                         ")");
}

// Applies a scatter reduction on one element.
template <typename T>
void Reduce(const std::string& red, T* dst, T v) {
  if (red == "add")
    *dst = static_cast<T>(*dst + v);
  else if (red == "mul")
    *dst = static_cast<T>(*dst * v);
  else if (red == "max")
    *dst = std::max(*dst, v);
  else if (red == "min")
    *dst = std::min(*dst, v);
  else
    *dst = v;
}

// Walks the indices of GatherElements / ScatterElements: for index element e, `visit(e, off)`
// gets the flat data offset of the index position with its axis coordinate replaced by the
// (bounds-checked, wrapped) index value.
template <typename Visit>
Status ForEachAxisIndex(const Shape& data, const Shape& idx, int64_t axis, DataType itype,
                        const void* indices, const std::string& node, Visit&& visit) {
  const auto ds = ContiguousStrides(data);
  const int64_t n = NumElements(idx), dim = data[axis];
  std::vector<int64_t> pos(idx.size(), 0);
  for (int64_t e = 0; e < n; ++e) {
    int64_t k = IndexAt(itype, indices, e);
    if (k < -dim || k >= dim) return BadIndex(node, k, dim);
    if (k < 0) k += dim;
    int64_t off = 0;
    for (size_t a = 0; a < pos.size(); ++a)
      off += (static_cast<int64_t>(a) == axis ? k : pos[a]) * ds[a];
    visit(e, off);
    for (size_t a = pos.size(); a-- > 0;) {
      if (++pos[a] < idx[a]) break;
      pos[a] = 0;
    }
  }
  return Status::Ok();
}

class GatherElementsKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    OC_RETURN_IF_ERROR(CheckIndexType(ctx, 1));
    data_ = ctx.inputs[0].shape;
    idx_ = ctx.inputs[1].shape;
    OC_ASSIGN_OR_RETURN(
        axis_, NormalizeAxis(ctx.attrs().GetInt("axis", 0), static_cast<int64_t>(data_.size())));
    esize_ = DataTypeSize(ctx.inputs[0].dtype);
    itype_ = ctx.inputs[1].dtype;
    name_ = ctx.node->name;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* d = static_cast<const uint8_t*>(ctx.inputs[0]);
    auto* out = static_cast<uint8_t*>(ctx.outputs[0]);
    return ForEachAxisIndex(
        data_, idx_, axis_, itype_, ctx.inputs[1], name_,
        [&](int64_t e, int64_t off) { std::memcpy(out + e * esize_, d + off * esize_, esize_); });
  }

 private:
  Shape data_, idx_;
  int64_t axis_ = 0;
  size_t esize_ = 4;
  DataType itype_ = DataType::kInt64;
  std::string name_;
};

class ScatterElementsKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    OC_RETURN_IF_ERROR(CheckIndexType(ctx, 1));
    data_ = ctx.inputs[0].shape;
    idx_ = ctx.inputs[1].shape;
    if (ctx.inputs[2].shape != idx_) return ctx.Error("updates must have the shape of indices");
    OC_ASSIGN_OR_RETURN(
        axis_, NormalizeAxis(ctx.attrs().GetInt("axis", 0), static_cast<int64_t>(data_.size())));
    type_ = ctx.inputs[0].dtype;
    itype_ = ctx.inputs[1].dtype;
    reduction_ = ctx.attrs().GetString("reduction", "none");
    name_ = ctx.node->name;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const size_t es = DataTypeSize(type_);
    std::memcpy(ctx.outputs[0], ctx.inputs[0], static_cast<size_t>(NumElements(data_)) * es);
    Status status;
    DispatchNumeric(type_, [&]<typename T>() {
      T* out = static_cast<T*>(ctx.outputs[0]);
      const T* upd = static_cast<const T*>(ctx.inputs[2]);
      status = ForEachAxisIndex(data_, idx_, axis_, itype_, ctx.inputs[1], name_,
                                [&](int64_t e, int64_t off) {
                                  if constexpr (std::is_same_v<T, bool>)
                                    out[off] = upd[e];
                                  else
                                    Reduce<T>(reduction_, out + off, upd[e]);
                                });
    });
    return status;
  }

 private:
  Shape data_, idx_;
  int64_t axis_ = 0;
  DataType type_ = DataType::kFloat, itype_ = DataType::kInt64;
  std::string reduction_, name_;
};

class GatherNDKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    OC_RETURN_IF_ERROR(CheckIndexType(ctx, 1));
    data_ = ctx.inputs[0].shape;
    idx_ = ctx.inputs[1].shape;
    batch_ = ctx.attrs().GetInt("batch_dims", 0);
    esize_ = DataTypeSize(ctx.inputs[0].dtype);
    itype_ = ctx.inputs[1].dtype;
    name_ = ctx.node->name;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const int64_t last = idx_.back();
    const auto ds = ContiguousStrides(data_);
    int64_t batches = 1;
    for (int64_t b = 0; b < batch_; ++b) batches *= data_[b];
    const int64_t n_idx = NumElements(idx_) / std::max<int64_t>(last, 1);
    const int64_t per_batch = n_idx / std::max<int64_t>(batches, 1);
    int64_t slice = 1;
    for (size_t a = batch_ + last; a < data_.size(); ++a) slice *= data_[a];
    const int64_t batch_stride = batch_ > 0 ? ds[batch_ - 1] : 0;
    const auto* d = static_cast<const uint8_t*>(ctx.inputs[0]);
    auto* out = static_cast<uint8_t*>(ctx.outputs[0]);
    for (int64_t i = 0; i < n_idx; ++i) {
      const int64_t b = per_batch ? i / per_batch : 0;
      int64_t off = b * batch_stride;
      for (int64_t j = 0; j < last; ++j) {
        int64_t k = IndexAt(itype_, ctx.inputs[1], i * last + j);
        const int64_t dim = data_[batch_ + j];
        if (k < -dim || k >= dim) return BadIndex(name_, k, dim);
        if (k < 0) k += dim;
        off += k * ds[batch_ + j];
      }
      std::memcpy(out + i * slice * esize_, d + off * esize_, slice * esize_);
    }
    return Status::Ok();
  }

 private:
  Shape data_, idx_;
  int64_t batch_ = 0;
  size_t esize_ = 4;
  DataType itype_ = DataType::kInt64;
  std::string name_;
};

class ScatterNDKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    OC_RETURN_IF_ERROR(CheckIndexType(ctx, 1));
    data_ = ctx.inputs[0].shape;
    idx_ = ctx.inputs[1].shape;
    type_ = ctx.inputs[0].dtype;
    itype_ = ctx.inputs[1].dtype;
    reduction_ = ctx.attrs().GetString("reduction", "none");
    name_ = ctx.node->name;
    if (idx_.empty() || idx_.back() > static_cast<int64_t>(data_.size()))
      return ctx.Error("indices last dimension too large");
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const size_t es = DataTypeSize(type_);
    std::memcpy(ctx.outputs[0], ctx.inputs[0], static_cast<size_t>(NumElements(data_)) * es);
    const int64_t last = idx_.back();
    const auto ds = ContiguousStrides(data_);
    const int64_t n_idx = NumElements(idx_) / std::max<int64_t>(last, 1);
    int64_t slice = 1;
    for (size_t a = last; a < data_.size(); ++a) slice *= data_[a];
    Status status;
    DispatchNumeric(type_, [&]<typename T>() {
      T* out = static_cast<T*>(ctx.outputs[0]);
      const T* upd = static_cast<const T*>(ctx.inputs[2]);
      for (int64_t i = 0; i < n_idx && status.ok(); ++i) {
        int64_t off = 0;
        for (int64_t j = 0; j < last; ++j) {
          int64_t k = IndexAt(itype_, ctx.inputs[1], i * last + j);
          const int64_t dim = data_[j];
          if (k < -dim || k >= dim) {
            status = BadIndex(name_, k, dim);
            return;
          }
          off += (k < 0 ? k + dim : k) * ds[j];
        }
        for (int64_t s = 0; s < slice; ++s) {
          if constexpr (std::is_same_v<T, bool>)
            out[off + s] = upd[i * slice + s];
          else
            Reduce<T>(reduction_, out + off + s, upd[i * slice + s]);
        }
      }
    });
    return status;
  }

 private:
  Shape data_, idx_;
  DataType type_ = DataType::kFloat, itype_ = DataType::kInt64;
  std::string reduction_, name_;
};

class OneHotKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    in_ = ctx.inputs[0].shape;
    out_ = ctx.outputs[0].shape;
    itype_ = ctx.inputs[0].dtype;
    vtype_ = ctx.inputs[2].dtype;
    const int64_t rank = static_cast<int64_t>(out_.size());
    axis_ = ctx.attrs().GetInt("axis", -1);
    if (axis_ < 0) axis_ += rank;
    if (axis_ < 0 || axis_ >= rank) return ctx.Error("axis out of range");
    depth_ = out_[axis_];
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const size_t es = DataTypeSize(vtype_);
    const auto* values = static_cast<const uint8_t*>(ctx.inputs[2]);
    auto* out = static_cast<uint8_t*>(ctx.outputs[0]);
    int64_t outer = 1, inner = 1;
    for (int64_t a = 0; a < axis_; ++a) outer *= out_[a];
    for (size_t a = axis_ + 1; a < out_.size(); ++a) inner *= out_[a];
    Tensor in_view(itype_, in_, ctx.inputs[0], nullptr);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t d = 0; d < depth_; ++d)
        for (int64_t i = 0; i < inner; ++i) {
          int64_t k = static_cast<int64_t>(in_view.GetAsDouble(o * inner + i));
          if (k < 0) k += depth_;
          std::memcpy(out + ((o * depth_ + d) * inner + i) * es, values + (k == d ? es : 0), es);
        }
    return Status::Ok();
  }

 private:
  Shape in_, out_;
  DataType itype_ = DataType::kInt64, vtype_ = DataType::kFloat;
  int64_t axis_ = -1, depth_ = 0;
};

class TriluKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    shape_ = ctx.inputs[0].shape;
    if (shape_.size() < 2) return ctx.Error("input must have rank >= 2");
    upper_ = ctx.attrs().GetInt("upper", 1) != 0;
    has_k_ = ctx.has_input(1);
    esize_ = DataTypeSize(ctx.inputs[0].dtype);
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const int64_t k = has_k_ ? *static_cast<const int64_t*>(ctx.inputs[1]) : 0;
    const int64_t rows = shape_[shape_.size() - 2], cols = shape_.back();
    const int64_t mats = NumElements(shape_) / std::max<int64_t>(rows * cols, 1);
    const auto* in = static_cast<const uint8_t*>(ctx.inputs[0]);
    auto* out = static_cast<uint8_t*>(ctx.outputs[0]);
    for (int64_t m = 0; m < mats; ++m)
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
          const bool keep = upper_ ? j - i >= k : j - i <= k;
          const int64_t e = (m * rows + i) * cols + j;
          if (keep)
            std::memcpy(out + e * esize_, in + e * esize_, esize_);
          else
            std::memset(out + e * esize_, 0, esize_);
        }
    return Status::Ok();
  }

 private:
  Shape shape_;
  bool upper_ = true, has_k_ = false;
  size_t esize_ = 4;
};

class CumSumKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    shape_ = ctx.inputs[0].shape;
    type_ = ctx.inputs[0].dtype;
    OC_ASSIGN_OR_RETURN(int64_t axis, ctx.OneInt(1, "axis"));
    OC_ASSIGN_OR_RETURN(axis_, NormalizeAxis(axis, static_cast<int64_t>(shape_.size())));
    exclusive_ = ctx.attrs().GetInt("exclusive", 0) != 0;
    reverse_ = ctx.attrs().GetInt("reverse", 0) != 0;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    int64_t outer = 1, inner = 1;
    for (int64_t a = 0; a < axis_; ++a) outer *= shape_[a];
    for (size_t a = axis_ + 1; a < shape_.size(); ++a) inner *= shape_[a];
    const int64_t dim = shape_[axis_];
    bool ok = DispatchArithmetic(type_, [&]<typename T>() {
      const T* x = static_cast<const T*>(ctx.inputs[0]);
      T* y = static_cast<T*>(ctx.outputs[0]);
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          T acc = T(0);
          for (int64_t s = 0; s < dim; ++s) {
            const int64_t d = reverse_ ? dim - 1 - s : s;
            const int64_t e = (o * dim + d) * inner + i;
            if (exclusive_) {
              y[e] = acc;
              acc = WrapAdd(acc, x[e]);
            } else {
              acc = WrapAdd(acc, x[e]);
              y[e] = acc;
            }
          }
        }
    });
    return ok ? Status::Ok() : Unsupported("CumSum on unsupported type");
  }

 private:
  Shape shape_;
  DataType type_ = DataType::kFloat;
  int64_t axis_ = 0;
  bool exclusive_ = false, reverse_ = false;
};

class EyeLikeKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    shape_ = ctx.outputs[0].shape;
    if (shape_.size() != 2) return ctx.Error("EyeLike needs a 2-D input");
    type_ = ctx.outputs[0].dtype;
    k_ = ctx.attrs().GetInt("k", 0);
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const size_t es = DataTypeSize(type_);
    auto* out = static_cast<uint8_t*>(ctx.outputs[0]);
    std::memset(out, 0, static_cast<size_t>(NumElements(shape_)) * es);
    Tensor one = Tensor::Scalar(type_, 1.0);
    for (int64_t i = 0; i < shape_[0]; ++i) {
      const int64_t j = i + k_;
      if (j >= 0 && j < shape_[1]) std::memcpy(out + (i * shape_[1] + j) * es, one.data(), es);
    }
    return Status::Ok();
  }

 private:
  Shape shape_;
  DataType type_ = DataType::kFloat;
  int64_t k_ = 0;
};

// DepthToSpace and SpaceToDepth are 6-D transposes.
class SpaceDepthKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& s = ctx.inputs[0].shape;
    const int64_t b = ctx.attrs().GetInt("blocksize", 1);
    const int64_t n = s[0], c = s[1], h = s[2], w = s[3];
    esize_ = DataTypeSize(ctx.inputs[0].dtype);
    Shape view;
    std::vector<int64_t> perm;
    if (ctx.node->op_type == "DepthToSpace") {
      if (ctx.attrs().GetString("mode", "DCR") == "DCR") {
        view = {n, b, b, c / (b * b), h, w};
        perm = {0, 3, 4, 1, 5, 2};
      } else {
        view = {n, c / (b * b), b, b, h, w};
        perm = {0, 1, 4, 2, 5, 3};
      }
    } else {
      view = {n, c, h / b, b, w / b, b};
      perm = {0, 3, 5, 1, 2, 4};
    }
    auto st = ContiguousStrides(view);
    for (int64_t p : perm) {
      dims_.push_back(view[p]);
      strides_.push_back(st[p]);
    }
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    const auto* in = static_cast<const uint8_t*>(ctx.inputs[0]);
    auto* out = static_cast<uint8_t*>(ctx.outputs[0]);
    const int64_t total = NumElements(dims_);
    std::vector<int64_t> pos(6, 0);
    for (int64_t e = 0; e < total; ++e) {
      int64_t off = 0;
      for (int a = 0; a < 6; ++a) off += pos[a] * strides_[a];
      std::memcpy(out + e * esize_, in + off * esize_, esize_);
      for (int a = 5; a >= 0; --a) {
        if (++pos[a] < dims_[a]) break;
        pos[a] = 0;
      }
    }
    return Status::Ok();
  }

 private:
  Shape dims_;
  std::vector<int64_t> strides_;
  size_t esize_ = 4;
};

class TopKKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    shape_ = ctx.inputs[0].shape;
    type_ = ctx.inputs[0].dtype;
    OC_ASSIGN_OR_RETURN(
        axis_, NormalizeAxis(ctx.attrs().GetInt("axis", -1), static_cast<int64_t>(shape_.size())));
    // K from its own source, not from the output's description (which a value-decided
    // preparation leaves unknown).
    if (ctx.has_input(1)) {
      OC_ASSIGN_OR_RETURN(k_, ctx.OneInt(1, "K"));
    } else {
      k_ = ctx.attrs().GetInt("k", -1);
    }
    if (shape_.empty() || k_ < 0 || k_ > shape_[axis_])
      return ctx.Error("K must be one value between 0 and the axis' length");
    largest_ = ctx.attrs().GetInt("largest", 1) != 0;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    int64_t outer = 1, inner = 1;
    for (int64_t a = 0; a < axis_; ++a) outer *= shape_[a];
    for (size_t a = axis_ + 1; a < shape_.size(); ++a) inner *= shape_[a];
    const int64_t dim = shape_[axis_];
    bool ok = DispatchNumeric(type_, [&]<typename T>() {
      const T* x = static_cast<const T*>(ctx.inputs[0]);
      T* v = static_cast<T*>(ctx.outputs[0]);
      int64_t* idx = static_cast<int64_t*>(ctx.outputs[1]);
      std::vector<int64_t> order(dim);
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          std::iota(order.begin(), order.end(), 0);
          auto val = [&](int64_t j) { return x[(o * dim + j) * inner + i]; };
          // Ties keep the lower index first, as ONNX specifies.
          std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
            return largest_ ? val(a) > val(b) : val(a) < val(b);
          });
          for (int64_t j = 0; j < k_; ++j) {
            v[(o * k_ + j) * inner + i] = val(order[j]);
            idx[(o * k_ + j) * inner + i] = order[j];
          }
        }
    });
    return ok ? Status::Ok() : Unsupported("TopK on unsupported type");
  }

 private:
  Shape shape_;
  DataType type_ = DataType::kFloat;
  int64_t axis_ = -1, k_ = 0;
  bool largest_ = true;
};

}  // namespace

void RegisterIndexingKernels(KernelTable& r) {
  r.SetFamilyTypes("all types (arithmetic ones: all numeric types)");
  r.Add<GatherElementsKernel>("GatherElements");
  r.Add<ScatterElementsKernel>("ScatterElements");
  r.Add<ScatterElementsKernel>("Scatter");
  r.Add<GatherNDKernel>("GatherND");
  r.Add<ScatterNDKernel>("ScatterND");
  r.Add<OneHotKernel>("OneHot");
  r.Add<TriluKernel>("Trilu");
  r.Add<CumSumKernel>("CumSum");
  r.Add<EyeLikeKernel>("EyeLike");
  r.Add<SpaceDepthKernel>("DepthToSpace");
  r.Add<SpaceDepthKernel>("SpaceToDepth");
  r.Add<TopKKernel>("TopK");
}

}  // namespace oc
