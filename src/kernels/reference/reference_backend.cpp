#include "kernels/reference/reference_backend.h"

#include "kernels/reference/ref_util.h"

namespace oc {
namespace ref {

std::vector<int64_t> Strides(const Shape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (size_t i = s.size(); i-- > 1;) st[i - 1] = st[i] * s[i];
  return st;
}

std::vector<int64_t> BroadcastIndex(const Shape& in, const Shape& out) {
  const int64_t n = NumElements(out);
  std::vector<int64_t> idx(static_cast<size_t>(n), 0);
  const size_t rank = out.size(), off = rank - in.size();
  const auto in_st = Strides(in);
  std::vector<int64_t> coord(rank, 0);
  for (int64_t e = 0; e < n; ++e) {
    int64_t k = 0;
    for (size_t d = 0; d < in.size(); ++d)
      if (in[d] != 1) k += coord[off + d] * in_st[d];
    idx[static_cast<size_t>(e)] = k;
    for (size_t d = rank; d-- > 0;) {  // next coordinate, last dim fastest
      if (++coord[d] < out[d]) break;
      coord[d] = 0;
    }
  }
  return idx;
}

int64_t NormalizeAxis(int64_t axis, size_t rank) {
  return axis < 0 ? axis + static_cast<int64_t>(rank) : axis;
}

const RefEntry* RefTable::Find(const std::string& domain, const std::string& op_type) const {
  for (const auto& e : entries_)
    if (e.domain == domain && e.op_type == op_type) return &e;
  return nullptr;
}

bool FloatInputs(const std::vector<TensorType>& inputs, std::vector<size_t> which) {
  if (which.empty())
    for (size_t i = 0; i < inputs.size(); ++i) which.push_back(i);
  for (size_t i : which)
    if (i < inputs.size() && inputs[i].dtype != DataType::kUndefined &&
        inputs[i].dtype != DataType::kFloat)
      return false;
  return true;
}

bool AtMostInputs(const std::vector<TensorType>& inputs, size_t n) {
  for (size_t i = n; i < inputs.size(); ++i)
    if (inputs[i].dtype != DataType::kUndefined) return false;
  return true;
}

bool SingleOutput(const Node& node) {
  for (size_t k = 1; k < node.outputs.size(); ++k)
    if (!node.outputs[k].empty()) return false;
  return true;
}

}  // namespace ref

namespace {

ref::RefTable MakeTable() {
  ref::RefTable t;
  ref::RegisterRefElementwise(t);
  ref::RegisterRefConv(t);
  ref::RegisterRefMatMul(t);
  ref::RegisterRefPool(t);
  ref::RegisterRefReduce(t);
  ref::RegisterRefSoftmax(t);
  ref::RegisterRefNorm(t);
  ref::RegisterRefDataMovement(t);
  ref::RegisterRefPrecision(t);
  return t;
}

const ref::RefTable& Table() {
  static const ref::RefTable table = MakeTable();
  return table;
}

class ReferenceBackendImpl final : public Backend {
 public:
  const char* name() const override { return "reference"; }

  bool Supports(const Node& node, const std::vector<TensorType>& inputs) const override {
    const ref::RefEntry* e = Table().Find(node.domain, node.op_type);
    return e && e->supports(node, inputs);
  }

  Result<std::unique_ptr<Kernel>> CreateKernel(const KernelPrepareContext& ctx) const override {
    const ref::RefEntry* e = Table().Find(ctx.node->domain, ctx.node->op_type);
    if (!e || !e->supports(*ctx.node, ctx.inputs))
      return NoKernelError(*ctx.node, "Backend asked: reference.");
    for (size_t i = 0; i < ctx.input_layouts.size(); ++i)
      if (ctx.input_layout(i) != kPlainLayout)
        return ctx.Error("reference kernels read plain data");
    auto kernel = e->make();
    OC_RETURN_IF_ERROR(kernel->Prepare(ctx));
    return kernel;
  }

  std::string TypesOf(const std::string& domain, const std::string& op_type) const override {
    const ref::RefEntry* e = Table().Find(domain, op_type);
    return e ? e->types : "";
  }
};

}  // namespace

const Backend& ReferenceBackend() {
  static ReferenceBackendImpl backend;
  return backend;
}

}  // namespace oc
