/* Hello NPU: the life of every AscendCL program, in C.
 * init -> device -> context -> stream -> memory -> copy -> synchronize -> free -> finalize.
 * Build: gcc hello_acl.c -I$ASCEND_TOOLKIT_HOME/runtime/include \
 *            -L$ASCEND_TOOLKIT_HOME/runtime/lib64/stub -lascendcl -o hello_acl */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"

/* Every AscendCL call returns an aclError; 0 (ACL_SUCCESS) is the only good answer. */
#define CHECK(call)                                                               \
  do {                                                                            \
    aclError ret_ = (call);                                                       \
    if (ret_ != ACL_SUCCESS) {                                                    \
      fprintf(stderr, "%s failed: %d (%s)\n", #call, ret_, aclGetRecentErrMsg()); \
      return 1;                                                                   \
    }                                                                             \
  } while (0)

int main(void) {
  const int32_t device_id = 0;
  CHECK(aclInit(NULL)); /* NULL: no acl.json configuration */
  CHECK(aclrtSetDevice(device_id));

  aclrtContext context;
  aclrtStream stream;
  CHECK(aclrtCreateContext(&context, device_id));
  CHECK(aclrtCreateStream(&stream));

  uint32_t devices = 0;
  size_t free_bytes = 0, total_bytes = 0;
  int64_t ai_cores = 0, vector_cores = 0;
  CHECK(aclrtGetDeviceCount(&devices));
  CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total_bytes));
  CHECK(aclGetDeviceCapability(device_id, ACL_DEVICE_INFO_AI_CORE_NUM, &ai_cores));
  CHECK(aclGetDeviceCapability(device_id, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &vector_cores));
  printf("devices: %u, SoC: %s, HBM: %zu GiB, AI cores: %lld, vector cores: %lld\n", devices,
         aclrtGetSocName(), total_bytes >> 30, (long long)ai_cores, (long long)vector_cores);

  /* Host memory for the CPU side, device memory for the NPU side: they are different. */
  enum { N = 1024 };
  const size_t bytes = N * sizeof(float);
  void *host_in = NULL, *host_out = NULL, *dev_a = NULL, *dev_b = NULL;
  CHECK(aclrtMallocHost(&host_in, bytes));
  CHECK(aclrtMallocHost(&host_out, bytes));
  CHECK(aclrtMalloc(&dev_a, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dev_b, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  for (int i = 0; i < N; ++i) ((float*)host_in)[i] = (float)i * 0.5f;

  /* Host -> device synchronously, device -> device on the stream, then back to the host. */
  CHECK(aclrtMemcpy(dev_a, bytes, host_in, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpyAsync(dev_b, bytes, dev_a, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, stream));
  CHECK(aclrtSynchronizeStream(stream)); /* the async copy is done only after this */
  CHECK(aclrtMemcpy(host_out, bytes, dev_b, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  printf("round trip: %s (last value %.1f)\n",
         memcmp(host_in, host_out, bytes) == 0 ? "identical" : "DIFFERENT",
         ((float*)host_out)[N - 1]);

  /* Release in the reverse order of creation. */
  CHECK(aclrtFree(dev_a));
  CHECK(aclrtFree(dev_b));
  CHECK(aclrtFreeHost(host_in));
  CHECK(aclrtFreeHost(host_out));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtDestroyContext(context));
  CHECK(aclrtResetDevice(device_id));
  CHECK(aclFinalize());
  printf("hello NPU: done\n");
  return 0;
}
