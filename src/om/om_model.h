// Reading and writing the IR as an .om model.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "base/file.h"
#include "base/status.h"
#include "ir/graph.h"
#include "ir/memory_planner.h"

namespace oc {

struct OmWriteOptions {
  std::string soc_version = "Ascend910B3";
  std::string input_format = "NCHW";
  std::map<std::string, std::string> model_attrs;  // atc_cmdline, precision_mode, ...
  bool dynamic = false;
};

// Serialises the compiled graph and its memory plan; writes atomically.
Status WriteOmFile(const Graph& graph, const MemoryPlan& plan, const OmWriteOptions& options,
                   const std::string& path);
Result<std::string> SerializeOm(const Graph& graph, const MemoryPlan& plan,
                                const OmWriteOptions& options);

// A loaded .om: the graph (constants point into the mapped file) and its facts.
struct OmModel {
  std::shared_ptr<MappedFile> file;
  Graph graph;
  MemoryPlan plan;
  std::map<std::string, std::string> attrs;  // model attributes as strings
  std::string name;
  size_t weight_bytes = 0;
};

Result<OmModel> LoadOm(std::shared_ptr<MappedFile> file);
Result<OmModel> LoadOmFile(const std::string& path);

// atc --mode=1: the ModelDef as GE-style JSON.
Result<std::string> OmToJson(const std::string& path);
// atc --mode=6: human-readable summary.
Result<std::string> OmInfo(const std::string& path);

}  // namespace oc
