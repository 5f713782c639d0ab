// Runs a TorchScript classifier with libtorch on the GPU.
#include <torch/script.h>
#include <torch/torch.h>

#include <iostream>

int main(int argc, char** argv) {
  if (argc < 2) return 1;
  torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  torch::jit::script::Module module = torch::jit::load(argv[1], device);
  module.eval();
  torch::NoGradGuard no_grad;
  auto input = torch::rand({1, 3, 224, 224}, torch::TensorOptions().device(device));
  at::Tensor out = module.forward({input}).toTensor();
  if (out.is_cuda()) out = out.cpu();
  std::cout << out.argmax(1).item<int64_t>() << "\n";
  return 0;
}
