// If, Loop and Scan. The runtime prepares them per execution with every input known, so
// Prepare runs the subgraphs through the runner the runtime gives it (each body node placed
// on the model's backends, nested control flow included) and Run hands out the results.
#include <algorithm>
#include <climits>
#include <cstring>
#include <map>

#include "backend/kernel.h"
#include "base/aligned_buffer.h"
#include "kernels/cpu/kernel_families.h"

namespace oc {
namespace {

using Env = std::map<std::string, Tensor>;

Tensor Copy(const Tensor& t) {
  Tensor out(t.dtype(), t.shape());
  if (t.nbytes()) std::memcpy(out.mutable_data(), t.data(), t.nbytes());
  return out;
}

// Stacks equally shaped tensors along a new axis 0.
Result<Tensor> Stack(const std::vector<Tensor>& parts, DataType dt, const Shape& empty_item) {
  Shape item = parts.empty() ? empty_item : parts[0].shape();
  Shape shape{static_cast<int64_t>(parts.size())};
  shape.insert(shape.end(), item.begin(), item.end());
  Tensor out(dt, shape);
  size_t off = 0;
  for (const auto& p : parts) {
    if (p.shape() != item) return InvalidArgument("scan outputs change shape between iterations");
    if (p.dtype() != dt)
      return InvalidArgument(std::string("a scan output is ") + DataTypeName(p.dtype()) +
                             ", declared " + DataTypeName(dt));
    std::memcpy(static_cast<uint8_t*>(out.mutable_data()) + off, p.data(), p.nbytes());
    off += p.nbytes();
  }
  return out;
}

const Graph* SubgraphAttr(const AttributeMap& a, const std::string& name) {
  const AttributeValue* v = a.Find(name);
  auto* g = v ? std::get_if<std::shared_ptr<Graph>>(v) : nullptr;
  return g ? g->get() : nullptr;
}

// OCANN_MAX_LOOP_ITERATIONS bounds the body runs of the outermost Loop or Scan running on
// this thread, nested bodies included: three nested Scans of 256 steps are 2^24 body runs
// from a few hundred bytes of model. Bodies run on the thread of the node that runs them.
thread_local int t_control_depth = 0;
thread_local uint64_t t_body_runs = 0;

class BodyBudget {
 public:
  BodyBudget() {
    if (t_control_depth++ == 0) t_body_runs = 0;
  }
  ~BodyBudget() { --t_control_depth; }
  BodyBudget(const BodyBudget&) = delete;
  BodyBudget& operator=(const BodyBudget&) = delete;
  // One more body run, or the error once the bound is passed.
  static Status Take(uint64_t bound) {
    if (t_body_runs >= bound)
      return InvalidArgument("the loop ran " + std::to_string(t_body_runs) +
                             " iterations, the bound (OCANN_MAX_LOOP_ITERATIONS; nested Loop "
                             "and Scan bodies count together)");
    ++t_body_runs;
    return Status::Ok();
  }
};

class ControlFlowKernel : public Kernel {
 public:
  Status Prepare(const KernelPrepareContext& ctx) override {
    const Node& n = *ctx.node;
    const size_t explicit_in = std::min(n.OwnInputCount(), ctx.inputs.size());
    for (size_t i = 0; i < ctx.inputs.size(); ++i)
      if (ctx.has_input(i) && !ctx.constants[i]) return ctx.NeedsValue("its inputs");
    if (!ctx.subgraphs)
      return Unsupported("node [" + n.name + "] (" + n.op_type +
                         "): its subgraphs run only where the runtime gives a runner");
    Env outer;
    for (size_t i = explicit_in; i < ctx.inputs.size(); ++i) outer[n.inputs[i]] = *ctx.constants[i];
    auto in = [&](size_t i) -> const Tensor* {
      return i < explicit_in && ctx.has_input(i) ? ctx.constants[i] : nullptr;
    };
    Status s;
    if (n.op_type == "If")
      s = RunIf(ctx, in(0), outer);
    else if (n.op_type == "Loop")
      s = RunLoop(ctx, explicit_in, in, outer);
    else
      s = RunScan(ctx, explicit_in, in, outer);
    if (!s.ok()) return s.WithContext("node [" + n.name + "] (" + n.op_type + ")");
    if (results_.size() != ctx.outputs.size())
      return ctx.Error("produced " + std::to_string(results_.size()) + " outputs, expected " +
                       std::to_string(ctx.outputs.size()));
    // Run copies each result into a buffer sized by the output's description: a body that
    // computes another type or shape must not be copied past it.
    for (size_t i = 0; i < results_.size(); ++i) {
      const TensorType& want = ctx.outputs[i];
      const bool sized = !(want.shape.size() == 1 && want.shape[0] < 0);  // {-1}: not yet
      if (want.dtype != DataType::kUndefined && want.dtype != results_[i].dtype())
        return ctx.Error("output " + std::to_string(i) + " is " +
                         DataTypeName(results_[i].dtype()) + ", described as " +
                         DataTypeName(want.dtype));
      if (sized && want.dtype != DataType::kUndefined && want.shape != results_[i].shape())
        return ctx.Error("output " + std::to_string(i) + " is " +
                         ShapeToString(results_[i].shape()) + ", described as " +
                         ShapeToString(want.shape));
    }
    return Status::Ok();
  }
  bool OutputShapes(std::vector<Shape>* shapes) const override {
    shapes->clear();
    for (const auto& t : results_) shapes->push_back(t.shape());
    return true;
  }
  Status Run(const KernelRunContext& ctx) const override {
    for (size_t i = 0; i < results_.size(); ++i)
      if (ctx.outputs[i] && results_[i].nbytes())
        std::memcpy(ctx.outputs[i], results_[i].data(), results_[i].nbytes());
    return Status::Ok();
  }

 private:
  Status RunIf(const KernelPrepareContext& ctx, const Tensor* cond, const Env& outer) {
    if (!cond || cond->numel() < 1) return InvalidArgument("If needs a condition");
    const Graph* g = SubgraphAttr(ctx.attrs(), cond->GetAsInt(0) ? "then_branch" : "else_branch");
    if (!g) return InvalidArgument("missing branch");
    OC_ASSIGN_OR_RETURN(results_, ctx.subgraphs->RunGraph(*g, ctx.opset, {}, outer));
    for (auto& t : results_) t = Copy(t);
    return Status::Ok();
  }

  template <typename In>
  Status RunLoop(const KernelPrepareContext& ctx, size_t explicit_in, In in, const Env& outer) {
    const Graph* body = SubgraphAttr(ctx.attrs(), "body");
    if (!body) return InvalidArgument("missing body");
    const Tensor* max_trip = in(0);
    const Tensor* cond_in = in(1);
    int64_t trips = INT64_MAX;
    if (max_trip) {
      OC_ASSIGN_OR_RETURN(trips, max_trip->OneInt("Loop's M"));
    }
    bool cond = true;
    if (cond_in) {
      OC_ASSIGN_OR_RETURN(int64_t c, cond_in->OneInt("Loop's cond"));
      cond = c != 0;
    }
    std::vector<Tensor> carried;
    for (size_t i = 2; i < explicit_in; ++i) {
      if (!in(i))
        return InvalidArgument("Loop's carried input " + std::to_string(i) + " is omitted");
      carried.push_back(Copy(*in(i)));
    }
    if (body->outputs.size() < 1 + carried.size() || ctx.outputs.size() != body->outputs.size() - 1)
      return InvalidArgument("Loop's body gives " + std::to_string(body->outputs.size()) +
                             " outputs for " + std::to_string(carried.size()) +
                             " carried values and the node's " +
                             std::to_string(ctx.outputs.size()) + " outputs");
    const size_t n_scan = body->outputs.size() - 1 - carried.size();
    std::vector<std::vector<Tensor>> scans(n_scan);
    const uint64_t bound = ctx.config->max_loop_iterations;
    BodyBudget budget;
    for (int64_t it = 0; it < trips && cond; ++it) {
      OC_RETURN_IF_ERROR(BodyBudget::Take(bound));
      std::vector<Tensor> args{Tensor::FromInt64s({it}, {}), Tensor(DataType::kBool, {})};
      *args[1].mutable_data_as<uint8_t>() = cond;
      for (const auto& t : carried) args.push_back(t);
      OC_ASSIGN_OR_RETURN(auto outs, ctx.subgraphs->RunGraph(*body, ctx.opset, args, outer));
      if (outs.size() != body->outputs.size() || outs.size() < 1 + carried.size())
        return InvalidArgument("Loop's body gave " + std::to_string(outs.size()) + " outputs");
      OC_ASSIGN_OR_RETURN(int64_t next, outs[0].OneInt("Loop's body condition"));
      cond = next != 0;
      for (size_t i = 0; i < carried.size(); ++i) carried[i] = Copy(outs[1 + i]);
      for (size_t i = 0; i < n_scan; ++i) scans[i].push_back(Copy(outs[1 + carried.size() + i]));
    }
    results_ = carried;
    for (size_t i = 0; i < n_scan; ++i) {
      const DataType dt = ctx.outputs[carried.size() + i].dtype;
      OC_ASSIGN_OR_RETURN(Tensor st, Stack(scans[i], dt, {}));
      results_.push_back(std::move(st));
    }
    return Status::Ok();
  }

  template <typename In>
  Status RunScan(const KernelPrepareContext& ctx, size_t explicit_in, In in, const Env& outer) {
    const Graph* body = SubgraphAttr(ctx.attrs(), "body");
    if (!body) return InvalidArgument("missing body");
    const auto& a = ctx.attrs();
    const bool v8 = ctx.opset < 9;  // opset 8: sequence_lens first, tensors carry a batch dim
    const size_t first = v8 ? 1 : 0;
    const size_t n_scan_in = static_cast<size_t>(a.GetInt("num_scan_inputs", 0));
    const size_t n_state = explicit_in - first - n_scan_in;
    // Only Scan-8's sequence_lens may be omitted: states and scanned inputs are read.
    for (size_t i = first; i < explicit_in; ++i)
      if (!in(i)) return InvalidArgument("Scan's input " + std::to_string(i) + " is omitted");
    if (explicit_in < first + n_scan_in || body->outputs.size() < explicit_in - first - n_scan_in)
      return InvalidArgument("the body's outputs do not match the Scan's states");
    const size_t n_scan_out = body->outputs.size() - n_state;
    std::vector<int64_t> in_axes = a.GetInts("scan_input_axes", std::vector<int64_t>(n_scan_in, 0));
    std::vector<int64_t> in_dirs =
        a.GetInts(v8 ? "directions" : "scan_input_directions", std::vector<int64_t>(n_scan_in, 0));
    std::vector<int64_t> out_axes =
        a.GetInts("scan_output_axes", std::vector<int64_t>(n_scan_out, 0));
    std::vector<int64_t> out_dirs =
        a.GetInts("scan_output_directions", std::vector<int64_t>(n_scan_out, 0));
    if (v8 || !out_axes.empty())
      for (int64_t ax : out_axes)
        if (ax != 0) return Unsupported("Scan outputs along an axis other than 0");
    // Every list matches its inputs or outputs, every scan input has the scanned axis, and
    // all of them the same length along it (the steps index each one).
    if (n_scan_in < 1 || explicit_in < first + n_scan_in || in_axes.size() != n_scan_in ||
        in_dirs.size() != n_scan_in || out_dirs.size() != n_scan_out)
      return InvalidArgument(
          "num_scan_inputs, the scan axes or the directions do not match the inputs and outputs");
    int64_t batches = 1, steps_all = -1;
    if (v8) {
      if (in(first)->shape().empty()) return InvalidArgument("Scan-8 inputs need a batch dim");
      batches = in(first)->shape()[0];
      for (size_t i = first; i < explicit_in; ++i)
        if (in(i)->shape().empty() || in(i)->shape()[0] != batches)
          return InvalidArgument("Scan-8 inputs differ in their batch dim");
    }
    for (size_t i = 0; i < n_scan_in; ++i) {
      const Shape& s = in(first + n_state + i)->shape();
      const int64_t rank = static_cast<int64_t>(s.size()) - (v8 ? 1 : 0);
      const int64_t axis = in_axes[i] < 0 ? in_axes[i] + rank : in_axes[i];
      if (axis < 0 || axis >= rank)
        return InvalidArgument("scan input " + std::to_string(i) + " of rank " +
                               std::to_string(rank) + " has no axis " + std::to_string(in_axes[i]));
      const int64_t len = s[static_cast<size_t>(axis + (v8 ? 1 : 0))];
      if (steps_all >= 0 && len != steps_all)
        return InvalidArgument("the scan inputs differ in length along their scan axes");
      steps_all = len;
    }
    std::vector<std::vector<Tensor>> per_batch_states, per_batch_scans;
    BodyBudget budget;
    for (int64_t b = 0; b < batches; ++b) {
      auto take = [&](const Tensor& t) {  // batch slice (opset 8) or the tensor itself
        if (!v8) return Copy(t);
        Shape s(t.shape().begin() + 1, t.shape().end());
        Tensor out(t.dtype(), s);
        std::memcpy(out.mutable_data(), static_cast<const uint8_t*>(t.data()) + b * out.nbytes(),
                    out.nbytes());
        return out;
      };
      std::vector<Tensor> states, scan_inputs;
      for (size_t i = 0; i < n_state; ++i) states.push_back(take(*in(first + i)));
      for (size_t i = 0; i < n_scan_in; ++i) scan_inputs.push_back(take(*in(first + n_state + i)));
      const int64_t steps =
          n_scan_in
              ? scan_inputs[0].shape()[in_axes[0] < 0 ? in_axes[0] + scan_inputs[0].shape().size()
                                                      : in_axes[0]]
              : 0;
      std::vector<std::vector<Tensor>> outs_seq(n_scan_out);
      for (int64_t t = 0; t < steps; ++t) {
        OC_RETURN_IF_ERROR(BodyBudget::Take(ctx.config->max_loop_iterations));
        std::vector<Tensor> args = states;
        for (size_t i = 0; i < n_scan_in; ++i) {
          const Tensor& x = scan_inputs[i];
          int64_t axis =
              in_axes[i] < 0 ? in_axes[i] + static_cast<int64_t>(x.shape().size()) : in_axes[i];
          const int64_t idx = in_dirs[i] ? steps - 1 - t : t;
          Shape s = x.shape();
          const int64_t dim = s[axis];
          s.erase(s.begin() + axis);
          Tensor slice(x.dtype(), s);
          int64_t outer_n = 1, inner = 1;
          for (int64_t d = 0; d < axis; ++d) outer_n *= x.shape()[d];
          for (size_t d = axis + 1; d < x.shape().size(); ++d) inner *= x.shape()[d];
          const size_t es = DataTypeSize(x.dtype());
          for (int64_t o = 0; o < outer_n; ++o)
            std::memcpy(static_cast<uint8_t*>(slice.mutable_data()) + o * inner * es,
                        static_cast<const uint8_t*>(x.data()) + ((o * dim + idx) * inner) * es,
                        inner * es);
          args.push_back(std::move(slice));
        }
        OC_ASSIGN_OR_RETURN(auto outs, ctx.subgraphs->RunGraph(*body, ctx.opset, args, outer));
        for (size_t i = 0; i < n_state; ++i) states[i] = Copy(outs[i]);
        for (size_t i = 0; i < n_scan_out; ++i) outs_seq[i].push_back(Copy(outs[n_state + i]));
      }
      for (size_t i = 0; i < n_scan_out; ++i)
        if (i < out_dirs.size() && out_dirs[i])
          std::reverse(outs_seq[i].begin(), outs_seq[i].end());
      per_batch_states.push_back(states);
      std::vector<Tensor> stacked;
      for (size_t i = 0; i < n_scan_out; ++i) {
        OC_ASSIGN_OR_RETURN(Tensor st, Stack(outs_seq[i], ctx.outputs[n_state + i].dtype, {}));
        stacked.push_back(std::move(st));
      }
      per_batch_scans.push_back(stacked);
    }
    results_.clear();
    for (size_t i = 0; i < n_state + n_scan_out; ++i) {
      std::vector<Tensor> parts;
      for (int64_t b = 0; b < batches; ++b)
        parts.push_back(i < n_state ? per_batch_states[b][i] : per_batch_scans[b][i - n_state]);
      if (v8) {
        OC_ASSIGN_OR_RETURN(Tensor st, Stack(parts, ctx.outputs[i].dtype, {}));
        results_.push_back(std::move(st));
      } else {
        results_.push_back(parts[0]);
      }
    }
    return Status::Ok();
  }

  std::vector<Tensor> results_;
};

}  // namespace

void RegisterControlFlowKernels(KernelTable& r) {
  r.SetFamilyTypes("all tensor types (no sequences or optionals)");
  r.Add<ControlFlowKernel>("If");
  r.Add<ControlFlowKernel>("Loop");
  r.Add<ControlFlowKernel>("Scan");
}

}  // namespace oc
