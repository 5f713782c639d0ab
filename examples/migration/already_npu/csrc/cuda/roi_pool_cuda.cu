// RoI max pooling, one thread per output element.
__global__ void roi_pool_forward_cuda_kernel(const float* input, const float* rois, float* output,
                                             int channels, int height, int width, int pooled_h,
                                             int pooled_w, float scale, int n) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= n) return;
  int pw = index % pooled_w, ph = (index / pooled_w) % pooled_h;
  int c = (index / pooled_w / pooled_h) % channels, r = index / pooled_w / pooled_h / channels;
  const float* roi = rois + r * 5;
  int x0 = roi[1] * scale, y0 = roi[2] * scale;
  float best = -1e30f;
  for (int y = y0 + ph; y <= y0 + ph; ++y)
    for (int x = x0 + pw; x <= x0 + pw; ++x)
      if (y >= 0 && y < height && x >= 0 && x < width)
        best = fmaxf(best, input[(c * height + y) * width + x]);
  output[index] = best;
}
