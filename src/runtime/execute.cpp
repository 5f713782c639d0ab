// Runs a program: pooled execution memory, the steps in order with the copies between
// memory spaces, steps prepared at execution, and the outputs no step writes.
#include <chrono>
#include <cstring>
#include <vector>

#include "runtime/model_parts.h"

namespace oc {

std::unique_ptr<Model::Scratch> Model::AcquireScratch() const {
  {
    std::lock_guard<std::mutex> lock(pool_mutex_);
    if (!pool_.empty()) {
      auto s = std::move(pool_.back());
      pool_.pop_back();
      return s;
    }
  }
  auto s = std::make_unique<Scratch>();
  if (!user_work_) s->arena.Resize(std::max<size_t>(work_size(), 64));
  size_t states = 0;
  for (const auto& p : programs_) states = std::max(states, p.first_state + p.steps.size());
  s->kernel_states.resize(states);
  // Each device space's arena, workspace and staging area; a failed allocation leaves a
  // null base, which Execute reports.
  s->devices.resize(spaces_.size());
  s->bases.assign(spaces_.size(), nullptr);
  for (size_t i = 1; i < spaces_.size(); ++i) {
    s->devices[i] = DeviceBuffer(spaces_[i].owner, std::max<size_t>(spaces_[i].bytes, 64));
    s->bases[i] = static_cast<uint8_t*>(s->devices[i].data());
  }
  return s;
}

void Model::ReleaseScratch(std::unique_ptr<Scratch> scratch) const {
  std::lock_guard<std::mutex> lock(pool_mutex_);
  pool_.push_back(std::move(scratch));
}

// Places the outputs of a step prepared at run time and runs it. The kernel comes from the
// step's cache when it depends only on input shapes (prepared once per shape); otherwise
// it is prepared for exactly this call from the input values.
Status Model::RunDynamicStep(const Program& p, const Step& step, ExecState& st) const {
  const Node& node = *step.node;
  const size_t n_in = step.inputs.size();
  std::vector<const void*> in_ptrs(n_in, nullptr);
  std::vector<Shape> shapes(n_in);
  for (size_t i = 0; i < n_in; ++i) {
    const Slot& s = step.inputs[i];
    if (s.kind == SlotKind::kNone) continue;
    in_ptrs[i] = st.Resolve(s);
    shapes[i] = st.ShapeOf(s);
  }
  std::shared_ptr<const Kernel> kernel;
  std::vector<ValueInfo> outs;
  bool needs_values = false;
  {
    std::lock_guard<std::mutex> lock(step.cache->mutex);
    auto it = step.cache->entries.find(shapes);
    if (it != step.cache->entries.end()) {
      kernel = it->second.kernel;
      outs = it->second.outputs;
      needs_values = !kernel;
    }
  }
  if (!kernel && !needs_values) {
    KernelPrepareContext ctx;
    ctx.node = &node;
    ctx.opset = p.graph->opset_version;
    ctx.num_threads = num_threads_;
    ctx.soc_version = soc_version_;
    ctx.subgraphs = subgraph_runner_.get();
    for (size_t i = 0; i < n_in; ++i) {
      const Slot& s = step.inputs[i];
      ctx.inputs.push_back(s.kind == SlotKind::kNone ? TensorType{}
                                                     : TensorType{s.dtype, shapes[i]});
      ctx.constants.push_back(s.constant);
      ctx.input_layouts.push_back(s.layout);
    }
    for (const auto& s : step.outputs) ctx.output_layouts.push_back(s.layout);
    auto prepared = PrepareForShapes(*step.backend, std::move(ctx), &outs);
    if (!prepared.ok() && prepared.status().code() != StatusCode::kNeedsInputValue)
      return prepared.status();
    if (prepared.ok()) kernel = std::move(prepared).value();
    needs_values = !kernel;
    std::lock_guard<std::mutex> lock(step.cache->mutex);
    if (step.cache->entries.size() < ShapeCache::kMaxEntries)
      step.cache->entries.emplace(shapes, ShapeCache::Entry{kernel, outs});
  }
  if (needs_values) {
    std::vector<Tensor> values(n_in);
    std::vector<const Tensor*> inputs(n_in, nullptr);
    for (size_t i = 0; i < n_in; ++i) {
      const Slot& s = step.inputs[i];
      if (s.kind == SlotKind::kNone) continue;
      values[i] = s.constant ? *s.constant : Tensor(s.dtype, shapes[i], in_ptrs[i], nullptr);
      inputs[i] = &values[i];
    }
    OC_ASSIGN_OR_RETURN(
        kernel, PrepareForValues(*step.backend, node, p.graph->opset_version, num_threads_, inputs,
                                 &outs, subgraph_runner_.get()));
  }
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
        DynamicValue& dv = (*st.dynamic_values)[s.index];
        if (!dv.buffer.Resize(std::max<size_t>(bytes, 1)))
          return Status(StatusCode::kOutOfMemory,
                        "cannot allocate " + std::to_string(bytes) + " bytes");
        dv.dtype = vi.dtype;
        dv.shape = vi.shape;
        break;
      }
      case SlotKind::kOutput:
        if (st.io->output_sizes[s.index] < bytes)
          return InvalidArgument(
              "output " + std::to_string(s.index) + " [" + p.outputs[s.index].name + "] needs " +
              std::to_string(bytes) + " bytes for shape " + ShapeToString(vi.shape) +
              ", its buffer has " + std::to_string(st.io->output_sizes[s.index]));
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
  // As for a prepared step (Step::writes_nothing): outputs of no element leave nothing to
  // compute, and a kernel would still walk 2^31 empty rows of a [2^31, 1, 0] input.
  bool writes_nothing = !outs.empty();
  for (size_t k = 0; k < step.outputs.size(); ++k)
    if (step.outputs[k].kind != SlotKind::kNone)
      writes_nothing = writes_nothing && NumElements(outs[k].shape) == 0;
  if (writes_nothing) return Status::Ok();
  if (!st.workspace->Resize(kernel->WorkspaceSize()))
    return Status(StatusCode::kOutOfMemory, "cannot allocate the kernel workspace");
  KernelRunContext rc;
  rc.inputs = in_ptrs.data();
  rc.outputs = out_ptrs.data();
  rc.workspace = st.workspace->data();
  rc.num_threads = num_threads_;
  return kernel->Run(rc);
}

// The graph to run: the only one, or the gear named by the ascend_mbatch_shape_data input.
Result<const Model::Program*> Model::SelectProgram(const ExecuteIo& io) const {
  if (gear_mode_.empty()) return &programs_.front();
  const size_t count = programs_.front().gear.size();
  const size_t gi = static_cast<size_t>(gear_input_);
  if (!io.inputs[gi] || io.input_sizes[gi] < count * sizeof(int64_t))
    return InvalidArgument("input " + std::to_string(gi) + " [" + std::string(kDynamicGearInput) +
                           "] needs " + std::to_string(count * sizeof(int64_t)) +
                           " bytes: set it with aclmdlSetDynamicBatchSize, aclmdlSetDynamicHWSize "
                           "or aclmdlSetInputDynamicDims");
  std::vector<int64_t> want(count);
  OC_RETURN_IF_ERROR(CopyAcross(io_space_, io.inputs[gi], 0, want.data(), count * sizeof(int64_t)));
  for (const auto& p : programs_)
    if (p.gear == want) return &p;
  std::string list;
  for (const auto& p : programs_) list += (list.empty() ? "" : ", ") + ShapeToString(p.gear);
  return ShapeMismatch("the " + gear_mode_ + " gear " + ShapeToString(want) +
                           " is not compiled into the model; its gears are " + list,
                       "145013");
}

Status Model::Execute(const std::vector<const void*>& inputs,
                      const std::vector<size_t>& input_sizes, const std::vector<void*>& outputs,
                      const std::vector<size_t>& output_sizes) const {
  // Per thread, so that its lists keep their capacity from one execution to the next.
  thread_local ExecuteIo io;
  io.inputs.assign(inputs.begin(), inputs.end());
  io.input_sizes.assign(input_sizes.begin(), input_sizes.end());
  io.input_shapes.clear();
  io.outputs.assign(outputs.begin(), outputs.end());
  io.output_sizes.assign(output_sizes.begin(), output_sizes.end());
  return Execute(io);
}

Status Model::Execute(ExecuteIo& io) const {
  if (io.inputs.size() != inputs_.size() || io.input_sizes.size() != io.inputs.size())
    return InvalidArgument("the model has " + std::to_string(inputs_.size()) +
                           " inputs, the input dataset has " + std::to_string(io.inputs.size()) +
                           " buffers");
  if (io.outputs.size() != outputs_.size() || io.output_sizes.size() != io.outputs.size())
    return InvalidArgument("the model has " + std::to_string(outputs_.size()) +
                           " outputs, the output dataset has " + std::to_string(io.outputs.size()) +
                           " buffers");
  OC_ASSIGN_OR_RETURN(const Program* prog, SelectProgram(io));
  const Program& p = *prog;
  // The execution's memory comes first: its lists keep their capacity across executions.
  std::unique_ptr<Scratch> scratch = AcquireScratch();
  struct ScratchReturn {
    const Model* model;
    std::unique_ptr<Scratch>& scratch;
    ~ScratchReturn() { model->ReleaseScratch(std::move(scratch)); }
  } scratch_return{this, scratch};
  ExecState st{&io,
               &p,
               scratch->bases.data(),
               nullptr,
               nullptr,
               scratch->input_shapes,
               scratch->output_shapes};
  st.input_shapes.resize(p.inputs.size());
  // Actual input shapes: as compiled, or given by the application for dynamic dims.
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    const Shape* shape = &p.inputs[i].shape;
    const bool given = i < io.input_shapes.size() && !io.input_shapes[i].empty();
    if (!IsStatic(*shape)) {
      if (!given)
        return InvalidArgument("input " + std::to_string(i) + " [" + p.inputs[i].name +
                               "] has dynamic dims " + ShapeToString(*shape) +
                               ": give its shape with aclmdlSetDatasetTensorDesc");
      const Shape& actual = io.input_shapes[i];
      bool fits = actual.size() == shape->size();
      for (size_t d = 0; fits && d < shape->size(); ++d) {
        if (actual[d] < 0)
          fits = false;
        else if ((*shape)[d] >= 0)
          fits = actual[d] == (*shape)[d];
        else if (i < input_ranges_.size() && d < input_ranges_[i].size()) {
          auto [lo, hi] = input_ranges_[i][d];
          fits = actual[d] >= lo && (hi < 0 || actual[d] <= hi);
        }
      }
      if (!fits) {
        std::string range;
        if (i < input_ranges_.size())
          for (size_t d = 0; d < input_ranges_[i].size(); ++d) {
            auto [lo, hi] = input_ranges_[i][d];
            range += (d ? "," : "") + (lo == hi ? std::to_string(lo)
                                                : std::to_string(lo) + "~" + std::to_string(hi));
          }
        return InvalidArgument("input " + std::to_string(i) + " [" + p.inputs[i].name +
                               "]: shape " + ShapeToString(actual) + " does not fit the model's " +
                               ShapeToString(*shape) +
                               (range.empty() ? "" : " (range " + range + ")"));
      }
      shape = &actual;
    } else if (given && io.input_shapes[i] != *shape && gear_mode_.empty()) {
      return InvalidArgument("input " + std::to_string(i) + " [" + p.inputs[i].name +
                             "]: the tensor description says " + ShapeToString(io.input_shapes[i]) +
                             ", the model's shape is " + ShapeToString(*shape));
    }
    auto checked = TensorBytes(*shape, DataTypeSize(p.inputs[i].dtype));
    if (!checked.ok())
      return InvalidArgument("input " + std::to_string(i) + " [" + p.inputs[i].name +
                             "]: " + checked.status().message());
    const size_t need = checked.value();
    if (!io.inputs[i] && need) return InvalidArgument("input " + std::to_string(i) + " is null");
    if (io.input_sizes[i] < need)
      return InvalidArgument("input " + std::to_string(i) + " [" + p.inputs[i].name + "] has " +
                             std::to_string(io.input_sizes[i]) + " bytes, the model needs " +
                             std::to_string(need) + " for shape " + ShapeToString(*shape));
    st.input_shapes[i] = *shape;
  }
  for (size_t i = 0; i < io.outputs.size(); ++i) {
    if (!io.outputs[i] && p.outputs[i].bytes)
      return InvalidArgument("output " + std::to_string(i) + " is null");
    if (io.output_sizes[i] < p.outputs[i].bytes)
      return InvalidArgument("output " + std::to_string(i) + " [" + p.outputs[i].name + "] has " +
                             std::to_string(io.output_sizes[i]) + " bytes, the model needs " +
                             std::to_string(p.outputs[i].bytes));
  }
  std::unique_lock<std::mutex> user_lock(user_work_mutex_, std::defer_lock);
  if (scratch->dynamic.size() < p.num_dynamic) scratch->dynamic.resize(p.num_dynamic);
  st.dynamic_values = &scratch->dynamic;
  st.workspace = &scratch->workspace;
  st.output_shapes.resize(p.outputs.size());
  for (size_t i = 0; i < p.outputs.size(); ++i) st.output_shapes[i] = p.outputs[i].shape;
  if (user_work_) {
    user_lock.lock();
    scratch->bases[0] = static_cast<uint8_t*>(user_work_);
  } else {
    if (!scratch->arena.data() && work_size() > 0)
      return Status(StatusCode::kOutOfMemory,
                    "cannot allocate " + std::to_string(work_size()) + " bytes of work memory");
    scratch->bases[0] = scratch->arena.data();
  }
  for (size_t i = 1; i < spaces_.size(); ++i)
    if (!scratch->bases[i])
      return Status(StatusCode::kOutOfMemory, "cannot allocate " +
                                                  std::to_string(spaces_[i].bytes) + " bytes of " +
                                                  spaces_[i].owner->name() + " memory");
  // Each backend sets up its threads for the executing thread.
  for (const Backend* b : p.backends) b->BeginExecution(num_threads_);
  std::vector<const void*>& in_ptrs = scratch->in_ptrs;
  std::vector<void*>& out_ptrs = scratch->out_ptrs;
  Status status;
  const bool timed = profile_ || observer_;
  const uint64_t execution = executions_.fetch_add(1);
  for (const auto& step : p.steps) {
    const auto t0 =
        timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    // Values made in another memory space are copied in first.
    status = RunTransfers(step.before, st);
    if (status.ok() && step.kernel && step.writes_nothing) {
      // Nothing to compute (see Step::writes_nothing).
    } else if (status.ok() && step.kernel) {
      in_ptrs.clear();
      out_ptrs.clear();
      for (const auto& s : step.inputs) in_ptrs.push_back(st.Resolve(s));
      for (const auto& s : step.outputs) out_ptrs.push_back(st.Resolve(s));
      KernelRunContext ctx;
      ctx.inputs = in_ptrs.data();
      ctx.outputs = out_ptrs.data();
      ctx.workspace = st.bases[step.space] + p.arena_size;
      ctx.num_threads = num_threads_;
      ctx.state = &scratch->kernel_states[p.first_state + (&step - p.steps.data())];
      status = step.kernel->Run(ctx);
    } else if (status.ok()) {
      status = RunDynamicStep(p, step, st);
    }
    if (status.ok()) status = RunTransfers(step.after, st);
    if (observer_ && status.ok()) {
      const auto t1 = std::chrono::steady_clock::now();
      StepRecord r;
      r.node_name = &step.node_name;
      r.op_type = &step.op_type;
      r.attrs = &step.node->attrs;
      r.task_id = static_cast<uint32_t>(&step - p.steps.data());
      r.execution = execution;
      r.start_us = std::chrono::duration<double, std::micro>(t0.time_since_epoch()).count();
      r.duration_us = std::chrono::duration<double, std::micro>(t1 - t0).count();
      for (size_t k = 0; k < step.inputs.size(); ++k) {
        const Slot& s = step.inputs[k];
        if (s.kind != SlotKind::kNone)
          r.inputs.push_back({s.dtype, st.ShapeOf(s), st.Resolve(s), step.backend, s.layout,
                              &step.node->inputs[k]});
      }
      for (size_t k = 0; k < step.outputs.size(); ++k) {
        const Slot& s = step.outputs[k];
        if (s.kind != SlotKind::kNone)
          r.outputs.push_back(
              {s.kind == SlotKind::kDynamic ? (*st.dynamic_values)[s.index].dtype : s.dtype,
               st.ShapeOf(s), st.Resolve(s), step.backend, s.layout, &step.node->outputs[k]});
      }
      observer_->OnStep(r);
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
    for (const auto& c : p.copies) {
      const Shape& shape = st.ShapeOf(c.from);
      const size_t bytes = IsStatic(shape) ? static_cast<size_t>(NumElements(shape)) *
                                                 DataTypeSize(p.outputs[c.output].dtype)
                                           : c.bytes;
      if (bytes > io.output_sizes[c.output]) {
        status = InvalidArgument("output " + std::to_string(c.output) + " buffer is too small");
        break;
      }
      status = CopyAcross(c.from.space, st.Resolve(c.from), io_space_, io.outputs[c.output], bytes);
      if (!status.ok()) break;
      st.output_shapes[c.output] = shape;
    }
  }
  if (status.ok()) {
    io.output_shapes.resize(st.output_shapes.size());
    for (size_t i = 0; i < st.output_shapes.size(); ++i) io.output_shapes[i] = st.output_shapes[i];
    std::lock_guard<std::mutex> lock(last_shapes_mutex_);
    last_output_shapes_ = st.output_shapes;
  }
  return status;
}

// Copies between memory spaces go through the backend that owns the device side; between
// two devices they pass through the host.
Status Model::CopyAcross(uint8_t from_space, const void* from, uint8_t to_space, void* to,
                         size_t bytes) const {
  using Kind = Backend::CopyKind;
  if (bytes == 0) return Status::Ok();
  if (from_space == 0 && to_space == 0) {
    std::memcpy(to, from, bytes);
    return Status::Ok();
  }
  if (from_space == to_space)
    return spaces_[to_space].owner->Copy(to, from, bytes, Kind::kDeviceToDevice);
  if (from_space == 0) return spaces_[to_space].owner->Copy(to, from, bytes, Kind::kHostToDevice);
  if (to_space == 0) return spaces_[from_space].owner->Copy(to, from, bytes, Kind::kDeviceToHost);
  AlignedBuffer host;
  if (!host.Resize(bytes))
    return Status(StatusCode::kOutOfMemory, "cannot allocate " + std::to_string(bytes) + " bytes");
  OC_RETURN_IF_ERROR(
      spaces_[from_space].owner->Copy(host.data(), from, bytes, Kind::kDeviceToHost));
  return spaces_[to_space].owner->Copy(to, host.data(), bytes, Kind::kHostToDevice);
}

Status Model::RunTransfers(const std::vector<Transfer>& transfers, ExecState& st) const {
  for (const Transfer& t : transfers)
    OC_RETURN_IF_ERROR(
        CopyAcross(t.from.space, st.Resolve(t.from), t.to.space, st.Resolve(t.to), t.bytes));
  return Status::Ok();
}

}  // namespace oc
