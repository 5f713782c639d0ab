/* An application written the way CANN's C samples are: query the model's memory, load it
 * into memory the application owns, build datasets, execute asynchronously on a stream
 * with a callback thread that processes each result, choose a dynamic batch gear when the
 * model has one, and read output shapes from descriptions.
 *
 * usage: oc_acl_sample MODEL.om INPUT.bin OUTPUT.bin [BATCH] [LOOPS]
 * Writes the first output of the last run to OUTPUT.bin and prints its dims. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define CHECK(call)                                                             \
  do {                                                                          \
    aclError ret_ = (call);                                                     \
    if (ret_ != ACL_SUCCESS) {                                                  \
      fprintf(stderr, "%s failed: %d %s\n", #call, ret_, aclGetRecentErrMsg()); \
      exit(1);                                                                  \
    }                                                                           \
  } while (0)

static volatile int g_exit = 0;
static int g_callbacks_done = 0;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

static void* ProcessThread(void* arg) {
  aclrtContext ctx = (aclrtContext)arg;
  CHECK(aclrtSetCurrentContext(ctx));
  while (!g_exit) aclrtProcessReport(100); /* timeouts are expected while idle */
  return NULL;
}

struct RunResult {
  void* device_out;
  size_t size;
  float first_value;
};

/* Runs on the report thread once the execution before it on the stream has finished. */
static void OnExecuted(void* user) {
  struct RunResult* r = (struct RunResult*)user;
  float v = 0;
  if (aclrtMemcpy(&v, sizeof(v), r->device_out, sizeof(v), ACL_MEMCPY_DEVICE_TO_HOST) == 0)
    r->first_value = v;
  pthread_mutex_lock(&g_lock);
  ++g_callbacks_done;
  pthread_mutex_unlock(&g_lock);
}

static void* ReadFile(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  void* data = malloc(*size ? *size : 1);
  if (fread(data, 1, *size, f) != *size) *size = 0;
  fclose(f);
  return data;
}

int main(int argc, char** argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s MODEL.om INPUT.bin OUTPUT.bin [BATCH] [LOOPS]\n", argv[0]);
    return 2;
  }
  const char* model_path = argv[1];
  const uint64_t batch = argc > 4 ? (uint64_t)atoll(argv[4]) : 0;
  const int loops = argc > 5 ? atoi(argv[5]) : 3;

  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  aclrtContext ctx;
  aclrtStream stream;
  CHECK(aclrtCreateContext(&ctx, 0));
  CHECK(aclrtCreateStream(&stream));

  /* The model's memory, owned by the application. */
  size_t work_size = 0, weight_size = 0;
  void *work = NULL, *weight = NULL;
  uint32_t model_id;
  CHECK(aclmdlQuerySize(model_path, &work_size, &weight_size));
  CHECK(aclrtMalloc(&work, work_size ? work_size : 1, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&weight, weight_size ? weight_size : 1, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclmdlLoadFromFileWithMem(model_path, &model_id, work, work_size, weight, weight_size));
  aclmdlDesc* desc = aclmdlCreateDesc();
  CHECK(aclmdlGetDesc(desc, model_id));

  size_t gear_index = (size_t)-1;
  if (aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &gear_index) != ACL_SUCCESS)
    gear_index = (size_t)-1;

  /* Input: the file goes to input 0; a gear model's dynamic input gets its own buffer. */
  size_t in_bytes = 0;
  void* host_in = ReadFile(argv[2], &in_bytes);
  if (!host_in) {
    fprintf(stderr, "cannot read %s\n", argv[2]);
    return 1;
  }
  aclmdlDataset *input = aclmdlCreateDataset(), *output = aclmdlCreateDataset();
  size_t n_in = aclmdlGetNumInputs(desc), n_out = aclmdlGetNumOutputs(desc), i;
  void *dev_in[8] = {0}, *dev_out[8] = {0};
  for (i = 0; i < n_in && i < 8; ++i) {
    size_t size = aclmdlGetInputSizeByIndex(desc, i);
    CHECK(aclrtMalloc(&dev_in[i], size, ACL_MEM_MALLOC_HUGE_FIRST));
    if (i == 0) {
      if (in_bytes > size) {
        fprintf(stderr, "input file has %zu bytes, the model takes at most %zu\n", in_bytes, size);
        return 1;
      }
      CHECK(aclrtMemcpy(dev_in[i], size, host_in, in_bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    CHECK(aclmdlAddDatasetBuffer(input, aclCreateDataBuffer(dev_in[i], size)));
  }
  for (i = 0; i < n_out && i < 8; ++i) {
    size_t size = aclmdlGetOutputSizeByIndex(desc, i);
    CHECK(aclrtMalloc(&dev_out[i], size, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclmdlAddDatasetBuffer(output, aclCreateDataBuffer(dev_out[i], size)));
  }
  if (gear_index != (size_t)-1) {
    aclmdlBatch gears;
    CHECK(aclmdlGetDynamicBatch(desc, &gears));
    printf("gears:");
    for (i = 0; i < gears.batchCount; ++i) printf(" %llu", (unsigned long long)gears.batch[i]);
    printf("\n");
    CHECK(aclmdlSetDynamicBatchSize(model_id, input, gear_index, batch ? batch : gears.batch[0]));
  }

  /* Callback thread, subscribed to the stream. */
  pthread_t tid;
  pthread_create(&tid, NULL, ProcessThread, ctx);
  CHECK(aclrtSubscribeReport((uint64_t)tid, stream));
  struct RunResult* results = calloc((size_t)loops, sizeof(struct RunResult));
  aclrtEvent start, end;
  CHECK(aclrtCreateEvent(&start));
  CHECK(aclrtCreateEvent(&end));
  CHECK(aclrtRecordEvent(start, stream));
  for (int l = 0; l < loops; ++l) {
    results[l].device_out = dev_out[0];
    results[l].size = aclmdlGetOutputSizeByIndex(desc, 0);
    CHECK(aclmdlExecuteAsync(model_id, input, output, stream));
    CHECK(aclrtLaunchCallback(OnExecuted, &results[l], ACL_CALLBACK_BLOCK, stream));
  }
  CHECK(aclrtRecordEvent(end, stream));
  CHECK(aclrtSynchronizeStream(stream));
  float ms = 0;
  CHECK(aclrtEventElapsedTime(&ms, start, end));
  printf("callbacks: %d, time %.3f ms\n", g_callbacks_done, ms);
  for (int l = 1; l < loops; ++l)
    if (results[l].first_value != results[0].first_value) {
      fprintf(stderr, "run %d differs from run 0\n", l);
      return 1;
    }

  /* Output shape from the description and from the dataset. */
  aclmdlIODims dims;
  CHECK(aclmdlGetCurOutputDims(desc, 0, &dims));
  printf("output dims:");
  for (i = 0; i < dims.dimCount; ++i) printf(" %lld", (long long)dims.dims[i]);
  printf("\n");
  aclTensorDesc* out_desc = aclmdlGetDatasetTensorDesc(output, 0);
  size_t out_bytes =
      out_desc ? aclGetTensorDescSize(out_desc) : aclmdlGetOutputSizeByIndex(desc, 0);
  void* host_out = malloc(out_bytes);
  CHECK(aclrtMemcpy(host_out, out_bytes, dev_out[0], out_bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  FILE* f = fopen(argv[3], "wb");
  if (!f || fwrite(host_out, 1, out_bytes, f) != out_bytes) return 1;
  fclose(f);

  g_exit = 1;
  CHECK(aclrtUnSubscribeReport((uint64_t)tid, stream));
  pthread_join(tid, NULL);
  CHECK(aclrtDestroyEvent(start));
  CHECK(aclrtDestroyEvent(end));
  for (size_t k = 0; k < aclmdlGetDatasetNumBuffers(input); ++k)
    CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(input, k)));
  for (size_t k = 0; k < aclmdlGetDatasetNumBuffers(output); ++k)
    CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(output, k)));
  CHECK(aclmdlDestroyDataset(input));
  CHECK(aclmdlDestroyDataset(output));
  for (i = 0; i < n_in && i < 8; ++i) CHECK(aclrtFree(dev_in[i]));
  for (i = 0; i < n_out && i < 8; ++i) CHECK(aclrtFree(dev_out[i]));
  CHECK(aclmdlUnload(model_id));
  CHECK(aclmdlDestroyDesc(desc));
  CHECK(aclrtFree(work));
  CHECK(aclrtFree(weight));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtDestroyContext(ctx));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  free(host_in);
  free(host_out);
  free(results);
  printf("sample done\n");
  return 0;
}
