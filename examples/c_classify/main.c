/* A plain C AscendCL application in the shape of CANN's classification samples:
 * init, device, context, stream, load an .om, query its I/O, copy an input to
 * device memory, execute, copy the output back, print the top-5 classes.
 *
 * usage: classify model.om [input.bin]   (input.bin: raw float32 tensor; zeros if absent)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define CHECK(call)                                                         \
  do {                                                                      \
    aclError err_ = (call);                                                 \
    if (err_ != ACL_SUCCESS) {                                              \
      const char* msg_ = aclGetRecentErrMsg();                              \
      fprintf(stderr, "%s failed: %d %s\n", #call, err_, msg_ ? msg_ : ""); \
      return 1;                                                             \
    }                                                                       \
  } while (0)

static int read_file(const char* path, void* dst, size_t size) {
  FILE* f = fopen(path, "rb");
  if (!f) return -1;
  size_t got = fread(dst, 1, size, f);
  int extra = fgetc(f);
  fclose(f);
  return (got == size && extra == EOF) ? 0 : -1;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s model.om [input.bin]\n", argv[0]);
    return 2;
  }
  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  aclrtContext context;
  CHECK(aclrtCreateContext(&context, 0));
  aclrtStream stream;
  CHECK(aclrtCreateStream(&stream));

  size_t work_size = 0, weight_size = 0;
  CHECK(aclmdlQuerySize(argv[1], &work_size, &weight_size));
  uint32_t model_id = 0;
  CHECK(aclmdlLoadFromFile(argv[1], &model_id));
  aclmdlDesc* desc = aclmdlCreateDesc();
  CHECK(aclmdlGetDesc(desc, model_id));
  printf("model %s: %zu input(s), %zu output(s), work %zu B, weights %zu B\n", argv[1],
         aclmdlGetNumInputs(desc), aclmdlGetNumOutputs(desc), work_size, weight_size);

  size_t in_size = aclmdlGetInputSizeByIndex(desc, 0);
  void* host_in = NULL;
  CHECK(aclrtMallocHost(&host_in, in_size));
  memset(host_in, 0, in_size);
  if (argc > 2 && read_file(argv[2], host_in, in_size) != 0) {
    fprintf(stderr, "%s is not a %zu-byte input file\n", argv[2], in_size);
    return 1;
  }
  void* dev_in = NULL;
  CHECK(aclrtMalloc(&dev_in, in_size, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(dev_in, in_size, host_in, in_size, ACL_MEMCPY_HOST_TO_DEVICE));

  size_t out_size = aclmdlGetOutputSizeByIndex(desc, 0);
  void* dev_out = NULL;
  CHECK(aclrtMalloc(&dev_out, out_size, ACL_MEM_MALLOC_HUGE_FIRST));

  aclmdlDataset* input = aclmdlCreateDataset();
  aclDataBuffer* in_buf = aclCreateDataBuffer(dev_in, in_size);
  CHECK(aclmdlAddDatasetBuffer(input, in_buf));
  aclmdlDataset* output = aclmdlCreateDataset();
  aclDataBuffer* out_buf = aclCreateDataBuffer(dev_out, out_size);
  CHECK(aclmdlAddDatasetBuffer(output, out_buf));

  CHECK(aclmdlExecute(model_id, input, output));

  float* host_out = NULL;
  CHECK(aclrtMallocHost((void**)&host_out, out_size));
  CHECK(aclrtMemcpy(host_out, out_size, dev_out, out_size, ACL_MEMCPY_DEVICE_TO_HOST));
  size_t n = out_size / sizeof(float);
  printf("top-5:");
  for (int k = 0; k < 5 && (size_t)k < n; ++k) {
    size_t best = 0;
    for (size_t i = 1; i < n; ++i)
      if (host_out[i] > host_out[best]) best = i;
    printf(" %zu:%.6f", best, host_out[best]);
    host_out[best] = -1e30f;
  }
  printf("\n");

  aclDestroyDataBuffer(in_buf);
  aclDestroyDataBuffer(out_buf);
  aclmdlDestroyDataset(input);
  aclmdlDestroyDataset(output);
  aclrtFree(dev_in);
  aclrtFree(dev_out);
  aclrtFreeHost(host_in);
  aclrtFreeHost(host_out);
  aclmdlDestroyDesc(desc);
  CHECK(aclmdlUnload(model_id));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtDestroyContext(context));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return 0;
}
