#include "ops/op_schema.h"

#include <algorithm>
#include <set>

#include "base/log.h"
#include "ops/op_families.h"
#include "ops/symbolic_infer.h"

namespace oc {

Status NoKernelError(const Node& node, const std::string& detail) {
  return Unsupported("No supported Ops kernel and engine are found for [" + node.name +
                         "], optype [" + node.op_type + "]." + (detail.empty() ? "" : " " + detail),
                     "EZ3003");
}

Status InferContext::Error(const std::string& msg) const {
  return ShapeMismatch("node [" + node->name + "] (" + node->op_type + "): " + msg);
}

const ValueInfo& InferContext::in(size_t i) const {
  if (i < inputs.size() && inputs[i]) return *inputs[i];
  static const ValueInfo kAbsent{};
  if (absent_read_ < 0) absent_read_ = static_cast<int>(i);
  return kAbsent;
}

Status RunSchema(const OpSchema& schema, InferContext& ctx) {
  Status s = schema.infer(ctx);
  if (ctx.read_absent_input())
    return InvalidArgument("node [" + ctx.node->name + "] (" + ctx.node->op_type +
                           ") needs input " + std::to_string(ctx.absent_input()) +
                           ", which is omitted");
  return s;
}

Status InferContext::OneValue(size_t i, int64_t* value) const {
  const Tensor* t = constant(i);
  if (!t) return Error("input " + std::to_string(i) + " must hold one value");
  auto v = t->OneInt("input " + std::to_string(i));
  if (!v.ok()) return Error(v.status().message());
  *value = v.value();
  return Status::Ok();
}

OpRegistry::OpRegistry() {
  RegisterElementwiseSchemas(*this);
  RegisterNnSchemas(*this);
  RegisterTensorSchemas(*this);
  RegisterReductionSchemas(*this);
  RegisterMatmulSchemas(*this);
  RegisterIndexingSchemas(*this);
  RegisterLossSchemas(*this);
  RegisterResizeSchemas(*this);
  RegisterMiscSchemas(*this);
  RegisterQuantizeSchemas(*this);
  RegisterRecurrentSchemas(*this);
  RegisterVisionSchemas(*this);
  RegisterTrainingSchemas(*this);
  RegisterSpectralSchemas(*this);
  RegisterControlFlowSchemas(*this);
  RegisterPrecisionSchemas(*this);
  RegisterAippSchemas(*this);
}

OpRegistry& OpRegistry::Global() {
  static OpRegistry registry;
  return registry;
}

void OpRegistry::Register(OpSchema schema) { schemas_.push_back(std::move(schema)); }

void OpRegistry::SetTraits(const std::string& domain, const std::string& op_type, OpTraits traits) {
  for (auto& s : schemas_)
    if (s.op_type == op_type && s.domain == domain) s.traits = std::move(traits);
}

const OpSchema* OpRegistry::Find(const std::string& domain, const std::string& op_type) const {
  const std::string d = domain == "ai.onnx" ? "" : domain;
  for (const auto& s : schemas_)
    if (s.op_type == op_type && s.domain == d) return &s;
  for (const auto& s : schemas_)
    if (s.op_type == op_type && s.domain == kAnyDomain) return &s;
  return nullptr;
}

std::vector<const OpSchema*> OpRegistry::All() const {
  std::vector<const OpSchema*> out;
  for (const auto& s : schemas_) out.push_back(&s);
  return out;
}

Status CheckArity(const OpSchema& schema, const Node& node) {
  int n_in = static_cast<int>(node.inputs.size());
  // A trailing empty name leaves an optional input out; in a variadic list (Loop's states,
  // Concat's parts) every entry counts, and an empty one is refused below.
  if (schema.variadic_inputs)
    n_in = static_cast<int>(std::min(node.OwnInputCount(), node.inputs.size()));
  else
    while (n_in > 0 && node.inputs[n_in - 1].empty()) --n_in;
  if (n_in < schema.min_inputs || n_in > schema.max_inputs)
    return InvalidArgument("node [" + node.name + "] (" + node.op_type + ") has " +
                           std::to_string(n_in) + " inputs, expected " +
                           std::to_string(schema.min_inputs) + " to " +
                           std::to_string(schema.max_inputs));
  // An empty name omits an optional input; the required ones must be there.
  const int required = schema.variadic_inputs ? n_in : schema.min_inputs;
  for (int i = 0; i < required; ++i)
    if (node.inputs[i].empty() && !(i < 32 && (schema.omittable_inputs >> i & 1u)))
      return InvalidArgument("node [" + node.name + "] (" + node.op_type + ") omits input " +
                             std::to_string(i) + ", which the op requires");
  int n_out = static_cast<int>(node.outputs.size());
  if (n_out < schema.min_outputs || n_out > schema.max_outputs)
    return InvalidArgument("node [" + node.name + "] (" + node.op_type + ") has " +
                           std::to_string(n_out) + " outputs, expected " +
                           std::to_string(schema.min_outputs) + " to " +
                           std::to_string(schema.max_outputs));
  // Kernels write the required outputs unconditionally: none may be omitted.
  for (int i = 0; i < schema.min_outputs; ++i)
    if (node.outputs[i].empty())
      return InvalidArgument("node [" + node.name + "] (" + node.op_type + ") omits output " +
                             std::to_string(i) + ", which the op requires");
  return Status::Ok();
}

namespace {

// Output types for a node whose shapes are settled at run time when no stand-in shape fitted
// its schema. Most ops' types do not depend on shapes, so the schema runs once more with every
// non-constant input a scalar, which broadcasts with anything; what it cannot type stays
// undefined. Without this the fallback guessed the first input's type (an Equal over floats
// was "float32"), and the compiler and the loader could guess differently.
std::vector<DataType> TypesFromScalarProbe(const OpSchema& schema, const InferContext& ctx) {
  std::vector<ValueInfo> scalars(ctx.inputs.size());
  InferContext probe = ctx;
  for (size_t i = 0; i < ctx.inputs.size(); ++i)
    if (ctx.inputs[i] && !ctx.const_inputs[i]) {
      scalars[i] = ValueInfo{ctx.inputs[i]->dtype, {}, true};
      probe.inputs[i] = &scalars[i];
    }
  probe.outputs.assign(ctx.outputs.size(), ValueInfo{});
  std::vector<DataType> types(ctx.outputs.size(), DataType::kUndefined);
  if (RunSchema(schema, probe).ok())
    for (size_t i = 0; i < types.size(); ++i) types[i] = probe.outputs[i].dtype;
  return types;
}

}  // namespace

Status InferNode(Graph& graph, const Node& node) {
  const OpSchema* schema = OpRegistry::Global().Find(node.domain, node.op_type);
  if (!schema) return NoKernelError(node);
  OC_RETURN_IF_ERROR(CheckArity(*schema, node));
  int n_in = static_cast<int>(node.inputs.size());
  while (n_in > 0 && node.inputs[n_in - 1].empty()) --n_in;
  // What earlier inference knew of the outputs' symbols and values is redone below.
  for (const auto& o : node.outputs) {
    graph.symbolic.dim_symbols.erase(o);
    graph.symbolic.partial_values.erase(o);
  }
  InferContext ctx;
  ctx.node = &node;
  ctx.opset = graph.opset_version;
  ctx.outputs.resize(node.outputs.size());
  for (size_t i = 0; i < static_cast<size_t>(n_in); ++i) {
    const std::string& in = node.inputs[i];
    if (in.empty()) {
      ctx.inputs.push_back(nullptr);
      ctx.const_inputs.push_back(nullptr);
      continue;
    }
    const ValueInfo* vi = graph.FindValue(in);
    if (!vi || vi->dtype == DataType::kUndefined)
      return Internal("input [" + in + "] of node [" + node.name + "] has no type");
    ctx.inputs.push_back(vi);
    ctx.const_inputs.push_back(graph.FindInitializer(in));
  }
  // Unknown is not zero: an input whose rank is unknown at compile time (a value computed
  // from data, or not folded yet) makes the outputs unknown too, with their types when the
  // schema can tell them; the node is then prepared at run time with the actual shapes.
  // Schemas never see such an input as rank 0.
  std::string shapeless;
  for (size_t i = 0; i < ctx.inputs.size(); ++i)
    if (ctx.inputs[i] && !ctx.inputs[i]->has_shape && !ctx.const_inputs[i]) {
      shapeless = node.inputs[i];
      break;
    }
  if (!shapeless.empty() && !schema->traits.infers_unknown_rank) {
    // The output types: the schema run on stand-ins of a few ranks (all dims 1), so it
    // never sees an unknown rank itself.
    std::vector<ValueInfo> stand_ins(ctx.inputs.size());
    InferContext probe = ctx;
    Status s = Internal("no rank fits");
    for (size_t rank : {4, 3, 2, 1, 5, 0}) {
      for (size_t i = 0; i < ctx.inputs.size(); ++i)
        if (ctx.inputs[i] && !ctx.inputs[i]->has_shape) {
          stand_ins[i] = *ctx.inputs[i];
          stand_ins[i].has_shape = true;
          stand_ins[i].shape.assign(rank, 1);
          probe.inputs[i] = &stand_ins[i];
        }
      probe.outputs.assign(node.outputs.size(), ValueInfo{});
      s = RunSchema(*schema, probe);
      if (s.ok()) break;
    }
    std::vector<DataType> scalar_types;
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      if (node.outputs[i].empty()) continue;
      DataType dtype = s.ok() ? probe.outputs[i].dtype : DataType::kUndefined;
      if (dtype == DataType::kUndefined && !s.ok()) {
        if (scalar_types.empty()) scalar_types = TypesFromScalarProbe(*schema, ctx);
        dtype = scalar_types[i];
      }
      if (dtype == DataType::kUndefined) {
        // No stand-in fitted: keep a type the graph already knew (the model's value_info),
        // else the first input's.
        const ValueInfo* known = graph.FindValue(node.outputs[i]);
        dtype = known && known->dtype != DataType::kUndefined ? known->dtype
                : ctx.inputs[0]                               ? ctx.inputs[0]->dtype
                                                              : DataType::kFloat;
      }
      ValueInfo vi;
      vi.dtype = dtype;
      graph.values[node.outputs[i]] = vi;
      OC_LOG(kDebug, "shape of [" << node.outputs[i] << "] from " << node.op_type << " node ["
                                  << node.name << "] is unknown at compile time (the rank of ["
                                  << shapeless << "] is)");
    }
    return Status::Ok();
  }
  Status inferred = RunSchema(*schema, ctx);
  if (!inferred.ok()) {
    // With unknown dims a schema may find a contradiction that the actual sizes resolve (a
    // -1 against a known size): the node is then settled at run time, where its shapes are
    // known and the same check runs on them.
    bool unknown_dims = false;
    for (size_t i = 0; i < ctx.inputs.size(); ++i)
      if (ctx.inputs[i] && !ctx.const_inputs[i] && !IsStatic(ctx.inputs[i]->shape))
        unknown_dims = true;
    if (!unknown_dims) return inferred;
    std::vector<ValueInfo> stand_ins(ctx.inputs.size());
    InferContext probe = ctx;
    for (size_t i = 0; i < ctx.inputs.size(); ++i)
      if (ctx.inputs[i] && !IsStatic(ctx.inputs[i]->shape)) {
        stand_ins[i] = *ctx.inputs[i];
        for (int64_t& d : stand_ins[i].shape)
          if (d < 0) d = 1;
        probe.inputs[i] = &stand_ins[i];
      }
    probe.outputs.assign(node.outputs.size(), ValueInfo{});
    const bool typed = RunSchema(*schema, probe).ok();
    // A contradiction no size resolves is (almost surely) the model's: say so now, though
    // the node is still settled at run time (the actual sizes decide).
    if (!typed) {
      std::set<int64_t> sizes{2, 3, 4, 8, 16};
      for (const auto* in : ctx.inputs)
        if (in && in->has_shape)
          for (int64_t d : in->shape)
            if (d > 0) sizes.insert(d);
      bool any_fits = false;
      for (int64_t v : sizes) {
        for (size_t i = 0; i < ctx.inputs.size(); ++i)
          if (ctx.inputs[i] && !IsStatic(ctx.inputs[i]->shape)) {
            stand_ins[i] = *ctx.inputs[i];
            for (int64_t& d : stand_ins[i].shape)
              if (d < 0) d = v;
          }
        probe.outputs.assign(node.outputs.size(), ValueInfo{});
        if ((any_fits = RunSchema(*schema, probe).ok())) break;
      }
      if (!any_fits)
        OC_LOG(kWarning, "node [" << node.name << "] (" << node.op_type
                                  << ") fits none of the sizes tried for its unknown dims, and "
                                     "will fail at run time unless the actual sizes fit: "
                                  << inferred.message());
    }
    const std::vector<DataType> scalar_types =
        typed ? std::vector<DataType>{} : TypesFromScalarProbe(*schema, ctx);
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      if (node.outputs[i].empty()) continue;
      ValueInfo vi;
      vi.dtype = typed ? probe.outputs[i].dtype : scalar_types[i];
      if (vi.dtype == DataType::kUndefined)
        vi.dtype = ctx.inputs[0] ? ctx.inputs[0]->dtype : DataType::kFloat;
      graph.values[node.outputs[i]] = vi;
    }
    OC_LOG(kDebug, "node [" << node.name << "] (" << node.op_type << "): " << inferred.message()
                            << " with unknown dims; settled at run time");
    return Status::Ok();
  }
  // Symbols and partly known values settle what the schema alone leaves unknown.
  RefineWithSymbols(graph, node, *schema, ctx);
  // A size no machine holds is refused here, before anything allocates or multiplies it.
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    const ValueInfo& o = ctx.outputs[i];
    if (node.outputs[i].empty() || !o.has_shape || !IsStatic(o.shape)) continue;
    auto bytes = TensorBytes(o.shape, DataTypeSize(o.dtype));
    if (!bytes.ok())
      return InvalidArgument("node [" + node.name + "] (" + node.op_type + "): output [" +
                             node.outputs[i] + "]: " + bytes.status().message());
  }
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    if (node.outputs[i].empty()) continue;
    graph.values[node.outputs[i]] = ctx.outputs[i];
    if (!ctx.outputs[i].has_shape)
      OC_LOG(kDebug, "shape of [" << node.outputs[i] << "] from " << node.op_type << " node ["
                                  << node.name << "] is unknown at compile time");
  }
  PropagateShapeValue(graph, node);
  return Status::Ok();
}

}  // namespace oc
