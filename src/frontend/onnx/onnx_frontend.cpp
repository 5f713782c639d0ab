#include "frontend/onnx/onnx_frontend.h"

#include "frontend/onnx/onnx_importer.h"
#include "ops/op_schema.h"

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
  f.survey = [](const FrontendInput& in) -> Result<std::vector<OpSurvey>> {
    OnnxImportOptions options;
    options.run_checker = false;
    OC_ASSIGN_OR_RETURN(Graph g, ImportOnnxFile(in.model, options));
    std::vector<OpSurvey> out;
    std::function<void(const Graph&)> walk = [&](const Graph& graph) {
      for (const auto& n : graph.nodes) {
        OpSurvey s;
        s.name = n.name;
        s.type = n.domain.empty() ? n.op_type : n.domain + "::" + n.op_type;
        s.supported = OpRegistry::Global().Find(n.domain, n.op_type) != nullptr;
        if (!s.supported) s.reason = "OpenCANN has no " + s.type + " (EZ3003)";
        out.push_back(std::move(s));
        for (const auto& [name, value] : n.attrs.all())
          if (const auto* body = std::get_if<std::shared_ptr<Graph>>(&value)) walk(**body);
      }
    };
    walk(g);
    return out;
  };
  return f;
}

}  // namespace oc
