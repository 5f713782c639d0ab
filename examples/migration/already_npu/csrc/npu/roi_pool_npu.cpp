// RoI max pooling on the NPU through CANN's built-in RoiPooling operator.
#include <torch/extension.h>

at::Tensor roi_pool_forward_npu(const at::Tensor& input, const at::Tensor& rois, int64_t pooled_h,
                                int64_t pooled_w, double scale);

TORCH_LIBRARY_IMPL(ext, PrivateUse1, m) { m.impl("roi_pool_forward", roi_pool_forward_npu); }
