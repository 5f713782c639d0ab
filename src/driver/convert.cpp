#include "driver/convert.h"

#include <algorithm>
#include <fstream>
#include <set>

#include "base/file.h"
#include "base/log.h"
#include "driver/aipp.h"
#include "driver/model_io.h"
#include "frontend/frontend.h"
#include "ir/internal_attrs.h"
#include "opp/opp_loader.h"

namespace oc {
namespace {

Status InvalidFlag(const std::string& value, const std::string& param, const std::string& reason) {
  return InvalidArgument(
      "Value [" + value + "] for parameter [--" + param + "] is invalid. Reason: " + reason,
      "E10001");
}

// One compiled graph per gear, each with the gear selector input CANN adds. AIPP goes in
// after the gear's shapes are set: its image input takes the gear's batch or size.
Result<std::vector<OmGraph>> CompileGears(const Graph& graph, const ConvertOptions& o,
                                          const std::vector<AippConfig>& aipp) {
  OC_ASSIGN_OR_RETURN(auto per_gear, ExpandGears(o.shapes, *o.gears, o.input_format));
  AippPlacement where;
  where.nhwc = o.input_format == "NHWC";
  where.image_size_gears = o.gears->kind == GearKind::kImageSize;
  if (o.gears->kind == GearKind::kBatch)
    for (const auto& gear : o.gears->gears)
      where.dynamic_params_batch = std::max(where.dynamic_params_batch, gear[0]);
  std::vector<OmGraph> graphs;
  for (size_t k = 0; k < per_gear.size(); ++k) {
    Graph g = graph;
    OC_RETURN_IF_ERROR(ApplyInputShapes(g, per_gear[k]));
    if (!aipp.empty()) {
      Status s = ApplyAipp(g, aipp, where);
      if (!s.ok()) return s.WithContext("gear " + ShapeToString(o.gears->gears[k]));
    }
    auto compiled = CompileGraph(std::move(g), o.compile);
    if (!compiled.ok())
      return compiled.status().WithContext("gear " + ShapeToString(o.gears->gears[k]));
    OmGraph og{std::move(compiled->graph), std::move(compiled->plan), o.gears->gears[k]};
    // int64 values the application sets with aclmdlSetDynamicBatchSize / SetDynamicHWSize /
    // SetInputDynamicDims.
    og.graph.inputs.push_back(kDynamicGearInput);
    og.graph.values[kDynamicGearInput] =
        ValueInfo{DataType::kInt64, Shape{static_cast<int64_t>(o.gears->gears[k].size())}, true};
    graphs.push_back(std::move(og));
  }
  return graphs;
}

}  // namespace

Result<Graph> ImportModel(const ConvertOptions& options) {
  const Frontend* frontend = FrontendRegistry::Global().Find(options.framework);
  if (!frontend) {
    std::string have;
    for (const auto& f : FrontendRegistry::Global().All())
      have += (have.empty() ? "" : ", ") + f.framework + " (" + f.name + ")";
    return InvalidFlag(options.framework, "framework",
                       "this OpenCANN build converts --framework=" + have +
                           "; export the model to ONNX first (torch.onnx.export, tf2onnx, "
                           "mindspore.export(file_format='ONNX')).");
  }
  const std::string& model = options.model;
  if (!FileExists(model))
    return InvalidFlag(model, "model", "the file does not exist or cannot be read.");
  if (IsDirectory(model))
    return InvalidFlag(model, "model", "it is a directory, not a model file.");
  if (!IsRegularFile(model))
    return InvalidFlag(model, "model", "it is not a regular file (a FIFO, socket or device).");
  if (!std::ifstream(model, std::ios::binary))
    return InvalidFlag(model, "model", "the file does not exist or cannot be read.");
  if (frontend->needs_weight && options.weight.empty())
    return InvalidArgument("Input parameter[--weight]'s value is empty when framework is " +
                               options.framework + "(" + frontend->name + ").",
                           "E10008");
  auto graph = frontend->import({model, options.weight});
  if (!graph.ok() && graph.status().code() == StatusCode::kNotFound)
    return InvalidFlag(model, "model",
                       "the file does not exist or cannot be read: " + graph.status().message());
  return graph;
}

Result<std::vector<OpSurvey>> SurveyModel(const ConvertOptions& o) {
  const Frontend* frontend = FrontendRegistry::Global().Find(o.framework);
  if (!frontend || !frontend->survey || !IsRegularFile(o.model))
    return InvalidArgument("no survey for this model");
  return frontend->survey({o.model, o.weight});
}

Result<Conversion> Convert(const ConvertOptions& o) {
  // Custom ops of the packages on ASCEND_CUSTOM_OPP_PATH (msopgen projects).
  OC_RETURN_IF_ERROR(LoadCustomOpPackages());
  OC_ASSIGN_OR_RETURN(Graph graph, ImportModel(o));
  return ConvertGraph(std::move(graph), o);
}

Result<Conversion> ConvertGraph(Graph graph, const ConvertOptions& o) {
  // Node names in --keep_dtype / --customize_dtypes that the model lacks would do nothing.
  std::vector<std::string> warnings;
  {
    std::set<std::string> names;
    for (const auto& n : graph.nodes) names.insert(n.name);
    const auto& p = o.compile.precision;
    for (const auto* list : {&p.keep_nodes})
      for (const auto& k : *list)
        if (!names.count(k))
          warnings.push_back("--keep_dtype: the model has no node named [" + k + "]; ignored");
    for (const auto& [k, dt] : p.custom_nodes)
      if (!names.count(k))
        warnings.push_back("--customize_dtypes: the model has no node named [" + k + "]; ignored");
    for (const auto& k : o.precision_node_names)
      if (!names.count(k))
        warnings.push_back("--op_precision_mode: the model has no node named [" + k + "]; ignored");
    warnings.insert(warnings.end(), o.option_warnings.begin(), o.option_warnings.end());
  }
  if (!o.out_nodes.empty()) OC_RETURN_IF_ERROR(ApplyOutNodes(graph, o.out_nodes));
  if (!o.input_fp16_nodes.empty())
    OC_RETURN_IF_ERROR(ApplyInputFp16Nodes(graph, o.input_fp16_nodes));
  if (!o.output_type.empty()) OC_RETURN_IF_ERROR(ApplyOutputType(graph, o.output_type));
  // The shapes as given (with -1) are checked against the model first, so errors name the
  // user's text rather than one gear's.
  std::vector<std::string> overridden;
  OC_RETURN_IF_ERROR(ApplyInputShapes(graph, o.shapes, &overridden));
  // A node that cannot take a shape --input_shape set over the model's own is the flag's
  // failure, reported as such with the node's reason.
  auto blame_shapes = [&](const Status& s) {
    if (s.ok() || overridden.empty()) return s;
    std::string what;
    for (const auto& e : overridden) what += (what.empty() ? "" : "; ") + e;
    return InvalidArgument("Value [" + what +
                               "] for parameter [--input_shape] is invalid. "
                               "Reason: the model does not take the new shape: " +
                               s.message(),
                           "E10001");
  };
  std::string aipp_inputs;  // recorded in the .om: those inputs are NHWC images
  std::vector<AippConfig> aipp;
  if (!o.insert_op_conf.empty()) {
    if (o.gears && o.gears->kind == GearKind::kDims)
      return InvalidArgument(
          "Parameters [--insert_op_conf] and [--dynamic_dims] cannot be used together.", "E10001");
    auto text = ReadFile(o.insert_op_conf);
    if (!text.ok())
      return InvalidArgument("Value [" + o.insert_op_conf +
                                 "] for parameter [--insert_op_conf] is invalid. Reason: the file "
                                 "cannot be read.",
                             "E10001");
    OC_ASSIGN_OR_RETURN(aipp, ParseAippConfig(text.value()));
    for (const auto& cfg : aipp)
      if (cfg.related_input_rank < static_cast<int>(graph.inputs.size()))
        aipp_inputs += (aipp_inputs.empty() ? "" : ",") + graph.inputs[cfg.related_input_rank];
    // With gears each gear's graph gets its AIPP (CompileGears).
    if (!o.gears) {
      AippPlacement where;
      where.nhwc = o.input_format == "NHWC";
      OC_RETURN_IF_ERROR(ApplyAipp(graph, aipp, where));
    }
  }
  Conversion c;
  c.warnings = std::move(warnings);
  for (const auto& spec : o.shapes) {
    if (IsStatic(spec.dims)) continue;
    OmDynamicInput d;
    d.dims = spec.dims;
    for (const auto& r : spec.ranges) d.ranges.emplace_back(r.min, r.max);
    c.write.dynamic_inputs[spec.name] = std::move(d);
  }
  CompileOptions compile = o.compile;
  compile.soc_version = o.soc_version;
  if (compile.backends.empty()) {
    OC_ASSIGN_OR_RETURN(compile.backends, BackendRegistry::Global().Order());
  }
  if (o.gears) {
    ConvertOptions with_soc = o;
    with_soc.compile = compile;
    auto gears = CompileGears(graph, with_soc, aipp);
    if (!gears.ok()) return blame_shapes(gears.status());
    c.graphs = std::move(gears).value();
    // What the application sees of an AIPP image input (NHWC uint8, not the --input_shape
    // it replaced): the dims all gears agree on, -1 where they differ.
    const Graph& first = c.graphs.front().graph;
    for (const auto& cfg : aipp) {
      if (cfg.related_input_rank >= static_cast<int>(first.inputs.size())) continue;
      const std::string& in = first.inputs[cfg.related_input_rank];
      c.write.dynamic_inputs.erase(in);
      auto it = first.values.find(in);
      if (it == first.values.end() || !it->second.has_shape) continue;
      Shape dims = it->second.shape;
      bool varies = false;
      for (const auto& og : c.graphs) {
        auto v = og.graph.values.find(in);
        if (v == og.graph.values.end() || v->second.shape.size() != dims.size()) continue;
        for (size_t d = 0; d < dims.size(); ++d)
          if (v->second.shape[d] != dims[d]) dims[d] = -1, varies = true;
      }
      if (varies) c.write.dynamic_inputs[in].dims = dims;
    }
    c.write.model_attrs[kDynamicModeAttr] = GearKindName(o.gears->kind);
  } else {
    for (const auto& spec : o.shapes) compile.dynamic_inputs |= !IsStatic(spec.dims);
    auto compiled_or = CompileGraph(std::move(graph), compile);
    if (!compiled_or.ok()) return blame_shapes(compiled_or.status());
    CompiledGraph compiled = std::move(compiled_or).value();
    for (const auto& line : compiled.pass_log) OC_LOG(kInfo, "pass " << line);
    for (const auto& line : compiled.precision_table) OC_LOG(kInfo, "dtype " << line);
    OC_LOG(kInfo, compiled.runtime_prepared.size()
                      << " of " << compiled.graph.nodes.size() << " steps are prepared at run time"
                      << (compiled.runtime_prepared.empty() ? "" : ":"));
    for (const auto& line : compiled.runtime_prepared)
      OC_LOG(kInfo, "  run-time prepared: " << line);
    c.pass_log = compiled.pass_log;
    c.precision_table = compiled.precision_table;
    c.graphs.push_back(OmGraph{std::move(compiled.graph), std::move(compiled.plan), {}});
  }
  c.write.soc_version = o.soc_version;
  c.write.input_format = o.input_format;
  if (!o.command_line.empty()) c.write.model_attrs["atc_cmdline"] = o.command_line;
  c.write.model_attrs["framework_type"] = o.framework;
  if (!aipp_inputs.empty()) c.write.model_attrs[kAippInputsAttr] = aipp_inputs;
  c.write.model_attrs["input_format"] = o.input_format;
  if (!o.npu_options.empty()) c.write.model_attrs["npu_options"] = o.npu_options;
  // What the model computes in: the mode given, or the CPU default (the model's dtypes).
  c.write.model_attrs["precision_mode"] =
      o.compile.precision.name.empty() ? "must_keep_origin_dtype" : o.compile.precision.name;
  // A model with values sized at run time is a dynamic ("unknown shape") model.
  for (const auto& og : c.graphs)
    for (const auto& [name, vi] : og.graph.values)
      if (!vi.has_shape || !IsStatic(vi.shape)) c.write.dynamic = true;
  return c;
}

Status ConvertToOmFile(const ConvertOptions& options, const std::string& om_path,
                       std::vector<std::string>* warnings,
                       const std::function<Status(const std::string& written)>& check) {
  OC_ASSIGN_OR_RETURN(Conversion c, Convert(options));
  if (warnings) *warnings = c.warnings;
  // The model is named after the output file, as CANN names it (dump_list's model_name).
  std::string model_name = om_path.substr(om_path.find_last_of('/') + 1);
  if (model_name.size() > 3 && model_name.compare(model_name.size() - 3, 3, ".om") == 0)
    model_name.resize(model_name.size() - 3);
  for (auto& og : c.graphs) og.graph.name = model_name;
  OC_ASSIGN_OR_RETURN(std::string bytes, SerializeOm(c.graphs, c.write));
  return WriteFileAtomic(om_path, bytes, check);
}

}  // namespace oc
