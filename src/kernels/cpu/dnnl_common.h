// Shared oneDNN plumbing: the engine, plain layouts, fused post-ops and a reorder that
// is created once at prepare time.
#pragma once

#include <dnnl.hpp>
#include <memory>
#include <string>

#include "backend/kernel.h"
#include "base/status.h"
#include "ir/attribute.h"

namespace oc {

dnnl::engine& CpuEngine();
dnnl::memory::format_tag PlainTag(size_t rank);
dnnl::memory::dims ToDims(const Shape& s);

// Activation fused by the compiler, read from `activation`, `activation_alpha`,
// `activation_beta` attributes of oc-domain nodes.
Status AppendFusedActivation(const AttributeMap& attrs, dnnl::post_ops* ops);

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
