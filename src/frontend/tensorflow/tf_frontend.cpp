#include "frontend/tensorflow/tf_frontend.h"

#include "frontend/tensorflow/tf_importer.h"

namespace oc {

Frontend TensorFlowFrontend() {
  Frontend f;
  f.framework = "3";
  f.name = "TensorFlow";
  f.import = [](const FrontendInput& in) -> Result<Graph> {
    auto graph = ImportTensorFlow(in.model);
    if (!graph.ok()) return graph.status().WithContext("model [" + in.model + "]");
    return graph;
  };
  f.survey = [](const FrontendInput& in) { return SurveyTensorFlow(in.model); };
  return f;
}

}  // namespace oc
