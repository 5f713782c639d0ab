// Chamfer distance between two point clouds: each block stages a tile of the second cloud in
// shared memory and every thread scans it for its point's nearest neighbour.
#include <cuda_runtime.h>

__global__ void chamfer_forward_kernel(int b, int n, const float* xyz1, int m, const float* xyz2,
                                       float* dist, int* idx) {
  __shared__ float tile[512 * 3];
  for (int i = blockIdx.x; i < b; i += gridDim.x) {
    for (int k0 = 0; k0 < m; k0 += 512) {
      int end = min(m, k0 + 512) - k0;
      for (int j = threadIdx.x; j < end * 3; j += blockDim.x) tile[j] = xyz2[(i * m + k0) * 3 + j];
      __syncthreads();
      for (int j = threadIdx.x + blockIdx.y * blockDim.x; j < n; j += blockDim.x * gridDim.y) {
        float x1 = xyz1[(i * n + j) * 3], y1 = xyz1[(i * n + j) * 3 + 1], z1 = xyz1[(i * n + j) * 3 + 2];
        float best = 1e30f;
        int best_k = 0;
        for (int k = 0; k < end; ++k) {
          float dx = tile[k * 3] - x1, dy = tile[k * 3 + 1] - y1, dz = tile[k * 3 + 2] - z1;
          float d = dx * dx + dy * dy + dz * dz;
          if (d < best) best = d, best_k = k + k0;
        }
        if (k0 == 0 || best < dist[i * n + j]) dist[i * n + j] = best, idx[i * n + j] = best_k;
      }
      __syncthreads();
    }
  }
}

__global__ void chamfer_backward_kernel(int b, int n, const float* xyz1, int m, const float* xyz2,
                                        const float* grad_dist, const int* idx, float* grad1,
                                        float* grad2) {
  for (int i = blockIdx.x; i < b; i += gridDim.x)
    for (int j = threadIdx.x + blockIdx.y * blockDim.x; j < n; j += blockDim.x * gridDim.y) {
      int k = idx[i * n + j];
      float g = grad_dist[i * n + j] * 2;
      for (int c = 0; c < 3; ++c) {
        float d = xyz1[(i * n + j) * 3 + c] - xyz2[(i * m + k) * 3 + c];
        atomicAdd(grad1 + (i * n + j) * 3 + c, g * d);
        atomicAdd(grad2 + (i * m + k) * 3 + c, -g * d);
      }
    }
}
