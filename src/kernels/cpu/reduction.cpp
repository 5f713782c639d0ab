// Reductions and ArgMax/ArgMin. The input is viewed as [outer, reduced, inner] when the
// reduced axes are adjacent (the common case, one pass with contiguous rows); other
// axis sets walk every element once.
#include <algorithm>
#include <cmath>
#include <limits>

#include "backend/kernel.h"
#include "kernels/cpu/dispatch.h"
#include "kernels/cpu/kernel_families.h"
#include "ops/shape_rules.h"

namespace oc {
namespace {

enum class ReduceOp { kSum, kMean, kMax, kMin, kProd, kL1, kL2, kLogSum, kLogSumExp, kSumSquare };

Result<ReduceOp> ReduceOpFor(const std::string& t) {
  static const struct {
    const char* name;
    ReduceOp op;
  } kOps[] = {{"ReduceSum", ReduceOp::kSum},
              {"ReduceMean", ReduceOp::kMean},
              {"ReduceMax", ReduceOp::kMax},
              {"ReduceMin", ReduceOp::kMin},
              {"ReduceProd", ReduceOp::kProd},
              {"ReduceL1", ReduceOp::kL1},
              {"ReduceL2", ReduceOp::kL2},
              {"ReduceLogSum", ReduceOp::kLogSum},
              {"ReduceLogSumExp", ReduceOp::kLogSumExp},
              {"ReduceSumSquare", ReduceOp::kSumSquare}};
  for (const auto& e : kOps)
    if (t == e.name) return e.op;
  return Unsupported("not a reduction: " + t);
}

double Init(ReduceOp op) {
  switch (op) {
    case ReduceOp::kMax:
      return -std::numeric_limits<double>::infinity();
    case ReduceOp::kMin:
      return std::numeric_limits<double>::infinity();
    case ReduceOp::kProd:
      return 1.0;
    default:
      return 0.0;
  }
}

inline double Step(ReduceOp op, double acc, double v) {
  switch (op) {
    case ReduceOp::kMax:
      return std::max(acc, v);
    case ReduceOp::kMin:
      return std::min(acc, v);
    case ReduceOp::kProd:
      return acc * v;
    case ReduceOp::kL1:
      return acc + std::abs(v);
    case ReduceOp::kL2:
    case ReduceOp::kSumSquare:
      return acc + v * v;
    case ReduceOp::kLogSumExp:
      return acc + std::exp(v);
    default:
      return acc + v;
  }
}

inline double Finish(ReduceOp op, double acc, int64_t count) {
  switch (op) {
    case ReduceOp::kMean:
      return acc / static_cast<double>(count);
    case ReduceOp::kL2:
      return std::sqrt(acc);
    case ReduceOp::kLogSum:
    case ReduceOp::kLogSumExp:
      return std::log(acc);
    default:
      return acc;
  }
}

class ReduceKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    OC_ASSIGN_OR_RETURN(op_, ReduceOpFor(ctx.node->op_type));
    type_ = ctx.inputs[0].dtype;
    in_ = ctx.inputs[0].shape;
    const int64_t rank = static_cast<int64_t>(in_.size());
    bool known = false;
    std::vector<int64_t> axes = NodeAxes(ctx.attrs(), ctx.has_input(1), ctx.constants[1], &known);
    if (!known) return ctx.NeedsValue("axes");
    reduced_.assign(in_.size(), false);
    if (axes.empty()) {
      if (ctx.attrs().GetInt("noop_with_empty_axes", 0)) {
        noop_ = true;
      } else {
        reduced_.assign(in_.size(), true);
      }
    }
    for (int64_t a : axes) {
      OC_ASSIGN_OR_RETURN(int64_t n, NormalizeAxis(a, rank));
      reduced_[n] = true;
    }
    // Adjacent reduced axes collapse into [outer, red, inner].
    int64_t first = -1, last = -1;
    for (int64_t d = 0; d < rank; ++d)
      if (reduced_[d] && in_[d] != 1) {
        if (first < 0) first = d;
        last = d;
      }
    adjacent_ = true;
    for (int64_t d = first; d >= 0 && d <= last; ++d)
      if (!reduced_[d] && in_[d] != 1) adjacent_ = false;
    outer_ = red_ = inner_ = 1;
    for (int64_t d = 0; d < rank; ++d) {
      if (first < 0 || d < first)
        outer_ *= in_[d];
      else if (d <= last)
        red_ *= in_[d];
      else
        inner_ *= in_[d];
    }
    count_ = 1;
    for (int64_t d = 0; d < rank; ++d)
      if (reduced_[d]) count_ *= in_[d];
    out_n_ = ctx.outputs[0].numel();
    // The loops write one value per kept position: the output must hold exactly that many.
    int64_t kept = 1;
    for (int64_t d = 0; d < rank; ++d)
      if (!reduced_[d] || noop_) kept *= in_[d];
    if (out_n_ != kept)
      return ctx.Error("the output " + ShapeToString(ctx.outputs[0].shape) + " does not hold the " +
                       std::to_string(kept) + " values the reduction of " + ShapeToString(in_) +
                       " gives");
    if (!DispatchNumeric(type_, []<typename T>() {}))
      return ctx.Error(std::string("type ") + DataTypeName(type_) + " is not supported");
    return Status::Ok();
  }

  Status Run(const KernelRunContext& ctx) const override {
    DispatchNumeric(type_, [&]<typename T>() {
      const T* x = static_cast<const T*>(ctx.inputs[0]);
      T* y = static_cast<T*>(ctx.outputs[0]);
      if (noop_) {
        std::copy(x, x + NumElements(in_), y);
        return;
      }
      if (adjacent_) {
        const int64_t rows = outer_ * inner_;
#pragma omp parallel for num_threads(ctx.num_threads) if (rows * red_ > 65536)
        for (int64_t r = 0; r < rows; ++r) {
          const int64_t o = r / inner_, i = r % inner_;
          const T* p = x + o * red_ * inner_ + i;
          double acc = Init(op_);
          for (int64_t k = 0; k < red_; ++k)
            acc = Step(op_, acc, static_cast<double>(p[k * inner_]));
          y[r] = SaturatingCast<T>(Finish(op_, acc, count_));
        }
        return;
      }
      // General: odometer over the input, accumulating into per-output doubles.
      std::vector<double> acc(static_cast<size_t>(out_n_), Init(op_));
      const size_t rank = in_.size();
      std::vector<int64_t> out_stride(rank, 0);
      int64_t s = 1;
      for (size_t d = rank; d-- > 0;) {
        if (!reduced_[d]) {
          out_stride[d] = s;
          s *= in_[d];
        }
      }
      std::vector<int64_t> idx(rank, 0);
      const int64_t n = NumElements(in_);
      for (int64_t e = 0; e < n; ++e) {
        int64_t o = 0;
        for (size_t d = 0; d < rank; ++d) o += idx[d] * out_stride[d];
        acc[o] = Step(op_, acc[o], static_cast<double>(x[e]));
        for (size_t d = rank; d-- > 0;) {
          if (++idx[d] < in_[d]) break;
          idx[d] = 0;
        }
      }
      for (int64_t o = 0; o < out_n_; ++o) y[o] = SaturatingCast<T>(Finish(op_, acc[o], count_));
    });
    return Status::Ok();
  }

 private:
  ReduceOp op_ = ReduceOp::kSum;
  DataType type_ = DataType::kFloat;
  Shape in_;
  std::vector<bool> reduced_;
  bool adjacent_ = true, noop_ = false;
  int64_t outer_ = 1, red_ = 1, inner_ = 1, count_ = 1, out_n_ = 0;
};

class ArgKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Shape& s = ctx.inputs[0].shape;
    type_ = ctx.inputs[0].dtype;
    // oc.ArgMaxV2 takes the axis as its second input (prepared at execution when it is
    // not constant); ONNX's ArgMax as an attribute.
    int64_t given = ctx.attrs().GetInt("axis", 0);
    if (ctx.node->domain == kOcDomain) {
      OC_ASSIGN_OR_RETURN(given, ctx.OneInt(1, "dimension"));
    }
    OC_ASSIGN_OR_RETURN(int64_t axis, NormalizeAxis(given, static_cast<int64_t>(s.size())));
    outer_ = inner_ = 1;
    for (int64_t d = 0; d < axis; ++d) outer_ *= s[d];
    for (size_t d = axis + 1; d < s.size(); ++d) inner_ *= s[d];
    dim_ = s[axis];
    is_max_ = ctx.node->op_type.rfind("ArgMax", 0) == 0;
    last_ = ctx.attrs().GetInt("select_last_index", 0) != 0;
    return Status::Ok();
  }
  Status Run(const KernelRunContext& ctx) const override {
    bool ok = DispatchNumeric(type_, [&]<typename T>() {
      const T* x = static_cast<const T*>(ctx.inputs[0]);
      int64_t* y = static_cast<int64_t*>(ctx.outputs[0]);
      for (int64_t o = 0; o < outer_; ++o)
        for (int64_t i = 0; i < inner_; ++i) {
          const T* p = x + o * dim_ * inner_ + i;
          int64_t best = 0;
          for (int64_t k = 1; k < dim_; ++k) {
            T v = p[k * inner_], b = p[best * inner_];
            bool better = is_max_ ? (last_ ? v >= b : v > b) : (last_ ? v <= b : v < b);
            if (better) best = k;
          }
          y[o * inner_ + i] = best;
        }
    });
    return ok ? Status::Ok() : Unsupported("ArgMax/ArgMin on unsupported type");
  }

 private:
  DataType type_ = DataType::kFloat;
  int64_t outer_ = 1, inner_ = 1, dim_ = 1;
  bool is_max_ = true, last_ = false;
};

}  // namespace

void RegisterReductionKernels(KernelTable& r) {
  r.SetFamilyTypes("all numeric types");
  for (const char* op :
       {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
        "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"})
    r.Add<ReduceKernel>(op);
  r.Add<ArgKernel>("ArgMax");
  r.Add<ArgKernel>("ArgMin");
  r.Add<ArgKernel>("ArgMaxV2", kOcDomain, "GE's ArgMaxV2 with its axis given at execution");
  r.Add<ArgKernel>("ArgMinV2", kOcDomain, "GE's ArgMin with its axis given at execution");
}

}  // namespace oc
