// oc.Aipp: the static AIPP the compiler inserts for --insert_op_conf (driver/aipp.cpp).
// Input: the stored image, UINT8 [N, stored H, W, stored C]; output: float32 NCHW of the
// model input's shape (attribute out_chw).
#include "ops/op_families.h"
#include "ops/schema_helpers.h"

namespace oc {

void RegisterAippSchemas(OpRegistry& r) {
  r.Register({"Aipp", kOcDomain, 1, 1, 1, 1, [](InferContext& c) {
                const auto chw = c.attrs().GetInts("out_chw");
                if (chw.size() != 3) return c.Error("attribute out_chw must hold C, H, W");
                if (c.in(0).dtype != DataType::kUint8) return c.Error("the image must be uint8");
                if (!c.in(0).has_shape || c.in(0).shape.size() != 4)
                  return c.Error("the image must be NHWC");
                c.SetOutput(0, DataType::kFloat, {c.in(0).shape[0], chw[0], chw[1], chw[2]});
                return Status::Ok();
              }});
}

}  // namespace oc
