// Shape arithmetic shared by schemas and kernels (which must agree exactly).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/shape.h"
#include "ops/op_schema.h"

namespace oc {

// Reshape's target with 0 (copy) and -1 (infer) resolved.
Result<Shape> ReshapeTarget(const Shape& in, const std::vector<int64_t>& spec, bool allowzero);
// Slice: output dims plus per-axis begin and step (clamped as ONNX specifies).
Result<std::vector<int64_t>> SliceBounds(const Shape& in, const std::vector<int64_t>& starts,
                                         const std::vector<int64_t>& ends,
                                         const std::vector<int64_t>& axes,
                                         const std::vector<int64_t>& steps,
                                         std::vector<int64_t>* begin, std::vector<int64_t>* step);
// A node's axes: its `axes` attribute (older opsets) when that holds any, else its axes input
// (`input`, the constant value; null with `given` when it is only known at run time: then
// `known` is false). Schemas and kernels both read axes here, so they cannot disagree (an
// empty `axes` attribute beside an axes input once meant "all" to one and "the input" to the
// other, and the kernel wrote past the output the schema had sized).
std::vector<int64_t> NodeAxes(const AttributeMap& attrs, bool given, const Tensor* input,
                              bool* known);
// NodeAxes for a schema, the input at `input_index`.
std::vector<int64_t> AxesFromInputOrAttr(const InferContext& ctx, size_t input_index, bool* known);

// Conv/pool spatial output size with ONNX auto_pad rules. Fills pads when auto_pad is SAME_*.
Status ConvOutputShape(const Shape& in_spatial, const std::vector<int64_t>& kernel,
                       const std::vector<int64_t>& strides, const std::vector<int64_t>& dilations,
                       const std::string& auto_pad, bool ceil_mode, std::vector<int64_t>* pads,
                       Shape* out_spatial);

// Conv/ConvInteger/QLinearConv output shape from X and W: ranks, channels per group, geometry.
Status ConvForwardShape(const Shape& x, const Shape& w, const AttributeMap& attrs, Shape* out);

// numpy matmul output shape (1-D operands promoted and dropped).
Result<Shape> MatMulOutputShape(const Shape& a, const Shape& b);

// Resize output: `sizes` when given, else floor(input * scales).
Result<Shape> ResizeOutputShape(const Shape& in, const Tensor* scales, const Tensor* sizes);

// ConvTranspose output shape and effective pads (output_shape / auto_pad resolved).
Status ConvTransposeGeometry(const Shape& x, const Shape& w, const AttributeMap& attrs,
                             std::vector<int64_t>* pads, Shape* out);

// RNN/GRU/LSTM: X, W, R and the optional B, sequence_lens, initial_h, initial_c and P (null
// when omitted) checked against each other, the direction and hidden_size, as ONNX defines
// them; fills the dims a kernel needs. Shapes with unknown (-1) dims are checked where known.
struct RecurrentDims {
  int64_t seq = 0, batch = 0, input = 0, dirs = 0, hidden = 0, gates = 0;
};
Status RecurrentShapes(const std::string& op, const AttributeMap& attrs,
                       const std::vector<const Shape*>& inputs, RecurrentDims* dims);

// Einsum equation with ellipses expanded: one label string per input and the output.
struct EinsumSpec {
  std::vector<std::string> inputs;
  std::string output;
  std::map<char, int64_t> dims;
};
Result<EinsumSpec> ParseEinsum(const std::string& equation, const std::vector<Shape>& shapes);

}  // namespace oc
