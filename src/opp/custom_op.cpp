#include "opp/custom_op.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>

#include "base/aligned_buffer.h"
#include "base/config.h"
#include "base/dtype.h"
#include "opencann/soc_table.h"
#include "opp/ascendc_launch.h"

namespace oc {
namespace {

// ge::DataType of the op API numbers types as aclDataType does (DT_FLOAT = 0), unlike the
// GE proto numbering of .om files: convert with the ACL mapping.

std::string TypeList(const std::vector<ge::DataType>& types) {
  std::string out;
  for (auto t : types)
    out += (out.empty() ? "" : ", ") + std::string(DataTypeName(FromAclDataType(t)));
  return out;
}

// The node's attributes in the OpDef's order, defaults filled in.
Status FillAttrs(const ops::OpDef& def, const AttributeMap& attrs, gert::RuntimeAttrs* out,
                 const std::string& where) {
  using V = gert::RuntimeAttrs::Value;
  for (const auto& a : def.attrs()) {
    V v = a.default_value();
    if (!attrs.Has(a.name())) {
      if (a.attr_type() == ops::REQUIRED)
        return InvalidArgument(where + ": required attribute [" + a.name() + "] is missing");
    } else {
      switch (v.kind) {
        case V::kInt:
          v.i = attrs.GetInt(a.name(), v.i);
          break;
        case V::kFloat:
          v.f = attrs.GetFloat(a.name(), v.f);
          break;
        case V::kBool:
          v.b = attrs.GetInt(a.name(), v.b) != 0;
          break;
        case V::kString:
          v.s = ge::AscendString(attrs.GetString(a.name(), v.s.GetString()));
          break;
        case V::kListInt:
          v.ints = attrs.GetInts(a.name(), v.ints);
          break;
        case V::kListFloat:
          v.floats = attrs.GetFloats(a.name(), v.floats);
          break;
      }
    }
    out->values().push_back(std::move(v));
  }
  return Status::Ok();
}

// The node's view for the package's functions, from element types and shapes.
Status MakeNodeView(const ops::OpDef& def, const Node& node, const std::vector<TensorType>& inputs,
                    const std::string& where, gert::NodeView* view) {
  view->name = node.name;
  view->type = def.type();
  for (size_t i = 0; i < def.inputs().size(); ++i) {
    const bool present = i < inputs.size() && inputs[i].dtype != DataType::kUndefined;
    const auto& param = def.inputs()[i];
    if (!present && param.param_type() == ops::REQUIRED)
      return InvalidArgument(where + ": required input [" + param.name() + "] is missing");
    gert::Shape shape(present ? inputs[i].shape : Shape{});
    view->input_shapes.emplace_back(shape, shape);
    view->input_present.push_back(present);
    gert::CompileTimeTensorDesc desc;
    if (present) {
      const auto ge_type = static_cast<ge::DataType>(ToAclDataType(inputs[i].dtype));
      const auto& allowed = param.dtypes();
      bool ok = allowed.empty();
      for (auto t : allowed) ok |= t == ge_type;
      if (!ok)
        return InvalidArgument(where + ": input [" + param.name() + "] has type " +
                               DataTypeName(inputs[i].dtype) + "; the package supports " +
                               TypeList(allowed));
      desc.Set(ge_type, ge::FORMAT_ND);
    }
    view->input_descs.push_back(desc);
  }
  // The OpDef's type lists are columns of combinations: the first column whose input types
  // all match gives the outputs' types (a one-entry list serves every column). Without such
  // a column, the first input's type. InferDataType, where the package has one, decides last.
  auto type_at = [](const std::vector<ge::DataType>& list, size_t c) {
    return list.size() == 1 ? list[0] : c < list.size() ? list[c] : ge::DT_UNDEFINED;
  };
  size_t columns = 0;
  for (const auto& p : def.inputs()) columns = std::max(columns, p.dtypes().size());
  for (const auto& p : def.outputs()) columns = std::max(columns, p.dtypes().size());
  std::optional<size_t> column;
  for (size_t c = 0; c < columns && !column; ++c) {
    bool match = true;
    for (size_t i = 0; i < def.inputs().size() && match; ++i)
      if (view->input_present[i] && !def.inputs()[i].dtypes().empty())
        match = type_at(def.inputs()[i].dtypes(), c) == view->input_descs[i].GetDataType();
    if (match) column = c;
  }
  for (size_t k = 0; k < def.outputs().size(); ++k) {
    view->output_shapes.emplace_back();
    gert::CompileTimeTensorDesc desc;
    if (!view->input_descs.empty()) desc = view->input_descs[0];
    const auto& declared = def.outputs()[k].dtypes();
    if (column && !declared.empty() && type_at(declared, *column) != ge::DT_UNDEFINED)
      desc.Set(type_at(declared, *column), ge::FORMAT_ND);
    view->output_descs.push_back(desc);
  }
  return FillAttrs(def, node.attrs, &view->attrs, where);
}

std::string Where(const ops::OpDef& def, const Node& node, const std::string& source) {
  return "node [" + node.name + "] (custom op " + def.type() + " from " + source + ")";
}

class CustomOpKernel : public Kernel {
 public:
  CustomOpKernel(const ops::OpDef& def, std::vector<const ops::KernelEntry*> kernels,
                 std::string source)
      : def_(def), kernels_(std::move(kernels)), source_(std::move(source)) {}

  Status Prepare(const KernelPrepareContext& ctx) override {
    const std::string where = Where(def_, *ctx.node, source_);
    gert::NodeView view;
    OC_RETURN_IF_ERROR(MakeNodeView(def_, *ctx.node, ctx.inputs, where, &view));
    for (size_t k = 0; k < ctx.outputs.size() && k < view.output_shapes.size(); ++k) {
      gert::Shape s(ctx.outputs[k].shape);
      view.output_shapes[k] = gert::StorageShape(s, s);
      view.output_descs[k].Set(static_cast<ge::DataType>(ToAclDataType(ctx.outputs[k].dtype)),
                               ge::FORMAT_ND);
    }
    for (size_t i = 0; i < ctx.inputs.size(); ++i)
      in_bytes_.push_back(ctx.inputs[i].dtype == DataType::kUndefined ? 0 : ctx.inputs[i].nbytes());
    for (const auto& o : ctx.outputs) out_bytes_.push_back(o.nbytes());
    num_inputs_ = def_.inputs().size();
    // The kernel compiled for these element types.
    std::vector<ge::DataType> types;
    for (const auto& d : view.input_descs) types.push_back(d.GetDataType());
    for (const auto& d : view.output_descs) types.push_back(d.GetDataType());
    std::string supported;
    for (const auto* k : kernels_) {
      bool match = k->types.empty();
      if (!match) {
        match = true;
        for (size_t i = 0; i < types.size() && i < k->types.size(); ++i)
          if (i >= view.input_present.size() || view.input_present[i])
            match &= k->types[i] == types[i];
      }
      if (match) {
        kernel_ = k;
        break;
      }
      supported += "\n  (" + TypeList(k->types) + ")";
    }
    if (!kernel_)
      return InvalidArgument(where + ": no kernel for the types (" + TypeList(types) +
                             "); the package has kernels for:" + supported);
    // The chip the model is built for reaches the tiling function (PlatformAscendC) and
    // the emulated launch.
    soc_version_ = ctx.soc_version;
    view.platform_info = opencann::FindSocSpec(soc_version_.c_str());
    gert::TilingContext tc(&view);
    if (auto tiling = def_.ai_core_def().tiling()) {
      if (tiling(&tc) != ge::GRAPH_SUCCESS)
        return InvalidArgument(where + ": the tiling function failed");
    }
    block_dim_ = tc.GetBlockDim();
    if (block_dim_ == 0) return InvalidArgument(where + ": the tiling function set blockDim 0");
    tiling_key_ = tc.GetTilingKey();
    tiling_.assign(static_cast<const uint8_t*>(tc.GetRawTilingData()->GetData()),
                   static_cast<const uint8_t*>(tc.GetRawTilingData()->GetData()) +
                       tc.GetRawTilingData()->GetDataSize());
    workspace_ = 0;
    for (size_t i = 0; i < tc.GetWorkspaceNum(); ++i) workspace_ += tc.GetWorkspaceSizes(0)[i];
    return Status::Ok();
  }

  // With the NPU's padding after it (32-byte rounding plus 32), which kernels may read.
  size_t WorkspaceSize() const override {
    return workspace_ ? (workspace_ + 31) / 32 * 32 + 32 : 0;
  }

  Status Run(const KernelRunContext& ctx) const override {
    AscendcLaunch launch;
    // Device tensors (aclrtMalloc'd, or planned by the model) are laid out as on the NPU.
    launch.globals_padded = true;
    launch.kernel = kernel_->kernel_name.GetString();
    launch.owner = std::string("custom op ") + def_.type();
    launch.block_dim = block_dim_;
    launch.function = kernel_->function;
    // Arguments as the NPU passes them: inputs, outputs, workspace, tiling (all GM), each
    // with what it really is as the bounds for the checks.
    for (size_t i = 0; i < num_inputs_; ++i) {
      launch.args.push_back(const_cast<void*>(ctx.inputs[i]));
      launch.globals.emplace_back(ctx.inputs[i], in_bytes_[i]);
    }
    for (size_t k = 0; k < out_bytes_.size(); ++k) {
      launch.args.push_back(ctx.outputs[k]);
      launch.globals.emplace_back(ctx.outputs[k], out_bytes_[k]);
    }
    launch.args.push_back(workspace_ ? ctx.workspace : nullptr);
    if (workspace_) launch.globals.emplace_back(ctx.workspace, workspace_);
    // The kernel may only read the tiling: a per-run copy keeps runs independent.
    AlignedBuffer tiling((std::max<size_t>(tiling_.size(), 1) + 31) / 32 * 32 + 32);
    if (!tiling_.empty()) {
      std::memcpy(tiling.data(), tiling_.data(), tiling_.size());
      launch.globals.emplace_back(tiling.data(), tiling_.size());
    }
    launch.args.push_back(tiling_.empty() ? nullptr : tiling.data());
    launch.tiling_key = tiling_key_;
    launch.soc = soc_version_;
    launch.report = GlobalConfig().ascendc_report;
    Status s = RunAscendcKernel(launch);
    // Without the report the emulation printed nothing: the reason goes to stderr here, so
    // an application that only sees the error code (aclnn, a model) still learns it.
    if (!s.ok() && !launch.report) std::fprintf(stderr, "[ERROR] %s\n", s.message().c_str());
    return s;
  }

 private:
  std::string soc_version_;
  const ops::OpDef& def_;
  std::vector<const ops::KernelEntry*> kernels_;
  const ops::KernelEntry* kernel_ = nullptr;
  std::string source_;
  size_t num_inputs_ = 0;
  std::vector<size_t> in_bytes_, out_bytes_;
  uint32_t block_dim_ = 1;
  uint64_t tiling_key_ = 0;
  std::vector<uint8_t> tiling_;
  size_t workspace_ = 0;
};

}  // namespace

OpSchema MakeCustomOpSchema(const ops::OpDef& def, const std::string& source) {
  OpSchema s;
  s.op_type = def.type();
  s.domain = kAnyDomain;
  // Positions up to the last required input are expected; optional ones among them may be
  // left out (omittable), optional ones after it simply not given.
  s.min_inputs = 0;
  for (size_t i = 0; i < def.inputs().size(); ++i)
    if (def.inputs()[i].param_type() == ops::REQUIRED) s.min_inputs = static_cast<int>(i) + 1;
  for (int i = 0; i < s.min_inputs && i < 32; ++i)
    if (def.inputs()[i].param_type() != ops::REQUIRED) s.omittable_inputs |= 1u << i;
  s.max_inputs = static_cast<int>(def.inputs().size());
  s.min_outputs = 1;
  s.max_outputs = static_cast<int>(def.outputs().size());
  s.infer = [&def, source](InferContext& ic) -> Status {
    const std::string where = Where(def, *ic.node, source);
    std::vector<TensorType> inputs;
    for (size_t i = 0; i < ic.inputs.size(); ++i) {
      if (!ic.has_input(i)) {
        inputs.emplace_back();
        continue;
      }
      if (!ic.in(i).has_shape) {
        // Without input shapes only the types are known.
        for (size_t k = 0; k < ic.outputs.size(); ++k) ic.SetOutputTypeOnly(k, ic.in(0).dtype);
        return Status::Ok();
      }
      inputs.push_back({ic.in(i).dtype, ic.in(i).shape});
    }
    gert::NodeView view;
    OC_RETURN_IF_ERROR(MakeNodeView(def, *ic.node, inputs, where, &view));
    if (auto f = def.infer_dtype()) {
      gert::InferDataTypeContext tc(&view);
      if (f(&tc) != ge::GRAPH_SUCCESS) return InvalidArgument(where + ": InferDataType failed");
    }
    if (!def.infer_shape()) {
      // No InferShape: enough for aclnn, which takes the output shapes from its tensors
      // (CANN's too); a graph has nothing to size the outputs with.
      if (!ic.aclnn)
        return InvalidArgument(where +
                               ": the OpDef has no SetInferShape function, so a graph cannot "
                               "size its outputs (aclnn" +
                               def.type() + " can run it)");
      for (size_t k = 0; k < ic.outputs.size() && k < view.output_descs.size(); ++k)
        ic.SetOutputTypeOnly(k, FromAclDataType(view.output_descs[k].GetDataType()));
      return Status::Ok();
    }
    gert::InferShapeContext sc(&view);
    if (def.infer_shape()(&sc) != ge::GRAPH_SUCCESS)
      return InvalidArgument(where + ": InferShape failed");
    for (size_t k = 0; k < ic.outputs.size() && k < view.output_shapes.size(); ++k) {
      const DataType dt = FromAclDataType(view.output_descs[k].GetDataType());
      if (dt == DataType::kUndefined)
        return InvalidArgument(where + ": output " + std::to_string(k) + " has no data type");
      ic.SetOutput(k, dt, view.output_shapes[k].GetOriginShape().dims());
    }
    return Status::Ok();
  };
  return s;
}

std::unique_ptr<Kernel> MakeCustomOpKernel(const ops::OpDef& def,
                                           std::vector<const ops::KernelEntry*> kernels,
                                           const std::string& source) {
  return std::make_unique<CustomOpKernel>(def, std::move(kernels), source);
}

}  // namespace oc
