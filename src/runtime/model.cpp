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
#include "runtime/model_parts.h"

namespace oc {

Status StepTensor::CopyPlain(void* dst) const {
  const TensorType t{dtype, shape};
  if (!backend || (layout == kPlainLayout && backend->host_accessible())) {
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
  profile_ = GlobalConfig().profile;
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
  subgraph_runner_ = std::make_unique<NodeRunner>(backends_, num_threads_, soc_version_);
  spaces_.assign(1, Space{});  // the host
  if (options.io_backend) {
    OC_ASSIGN_OR_RETURN(io_space_, SpaceOf(options.io_backend));
  }
  programs_.resize(om_.graphs.size());
  for (size_t i = 0; i < om_.graphs.size(); ++i) {
    Status s = BuildProgram(om_.graphs[i], &programs_[i]);
    if (!s.ok()) return om_.graphs.size() > 1 ? s.WithContext("gear " + std::to_string(i)) : s;
    if (i) programs_[i].first_state = programs_[i - 1].first_state + programs_[i - 1].steps.size();
  }
  OC_RETURN_IF_ERROR(BuildInterface());
  for (const auto& p : programs_)
    work_size_ = std::max(work_size_, p.arena_size + p.workspace_size + p.staging_size[0]);
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

std::vector<Shape> Model::GearOutputShapes(const std::vector<int64_t>& gear) const {
  std::vector<Shape> shapes;
  for (const auto& p : programs_) {
    if (gear_mode_.empty() || p.gear != gear) continue;
    for (const auto& o : p.outputs) shapes.push_back(o.shape);
    break;
  }
  return shapes;
}

std::vector<int64_t> Model::LargestGear() const {
  std::vector<int64_t> best;
  double best_size = -1;
  for (const auto& p : programs_) {
    double size = 1;
    for (int64_t v : p.gear) size *= static_cast<double>(v);
    if (!gear_mode_.empty() && size >= best_size) {
      best_size = size;
      best = p.gear;
    }
  }
  return best;
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

std::vector<Shape> Model::LastOutputShapes() const {
  std::lock_guard<std::mutex> lock(last_shapes_mutex_);
  return last_output_shapes_;
}

}  // namespace oc
