// Four Ascend C kernels debugged on the CPU, each checked against numpy by
// tests/e2e/test_ascendc_kernels.py (run_kernels reads inputs, writes outputs):
//   add_custom         z = x + y (half), 8 blocks, double buffered         (../ascendc_add)
//   leaky_relu_custom  y = x >= 0 ? x : alpha * x (float), tiling struct, ragged tail
//   row_sum_custom     y[r] = sum(x[r, :]) (float), a row per block group, ReduceSum
//   matmul_half        C = A x B (half in, float accumulate, half out), high-level Matmul
#include <cstring>

#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

// ---------- LeakyReLU ----------
struct LeakyTiling {
  uint32_t totalLength;
  uint32_t tileLength;
  float alpha;
};

extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
  LeakyTiling t;
  std::memcpy(&t, tiling, sizeof(t));
  const uint32_t perBlock = (t.totalLength + GetBlockNum() - 1) / GetBlockNum();
  const uint32_t start = perBlock * GetBlockIdx();
  const uint32_t mine = start >= t.totalLength ? 0 : std::min(perBlock, t.totalLength - start);
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> in;
  TQue<QuePosition::VECOUT, 2> out;
  pipe.InitBuffer(in, 2, t.tileLength * sizeof(float));
  pipe.InitBuffer(out, 2, t.tileLength * sizeof(float));
  GlobalTensor<float> gx, gy;
  gx.SetGlobalBuffer((__gm__ float*)x + start, mine);
  gy.SetGlobalBuffer((__gm__ float*)y + start, mine);
  for (uint32_t off = 0; off < mine; off += t.tileLength) {
    const uint32_t n = std::min(t.tileLength, mine - off);
    LocalTensor<float> a = in.AllocTensor<float>();
    DataCopyPad(a, gx[off], DataCopyExtParams(1, n * 4, 0, 0, 0), DataCopyPadExtParams<float>());
    in.EnQue(a);
    LocalTensor<float> b = in.DeQue<float>();
    LocalTensor<float> c = out.AllocTensor<float>();
    LeakyRelu(c, b, t.alpha, static_cast<int32_t>(n));
    out.EnQue(c);
    in.FreeTensor(b);
    LocalTensor<float> d = out.DeQue<float>();
    DataCopyPad(gy[off], d, DataCopyExtParams(1, n * 4, 0, 0, 0));
    out.FreeTensor(d);
  }
}

// ---------- row sums: rows x cols floats, cols a multiple of 8 (32-byte rows) ----------
extern "C" __global__ __aicore__ void row_sum_custom(GM_ADDR x, GM_ADDR y, uint32_t rows,
                                                     uint32_t cols) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 2> in;
  TBuf<TPosition::VECCALC> work, result;
  pipe.InitBuffer(in, 2, cols * sizeof(float));
  pipe.InitBuffer(work, cols * sizeof(float));
  pipe.InitBuffer(result, 32);
  GlobalTensor<float> gx, gy;
  gx.SetGlobalBuffer((__gm__ float*)x, uint64_t(rows) * cols);
  gy.SetGlobalBuffer((__gm__ float*)y, rows);
  LocalTensor<float> sum = result.Get<float>();
  for (uint32_t r = GetBlockIdx(); r < rows; r += GetBlockNum()) {
    LocalTensor<float> row = in.AllocTensor<float>();
    DataCopy(row, gx[uint64_t(r) * cols], cols);
    in.EnQue(row);
    LocalTensor<float> ready = in.DeQue<float>();
    ReduceSum(sum, ready, work.Get<float>(), static_cast<int32_t>(cols));
    gy.SetValue(r, sum.GetValue(0));
    in.FreeTensor(ready);
  }
}

// ---------- half-precision matmul with the high-level API ----------
extern "C" __global__ __aicore__ void matmul_half(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                  GM_ADDR tilingGm) {
  TPipe pipe;
  TCubeTiling tiling;
  std::memcpy(&tiling, tilingGm, sizeof(tiling));
  GlobalTensor<half> ga, gb, gc;
  ga.SetGlobalBuffer((__gm__ half*)a, tiling.M * tiling.Ka);
  gb.SetGlobalBuffer((__gm__ half*)b, tiling.Kb * tiling.N);
  gc.SetGlobalBuffer((__gm__ half*)c, tiling.M * tiling.N);
  const int mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
  const int mIdx = GetBlockIdx() % mBlocks, nIdx = GetBlockIdx() / mBlocks;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, half>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTail(std::min(tiling.M - mIdx * tiling.singleCoreM, tiling.singleCoreM),
             std::min(tiling.N - nIdx * tiling.singleCoreN, tiling.singleCoreN));
  mm.SetTensorA(ga[mIdx * tiling.singleCoreM * tiling.Ka]);
  mm.SetTensorB(gb[nIdx * tiling.singleCoreN]);
  mm.IterateAll(gc[mIdx * tiling.singleCoreM * tiling.N + nIdx * tiling.singleCoreN]);
  mm.End();
}

// ---------- Matmul + LeakyReLU in mix mode (1 cube : 2 vector cores) ----------
// C = LeakyReLU(A x B + bias), half inputs, float bias and output. Launched with blockDim =
// the number of cube cores; the tiling splits C over 2 x blockDim vector cores, which issue
// the Matmul calls (the cube core serves them) and apply LeakyReLU to each base block in UB.
struct MatmulLeakyReluKernel {
  using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using CType = MatmulType<TPosition::VECIN, CubeFormat::ND, float>;
  using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  Matmul<AType, BType, CType, BiasType> mm;
  TCubeTiling tiling;
  GlobalTensor<half> a, b;
  GlobalTensor<float> bias, c;
  TQue<QuePosition::VECOUT, 1> out;
  float alpha = 0.001f;

  void Init(GM_ADDR ga, GM_ADDR gb, GM_ADDR gbias, GM_ADDR gc, TPipe* pipe) {
    a.SetGlobalBuffer((__gm__ half*)ga, tiling.M * tiling.Ka);
    b.SetGlobalBuffer((__gm__ half*)gb, tiling.Kb * tiling.N);
    bias.SetGlobalBuffer((__gm__ float*)gbias, tiling.N);
    c.SetGlobalBuffer((__gm__ float*)gc, tiling.M * tiling.N);
    pipe->InitBuffer(out, 1, tiling.baseM * tiling.baseN * sizeof(float));
  }

  void Process() {
    const int mCores = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    const int core = static_cast<int>(GetBlockIdx());
    if (core >= tiling.usedCoreNum) return;
    const int mIdx = core % mCores, nIdx = core / mCores;
    const int m0 = mIdx * tiling.singleCoreM, n0 = nIdx * tiling.singleCoreN;
    const int rows = std::min(tiling.singleCoreM, tiling.M - m0);
    const int cols = std::min(tiling.singleCoreN, tiling.N - n0);
    mm.SetTensorA(a[m0 * tiling.Ka]);
    mm.SetTensorB(b[n0]);
    mm.SetBias(bias[n0]);
    mm.SetTail(rows, cols);
    const int mRounds = (rows + tiling.baseM - 1) / tiling.baseM;
    int round = 0;
    while (mm.template Iterate<true>()) {
      LocalTensor<float> t = out.AllocTensor<float>();
      mm.template GetTensorC<true>(t, false, true);
      LeakyRelu(t, t, alpha, tiling.baseM * tiling.baseN);
      out.EnQue(t);
      LocalTensor<float> r = out.DeQue<float>();
      // The base block back to its place in C: baseM rows of baseN floats.
      const int bm = round % mRounds, bn = round / mRounds;
      const uint32_t gap = (tiling.N - tiling.baseN) * sizeof(float) / 32;
      DataCopy(c[(m0 + bm * tiling.baseM) * tiling.N + n0 + bn * tiling.baseN], r,
               DataCopyParams(tiling.baseM, tiling.baseN * sizeof(float) / 32, 0, gap));
      out.FreeTensor(r);
      ++round;
    }
    mm.End();
  }
};

extern "C" __global__ __aicore__ void matmul_leakyrelu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                                                              GM_ADDR c, GM_ADDR workspace,
                                                              GM_ADDR tilingGm) {
  (void)workspace;
  TPipe pipe;
  MatmulLeakyReluKernel op;
  std::memcpy(&op.tiling, tilingGm, sizeof(op.tiling));
  op.Init(a, b, bias, c, &pipe);
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &op.tiling);
  op.Process();
}
