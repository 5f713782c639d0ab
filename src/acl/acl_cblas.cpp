// acl_cblas: GEMM as CANN's runs it, through the single-op "GEMM" operator (acl_op.cpp).
#include "acl/ops/acl_cblas.h"

#include "acl/acl_state.h"

using oc::acl::Fail;

namespace {

struct Gemm {
  aclTensorDesc *a = nullptr, *b = nullptr, *c = nullptr, *alpha = nullptr, *beta = nullptr;
  aclopAttr* attr = nullptr;
  ~Gemm() {
    for (aclTensorDesc* d : {a, b, c, alpha, beta})
      if (d) aclDestroyTensorDesc(d);
    if (attr) aclopDestroyAttr(attr);
  }
};

// The call's descriptions and attributes; refuses what OpenCANN does not compute.
aclError Describe(aclTransType ta, aclTransType tb, aclTransType tc, int m, int n, int k,
                  aclDataType da, aclDataType db, aclDataType dc, aclComputeType type, Gemm* g,
                  const char* fn) {
  if (m <= 0 || n <= 0 || k <= 0)
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": m, n and k must be positive");
  for (aclTransType t : {ta, tb, tc})
    if (t == ACL_TRANS_NZ || t == ACL_TRANS_NZ_T)
      return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                  std::string(fn) +
                      ": the NZ (fractal) layouts are not supported by OpenCANN; "
                      "give ND matrices (ACL_TRANS_N or ACL_TRANS_T)");
  if (ta != ACL_TRANS_N && ta != ACL_TRANS_T)
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": transA");
  if (tb != ACL_TRANS_N && tb != ACL_TRANS_T)
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": transB");
  if (tc != ACL_TRANS_N)
    return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                std::string(fn) + ": a transposed C is not supported by OpenCANN");
  if (type == ACL_COMPUTE_LOW_PRECISION)
    return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                std::string(fn) +
                    ": ACL_COMPUTE_LOW_PRECISION is not supported by OpenCANN "
                    "(it computes the high-precision result)");
  if (type != ACL_COMPUTE_HIGH_PRECISION)
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": unknown aclComputeType");
  const int64_t ad[2] = {ta == ACL_TRANS_N ? m : k, ta == ACL_TRANS_N ? k : m};
  const int64_t bd[2] = {tb == ACL_TRANS_N ? k : n, tb == ACL_TRANS_N ? n : k};
  const int64_t cd[2] = {m, n};
  g->a = aclCreateTensorDesc(da, 2, ad, ACL_FORMAT_ND);
  g->b = aclCreateTensorDesc(db, 2, bd, ACL_FORMAT_ND);
  g->c = aclCreateTensorDesc(dc, 2, cd, ACL_FORMAT_ND);
  g->alpha = aclCreateTensorDesc(dc, 0, nullptr, ACL_FORMAT_ND);
  g->beta = aclCreateTensorDesc(dc, 0, nullptr, ACL_FORMAT_ND);
  if (!g->a || !g->b || !g->c || !g->alpha || !g->beta)
    return Fail(ACL_ERROR_INVALID_PARAM,
                std::string(fn) + ": the matrices of m " + std::to_string(m) + ", n " +
                    std::to_string(n) + ", k " + std::to_string(k) +
                    " are not describable (their byte sizes overflow, or a data type is unknown)");
  g->attr = aclopCreateAttr();
  aclopSetAttrBool(g->attr, "transpose_a", ta == ACL_TRANS_T);
  aclopSetAttrBool(g->attr, "transpose_b", tb == ACL_TRANS_T);
  return ACL_SUCCESS;
}

aclError CheckLd(const char* fn, const char* name, int ld, int64_t cols) {
  // -1 is what CANN's documentation asks for (the matrix is dense); the row length itself
  // says the same.
  if (ld == -1 || ld == cols) return ACL_SUCCESS;
  return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
              std::string(fn) + ": " + name + " " + std::to_string(ld) + " is not the row length " +
                  std::to_string(cols) + ": OpenCANN's GEMM takes dense row-major matrices");
}

aclError Run(aclTransType ta, aclTransType tb, aclTransType tc, int m, int n, int k,
             const void* alpha, const void* a, int lda, aclDataType da, const void* b, int ldb,
             aclDataType db, const void* beta, void* c, int ldc, aclDataType dc,
             aclComputeType type, aclrtStream stream, const char* fn) {
  OC_ACL_REQUIRE_INIT();
  Gemm g;
  if (aclError e = Describe(ta, tb, tc, m, n, k, da, db, dc, type, &g, fn)) return e;
  if (aclError e = CheckLd(fn, "lda", lda, ta == ACL_TRANS_N ? k : m)) return e;
  if (aclError e = CheckLd(fn, "ldb", ldb, tb == ACL_TRANS_N ? n : k)) return e;
  if (aclError e = CheckLd(fn, "ldc", ldc, n)) return e;
  const void* ptrs[5] = {a, b, c, alpha, beta};
  aclTensorDesc* descs[5] = {g.a, g.b, g.c, g.alpha, g.beta};
  aclDataBuffer* bufs[5] = {};
  for (int i = 0; i < 5; ++i) {
    if (!ptrs[i]) {
      for (int j = 0; j < i; ++j) aclDestroyDataBuffer(bufs[j]);
      return Fail(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": a matrix or scalar pointer is null");
    }
    bufs[i] = aclCreateDataBuffer(const_cast<void*>(ptrs[i]), aclGetTensorDescSize(descs[i]));
  }
  aclDataBuffer* out = aclCreateDataBuffer(c, aclGetTensorDescSize(g.c));
  aclTensorDesc* out_desc[1] = {g.c};
  aclDataBuffer* outs[1] = {out};
  aclError e = aclopExecuteV2("GEMM", 5, descs, bufs, 1, out_desc, outs, g.attr, stream);
  for (aclDataBuffer* b : bufs) aclDestroyDataBuffer(b);
  aclDestroyDataBuffer(out);
  return e;
}

aclError Handle(aclTransType ta, aclTransType tb, aclTransType tc, int m, int n, int k,
                aclDataType da, aclDataType db, aclDataType dc, aclComputeType type,
                aclopHandle** handle, const char* fn) {
  OC_ACL_REQUIRE_INIT();
  Gemm g;
  if (aclError e = Describe(ta, tb, tc, m, n, k, da, db, dc, type, &g, fn)) return e;
  const aclTensorDesc* in[5] = {g.a, g.b, g.c, g.alpha, g.beta};
  const aclTensorDesc* out[1] = {g.c};
  return aclopCreateHandle("GEMM", 5, in, 1, out, g.attr, handle);
}

aclError NoGemv(const char* fn) {
  return Fail(ACL_ERROR_API_NOT_SUPPORT,
              std::string(fn) + ": GEMV is not supported by OpenCANN yet; use GEMM with n = 1");
}

}  // namespace

extern "C" {

aclError aclblasGemmEx(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                       int k, const void* alpha, const void* matrixA, int lda,
                       aclDataType dataTypeA, const void* matrixB, int ldb, aclDataType dataTypeB,
                       const void* beta, void* matrixC, int ldc, aclDataType dataTypeC,
                       aclComputeType type, aclrtStream stream) {
  return Run(transA, transB, transC, m, n, k, alpha, matrixA, lda, dataTypeA, matrixB, ldb,
             dataTypeB, beta, matrixC, ldc, dataTypeC, type, stream, __func__);
}

aclError aclblasHgemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                      int k, const aclFloat16* alpha, const aclFloat16* matrixA, int lda,
                      const aclFloat16* matrixB, int ldb, const aclFloat16* beta,
                      aclFloat16* matrixC, int ldc, aclComputeType type, aclrtStream stream) {
  return Run(transA, transB, transC, m, n, k, alpha, matrixA, lda, ACL_FLOAT16, matrixB, ldb,
             ACL_FLOAT16, beta, matrixC, ldc, ACL_FLOAT16, type, stream, __func__);
}

aclError aclblasS8gemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                       int k, const int32_t* alpha, const int8_t* matrixA, int lda,
                       const int8_t* matrixB, int ldb, const int32_t* beta, int32_t* matrixC,
                       int ldc, aclComputeType type, aclrtStream stream) {
  return Run(transA, transB, transC, m, n, k, alpha, matrixA, lda, ACL_INT8, matrixB, ldb, ACL_INT8,
             beta, matrixC, ldc, ACL_INT32, type, stream, __func__);
}

aclError aclblasCreateHandleForGemmEx(aclTransType transA, aclTransType transB, aclTransType transC,
                                      int m, int n, int k, aclDataType dataTypeA,
                                      aclDataType dataTypeB, aclDataType dataTypeC,
                                      aclComputeType type, aclopHandle** handle) {
  return Handle(transA, transB, transC, m, n, k, dataTypeA, dataTypeB, dataTypeC, type, handle,
                __func__);
}

aclError aclblasCreateHandleForHgemm(aclTransType transA, aclTransType transB, aclTransType transC,
                                     int m, int n, int k, aclComputeType type,
                                     aclopHandle** handle) {
  return Handle(transA, transB, transC, m, n, k, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, type,
                handle, __func__);
}

aclError aclblasCreateHandleForS8gemm(aclTransType transA, aclTransType transB, aclTransType transC,
                                      int m, int n, int k, aclComputeType type,
                                      aclopHandle** handle) {
  return Handle(transA, transB, transC, m, n, k, ACL_INT8, ACL_INT8, ACL_INT32, type, handle,
                __func__);
}

aclError aclblasGemvEx(aclTransType, int, int, const void*, const void*, int, aclDataType,
                       const void*, int, aclDataType, const void*, void*, int, aclDataType,
                       aclComputeType, aclrtStream) {
  return NoGemv(__func__);
}
aclError aclblasHgemv(aclTransType, int, int, const aclFloat16*, const aclFloat16*, int,
                      const aclFloat16*, int, const aclFloat16*, aclFloat16*, int, aclComputeType,
                      aclrtStream) {
  return NoGemv(__func__);
}
aclError aclblasS8gemv(aclTransType, int, int, const int32_t*, const int8_t*, int, const int8_t*,
                       int, const int32_t*, int32_t*, int, aclComputeType, aclrtStream) {
  return NoGemv(__func__);
}

}  // extern "C"
