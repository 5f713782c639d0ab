// Host side of tests/e2e/ccec: AscendCL as on the NPU, the kernel launched through
// scale_add_do (<<<>>> inside). Usage: main <data dir> <n> <scale>; reads x.bin, y.bin,
// writes z.bin.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "scale_add_tiling.h"

void scale_add_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* y, uint8_t* z,
                  ScaleAddTiling tiling);

#define CHECK(expr)                                                                \
  do {                                                                             \
    aclError e_ = (expr);                                                          \
    if (e_ != ACL_SUCCESS) {                                                       \
      std::fprintf(stderr, "%s failed: %d %s\n", #expr, e_, aclGetRecentErrMsg()); \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

static std::vector<float> Read(const std::string& path, size_t n) {
  std::vector<float> v(n);
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f || std::fread(v.data(), sizeof(float), n, f) != n) std::exit(2);
  std::fclose(f);
  return v;
}

int main(int argc, char** argv) {
  if (argc != 4) return 2;
  const std::string dir = argv[1];
  const uint32_t n = static_cast<uint32_t>(std::atoi(argv[2]));
  const size_t bytes = n * sizeof(float);
  std::vector<float> x = Read(dir + "/x.bin", n), y = Read(dir + "/y.bin", n), z(n);
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));
  void *xd, *yd, *zd;
  CHECK(aclrtMalloc(&xd, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&yd, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&zd, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(xd, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(yd, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ScaleAddTiling tiling{n, static_cast<float>(std::atof(argv[3]))};
  scale_add_do(8, stream, static_cast<uint8_t*>(xd), static_cast<uint8_t*>(yd),
               static_cast<uint8_t*>(zd), tiling);
  tiling.scale = 1000.0f;  // the launch copied the struct: this must not reach the kernel
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtMemcpy(z.data(), bytes, zd, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  FILE* f = std::fopen((dir + "/z.bin").c_str(), "wb");
  std::fwrite(z.data(), sizeof(float), n, f);
  std::fclose(f);
  // A host pointer is refused at the launch, as on the NPU; the stream stays usable.
  scale_add_do(8, stream, reinterpret_cast<uint8_t*>(x.data()), static_cast<uint8_t*>(yd),
               static_cast<uint8_t*>(zd), tiling);
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtFree(xd));
  CHECK(aclrtFree(yd));
  CHECK(aclrtFree(zd));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  std::printf("scale_add ran\n");
  return 0;
}
