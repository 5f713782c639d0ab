#include <algorithm>
#include <sstream>

#include "compiler/compiler.h"

namespace oc {

Result<std::vector<InputShapeSpec>> ParseInputShapes(const std::string& text) {
  std::vector<InputShapeSpec> out;
  auto bad = [&](const std::string& why) {
    return InvalidArgument("Value [" + text +
                               "] for parameter [--input_shape] is invalid. Reason: " + why +
                               ". Expected format: \"name1:n,c,h,w;name2:n,c\".",
                           "E10002");
  };
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ';')) {
    if (item.empty()) continue;
    auto colon = item.rfind(':');
    if (colon == std::string::npos || colon == 0)
      return bad("[" + item + "] has no \"name:\" part");
    InputShapeSpec spec;
    spec.name = item.substr(0, colon);
    std::string dims = item.substr(colon + 1);
    std::stringstream ds(dims);
    std::string d;
    bool has_range = false;
    auto number = [&](const std::string& t, int64_t* v) -> Status {
      size_t pos = 0;
      try {
        *v = std::stoll(t, &pos);
      } catch (...) {
        pos = 0;
      }
      if (t.empty() || pos != t.size()) return bad("dimension [" + t + "] is not a number");
      return Status::Ok();
    };
    while (std::getline(ds, d, ',')) {
      if (d.empty()) return bad("empty dimension in [" + item + "]");
      DimRange range;
      int64_t v = 0;
      if (auto tilde = d.find('~'); tilde != std::string::npos) {
        // A range "lo~hi" (hi -1: unbounded) makes the dim dynamic.
        OC_RETURN_IF_ERROR(number(d.substr(0, tilde), &range.min));
        OC_RETURN_IF_ERROR(number(d.substr(tilde + 1), &range.max));
        if (range.min < 0 || (range.max != -1 && range.max < range.min) || range.max < -1)
          return bad("range [" + d + "] must be \"lo~hi\" with 0 <= lo <= hi (hi -1: no bound)");
        has_range = true;
        v = range.min == range.max ? range.min : -1;
      } else {
        OC_RETURN_IF_ERROR(number(d, &v));
        // 0 is a valid (empty) dimension in ONNX; below -1 is not.
        if (v < -1)
          return InvalidArgument("Value [" + d + "] in [--input_shape] for input [" + spec.name +
                                     "] is invalid: shape values must be 0 or more (or -1 for a "
                                     "dynamic dimension).",
                                 "E10011");
        range = v < 0 ? DimRange{0, -1} : DimRange{v, v};
      }
      spec.dims.push_back(v);
      spec.ranges.push_back(range);
    }
    if (!has_range) spec.ranges.clear();
    for (const auto& prev : out)
      if (prev.name == spec.name) return bad("input [" + spec.name + "] is given twice");
    out.push_back(std::move(spec));
  }
  if (out.empty()) return bad("no input shapes");
  return out;
}

namespace {

// The shapes the model declares for values past its inputs (ONNX value_info, outputs) hold
// for the shapes it was exported with; inference computes them again from the new ones.
void ForgetDeclaredShapes(Graph& graph) {
  for (auto& [name, vi] : graph.values) {
    if (graph.IsInitializer(name) ||
        std::find(graph.inputs.begin(), graph.inputs.end(), name) != graph.inputs.end())
      continue;
    vi.has_shape = false;
    vi.shape.clear();
  }
}

}  // namespace

Status ApplyInputShapes(Graph& graph, const std::vector<InputShapeSpec>& shapes,
                        std::vector<std::string>* overridden) {
  for (const auto& spec : shapes) {
    bool is_input = false;
    for (const auto& in : graph.inputs) is_input |= in == spec.name;
    if (!is_input) {
      std::string names;
      for (const auto& in : graph.inputs) names += (names.empty() ? "" : ", ") + in;
      return NotFound("Input [" + spec.name +
                          "] given in [--input_shape] is not found in the "
                          "model. The model's inputs are: " +
                          names + ".",
                      "E10016");
    }
    ValueInfo& vi = graph.values[spec.name];
    if (vi.has_shape) {
      if (vi.shape.size() != spec.dims.size())
        return InvalidArgument("Value [" + ShapeToString(spec.dims) + "] for input [" + spec.name +
                                   "] in [--input_shape] is invalid. Reason: the model's input has "
                                   "rank " +
                                   std::to_string(vi.shape.size()) + " (shape " +
                                   ShapeToString(vi.shape) + ").",
                               "E10001");
      // A dim the model fixes may be set to another value, as CANN's atc allows (a guide
      // exports at batch 16 and converts at 64): the graph is inferred again from the new
      // shape, and a node that cannot take it is refused by name.
      bool fixed_changed = false;
      for (size_t i = 0; i < vi.shape.size(); ++i)
        fixed_changed |= vi.shape[i] >= 0 && spec.dims[i] >= 0 && vi.shape[i] != spec.dims[i];
      if (fixed_changed && overridden)
        overridden->push_back(spec.name + ": " + ShapeToString(vi.shape) + " -> " +
                              ShapeToString(spec.dims));
      if (vi.shape != spec.dims) ForgetDeclaredShapes(graph);
    }
    vi.shape = spec.dims;
    vi.has_shape = true;
  }
  return Status::Ok();
}

}  // namespace oc
