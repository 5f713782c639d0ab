// MindSpore AIR models (a GE ModelDef with GE operator types), lowered into the IR.
#pragma once

#include <string>

#include "base/status.h"
#include "frontend/frontend.h"
#include "ir/graph.h"

namespace ge::proto {
class GraphDef;  // ge_ir.pb.h, generated into the build folder: its users include it
}  // namespace ge::proto

namespace oc {

Result<Graph> ImportAir(const std::string& path);
Result<Graph> ImportAirBytes(const std::string& bytes, const std::string& name);
// A graph built in memory (atc --singleop's one-op graphs), lowered without a trip through
// bytes; `name` stands for the file in messages.
Result<Graph> ImportAirGraph(const ge::proto::GraphDef& graph, const std::string& name);
Result<std::vector<OpSurvey>> SurveyAir(const std::string& path);

}  // namespace oc
