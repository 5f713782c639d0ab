/* Single-operator mode in C: atc --singleop compiled Add for [8,16] float into op_models/;
 * the application runs it with aclopExecuteV2, with no model around it.
 * Build: gcc single_op_add.c -I$ASCEND_TOOLKIT_HOME/runtime/include \
 *            -L$ASCEND_TOOLKIT_HOME/runtime/lib64/stub -lascendcl -o single_op_add */
#include <stdio.h>

#include "acl/acl.h"
#include "acl/acl_op.h"

#define CHECK(call)                                                               \
  do {                                                                            \
    aclError ret_ = (call);                                                       \
    if (ret_ != ACL_SUCCESS) {                                                    \
      fprintf(stderr, "%s failed: %d (%s)\n", #call, ret_, aclGetRecentErrMsg()); \
      return 1;                                                                   \
    }                                                                             \
  } while (0)

enum { ROWS = 8, COLS = 16, N = ROWS * COLS };

int main(void) {
  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream;
  CHECK(aclrtCreateStream(&stream));
  CHECK(aclopSetModelDir("op_models")); /* where atc --singleop wrote the op's .om */

  float x[N], y[N], z[N];
  for (int i = 0; i < N; ++i) {
    x[i] = (float)i;
    y[i] = 0.25f * (float)(N - i);
  }
  const size_t bytes = sizeof(x);
  void *dx, *dy, *dz;
  CHECK(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(dx, bytes, x, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(dy, bytes, y, bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  /* The descriptions must match what the op was compiled for: that is how it is found. */
  const int64_t dims[2] = {ROWS, COLS};
  aclTensorDesc* in_desc[2] = {aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND),
                               aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND)};
  aclTensorDesc* out_desc[1] = {aclCreateTensorDesc(ACL_FLOAT, 2, dims, ACL_FORMAT_ND)};
  aclDataBuffer* in_buf[2] = {aclCreateDataBuffer(dx, bytes), aclCreateDataBuffer(dy, bytes)};
  aclDataBuffer* out_buf[1] = {aclCreateDataBuffer(dz, bytes)};
  aclopAttr* attr = aclopCreateAttr();

  CHECK(aclopExecuteV2("Add", 2, in_desc, in_buf, 1, out_desc, out_buf, attr, stream));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtMemcpy(z, bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST));

  int wrong = 0;
  for (int i = 0; i < N; ++i) wrong += z[i] != x[i] + y[i];
  printf("Add [%d,%d] by aclopExecuteV2: %s (z[%d] = %.2f)\n", ROWS, COLS,
         wrong ? "WRONG" : "exact", N - 1, z[N - 1]);

  aclopDestroyAttr(attr);
  for (int i = 0; i < 2; ++i) {
    aclDestroyTensorDesc(in_desc[i]);
    CHECK(aclDestroyDataBuffer(in_buf[i]));
  }
  aclDestroyTensorDesc(out_desc[0]);
  CHECK(aclDestroyDataBuffer(out_buf[0]));
  CHECK(aclrtFree(dx));
  CHECK(aclrtFree(dy));
  CHECK(aclrtFree(dz));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return wrong ? 1 : 0;
}
