// Broadcast, TBufPool, Mmad with a bias table, and list tensors, against hand-worked values.
#include <gtest/gtest.h>

#include <vector>

#include "kernel_operator.h"
#include "kernel_operator_intf.h"
#include "kernel_operator_list_tensor_intf.h"
#include "launch_util.h"
#include "lib/matmul_intf.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

namespace {

detail::LaunchResult RunIn(KernelMode mode, const char* name, const std::function<void()>& body) {
  return oc_test::LaunchQuiet(name, 1, body, mode);
}

TEST(AscendCBroadcast, RowsColumnsAndScalars) {
  std::vector<float> cols, rows, vec;
  auto r = RunIn(KernelMode::AIV_MODE, "broadcast", [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> s, d;
    pipe.InitBuffer(s, 64);
    pipe.InitBuffer(d, 1024);
    LocalTensor<float> src = s.Get<float>(), dst = d.Get<float>();
    for (int i = 0; i < 8; ++i) src.SetValue(i, float(i + 1));
    const uint32_t d2[2] = {3, 8}, s_col[2] = {3, 1}, s_row[2] = {1, 8};
    Broadcast<float, 2, 1>(dst, src, d2, s_col);  // [3, 1] -> [3, 8]
    for (int i = 0; i < 24; ++i) cols.push_back(dst.GetValue(i));
    Broadcast<float, 2, 0>(dst, src, d2, s_row);  // [1, 8] -> [3, 8]
    for (int i = 0; i < 24; ++i) rows.push_back(dst.GetValue(i));
    const uint32_t d1[1] = {5}, s1[1] = {1};
    Broadcast<float, 1, 0>(dst, src, d1, s1);
    for (int i = 0; i < 5; ++i) vec.push_back(dst.GetValue(i));
  });
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  for (int i = 0; i < 24; ++i) {
    EXPECT_EQ(cols[i], float(i / 8 + 1)) << i;
    EXPECT_EQ(rows[i], float(i % 8 + 1)) << i;
  }
  EXPECT_EQ(vec, std::vector<float>(5, 1.0f));
}

TEST(AscendCBufPool, CarveResetShareAndOverflow) {
  std::vector<uintptr_t> offsets;
  auto r = RunIn(KernelMode::AIV_MODE, "bufpool", [&] {
    TPipe pipe;
    TBufPool<TPosition::VECCALC> stage1, stage2;
    pipe.InitBufPool(stage1, 4096);
    pipe.InitBufPool(stage2, 2048, stage1);  // the same bytes, another stage
    TBuf<TPosition::VECCALC> a, b, c;
    TQue<QuePosition::VECIN, 1> q;
    stage1.InitBuffer(a, 1000);  // rounded to 1024
    stage1.InitBuffer(q, 2, 512);
    const uintptr_t base = reinterpret_cast<uintptr_t>(a.Get<uint8_t>().GetPhyAddr());
    LocalTensor<float> t = q.AllocTensor<float>();
    offsets.push_back(reinterpret_cast<uintptr_t>(t.GetPhyAddr()) - base);
    q.FreeTensor(t);
    stage2.InitBuffer(b, 256);
    offsets.push_back(reinterpret_cast<uintptr_t>(b.Get<uint8_t>().GetPhyAddr()) - base);
    stage1.Reset();
    stage1.InitBuffer(c, 64);
    offsets.push_back(reinterpret_cast<uintptr_t>(c.Get<uint8_t>().GetPhyAddr()) - base);
  });
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(offsets, (std::vector<uintptr_t>{1024, 0, 0}));
  r = RunIn(KernelMode::AIV_MODE, "bufpool_full", [] {
    TPipe pipe;
    TBufPool<TPosition::VECCALC> pool;
    pipe.InitBufPool(pool, 1024);
    TBuf<TPosition::VECCALC> a;
    pool.InitBuffer(a, 2048);
  });
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.errors[0].find("do not fit the pool of 1024 bytes"), std::string::npos)
      << r.errors[0];
}

TEST(AscendCCubeBias, MmadAddsTheBiasTable) {
  // A and B all ones (16 x 32 and 32 x 16): every C[m][n] is 32 + bias[n].
  std::vector<float> c;
  auto r = RunIn(KernelMode::AIC_MODE, "mmad_bias", [&] {
    TPipe pipe;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> c1;
    TBuf<TPosition::C2> bt;
    pipe.InitBuffer(a2, 16 * 32 * 2);
    pipe.InitBuffer(b2, 32 * 16 * 2);
    pipe.InitBuffer(c1, 16 * 16 * 4);
    pipe.InitBuffer(bt, 64);
    LocalTensor<half> a = a2.Get<half>(), b = b2.Get<half>();
    for (int i = 0; i < 512; ++i) {
      a.SetValue(i, half(1.0f));
      b.SetValue(i, half(1.0f));
    }
    LocalTensor<float> bias = bt.Get<float>();
    for (int n = 0; n < 16; ++n) bias.SetValue(n, float(n));
    LocalTensor<float> out = c1.Get<float>();
    Mmad(out, a, b, bias, MmadParams(16, 16, 32, true, 0, false, false, false));
    for (int i = 0; i < 256; ++i) c.push_back(out.GetPhyAddr()[i]);
  });
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 16; ++n) EXPECT_EQ(c[m * 16 + n], 32.0f + n) << m << n;  // one fractal
}

TEST(AscendCCubeBias, BiasTableFilledFromL1WidensHalf) {
  // bias[n] = n / 2 - 3 in half in L1, copied into the bias table (float) and added by Mmad;
  // A is all ones and B[k][n] = 1 / 4 for a 16 x 16 x 32 product: C = 8 + bias[n].
  std::vector<float> c, table;
  auto r = RunIn(KernelMode::AIC_MODE, "bias_table", [&] {
    LocalMemAllocator<Hardware::L1> l1;
    LocalMemAllocator<Hardware::L0A> l0a;
    LocalMemAllocator<Hardware::L0B> l0b;
    LocalMemAllocator<Hardware::L0C> l0c;
    LocalMemAllocator<Hardware::BIAS> bt;
    LocalTensor<half> bias_l1 = l1.Alloc<TPosition::C1, half, 32>();
    LocalTensor<half> a = l0a.Alloc<half, 512>(), b = l0b.Alloc<half, 512>();
    LocalTensor<float> out = l0c.Alloc<float, 256>(), bias = bt.Alloc<float, 32>();
    EXPECT_EQ(bias.GetPosition(), TPosition::C2);
    for (int n = 0; n < 32; ++n) bias_l1.SetValue(n, half(n / 2.0f - 3.0f));
    for (int i = 0; i < 512; ++i) {
      a.SetValue(i, half(1.0f));
      b.SetValue(i, half(0.25f));
    }
    // blockLen counts 64-byte blocks of the source, as CANN's bias sample writes it:
    // 32 halves (64 bytes) are one block, widened into 128 bytes of the table.
    DataCopy(bias, bias_l1, DataCopyParams(1, 32 * sizeof(half) / 64, 0, 0));
    for (int n = 0; n < 32; ++n) table.push_back(bias.GetPhyAddr()[n]);
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);  // the copy runs on MTE1, Mmad on the cube pipe
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    Mmad(out, a, b, bias, MmadParams(16, 16, 32, false, 0, false, false, false));
    for (int i = 0; i < 256; ++i) c.push_back(out.GetPhyAddr()[i]);
  });
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  for (int n = 0; n < 32; ++n) EXPECT_EQ(table[n], n / 2.0f - 3.0f) << n;
  for (int m = 0; m < 16; ++m)
    for (int n = 0; n < 16; ++n) EXPECT_EQ(c[m * 16 + n], 8.0f + n / 2.0f - 3.0f) << m << n;
}

TEST(AscendCCubeBias, BiasTableRules) {
  auto fails = [](const char* name, const std::function<void()>& body, const std::string& want) {
    auto r = RunIn(KernelMode::AIC_MODE, name, body);
    EXPECT_FALSE(r.ok) << name;
    std::string all;
    for (const auto& e : r.errors) all += e + "\n";
    EXPECT_HAS(all, want);
  };
  // The table starts as garbage: a bias nothing loaded is an uninitialized read.
  fails(
      "bias_unloaded",
      [] {
        LocalMemAllocator<Hardware::L1> l1;
        LocalMemAllocator<Hardware::L0A> l0a;
        LocalMemAllocator<Hardware::L0B> l0b;
        LocalMemAllocator<Hardware::L0C> l0c;
        LocalMemAllocator<Hardware::BIAS> bt;
        LocalTensor<half> src = l1.Alloc<TPosition::A1, half, 1024>();
        LocalTensor<half> a = l0a.Alloc<half, 512>(), b = l0b.Alloc<half, 512>();
        for (int i = 0; i < 1024; ++i) src.SetValue(i, half(1.0f));
        LoadData(a, src, LoadData2DParams{});
        LoadData(b, src, LoadData2DParams{});
        LocalTensor<float> out = l0c.Alloc<float, 256>(), bias = bt.Alloc<float, 16>();
        PipeBarrier<PIPE_ALL>();
        Mmad(out, a, b, bias, MmadParams(16, 16, 16, false, 0, false, false, false));
      },
      "Mmad(bias): reads 64 bytes of BT at offset 0, of which byte 0 was never written");
  // Over the 1 KB table.
  fails(
      "bias_too_big",
      [] {
        LocalMemAllocator<Hardware::BIAS> bt;
        bt.Alloc<float, 512>();
      },
      "512 elements at byte 0 run past the 1024 bytes of BT");
  // From UB, or into the fixpipe buffer: refused by name.
  fails(
      "bias_from_ub",
      [] {
        LocalMemAllocator<Hardware::L1> l1;
        LocalMemAllocator<Hardware::BIAS> bt;
        LocalTensor<float> bias = bt.Alloc<float, 16>();
        LocalTensor<float> l0 = l1.Alloc<TPosition::A1, float, 16>();
        LocalTensor<float> wrong(TPosition::CO1, 0, 16);
        (void)l0;
        DataCopy(bias, wrong, DataCopyParams(1, 1, 0, 0));
      },
      "the bias table is filled from L1 (C1); the source is in L0C");
  fails(
      "fixbuf",
      [] {
        LocalMemAllocator<Hardware::L1> l1;
        LocalMemAllocator<Hardware::FIXBUF> fb;
        LocalTensor<uint64_t> scale = fb.Alloc<uint64_t, 16>();
        LocalTensor<uint64_t> src = l1.Alloc<TPosition::C1, uint64_t, 16>();
        DataCopy(scale, src, DataCopyParams(1, 4, 0, 0));
      },
      "fixpipe buffer (C2PIPE2GM");
}

TEST(AscendCCubeTranspose, Int8SquaresBecomeTheZnLayoutMmadReads) {
  // C[16 x 128] = A[16 x 64] x B[64 x 128] in int8 -> int32 (four squares per K step). B goes GM ->
  // L1 (NZ) and into L0B through LoadDataWithTranspose, one 32 x 32 square per 32 rows of K, as
  // int8 kernels do.
  constexpr int M = 16, K = 64, N = 128;
  std::vector<int8_t> a(M * K), b(K * N);
  for (int i = 0; i < M * K; ++i) a[i] = int8_t((i * 7) % 19 - 9);
  for (int i = 0; i < K * N; ++i) b[i] = int8_t((i * 5) % 23 - 11);
  auto* ag = static_cast<int8_t*>(GmAlloc(M * K));
  auto* bg = static_cast<int8_t*>(GmAlloc(K * N));
  std::copy(a.begin(), a.end(), ag);
  std::copy(b.begin(), b.end(), bg);
  std::vector<int32_t> c;
  auto r = RunIn(KernelMode::AIC_MODE, "int8_transpose", [&] {
    LocalMemAllocator<Hardware::L1> l1;
    LocalMemAllocator<Hardware::L0A> l0a;
    LocalMemAllocator<Hardware::L0B> l0b;
    LocalMemAllocator<Hardware::L0C> l0c;
    LocalTensor<int8_t> a1 = l1.Alloc<TPosition::A1, int8_t, M * K>();
    LocalTensor<int8_t> b1 = l1.Alloc<TPosition::B1, int8_t, K * N>();
    LocalTensor<int8_t> a2 = l0a.Alloc<int8_t, M * K>(), b2 = l0b.Alloc<int8_t, K * N>();
    LocalTensor<int32_t> c1 = l0c.Alloc<int32_t, M * N>();
    GlobalTensor<int8_t> agt, bgt;
    agt.SetGlobalBuffer(ag, M * K);
    bgt.SetGlobalBuffer(bg, K * N);
    DataCopy(a1, agt, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    DataCopy(b1, bgt, Nd2NzParams(1, K, N, 0, N, K, 1, 0));
    PipeBarrier<PIPE_ALL>();
    LoadData2DParams la;
    la.repeatTimes = K / 32;  // A's two 16 x 32 fractals, in order
    la.srcStride = 1;
    LoadData(a2, a1, la);
    LoadData2dTransposeParams lb(0, N / 32, K / 32, 1, 0);
    for (int i = 0; i < K / 32; ++i)
      LoadDataWithTranspose(b2[i * (N / 32) * 1024], b1[i * 1024], lb);
    PipeBarrier<PIPE_ALL>();
    MmadParams mp;
    mp.m = M, mp.n = N, mp.k = K;
    Mmad(c1, a2, b2, mp);
    PipeBarrier<PIPE_ALL>();
    // L0C is NZ: column block j of 16 holds C[m][16j + n % 16] at j * 256 + m * 16 + n % 16.
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) c.push_back(c1.GetValue((n / 16) * 256 + m * 16 + n % 16));
  });
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      int32_t want = 0;
      for (int k = 0; k < K; ++k) want += int32_t(a[m * K + k]) * b[k * N + n];
      ASSERT_EQ(c[m * N + n], want) << m << " " << n;
    }
  GmFree(ag);
  GmFree(bg);
}

TEST(AscendCCubeTranspose, HalfFractalsAndFractalGaps) {
  // Two 16 x 16 half fractals transposed with a one-fractal gap between them; int8 with
  // dstFracGap 2 puts each square's second fractal three fractals after its first.
  std::vector<float> h;
  std::vector<int8_t> q;
  auto r = RunIn(KernelMode::AIC_MODE, "half_transpose", [&] {
    LocalMemAllocator<Hardware::L1> l1;
    LocalMemAllocator<Hardware::L0B> l0b;
    LocalTensor<half> src = l1.Alloc<TPosition::B1, half, 512>();
    LocalTensor<half> dst = l0b.Alloc<half, 1024>();
    for (int i = 0; i < 512; ++i) src.SetValue(i, half(float(i % 256) + (i / 256) * 1000));
    LoadDataWithTranspose(dst, src, LoadData2dTransposeParams(0, 2, 1, 1, 0));
    for (int i = 0; i < 1024; ++i) h.push_back(float(dst.GetPhyAddr()[i]));
    LocalTensor<int8_t> s8 = l1.Alloc<TPosition::B1, int8_t, 1024>();
    LocalTensor<int8_t> d8 = l0b.Alloc<int8_t, 2048>();
    for (int i = 0; i < 1024; ++i) s8.SetValue(i, int8_t(i % 97));
    LoadDataWithTranspose(d8, s8, LoadData2dTransposeParams(0, 1, 1, 0, 2));
    for (int i = 0; i < 2048; ++i) q.push_back(d8.GetPhyAddr()[i]);
  });
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  for (int f = 0; f < 2; ++f)  // destination fractals at 0 and 2 (dstGap 1)
    for (int rr = 0; rr < 16; ++rr)
      for (int cc = 0; cc < 16; ++cc)
        ASSERT_EQ(h[f * 512 + rr * 16 + cc], float(cc * 16 + rr) + f * 1000) << f << rr << cc;
  // Source square: S[r][c] at r * 32 + c (two stacked 16 x 32 fractals); fractal 0 of the
  // result holds transposed rows 0-15 at 0, fractal 1 rows 16-31 at 3 * 512.
  for (int f = 0; f < 2; ++f)
    for (int rr = 0; rr < 16; ++rr)
      for (int cc = 0; cc < 32; ++cc)
        ASSERT_EQ(q[f * 3 * 512 + rr * 32 + cc], int8_t((cc * 32 + f * 16 + rr) % 97))
            << f << " " << rr << " " << cc;
}

TEST(AscendCCubeTranspose, ThirtyTwoBitFormIsRefusedByName) {
  auto r = RunIn(KernelMode::AIC_MODE, "f32_transpose", [] {
    LocalMemAllocator<Hardware::L1> l1;
    LocalMemAllocator<Hardware::L0B> l0b;
    LocalTensor<float> src = l1.Alloc<TPosition::B1, float, 256>();
    LocalTensor<float> dst = l0b.Alloc<float, 256>();
    LoadDataWithTranspose(dst, src, LoadData2dTransposeParams(0, 1, 1, 0, 0));
  });
  ASSERT_FALSE(r.ok);
  EXPECT_HAS(r.errors[0], "the 32-bit form (two 16 x 8 fractals per square) is not supported");
}

TEST(AscendCListTensor, ReadsCannsLayout) {
  // Two tensors [1,2,3] and [3,4,5], as the layout documentation's example.
  auto* d0 = static_cast<float*>(GmAlloc(6 * 4));
  auto* d1 = static_cast<float*>(GmAlloc(60 * 4));
  auto* list = static_cast<uint64_t*>(GmAlloc(11 * 8));
  const uint64_t words[11] = {72,
                              3 | (0ull << 32),
                              1,
                              2,
                              3,
                              3 | (1ull << 32),
                              3,
                              4,
                              5,
                              reinterpret_cast<uint64_t>(d0),
                              reinterpret_cast<uint64_t>(d1)};
  std::memcpy(list, words, sizeof(words));
  uint32_t count = 0;
  std::vector<uint64_t> shape1;
  uint64_t dim1 = 0, index1 = 0;
  float* ptr1 = nullptr;
  auto r = RunIn(KernelMode::AIV_MODE, "list", [&] {
    ListTensorDesc desc(list);
    count = desc.GetSize();
    uint64_t shape[8];
    TensorDesc<float> t;
    t.SetShapeAddr(shape);
    desc.GetDesc(t, 1);
    dim1 = t.GetDim();
    index1 = t.GetIndex();
    for (uint32_t i = 0; i < dim1; ++i) shape1.push_back(t.GetShape(i));
    ptr1 = desc.GetDataPtr<float>(1);
    desc.GetDataPtr<float>(2);  // out of range: refused
  });
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.errors[0].find("index 2 of a list of 2 tensors"), std::string::npos) << r.errors[0];
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(dim1, 3u);
  EXPECT_EQ(index1, 1u);
  EXPECT_EQ(shape1, (std::vector<uint64_t>{3, 4, 5}));
  EXPECT_EQ(ptr1, d1);
  GmFree(d0);
  GmFree(d1);
  GmFree(list);
}

}  // namespace

namespace {

TEST(AscendCDefaults, ACubeKernelWithoutAKernelTypeRunsOnCubeCores) {
  // Neither SetKernelMode nor KERNEL_TASK_TYPE_DEFAULT: the first run stops at the cube
  // instruction on a vector core; the launch runs it again on a cube core and says so.
  detail::ClearKernelMode();  // earlier tests in this process may have set one
  testing::internal::CaptureStdout();
  detail::LaunchOptions o;  // no mode
  bool saw_aic = false;
  auto r = detail::Launch(
      "undeclared_cube", 1,
      [&] {
        TPipe pipe;
        TBuf<TPosition::A1> l1;
        TBuf<TPosition::A2> l0a;
        pipe.InitBuffer(l1, 512);
        pipe.InitBuffer(l0a, 512);
        LocalTensor<half> src = l1.Get<half>();
        for (int i = 0; i < 256; ++i) src.SetValue(i, half(float(i)));
        LoadData2dParams p;  // the first releases' spelling
        LoadData(l0a.Get<half>(), src, p);
        saw_aic = ASCEND_IS_AIC;
      },
      o);
  const std::string out = testing::internal::GetCapturedStdout();
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(saw_aic);
  EXPECT_NE(out.find("runs cube instructions and declares no kernel type: run on cube cores"),
            std::string::npos)
      << out;
}

TEST(AscendCDefaults, AKernelThatSkipsVectorCoresRunsInMixMode) {
  // opDev's pre-8.0 Matmul sample: `if (g_coreType == AIV) return;` and no kernel mode. On
  // vector cores alone it writes nothing; CANN's CPU debug runs it in MIX_MODE, and so does
  // the launch, saying so.
  detail::ClearKernelMode();
  auto* out = static_cast<float*>(GmAlloc(2 * sizeof(float)));
  out[0] = out[1] = -1.0f;
  testing::internal::CaptureStdout();
  detail::LaunchOptions o;
  auto r = detail::Launch(
      "cube_side_only", 2,
      [&] {
        if (g_coreType == AIV) return;
        GlobalTensor<float> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), 2);
        g.SetValue(GetBlockIdx(), 10.0f + float(GetBlockIdx()));
      },
      o);
  const std::string text = testing::internal::GetCapturedStdout();
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(out[0], 10.0f);
  EXPECT_EQ(out[1], 11.0f);
  EXPECT_NE(text.find("after asking its core type"), std::string::npos) << text;
  EXPECT_EQ(text.find("no block wrote global memory"), std::string::npos) << text;
  GmFree(out);
}

TEST(AscendCDefaults, AVectorKernelThatWritesNothingIsStillReported) {
  // Without asking its core type, a kernel that writes nothing is not rerun: the warning stays.
  detail::ClearKernelMode();
  testing::internal::CaptureStdout();
  detail::LaunchOptions o;
  auto r = detail::Launch(
      "writes_nothing", 1, [] {}, o);
  const std::string text = testing::internal::GetCapturedStdout();
  EXPECT_TRUE(r.ok);
  EXPECT_NE(text.find("no block wrote global memory"), std::string::npos) << text;
  EXPECT_EQ(text.find("MIX_MODE"), std::string::npos) << text;
}

TEST(AscendCDefaults, EnhancedMatrixCopyMovesWholeFractals) {
  std::vector<float> got;
  auto r = RunIn(KernelMode::AIC_MODE, "enhanced", [&] {
    TPipe pipe;
    TBuf<TPosition::CO1> c1;
    TBuf<TPosition::CO2> c2;
    pipe.InitBuffer(c1, 3 * 1024);
    pipe.InitBuffer(c2, 2 * 1024);
    LocalTensor<float> src = c1.Get<float>(), dst = c2.Get<float>();
    for (int i = 0; i < 768; ++i) src.SetValue(i, float(i));
    DataCopyParams p(1, 2, 0, 0);  // two fractals of 256 floats
    DataCopyEnhancedParams e;
    e.blockMode = BlockMode::BLOCK_MODE_MATRIX;
    DataCopy(dst, src, p, e);
    for (int i = 0; i < 512; ++i) got.push_back(dst.GetValue(i));
  });
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  for (int i = 0; i < 512; ++i) EXPECT_EQ(got[i], float(i)) << i;
}

}  // namespace

namespace {

TEST(AscendCCompareSelect, RepeatFormsWithMasksAndStrides) {
  // 2 repeats of 128 halves; a continuous mask of 100 lanes: bits of lanes 100..127 are 0.
  std::vector<int> bits;
  std::vector<float> picked;
  auto r = RunIn(KernelMode::AIV_MODE, "cmp_sel", [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b, m, d;
    pipe.InitBuffer(a, 512);
    pipe.InitBuffer(b, 512);
    pipe.InitBuffer(m, 64);
    pipe.InitBuffer(d, 512);
    LocalTensor<half> x = a.Get<half>(), y = b.Get<half>(), out = d.Get<half>();
    for (int i = 0; i < 256; ++i) {
      x.SetValue(i, half(float(i % 7)));
      y.SetValue(i, half(3.0f));
    }
    LocalTensor<uint8_t> mask = m.Get<uint8_t>();
    Compare(mask, x, y, CMPMODE::GT, 100, 2, BinaryRepeatParams());
    for (int i = 0; i < 256; ++i) bits.push_back((mask.GetValue(i / 8) >> (i % 8)) & 1);
    Duplicate(out, half(0), 256);
    Select(out, mask, x, half(-1.0f), SELMODE::VSEL_TENSOR_SCALAR_MODE, 128, 2,
           BinaryRepeatParams());
    for (int i = 0; i < 256; ++i) picked.push_back(float(out.GetValue(i)));
  });
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  for (int i = 0; i < 256; ++i) {
    const bool lane_on = i % 128 < 100;
    const int want = lane_on && (i % 7) > 3 ? 1 : 0;
    EXPECT_EQ(bits[i], want) << i;
    EXPECT_EQ(picked[i], want ? float(i % 7) : -1.0f) << i;
  }
}

}  // namespace

namespace {

TEST(AscendCStaticTensors, LocalMemAllocatorTakesTensorsInTurn) {
  std::vector<uint32_t> addrs;
  std::vector<float> out;
  auto r = RunIn(KernelMode::AIV_MODE, "allocator", [&] {
    LocalMemAllocator<> ub;
    LocalTensor<float> a = ub.Alloc<TPosition::VECCALC, float, 64>();
    addrs.push_back(ub.GetCurAddr());
    LocalTensor<float> b = ub.Alloc<float>(100);  // 400 bytes, rounded to 416
    addrs.push_back(ub.GetCurAddr());
    Duplicate(a, 2.0f, 64);
    Adds(b, a, 1.0f, 64);
    for (int i = 0; i < 4; ++i) out.push_back(b.GetValue(i));
    LocalMemAllocator<Hardware::L0A> l0a;
    l0a.Alloc<half, 256>();
    addrs.push_back(l0a.GetCurAddr());
  });
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(addrs, (std::vector<uint32_t>{256, 256 + 416, 512}));
  EXPECT_EQ(out, std::vector<float>(4, 3.0f));
  r = RunIn(KernelMode::AIV_MODE, "allocator_full", [] {
    LocalMemAllocator<> ub;
    ub.Alloc<float>(40000);
    ub.Alloc<float>(40000);  // 320 KB of a 192 KB UB
  });
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.errors[0].find("run past the 196608 bytes of UB"), std::string::npos) << r.errors[0];
}

// ASSERT(expr), as public kernels spell the kernel assertion: a failed one fails the block with
// CANN's assertion line; a true one is nothing.
TEST(AscendCDebug, AssertMacroFailsTheBlock) {
  auto r = oc_test::LaunchQuiet("assert_ok", 1, [] { ASSERT(GetBlockNum() == 1); });
  EXPECT_TRUE(r.ok);
  testing::internal::CaptureStdout();
  r = oc_test::LaunchQuiet("assert_fails", 1,
                           [] { ASSERT(GetBlockNum() == 2 && "block dim must be 2"); });
  const std::string out = testing::internal::GetCapturedStdout();
  ASSERT_FALSE(r.ok);
  EXPECT_NE(out.find("Assertion `GetBlockNum() == 2 && \"block dim must be 2\"' failed"),
            std::string::npos)
      << out;
}

// Names kernels take from CANN's headers: MAX_REPEAT_TIMES, kernel_operator_intf.h, and
// <iostream> (std::cout) without an include of their own.
TEST(AscendCNames, RepeatLimitAndInterfaceHeader) {
  static_assert(MAX_REPEAT_TIMES == 255);
  std::ostream& out = std::cout;  // from kernel_operator.h, as with CANN's headers
  EXPECT_TRUE(out.good());
}

}  // namespace

namespace {

TEST(AscendCScalarBits, TheDocumentedExamples) {
  EXPECT_EQ(GetSFFValue<1>(0x1000000000000100ULL), 8);
  EXPECT_EQ(GetSFFValue<0>(0xFFFFFFFFFFFFFFFFULL), -1);
  EXPECT_EQ(GetSFFValue<1>(0ULL), -1);
  EXPECT_EQ(GetSFFValue<0>(0x1000000000000100ULL), 0);
  EXPECT_EQ(ScalarGetSFFValue<1>(0x30ULL), 4);  // the older name
  EXPECT_EQ(CountLeadingZero(0x0100000000000020ULL), 7);
  EXPECT_EQ(CountLeadingZero(0ULL), 64);
  EXPECT_EQ(ScalarCountLeadingZero(0x8000ULL), 48);
  EXPECT_EQ(GetBitCount<1>(0xF0F0ULL), 8);
  EXPECT_EQ(ScalarGetCountOfValue<0>(0xF0F0ULL), 56);
}

TEST(AscendCSum, RowsOfTheDocumentedExampleAndTheAccumulatorRegister) {
  // [[1 2 3], [4 5 6]] stored as rows of 16 halves: [6, 15]; then ReduceSum's register.
  std::vector<float> got(2);
  float acc = 0;
  auto [ok, out] = oc_test::Launch("sum", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<half> x = buf.GetWithOffset<half>(32, 0);
    LocalTensor<half> y = buf.GetWithOffset<half>(16, 64);
    LocalTensor<float> f = buf.GetWithOffset<float>(128, 128);
    LocalTensor<float> r = buf.GetWithOffset<float>(8, 640);
    LocalTensor<float> work = buf.GetWithOffset<float>(64, 768);
    Duplicate(x, half(0.0f), 32);
    for (int i = 0; i < 3; ++i)
      x.SetValue(i, half(float(i + 1))), x.SetValue(16 + i, half(float(i + 4)));
    Duplicate(y, half(0.0f), 16);
    Sum(y, x, SumParams{2, 16, 3});
    got[0] = float(y.GetValue(0));
    got[1] = float(y.GetValue(1));
    for (int i = 0; i < 128; ++i) f.SetValue(i, float(i));
    ReduceSum(r, f, work, 128);
    acc = GetReduceRepeatSumSpr<float>();
  });
  ASSERT_TRUE(ok) << out;
  EXPECT_EQ(got[0], 6.0f);
  EXPECT_EQ(got[1], 15.0f);
  EXPECT_EQ(acc, 127.0f * 128.0f / 2.0f);
  uint32_t max_size = 0, min_size = 0;
  GetSumMaxMinTmpSize(3, 2, false, max_size, min_size);
  EXPECT_EQ(max_size, min_size);
  EXPECT_GE(min_size, 32u);
}

TEST(AscendCInitOutput, FillsTheGlobalRangeAndChecksIt) {
  auto* gm = static_cast<int32_t*>(GmAlloc(64 * sizeof(int32_t)));
  for (int i = 0; i < 64; ++i) gm[i] = 7;
  auto [ok, out] = oc_test::Launch("init_output", 2, [&] {
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(gm, 64);
    InitOutput<int32_t>(g[GetBlockIdx() * 16], 16, -1);
  });
  ASSERT_TRUE(ok) << out;
  for (int i = 0; i < 64; ++i) EXPECT_EQ(gm[i], i < 32 ? -1 : 7) << i;
  auto [bad, why] = oc_test::Launch("init_output_past", 1, [&] {
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer(gm, 64);
    InitOutput<int32_t>(g[60], 16, 0);  // 12 elements past the tensor and its allocation
  });
  EXPECT_FALSE(bad);
  EXPECT_NE(why.find("InitOutput"), std::string::npos) << why;
  GmFree(gm);
}

}  // namespace

namespace {

// asc-devkit's Matmul samples write the configuration type at global scope.
[[maybe_unused]] constexpr MatmulConfig OcGlobalScopeConfig() {
  MatmulConfig c = GetNormalConfig();
  c.enUnitFlag = false;
  return c;
}
static_assert(AscendC::IsSameType<half, half>::value && !AscendC::IsSameType<half, float>::value);

TEST(AscendCAtomics, MaxMinAndTheNewerNameOfNone) {
  auto* gm = static_cast<float*>(GmAlloc(3 * 8 * sizeof(float)));
  for (int i = 0; i < 24; ++i) gm[i] = 5.0f;
  auto [ok, out] = oc_test::Launch("atomic_max_min", 2, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    LocalTensor<float> v = buf.Get<float>();
    GlobalTensor<float> g;
    g.SetGlobalBuffer(gm, 24);
    // Block 0 offers 3, block 1 offers 9, to each of three rows of 8.
    Duplicate(v, GetBlockIdx() == 0 ? 3.0f : 9.0f, 8);
    PipeBarrier<PIPE_ALL>();
    SetAtomicMax<float>();
    DataCopy(g[0], v, 8);
    SetAtomicMin<float>();
    DataCopy(g[8], v, 8);
    SetAtomicAdd<float>();
    DataCopy(g[16], v, 8);
    DisableDmaAtomic();
  });
  ASSERT_TRUE(ok) << out;
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(gm[i], 9.0f);
    EXPECT_EQ(gm[8 + i], 3.0f);
    EXPECT_EQ(gm[16 + i], 17.0f);
  }
  GmFree(gm);
}

}  // namespace

namespace {

TEST(AscendCDataCopyPad, SetPadValueFillsThePaddingWhenIsPadIsOff) {
  // The documentation's scene: 20 halves copied, 12 of right padding, isPad false, value 1.
  auto* gm = static_cast<half*>(GmAlloc(32 * sizeof(half)));
  for (int i = 0; i < 32; ++i) gm[i] = half(float(i + 2));
  std::vector<float> got(32);
  auto [ok, out] = oc_test::Launch("pad_value", 1, [&] {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 64);
    GlobalTensor<half> g;
    g.SetGlobalBuffer(gm, 32);
    LocalTensor<half> x = q.AllocTensor<half>();
    DataCopyExtParams copy{1, 20 * sizeof(half), 0, 0, 0};
    DataCopyPadExtParams<half> pad{false, 0, 12, half(0.0f)};
    SetPadValue(half(1.0f));
    DataCopyPad(x, g, copy, pad);
    q.EnQue(x);
    x = q.DeQue<half>();
    for (int i = 0; i < 32; ++i) got[i] = float(x.GetValue(i));
    q.FreeTensor(x);
  });
  ASSERT_TRUE(ok) << out;
  for (int i = 0; i < 20; ++i) EXPECT_EQ(got[i], float(i + 2)) << i;
  for (int i = 20; i < 32; ++i) EXPECT_EQ(got[i], 1.0f) << i;
  GmFree(gm);
}

}  // namespace

namespace {

TEST(AscendCReduceRepeat, WholeBlockAndPairFormsAgainstAScalarLoop) {
  // 2 repeats of 64 floats: each repeat's max (with its lane), each block's min, pair sums.
  std::vector<float> x(128);
  for (int i = 0; i < 128; ++i) x[i] = float((i * 37) % 101) - 50.0f;
  std::vector<float> vi(4), only(2), blocks(16), pairs(64), sums(2);
  uint32_t idx_only[2] = {0, 0};
  auto [ok, out] = oc_test::Launch("reduce_repeat", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048);
    LocalTensor<float> src = buf.GetWithOffset<float>(128, 0);
    LocalTensor<float> dst = buf.GetWithOffset<float>(64, 512);
    for (int i = 0; i < 128; ++i) src.SetValue(i, x[i]);
    WholeReduceMax(dst, src, 64, 2, 1, 1, 8);  // [value, index] per repeat
    for (int i = 0; i < 4; ++i) vi[i] = dst.GetValue(i);
    ReduceRepeat<ReduceType::MIN, float>(dst, src, 64, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
    for (int i = 0; i < 2; ++i) only[i] = dst.GetValue(i);
    ReduceRepeat<ReduceType::MAX, float>(dst, src, 64, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_INDEX);
    std::memcpy(idx_only, dst.GetPhyAddr(), 8);
    ReduceDataBlock<ReduceType::MIN, float>(dst, src, 64, 2, 1, 1, 8);
    for (int i = 0; i < 16; ++i) blocks[i] = dst.GetValue(i);
    ReducePairElem<ReduceType::SUM, float>(dst, src, 64, 2, 1, 1, 8);
    for (int i = 0; i < 64; ++i) pairs[i] = dst.GetValue(i);
    ReduceRepeat<ReduceType::SUM, float>(dst, src, 64, 2, 1, 1, 8);
    for (int i = 0; i < 2; ++i) sums[i] = dst.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  for (int r = 0; r < 2; ++r) {
    const auto first = x.begin() + r * 64;
    const auto mx = std::max_element(first, first + 64);  // the first of equal maxima
    uint32_t lane_bits;
    std::memcpy(&lane_bits, &vi[r * 2 + 1], 4);
    EXPECT_EQ(vi[r * 2], *mx);
    EXPECT_EQ(lane_bits, uint32_t(mx - first));
    EXPECT_EQ(idx_only[r], uint32_t(mx - first));
    EXPECT_EQ(only[r], *std::min_element(first, first + 64));
    for (int b = 0; b < 8; ++b)
      EXPECT_EQ(blocks[r * 8 + b], *std::min_element(first + b * 8, first + b * 8 + 8));
    for (int p = 0; p < 32; ++p) EXPECT_EQ(pairs[r * 32 + p], first[2 * p] + first[2 * p + 1]);
    double s = 0;
    for (int i = 0; i < 64; ++i) s += first[i];
    EXPECT_EQ(sums[r], float(s));  // small integers: every order of addition is exact
  }
}

}  // namespace

namespace {

static_assert(DivCeil(uint32_t{100}, 32) == 4u && DivCeil(7, int64_t{2}) == 4);

TEST(AscendCKernelLog, KernelLogPrintsAndAscendcAssertFailsTheBlock) {
  auto [ok, out] = oc_test::Launch("kernel_log", 1, [&] {
    KERNEL_LOG(KERNEL_INFO, "tiles %d", 3);
    ASCENDC_ASSERT(GetBlockNum() != 0, { KERNEL_LOG(KERNEL_ERROR, "block dim can not be zero!"); });
  });
  ASSERT_TRUE(ok) << out;
  EXPECT_NE(out.find("[INFO] tiles 3"), std::string::npos) << out;
  auto [bad, why] = oc_test::Launch("kernel_assert", 1, [&] {
    ASCENDC_ASSERT(GetBlockNum() == 0, { KERNEL_LOG(KERNEL_ERROR, "expected %s", "no blocks"); });
  });
  EXPECT_FALSE(bad);
  EXPECT_NE(why.find("[ERROR] expected no blocks"), std::string::npos) << why;
  EXPECT_NE(why.find("GetBlockNum() == 0"), std::string::npos) << why;
}

}  // namespace

namespace {

TEST(AscendCSelect, CmpmaskModeReusesOneRepeatsBitsForEveryRepeat) {
  // 128 floats are two repeats of 64; the mask holds 64 bits (every third lane set).
  std::vector<float> got(128);
  auto [ok, out] = oc_test::Launch("select_mode0", 1, [&] {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048);
    LocalTensor<float> a = buf.GetWithOffset<float>(128, 0), b = buf.GetWithOffset<float>(128, 512),
                       d = buf.GetWithOffset<float>(128, 1024);
    LocalTensor<uint8_t> mask = buf.GetWithOffset<uint8_t>(32, 1536);
    Duplicate(a, 1.0f, 128);
    Duplicate(b, 2.0f, 128);
    for (int i = 0; i < 8; ++i) {
      uint8_t byte = 0;
      for (int bit = 0; bit < 8; ++bit)
        if ((i * 8 + bit) % 3 == 0) byte |= uint8_t(1u << bit);
      mask.SetValue(i, byte);
    }
    Select(d, mask, a, b, SELMODE::VSEL_CMPMASK_SPR, 128);
    for (int i = 0; i < 128; ++i) got[i] = d.GetValue(i);
  });
  ASSERT_TRUE(ok) << out;
  for (int i = 0; i < 128; ++i) EXPECT_EQ(got[i], (i % 64) % 3 == 0 ? 1.0f : 2.0f) << i;
}

}  // namespace

namespace {

TEST(AscendCOverlaps, IdenticalWritesByTwoBlocksAreAWarningDifferentOnesAnError) {
  auto* gm = static_cast<float*>(GmAlloc(64 * sizeof(float)));
  auto run = [&](bool same) {
    return oc_test::Launch(same ? "same_writes" : "different_writes", 2, [&, same] {
      TPipe pipe;
      TBuf<TPosition::VECCALC> buf;
      pipe.InitBuffer(buf, 256);
      LocalTensor<float> v = buf.Get<float>();
      Duplicate(v, same ? 3.0f : float(GetBlockIdx()), 64);
      PipeBarrier<PIPE_ALL>();
      GlobalTensor<float> g;
      g.SetGlobalBuffer(gm, 64);
      DataCopy(g, v, 64);  // every block, the whole range
    });
  };
  auto [ok, out] = run(true);
  EXPECT_TRUE(ok) << out;
  EXPECT_NE(out.find("with the same values"), std::string::npos) << out;
  for (int i = 0; i < 64; ++i) EXPECT_EQ(gm[i], 3.0f);
  auto [bad, why] = run(false);
  EXPECT_FALSE(bad);
  EXPECT_NE(why.find("which block's value lands is undefined"), std::string::npos) << why;
  GmFree(gm);
}

}  // namespace

namespace {

TEST(AscendCGmBypass, ReadAndWriteGmByPassDCacheWithTheBarrier) {
  auto* gm = static_cast<int32_t*>(GmAlloc(8 * sizeof(int32_t)));
  for (int i = 0; i < 8; ++i) gm[i] = i * 10;
  auto [ok, out] = oc_test::Launch("gm_bypass", 1, [&] {
    const int32_t v = ReadGmByPassDCache<int32_t>(gm + 3);
    DataSyncBarrier<MemDsbT::DDR>();
    WriteGmByPassDCache<int32_t>(gm + 4, v + 5);
  });
  ASSERT_TRUE(ok) << out;
  EXPECT_EQ(gm[4], 35);
  EXPECT_EQ(gm[3], 30);
  GmFree(gm);
}

}  // namespace
