// aclInit's "dump" and "profiler" settings, applied to each loaded model as a step observer.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "runtime/model.h"

namespace oc::acl {

struct DumpConfig {
  bool enabled = false;
  std::string path;             // dump_path
  std::string mode = "output";  // input, output or all
  // model_name -> layers to dump (empty: every layer). Empty map: every model.
  std::map<std::string, std::set<std::string>> models;
  bool op_switch = false;  // dump_op_switch: single-operator executions too
};

struct ProfileConfig {
  bool enabled = false;
  std::string output = ".";
};

// Parses the "dump" and "profiler" objects of the aclInit JSON (as text).
Status ParseDumpConfig(const std::string& json_text, DumpConfig* dump, ProfileConfig* profile);

// Collects per-op rows across models and writes op_summary / op_statistic CSV files and a
// Chrome-trace timeline (trace_<pid>.json) of the steps.
class Profiler {
 public:
  explicit Profiler(std::string dir) : dir_(std::move(dir)) {}
  void Record(const std::string& model, uint32_t model_id, const StepRecord& r);
  // A runtime event for the timeline only (copies, callbacks): steady-clock microseconds.
  void RecordEvent(const std::string& name, const std::string& category, double start_us,
                   double duration_us);
  // Writes op_statistic_*.csv and closes op_summary_*.csv; returns the folder.
  Status Flush();
  const std::string& dir() const { return dir_; }

 private:
  struct Stat {
    int64_t count = 0;
    double total = 0, min = 0, max = 0;
  };
  std::string dir_;
  std::mutex mutex_;
  std::FILE* summary_ = nullptr;
  bool warned_ = false;
  std::map<std::string, Stat> stats_;
  struct TraceEvent {
    std::string model, op_name, op_type;
    uint64_t execution;
    double start_us, duration_us;
    uint32_t thread;
  };
  static constexpr size_t kMaxTraceEvents = 1000000;  // the timeline stops growing there
  std::vector<TraceEvent> trace_;
};

// The observer for one loaded model, or null when neither dump nor profiling applies.
std::shared_ptr<StepObserver> MakeObserver(const DumpConfig& dump, std::shared_ptr<Profiler> prof,
                                           const std::string& model_name, uint32_t model_id);

}  // namespace oc::acl
