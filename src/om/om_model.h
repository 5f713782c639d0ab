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
// Model attribute: the inputs as the application sees them, "-1" for dims set per gear
// ("x:-1,3,224,224;y:..."), in model input order.
inline constexpr const char* kDynamicInputsAttr = "_oc_dynamic_inputs";
// Model attribute of fully dynamic models: per input the allowed range of each dim
// ("x:1~16,3,224,224"; "-1" = no bound).
inline constexpr const char* kShapeRangeAttr = "_oc_shape_range";

// One compiled graph with its memory plan. A static or fully dynamic model has one; a
// model with gears has one per gear (sharing weights in the file).
struct OmGraph {
  Graph graph;
  MemoryPlan plan;
  size_t workspace_size = 0;
  std::vector<int64_t> gear;  // the gear values this graph serves; empty without gears
};

struct OmWriteOptions {
  std::string soc_version = "Ascend910B3";
  std::string input_format = "NCHW";
  std::map<std::string, std::string> model_attrs;  // atc_cmdline, precision_mode, ...
  bool dynamic = false;
};

// Serialises compiled graphs and their memory plans; writes atomically. Identical constants
// of different graphs are stored once.
Status WriteOmFile(const std::vector<OmGraph>& graphs, const OmWriteOptions& options,
                   const std::string& path);
Result<std::string> SerializeOm(const std::vector<OmGraph>& graphs, const OmWriteOptions& options);
// One graph, the common case.
Result<std::string> SerializeOm(const Graph& graph, const MemoryPlan& plan,
                                const OmWriteOptions& options, size_t workspace_size = 0);

// A loaded .om: the graphs (constants point into the mapped file) and the model's facts.
struct OmModel {
  std::shared_ptr<MappedFile> file;
  std::vector<OmGraph> graphs;               // at least one
  std::map<std::string, std::string> attrs;  // model attributes as strings
  std::string name;
  size_t weight_bytes = 0;
  const uint8_t* weights = nullptr;  // the WEIGHTS_DATA partition inside `file`

  const Graph& graph() const { return graphs.front().graph; }
  // Work memory the largest graph needs (arena + kernel workspace).
  size_t work_size() const;
};

Result<OmModel> LoadOm(std::shared_ptr<MappedFile> file);
Result<OmModel> LoadOmFile(const std::string& path);

// atc --mode=1: the ModelDef as GE-style JSON.
Result<std::string> OmToJson(const std::string& path);
// atc --mode=6: human-readable summary.
Result<std::string> OmInfo(const std::string& path);

}  // namespace oc
