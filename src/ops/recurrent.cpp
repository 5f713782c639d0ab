// RNN, GRU and LSTM.
#include "ops/op_families.h"
#include "ops/schema_helpers.h"
#include "ops/shape_rules.h"

namespace oc {
namespace {

Status InferRecurrent(InferContext& c) {
  const ValueInfo& x = c.in(0);
  const ValueInfo& w = c.in(1);
  if (!x.has_shape || !w.has_shape || x.shape.size() != 3 || w.shape.size() != 3)
    return c.Error("X and W must be 3-D");
  std::vector<const Shape*> shapes;
  for (size_t i = 0; i < c.num_inputs(); ++i)
    shapes.push_back(c.has_input(i) && c.in(i).has_shape ? &c.in(i).shape : nullptr);
  RecurrentDims d;
  Status s = RecurrentShapes(c.node->op_type, c.attrs(), shapes, &d);
  if (!s.ok()) return c.Error(s.message());
  const bool batch_first = c.attrs().GetInt("layout", 0) != 0;
  if (c.outputs.size() > 0)
    c.SetOutput(0, x.dtype,
                batch_first ? Shape{d.batch, d.seq, d.dirs, d.hidden}
                            : Shape{d.seq, d.dirs, d.batch, d.hidden});
  for (size_t k = 1; k < c.outputs.size(); ++k)
    c.SetOutput(k, x.dtype,
                batch_first ? Shape{d.batch, d.dirs, d.hidden} : Shape{d.dirs, d.batch, d.hidden});
  return Status::Ok();
}

// One input's shape against what the others make it: a -1 on either side matches anything.
Status ExpectShape(const char* name, const Shape* have, const Shape& want) {
  if (!have) return Status::Ok();
  bool fits = have->size() == want.size();
  for (size_t i = 0; fits && i < want.size(); ++i)
    fits = (*have)[i] < 0 || want[i] < 0 || (*have)[i] == want[i];
  if (!fits)
    return InvalidArgument(std::string(name) + " is " + ShapeToString(*have) + ", expected " +
                           ShapeToString(want));
  return Status::Ok();
}

}  // namespace

Status RecurrentShapes(const std::string& op, const AttributeMap& attrs,
                       const std::vector<const Shape*>& inputs, RecurrentDims* dims) {
  auto input = [&](size_t i) { return i < inputs.size() ? inputs[i] : nullptr; };
  const Shape* x = input(0);
  const Shape* w = input(1);
  if (!x || !w || x->size() != 3 || w->size() != 3) return InvalidArgument("X and W must be 3-D");
  RecurrentDims d;
  d.gates = op == "LSTM" ? 4 : op == "GRU" ? 3 : 1;
  const bool batch_first = attrs.GetInt("layout", 0) != 0;
  d.seq = batch_first ? (*x)[1] : (*x)[0];
  d.batch = batch_first ? (*x)[0] : (*x)[1];
  d.input = (*x)[2];
  // hidden_size is optional in ONNX: R's last dim tells it.
  const Shape* r = input(2);
  d.hidden = attrs.Has("hidden_size") ? attrs.GetInt("hidden_size", -1)
             : r && r->size() == 3    ? (*r)[2]
                                      : -1;
  if (d.hidden <= 0 || d.hidden > (int64_t{1} << 24))
    return InvalidArgument("hidden_size must be positive (and below 2^24), not " +
                           std::to_string(d.hidden));
  const std::string direction = attrs.GetString("direction", "forward");
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional")
    return InvalidArgument("direction [" + direction +
                           "] is not forward, reverse or bidirectional");
  d.dirs = direction == "bidirectional" ? 2 : 1;
  // The weights decide how much memory the kernel reads: each is checked against X, the
  // direction and hidden_size, so that no kernel reads past one.
  const int64_t gh = d.gates * d.hidden;
  OC_RETURN_IF_ERROR(ExpectShape("W", w, {d.dirs, gh, d.input}));
  OC_RETURN_IF_ERROR(ExpectShape("R", input(2), {d.dirs, gh, d.hidden}));
  OC_RETURN_IF_ERROR(ExpectShape("B", input(3), {d.dirs, 2 * gh}));
  OC_RETURN_IF_ERROR(ExpectShape("sequence_lens", input(4), {d.batch}));
  const Shape state =
      batch_first ? Shape{d.batch, d.dirs, d.hidden} : Shape{d.dirs, d.batch, d.hidden};
  OC_RETURN_IF_ERROR(ExpectShape("initial_h", input(5), state));
  if (op == "LSTM") {
    OC_RETURN_IF_ERROR(ExpectShape("initial_c", input(6), state));
    OC_RETURN_IF_ERROR(ExpectShape("P", input(7), {d.dirs, 3 * d.hidden}));
  }
  // X's input size may be unknown at compile time; W's then tells it.
  if (d.input < 0) d.input = (*w)[2];
  *dims = d;
  return Status::Ok();
}

void RegisterRecurrentSchemas(OpRegistry& r) {
  r.Register({"RNN", "", 3, 6, 0, 2, InferRecurrent});
  r.Register({"GRU", "", 3, 6, 0, 2, InferRecurrent});
  r.Register({"LSTM", "", 3, 8, 0, 3, InferRecurrent});
}

}  // namespace oc
