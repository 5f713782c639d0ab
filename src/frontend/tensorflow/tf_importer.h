// TensorFlow frozen inference graphs (a GraphDef .pb with the variables folded into Const
// nodes), lowered into the IR. Layouts stay as the model has them (NHWC by default).
#pragma once

#include <string>

#include "base/status.h"
#include "frontend/frontend.h"
#include "ir/graph.h"

namespace oc {

Result<Graph> ImportTensorFlow(const std::string& path);
Result<Graph> ImportTensorFlowBytes(const std::string& bytes, const std::string& name);
// Every node and whether a converter exists for its op.
Result<std::vector<OpSurvey>> SurveyTensorFlow(const std::string& path);

}  // namespace oc
