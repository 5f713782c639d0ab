// The NPU-style host program for AddCustom: AscendCL memory and streams, and the kernel
// launched with ACLRT_LAUNCH_KERNEL (the header comes from ascendc_library in CMake).
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_add_custom.h"

#define CHECK(call)                                                       \
  do {                                                                    \
    aclError e_ = (call);                                                 \
    if (e_ != ACL_SUCCESS) {                                              \
      std::printf("%s failed: %d %s\n", #call, e_, aclGetRecentErrMsg()); \
      return 1;                                                           \
    }                                                                     \
  } while (0)

int main() {
  constexpr uint32_t kBlocks = 8;
  constexpr size_t kCount = 8 * 2048, kBytes = kCount * sizeof(uint16_t);
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream;
  CHECK(aclrtCreateStream(&stream));
  std::vector<aclFloat16> x(kCount), y(kCount), z(kCount);
  for (size_t i = 0; i < kCount; ++i) {
    x[i] = aclFloatToFloat16(std::sin(0.01f * i));
    y[i] = aclFloatToFloat16(std::cos(0.03f * i));
  }
  void *dx, *dy, *dz;
  CHECK(aclrtMalloc(&dx, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dy, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dz, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(dx, kBytes, x.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(dy, kBytes, y.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  // Host memory is not a kernel argument, as on the NPU.
  if (ACLRT_LAUNCH_KERNEL(add_custom)(kBlocks, stream, x.data(), dy, dz) !=
      ACL_ERROR_INVALID_PARAM) {
    std::printf("FAIL: a host pointer was accepted\n");
    return 1;
  }
  CHECK(ACLRT_LAUNCH_KERNEL(add_custom)(kBlocks, stream, dx, dy, dz));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtMemcpy(z.data(), kBytes, dz, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
  int wrong = 0;
  for (size_t i = 0; i < kCount; ++i) {
    const float want =
        aclFloat16ToFloat(aclFloatToFloat16(aclFloat16ToFloat(x[i]) + aclFloat16ToFloat(y[i])));
    if (aclFloat16ToFloat(z[i]) != want) ++wrong;
  }
  std::printf("%s: %d of %zu elements differ from the reference\n", wrong ? "FAIL" : "PASS", wrong,
              kCount);
  CHECK(aclrtFree(dx));
  CHECK(aclrtFree(dy));
  CHECK(aclrtFree(dz));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return wrong ? 1 : 0;
}
