#include "runtime/model.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "base/threads.h"
#include "om/om_format.h"
#include "ops/op_schema.h"
#include "runtime/load_check.h"

namespace oc {
namespace {

std::string FormatFor(const std::string& name, const Shape& s,
                      const std::map<std::string, std::string>& attrs) {
  // Inputs that take images through AIPP are NHWC whatever the model's format.
  if (auto a = attrs.find("_oc_aipp_inputs"); a != attrs.end() && s.size() == 4) {
    const std::string list = "," + a->second + ",";
    if (list.find("," + name + ",") != std::string::npos) return "NHWC";
  }
  auto it = attrs.find("input_format");
  const std::string f = it == attrs.end() ? "NCHW" : it->second;
  if (s.size() == 4 && (f == "NCHW" || f == "NHWC")) return f;
  if (s.size() == 5 && (f == "NCDHW" || f == "NDHWC")) return f;
  return "ND";
}

}  // namespace

Status StepTensor::CopyPlain(void* dst) const {
  const TensorType t{dtype, shape};
  if (!backend || layout == kPlainLayout) {
    if (t.numel() > 0) std::memcpy(dst, data, t.nbytes());
    return Status::Ok();
  }
  return backend->ToPlain(layout, t, data, dst);
}

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

Status Model::QuerySize(const std::string& path, size_t* work, size_t* weight,
                        const LoadOptions& options) {
  OC_ASSIGN_OR_RETURN(auto file, MappedFile::Open(path));
  Status s = QuerySize(std::move(file), work, weight, options);
  return s.ok() ? s : s.WithContext("model [" + path + "]");
}

Status Model::QuerySize(std::shared_ptr<MappedFile> file, size_t* work, size_t* weight,
                        const LoadOptions& options) {
  LoadOptions plain = options;  // prepared as a load with our own memory would be
  plain.work_ptr = plain.weight_ptr = nullptr;
  plain.work_size = plain.weight_size = 0;
  OC_ASSIGN_OR_RETURN(auto model, Load(std::move(file), plain));
  *work = model->work_size();
  *weight = model->weight_size();
  return Status::Ok();
}

std::vector<const Graph*> Model::Graphs() const {
  std::vector<const Graph*> out;
  for (const auto& p : programs_) out.push_back(p.graph);
  return out;
}

std::map<std::string, size_t> Model::NodesPerBackend() const {
  std::map<std::string, size_t> counts;
  for (const auto& p : programs_)
    for (const auto& s : p.steps) ++counts[s.backend->name()];
  return counts;
}

Status Model::Build(const LoadOptions& options) {
  name_ = om_.name;
  if (auto it = om_.attrs.find("soc_version"); it != om_.attrs.end()) soc_version_ = it->second;
  weight_size_ = om_.weight_bytes;
  num_threads_ = options.num_threads > 0 ? options.num_threads : DefaultNumThreads();
  if (!options.backends.empty()) {
    backends_ = options.backends;
  } else {
    OC_ASSIGN_OR_RETURN(backends_, BackendRegistry::Global().Order());
  }
  const char* prof = std::getenv("OCANN_PROFILE");
  profile_ = prof && prof[0] == '1';
  user_weights_ = options.weight_ptr;
  if (options.weight_ptr) {
    // The application owns weight memory: the weights partition moves there and the
    // constants that live in it follow (gear graphs share them).
    if (options.weight_size < weight_size_)
      return InvalidArgument("weight memory of " + std::to_string(options.weight_size) +
                             " bytes is smaller than the model's " + std::to_string(weight_size_));
    if (weight_size_) std::memcpy(options.weight_ptr, om_.weights, weight_size_);
    auto* dst = static_cast<uint8_t*>(options.weight_ptr);
    for (auto& og : om_.graphs)
      for (auto& [name, t] : og.graph.initializers) {
        const auto* p = static_cast<const uint8_t*>(t.data());
        if (om_.weights && p >= om_.weights && p < om_.weights + weight_size_)
          t = Tensor(t.dtype(), t.shape(), dst + (p - om_.weights), nullptr);
      }
  }
  // The checksum read every page of the .om; the weights partition leaves the process
  // again before the kernels pack what they need, so that the file and the packed copies
  // are never resident together.
  if (!options.weight_ptr && om_.file && om_.weights)
    om_.file->ReleasePages(om_.weights, om_.weight_bytes);
  programs_.resize(om_.graphs.size());
  for (size_t i = 0; i < om_.graphs.size(); ++i) {
    Status s = BuildProgram(om_.graphs[i], &programs_[i]);
    if (!s.ok()) return om_.graphs.size() > 1 ? s.WithContext("gear " + std::to_string(i)) : s;
    if (i) programs_[i].first_state = programs_[i - 1].first_state + programs_[i - 1].steps.size();
  }
  OC_RETURN_IF_ERROR(BuildInterface());
  for (const auto& p : programs_)
    work_size_ = std::max(work_size_, p.arena_size + p.workspace_size);
  ReleasePackedConstants();
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

// What the application sees: dynamic dims as -1 (from the .om's dynamic inputs); for gears,
// sizes and output shapes of the largest gear.
Status Model::BuildInterface() {
  const Program& first = programs_.front();
  inputs_ = first.inputs;
  outputs_ = first.outputs;
  if (auto it = om_.attrs.find(kDynamicModeAttr); it != om_.attrs.end()) {
    gear_mode_ = it->second;
    // Gear tables are the file's word too: their length follows from the mode, every value
    // is a size, and every gear graph has as many.
    const size_t want = gear_mode_ == "batch" ? 1 : gear_mode_ == "image_size" ? 2 : 0;
    if (gear_mode_ != "batch" && gear_mode_ != "image_size" && gear_mode_ != "dims")
      return ParseError("unknown gear mode [" + gear_mode_ + "]");
    for (const auto& p : programs_) {
      if (p.gear.empty()) return ParseError("a gear graph has no gear values");
      if ((want && p.gear.size() != want) || p.gear.size() != programs_.front().gear.size())
        return ParseError("a " + gear_mode_ + " gear has " + std::to_string(p.gear.size()) +
                          " values, expected " +
                          std::to_string(want ? want : programs_.front().gear.size()));
      for (int64_t v : p.gear)
        if (v < 1 || v > (int64_t{1} << 31))
          return ParseError("gear value " + std::to_string(v) + " is not a size");
      if (p.inputs.size() != inputs_.size() || p.outputs.size() != outputs_.size())
        return ParseError("gear graphs differ in their inputs or outputs");
      for (const auto& q : programs_)
        if (&q != &p && q.gear == p.gear) return ParseError("two gear graphs have the same gear");
    }
    for (size_t i = 0; i < inputs_.size(); ++i)
      if (inputs_[i].name == kDynamicGearInput) gear_input_ = static_cast<int>(i);
    if (gear_input_ < 0)
      return ParseError("a model with gears has no ascend_mbatch_shape_data input");
    for (size_t i = 0; i < inputs_.size(); ++i)
      for (const auto& p : programs_)
        inputs_[i].bytes = std::max(inputs_[i].bytes, p.inputs[i].bytes);
    for (size_t o = 0; o < outputs_.size(); ++o)
      for (const auto& p : programs_)
        if (p.outputs[o].bytes > outputs_[o].bytes) outputs_[o] = p.outputs[o];
  } else if (programs_.size() != 1) {
    return ParseError("the model has " + std::to_string(programs_.size()) + " graphs but no gears");
  }
  input_ranges_.clear();
  for (auto& in : inputs_) {
    std::vector<std::pair<int64_t, int64_t>> r;
    auto dyn = om_.dynamic_inputs.find(in.name);
    if (dyn != om_.dynamic_inputs.end()) {
      if (dyn->second.dims.size() != in.shape.size())
        return ParseError("input [" + in.name + "]: its dynamic dims have the wrong rank");
      in.shape = dyn->second.dims;
    }
    // Fixed dims allow their own size; dynamic ones their range, or anything.
    for (int64_t d : in.shape) r.emplace_back(d < 0 ? 0 : d, d);
    if (dyn != om_.dynamic_inputs.end() && !dyn->second.ranges.empty()) r = dyn->second.ranges;
    input_ranges_.push_back(std::move(r));
  }
  return Status::Ok();
}

Status Model::BuildProgram(const OmGraph& og, Program* p) {
  const Graph& g = og.graph;
  // Nothing in the file is trusted: the descriptions must follow from the ops, the memory
  // plan must fit the arena (load_check.h).
  OC_RETURN_IF_ERROR(CheckGraphAgainstSchemas(g));
  OC_RETURN_IF_ERROR(CheckMemoryPlan(g, og.plan, [](const Node& n) {
    const OpSchema* s = OpRegistry::Global().Find(n.domain, n.op_type);
    return s ? s->traits.in_place_input : -1;
  }));
  p->graph = &g;
  p->gear = og.gear;
  p->arena_size = og.plan.arena_size;
  p->workspace_size = 0;  // the largest workspace of the kernels prepared below
  std::unordered_map<std::string, size_t> input_index, output_index;
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    const ValueInfo* vi = g.FindValue(g.inputs[i]);
    if (!vi) return ParseError("input [" + g.inputs[i] + "] has no description");
    if (!vi->has_shape)
      return Unsupported("input [" + g.inputs[i] +
                         "] has an unknown rank: give its shape with atc --input_shape");
    // Fully dynamic inputs (-1 dims) are sized by the application at execution.
    const int64_t n = NumElements(vi->shape);
    p->inputs.push_back({g.inputs[i], vi->dtype, vi->shape,
                         FormatFor(g.inputs[i], vi->shape, om_.attrs),
                         n < 0 ? 0 : static_cast<size_t>(n) * DataTypeSize(vi->dtype)});
    input_index[g.inputs[i]] = i;
  }
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    const ValueInfo* vi = g.FindValue(g.outputs[i]);
    if (!vi) return ParseError("output [" + g.outputs[i] + "] has no description");
    // Outputs sized at run time report -1 dims and 0 bytes, as CANN's dynamic models do.
    const Shape shape = vi->has_shape ? vi->shape : Shape{-1};
    const int64_t n = NumElements(shape);
    p->outputs.push_back({g.outputs[i], vi->dtype, shape, "ND",
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
    } else if (auto it = og.plan.offsets.find(v); it != og.plan.offsets.end()) {
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
    p->copies.push_back({from, i, p->outputs[i].bytes});
  }
  for (const auto& n : g.nodes)
    for (const auto& in : n.inputs)
      if (!in.empty() && !g.FindValue(in))
        return ParseError("value [" + in + "] has no description");
  // Each node on the first backend of the preference order that supports it.
  OC_ASSIGN_OR_RETURN(Placement placement, PlaceGraph(g, backends_));
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    Step step;
    step.node = &n;
    step.node_name = n.name;
    step.op_type = n.op_type;
    step.kernel_domain = n.domain;
    step.backend = placement.node_backend[i];
    bool seen = false;
    for (const Backend* b : p->backends) seen = seen || b == step.backend;
    if (!seen) p->backends.push_back(step.backend);
    KernelPrepareContext ctx = MakePrepareContext(g, n, &placement, num_threads_);
    ctx.soc_version = soc_version_;
    for (const auto& in : n.inputs) {
      OC_ASSIGN_OR_RETURN(Slot s, slot_for(in));
      if (!in.empty()) s.layout = placement.LayoutOf(in);
      step.inputs.push_back(s);
    }
    for (const auto& out : n.outputs) {
      OC_ASSIGN_OR_RETURN(Slot s, slot_for(out));
      if (!out.empty()) s.layout = placement.LayoutOf(out);
      step.outputs.push_back(s);
    }
    auto kernel = PrepareKernel(*step.backend, ctx);
    if (kernel.ok()) {
      step.kernel = std::move(kernel).value();
      p->workspace_size = std::max(p->workspace_size, step.kernel->WorkspaceSize());
      // What this kernel packed leaves the process now, so that the .om's pages and the
      // packed copies are never all resident together (the peak while loading). A later
      // reader of the same constant faults its pages back in from the file.
      if (om_.file)
        for (size_t k = 0; k < step.inputs.size(); ++k)
          if (step.inputs[k].kind == SlotKind::kConstant && step.inputs[k].constant &&
              !step.kernel->ReadsConstantAtRun(k))
            released_bytes_ += om_.file->ReleasePages(step.inputs[k].constant->data(),
                                                      step.inputs[k].constant->nbytes());
    } else if (kernel.status().code() == StatusCode::kNeedsInputValue) {
      ++p->dynamic_steps;  // prepared at execution for the actual shapes or values
      step.cache = std::make_shared<ShapeCache>();
    } else {
      return kernel.status();
    }
    p->steps.push_back(std::move(step));
  }
  p->num_dynamic = dynamic_ids.size();
  return Status::Ok();
}

void Model::ReleasePackedConstants() {
  // Packed constants are never read again, and the constants kernels read at run (an
  // embedding table, a LayerNorm's gamma) come back page by page as they are touched: an
  // embedding lookup keeps only the rows it reads. Steady-state memory is then the packed
  // weights, the arena and what inference actually reads.
  if (om_.file && om_.weights && user_weights_ == nullptr)
    released_bytes_ += om_.file->ReleasePages(om_.weights, om_.weight_bytes);
}

bool Model::has_dynamic_steps() const {
  for (const auto& p : programs_)
    if (p.num_dynamic > 0 || p.dynamic_steps > 0) return true;
  return false;
}

std::vector<std::vector<int64_t>> Model::gears() const {
  std::vector<std::vector<int64_t>> out;
  if (gear_mode_.empty()) return out;
  for (const auto& p : programs_) out.push_back(p.gear);
  return out;
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

struct Model::DynamicValue {
  AlignedBuffer buffer;  // keeps its capacity across executions (pooled)
  DataType dtype = DataType::kUndefined;
  Shape shape;
};

struct Model::Scratch {
  AlignedBuffer arena;
  std::vector<DynamicValue> dynamic;
  AlignedBuffer workspace;  // for run-time prepared steps
  // Kept between executions so that steady-state runs allocate nothing: the kernels'
  // run states (one per step of every program) and the per-execution lists.
  std::vector<std::unique_ptr<KernelRunState>> kernel_states;
  std::vector<Shape> input_shapes, output_shapes;
  std::vector<const void*> in_ptrs;
  std::vector<void*> out_ptrs;
};

// Kernels of a dynamic step that depend only on input shapes, by those shapes. An entry
// without a kernel records that the step needs input values (never cached).
struct Model::ShapeCache {
  struct Entry {
    std::shared_ptr<const Kernel> kernel;
    std::vector<ValueInfo> outputs;
  };
  static constexpr size_t kMaxEntries = 64;
  std::mutex mutex;
  std::map<std::vector<Shape>, Entry> entries;
};

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
  return s;
}

void Model::ReleaseScratch(std::unique_ptr<Scratch> scratch) const {
  std::lock_guard<std::mutex> lock(pool_mutex_);
  pool_.push_back(std::move(scratch));
}

struct Model::ExecState {
  const ExecuteIo* io = nullptr;
  const Program* program = nullptr;
  uint8_t* base = nullptr;
  std::vector<DynamicValue>* dynamic_values = nullptr;
  AlignedBuffer* workspace = nullptr;
  std::vector<Shape>& input_shapes;
  std::vector<Shape>& output_shapes;

  void* Resolve(const Slot& s) {
    switch (s.kind) {
      case SlotKind::kInput:
        return const_cast<void*>(io->inputs[s.index]);
      case SlotKind::kOutput:
        return io->outputs[s.index];
      case SlotKind::kConstant:
        return const_cast<void*>(s.ptr);
      case SlotKind::kArena:
        return base + s.index;
      case SlotKind::kDynamic:
        return (*dynamic_values)[s.index].buffer.data();
      default:
        return nullptr;
    }
  }
  // The shape a slot holds in this execution.
  const Shape& ShapeOf(const Slot& s) {
    if (s.kind == SlotKind::kDynamic) return (*dynamic_values)[s.index].shape;
    if (s.kind == SlotKind::kOutput) return output_shapes[s.index];
    if (s.kind == SlotKind::kInput) return input_shapes[s.index];
    return s.shape;
  }
};

std::vector<Shape> Model::LastOutputShapes() const {
  std::lock_guard<std::mutex> lock(last_shapes_mutex_);
  return last_output_shapes_;
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
    OC_ASSIGN_OR_RETURN(kernel, PrepareForValues(*step.backend, node, p.graph->opset_version,
                                                 num_threads_, inputs, &outs));
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
  std::memcpy(want.data(), io.inputs[gi], count * sizeof(int64_t));
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
  ExecState st{&io, &p, nullptr, nullptr, nullptr, scratch->input_shapes, scratch->output_shapes};
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
    st.base = static_cast<uint8_t*>(user_work_);
  } else {
    if (!scratch->arena.data() && work_size() > 0)
      return Status(StatusCode::kOutOfMemory,
                    "cannot allocate " + std::to_string(work_size()) + " bytes of work memory");
    st.base = scratch->arena.data();
  }
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
    if (step.kernel) {
      in_ptrs.clear();
      out_ptrs.clear();
      for (const auto& s : step.inputs) in_ptrs.push_back(st.Resolve(s));
      for (const auto& s : step.outputs) out_ptrs.push_back(st.Resolve(s));
      KernelRunContext ctx;
      ctx.inputs = in_ptrs.data();
      ctx.outputs = out_ptrs.data();
      ctx.workspace = st.base + p.arena_size;
      ctx.num_threads = num_threads_;
      ctx.state = &scratch->kernel_states[p.first_state + (&step - p.steps.data())];
      status = step.kernel->Run(ctx);
    } else {
      status = RunDynamicStep(p, step, st);
    }
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
      if (bytes) std::memcpy(io.outputs[c.output], st.Resolve(c.from), bytes);
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

}  // namespace oc
