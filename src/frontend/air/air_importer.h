// MindSpore AIR models (a GE ModelDef with GE operator types), lowered into the IR.
#pragma once

#include <string>

#include "base/status.h"
#include "frontend/frontend.h"
#include "ir/graph.h"

namespace oc {

Result<Graph> ImportAir(const std::string& path);
Result<Graph> ImportAirBytes(const std::string& bytes, const std::string& name);
Result<std::vector<OpSurvey>> SurveyAir(const std::string& path);

}  // namespace oc
