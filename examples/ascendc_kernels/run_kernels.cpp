// Runs the kernels of kernels.cpp (and ../ascendc_add) on inputs from DIR and writes the
// outputs next to them: run_kernels DIR. Shapes are fixed (see the test that drives it).
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "tikicpulib.h"
#include "tiling/tiling_api.h"

extern "C" void add_custom(uint8_t*, uint8_t*, uint8_t*);
extern "C" void leaky_relu_custom(uint8_t*, uint8_t*, uint8_t*);
extern "C" void row_sum_custom(uint8_t*, uint8_t*, uint32_t, uint32_t);
extern "C" void matmul_half(uint8_t*, uint8_t*, uint8_t*, uint8_t*);
extern "C" void matmul_leakyrelu_custom(uint8_t*, uint8_t*, uint8_t*, uint8_t*, uint8_t*, uint8_t*);

namespace {

std::string g_dir;

uint8_t* Load(const std::string& name, size_t bytes) {
  auto* p = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  std::ifstream in(g_dir + "/" + name, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(p), static_cast<std::streamsize>(bytes))) {
    std::fprintf(stderr, "cannot read %zu bytes from %s\n", bytes, name.c_str());
    std::exit(2);
  }
  return p;
}

void Save(const std::string& name, const uint8_t* p, size_t bytes) {
  std::ofstream(g_dir + "/" + name, std::ios::binary)
      .write(reinterpret_cast<const char*>(p), static_cast<std::streamsize>(bytes));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: run_kernels DIR\n");
    return 2;
  }
  g_dir = argv[1];
  bool ok = true;
  {  // add: 16384 halves
    const size_t n = 8 * 2048, bytes = n * 2;
    uint8_t *x = Load("add_x.bin", bytes), *y = Load("add_y.bin", bytes);
    auto* z = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
    ok &= ICPU_RUN_KF(add_custom, 8, x, y, z);
    Save("add_z.bin", z, bytes);
  }
  {  // leaky relu: 100003 floats, tiles of 1000, alpha 0.1
    const uint32_t n = 100003;
    uint8_t* x = Load("leaky_x.bin", n * 4);
    auto* y = static_cast<uint8_t*>(AscendC::GmAlloc(n * 4));
    struct {
      uint32_t total, tile;
      float alpha;
    } t{n, 1000, 0.1f};
    auto* tg = static_cast<uint8_t*>(AscendC::GmAlloc(sizeof(t)));
    std::memcpy(tg, &t, sizeof(t));
    ok &= ICPU_RUN_KF(leaky_relu_custom, 16, x, y, tg);
    Save("leaky_y.bin", y, n * 4);
  }
  {  // row sums: 37 x 512 floats
    const uint32_t rows = 37, cols = 512;
    uint8_t* x = Load("sum_x.bin", rows * cols * 4);
    auto* y = static_cast<uint8_t*>(AscendC::GmAlloc(rows * 4));
    ok &= ICPU_RUN_KF(row_sum_custom, 8, x, y, rows, cols);
    Save("sum_y.bin", y, rows * 4);
  }
  {  // matmul: (300 x 200) x (200 x 170), half
    const int M = 300, N = 170, K = 200;
    uint8_t *a = Load("mm_a.bin", M * K * 2), *b = Load("mm_b.bin", K * N * 2);
    auto* c = static_cast<uint8_t*>(AscendC::GmAlloc(M * N * 2));
    matmul_tiling::MultiCoreMatmulTiling tiler;
    tiler.SetDim(8);
    tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                   matmul_tiling::DataType::DT_FLOAT16);
    tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                   matmul_tiling::DataType::DT_FLOAT16);
    tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                   matmul_tiling::DataType::DT_FLOAT16);
    tiler.SetShape(M, N, K);
    tiler.SetOrgShape(M, N, K);
    TCubeTiling tiling;
    if (tiler.GetTiling(tiling) != 0) return 3;
    auto* tg = static_cast<uint8_t*>(AscendC::GmAlloc(sizeof(tiling)));
    std::memcpy(tg, &tiling, sizeof(tiling));
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    ok &= ICPU_RUN_KF(matmul_half, tiling.usedCoreNum, a, b, c, tg);
    Save("mm_c.bin", c, M * N * 2);
  }
  {  // matmul + leaky relu in mix mode: (128 x 64) x (64 x 128) + bias, 2 cube cores
    const int M = 128, N = 128, K = 64;
    uint8_t *a = Load("mml_a.bin", M * K * 2), *b = Load("mml_b.bin", K * N * 2);
    uint8_t* bias = Load("mml_bias.bin", N * 4);
    auto* c = static_cast<uint8_t*>(AscendC::GmAlloc(M * N * 4));
    const uint32_t blockDim = 2;  // cube cores; 4 vector cores share the work
    matmul_tiling::MultiCoreMatmulTiling tiler;
    tiler.SetDim(2 * blockDim);
    tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                   matmul_tiling::DataType::DT_FLOAT16);
    tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                   matmul_tiling::DataType::DT_FLOAT16);
    tiler.SetCType(matmul_tiling::TPosition::VECIN, matmul_tiling::CubeFormat::ND,
                   matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT);
    tiler.SetShape(M, N, K);
    tiler.SetOrgShape(M, N, K);
    tiler.SetBias(true);
    tiler.SetFixSplit(32, 64, -1);
    TCubeTiling tiling;
    if (tiler.GetTiling(tiling) != 0) return 3;
    auto* tg = static_cast<uint8_t*>(AscendC::GmAlloc(sizeof(tiling)));
    std::memcpy(tg, &tiling, sizeof(tiling));
    auto* ws = static_cast<uint8_t*>(AscendC::GmAlloc(1024));
    AscendC::SetKernelMode(KernelMode::MIX_MODE);
    ok &= ICPU_RUN_KF(matmul_leakyrelu_custom, blockDim, a, b, bias, c, ws, tg);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    Save("mml_c.bin", c, M * N * 4);
  }
  std::printf("%s\n", ok ? "all kernels ran" : "a kernel failed");
  return ok ? 0 : 1;
}
