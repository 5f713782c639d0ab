// An Ascend C kernel as written for the NPU: a by-value tiling struct, a template kernel,
// and launches with <<<>>> (compiled by ccec in tests/e2e/test_ccec.py).
#include "kernel_operator.h"
#include "scale_add_tiling.h"

using namespace AscendC;

template <typename T>
class ScaleAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const ScaleAddTiling& t) {
    const uint32_t per_block = t.total / GetBlockNum();
    x_.SetGlobalBuffer((__gm__ T*)x + GetBlockIdx() * per_block, per_block);
    y_.SetGlobalBuffer((__gm__ T*)y + GetBlockIdx() * per_block, per_block);
    z_.SetGlobalBuffer((__gm__ T*)z + GetBlockIdx() * per_block, per_block);
    n_ = per_block;
    scale_ = t.scale;
    pipe_.InitBuffer(in_, 1, n_ * sizeof(T) * 2);
    pipe_.InitBuffer(out_, 1, n_ * sizeof(T));
  }
  __aicore__ inline void Process() {
    LocalTensor<T> in = in_.AllocTensor<T>();
    DataCopy(in, x_, n_);
    DataCopy(in[n_], y_, n_);
    in_.EnQue(in);
    in = in_.DeQue<T>();
    LocalTensor<T> out = out_.AllocTensor<T>();
    Muls(out, in, static_cast<T>(scale_), n_);
    Add(out, out, in[n_], n_);
    out_.EnQue(out);
    in_.FreeTensor(in);
    out = out_.DeQue<T>();
    DataCopy(z_, out, n_);
    out_.FreeTensor(out);
  }

 private:
  TPipe pipe_;
  TQue<QuePosition::VECIN, 1> in_;
  TQue<QuePosition::VECOUT, 1> out_;
  GlobalTensor<T> x_, y_, z_;
  uint32_t n_ = 0;
  float scale_ = 0;
};

template <typename T>
__global__ __aicore__ void scale_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, ScaleAddTiling tiling) {
  ScaleAdd<T> op;
  op.Init(x, y, z, tiling);
  op.Process();
}

void scale_add_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* y, uint8_t* z,
                  ScaleAddTiling tiling) {
  scale_add<float><<<blockDim, nullptr, stream>>>(x, y, z, tiling);
}
