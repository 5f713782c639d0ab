#include "frontend/caffe/caffe_frontend.h"

#include "base/file.h"
#include "frontend/caffe/caffe_importer.h"

namespace oc {

Frontend CaffeFrontend() {
  Frontend f;
  f.framework = "0";
  f.name = "Caffe";
  f.needs_weight = true;
  f.import = [](const FrontendInput& in) -> Result<Graph> {
    if (!IsRegularFile(in.weight))
      return InvalidArgument("Value [" + in.weight +
                                 "] for parameter [--weight] is invalid. Reason: the file does "
                                 "not exist or is not a regular file.",
                             "E10001");
    auto graph = ImportCaffe(in.model, in.weight);
    if (!graph.ok()) return graph.status().WithContext("model [" + in.model + "]");
    return graph;
  };
  f.survey = [](const FrontendInput& in) { return SurveyCaffe(in.model); };
  return f;
}

}  // namespace oc
