// Shared oneDNN plumbing: the engine, plain layouts, fused post-ops and a reorder that
// is created once at prepare time.
#pragma once

#include <dnnl.hpp>
#include <initializer_list>
#include <memory>
#include <string>

#include "backend/kernel.h"
#include "base/status.h"
#include "ir/attribute.h"

namespace oc {

dnnl::engine& CpuEngine();
// The calling thread's stream on CpuEngine (streams are made once per thread: making one
// allocates).
dnnl::stream& CpuStream();
dnnl::memory::format_tag PlainTag(size_t rank);
dnnl::memory::dims ToDims(const Shape& s);

// Activation fused by the compiler, read from `activation`, `activation_alpha`,
// `activation_beta` attributes of oc-domain nodes.
Status AppendFusedActivation(const AttributeMap& attrs, dnnl::post_ops* ops);

// Whether a cube op (Conv, MatMul, Gemm) runs in bf16: the precision mode gave it bf16
// (attribute _oc_dtype, set by the compiler, which also rounded its inputs to bf16 values)
// and the CPU has bf16 dot products (avx512_bf16 or AMX). Elsewhere it multiplies the same
// bf16 values in fp32, which gives the same products; config.bf16_compute off
// (OCANN_BF16_COMPUTE=0) forces that, and a value it refused is the error.
Result<bool> ComputesInBf16(const AttributeMap& attrs, const Config& config);

// Runs a oneDNN call, turning its exceptions into a Status (exceptions never cross
// our library boundary).
template <typename F>
Status DnnlCall(const std::string& what, F&& f) {
  try {
    f();
  } catch (const dnnl::error& e) {
    return Internal(what + ": oneDNN error: " + e.what());
  } catch (const std::exception& e) {
    return Internal(what + ": " + e.what());
  }
  return Status::Ok();
}

// Runs a primitive with arguments given as (DNNL_ARG_*, memory) pairs, without the hash
// map dnnl::primitive::execute builds from its arguments. Throws dnnl::error.
struct DnnlArg {
  int arg;
  const dnnl::memory* memory;
};
void DnnlExecute(const dnnl::primitive& prim, std::initializer_list<DnnlArg> args);

// A memory object of a fixed layout, pointed at a new buffer each run.
inline dnnl::memory UnboundMemory(const dnnl::memory::desc& md) {
  return dnnl::memory(md, CpuEngine(), DNNL_MEMORY_NONE);
}
inline dnnl::memory& Bind(dnnl::memory& m, const void* data) {
  m.set_data_handle(const_cast<void*>(data));
  return m;
}

// A weights (or other constant) buffer reordered once into the layout a primitive wants.
struct PackedConstant {
  std::shared_ptr<void> storage;
  dnnl::memory memory;
};
Result<PackedConstant> PackConstant(const void* data, const dnnl::memory::desc& from,
                                    const dnnl::memory::desc& to);

// Workspace layout helper: hands out 64-byte aligned slices.
class WorkspaceLayout {
 public:
  size_t Add(size_t bytes) {
    size_t off = size_;
    size_ += (bytes + 63) / 64 * 64;
    return off;
  }
  size_t size() const { return size_; }

 private:
  size_t size_ = 0;
};

}  // namespace oc
