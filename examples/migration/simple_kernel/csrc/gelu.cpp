#include <torch/extension.h>
void gelu(const float* x, float* y, int n, cudaStream_t s);
torch::Tensor gelu_forward(torch::Tensor x) {
  auto y = torch::empty_like(x);
  gelu(x.data_ptr<float>(), y.data_ptr<float>(), x.numel(), at::cuda::getCurrentCUDAStream());
  return y;
}
PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) { m.def("forward", &gelu_forward); }
