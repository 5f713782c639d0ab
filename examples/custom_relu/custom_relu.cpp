// The seed's CustomReLU in Ascend C: y = max(x, 0). Copied over the skeleton msopgen writes
// (op_kernel/custom_re_lu.cpp: CANN's msopgen names the files of CustomReLU so); DTYPE_X / DTYPE_Y
// are float or half per type combination.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;  // double buffering: copy-in of tile i+1 overlaps tile i

class KernelCustomReLU {
 public:
  __aicore__ inline KernelCustomReLU() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t tileLength) {
    // Each block takes a contiguous share; the last one may be shorter (or empty).
    const uint32_t perBlock = (totalLength + GetBlockNum() - 1) / GetBlockNum();
    const uint32_t start = perBlock * GetBlockIdx();
    length_ = start >= totalLength
                  ? 0
                  : (totalLength - start < perBlock ? totalLength - start : perBlock);
    tileLength_ = tileLength;
    xGm_.SetGlobalBuffer((__gm__ DTYPE_X*)x + start, length_);
    yGm_.SetGlobalBuffer((__gm__ DTYPE_Y*)y + start, length_);
    pipe_.InitBuffer(inQueue_, BUFFER_NUM, tileLength_ * sizeof(DTYPE_X));
    pipe_.InitBuffer(outQueue_, BUFFER_NUM, tileLength_ * sizeof(DTYPE_Y));
  }
  __aicore__ inline void Process() {
    for (uint32_t offset = 0; offset < length_; offset += tileLength_) {
      const uint32_t count = length_ - offset < tileLength_ ? length_ - offset : tileLength_;
      CopyIn(offset, count);
      Compute(count);
      CopyOut(offset, count);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t offset, uint32_t count) {
    LocalTensor<DTYPE_X> x = inQueue_.AllocTensor<DTYPE_X>();
    // DataCopyPad: the tail tile need not be a multiple of 32 bytes.
    DataCopyPad(x, xGm_[offset], DataCopyExtParams(1, count * sizeof(DTYPE_X), 0, 0, 0),
                DataCopyPadExtParams<DTYPE_X>());
    inQueue_.EnQue(x);
  }
  __aicore__ inline void Compute(uint32_t count) {
    LocalTensor<DTYPE_X> x = inQueue_.DeQue<DTYPE_X>();
    LocalTensor<DTYPE_Y> y = outQueue_.AllocTensor<DTYPE_Y>();
    Relu(y, x, static_cast<int32_t>(count));
    outQueue_.EnQue(y);
    inQueue_.FreeTensor(x);
  }
  __aicore__ inline void CopyOut(uint32_t offset, uint32_t count) {
    LocalTensor<DTYPE_Y> y = outQueue_.DeQue<DTYPE_Y>();
    DataCopyPad(yGm_[offset], y, DataCopyExtParams(1, count * sizeof(DTYPE_Y), 0, 0, 0));
    outQueue_.FreeTensor(y);
  }

  TPipe pipe_;
  TQue<QuePosition::VECIN, BUFFER_NUM> inQueue_;
  TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue_;
  GlobalTensor<DTYPE_X> xGm_;
  GlobalTensor<DTYPE_Y> yGm_;
  uint32_t length_ = 0, tileLength_ = 0;
};

extern "C" __global__ __aicore__ void custom_re_lu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                   GM_ADDR tiling) {
  GET_TILING_DATA(tilingData, tiling);
  KernelCustomReLU op;
  op.Init(x, y, tilingData.totalLength, tilingData.tileLength);
  op.Process();
}
