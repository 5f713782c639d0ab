// An elementwise GELU: one thread per element.
#include <cuda_runtime.h>

__global__ void gelu_kernel(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
  }
}

void gelu(const float* x, float* y, int n, cudaStream_t s) {
  gelu_kernel<<<(n + 255) / 256, 256, 0, s>>>(x, y, n);
}
