// Shapes are vectors of int64; -1 marks a dimension unknown at compile time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace oc {

using Shape = std::vector<int64_t>;

int64_t NumElements(const Shape& s);  // -1 if any dim is unknown
bool IsStatic(const Shape& s);
std::string ShapeToString(const Shape& s);  // "[1,3,224,224]"
// Numpy-style multidirectional broadcast of two shapes.
Result<Shape> BroadcastShapes(const Shape& a, const Shape& b);
// Normalises a possibly negative axis against rank; error when out of range.
Result<int64_t> NormalizeAxis(int64_t axis, int64_t rank);

}  // namespace oc
