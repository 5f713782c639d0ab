// Runs the kernels of kernels.cpp on inputs from DIR and writes the outputs next to them:
// run_checks DIR. Exit status 0 when the two good kernels and the synced one succeed and the
// racy one is caught.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "tikicpulib.h"
#include "tiling/tiling_api.h"

extern "C" void pad_rows_custom(uint8_t*, uint8_t*, uint8_t*);
extern "C" void keep_positive_custom(uint8_t*, uint8_t*, uint8_t*);
extern "C" void racy_scale_custom(uint8_t*, uint8_t*);
extern "C" void synced_scale_custom(uint8_t*, uint8_t*);

namespace {
std::string g_dir;
uint8_t* Load(const std::string& name, size_t bytes) {
  auto* p = static_cast<uint8_t*>(AscendC::GmAlloc(bytes));
  std::ifstream in(g_dir + "/" + name, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(p), static_cast<std::streamsize>(bytes))) std::exit(2);
  return p;
}
void Save(const std::string& name, const uint8_t* p, size_t bytes) {
  std::ofstream(g_dir + "/" + name, std::ios::binary)
      .write(reinterpret_cast<const char*>(p), static_cast<std::streamsize>(bytes));
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  g_dir = argv[1];
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  bool ok = true;
  {
    uint8_t* x = Load("pad_x.bin", 8 * 13 * 2);
    auto* y = static_cast<uint8_t*>(AscendC::GmAlloc(8 * 16 * 2));
    optiling::PadTiling tiling;
    AscendC::PadTilingFunc(ge::Shape({8, 13}), ge::Shape({8, 13}), 0, 2, tiling);
    auto* t = static_cast<uint8_t*>(AscendC::GmAlloc(sizeof(tiling)));
    std::memcpy(t, &tiling, sizeof(tiling));
    ok &= ICPU_RUN_KF(pad_rows_custom, 1, x, y, t);
    Save("pad_y.bin", y, 8 * 16 * 2);
  }
  {
    uint8_t* x = Load("pos_x.bin", 1024 * 4);
    auto* y = static_cast<uint8_t*>(AscendC::GmAlloc(1024 * 4));
    auto* c = static_cast<uint8_t*>(AscendC::GmAlloc(32));
    ok &= ICPU_RUN_KF(keep_positive_custom, 1, x, y, c);
    Save("pos_y.bin", y, 1024 * 4);
    Save("pos_count.bin", c, 4);
  }
  {
    uint8_t* x = Load("scale_x.bin", 4 * 1024 * 4);
    auto* y = static_cast<uint8_t*>(AscendC::GmAlloc(4 * 1024 * 4));
    const bool racy_ok = ICPU_RUN_KF(racy_scale_custom, 4, x, y);
    ok &= !racy_ok;  // the checks must catch it
    ok &= ICPU_RUN_KF(synced_scale_custom, 4, x, y);
    Save("scale_y.bin", y, 4 * 1024 * 4);
  }
  std::printf("%s\n", ok ? "checks example ran as expected" : "checks example failed");
  return ok ? 0 : 1;
}
