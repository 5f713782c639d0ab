// The guarded backend proves the device seam: its tensors live in memory the host cannot
// read, as a GPU's do. The addresses it hands out are reserved with no access rights, so a
// host read or write of them faults at once; its own kernels and copies reach the bytes
// through a private mapping. Its kernels are another backend's (the reference backend by
// default), run on plain layouts through that translation. A model split between it and a
// host backend must give the same bytes as the host backend alone.
#pragma once

#include <memory>
#include <set>
#include <string>

#include "backend/backend.h"

namespace oc {

// The registered instance ("guarded"): the reference backend's kernels, every op they have.
const Backend& GuardedBackend();

// A guarded backend over `inner`'s kernels that accepts only `op_types` (all when empty):
// tests use it to make a model cross between spaces where they want.
std::unique_ptr<Backend> MakeGuardedBackend(const Backend& inner, std::set<std::string> op_types,
                                            std::string name = "guarded");

// Whether `p` is an address inside memory of a guarded backend (tests).
bool IsGuardedAddress(const void* p);

}  // namespace oc
