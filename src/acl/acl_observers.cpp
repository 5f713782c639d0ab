#include "acl/acl_observers.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <nlohmann/json.hpp>

#include "base/file.h"
#include "dump/dump_file.h"

namespace oc::acl {
namespace {

std::string Timestamp() {
  char buf[32];
  std::time_t now = std::time(nullptr);
  std::strftime(buf, sizeof(buf), "%Y%m%d%H%M%S", std::localtime(&now));
  return buf;
}

// File names cannot hold '/': ONNX exporters put them in node names ("/conv/Conv").
std::string Sanitize(const std::string& name) {
  std::string out = name;
  for (char& c : out)
    if (c == '/' || c == ' ' || c == '\\') c = '_';
  return out;
}

// The step's tensors as dump tensors, in logical order (the backend that ran the step
// knows how it keeps the bytes).
bool ToDumpTensor(const StepTensor& t, DumpTensor* out) {
  const int64_t n = NumElements(t.shape);
  if (n < 0 || (n > 0 && !t.data)) return false;
  out->dtype = t.dtype;
  out->shape = t.shape;
  out->format = t.shape.size() == 4 ? "NCHW" : "ND";
  out->bytes.assign(static_cast<size_t>(n) * DataTypeSize(t.dtype), '\0');
  return n == 0 || t.CopyPlain(out->bytes.data()).ok();
}

// Whether `layer` (a dump_list name) is this node or one of the source ops it absorbed.
bool NamesLayer(const StepRecord& r, const std::set<std::string>& layers) {
  if (layers.count(*r.node_name)) return true;
  if (r.attrs)
    for (const auto& n : r.attrs->GetStrings("_datadump_original_op_names"))
      if (layers.count(n)) return true;
  return false;
}

class DumpObserver : public StepObserver {
 public:
  DumpObserver(std::string dir, std::string mode, std::set<std::string> layers)
      : dir_(std::move(dir)), mode_(std::move(mode)), layers_(std::move(layers)) {}
  void OnStep(const StepRecord& r) override {
    if (!layers_.empty() && !NamesLayer(r, layers_)) return;
    const std::string dir = dir_ + "/" + std::to_string(r.execution);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (Status s = CreateDirectories(dir); !s.ok()) {
        if (!warned_)
          std::fprintf(stderr, "[WARNING] dump: %s; nothing is dumped\n", s.message().c_str());
        warned_ = true;
        return;
      }
    }
    DumpRecord rec;
    rec.op_name = *r.node_name;
    rec.time_us = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                            std::chrono::system_clock::now().time_since_epoch())
                                            .count());
    std::vector<std::string> origin_names;
    std::vector<int64_t> origin_indexes;
    if (r.attrs) {
      origin_names = r.attrs->GetStrings("_datadump_origin_name");
      origin_indexes = r.attrs->GetInts("_datadump_origin_output_index");
    }
    if (mode_ == "input" || mode_ == "all")
      for (const auto& t : r.inputs) {
        DumpTensor d;
        if (ToDumpTensor(t, &d)) rec.inputs.push_back(std::move(d));
      }
    if (mode_ == "output" || mode_ == "all")
      for (size_t i = 0; i < r.outputs.size(); ++i) {
        DumpTensor d;
        if (!ToDumpTensor(r.outputs[i], &d)) continue;
        if (i < origin_names.size() && i < origin_indexes.size()) {
          d.original_name = origin_names[i];
          d.original_index = origin_indexes[i];
        }
        rec.outputs.push_back(std::move(d));
      }
    const std::string path =
        dir + "/" + DumpFileName(*r.op_type, *r.node_name, r.task_id, rec.time_us);
    if (Status s = WriteFileAtomic(path, EncodeDumpFile(rec)); !s.ok()) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!warned_) std::fprintf(stderr, "[WARNING] dump: %s\n", s.message().c_str());
      warned_ = true;
    }
  }

 private:
  std::string dir_, mode_;
  std::set<std::string> layers_;
  std::mutex mutex_;
  bool warned_ = false;
};

class ProfileObserver : public StepObserver {
 public:
  ProfileObserver(std::shared_ptr<Profiler> p, std::string model, uint32_t id)
      : profiler_(std::move(p)), model_(std::move(model)), id_(id) {}
  void OnStep(const StepRecord& r) override { profiler_->Record(model_, id_, r); }

 private:
  std::shared_ptr<Profiler> profiler_;
  std::string model_;
  uint32_t id_;
};

class BothObservers : public StepObserver {
 public:
  BothObservers(std::shared_ptr<StepObserver> a, std::shared_ptr<StepObserver> b)
      : a_(std::move(a)), b_(std::move(b)) {}
  void OnStep(const StepRecord& r) override {
    a_->OnStep(r);
    b_->OnStep(r);
  }

 private:
  std::shared_ptr<StepObserver> a_, b_;
};

std::string ShapesText(const std::vector<StepTensor>& list) {
  std::string out;
  for (size_t i = 0; i < list.size(); ++i) {
    if (i) out += ";";
    for (size_t k = 0; k < list[i].shape.size(); ++k)
      out += (k ? "," : "") + std::to_string(list[i].shape[k]);
  }
  return "\"" + out + "\"";
}

std::string TypesText(const std::vector<StepTensor>& list) {
  std::string out;
  for (size_t i = 0; i < list.size(); ++i)
    out += (i ? ";" : "") + std::string(DataTypeName(list[i].dtype));
  return "\"" + out + "\"";
}

}  // namespace

Status ParseDumpConfig(const std::string& json_text, DumpConfig* dump, ProfileConfig* profile) {
  nlohmann::json cfg = nlohmann::json::parse(json_text, nullptr, false);
  if (cfg.is_discarded() || !cfg.is_object()) return ParseError("the config is not a JSON object");
  if (cfg.contains("dump")) {
    const auto& d = cfg["dump"];
    if (!d.is_object()) return InvalidArgument("\"dump\" must be an object");
    if (d.contains("dump_list")) {
      if (!d["dump_list"].is_array()) return InvalidArgument("\"dump.dump_list\" must be an array");
      for (const auto& item : d["dump_list"]) {
        if (!item.is_object() || !item.contains("model_name") || !item["model_name"].is_string())
          return InvalidArgument("each \"dump.dump_list\" entry needs a \"model_name\" string");
        auto& layers = dump->models[item["model_name"].get<std::string>()];
        if (item.contains("layer")) {
          if (!item["layer"].is_array())
            return InvalidArgument("\"layer\" of a dump_list entry must be an array of names");
          for (const auto& l : item["layer"]) {
            if (!l.is_string()) return InvalidArgument("layer names must be strings");
            layers.insert(l.get<std::string>());
          }
        }
      }
    }
    bool op_switch = false;
    if (d.contains("dump_op_switch")) {
      const auto& sw = d["dump_op_switch"];
      if (!sw.is_string() || (sw != "on" && sw != "off"))
        return InvalidArgument("\"dump.dump_op_switch\" must be \"on\" or \"off\"");
      op_switch = sw == "on";
    }
    if (d.contains("dump_mode")) {
      if (!d["dump_mode"].is_string())
        return InvalidArgument("\"dump.dump_mode\" must be a string");
      dump->mode = d["dump_mode"].get<std::string>();
      if (dump->mode != "input" && dump->mode != "output" && dump->mode != "all")
        return InvalidArgument("\"dump.dump_mode\" must be input, output or all, not [" +
                               dump->mode + "]");
    }
    if (!dump->models.empty() || op_switch) {
      if (!d.contains("dump_path") || !d["dump_path"].is_string() ||
          d["dump_path"].get<std::string>().empty())
        return InvalidArgument("\"dump.dump_path\" is required when dumping");
      dump->path = d["dump_path"].get<std::string>();
      // dump_op_switch dumps single-operator executions (aclopExecute*): State observes each
      // single-op model loaded.
      dump->op_switch = op_switch;
      dump->enabled = !dump->models.empty();
    }
  }
  if (cfg.contains("profiler")) {
    const auto& p = cfg["profiler"];
    if (!p.is_object()) return InvalidArgument("\"profiler\" must be an object");
    if (p.contains("switch") && !p["switch"].is_string())
      return InvalidArgument("\"profiler.switch\" must be \"on\" or \"off\"");
    const std::string sw = p.value("switch", std::string("off"));
    if (sw != "on" && sw != "off")
      return InvalidArgument("\"profiler.switch\" must be on or off, not [" + sw + "]");
    profile->enabled = sw == "on";
    if (p.contains("output")) {
      if (!p["output"].is_string()) return InvalidArgument("\"profiler.output\" must be a string");
      profile->output = p["output"].get<std::string>();
    }
  }
  return Status::Ok();
}

void Profiler::Record(const std::string& model, uint32_t model_id, const StepRecord& r) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!summary_) {
    if (Status s = CreateDirectories(dir_); !s.ok()) {
      if (!warned_)
        std::fprintf(stderr, "[WARNING] profiler: %s; no profiling data\n", s.message().c_str());
      warned_ = true;
      return;
    }
    const std::string path = dir_ + "/op_summary_" + std::to_string(getpid()) + ".csv";
    summary_ = std::fopen(path.c_str(), "w");
    if (!summary_) return;
    std::fprintf(summary_,
                 "Model Name,Model ID,Infer ID,Op Name,OP Type,Task Type,Task Start Time(us),"
                 "Task Duration(us),Input Shapes,Input Data Types,Output Shapes,"
                 "Output Data Types\n");
  }
  std::fprintf(summary_, "%s,%u,%llu,%s,%s,AI_CPU,%.3f,%.3f,%s,%s,%s,%s\n", model.c_str(), model_id,
               static_cast<unsigned long long>(r.execution), r.node_name->c_str(),
               r.op_type->c_str(), r.start_us, r.duration_us, ShapesText(r.inputs).c_str(),
               TypesText(r.inputs).c_str(), ShapesText(r.outputs).c_str(),
               TypesText(r.outputs).c_str());
  // The timeline: one complete event per step, on the thread that ran it (a stream's worker,
  // or the application's thread for synchronous executions).
  if (trace_.size() < kMaxTraceEvents)
    trace_.push_back({model, *r.node_name, *r.op_type, r.execution, r.start_us, r.duration_us,
                      static_cast<uint32_t>(syscall(SYS_gettid))});
  Stat& s = stats_[*r.op_type];
  s.min = s.count ? std::min(s.min, r.duration_us) : r.duration_us;
  s.max = std::max(s.max, r.duration_us);
  s.total += r.duration_us;
  ++s.count;
}

void Profiler::RecordEvent(const std::string& name, const std::string& category, double start_us,
                           double duration_us) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (trace_.size() < kMaxTraceEvents)
    trace_.push_back(
        {"", name, category, 0, start_us, duration_us, static_cast<uint32_t>(syscall(SYS_gettid))});
}

Status Profiler::Flush() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (summary_) std::fclose(summary_);
  summary_ = nullptr;
  if (!trace_.empty()) {
    // Chrome's trace-event format (chrome://tracing, Perfetto): X events in microseconds.
    nlohmann::json events = nlohmann::json::array();
    for (const auto& e : trace_)
      events.push_back({{"name", e.op_name},
                        {"cat", e.op_type},
                        {"ph", "X"},
                        {"ts", e.start_us},
                        {"dur", e.duration_us},
                        {"pid", 0},
                        {"tid", e.thread},
                        {"args", {{"model", e.model}, {"infer_id", e.execution}}}});
    nlohmann::json trace = {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ms"}};
    trace_.clear();
    if (Status s =
            WriteFileAtomic(dir_ + "/trace_" + std::to_string(getpid()) + ".json", trace.dump());
        !s.ok())
      return s;
  }
  if (stats_.empty()) return Status::Ok();
  double all = 0;
  for (const auto& [op, s] : stats_) all += s.total;
  std::string csv =
      "OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\n";
  char line[512];
  for (const auto& [op, s] : stats_) {
    std::snprintf(line, sizeof(line), "%s,CPU,%lld,%.3f,%.3f,%.3f,%.3f,%.2f\n", op.c_str(),
                  static_cast<long long>(s.count), s.total, s.min, s.total / s.count, s.max,
                  all > 0 ? 100.0 * s.total / all : 0.0);
    csv += line;
  }
  stats_.clear();
  return WriteFileAtomic(dir_ + "/op_statistic_" + std::to_string(getpid()) + ".csv", csv);
}

std::shared_ptr<StepObserver> MakeObserver(const DumpConfig& dump, std::shared_ptr<Profiler> prof,
                                           const std::string& model_name, uint32_t model_id) {
  std::shared_ptr<StepObserver> dumper, profiler;
  if (dump.enabled) {
    auto it = dump.models.find(model_name);
    if (dump.models.empty() || it != dump.models.end()) {
      // CANN's layout: {dump_path}/{time}/{device}/{model_name}/{model_id}/{execution}/
      const std::string dir = dump.path + "/" + Timestamp() + "/0/" + Sanitize(model_name) + "/" +
                              std::to_string(model_id);
      dumper = std::make_shared<DumpObserver>(
          dir, dump.mode, it == dump.models.end() ? std::set<std::string>{} : it->second);
    }
  }
  if (prof) profiler = std::make_shared<ProfileObserver>(prof, model_name, model_id);
  if (dumper && profiler) return std::make_shared<BothObservers>(dumper, profiler);
  return dumper ? dumper : profiler;
}

}  // namespace oc::acl
