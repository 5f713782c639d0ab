// aclmdlExecute in steady state allocates nothing of OpenCANN's own: the AscendCL layer's
// lists and the runtime's per-execution state keep their capacity between calls. Runs a
// committed .om (a small convolution network) through the public C API only.
#include <gtest/gtest.h>

#include <vector>

#include "acl/acl.h"
#include "counting_allocator.h"

namespace {

#ifndef OC_TEST_OM
#error "OC_TEST_OM names the .om file to run"
#endif

TEST(AclSteadyState, ExecuteAllocatesNothing) {
  if (!OC_COUNTING_ALLOCATOR) GTEST_SKIP() << "sanitizer build: its allocator is not replaced";
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromFile(OC_TEST_OM, &id), ACL_SUCCESS) << aclGetRecentErrMsg();
  aclmdlDesc* desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  aclmdlDataset* in = aclmdlCreateDataset();
  aclmdlDataset* out = aclmdlCreateDataset();
  std::vector<void*> buffers;
  for (size_t i = 0; i < aclmdlGetNumInputs(desc); ++i) {
    const size_t n = aclmdlGetInputSizeByIndex(desc, i);
    void* p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(p, n, 0, n), ACL_SUCCESS);
    buffers.push_back(p);
    ASSERT_EQ(aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(p, n)), ACL_SUCCESS);
  }
  for (size_t i = 0; i < aclmdlGetNumOutputs(desc); ++i) {
    const size_t n = aclmdlGetOutputSizeByIndex(desc, i);
    void* p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    buffers.push_back(p);
    ASSERT_EQ(aclmdlAddDatasetBuffer(out, aclCreateDataBuffer(p, n)), ACL_SUCCESS);
  }
  for (int i = 0; i < 3; ++i) ASSERT_EQ(aclmdlExecute(id, in, out), ACL_SUCCESS);
  StartCounting();
  for (int i = 0; i < 20; ++i) ASSERT_EQ(aclmdlExecute(id, in, out), ACL_SUCCESS);
  StopCounting();
  EXPECT_EQ(g_allocations.load(), 0u) << "operator new calls in 20 aclmdlExecute calls "
                                         "(OC_ALLOC_TRACE=N shows where)";
  std::printf("oneDNN-internal allocations per execution: %.1f\n", g_onednn.load() / 20.0);
  for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(in); ++i)
    aclDestroyDataBuffer(aclmdlGetDatasetBuffer(in, i));
  for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(out); ++i)
    aclDestroyDataBuffer(aclmdlGetDatasetBuffer(out, i));
  aclmdlDestroyDataset(in);
  aclmdlDestroyDataset(out);
  aclmdlDestroyDesc(desc);
  for (void* p : buffers) aclrtFree(p);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

}  // namespace
