// Reading and writing the IR as an .om model.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/file.h"
#include "base/status.h"
#include "ir/graph.h"
#include "ir/memory_planner.h"

namespace oc {

// The extra input of a model compiled with gears (CANN's ACL_DYNAMIC_TENSOR_NAME): int64
// values that select the gear (batch; h,w; or the dynamic dims in order).
inline constexpr const char* kDynamicGearInput = "ascend_mbatch_shape_data";

// Model attribute naming the kind of gears: "batch", "image_size" or "dims".
inline constexpr const char* kDynamicModeAttr = "_oc_dynamic_mode";

// An input with dynamic dims, as the application sees it (stored on the Data ops).
struct OmDynamicInput {
  Shape dims;  // -1 where a gear or the execution decides
  // Fully dynamic models: the allowed [min, max] of each dim (max -1: no bound); empty
  // when any size is allowed.
  std::vector<std::pair<int64_t, int64_t>> ranges;
};

// One compiled graph with its memory plan. A static or fully dynamic model has one; a
// model with gears has one per gear (sharing weights in the file).
struct OmGraph {
  Graph graph;
  MemoryPlan plan;            // activations only: kernel workspace depends on the machine that runs
                              // the model (threads, ISA), so the runtime sizes it at load
  std::vector<int64_t> gear;  // the gear values this graph serves; empty without gears
};

struct OmWriteOptions {
  std::string soc_version = "Ascend910B3";
  std::string input_format = "NCHW";
  std::map<std::string, std::string> model_attrs;        // atc_cmdline, precision_mode, ...
  std::map<std::string, OmDynamicInput> dynamic_inputs;  // by input name
  bool dynamic = false;
};

// Serialises compiled graphs and their memory plans; writes atomically. Identical constants
// of different graphs are stored once.
Status WriteOmFile(const std::vector<OmGraph>& graphs, const OmWriteOptions& options,
                   const std::string& path);
Result<std::string> SerializeOm(const std::vector<OmGraph>& graphs, const OmWriteOptions& options);
// One graph, the common case.
Result<std::string> SerializeOm(const Graph& graph, const MemoryPlan& plan,
                                const OmWriteOptions& options);

// A loaded .om: the graphs (constants point into the mapped file) and the model's facts.
struct OmModel {
  std::shared_ptr<MappedFile> file;
  std::vector<OmGraph> graphs;               // at least one
  std::map<std::string, std::string> attrs;  // model attributes as strings
  std::string name;
  size_t weight_bytes = 0;
  const uint8_t* weights = nullptr;                      // the WEIGHTS_DATA partition inside `file`
  std::map<std::string, OmDynamicInput> dynamic_inputs;  // by input name

  const Graph& graph() const { return graphs.front().graph; }
};

Result<OmModel> LoadOm(std::shared_ptr<MappedFile> file);
Result<OmModel> LoadOmFile(const std::string& path);

// atc --mode=1: the ModelDef as GE-style JSON.
Result<std::string> OmToJson(const std::string& path);
// A source model's graph (as a frontend imported it) in the same GE JSON form.
Result<std::string> GraphToJson(const Graph& graph);
// atc --mode=6: human-readable summary.
Result<std::string> OmInfo(const std::string& path);

}  // namespace oc
