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
    outputs_.push_back({g.outputs[i], vi->dtype, vi->shape, "ND",
                        static_cast<size_t>(NumElements(vi->shape)) * DataTypeSize(vi->dtype)});
  }
  auto slot_for = [&](const std::string& v) -> Result<Slot> {
    Slot s;
    if (v.empty()) return s;
    if (auto it = input_index.find(v); it != input_index.end())
      return Slot{SlotKind::kInput, it->second, nullptr};
    if (auto it = output_index.find(v); it != output_index.end())
      return Slot{SlotKind::kOutput, it->second, nullptr};
    if (const Tensor* t = g.FindInitializer(v)) return Slot{SlotKind::kConstant, 0, t->data()};
    auto it = om_.plan.offsets.find(v);
    if (it == om_.plan.offsets.end()) return ParseError("value [" + v + "] has no memory assigned");
    if (it->second >= arena_size_ && arena_size_ > 0)
      return ParseError("value [" + v + "] lies outside the arena");
    return Slot{SlotKind::kArena, it->second, nullptr};
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
    step.node_name = n.name;
    step.op_type = n.op_type;
    step.kernel_domain = n.domain;
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
    if (!kernel.ok()) return kernel.status();
    step.kernel = std::move(kernel).value();
    workspace_size_ = std::max(workspace_size_, step.kernel->WorkspaceSize());
    steps_.push_back(std::move(step));
  }
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
  uint8_t* base = nullptr;
  if (user_work_) {
    user_lock.lock();
    base = static_cast<uint8_t*>(user_work_);
  } else {
    arena = AcquireArena();
    if (!arena.data() && work_size() > 0)
      return Status(StatusCode::kOutOfMemory,
                    "cannot allocate " + std::to_string(work_size()) + " bytes of work memory");
    base = arena.data();
  }
  // OpenMP's thread count is per calling thread: set it for this one.
  omp_set_num_threads(num_threads_);
  auto resolve = [&](const Slot& s) -> void* {
    switch (s.kind) {
      case SlotKind::kInput:
        return const_cast<void*>(inputs[s.index]);
      case SlotKind::kOutput:
        return outputs[s.index];
      case SlotKind::kConstant:
        return const_cast<void*>(s.ptr);
      case SlotKind::kArena:
        return base + s.index;
      default:
        return nullptr;
    }
  };
  std::vector<const void*> in_ptrs;
  std::vector<void*> out_ptrs;
  Status status;
  for (const auto& step : steps_) {
    in_ptrs.clear();
    out_ptrs.clear();
    for (const auto& s : step.inputs) in_ptrs.push_back(resolve(s));
    for (const auto& s : step.outputs) out_ptrs.push_back(resolve(s));
    KernelRunContext ctx;
    ctx.inputs = in_ptrs.data();
    ctx.outputs = out_ptrs.data();
    ctx.workspace = base + arena_size_;
    ctx.num_threads = num_threads_;
    const auto t0 =
        profile_ ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
    status = step.kernel->Run(ctx);
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
  if (status.ok())
    for (const auto& c : copies_)
      if (c.bytes) std::memcpy(outputs[c.output], resolve(c.from), c.bytes);
  if (!user_work_) ReleaseArena(std::move(arena));
  return status;
}

}  // namespace oc
