// Assorted ops: LRN, MeanVarianceNormalization, ReverseSequence, Compress, NonZero, Unique,
// Det, window functions, MaxUnpool, Einsum.
#include <cmath>
#include <map>
#include <set>

#include "ops/op_families.h"
#include "ops/schema_helpers.h"
#include "ops/shape_rules.h"

namespace oc {

Result<EinsumSpec> ParseEinsum(const std::string& equation, const std::vector<Shape>& shapes) {
  EinsumSpec spec;
  std::string eq;
  for (char ch : equation)
    if (ch != ' ') eq += ch;
  const auto arrow = eq.find("->");
  std::string lhs = arrow == std::string::npos ? eq : eq.substr(0, arrow);
  std::vector<std::string> terms;
  size_t start = 0;
  while (true) {
    auto comma = lhs.find(',', start);
    terms.push_back(
        lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != shapes.size())
    return InvalidArgument("Einsum: the equation has " + std::to_string(terms.size()) +
                           " operands, the node " + std::to_string(shapes.size()));
  // Ellipsis dims get the labels '0', '1', ...: digits are never einsum subscripts.
  int64_t ell_rank = 0;
  for (size_t t = 0; t < terms.size(); ++t) {
    const auto dots = terms[t].find("...");
    if (dots != std::string::npos)
      ell_rank = std::max<int64_t>(ell_rank, static_cast<int64_t>(shapes[t].size()) -
                                                 static_cast<int64_t>(terms[t].size() - 3));
  }
  auto expand = [&](const std::string& term, int64_t rank) {
    std::string out;
    const auto dots = term.find("...");
    if (dots == std::string::npos) return term;
    const int64_t n = rank - static_cast<int64_t>(term.size() - 3);
    out = term.substr(0, dots);
    for (int64_t k = ell_rank - n; k < ell_rank; ++k) out += static_cast<char>('0' + k);
    return out + term.substr(dots + 3);
  };
  std::map<char, int> count;
  for (size_t t = 0; t < terms.size(); ++t) {
    std::string e = expand(terms[t], static_cast<int64_t>(shapes[t].size()));
    if (e.size() != shapes[t].size())
      return InvalidArgument("Einsum: operand " + std::to_string(t) + " has rank " +
                             std::to_string(shapes[t].size()) + ", its subscripts say " +
                             std::to_string(e.size()));
    for (size_t k = 0; k < e.size(); ++k) {
      const char c = e[k];
      const int64_t d = shapes[t][k];
      auto it = spec.dims.find(c);
      // 1 broadcasts; -1 (unknown at compile time) takes the other operand's size.
      if (it == spec.dims.end() || it->second == 1 || (it->second < 0 && d != 1))
        spec.dims[c] = d;
      else if (d != 1 && d >= 0 && d != it->second)
        return InvalidArgument(std::string("Einsum: dimension of label ") + c + " differs");
      ++count[c];
    }
    spec.inputs.push_back(e);
  }
  if (arrow != std::string::npos) {
    // An ellipsis in the output stands for all ellipsis labels.
    std::string out = eq.substr(arrow + 2);
    const auto dots = out.find("...");
    if (dots != std::string::npos) {
      std::string ell;
      for (int64_t k = 0; k < ell_rank; ++k) ell += static_cast<char>('0' + k);
      out = out.substr(0, dots) + ell + out.substr(dots + 3);
    }
    spec.output = out;
  } else {
    // Implicit: ellipsis labels first, then labels seen once, alphabetically.
    std::string out;
    for (int64_t k = 0; k < ell_rank; ++k) out += static_cast<char>('0' + k);
    for (const auto& [c, n] : count)
      if (n == 1 && !(c >= '0' && c <= '9')) out += c;
    spec.output = out;
  }
  for (char c : spec.output)
    if (!spec.dims.count(c))
      return InvalidArgument(std::string("Einsum: output label ") + c + " is unknown");
  return spec;
}

namespace {

Status InferUnknownLength(InferContext& c, DataType dt, size_t rank) {
  c.SetOutput(0, dt, Shape(rank, -1));
  return Status::Ok();
}

Status InferCompress(InferContext& c) {
  const ValueInfo& x = c.in(0);
  const bool has_axis = c.attrs().Has("axis");
  const Tensor* cond = c.constant(1);
  if (!x.has_shape) {
    c.SetOutputTypeOnly(0, x.dtype);
    return Status::Ok();
  }
  int64_t kept = -1;
  if (cond) {
    kept = 0;
    for (int64_t i = 0; i < cond->numel(); ++i) kept += cond->GetAsInt(i) != 0;
  }
  if (!has_axis) {
    if (cond) kept = std::min(kept, NumElements(x.shape));
    c.SetOutput(0, x.dtype, {kept});
    return Status::Ok();
  }
  auto axis = NormalizeAxis(c.attrs().GetInt("axis", 0), static_cast<int64_t>(x.shape.size()));
  if (!axis.ok()) return c.Error(axis.status().message());
  Shape out = x.shape;
  out[axis.value()] = cond ? std::min(kept, x.shape[axis.value()]) : -1;
  c.SetOutput(0, x.dtype, out);
  return Status::Ok();
}

Status InferNonZero(InferContext& c) {
  const ValueInfo& x = c.in(0);
  const int64_t rank = x.has_shape ? static_cast<int64_t>(x.shape.size()) : -1;
  int64_t nnz = -1;
  if (const Tensor* t = c.constant(0)) {
    nnz = 0;
    for (int64_t i = 0; i < t->numel(); ++i) nnz += t->GetAsDouble(i) != 0;
  }
  c.SetOutput(0, DataType::kInt64, {rank, nnz});
  return Status::Ok();
}

Status InferUnique(InferContext& c) {
  const ValueInfo& x = c.in(0);
  const bool has_axis = c.attrs().Has("axis");
  Shape y = has_axis && x.has_shape ? x.shape : Shape{-1};
  if (has_axis && x.has_shape) {
    auto axis = NormalizeAxis(c.attrs().GetInt("axis", 0), static_cast<int64_t>(x.shape.size()));
    if (!axis.ok()) return c.Error(axis.status().message());
    y[axis.value()] = -1;
  }
  c.SetOutput(0, x.dtype, y);
  for (size_t i = 1; i < c.outputs.size(); ++i) c.SetOutput(i, DataType::kInt64, {-1});
  if (c.outputs.size() > 2) {
    int64_t n = has_axis && x.has_shape
                    ? x.shape[NormalizeAxis(c.attrs().GetInt("axis", 0),
                                            static_cast<int64_t>(x.shape.size()))
                                  .value()]
                    : (x.has_shape ? NumElements(x.shape) : -1);
    c.SetOutput(2, DataType::kInt64, {n});
  }
  return Status::Ok();
}

Status InferDet(InferContext& c) {
  const ValueInfo& x = c.in(0);
  if (!x.has_shape || x.shape.size() < 2) return c.Error("input must be [..., M, M]");
  c.SetOutput(0, x.dtype, Shape(x.shape.begin(), x.shape.end() - 2));
  return Status::Ok();
}

Status InferWindow(InferContext& c) {
  DataType dt = DataType::kUndefined;
  OC_RETURN_IF_ERROR(DtypeAttr(c, "output_datatype", DataType::kFloat, &dt));
  if (c.constant(0)) {
    int64_t n = 0;
    OC_RETURN_IF_ERROR(c.OneValue(0, &n));
    if (n < 0) return c.Error("size must be 0 or more");
    c.SetOutput(0, dt, {n});
    return Status::Ok();
  }
  return InferUnknownLength(c, dt, 1);
}

Status InferMaxUnpool(InferContext& c) {
  const ValueInfo& x = c.in(0);
  if (x.shape.size() < 3) return c.Error("X must be [N,C,spatial...]");
  if (c.has_input(2)) {
    if (const Tensor* s = c.constant(2)) {
      c.SetOutput(0, x.dtype, s->ToInt64Vector());
      return Status::Ok();
    }
    return InferUnknownLength(c, x.dtype, x.shape.size());
  }
  const size_t n = x.shape.size() - 2;
  auto kernel = c.attrs().GetInts("kernel_shape");
  auto strides = c.attrs().GetInts("strides", std::vector<int64_t>(n, 1));
  auto pads = c.attrs().GetInts("pads", std::vector<int64_t>(2 * n, 0));
  if (kernel.size() != n) return c.Error("kernel_shape does not match the rank");
  Shape out{x.shape[0], x.shape[1]};
  for (size_t i = 0; i < n; ++i)
    out.push_back((x.shape[2 + i] - 1) * strides[i] + kernel[i] - pads[i] - pads[i + n]);
  c.SetOutput(0, x.dtype, out);
  return Status::Ok();
}

// LRN normalises across channels: X is N x C x ..., and the window holds `size` (>= 1) channels.
Status InferLrn(InferContext& c) {
  if (c.attrs().GetInt("size", 0) < 1) return c.Error("size must be given and at least 1");
  if (c.in(0).has_shape && c.in(0).shape.size() < 2)
    return c.Error("X must be N x C x ..., not of rank " + std::to_string(c.in(0).shape.size()));
  return InferSameAsInput(c);
}

Status InferEinsum(InferContext& c) {
  OC_RETURN_IF_ERROR(CheckAllSameType(c));
  std::vector<Shape> shapes;
  for (size_t i = 0; i < c.num_inputs(); ++i) {
    if (!c.in(i).has_shape) {
      c.SetOutputTypeOnly(0, c.in(0).dtype);
      return Status::Ok();
    }
    shapes.push_back(c.in(i).shape);
  }
  auto spec = ParseEinsum(c.attrs().GetString("equation", ""), shapes);
  if (!spec.ok()) return c.Error(spec.status().message());
  Shape out;
  for (char ch : spec->output) out.push_back(spec->dims.at(ch));
  c.SetOutput(0, c.in(0).dtype, out);
  return Status::Ok();
}

}  // namespace

void RegisterMiscSchemas(OpRegistry& r) {
  r.Register({"LRN", "", 1, 1, 1, 1, InferLrn});
  r.Register({"MeanVarianceNormalization", "", 1, 1, 1, 1, InferSameAsInput});
  r.Register({"ReverseSequence", "", 2, 2, 1, 1, InferSameAsInput});
  r.Register({"Compress", "", 2, 2, 1, 1, InferCompress});
  r.Register({"NonZero", "", 1, 1, 1, 1, InferNonZero});
  r.Register({"Unique", "", 1, 1, 1, 4, InferUnique});
  r.Register({"Det", "", 1, 1, 1, 1, InferDet});
  for (const char* w : {"HannWindow", "HammingWindow", "BlackmanWindow"})
    r.Register({w, "", 1, 1, 1, 1, InferWindow});
  r.Register({"MaxUnpool", "", 2, 3, 1, 1, InferMaxUnpool});
  r.Register(Variadic({"Einsum", "", 1, 1 << 20, 1, 1, InferEinsum}));
  for (const char* op : {"NonZero", "Unique", "Compress"})
    r.SetTraits("", op, ValuesDecideOutputShapes());
}

}  // namespace oc
