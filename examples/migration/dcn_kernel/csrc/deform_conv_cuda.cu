// Deformable convolution v1: im2col with learned offsets (forward) and col2im (backward).
#include <cuda_runtime.h>

template <typename scalar_t>
__device__ scalar_t bilinear(const scalar_t* im, int h, int w, scalar_t y, scalar_t x) {
  int y0 = floor(y), x0 = floor(x);
  scalar_t ly = y - y0, lx = x - x0, v = 0;
  if (y0 >= 0 && x0 >= 0 && y0 < h && x0 < w) v += (1 - ly) * (1 - lx) * im[y0 * w + x0];
  if (y0 + 1 < h && x0 >= 0 && x0 < w) v += ly * (1 - lx) * im[(y0 + 1) * w + x0];
  if (x0 + 1 < w && y0 >= 0 && y0 < h) v += (1 - ly) * lx * im[y0 * w + x0 + 1];
  if (y0 + 1 < h && x0 + 1 < w) v += ly * lx * im[(y0 + 1) * w + x0 + 1];
  return v;
}

template <typename scalar_t>
__global__ void deformable_im2col_gpu_kernel(int n, const scalar_t* im, const scalar_t* offset,
                                             int height, int width, int kh, int kw, int pad,
                                             int stride, int out_h, int out_w, scalar_t* col) {
  for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < n;
       index += blockDim.x * gridDim.x) {
    int w_out = index % out_w, h_out = (index / out_w) % out_h, c = index / out_w / out_h;
    const scalar_t* im_c = im + c * height * width;
    for (int i = 0; i < kh; ++i)
      for (int j = 0; j < kw; ++j) {
        int k = (i * kw + j) * 2;
        scalar_t y = h_out * stride - pad + i + offset[(k * out_h + h_out) * out_w + w_out];
        scalar_t x = w_out * stride - pad + j + offset[((k + 1) * out_h + h_out) * out_w + w_out];
        col[((c * kh * kw + i * kw + j) * out_h + h_out) * out_w + w_out] =
            bilinear(im_c, height, width, y, x);
      }
  }
}

template <typename scalar_t>
__global__ void deformable_col2im_gpu_kernel(int n, const scalar_t* col, const scalar_t* offset,
                                             int height, int width, int kh, int kw, int pad,
                                             int stride, int out_h, int out_w, scalar_t* grad_im) {
  for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < n;
       index += blockDim.x * gridDim.x) {
    int w_out = index % out_w, h_out = (index / out_w) % out_h;
    int j = (index / out_w / out_h) % kw, i = (index / out_w / out_h / kw) % kh;
    int c = index / out_w / out_h / kw / kh, k = (i * kw + j) * 2;
    scalar_t y = h_out * stride - pad + i + offset[(k * out_h + h_out) * out_w + w_out];
    scalar_t x = w_out * stride - pad + j + offset[((k + 1) * out_h + h_out) * out_w + w_out];
    int yi = floor(y + 0.5f), xi = floor(x + 0.5f);
    if (yi >= 0 && yi < height && xi >= 0 && xi < width)
      atomicAdd(grad_im + (c * height + yi) * width + xi, col[index]);
  }
}

template __global__ void deformable_im2col_gpu_kernel<float>(int, const float*, const float*, int,
                                                             int, int, int, int, int, int, int,
                                                             float*);
