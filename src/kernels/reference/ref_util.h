// Helpers of the reference kernels: strides, broadcasting, the registration table.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "backend/kernel.h"

namespace oc::ref {

// Row-major strides of a shape, in elements.
std::vector<int64_t> Strides(const Shape& s);
// For each element of `out` (row-major), the index of the element of `in` that numpy
// broadcasting pairs it with.
std::vector<int64_t> BroadcastIndex(const Shape& in, const Shape& out);
int64_t NormalizeAxis(int64_t axis, size_t rank);

// Which nodes a kernel takes, checked by Supports before any preparation.
using SupportFn = std::function<bool(const Node&, const std::vector<TensorType>&)>;

struct RefEntry {
  std::string domain, op_type;
  KernelFactory make;
  SupportFn supports;
  std::string types;  // for docs/ops.md
};

class RefTable {
 public:
  template <typename K>
  void Add(const std::string& op_type, SupportFn supports, const std::string& types,
           const std::string& domain = "") {
    entries_.push_back(
        {domain, op_type, [] { return std::make_unique<K>(); }, std::move(supports), types});
  }
  const RefEntry* Find(const std::string& domain, const std::string& op_type) const;

 private:
  std::vector<RefEntry> entries_;
};

// Support predicates.
bool FloatInputs(const std::vector<TensorType>& inputs, std::vector<size_t> which = {});
// Present inputs beyond the first `n` are refused (optional features not implemented).
bool AtMostInputs(const std::vector<TensorType>& inputs, size_t n);
bool SingleOutput(const Node& node);

// One function per family file.
void RegisterRefElementwise(RefTable& t);
void RegisterRefConv(RefTable& t);
void RegisterRefMatMul(RefTable& t);
void RegisterRefPool(RefTable& t);
void RegisterRefReduce(RefTable& t);
void RegisterRefSoftmax(RefTable& t);
void RegisterRefNorm(RefTable& t);
void RegisterRefDataMovement(RefTable& t);
void RegisterRefPrecision(RefTable& t);

}  // namespace oc::ref
