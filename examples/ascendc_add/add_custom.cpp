// Ascend C's AddCustom kernel (8 blocks, double buffering) debugged on the CPU with
// OpenCANN: the kernel is the NPU source; main() is the CPU-debug host program.
#include <cmath>
#include <cstdio>

#include "kernel_operator.h"
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
#endif

using namespace AscendC;

constexpr int32_t TOTAL_LENGTH = 8 * 2048;
constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;
constexpr int32_t TILE_NUM = 8;
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t TILE_LENGTH = BLOCK_LENGTH / TILE_NUM / BUFFER_NUM;

class KernelAdd {
 public:
  __aicore__ inline KernelAdd() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    xGm.SetGlobalBuffer((__gm__ half*)x + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
    yGm.SetGlobalBuffer((__gm__ half*)y + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
    zGm.SetGlobalBuffer((__gm__ half*)z + BLOCK_LENGTH * GetBlockIdx(), BLOCK_LENGTH);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(half));
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < TILE_NUM * BUFFER_NUM; i++) {
      CopyIn(i);
      Compute(i);
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(int32_t progress) {
    LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
    LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
    DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
    DataCopy(yLocal, yGm[progress * TILE_LENGTH], TILE_LENGTH);
    inQueueX.EnQue(xLocal);
    inQueueY.EnQue(yLocal);
  }
  __aicore__ inline void Compute(int32_t progress) {
    LocalTensor<half> xLocal = inQueueX.DeQue<half>();
    LocalTensor<half> yLocal = inQueueY.DeQue<half>();
    LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
    Add(zLocal, xLocal, yLocal, TILE_LENGTH);
    outQueueZ.EnQue<half>(zLocal);
    inQueueX.FreeTensor(xLocal);
    inQueueY.FreeTensor(yLocal);
  }
  __aicore__ inline void CopyOut(int32_t progress) {
    LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
    DataCopy(zGm[progress * TILE_LENGTH], zLocal, TILE_LENGTH);
    outQueueZ.FreeTensor(zLocal);
  }

  TPipe pipe;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
  GlobalTensor<half> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelAdd op;
  op.Init(x, y, z);
  op.Process();
}

// Tests include this file for the kernel alone.
#if defined(ASCENDC_CPU_DEBUG) && !defined(OC_KERNEL_ONLY)
int main() {
  const size_t bytes = TOTAL_LENGTH * sizeof(half);
  auto* x = static_cast<half*>(AscendC::GmAlloc(bytes));
  auto* y = static_cast<half*>(AscendC::GmAlloc(bytes));
  auto* z = static_cast<half*>(AscendC::GmAlloc(bytes));
  for (int i = 0; i < TOTAL_LENGTH; ++i) {
    x[i] = half(std::sin(0.01f * i));
    y[i] = half(std::cos(0.03f * i));
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  const bool ok = ICPU_RUN_KF(add_custom, USE_CORE_NUM, (uint8_t*)x, (uint8_t*)y, (uint8_t*)z);
  int wrong = 0;
  for (int i = 0; i < TOTAL_LENGTH; ++i)
    if (float(z[i]) != float(half(float(x[i]) + float(y[i])))) ++wrong;
  std::printf("%s: %d of %d elements differ from the reference\n", wrong ? "FAIL" : "PASS", wrong,
              TOTAL_LENGTH);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return ok && !wrong ? 0 : 1;
}
#endif
