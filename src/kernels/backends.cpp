// The backends this build has, in default order of preference: the CPU backend runs
// everything it can, operator packages run their own ops (always, whatever the order names),
// the reference backend is the oracle (and a second placement target),
// the guarded backend (device memory the host cannot read, over the reference kernels)
// takes nodes only where it is named.
// Adding a backend: its folder under src/kernels/ and one line here.
#include "backend/backend.h"
#include "kernels/cpu/cpu_backend.h"
#include "kernels/guarded/guarded_backend.h"
#include "kernels/reference/reference_backend.h"
#include "opp/ascendc_backend.h"

namespace oc {

BackendRegistry& BackendRegistry::Global() {
  static BackendRegistry* registry = [] {
    auto* r = new BackendRegistry();  // never destroyed: used from atexit paths
    r->Add(&CpuBackend());
    r->Add(&AscendcBackend(), BackendRegistry::Use::kAlways);  // operator packages' ops
    r->Add(&ReferenceBackend());
    r->Add(&GuardedBackend(),
           BackendRegistry::Use::kByName);  // by name: OCANN_BACKENDS=guarded,cpu
    return r;
  }();
  return *registry;
}

}  // namespace oc
