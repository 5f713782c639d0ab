// Tutorial 2: four tiny Ascend C kernels, each making one point about the AI Core.
//   add_single_buffer / add_double_buffer  z = x + y over tiles: one UB buffer per queue makes
//       the copy-in wait for the compute; two let MTE2 stream while the Vector unit adds
//   add_bank_conflict / add_bank_spread    z = x + y on one tile, with x and y placed in UB so
//       that their rows fall in the same bank groups, or in different ones
//   ub_overflow                            asks for more Unified Buffer than a core has
//   misaligned_copy                        a DataCopy into UB at a 4-byte offset
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t kTile = 2048;  // floats per tile: 8 KiB

// `buffers` is how many UB buffers each queue gets: 1 (single) or 2 (double buffering).
__aicore__ inline void AddTiles(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t tiles, int32_t buffers) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inX, inY;
  TQue<QuePosition::VECOUT, 2> outZ;
  pipe.InitBuffer(inX, buffers, kTile * sizeof(float));
  pipe.InitBuffer(inY, buffers, kTile * sizeof(float));
  pipe.InitBuffer(outZ, buffers, kTile * sizeof(float));
  GlobalTensor<float> gx, gy, gz;
  gx.SetGlobalBuffer((__gm__ float*)x, tiles * kTile);
  gy.SetGlobalBuffer((__gm__ float*)y, tiles * kTile);
  gz.SetGlobalBuffer((__gm__ float*)z, tiles * kTile);
  for (uint32_t t = 0; t < tiles; ++t) {
    // Stage 1, MTE2: global memory -> UB.
    LocalTensor<float> a = inX.AllocTensor<float>();
    LocalTensor<float> b = inY.AllocTensor<float>();
    DataCopy(a, gx[t * kTile], kTile);
    DataCopy(b, gy[t * kTile], kTile);
    inX.EnQue(a);
    inY.EnQue(b);
    // Stage 2, Vector: compute in UB. DeQue waits for the copy (the queue is the flag).
    LocalTensor<float> xa = inX.DeQue<float>();
    LocalTensor<float> yb = inY.DeQue<float>();
    LocalTensor<float> c = outZ.AllocTensor<float>();
    // Work of the size of the copies, as a real kernel has (x0.5 then x2 is exact, so z is
    // still x + y): now the order of the pipes matters.
    for (int pass = 0; pass < 8; ++pass) {
      Muls(xa, xa, 0.5f, kTile);
      Muls(xa, xa, 2.0f, kTile);
    }
    Add(c, xa, yb, kTile);
    outZ.EnQue(c);
    inX.FreeTensor(xa);
    inY.FreeTensor(yb);
    // Stage 3, MTE3: UB -> global memory.
    LocalTensor<float> zc = outZ.DeQue<float>();
    DataCopy(gz[t * kTile], zc, kTile);
    outZ.FreeTensor(zc);
  }
}

extern "C" __global__ __aicore__ void add_single_buffer(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  AddTiles(x, y, z, 16, 1);
}
extern "C" __global__ __aicore__ void add_double_buffer(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  AddTiles(x, y, z, 16, 2);
}

// x and y in one TBuf; `gap` bytes between them decide their bank groups (a 32-byte row's group
// is (offset / 32) mod 16): 8 KiB apart, a multiple of 512, puts each x row in the same group
// as the y row it is added to; 256 bytes more spreads them.
__aicore__ inline void AddOneTile(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t gap) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 3 * kTile * sizeof(float) + gap);
  LocalTensor<float> all = buf.Get<float>();
  LocalTensor<float> a = all;
  LocalTensor<float> b = all[kTile + gap / sizeof(float)];
  LocalTensor<float> c = all[2 * kTile + gap / sizeof(float)];
  GlobalTensor<float> gx, gy, gz;
  gx.SetGlobalBuffer((__gm__ float*)x, kTile);
  gy.SetGlobalBuffer((__gm__ float*)y, kTile);
  gz.SetGlobalBuffer((__gm__ float*)z, kTile);
  DataCopy(a, gx, kTile);
  DataCopy(b, gy, kTile);
  SetFlag<HardEvent::MTE2_V>(0);  // no queue here: order the pipes by hand
  WaitFlag<HardEvent::MTE2_V>(0);
  for (int i = 0; i < 8; ++i) Add(c, a, b, kTile);  // eight passes make the difference visible
  SetFlag<HardEvent::V_MTE3>(0);
  WaitFlag<HardEvent::V_MTE3>(0);
  DataCopy(gz, c, kTile);
}

extern "C" __global__ __aicore__ void add_bank_conflict(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  AddOneTile(x, y, z, 0);
}
extern "C" __global__ __aicore__ void add_bank_spread(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  AddOneTile(x, y, z, 256);
}

// 2 buffers x 3 queues x 40 KiB = 240 KiB: more than the 192 KiB of UB a 910B core has.
extern "C" __global__ __aicore__ void ub_overflow(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> inX, inY;
  TQue<QuePosition::VECOUT, 2> outZ;
  pipe.InitBuffer(inX, 2, 40 * 1024);
  pipe.InitBuffer(inY, 2, 40 * 1024);
  pipe.InitBuffer(outZ, 2, 40 * 1024);
  (void)x, (void)y, (void)z;
}

// UB addresses a DataCopy touches must be 32-byte aligned; element 1 of a float tensor is not.
extern "C" __global__ __aicore__ void misaligned_copy(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, kTile * sizeof(float));
  LocalTensor<float> t = buf.Get<float>();
  GlobalTensor<float> gx;
  gx.SetGlobalBuffer((__gm__ float*)x, kTile);
  DataCopy(t[1], gx, 64);
  (void)y, (void)z;
}
