// Shapes are vectors of int64; -1 marks a dimension unknown at compile time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace oc {

using Shape = std::vector<int64_t>;

int64_t NumElements(const Shape& s);  // -1 if any dim is unknown; INT64_MAX on overflow
// The most bytes one tensor may have (OCANN_MAX_TENSOR_BYTES, default 64 GiB): larger shapes
// are refused where they appear (atc's inference, the .om loader, execution) before any
// allocation, so later size arithmetic cannot overflow.
uint64_t MaxTensorBytes();
// Bytes of a static shape of `element_size`-byte elements: an error naming the shape when a
// dim is negative, the count overflows, or it exceeds MaxTensorBytes(). An empty shape (a zero
// dim) is 0 bytes, but its nonzero dims must fit the bound all the same: kernels multiply them.
Result<size_t> TensorBytes(const Shape& s, size_t element_size);
bool IsStatic(const Shape& s);
std::string ShapeToString(const Shape& s);  // "[1,3,224,224]"
// Numpy-style multidirectional broadcast of two shapes.
Result<Shape> BroadcastShapes(const Shape& a, const Shape& b);
// Normalises a possibly negative axis against rank; error when out of range.
Result<int64_t> NormalizeAxis(int64_t axis, int64_t rank);

}  // namespace oc
