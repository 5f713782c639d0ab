#include "kernels/guarded/guarded_backend.h"

#include <sys/mman.h>

#include <cstring>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <vector>

#include "kernels/reference/reference_backend.h"

namespace oc {
namespace {

// Every guarded allocation: a reserved range with no access (the address the runtime and
// the application see) and a private read-write mapping of the same size (the bytes).
class GuardedMemory {
 public:
  static GuardedMemory& Get() {
    static GuardedMemory* memory = new GuardedMemory();  // outlives every backend user
    return *memory;
  }

  void* Allocate(size_t bytes) {
    const size_t page = 4096;
    if (bytes == 0) bytes = 1;
    if (bytes > SIZE_MAX - page) return nullptr;
    const size_t len = (bytes + page - 1) / page * page;
    void* device =
        mmap(nullptr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (device == MAP_FAILED) return nullptr;
    void* storage = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (storage == MAP_FAILED) {
      munmap(device, len);
      return nullptr;
    }
    std::unique_lock lock(mutex_);
    regions_[reinterpret_cast<uintptr_t>(device)] = {static_cast<uint8_t*>(storage), bytes, len};
    return device;
  }

  void Free(void* p) {
    Region r;
    {
      std::unique_lock lock(mutex_);
      auto it = regions_.find(reinterpret_cast<uintptr_t>(p));
      if (it == regions_.end()) return;
      r = it->second;
      regions_.erase(it);
    }
    munmap(p, r.mapped);
    munmap(r.storage, r.mapped);
  }

  // The private address of [p, p + bytes), or null when that range is not inside one
  // guarded allocation (a host pointer handed to the device, or an overrun).
  uint8_t* Translate(const void* p, size_t bytes) const {
    if (!p) return nullptr;
    const auto a = reinterpret_cast<uintptr_t>(p);
    std::shared_lock lock(mutex_);
    auto it = regions_.upper_bound(a);
    if (it == regions_.begin()) return nullptr;
    --it;
    const size_t off = a - it->first;
    if (off > it->second.bytes || bytes > it->second.bytes - off) return nullptr;
    return it->second.storage + off;
  }

  // The private address of p with the rest of its allocation as the bound (kernel operands,
  // whose sizes the kernel knows).
  uint8_t* TranslateStart(const void* p) const { return Translate(p, 0); }

 private:
  struct Region {
    uint8_t* storage = nullptr;
    size_t bytes = 0, mapped = 0;
  };
  mutable std::shared_mutex mutex_;
  std::map<uintptr_t, Region> regions_;
};

constexpr MemorySpace kGuardedMemory{"guarded"};

Status NotGuarded(const char* what) {
  return Internal(std::string("the guarded backend was handed a ") + what +
                  " that is not in its memory: the runtime must copy it there first");
}

// Another backend's kernel, run on the private view of guarded memory.
class GuardedKernel final : public Kernel {
 public:
  explicit GuardedKernel(std::unique_ptr<Kernel> inner) : inner_(std::move(inner)) {}
  Status Prepare(const KernelPrepareContext& ctx) override { return inner_->Prepare(ctx); }
  Status Run(const KernelRunContext& ctx) const override {
    thread_local std::vector<const void*> inputs;
    thread_local std::vector<void*> outputs;
    inputs.clear();
    outputs.clear();
    const GuardedMemory& memory = GuardedMemory::Get();
    for (size_t i = 0; i < num_inputs_; ++i) {
      const void* p = ctx.inputs[i];
      if (p && !(p = memory.TranslateStart(p))) return NotGuarded("kernel input");
      inputs.push_back(p);
    }
    for (size_t k = 0; k < num_outputs_; ++k) {
      void* p = ctx.outputs[k];
      if (p && !(p = memory.TranslateStart(p))) return NotGuarded("kernel output");
      outputs.push_back(p);
    }
    KernelRunContext run = ctx;
    run.inputs = inputs.data();
    run.outputs = outputs.data();
    if (inner_->WorkspaceSize() > 0 &&
        !(run.workspace = memory.Translate(ctx.workspace, inner_->WorkspaceSize())))
      return NotGuarded("kernel workspace");
    return inner_->Run(run);
  }
  size_t WorkspaceSize() const override { return inner_->WorkspaceSize(); }
  bool OutputShapes(std::vector<Shape>* shapes) const override {
    return inner_->OutputShapes(shapes);
  }
  bool ReadsConstantAtRun(size_t i) const override { return inner_->ReadsConstantAtRun(i); }

  size_t num_inputs_ = 0, num_outputs_ = 0;

 private:
  std::unique_ptr<Kernel> inner_;
};

class GuardedBackendImpl final : public Backend {
 public:
  GuardedBackendImpl(const Backend& inner, std::set<std::string> op_types, std::string name)
      : inner_(inner), op_types_(std::move(op_types)), name_(std::move(name)) {}

  const char* name() const override { return name_.c_str(); }
  const MemorySpace& memory_space() const override { return kGuardedMemory; }

  bool Supports(const Node& node, const std::vector<TensorType>& inputs) const override {
    if (!op_types_.empty() && !op_types_.count(node.op_type)) return false;
    return inner_.Supports(node, inputs);
  }

  Result<std::unique_ptr<Kernel>> CreateKernel(const KernelPrepareContext& ctx) const override {
    // Layouts are the inner backend's business on its own nodes; here everything is plain.
    KernelPrepareContext plain = ctx;
    plain.input_layouts.assign(ctx.inputs.size(), kPlainLayout);
    plain.output_layouts.assign(ctx.outputs.size(), kPlainLayout);
    OC_ASSIGN_OR_RETURN(auto inner, inner_.CreateKernel(plain));
    auto kernel = std::make_unique<GuardedKernel>(std::move(inner));
    kernel->num_inputs_ = ctx.inputs.size();
    kernel->num_outputs_ = ctx.outputs.size();
    return std::unique_ptr<Kernel>(std::move(kernel));
  }

  std::string TypesOf(const std::string& domain, const std::string& op_type) const override {
    if (!op_types_.empty() && !op_types_.count(op_type)) return "";
    return inner_.TypesOf(domain, op_type);
  }

  Status ToPlain(int layout, const TensorType& type, const void* src, void* dst) const override {
    const uint8_t* from = GuardedMemory::Get().Translate(src, type.nbytes());
    if (!from) return NotGuarded("tensor to read");
    return Backend::ToPlain(layout, type, from, dst);
  }

  void BeginExecution(int num_threads) const override { inner_.BeginExecution(num_threads); }

  void* AllocateDeviceMemory(size_t bytes) const override {
    return GuardedMemory::Get().Allocate(bytes);
  }
  void FreeDeviceMemory(void* p) const override { GuardedMemory::Get().Free(p); }

  Status Fill(void* dst, int value, size_t bytes) const override {
    uint8_t* to = GuardedMemory::Get().Translate(dst, bytes);
    if (!to) return NotGuarded("fill destination");
    std::memset(to, value, bytes);
    return Status::Ok();
  }

  Status Copy(void* dst, const void* src, size_t bytes, CopyKind kind) const override {
    if (bytes == 0) return Status::Ok();
    GuardedMemory& memory = GuardedMemory::Get();
    const bool device_dst = kind == CopyKind::kHostToDevice || kind == CopyKind::kDeviceToDevice;
    const bool device_src = kind == CopyKind::kDeviceToHost || kind == CopyKind::kDeviceToDevice;
    void* to = device_dst ? memory.Translate(dst, bytes) : dst;
    const void* from = device_src ? memory.Translate(src, bytes) : src;
    if (!to) return NotGuarded("copy destination");
    if (!from) return NotGuarded("copy source");
    std::memmove(to, from, bytes);
    return Status::Ok();
  }

 private:
  const Backend& inner_;
  std::set<std::string> op_types_;
  std::string name_;
};

}  // namespace

const Backend& GuardedBackend() {
  static GuardedBackendImpl backend(ReferenceBackend(), {}, "guarded");
  return backend;
}

std::unique_ptr<Backend> MakeGuardedBackend(const Backend& inner, std::set<std::string> op_types,
                                            std::string name) {
  return std::make_unique<GuardedBackendImpl>(inner, std::move(op_types), std::move(name));
}

bool IsGuardedAddress(const void* p) { return GuardedMemory::Get().TranslateStart(p) != nullptr; }

}  // namespace oc
