// Applies --precision_mode as an NPU computes it: each float op is given the dtype it runs
// in (node attribute _oc_dtype, shown by atc --mode=1 and --log=info), and the values are
// made to hold exactly what fp16/bf16 storage would hold: constants read by low-precision
// ops are rounded here, other inputs from fp32 producers and the outputs of low-precision
// ops pass through oc.RoundTo. A cube op (Conv, MatMul, Gemm, ...) then multiplies fp16
// values with fp32 accumulation and is rounded once; a vector op computes in fp32 from
// fp16 inputs and its result is rounded (round to nearest even). Runs after the fusions:
// a fused node rounds once, as a fused NPU kernel does.
#include <algorithm>
#include <map>

#include "base/half.h"
#include "compiler/pass.h"
#include "compiler/precision.h"
#include "ir/internal_attrs.h"
#include "ops/op_schema.h"

namespace oc {
namespace {

enum class Dt { kFp32, kFp16, kBf16 };

const char* DtName(Dt d) {
  return d == Dt::kFp16 ? "float16" : d == Dt::kBf16 ? "bfloat16" : "float32";
}

bool IsCube(const Node& n) {
  static const std::set<std::string> kCube = {"Conv", "ConvTranspose", "MatMul", "Gemm", "Einsum"};
  return (n.domain.empty() || n.domain == kOcDomain) && kCube.count(n.op_type);
}

// Outputs are a selection of input values (or exact functions of them): fp16 inputs give
// fp16 outputs, so no rounding is needed after them.
bool PreservesValues(const Node& n) {
  // AIPP rounds its own result to fp16, as the NPU's AIPP writes fp16.
  if (n.domain == kOcDomain && n.op_type == "Aipp") return true;
  static const std::set<std::string> kOps = {"Relu",
                                             "MaxPool",
                                             "GlobalMaxPool",
                                             "Reshape",
                                             "Flatten",
                                             "Squeeze",
                                             "Unsqueeze",
                                             "Transpose",
                                             "Concat",
                                             "Gather",
                                             "GatherElements",
                                             "GatherND",
                                             "Slice",
                                             "Split",
                                             "Identity",
                                             "Max",
                                             "Min",
                                             "Abs",
                                             "Neg",
                                             "Expand",
                                             "Tile",
                                             "ReduceMax",
                                             "ReduceMin",
                                             "DepthToSpace",
                                             "SpaceToDepth"};
  return n.domain.empty() && kOps.count(n.op_type);
}

// CANN's built-in lists are not public; as its documentation describes them: cube ops are
// on the allow list, loss and optimizer ops on the block list, the rest gray.
bool OnBuiltInBlockList(const Node& n) {
  static const std::set<std::string> kBlock = {"SoftmaxCrossEntropyLoss",
                                               "NegativeLogLikelihoodLoss"};
  return n.domain == "ai.onnx.preview.training" || kBlock.count(n.op_type);
}

class AssignPrecisionPass : public Pass {
 public:
  AssignPrecisionPass(PrecisionOptions options, std::vector<std::string>* table)
      : o_(std::move(options)), table_(table) {}
  const char* name() const override { return "AssignPrecision"; }

  Result<bool> Run(Graph& graph) override {
    if (o_.mode == PrecisionMode::kOrigin && o_.custom_nodes.empty() && o_.custom_types.empty())
      return false;
    const Dt low = o_.mode == PrecisionMode::kMixedBf16 ? Dt::kBf16 : Dt::kFp16;
    const auto producer = graph.ProducerIndex();
    const size_t count = graph.nodes.size();
    std::vector<Dt> dtype(count, Dt::kFp32);
    std::vector<bool> float_op(count, false), cube_in_only(count, false);
    for (size_t i = 0; i < count; ++i) {
      const Node& n = graph.nodes[i];
      float_op[i] = IsFloatOp(graph, n);
      if (!float_op[i]) continue;
      // A fused node answers to the names of every node it absorbed (a kept ReLU keeps the
      // convolution it was fused into).
      std::vector<std::string> names = n.attrs.GetStrings("_datadump_original_op_names");
      if (names.empty()) names.push_back(n.name);
      // --customize_dtypes first: it wins over the mode and --keep_dtype.
      const std::string* custom = nullptr;
      for (const auto& name : names)
        if (auto it = o_.custom_nodes.find(name); !custom && it != o_.custom_nodes.end())
          custom = &it->second;
      if (!custom)
        if (auto jt = o_.custom_types.find(n.op_type); jt != o_.custom_types.end())
          custom = &jt->second;
      if (custom) {
        dtype[i] = *custom == "float16" ? Dt::kFp16 : *custom == "bfloat16" ? Dt::kBf16 : Dt::kFp32;
        continue;
      }
      bool kept = o_.keep_types.count(n.op_type) != 0;
      for (const auto& name : names) kept = kept || o_.keep_nodes.count(name);
      if (kept) continue;
      switch (o_.mode) {
        case PrecisionMode::kForceFp16:
          dtype[i] = Dt::kFp16;
          break;
        case PrecisionMode::kCubeFp16In:
          cube_in_only[i] = IsCube(n);
          break;
        case PrecisionMode::kCubeFp16:
          if (IsCube(n)) dtype[i] = Dt::kFp16;
          break;
        case PrecisionMode::kMixedFp16:
        case PrecisionMode::kMixedBf16:
          dtype[i] = MixedDtype(graph, n, producer, dtype, low);
          break;
        case PrecisionMode::kOrigin:
          break;
      }
    }
    // Rewrite: inputs of low-precision ops hold low-precision values; their outputs too.
    std::map<std::pair<std::string, Dt>, std::string> rounded;  // value -> its rounded copy
    std::vector<Node> added;
    auto round_value = [&](const std::string& v, Dt d) -> std::string {
      auto key = std::make_pair(v, d);
      if (auto it = rounded.find(key); it != rounded.end()) return it->second;
      const std::string name = graph.UniqueValueName(v + "_" + DtName(d));
      if (const Tensor* c = graph.FindInitializer(v)) {
        Tensor t(DataType::kFloat, c->shape());
        const float* src = c->data_as<float>();
        float* dst = t.mutable_data_as<float>();
        for (int64_t k = 0; k < c->numel(); ++k)
          dst[k] = d == Dt::kFp16 ? HalfToFloat(FloatToHalf(src[k]))
                                  : BFloat16ToFloat(FloatToBFloat16(src[k]));
        graph.values[name] = ValueInfo{DataType::kFloat, c->shape(), true};
        graph.initializers[name] = std::move(t);
      } else {
        added.push_back(RoundNode(v, name, d));
        graph.values[name] = graph.values[v];
      }
      rounded[key] = name;
      return name;
    };
    bool changed = false;
    for (size_t i = 0; i < count; ++i) {
      if (!float_op[i]) continue;
      Node& n = graph.nodes[i];
      const Dt in_dt = cube_in_only[i] ? Dt::kFp16 : dtype[i];
      SetAttr(n.attrs, kComputeDtype,
              std::string(cube_in_only[i] ? "float16 in, float32 out" : DtName(dtype[i])));
      if (table_)
        table_->push_back(n.name + " (" + n.op_type + "): " + GetAttr(n.attrs, kComputeDtype, ""));
      if (in_dt == Dt::kFp32) continue;
      // Inputs the op reads as parameters (Resize scales, Range bounds, Pad values: the
      // op registration's value_inputs) are not data: they keep their values.
      const OpSchema* schema = OpRegistry::Global().Find(n.domain, n.op_type);
      for (size_t k = 0; k < n.inputs.size(); ++k) {
        const std::string& v = n.inputs[k];
        const ValueInfo* vi = v.empty() ? nullptr : graph.FindValue(v);
        if (!vi || vi->dtype != DataType::kFloat) continue;
        if (schema &&
            std::find(schema->traits.value_inputs.begin(), schema->traits.value_inputs.end(),
                      static_cast<int>(k)) != schema->traits.value_inputs.end())
          continue;
        auto p = producer.find(v);
        const bool already =
            p != producer.end() && dtype[p->second] == in_dt && float_op[p->second];
        if (already) continue;
        n.inputs[k] = round_value(v, in_dt);
        changed = true;
      }
      if (dtype[i] == Dt::kFp32 || PreservesValues(n)) continue;
      for (auto& out : n.outputs) {
        const ValueInfo* vi = out.empty() ? nullptr : graph.FindValue(out);
        if (!vi || vi->dtype != DataType::kFloat) continue;
        const std::string raw = graph.UniqueValueName(out + "_unrounded");
        graph.values[raw] = *vi;
        added.push_back(RoundNode(raw, out, dtype[i]));
        out = raw;
        changed = true;
      }
    }
    for (auto& a : added) graph.nodes.push_back(std::move(a));
    if (changed) OC_RETURN_IF_ERROR(graph.TopologicalSort());
    return changed;
  }

 private:
  static bool IsFloatOp(const Graph& graph, const Node& n) {
    if (n.domain == kOcDomain && n.op_type == "RoundTo") return false;
    for (const auto* list : {&n.inputs, &n.outputs})
      for (const auto& v : *list) {
        const ValueInfo* vi = v.empty() ? nullptr : graph.FindValue(v);
        if (vi && vi->dtype == DataType::kFloat) return true;
      }
    return false;
  }

  Dt MixedDtype(const Graph& graph, const Node& n,
                const std::unordered_map<std::string, size_t>& producer,
                const std::vector<Dt>& dtype, Dt low) const {
    const bool block = (OnBuiltInBlockList(n) && !o_.block_remove.count(n.op_type)) ||
                       o_.block_add.count(n.op_type);
    if (block) return Dt::kFp32;
    const bool allow =
        ((IsCube(n) && !o_.allow_remove.count(n.op_type)) || o_.allow_add.count(n.op_type)) &&
        !o_.gray_add.count(n.op_type);
    if (allow) return low;
    // Gray: the dtype of the producer of its first non-constant float input; fed by a
    // graph input (or only constants), it keeps fp32 as allow_fp32_to_fp16 would.
    for (const auto& v : n.inputs) {
      const ValueInfo* vi = v.empty() ? nullptr : graph.FindValue(v);
      if (!vi || vi->dtype != DataType::kFloat || graph.IsInitializer(v)) continue;
      auto p = producer.find(v);
      return p == producer.end() ? Dt::kFp32 : dtype[p->second];
    }
    return Dt::kFp32;
  }

  static Node RoundNode(const std::string& in, const std::string& out, Dt d) {
    Node r;
    r.name = out + "_round";
    r.op_type = "RoundTo";
    r.domain = kOcDomain;
    r.inputs = {in};
    r.outputs = {out};
    r.attrs.Set("to", std::string(DtName(d)));
    return r;
  }

  PrecisionOptions o_;
  std::vector<std::string>* table_;
};

}  // namespace

std::unique_ptr<Pass> CreateAssignPrecisionPass(const PrecisionOptions& options,
                                                std::vector<std::string>* table) {
  return std::make_unique<AssignPrecisionPass>(options, table);
}

}  // namespace oc
