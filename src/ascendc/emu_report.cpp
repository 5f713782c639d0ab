// What a launch tells its user: warnings and errors (collapsed across blocks), the cost
// report on stdout, and where asked the JSON report and a Chrome trace of the pipes.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "emu_state.h"

namespace AscendC {
namespace detail {
namespace {

std::string JsonEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

// "8 blocks", or for mix launches "2 blocks (2 AIC + 4 AIV)".
std::string LaunchShape(const LaunchState& l) {
  std::string s = std::to_string(l.block_dim) + " blocks";
  if (IsMixLaunch(l))
    s += " (" + std::to_string(l.block_dim * l.shape.aic) + " AIC + " +
         std::to_string(l.block_dim * l.shape.aiv) + " AIV, " + KernelTypeName(l.kernel_type) + ")";
  else if (l.shape.aic)
    s += " (AIC)";
  return s;
}

// The pipe timelines as Chrome trace JSON (chrome://tracing, Perfetto): a process per block,
// a thread per pipe, an event per instruction.
void WriteTrace(const LaunchState& l, const std::vector<std::unique_ptr<Block>>& blocks,
                const std::string& path) {
  std::ofstream out(path);
  const double mhz = SocOf(l).mhz;
  out << "{\"displayTimeUnit\": \"ns\", \"traceEvents\": [";
  bool first = true;
  size_t written = 0;
  const size_t limit = 500000;
  for (size_t bi = 0; bi < blocks.size(); ++bi) {
    const Block& b = *blocks[bi];
    out << (first ? "" : ",") << "\n{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": " << bi
        << ", \"args\": {\"name\": \"block " << b.idx << (b.core == AIC ? " AIC" : " AIV")
        << "\"}}";
    first = false;
    for (int p = 0; p < kPipes; ++p)
      out << ",\n{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": " << bi << ", \"tid\": " << p
          << ", \"args\": {\"name\": \"" << kPipeNames[p] << "\"}}";
    for (const Issued& i : b.timeline.issued) {
      if (written++ >= limit) break;
      out << ",\n{\"ph\": \"X\", \"name\": \"" << JsonEscape(i.api) << "\", \"pid\": " << bi
          << ", \"tid\": " << int(i.pipe) << ", \"ts\": " << i.start / mhz
          << ", \"dur\": " << i.dur / mhz << "}";
    }
  }
  out << "\n]}\n";
  if (!out) std::printf("[WARNING] trace %s could not be written\n", path.c_str());
}

void Report(LaunchState& l, const std::vector<std::unique_ptr<Block>>& blocks) {
  const SocFacts& soc = SocOf(l);
  const int cores = CoresFor(l);
  const double waves = std::ceil(static_cast<double>(l.block_dim) / cores);
  const Estimated e = EstimateOf(l, blocks);
  std::printf(
      "[OpenCANN] %s: %s on %s (%d %s cores, %.0f MHz). Cost ESTIMATE from a "
      "simple model, not a measurement:\n",
      l.name.c_str(), LaunchShape(l).c_str(), soc.name, cores, l.shape.aic ? "AI" : "vector",
      soc.mhz);
  std::printf("  %-7s %16s %14s %16s\n", "pipe", "busy cycles", "busy (us)", "critical path");
  std::ostringstream json;
  json << "{\n  \"kernel\": \"" << JsonEscape(l.name) << "\",\n  \"soc\": \"" << soc.name
       << "\",\n  \"block_dim\": " << l.block_dim << ",\n  \"kernel_type\": \""
       << KernelTypeName(l.kernel_type) << "\",\n  \"cores\": " << cores
       << ",\n  \"mhz\": " << soc.mhz << ",\n  \"estimate\": true,\n  \"cycles\": " << e.cycles
       << ",\n  \"us\": " << e.us << ",\n  \"pipes\": {";
  for (int p = 0; p < kPipes; ++p) {
    const double us = e.busy[p] * waves / soc.mhz;
    std::printf("  %-7s %16.1f %14.3f %16.1f\n", kPipeNames[p], e.busy[p], us, e.path[p]);
    json << (p ? "," : "") << "\n    \"" << kPipeNames[p] << "\": {\"cycles\": " << e.busy[p]
         << ", \"us\": " << us << ", \"critical_path_cycles\": " << e.path[p] << "}";
  }
  std::printf("  time %.1f cycles per block with the pipes overlapping%s: %.3f us; bound by %s\n",
              e.cycles, waves > 1 ? (" x " + std::to_string(int(waves)) + " waves").c_str() : "",
              e.us, kPipeNames[e.bound]);
  json << "\n  },\n  \"bound\": \"" << kPipeNames[e.bound] << "\",\n  \"per_block\": [";
  for (size_t i = 0; i < blocks.size(); ++i) {
    json << (i ? "," : "") << "\n    {\"cycles\": " << blocks[i]->timeline.end;
    for (int p = 0; p < kPipes; ++p)
      json << ", \"" << kPipeNames[p] << "\": " << blocks[i]->cycles[p];
    json << "}";
  }
  json << "\n  ],\n  \"errors\": [";
  for (size_t i = 0; i < l.errors.size(); ++i)
    json << (i ? "," : "") << "\n    \"" << JsonEscape(l.errors[i]) << "\"";
  json << "],\n  \"warnings\": [";
  for (size_t i = 0; i < l.warnings.size(); ++i)
    json << (i ? "," : "") << "\n    \"" << JsonEscape(l.warnings[i]) << "\"";
  json << "]\n}\n";
  // The JSON report and the trace are written only where asked: never into the working
  // folder by default.
  const char* dir = std::getenv("OCANN_ASCENDC_REPORT_DIR");
  if (!dir || !*dir) return;
  const std::string path = std::string(dir) + "/" + l.name + "_cost.json";
  std::ofstream out(path);
  out << json.str();
  if (!out) std::printf("[WARNING] cost report %s could not be written\n", path.c_str());
  WriteTrace(l, blocks, std::string(dir) + "/" + l.name + "_trace.json");
}

// Errors that differ only in the block are printed once, with the blocks listed.
std::vector<std::string> Collapse(const std::vector<std::string>& lines) {
  std::vector<std::string> keys;
  std::map<std::string, std::vector<std::string>> blocks;
  for (const auto& line : lines) {
    std::string key = line, which;
    const size_t at = line.find("[block ");
    if (at != std::string::npos) {
      const size_t close = line.find(']', at);
      which = line.substr(at + 7, close - at - 7);
      key = line.substr(0, at) + "[block *]" + line.substr(close + 1);
    }
    if (!blocks.count(key)) keys.push_back(key);
    blocks[key].push_back(which);
  }
  std::vector<std::string> out;
  for (const auto& key : keys) {
    auto& b = blocks[key];
    std::stable_sort(b.begin(), b.end(), [](const std::string& x, const std::string& y) {
      return std::atoll(x.c_str()) < std::atoll(y.c_str());
    });
    if (b.size() == 1) {
      out.push_back(b[0].empty() ? key
                                 : key.substr(0, key.find("[block *]")) + "[block " + b[0] + "]" +
                                       key.substr(key.find("[block *]") + 9));
      continue;
    }
    std::string list;
    for (size_t i = 0; i < b.size() && i < 8; ++i) list += (i ? ", " : "") + b[i];
    if (b.size() > 8) list += ", ...";
    const size_t at = key.find("[block *]");
    out.push_back(key.substr(0, at) + "[blocks " + list + "]" + key.substr(at + 9) + " (" +
                  std::to_string(b.size()) + " blocks)");
  }
  return out;
}

}  // namespace

void PrintOutcome(LaunchState& l, const std::vector<std::unique_ptr<Block>>& blocks, bool ok) {
  for (const auto& w : Collapse(l.warnings)) std::printf("[WARNING] %s\n", w.c_str());
  for (const auto& e : Collapse(l.errors)) std::printf("[ERROR] %s\n", e.c_str());
  // The cost of a launch that failed says nothing: only launches that ran get one.
  if (ok) Report(l, blocks);
  if (ok)
    std::printf("[SUCCESS] %s: %s exit success\n", l.name.c_str(), LaunchShape(l).c_str());
  else
    std::printf("[FAILED] %s: %zu errors\n", l.name.c_str(), l.errors.size());
  std::fflush(stdout);
}

}  // namespace detail
}  // namespace AscendC
