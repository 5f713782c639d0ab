#include "base/shape.h"

#include <algorithm>

namespace oc {

int64_t NumElements(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) {
    if (d < 0) return -1;
    n *= d;
  }
  return n;
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
  if (axis < -rank || axis >= std::max<int64_t>(rank, 1))
    return InvalidArgument("axis " + std::to_string(axis) + " is out of range for rank " +
                           std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

}  // namespace oc
