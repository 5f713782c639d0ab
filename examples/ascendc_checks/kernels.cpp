// The kernels of run_checks (main.cpp); tests/e2e/test_ascendc_kernels.py checks them.
#include "kernel_operator.h"

using namespace AscendC;

// y[r] = [-1, x[r, 0..12], -1, -1] for 8 rows of 13 halves: Pad's unaligned-row case.
extern "C" __global__ __aicore__ void pad_rows_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tilingGm) {
  PadTiling tiling;
  std::memcpy(&tiling, tilingGm, sizeof(tiling));
  const uint32_t rows = tiling.srcHeight, width = tiling.srcWidth, padded = 16;
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> in;
  TQue<QuePosition::VECOUT, 1> out;
  TBuf<TPosition::VECCALC> tmp;
  pipe.InitBuffer(in, 1, rows * padded * sizeof(half));
  pipe.InitBuffer(out, 1, rows * padded * sizeof(half));
  pipe.InitBuffer(tmp, 1024);
  GlobalTensor<half> gx, gy;
  gx.SetGlobalBuffer((__gm__ half*)x, rows * width);
  gy.SetGlobalBuffer((__gm__ half*)y, rows * padded);
  LocalTensor<half> a = in.AllocTensor<half>();
  // The rows are 26 bytes: DataCopyPad moves them exactly, one burst of all rows.
  DataCopyPad(a, gx, DataCopyExtParams(1, rows * width * sizeof(half), 0, 0, 0),
              DataCopyPadExtParams<half>(false, 0, 0, half(0)));
  in.EnQue(a);
  a = in.DeQue<half>();
  LocalTensor<half> b = out.AllocTensor<half>();
  PadParams p{1, 2, -1};
  Pad(b, a, p, tmp.Get<uint8_t>(), tiling);
  out.EnQue(b);
  in.FreeTensor(a);
  b = out.DeQue<half>();
  DataCopy(gy, b, rows * padded);
  out.FreeTensor(b);
}

// The positive values of 1024 floats, packed into y, and their count into count[0].
extern "C" __global__ __aicore__ void keep_positive_custom(GM_ADDR x, GM_ADDR y, GM_ADDR count) {
  constexpr uint32_t n = 1024;
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> in;
  TQue<QuePosition::VECOUT, 1> out;
  TBuf<TPosition::VECCALC> bits, result;
  pipe.InitBuffer(in, 1, n * sizeof(float));
  pipe.InitBuffer(out, 1, n * sizeof(float));
  pipe.InitBuffer(bits, n / 64 * 32);
  pipe.InitBuffer(result, 32);
  GlobalTensor<float> gx, gy;
  GlobalTensor<int32_t> gc;
  gx.SetGlobalBuffer((__gm__ float*)x, n);
  gy.SetGlobalBuffer((__gm__ float*)y, n);
  gc.SetGlobalBuffer((__gm__ int32_t*)count, 8);
  LocalTensor<float> a = in.AllocTensor<float>();
  DataCopy(a, gx, n);
  in.EnQue(a);
  a = in.DeQue<float>();
  // A bit per element (x > 0), each repeat's 64 bits at the start of its own 32-byte block:
  // GatherMask's pattern moves in 32-byte blocks (src1RepeatStride 1).
  LocalTensor<uint8_t> mask = bits.Get<uint8_t>();
  for (uint32_t r = 0; r < n / 64; ++r) Compares(mask[r * 32], a[r * 64], 0.0f, CMPMODE::GT, 64);
  LocalTensor<float> b = out.AllocTensor<float>();
  Duplicate(b, 0.0f, n);
  uint64_t kept = 0;
  GatherMask(b, a, mask.ReinterpretCast<uint32_t>(), false, 0, GatherMaskParams(1, n / 64, 8, 1),
             kept);
  out.EnQue(b);
  in.FreeTensor(a);
  b = out.DeQue<float>();
  DataCopy(gy, b, n);
  out.FreeTensor(b);
  LocalTensor<int32_t> c = result.Get<int32_t>();
  Duplicate(c, static_cast<int32_t>(kept), 8);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
  DataCopy(gc, c, 8);
}

// y = 2x through one TBuf, 4 blocks of 1024 floats. Without the flags the MTE2 copy in, the
// vector multiply and the MTE3 copy out touch the same UB with nothing ordering them: right
// on a CPU, a race on the NPU.
template <bool flags>
void Scale(GM_ADDR x, GM_ADDR y) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024 * sizeof(float));
  GlobalTensor<float> gx, gy;
  gx.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * 1024, 1024);
  gy.SetGlobalBuffer((__gm__ float*)y + GetBlockIdx() * 1024, 1024);
  LocalTensor<float> t = buf.Get<float>();
  DataCopy(t, gx, 1024);
  if (flags) {
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
  }
  Muls(t, t, 2.0f, 1024);
  if (flags) {
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
  }
  DataCopy(gy, t, 1024);
}

extern "C" __global__ __aicore__ void racy_scale_custom(GM_ADDR x, GM_ADDR y) {
  Scale<false>(x, y);
}
extern "C" __global__ __aicore__ void synced_scale_custom(GM_ADDR x, GM_ADDR y) {
  Scale<true>(x, y);
}
