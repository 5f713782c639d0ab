// Turns one compiled graph into a program: every node on the backend the placement chose,
// with a kernel prepared now (or at execution, when its shapes or kernel depend on values),
// every value in a slot, and copies where a value crosses memory spaces.
#include <algorithm>
#include <unordered_map>

#include "ir/internal_attrs.h"
#include "ops/op_schema.h"
#include "runtime/load_check.h"
#include "runtime/model_parts.h"

namespace oc {
namespace {

std::string FormatFor(const std::string& name, const Shape& s,
                      const std::map<std::string, std::string>& attrs) {
  // Inputs that take images through AIPP are NHWC whatever the model's format.
  if (auto a = attrs.find(kAippInputsAttr); a != attrs.end() && s.size() == 4) {
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
  for (const auto& n : g.nodes)
    for (const auto& in : n.inputs)
      if (!in.empty() && !g.FindValue(in))
        return ParseError("value [" + in + "] has no description");
  // Each node on the first backend of the preference order that supports it.
  OC_ASSIGN_OR_RETURN(Placement placement, PlaceGraph(g, backends_));
  OC_RETURN_IF_ERROR(PrepareSteps(g, placement, p));
  return AssignSlots(og, placement, p);
}

Status Model::PrepareSteps(const Graph& g, const Placement& placement, Program* p) {
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    Step step;
    step.node = &n;
    step.node_name = n.name;
    step.op_type = n.op_type;
    step.kernel_domain = n.domain;
    step.backend = placement.node_backend[i];
    KernelPrepareContext ctx = MakePrepareContext(g, n, &placement, num_threads_);
    ctx.soc_version = soc_version_;
    ctx.subgraphs = subgraph_runner_.get();
    auto kernel = PrepareKernel(*step.backend, ctx);
    if (!kernel.ok() && kernel.status().code() == StatusCode::kNeedsInputValue &&
        !step.backend->host_accessible()) {
      // A step prepared at execution reads its input values and keeps values sized at run
      // time in host memory: it runs on the first host backend that has it. Its neighbours'
      // values cross backends, so they are plain already.
      const Backend* host = nullptr;
      for (const Backend* b : backends_)
        if (!host && b->host_accessible() && b->Supports(n, ctx.inputs)) host = b;
      if (!host)
        return NoKernelError(n, std::string("Its shapes or kernel depend on values known only at "
                                            "run time, which the ") +
                                    step.backend->name() +
                                    " backend cannot read, and no host backend has it.");
      step.backend = host;
      kernel = PrepareKernel(*host, ctx);
    }
    if (kernel.ok()) {
      step.writes_nothing = !ctx.outputs.empty();
      for (size_t k = 0; k < ctx.outputs.size(); ++k)
        if (k < n.outputs.size() && !n.outputs[k].empty())
          step.writes_nothing = step.writes_nothing && IsStatic(ctx.outputs[k].shape) &&
                                NumElements(ctx.outputs[k].shape) == 0;
      step.kernel = std::move(kernel).value();
      p->workspace_size = std::max(p->workspace_size, step.kernel->WorkspaceSize());
    } else if (kernel.status().code() == StatusCode::kNeedsInputValue) {
      ++p->dynamic_steps;  // prepared at execution for the actual shapes or values
      step.cache = std::make_shared<ShapeCache>();
    } else {
      return kernel.status();
    }
    if (std::find(p->backends.begin(), p->backends.end(), step.backend) == p->backends.end())
      p->backends.push_back(step.backend);
    p->steps.push_back(std::move(step));
  }
  return Status::Ok();
}

Result<uint8_t> Model::SpaceOf(const Backend* backend) {
  if (backend->host_accessible()) return uint8_t{0};
  for (size_t s = 1; s < spaces_.size(); ++s)
    if (&spaces_[s].owner->memory_space() == &backend->memory_space())
      return static_cast<uint8_t>(s);
  if (spaces_.size() > 64) return Unsupported("a model may use at most 64 memory spaces");
  spaces_.push_back({backend, 0});
  return static_cast<uint8_t>(spaces_.size() - 1);
}

Result<const void*> Model::DeviceConstant(const Tensor& t, uint8_t space) {
  const auto key = std::make_pair(&t, space);
  if (auto it = device_constants_.find(key); it != device_constants_.end())
    return static_cast<const void*>(it->second.data());
  const Backend* owner = spaces_[space].owner;
  DeviceBuffer buffer(owner, t.nbytes());
  if (!buffer.data())
    return Status(StatusCode::kOutOfMemory, "cannot allocate " + std::to_string(t.nbytes()) +
                                                " bytes of " + owner->name() + " memory");
  OC_RETURN_IF_ERROR(
      owner->Copy(buffer.data(), t.data(), t.nbytes(), Backend::CopyKind::kHostToDevice));
  const void* data = buffer.data();
  device_constants_.emplace(key, std::move(buffer));
  return data;
}

Status Model::AssignSlots(const OmGraph& og, const Placement& placement, Program* p) {
  const Graph& g = og.graph;
  for (auto& step : p->steps) {
    OC_ASSIGN_OR_RETURN(step.space, SpaceOf(step.backend));
  }
  p->staging_size.assign(spaces_.size(), 0);
  std::unordered_map<std::string, size_t> input_index, output_index, dynamic_ids;
  for (size_t i = 0; i < g.inputs.size(); ++i) input_index[g.inputs[i]] = i;
  // Outputs written by a node go straight to the caller's buffer (first writer wins).
  for (const auto& n : g.nodes)
    for (const auto& o : n.outputs)
      for (size_t i = 0; i < g.outputs.size(); ++i)
        if (o == g.outputs[i] && !output_index.count(o)) output_index[o] = i;
  // A value's slot as the host sees it.
  auto slot_for = [&](const std::string& v) -> Result<Slot> {
    Slot s;
    if (v.empty()) return s;
    const ValueInfo* vi = g.FindValue(v);
    if (vi) {
      s.dtype = vi->dtype;
      s.shape = vi->has_shape ? vi->shape : Shape{-1};
    }
    s.layout = placement.LayoutOf(v);
    if (auto it = input_index.find(v); it != input_index.end()) {
      s.kind = SlotKind::kInput;
      s.index = it->second;
      s.space = io_space_;
    } else if (auto it = output_index.find(v); it != output_index.end()) {
      s.kind = SlotKind::kOutput;
      s.index = it->second;
      s.space = io_space_;
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
  auto bytes_of = [&](const std::string& v, const Slot& s) -> Result<size_t> {
    // A device space gets room planned at load; a value sized only at run time has none.
    if (!IsStatic(s.shape)) {
      const Backend* device = spaces_[s.space ? s.space : io_space_].owner;
      return Unsupported("value [" + v +
                             "] is sized at run time, and values cross to or from the " +
                             std::string(device ? device->name() : "device") +
                             " backend's memory only with static shapes: run a model with dynamic "
                             "shapes on host backends (cpu, reference)",
                         "EZ3003");
    }
    return TensorBytes(s.shape, DataTypeSize(s.dtype));
  };
  // Caller inputs and outputs seen from a device get room in its staging area.
  auto stage = [&](const std::string& v, uint8_t space, const Slot& like) -> Result<Slot> {
    OC_ASSIGN_OR_RETURN(size_t bytes, bytes_of(v, like));
    Slot s = like;
    s.kind = SlotKind::kStaging;
    s.space = space;
    s.index = p->staging_size[space];
    p->staging_size[space] += (bytes + 63) / 64 * 64;
    return s;
  };
  // Where each value can be read, per space; the first entry is where it was made.
  std::unordered_map<std::string, std::vector<Slot>> where;
  // The slot of `v` in `space`, copied there before `step` when it is not there yet.
  auto bring = [&](const std::string& v, uint8_t space, Step& step) -> Result<Slot> {
    auto& list = where[v];
    if (list.empty()) {
      OC_ASSIGN_OR_RETURN(Slot s, slot_for(v));  // a caller input or a constant: on the host
      list.push_back(s);
    }
    for (const Slot& s : list)
      if (s.space == space) return s;
    const Slot from = list.front();
    Slot to = from;
    to.space = space;
    if (from.kind == SlotKind::kConstant) {
      // Uploaded once at load, not per execution.
      OC_ASSIGN_OR_RETURN(to.ptr, DeviceConstant(*from.constant, space));
    } else {
      OC_ASSIGN_OR_RETURN(size_t bytes, bytes_of(v, from));
      // An arena value keeps its planned offset in every space's arena: no other value
      // lives there while it does.
      if (from.kind != SlotKind::kArena) {
        OC_ASSIGN_OR_RETURN(to, stage(v, space, from));
      }
      step.before.push_back({from, to, bytes});
    }
    list.push_back(to);
    return to;
  };
  for (auto& step : p->steps) {
    const Node& n = *step.node;
    for (const auto& in : n.inputs) {
      Slot s;
      if (!in.empty()) {
        OC_ASSIGN_OR_RETURN(s, bring(in, step.space, step));
      }
      step.inputs.push_back(s);
    }
    for (const auto& out : n.outputs) {
      OC_ASSIGN_OR_RETURN(Slot s, slot_for(out));
      if (!out.empty() && s.kind == SlotKind::kOutput && s.space != step.space) {
        // Made in the staging area of the step's space, then sent to the caller's buffer.
        const Slot home = s;
        OC_ASSIGN_OR_RETURN(s, stage(out, step.space, home));
        OC_ASSIGN_OR_RETURN(size_t bytes, bytes_of(out, home));
        step.after.push_back({s, home, bytes});
        where[out] = {s, home};
      } else if (!out.empty() && step.space != 0) {
        if (s.kind == SlotKind::kOutput) {
          // The caller's buffer is in this space: written in place.
        } else if (s.kind == SlotKind::kArena) {
          s.space = step.space;
        } else {
          return Internal("value [" + out + "] made on the " + step.backend->name() +
                          " backend has no memory there");
        }
      }
      if (!out.empty() && where[out].empty()) where[out].push_back(s);
      step.outputs.push_back(s);
    }
    // What this kernel packed leaves the process now, so that the .om's pages and the
    // packed copies are never all resident together (the peak while loading). A later
    // reader of the same constant faults its pages back in from the file.
    if (step.kernel && om_.file)
      for (size_t k = 0; k < step.inputs.size(); ++k)
        if (step.inputs[k].kind == SlotKind::kConstant && step.inputs[k].constant &&
            !step.kernel->ReadsConstantAtRun(k))
          released_bytes_ += om_.file->ReleasePages(step.inputs[k].constant->data(),
                                                    step.inputs[k].constant->nbytes());
  }
  // Graph outputs that no step writes (constants, inputs, values output twice): copied into
  // the caller's buffer after the steps, from the host when the value is there.
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    const std::string& o = g.outputs[i];
    auto it = output_index.find(o);
    if (it != output_index.end() && it->second == i) continue;
    auto& list = where[o];
    if (list.empty()) {
      OC_ASSIGN_OR_RETURN(Slot s, slot_for(o));
      list.push_back(s);
    }
    Slot from = list.front();
    for (const Slot& s : list)
      if (s.space == io_space_) from = s;
    p->copies.push_back({from, i, p->outputs[i].bytes});
  }
  p->num_dynamic = dynamic_ids.size();
  for (size_t s = 1; s < spaces_.size(); ++s)
    spaces_[s].bytes =
        std::max(spaces_[s].bytes, p->arena_size + p->workspace_size + p->staging_size[s]);
  return Status::Ok();
}

}  // namespace oc
