// atc's NPU tuning flags (atc/npu_options.h).
#include "atc/npu_options.h"

#include <set>
#include <sstream>

#include "atc/atc_options.h"
#include "base/file.h"

namespace oc {
namespace {

struct TuningFlag {
  const char* flag;
  std::vector<std::string> values;
  // Values under which the NPU computes other numbers than OpenCANN, and what it does then.
  std::set<std::string> changes_numbers;
  const char* npu_effect;
};

const TuningFlag kTuningFlags[] = {
    {"op_select_implmode",
     {"high_precision", "high_performance", "high_precision_for_all", "high_performance_for_all"},
     {"high_performance", "high_performance_for_all"},
     "the NPU runs the high-performance implementation of every op that has one, which may "
     "trade accuracy for speed"},
    {"enable_small_channel", {"0", "1"}, {}, ""},
    {"buffer_optimize", {"l2_optimize", "l1_optimize", "off_optimize"}, {}, ""},
    {"allow_hf32",
     {"true", "false"},
     {"true"},
     "the NPU feeds float32 convolutions and matrix products to the cube unit as HF32, with a "
     "shorter mantissa"},
};

// --op_precision_mode's modes, and those that change the NPU's numbers.
const std::set<std::string> kOpPrecisionModes = {
    "high_precision",   "high_performance",          "support_out_of_bound_index",
    "keep_fp16",        "enable_float_32_execution", "enable_hi_float_32_execution",
    "super_performance"};
const std::set<std::string> kModesThatChangeNumbers = {
    "high_performance", "keep_fp16", "enable_hi_float_32_execution", "super_performance"};

std::string Trim(std::string s) {
  const char* space = " \t\r";
  s.erase(0, s.find_first_not_of(space));
  const size_t end = s.find_last_not_of(space);
  s.erase(end == std::string::npos ? 0 : end + 1);
  return s;
}

std::string NotEmulated(const std::string& flag, const std::string& value, const char* effect) {
  return "--" + flag + "=" + value + ": " + effect +
         "; OpenCANN does not emulate it and computes the high-precision results, so the NPU's "
         "numbers may differ from OpenCANN's more than its precision mode alone explains.";
}

}  // namespace

Result<std::vector<std::string>> ParseOpPrecisionMode(const std::string& text,
                                                      const std::string& path) {
  std::vector<std::string> entries;
  std::string section = "ByOpType", line;
  std::istringstream in(text);
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    line = Trim(line);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    const std::string where = "line " + std::to_string(number) + " [" + line + "]";
    if (line.front() == '[') {
      if (line == "[ByOpType]" || line == "[ByNodeName]") {
        section = line.substr(1, line.size() - 2);
        continue;
      }
      return InvalidFlag(path, "op_precision_mode",
                         where + ": the sections are [ByOpType] and [ByNodeName].");
    }
    const size_t eq = line.find('=');
    if (eq == std::string::npos)
      return InvalidFlag(path, "op_precision_mode", where + " is not \"name=mode\".");
    const std::string name = Trim(line.substr(0, eq)), mode = Trim(line.substr(eq + 1));
    if (name.empty()) return InvalidFlag(path, "op_precision_mode", where + " names nothing.");
    if (!kOpPrecisionModes.count(mode)) {
      std::string known;
      for (const auto& m : kOpPrecisionModes) known += (known.empty() ? "" : ", ") + m;
      return InvalidFlag(path, "op_precision_mode",
                         where + ": the mode must be one of " + known + ".");
    }
    entries.push_back(section + ":" + name + "=" + mode);
  }
  if (entries.empty())
    return InvalidFlag(path, "op_precision_mode", "the file sets no operator's mode.");
  return entries;
}

Result<NpuOptions> CheckNpuOptions(const Flags& f) {
  NpuOptions o;
  for (const auto& t : kTuningFlags) {
    if (!f.Has(t.flag)) continue;
    const std::string v = f.Get(t.flag);
    bool known = false;
    std::string list;
    for (const auto& a : t.values) {
      known = known || v == a;
      list += (list.empty() ? "" : ", ") + a;
    }
    if (!known) return InvalidFlag(v, t.flag, "the value must be " + list + ".");
    o.recorded.push_back(std::string(t.flag) + "=" + v);
    if (t.changes_numbers.count(v)) o.warnings.push_back(NotEmulated(t.flag, v, t.npu_effect));
  }
  if (f.Has("optypelist_for_implmode")) {
    if (!f.Has("op_select_implmode"))
      return InvalidFlag(f.Get("optypelist_for_implmode"), "optypelist_for_implmode",
                         "it needs --op_select_implmode.");
    const std::string mode = f.Get("op_select_implmode");
    if (mode.find("_for_all") != std::string::npos)
      return InvalidFlag(f.Get("optypelist_for_implmode"), "optypelist_for_implmode",
                         "it goes with --op_select_implmode=high_precision or high_performance, "
                         "not " +
                             mode + ".");
    o.recorded.push_back("optypelist_for_implmode=" + f.Get("optypelist_for_implmode"));
  }
  if (f.Has("op_precision_mode")) {
    const std::string path = f.Get("op_precision_mode");
    auto text = ReadFile(path);
    if (!text.ok()) return InvalidFlag(path, "op_precision_mode", "the file cannot be read.");
    OC_ASSIGN_OR_RETURN(auto entries, ParseOpPrecisionMode(text.value(), path));
    std::string joined;
    std::vector<std::string> changing;
    for (const auto& e : entries) {
      joined += (joined.empty() ? "" : ",") + e;
      const size_t colon = e.find(':'), eq = e.find('=');
      const std::string name = e.substr(colon + 1, eq - colon - 1), mode = e.substr(eq + 1);
      if (e.rfind("ByNodeName:", 0) == 0) o.node_names.push_back(name);
      if (kModesThatChangeNumbers.count(mode)) changing.push_back(name + "=" + mode);
    }
    // CANN: the file takes precedence over --op_select_implmode for the ops it names.
    o.recorded.push_back("op_precision_mode=" + joined);
    if (!changing.empty()) {
      std::string names;
      for (const auto& c : changing) names += (names.empty() ? "" : ", ") + c;
      o.warnings.push_back("--op_precision_mode: " + names +
                           " select implementations the NPU computes with less precision; "
                           "OpenCANN does not emulate them and computes the high-precision "
                           "results for those ops.");
    }
  }
  return o;
}

}  // namespace oc
