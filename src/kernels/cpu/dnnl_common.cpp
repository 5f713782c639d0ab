#include "kernels/cpu/dnnl_common.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>

#include "base/aligned_buffer.h"
#include "ir/internal_attrs.h"

namespace oc {

dnnl::engine& CpuEngine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

dnnl::stream& CpuStream() {
  thread_local dnnl::stream stream(CpuEngine());
  return stream;
}

void DnnlExecute(const dnnl::primitive& prim, std::initializer_list<DnnlArg> args) {
  constexpr size_t kMaxArgs = 16;
  if (args.size() > kMaxArgs) throw std::length_error("too many oneDNN arguments");
  dnnl_exec_arg_t c_args[kMaxArgs];
  int n = 0;
  for (const DnnlArg& a : args) c_args[n++] = {a.arg, a.memory->get()};
  dnnl::error::wrap_c_api(dnnl_primitive_execute(prim.get(), CpuStream().get(), n, c_args),
                          "could not execute a primitive");
}

Result<bool> ComputesInBf16(const AttributeMap& attrs, const Config& config) {
  static const bool hardware = [] {
    const dnnl::cpu_isa isa = dnnl::get_effective_cpu_isa();
    return isa == dnnl::cpu_isa::avx512_core_bf16 || isa == dnnl::cpu_isa::avx512_core_amx;
  }();
  OC_ASSIGN_OR_RETURN(bool allowed, config.bf16_compute.Get());
  return hardware && allowed && GetAttr(attrs, kComputeDtype, "") == "bfloat16";
}

dnnl::memory::format_tag PlainTag(size_t rank) {
  using tag = dnnl::memory::format_tag;
  switch (rank) {
    case 1:
      return tag::a;
    case 2:
      return tag::ab;
    case 3:
      return tag::abc;
    case 4:
      return tag::abcd;
    case 5:
      return tag::abcde;
    case 6:
      return tag::abcdef;
    default:
      return tag::undef;
  }
}

dnnl::memory::dims ToDims(const Shape& s) { return dnnl::memory::dims(s.begin(), s.end()); }

Status AppendFusedActivation(const AttributeMap& attrs, dnnl::post_ops* ops) {
  const std::string name = attrs.GetString("activation", "");
  FusedActivation act;
  if (!ParseFusedActivation(name, &act))
    return Unsupported("fused activation " + name + " is not supported");
  using alg = dnnl::algorithm;
  const float a = attrs.GetFloat("activation_alpha", 0.0f);
  const float b = attrs.GetFloat("activation_beta", 0.0f);
  // Every FusedActivation has its post-op here (-Wswitch names a missing one).
  switch (act) {
    case FusedActivation::kNone:
      break;
    case FusedActivation::kRelu:
      ops->append_eltwise(1.0f, alg::eltwise_relu, 0.0f, 0.0f);
      break;
    case FusedActivation::kLeakyRelu:
      ops->append_eltwise(1.0f, alg::eltwise_relu, a, 0.0f);
      break;
    case FusedActivation::kClip:
      ops->append_eltwise(1.0f, alg::eltwise_clip, a, b);
      break;
    case FusedActivation::kSigmoid:
      ops->append_eltwise(1.0f, alg::eltwise_logistic, 0.0f, 0.0f);
      break;
    case FusedActivation::kTanh:
      ops->append_eltwise(1.0f, alg::eltwise_tanh, 0.0f, 0.0f);
      break;
    case FusedActivation::kSiLU:
      ops->append_eltwise(1.0f, alg::eltwise_swish, 1.0f, 0.0f);
      break;
    case FusedActivation::kHardSwish:
      ops->append_eltwise(1.0f, alg::eltwise_hardswish, 0.0f, 0.0f);
      break;
    case FusedActivation::kGelu:
      ops->append_eltwise(1.0f, alg::eltwise_gelu_erf, 0.0f, 0.0f);
      break;
  }
  return Status::Ok();
}

namespace {

// Packed copies by (source bytes, source layout, packed layout): the layers of a model that
// share one weight (an encoder exported with tied layers reads the same initializer in every
// layer) share one packed copy instead of one each. Entries are weak: the copy lives as long
// as a kernel holds it.
struct PackKey {
  const void* data;
  dnnl_memory_desc_t from, to;
  bool operator<(const PackKey& o) const {
    if (data != o.data) return data < o.data;
    if (int c = std::memcmp(&from, &o.from, sizeof(from))) return c < 0;
    return std::memcmp(&to, &o.to, sizeof(to)) < 0;
  }
};
std::mutex g_pack_mutex;
std::map<PackKey, std::weak_ptr<void>>& PackCache() {
  static std::map<PackKey, std::weak_ptr<void>> cache;
  return cache;
}

}  // namespace

Result<PackedConstant> PackConstant(const void* data, const dnnl::memory::desc& from,
                                    const dnnl::memory::desc& to) {
  PackedConstant out;
  size_t bytes = to.get_size();
  PackKey key{data, from.data, to.data};
  std::lock_guard<std::mutex> lock(g_pack_mutex);
  if (auto it = PackCache().find(key); it != PackCache().end()) {
    if (auto shared = it->second.lock()) {
      out.storage = shared;
      Status s = DnnlCall("weight reorder",
                          [&] { out.memory = dnnl::memory(to, CpuEngine(), shared.get()); });
      if (!s.ok()) return s;
      return out;
    }
    PackCache().erase(it);
  }
  size_t rounded = 0;
  void* p = RoundUpTo64(bytes, &rounded) && rounded <= SIZE_MAX - 64
                ? std::aligned_alloc(64, rounded + 64)
                : nullptr;
  if (!p) return Status(StatusCode::kOutOfMemory, "cannot allocate packed weights");
  out.storage = std::shared_ptr<void>(p, std::free);
  Status s = DnnlCall("weight reorder", [&] {
    out.memory = dnnl::memory(to, CpuEngine(), p);
    if (from == to) {
      std::memcpy(p, data, bytes);
      return;
    }
    dnnl::memory src(from, CpuEngine(), const_cast<void*>(data));
    dnnl::stream stream(CpuEngine());
    dnnl::reorder(src, out.memory).execute(stream, src, out.memory);
    stream.wait();
  });
  if (!s.ok()) return s;
  // Expired entries go as new ones come (a process loading many models keeps no garbage).
  for (auto it = PackCache().begin(); it != PackCache().end();)
    it = it->second.expired() ? PackCache().erase(it) : std::next(it);
  PackCache()[key] = out.storage;
  return out;
}

}  // namespace oc
