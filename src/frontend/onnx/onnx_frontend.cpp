#include "frontend/onnx/onnx_frontend.h"

#include "frontend/onnx/onnx_importer.h"

namespace oc {

Frontend OnnxFrontend() {
  Frontend f;
  f.framework = "5";
  f.name = "ONNX";
  f.import = [](const FrontendInput& in) -> Result<Graph> {
    auto graph = ImportOnnxFile(in.model);
    if (graph.ok()) return graph;
    const Status& s = graph.status();
    if (s.code() == StatusCode::kParseError || s.code() == StatusCode::kInvalidArgument)
      return InvalidArgument(
          "Failed to parse the model file [" + in.model + "] as ONNX: " + s.message(), "E19005");
    return s;
  };
  return f;
}

}  // namespace oc
