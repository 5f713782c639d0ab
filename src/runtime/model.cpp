#include "runtime/model.h"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "base/threads.h"
#include "kernels/cpu/layout.h"
#include "om/om_format.h"
#include "ops/op_schema.h"

namespace oc {
namespace {

std::string FormatFor(const Shape& s, const std::map<std::string, std::string>& attrs) {
  auto it = attrs.find("input_format");
  const std::string f = it == attrs.end() ? "NCHW" : it->second;
  if (s.size() == 4 && (f == "NCHW" || f == "NHWC")) return f;
  if (s.size() == 5 && (f == "NCDHW" || f == "NDHWC")) return f;
  return "ND";
}

size_t AttrSize(const std::map<std::string, std::string>& attrs, const std::string& key) {
  auto it = attrs.find(key);
  if (it == attrs.end()) return 0;
  try {
    return static_cast<size_t>(std::stoull(it->second));
  } catch (...) {
    return 0;
  }
}

}  // namespace

Result<std::shared_ptr<Model>> Model::Load(std::shared_ptr<MappedFile> file,
                                           const LoadOptions& options) {
  std::shared_ptr<Model> m(new Model());
  OC_ASSIGN_OR_RETURN(m->om_, LoadOm(std::move(file)));
  OC_RETURN_IF_ERROR(m->Build(options));
  return m;
}

Result<std::shared_ptr<Model>> Model::LoadFile(const std::string& path,
                                               const LoadOptions& options) {
  OC_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  auto m = Load(file, options);
  if (!m.ok()) return m.status().WithContext("model [" + path + "]");
  return m;
}

Status Model::QuerySize(const std::string& path, size_t* work, size_t* weight) {
  OC_ASSIGN_OR_RETURN(OmModel om, LoadOmFile(path));
  *work = om.plan.arena_size + AttrSize(om.attrs, "_oc_workspace_size");
  *weight = om.weight_bytes;
  return Status::Ok();
}

Status Model::Build(const LoadOptions& options) {
  Graph& g = om_.graph;
  name_ = om_.name;
  arena_size_ = om_.plan.arena_size;
  weight_size_ = om_.weight_bytes;
  num_threads_ = DefaultNumThreads();
  // oneDNN fixes a primitive's thread count when it is created: set it before Prepare.
  omp_set_num_threads(num_threads_);
  const char* prof = std::getenv("OCANN_PROFILE");
  profile_ = prof && prof[0] == '1';
  if (options.weight_ptr) {
    // The application owns weight memory: copy the constants there and use them.
    if (options.weight_size < weight_size_)
      return InvalidArgument("weight memory of " + std::to_string(options.weight_size) +
                             " bytes is smaller than the model's " + std::to_string(weight_size_));
    size_t off = 0;
    for (auto& [name, t] : g.initializers) {
      if (off + t.nbytes() > options.weight_size) return InvalidArgument("weight memory too small");
      std::memcpy(static_cast<uint8_t*>(options.weight_ptr) + off, t.data(), t.nbytes());
      t = Tensor(t.dtype(), t.shape(), static_cast<uint8_t*>(options.weight_ptr) + off, nullptr);
      off += (t.nbytes() + 63) / 64 * 64;
    }
  }
  std::unordered_map<std::string, size_t> input_index, output_index;
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    const ValueInfo& vi = g.values[g.inputs[i]];
    if (!IsStatic(vi.shape)) return Unsupported("input [" + g.inputs[i] + "] has a dynamic shape");
    inputs_.push_back({g.inputs[i], vi.dtype, vi.shape, FormatFor(vi.shape, om_.attrs),
                       static_cast<size_t>(NumElements(vi.shape)) * DataTypeSize(vi.dtype)});
    input_index[g.inputs[i]] = i;
  }
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    const ValueInfo* vi = g.FindValue(g.outputs[i]);
    if (!vi) return ParseError("output [" + g.outputs[i] + "] has no description");
    // Outputs sized at run time report -1 dims and 0 bytes, as CANN's dynamic models do.
    const Shape shape = vi->has_shape ? vi->shape : Shape{-1};
    const int64_t n = NumElements(shape);
    outputs_.push_back({g.outputs[i], vi->dtype, shape, "ND",
                        n < 0 ? 0 : static_cast<size_t>(n) * DataTypeSize(vi->dtype)});
  }
  std::unordered_map<std::string, size_t> dynamic_ids;
  auto slot_for = [&](const std::string& v) -> Result<Slot> {
    Slot s;
    if (v.empty()) return s;
    const ValueInfo* vi = g.FindValue(v);
    if (vi) {
      s.dtype = vi->dtype;
      s.shape = vi->has_shape ? vi->shape : Shape{-1};
    }
    if (auto it = input_index.find(v); it != input_index.end()) {
      s.kind = SlotKind::kInput;
      s.index = it->second;
    } else if (auto it = output_index.find(v); it != output_index.end()) {
      s.kind = SlotKind::kOutput;
      s.index = it->second;
    } else if (const Tensor* t = g.FindInitializer(v)) {
      s.kind = SlotKind::kConstant;
      s.ptr = t->data();
      s.constant = t;
    } else if (auto it = om_.plan.offsets.find(v); it != om_.plan.offsets.end()) {
      if (it->second >= arena_size_ && arena_size_ > 0)
        return ParseError("value [" + v + "] lies outside the arena");
      s.kind = SlotKind::kArena;
      s.index = it->second;
    } else if (!vi || !vi->has_shape || !IsStatic(vi->shape)) {
      // Sized at run time: memory comes with each execution.
      auto [it, added] = dynamic_ids.emplace(v, dynamic_ids.size());
      s.kind = SlotKind::kDynamic;
      s.index = it->second;
    } else {
      return ParseError("value [" + v + "] has no memory assigned");
    }
    return s;
  };
  // Outputs written by a node go straight to the caller's buffer (first writer wins).
  for (const auto& n : g.nodes)
    for (const auto& o : n.outputs)
      for (size_t i = 0; i < g.outputs.size(); ++i)
        if (o == g.outputs[i] && !output_index.count(o)) output_index[o] = i;
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    const std::string& o = g.outputs[i];
    auto it = output_index.find(o);
    if (it != output_index.end() && it->second == i) continue;
    OC_ASSIGN_OR_RETURN(Slot from, slot_for(o));
    copies_.push_back({from, i, outputs_[i].bytes});
  }
  const auto blocked = ChooseBlockedValues(g);
  for (const auto& n : g.nodes) {
    Step step;
    step.node = &n;
    step.node_name = n.name;
    step.op_type = n.op_type;
    step.kernel_domain = n.domain;
    if (!KernelRegistry::Global().Supports(n.domain, n.op_type))
      return Unsupported("No supported Ops kernel and engine are found for [" + n.name +
                             "], optype [" + n.op_type + "].",
                         "EZ3003");
    KernelPrepareContext ctx = MakePrepareContext(g, n, blocked, num_threads_);
    for (const auto& in : n.inputs) {
      if (!in.empty() && !g.FindValue(in))
        return ParseError("value [" + in + "] has no description");
      OC_ASSIGN_OR_RETURN(Slot s, slot_for(in));
      step.inputs.push_back(s);
    }
    for (const auto& out : n.outputs) {
      OC_ASSIGN_OR_RETURN(Slot s, slot_for(out));
      step.outputs.push_back(s);
    }
    auto kernel = CreateKernel(ctx);
    if (kernel.ok()) {
      step.kernel = std::move(kernel).value();
      workspace_size_ = std::max(workspace_size_, step.kernel->WorkspaceSize());
    } else if (kernel.status().code() == StatusCode::kNeedsInputValue) {
      ++dynamic_steps_;  // prepared at each execution with the actual values
    } else {
      return kernel.status();
    }
    steps_.push_back(std::move(step));
  }
  num_dynamic_ = dynamic_ids.size();
  last_output_shapes_.clear();
  for (const auto& o : outputs_) last_output_shapes_.push_back(o.shape);
  if (options.work_ptr) {
    if (options.work_size < work_size())
      return InvalidArgument("work memory of " + std::to_string(options.work_size) +
                             " bytes is smaller than the " + std::to_string(work_size()) +
                             " bytes the model needs");
    user_work_ = options.work_ptr;
  }
  return Status::Ok();
}

Model::~Model() {
  if (!profile_ || op_times_.empty()) return;
  double total = 0;
  for (const auto& [op, e] : op_times_) total += e.first;
  std::fprintf(stderr, "[PROFILE] model %s: time per op type (all executions)\n", name_.c_str());
  std::vector<std::pair<double, std::string>> rows;
  for (const auto& [op, e] : op_times_) rows.emplace_back(e.first, op);
  std::sort(rows.rbegin(), rows.rend());
  for (const auto& [us, op] : rows)
    std::fprintf(stderr, "[PROFILE] %-28s %10.1f us %5.1f%% calls %lld\n", op.c_str(), us,
                 100.0 * us / total, static_cast<long long>(op_times_[op].second));
}

AlignedBuffer Model::AcquireArena() const {
  {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    if (!pool_.empty()) {
      AlignedBuffer b = std::move(pool_.back());
      pool_.pop_back();
      return b;
    }
  }
  AlignedBuffer b;
  b.Resize(std::max<size_t>(work_size(), 64));
  return b;
}

void Model::ReleaseArena(AlignedBuffer buf) const {
  std::lock_guard<std::mutex> lock(pool_mutex_);
  pool_.push_back(std::move(buf));
}

struct Model::DynamicValue {
  AlignedBuffer buffer;
  DataType dtype = DataType::kUndefined;
  Shape shape;
};

struct Model::ExecState {
  const std::vector<const void*>* inputs;
  const std::vector<void*>* outputs;
  const std::vector<size_t>* output_sizes;
  uint8_t* base = nullptr;
  std::vector<DynamicValue> dynamic;
  std::vector<Shape> output_shapes;

  void* Resolve(const Slot& s) {
    switch (s.kind) {
      case SlotKind::kInput:
        return const_cast<void*>((*inputs)[s.index]);
      case SlotKind::kOutput:
        return (*outputs)[s.index];
      case SlotKind::kConstant:
        return const_cast<void*>(s.ptr);
      case SlotKind::kArena:
        return base + s.index;
      case SlotKind::kDynamic:
        return dynamic[s.index].buffer.data();
      default:
        return nullptr;
    }
  }
  // The shape a slot holds in this execution.
  const Shape& ShapeOf(const Slot& s) {
    if (s.kind == SlotKind::kDynamic) return dynamic[s.index].shape;
    if (s.kind == SlotKind::kOutput) return output_shapes[s.index];
    return s.shape;
  }
};

std::vector<Shape> Model::LastOutputShapes() const {
  std::lock_guard<std::mutex> lock(last_shapes_mutex_);
  return last_output_shapes_;
}

// Infers output shapes from the actual inputs (their values included), places the
// outputs and prepares a kernel for exactly this call.
Status Model::RunDynamicStep(const Step& step, ExecState& st) const {
  const Node& node = *step.node;
  const size_t n_in = step.inputs.size();
  std::vector<Tensor> values(n_in);
  std::vector<const Tensor*> inputs(n_in, nullptr);
  std::vector<const void*> in_ptrs(n_in, nullptr);
  for (size_t i = 0; i < n_in; ++i) {
    const Slot& s = step.inputs[i];
    if (s.kind == SlotKind::kNone) continue;
    in_ptrs[i] = st.Resolve(s);
    values[i] = s.constant ? *s.constant : Tensor(s.dtype, st.ShapeOf(s), in_ptrs[i], nullptr);
    inputs[i] = &values[i];
  }
  std::vector<ValueInfo> outs;
  OC_ASSIGN_OR_RETURN(auto kernel,
                      PrepareForValues(node, om_.graph.opset_version, num_threads_, inputs, &outs));
  std::vector<void*> out_ptrs;
  for (size_t k = 0; k < step.outputs.size(); ++k) {
    const Slot& s = step.outputs[k];
    const ValueInfo& vi = outs[k];
    if (s.kind == SlotKind::kNone) {
      out_ptrs.push_back(nullptr);
      continue;
    }
    const size_t bytes = static_cast<size_t>(NumElements(vi.shape)) * DataTypeSize(vi.dtype);
    switch (s.kind) {
      case SlotKind::kDynamic: {
        DynamicValue& dv = st.dynamic[s.index];
        if (!dv.buffer.Resize(std::max<size_t>(bytes, 1)))
          return Status(StatusCode::kOutOfMemory,
                        "cannot allocate " + std::to_string(bytes) + " bytes");
        dv.dtype = vi.dtype;
        dv.shape = vi.shape;
        break;
      }
      case SlotKind::kOutput:
        if ((*st.output_sizes)[s.index] < bytes)
          return InvalidArgument("output " + std::to_string(s.index) + " [" +
                                 outputs_[s.index].name + "] needs " + std::to_string(bytes) +
                                 " bytes for shape " + ShapeToString(vi.shape) +
                                 ", its buffer has " + std::to_string((*st.output_sizes)[s.index]));
        st.output_shapes[s.index] = vi.shape;
        break;
      case SlotKind::kArena:
        if (vi.shape != s.shape)
          return Internal("run-time shape " + ShapeToString(vi.shape) +
                          " differs from the planned " + ShapeToString(s.shape));
        break;
      default:
        return Internal("unexpected output slot");
    }
    out_ptrs.push_back(st.Resolve(s));
  }
  AlignedBuffer workspace;
  if (!workspace.Resize(kernel->WorkspaceSize()))
    return Status(StatusCode::kOutOfMemory, "cannot allocate the kernel workspace");
  KernelRunContext rc;
  rc.inputs = in_ptrs.data();
  rc.outputs = out_ptrs.data();
  rc.workspace = workspace.data();
  rc.num_threads = num_threads_;
  return kernel->Run(rc);
}

Status Model::Execute(const std::vector<const void*>& inputs,
                      const std::vector<size_t>& input_sizes, const std::vector<void*>& outputs,
                      const std::vector<size_t>& output_sizes) const {
  if (inputs.size() != inputs_.size())
    return InvalidArgument("the model has " + std::to_string(inputs_.size()) +
                           " inputs, the input dataset has " + std::to_string(inputs.size()) +
                           " buffers");
  if (outputs.size() != outputs_.size())
    return InvalidArgument("the model has " + std::to_string(outputs_.size()) +
                           " outputs, the output dataset has " + std::to_string(outputs.size()) +
                           " buffers");
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i] && inputs_[i].bytes)
      return InvalidArgument("input " + std::to_string(i) + " is null");
    if (input_sizes[i] < inputs_[i].bytes)
      return InvalidArgument("input " + std::to_string(i) + " [" + inputs_[i].name + "] has " +
                             std::to_string(input_sizes[i]) + " bytes, the model needs " +
                             std::to_string(inputs_[i].bytes));
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i] && outputs_[i].bytes)
      return InvalidArgument("output " + std::to_string(i) + " is null");
    if (output_sizes[i] < outputs_[i].bytes)
      return InvalidArgument("output " + std::to_string(i) + " [" + outputs_[i].name + "] has " +
                             std::to_string(output_sizes[i]) + " bytes, the model needs " +
                             std::to_string(outputs_[i].bytes));
  }
  std::unique_lock<std::mutex> user_lock(user_work_mutex_, std::defer_lock);
  AlignedBuffer arena;
  ExecState st;
  st.inputs = &inputs;
  st.outputs = &outputs;
  st.output_sizes = &output_sizes;
  st.dynamic.resize(num_dynamic_);
  for (const auto& o : outputs_) st.output_shapes.push_back(o.shape);
  if (user_work_) {
    user_lock.lock();
    st.base = static_cast<uint8_t*>(user_work_);
  } else {
    arena = AcquireArena();
    if (!arena.data() && work_size() > 0)
      return Status(StatusCode::kOutOfMemory,
                    "cannot allocate " + std::to_string(work_size()) + " bytes of work memory");
    st.base = arena.data();
  }
  // OpenMP's thread count is per calling thread: set it for this one.
  omp_set_num_threads(num_threads_);
  std::vector<const void*> in_ptrs;
  std::vector<void*> out_ptrs;
  Status status;
  for (const auto& step : steps_) {
    const auto t0 =
        profile_ ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    if (step.kernel) {
      in_ptrs.clear();
      out_ptrs.clear();
      for (const auto& s : step.inputs) in_ptrs.push_back(st.Resolve(s));
      for (const auto& s : step.outputs) out_ptrs.push_back(st.Resolve(s));
      KernelRunContext ctx;
      ctx.inputs = in_ptrs.data();
      ctx.outputs = out_ptrs.data();
      ctx.workspace = st.base + arena_size_;
      ctx.num_threads = num_threads_;
      status = step.kernel->Run(ctx);
    } else {
      status = RunDynamicStep(step, st);
    }
    if (profile_) {
      const double us =
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      std::lock_guard<std::mutex> lock(profile_mutex_);
      auto& e = op_times_[step.op_type +
                          (step.kernel_domain.empty() ? "" : "(" + step.kernel_domain + ")")];
      e.first += us;
      e.second += 1;
    }
    if (!status.ok()) {
      status = status.WithContext("node [" + step.node_name + "] (" + step.op_type + ")");
      break;
    }
  }
  if (status.ok()) {
    for (const auto& c : copies_) {
      const Shape& shape = st.ShapeOf(c.from);
      const size_t bytes = IsStatic(shape) ? static_cast<size_t>(NumElements(shape)) *
                                                 DataTypeSize(outputs_[c.output].dtype)
                                           : c.bytes;
      if (bytes > output_sizes[c.output]) {
        status = InvalidArgument("output " + std::to_string(c.output) + " buffer is too small");
        break;
      }
      if (bytes) std::memcpy(outputs[c.output], st.Resolve(c.from), bytes);
      st.output_shapes[c.output] = shape;
    }
  }
  if (status.ok()) {
    std::lock_guard<std::mutex> lock(last_shapes_mutex_);
    last_output_shapes_ = st.output_shapes;
  }
  if (!user_work_) ReleaseArena(std::move(arena));
  return status;
}

}  // namespace oc
