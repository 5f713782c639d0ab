#include <torch/extension.h>

at::Tensor deform_conv_forward_cuda(at::Tensor input, at::Tensor weight, at::Tensor offset,
                                    int stride, int pad);

at::Tensor deform_conv_forward(at::Tensor input, at::Tensor weight, at::Tensor offset, int stride,
                               int pad) {
  TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
  return deform_conv_forward_cuda(input, weight, offset, stride, pad);
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("forward", &deform_conv_forward); }
