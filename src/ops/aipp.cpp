// oc.Aipp: the AIPP the compiler inserts for --insert_op_conf (driver/aipp.cpp).
// Static: input the stored image, UINT8 [N, stored H, W, stored C]; the parameters are
// attributes. Dynamic (attribute dynamic=1): inputs the image bytes, UINT8
// [max_src_image_size], and the parameter input (ops/aipp_params.h) written at run time by
// aclmdlSetInputAIPP; attribute batch gives N. Output: float32 NCHW of the model input's
// shape (attribute out_chw).
#include "ops/aipp_params.h"
#include "ops/op_families.h"
#include "ops/schema_helpers.h"

namespace oc {

void RegisterAippSchemas(OpRegistry& r) {
  r.Register({"Aipp", kOcDomain, 1, 2, 1, 1, [](InferContext& c) {
                const auto chw = c.attrs().GetInts("out_chw");
                if (chw.size() != 3) return c.Error("attribute out_chw must hold C, H, W");
                if (c.in(0).dtype != DataType::kUint8) return c.Error("the image must be uint8");
                if (c.attrs().GetInt("dynamic", 0)) {
                  const int64_t batch = c.attrs().GetInt("batch", 0);
                  if (c.num_inputs() != 2 || c.in(1).dtype != DataType::kUint8)
                    return c.Error("dynamic AIPP takes the image and its uint8 parameters");
                  const int64_t params_batch = c.attrs().GetInt("params_batch", batch);
                  if (batch < 1 || params_batch < batch || AippDynamicDataSize(params_batch) == 0)
                    return c.Error("dynamic AIPP batch must be 1.." +
                                   std::to_string(kAippMaxBatch));
                  c.SetOutput(0, DataType::kFloat, {batch, chw[0], chw[1], chw[2]});
                  return Status::Ok();
                }
                if (!c.in(0).has_shape || c.in(0).shape.size() != 4)
                  return c.Error("the image must be NHWC");
                c.SetOutput(0, DataType::kFloat, {c.in(0).shape[0], chw[0], chw[1], chw[2]});
                return Status::Ok();
              }});
}

}  // namespace oc
