// Element-wise ops: unary math and activations, broadcasting binary ops, comparisons,
// variadic ops, Where, Cast.
#include "ops/op_families.h"
#include "ops/schema_helpers.h"

namespace oc {

Status InferSameAsInput(InferContext& ctx) {
  const ValueInfo& in = ctx.in(0);
  ctx.outputs[0] = in;
  return Status::Ok();
}

void RegisterUnary(OpRegistry& r, const std::string& op_type, int min_in, int max_in) {
  r.Register({op_type, "", min_in, max_in, 1, 1, InferSameAsInput});
}

namespace {

Status BroadcastAll(InferContext& ctx, size_t first, size_t count, Shape* out, bool* known) {
  *known = true;
  Shape acc;
  for (size_t i = first; i < first + count; ++i) {
    if (!ctx.has_input(i)) continue;
    if (!ctx.in(i).has_shape) {
      *known = false;
      return Status::Ok();
    }
    auto b = BroadcastShapes(acc, ctx.in(i).shape);
    if (!b.ok()) return ctx.Error(b.status().message());
    acc = b.value();
  }
  *out = acc;
  return Status::Ok();
}

Status InferBroadcast(InferContext& ctx, DataType out_type) {
  Shape s;
  bool known = false;
  OC_RETURN_IF_ERROR(BroadcastAll(ctx, 0, ctx.num_inputs(), &s, &known));
  for (size_t i = 1; i < ctx.num_inputs(); ++i) {
    if (ctx.has_input(i) && ctx.in(i).dtype != ctx.in(0).dtype && ctx.node->op_type != "Pow" &&
        ctx.node->op_type != "BitShift" && ctx.node->domain.empty())
      return ctx.Error(std::string("input types differ: ") + DataTypeName(ctx.in(0).dtype) +
                       " and " + DataTypeName(ctx.in(i).dtype));
  }
  if (known)
    ctx.SetOutput(0, out_type, s);
  else
    ctx.SetOutputTypeOnly(0, out_type);
  return Status::Ok();
}

}  // namespace

void RegisterElementwiseSchemas(OpRegistry& r) {
  for (const char* op : {"Relu",
                         "Sigmoid",
                         "Tanh",
                         "Exp",
                         "Log",
                         "Sqrt",
                         "Erf",
                         "Abs",
                         "Neg",
                         "Reciprocal",
                         "Floor",
                         "Ceil",
                         "Round",
                         "Sin",
                         "Cos",
                         "Tan",
                         "Asin",
                         "Acos",
                         "Atan",
                         "Sinh",
                         "Cosh",
                         "Asinh",
                         "Acosh",
                         "Atanh",
                         "Softplus",
                         "Softsign",
                         "Elu",
                         "Selu",
                         "Celu",
                         "LeakyRelu",
                         "ThresholdedRelu",
                         "HardSigmoid",
                         "HardSwish",
                         "Sign",
                         "Identity",
                         "Gelu",
                         "Mish"}) {
    RegisterUnary(r, op);
  }
  r.Register({"Not", "", 1, 1, 1, 1, InferSameAsInput});
  r.Register({"IsNaN", "", 1, 1, 1, 1, [](InferContext& c) {
                OC_RETURN_IF_ERROR(InferSameAsInput(c));
                c.outputs[0].dtype = DataType::kBool;
                return Status::Ok();
              }});
  // Dropout in inference is identity; the optional mask output is all true.
  r.Register({"Dropout", "", 1, 3, 1, 2, [](InferContext& c) {
                OC_RETURN_IF_ERROR(InferSameAsInput(c));
                if (c.outputs.size() > 1) {
                  c.outputs[1] = c.outputs[0];
                  c.outputs[1].dtype = DataType::kBool;
                }
                return Status::Ok();
              }});
  r.Register({"Clip", "", 1, 3, 1, 1, [](InferContext& c) {
                // min and max are single values of the input's type (the kernel reads them so).
                OC_RETURN_IF_ERROR(CheckSameType(c, {0, 1, 2}));
                for (size_t i = 1; i <= 2; ++i)
                  if (c.has_input(i) && c.in(i).has_shape && IsStatic(c.in(i).shape) &&
                      NumElements(c.in(i).shape) != 1)
                    return c.Error("min and max must be single values");
                return InferSameAsInput(c);
              }});
  r.SetTraits("", "Identity", InPlaceOn(0));
  // Activations a fused node can apply (the fusion passes read these).
  for (const char* op : {"Relu", "LeakyRelu", "Clip", "Sigmoid", "Tanh", "HardSwish", "Gelu"}) {
    FusedActivation a;
    ParseFusedActivation(op, &a);
    r.SetTraits("", op, FusableAs(a));
  }
  r.Register({"PRelu", "", 2, 2, 1, 1, [](InferContext& c) {
                // Before opset 7 a 1-D slope of C values applies per channel.
                const ValueInfo &x = c.in(0), &slope = c.in(1);
                if (x.has_shape && slope.has_shape && slope.shape.size() == 1 &&
                    x.shape.size() > 2 && slope.shape[0] == x.shape[1] &&
                    !BroadcastShapes(x.shape, slope.shape).ok()) {
                  c.outputs[0] = x;
                  return Status::Ok();
                }
                return InferBroadcast(c, x.dtype);
              }});
  for (const char* op : {"Add", "Sub", "Mul", "Div", "Pow", "Mod", "BitShift"}) {
    r.Register(
        {op, "", 2, 2, 1, 1, [](InferContext& c) { return InferBroadcast(c, c.in(0).dtype); }});
  }
  for (const char* op : {"Sum", "Max", "Min", "Mean"}) {
    r.Register(Variadic({op, "", 1, 1 << 20, 1, 1,
                         [](InferContext& c) { return InferBroadcast(c, c.in(0).dtype); }}));
  }
  for (const char* op :
       {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual", "And", "Or", "Xor"}) {
    r.Register(
        {op, "", 2, 2, 1, 1, [](InferContext& c) { return InferBroadcast(c, DataType::kBool); }});
  }
  r.Register({"Where", "", 3, 3, 1, 1, [](InferContext& c) {
                Shape s;
                bool known = false;
                OC_RETURN_IF_ERROR(BroadcastAll(c, 0, 3, &s, &known));
                if (c.in(1).dtype != c.in(2).dtype) return c.Error("X and Y types differ");
                if (known)
                  c.SetOutput(0, c.in(1).dtype, s);
                else
                  c.SetOutputTypeOnly(0, c.in(1).dtype);
                return Status::Ok();
              }});
  r.Register({"Cast", "", 1, 1, 1, 1, [](InferContext& c) {
                int64_t to = c.attrs().GetInt("to", 0);
                if (!IsValidDataType(static_cast<int32_t>(to)) || to == 0)
                  return c.Error("invalid 'to' type " + std::to_string(to));
                if (static_cast<DataType>(to) == DataType::kString)
                  return c.Error("Cast to string: OpenCANN computes no string tensors");
                c.outputs[0] = c.in(0);
                c.outputs[0].dtype = static_cast<DataType>(to);
                return Status::Ok();
              }});
  r.Register({"CastLike", "", 2, 2, 1, 1, [](InferContext& c) {
                c.outputs[0] = c.in(0);
                c.outputs[0].dtype = c.in(1).dtype;
                return Status::Ok();
              }});
}

}  // namespace oc
