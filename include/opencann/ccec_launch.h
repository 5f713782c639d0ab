// The kernel-launch syntax of Ascend C sources compiled by ccec:
//   kernel<<<blockDim, l2ctrl, stream>>>(args...);
// ccec rewrites each such call into
//   ::oc_ccec::Launch<&kernel>("kernel", blockDim, l2ctrl, stream)(args...);
// which launches the kernel on the AscendCL stream in the CPU emulation, as
// ACLRT_LAUNCH_KERNEL does: pointer parameters travel as device pointers (aclrtMalloc'd
// memory, checked), the others by value (copied at the launch). ccec force-includes this
// header; nothing else needs it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "acl/acl_kernel_launch.h"
// Host stubs beside kernels synchronise the stream they launched on (aclrtSynchronizeStream),
// as CANN's device compile lets them without an include of their own.
#include "acl/acl_rt.h"

namespace AscendC::detail {
void DeclareKernelType(int type);  // libascendc_emu: KERNEL_TASK_TYPE_DEFAULT
}

namespace oc_ccec {

// KernelType: the core type a __cube__ (KERNEL_TYPE_AIC_ONLY) or __vector__
// (KERNEL_TYPE_AIV_ONLY) kernel runs on; -1 for an unmarked kernel.
template <auto Kernel, int KernelType = -1, typename Signature = decltype(Kernel)>
class Launcher;

template <auto Kernel, int KernelType, typename... Params>
class Launcher<Kernel, KernelType, void (*)(Params...)> {
 public:
  Launcher(const char* name, uint32_t block_dim, void* stream)
      : name_(name), block_dim_(block_dim), stream_(stream) {}

  // Launches with the call's arguments converted to the kernel's parameter types. A refused
  // launch prints its reason on stderr (as every OpenCANN launch does); a failing kernel
  // makes the stream's next aclrtSynchronizeStream return ACL_ERROR_RT_AICORE_EXCEPTION.
  template <typename... Args>
  void operator()(Args&&... args) const {
    static_assert(sizeof...(Args) == sizeof...(Params),
                  "<<<>>> launch: the number of arguments differs from the kernel's parameters");
    std::tuple<std::decay_t<Params>...> values{
        static_cast<std::decay_t<Params>>(std::forward<Args>(args))...};
    Submit(values, std::index_sequence_for<Params...>{});
  }

 private:
  template <typename T>
  static T Unpack(void* slot) {
    if constexpr (std::is_pointer_v<T>) {
      return reinterpret_cast<T>(slot);
    } else {
      return *static_cast<T*>(slot);
    }
  }
  template <size_t... I>
  static void CallWith(void* const* slots, std::index_sequence<I...>) {
    Kernel(Unpack<std::decay_t<Params>>(slots[I])...);
  }
  static void Call(void* const* slots) {
    // Declared before the body, so the launch reads it as the kernel's own declaration.
    if constexpr (KernelType >= 0) ::AscendC::detail::DeclareKernelType(KernelType);
    CallWith(slots, std::index_sequence_for<Params...>{});
  }

  template <typename T>
  static void* Slot(T& value) {
    if constexpr (std::is_pointer_v<T>) {
      return const_cast<void*>(reinterpret_cast<const void*>(value));
    } else {
      return static_cast<void*>(&value);
    }
  }
  template <typename T>
  static constexpr size_t SizeOf() {
    return std::is_pointer_v<T> ? 0 : sizeof(T);
  }

  template <typename Tuple, size_t... I>
  void Submit(Tuple& values, std::index_sequence<I...>) const {
    constexpr size_t n = sizeof...(I);
    void* slots[n + 1] = {Slot(std::get<I>(values))..., nullptr};
    size_t sizes[n + 1] = {SizeOf<std::tuple_element_t<I, Tuple>>()..., 0};
    OcLaunchKernelArgs(name_, &Call, block_dim_, static_cast<aclrtStream>(stream_), slots, sizes,
                       static_cast<uint32_t>(n));
  }

  const char* name_;
  uint32_t block_dim_;
  void* stream_;
};

// blockDim, l2ctrl (reserved on the NPU: must be null there, ignored here) and stream.
template <auto Kernel, int KernelType = -1>
Launcher<Kernel, KernelType> Launch(const char* name, uint32_t block_dim,
                                    void* /*l2ctrl*/ = nullptr, void* stream = nullptr) {
  return Launcher<Kernel, KernelType>(name, block_dim, stream);
}

}  // namespace oc_ccec
