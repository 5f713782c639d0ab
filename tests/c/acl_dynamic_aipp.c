/* A dynamic-AIPP application in the style of CANN's samples: find the parameter input by
 * ACL_DYNAMIC_AIPP_NAME, build a parameter set for the batch (RGB888 images, a crop per
 * image to the model's size, per-image mean and variance reciprocal), write it into the
 * dataset with aclmdlSetInputAIPP and execute.
 *
 * usage: oc_acl_dynamic_aipp MODEL.om IMAGES.bin SRC_W SRC_H OUTPUT.bin
 * IMAGES.bin holds the batch's RGB888 images back to back. Image b is cropped at
 * (b, 2 * b) to the model's W x H, its mean is 10 * b on every channel and var_reci 0.5.
 * Writes the model's first output (float32) to OUTPUT.bin. */
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

static void* ReadAll(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  void* data;
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  data = malloc(*size ? *size : 1);
  if (data && fread(data, 1, *size, f) != *size) {
    free(data);
    data = NULL;
  }
  fclose(f);
  return data;
}

int main(int argc, char** argv) {
  uint32_t id = 0;
  size_t aipp_index = 0, image_size, param_size, out_size, host_size = 0, i, n;
  aclmdlDesc* desc;
  aclmdlDataset *in, *out;
  aclmdlAIPP* aipp;
  aclmdlIODims dims;
  aclmdlInputAippType type;
  size_t attached = 0;
  void *image_dev, *param_dev, *out_dev, *host, *result;
  int src_w, src_h;
  uint64_t batch;
  FILE* f;
  if (argc != 6) {
    fprintf(stderr, "usage: %s MODEL.om IMAGES.bin SRC_W SRC_H OUTPUT.bin\n", argv[0]);
    return 2;
  }
  src_w = atoi(argv[3]);
  src_h = atoi(argv[4]);
  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  CHECK(aclmdlLoadFromFile(argv[1], &id));
  desc = aclmdlCreateDesc();
  CHECK(aclmdlGetDesc(desc, id));
  CHECK(aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_AIPP_NAME, &aipp_index));
  CHECK(aclmdlGetAippType(id, 0, &type, &attached));
  if (type != ACL_DATA_WITH_DYNAMIC_AIPP || attached != aipp_index) {
    fprintf(stderr, "input 0 has no dynamic AIPP\n");
    return 1;
  }
  /* The test model returns its input: its output dims are the N, C, H, W AIPP must give. */
  CHECK(aclmdlGetOutputDims(desc, 0, &dims));
  batch = (uint64_t)dims.dims[0];
  image_size = aclmdlGetInputSizeByIndex(desc, 0);
  param_size = aclmdlGetInputSizeByIndex(desc, aipp_index);
  out_size = aclmdlGetOutputSizeByIndex(desc, 0);
  host = ReadAll(argv[2], &host_size);
  if (!host || host_size > image_size) {
    fprintf(stderr, "cannot read %s, or it is larger than the model's %zu bytes\n", argv[2],
            image_size);
    return 1;
  }
  CHECK(aclrtMalloc(&image_dev, image_size, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&param_dev, param_size, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&out_dev, out_size, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(image_dev, image_size, host, host_size, ACL_MEMCPY_HOST_TO_DEVICE));
  in = aclmdlCreateDataset();
  out = aclmdlCreateDataset();
  n = aclmdlGetNumInputs(desc);
  for (i = 0; i < n; ++i) {
    void* p = i == aipp_index ? param_dev : image_dev;
    size_t s = i == aipp_index ? param_size : image_size;
    CHECK(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(p, s)));
  }
  CHECK(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(out_dev, out_size)));
  aipp = aclmdlCreateAIPP(batch);
  CHECK(aclmdlSetAIPPInputFormat(aipp, ACL_RGB888_U8));
  CHECK(aclmdlSetAIPPSrcImageSize(aipp, src_w, src_h));
  CHECK(aclmdlSetAIPPCscParams(aipp, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
  for (i = 0; i < batch; ++i) {
    int16_t m = (int16_t)(10 * i);
    CHECK(aclmdlSetAIPPCropParams(aipp, 1, (int32_t)i, (int32_t)(2 * i), (int32_t)dims.dims[3],
                                  (int32_t)dims.dims[2], i));
    CHECK(aclmdlSetAIPPDtcPixelMean(aipp, m, m, m, 0, i));
    CHECK(aclmdlSetAIPPPixelVarReci(aipp, 0.5f, 0.5f, 0.5f, 1.0f, i));
  }
  CHECK(aclmdlSetInputAIPP(id, in, aipp_index, aipp));
  CHECK(aclmdlExecute(id, in, out));
  result = malloc(out_size);
  CHECK(aclrtMemcpy(result, out_size, out_dev, out_size, ACL_MEMCPY_DEVICE_TO_HOST));
  f = fopen(argv[5], "wb");
  if (!f || fwrite(result, 1, out_size, f) != out_size) return 1;
  fclose(f);
  printf("batch %llu, output %zu bytes\n", (unsigned long long)batch, out_size);
  CHECK(aclmdlDestroyAIPP(aipp));
  for (i = 0; i < aclmdlGetDatasetNumBuffers(in); ++i)
    CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, i)));
  CHECK(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, 0)));
  CHECK(aclmdlDestroyDataset(in));
  CHECK(aclmdlDestroyDataset(out));
  CHECK(aclrtFree(image_dev));
  CHECK(aclrtFree(param_dev));
  CHECK(aclrtFree(out_dev));
  CHECK(aclmdlDestroyDesc(desc));
  CHECK(aclmdlUnload(id));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  free(host);
  free(result);
  return 0;
}
