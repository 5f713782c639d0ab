#include "base/shape.h"

#include <algorithm>

#include "base/config.h"

namespace oc {

int64_t NumElements(const Shape& s) {
  int64_t n = 1;
  bool overflow = false;
  for (int64_t d : s) {
    if (d < 0) return -1;
    if (!overflow && __builtin_mul_overflow(n, d, &n)) overflow = true;
  }
  // A zero anywhere makes the count 0 even past an overflow.
  if (overflow) return std::find(s.begin(), s.end(), 0) != s.end() ? 0 : INT64_MAX;
  return n;
}

uint64_t MaxTensorBytes() { return GlobalConfig().max_tensor_bytes; }

Result<size_t> TensorBytes(const Shape& s, size_t element_size) {
  // A zero dim makes the tensor empty, but kernels still multiply its other dims (strides,
  // row and column counts): those must fit the bound too, or [0, 2^62, 90] would pass here
  // and overflow them.
  uint64_t n = 1;
  bool empty = false;
  for (int64_t d : s) {
    if (d < 0)
      return InvalidArgument("shape " + ShapeToString(s) + " has an unknown or negative dim");
    if (d == 0) {
      empty = true;
      continue;
    }
    if (__builtin_mul_overflow(n, static_cast<uint64_t>(d), &n))
      return InvalidArgument("shape " + ShapeToString(s) + " has more elements than 2^64");
  }
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(n, static_cast<uint64_t>(element_size), &bytes) ||
      bytes > MaxTensorBytes())
    return InvalidArgument("a tensor of shape " + ShapeToString(s) + " would need more than " +
                           std::to_string(MaxTensorBytes()) + " bytes" +
                           (empty ? " without its zero dims" : "") +
                           " (the bound; set OCANN_MAX_TENSOR_BYTES to change it)");
  return empty ? size_t{0} : static_cast<size_t>(bytes);
}

bool IsStatic(const Shape& s) {
  return std::all_of(s.begin(), s.end(), [](int64_t d) { return d >= 0; });
}

std::string ShapeToString(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) out += ",";
    out += std::to_string(s[i]);
  }
  return out + "]";
}

Result<Shape> BroadcastShapes(const Shape& a, const Shape& b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == db || db == 1) {
      out[i] = da;
    } else if (da == 1) {
      out[i] = db;
    } else if (da < 0 || db < 0) {
      out[i] = std::max(da, db) > 1 ? std::max(da, db) : -1;
    } else {
      return ShapeMismatch("shapes " + ShapeToString(a) + " and " + ShapeToString(b) +
                           " cannot be broadcast");
    }
  }
  return out;
}

Result<int64_t> NormalizeAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return InvalidArgument("axis " + std::to_string(axis) + " is out of range for rank " +
                           std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

}  // namespace oc
