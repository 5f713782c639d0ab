// Reference reductions: ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd,
// ReduceSumSquare, ReduceL1, ReduceL2 with axes from the attribute (older opsets) or the
// constant second input, keepdims and noop_with_empty_axes.
#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/reference/ref_util.h"

namespace oc::ref {
namespace {

class ReduceKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    op_ = ctx.node->op_type;
    in_shape_ = ctx.inputs[0].shape;
    const size_t rank = in_shape_.size();
    std::vector<int64_t> axes;
    if (ctx.has_input(1)) {
      if (!ctx.constants[1]) return ctx.NeedsValue("axes");
      axes = ctx.constants[1]->ToInt64Vector();
    } else {
      axes = ctx.attrs().GetInts("axes");
    }
    reduced_.assign(rank, false);
    if (axes.empty()) {
      const bool noop = ctx.attrs().GetInt("noop_with_empty_axes", 0) != 0;
      if (!noop) reduced_.assign(rank, true);
    }
    for (int64_t a : axes) {
      const int64_t k = NormalizeAxis(a, rank);
      if (k < 0 || k >= static_cast<int64_t>(rank)) return ctx.Error("axis out of range");
      reduced_[static_cast<size_t>(k)] = true;
    }
    out_n_ = ctx.outputs[0].numel();
    return Status::Ok();
  }

  Status Run(const KernelRunContext& ctx) const override {
    const auto* x = static_cast<const float*>(ctx.inputs[0]);
    auto* y = static_cast<float*>(ctx.outputs[0]);
    const bool is_max = op_ == "ReduceMax", is_min = op_ == "ReduceMin";
    const double init = is_max                ? -std::numeric_limits<double>::infinity()
                        : is_min              ? std::numeric_limits<double>::infinity()
                        : op_ == "ReduceProd" ? 1.0
                                              : 0.0;
    std::vector<double> acc(static_cast<size_t>(out_n_), init);
    std::vector<int64_t> count(static_cast<size_t>(out_n_), 0);
    // The output index of each input element: reduced coordinates dropped.
    Shape kept = in_shape_;
    for (size_t d = 0; d < kept.size(); ++d)
      if (reduced_[d]) kept[d] = 1;
    const auto kept_st = Strides(kept);
    const int64_t n = NumElements(in_shape_);
    std::vector<int64_t> coord(in_shape_.size(), 0);
    for (int64_t e = 0; e < n; ++e) {
      int64_t o = 0;
      for (size_t d = 0; d < coord.size(); ++d)
        if (!reduced_[d]) o += coord[d] * kept_st[d];
      const double v = x[e];
      double& a = acc[static_cast<size_t>(o)];
      if (is_max)
        a = std::max(a, v);
      else if (is_min)
        a = std::min(a, v);
      else if (op_ == "ReduceProd")
        a *= v;
      else if (op_ == "ReduceSumSquare" || op_ == "ReduceL2")
        a += v * v;
      else if (op_ == "ReduceL1")
        a += std::fabs(v);
      else
        a += v;
      ++count[static_cast<size_t>(o)];
      for (size_t d = coord.size(); d-- > 0;) {
        if (++coord[d] < in_shape_[d]) break;
        coord[d] = 0;
      }
    }
    for (int64_t o = 0; o < out_n_; ++o) {
      double v = acc[static_cast<size_t>(o)];
      if (op_ == "ReduceMean") v /= static_cast<double>(std::max<int64_t>(1, count[o]));
      if (op_ == "ReduceL2") v = std::sqrt(v);
      y[o] = static_cast<float>(v);
    }
    return Status::Ok();
  }

 private:
  std::string op_;
  Shape in_shape_;
  std::vector<bool> reduced_;
  int64_t out_n_ = 0;
};

bool ReduceSupported(const Node& node, const std::vector<TensorType>& in) {
  return FloatInputs(in, {0}) && SingleOutput(node);
}

}  // namespace

void RegisterRefReduce(RefTable& t) {
  for (const char* op : {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd",
                         "ReduceSumSquare", "ReduceL1", "ReduceL2"})
    t.Add<ReduceKernel>(op, ReduceSupported, "float32");
}

}  // namespace oc::ref
