// The process-wide registry that operator packages fill when they are loaded.
#include "register/op_def_registry.h"

namespace ops {

OpDefRegistry& OpDefRegistry::Global() {
  static OpDefRegistry* registry = new OpDefRegistry();  // packages may outlive main's statics
  return *registry;
}

void OpDefRegistry::AddOpDef(std::unique_ptr<OpDef> def) {
  defs_.push_back(std::move(def));
  sources_.push_back(source_);
}

void OpDefRegistry::AddKernel(KernelEntry entry) {
  kernels_.push_back(std::move(entry));
  kernel_sources_.push_back(source_);
}

}  // namespace ops
