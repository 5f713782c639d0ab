// RNN, GRU and LSTM.
#include "ops/op_families.h"
#include "ops/schema_helpers.h"

namespace oc {
namespace {

Status InferRecurrent(InferContext& c) {
  const ValueInfo& x = c.in(0);
  const ValueInfo& w = c.in(1);
  if (!x.has_shape || !w.has_shape || x.shape.size() != 3 || w.shape.size() != 3)
    return c.Error("X and W must be 3-D");
  const int64_t layout = c.attrs().GetInt("layout", 0);
  const int64_t seq = layout ? x.shape[1] : x.shape[0], batch = layout ? x.shape[0] : x.shape[1];
  const int64_t dirs = w.shape[0];
  const int64_t hidden = c.attrs().GetInt("hidden_size", -1);
  if (hidden <= 0) return c.Error("hidden_size is required");
  if (c.outputs.size() > 0)
    c.SetOutput(0, x.dtype,
                layout ? Shape{batch, seq, dirs, hidden} : Shape{seq, dirs, batch, hidden});
  for (size_t k = 1; k < c.outputs.size(); ++k)
    c.SetOutput(k, x.dtype, layout ? Shape{batch, dirs, hidden} : Shape{dirs, batch, hidden});
  return Status::Ok();
}

}  // namespace

void RegisterRecurrentSchemas(OpRegistry& r) {
  r.Register({"RNN", "", 3, 6, 0, 2, InferRecurrent});
  r.Register({"GRU", "", 3, 6, 0, 2, InferRecurrent});
  r.Register({"LSTM", "", 3, 8, 0, 3, InferRecurrent});
}

}  // namespace oc
