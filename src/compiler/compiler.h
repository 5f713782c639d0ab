// The graph compiler behind atc: input shapes, the pass pipeline and memory planning.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "base/status.h"
#include "compiler/precision.h"
#include "ir/graph.h"
#include "ir/memory_planner.h"

namespace oc {

struct DimRange {
  int64_t min = 0, max = -1;  // max -1: no upper bound
};

struct InputShapeSpec {
  std::string name;
  Shape dims;                    // -1 for a dynamic dim (given as -1 or as a range)
  std::vector<DimRange> ranges;  // per dim when any dim was given as "lo~hi", else empty
};

// Parses atc's --input_shape ("a:1,3,224,224;b:-1,128;c:1~16,8"). Errors carry E10002.
Result<std::vector<InputShapeSpec>> ParseInputShapes(const std::string& text);

// atc's gear options: --dynamic_batch_size, --dynamic_image_size, --dynamic_dims.
enum class GearKind { kBatch, kImageSize, kDims };
struct GearSpec {
  GearKind kind = GearKind::kBatch;
  std::vector<std::vector<int64_t>> gears;  // per gear: the values of the -1 dims
};
const char* GearKindName(GearKind kind);  // "batch", "image_size", "dims"
// Parses the one gear option given (null = not given); E10009 when several are.
Result<GearSpec> ParseGearOption(const std::string* batch, const std::string* image_size,
                                 const std::string* dims);
// Per gear, the input shapes with every -1 dim set to the gear's value. Checks that the -1
// dims are where the option puts them (N; H and W of input_format; any with dims).
Result<std::vector<std::vector<InputShapeSpec>>> ExpandGears(
    const std::vector<InputShapeSpec>& shapes, const GearSpec& spec,
    const std::string& input_format);
// Applies shapes to the graph inputs; names must exist (E10016), ranks must agree with the
// model (E10001). Static dims may differ, as CANN allows: what the model declares past its
// inputs is then forgotten, for inference to compute again.
// `overridden` (may be null) receives "name: [model dims] -> [given dims]" for each input
// whose static dims the shapes change.
Status ApplyInputShapes(Graph& graph, const std::vector<InputShapeSpec>& shapes,
                        std::vector<std::string>* overridden = nullptr);

struct CompileOptions {
  // The backends the model may run on, in order of preference: folding evaluates on them,
  // and every node must be supported by one (EZ3003). Empty = BackendRegistry's order.
  std::vector<const Backend*> backends;
  std::string soc_version;                // --soc_version: custom ops tile for this chip
  std::set<std::string> disabled_passes;  // from --fusion_switch_file
  bool reuse_memory = true;               // --disable_reuse_memory=0
  bool dynamic_inputs = false;            // -1 or ranges in --input_shape: keep them dynamic
  PrecisionOptions precision;             // --precision_mode and its refinements
};

struct CompiledGraph {
  Graph graph;
  MemoryPlan plan;
  std::vector<std::string> pass_log;         // "pass: changed" lines for --log=info
  std::vector<std::string> precision_table;  // "node (type): dtype" per float op
  // The nodes prepared at run time (their shapes or the values they need are only known
  // then), with why: a static-shape model has none unless shapes depend on input values.
  std::vector<std::string> runtime_prepared;
};

Result<CompiledGraph> CompileGraph(Graph graph, const CompileOptions& options);

// A model stored in float16 (or bfloat16) computes as the NPU computes that type: its 16-bit
// float initializers and values become float32 holding such values, each node that wrote
// one computes "in float16" / "in bfloat16" through the precision emulation (`precision`
// gets it, as --customize_dtypes would: 16-bit inputs, fp32 accumulation, the result
// rounded), and 16-bit graph inputs and outputs keep their type with a Cast inside. Needs
// the types inferred.
bool HasFloat16(const Graph& graph);
Status WidenFloat16(Graph& graph, PrecisionOptions* precision);

// Checks that PlaceGraph can place every node on `backends` (EZ3003 naming the node when
// none supports it) and prepares each kernel once so that errors surface at conversion.
// Nothing is recorded: the runtime places the model at load on the application's backends.
// `runtime_prepared` collects why each node left to the runtime is.
Status CheckKernels(const Graph& graph, const std::vector<const Backend*>& backends,
                    const std::string& soc_version = "",
                    std::vector<std::string>* runtime_prepared = nullptr);

// Names of the passes in pipeline order (for --fusion_switch_file and docs).
std::vector<std::string> PipelinePassNames();

}  // namespace oc
