#include "frontend/air/air_frontend.h"

#include "frontend/air/air_importer.h"

namespace oc {

Frontend AirFrontend() {
  Frontend f;
  f.framework = "1";
  f.name = "MindSpore";
  f.import = [](const FrontendInput& in) -> Result<Graph> {
    auto graph = ImportAir(in.model);
    if (!graph.ok()) return graph.status().WithContext("model [" + in.model + "]");
    return graph;
  };
  f.survey = [](const FrontendInput& in) { return SurveyAir(in.model); };
  return f;
}

}  // namespace oc
