// The OpenMP wait policy OpenCANN brings into a process that has not chosen one.
//
// GNU OpenMP reads OMP_WAIT_POLICY and GOMP_SPINCOUNT once, when libgomp is initialized, and
// by default an idle worker spins 300,000 times (tens of milliseconds) before sleeping: inside
// an application that uses the cores for something else, OpenCANN's workers would spin
// against it (measured: resnet50 1.7x slower than with a short spin on a loaded 2-core
// machine). This tiny library is linked after libgomp into libascendcl, so the dynamic loader
// initializes it first; its constructor sets GOMP_SPINCOUNT when the application has set
// neither variable. libascendcl's own constructor (which runs after libgomp's) removes the
// variable again, so the application and its children never see it. When libgomp is already
// running in the process (loaded by the application or another library), nothing changes.
#include <cstdlib>
#include <cstring>

namespace {

// About 50,000 pause instructions: a few milliseconds, longer than the gap between two
// operators of one inference, shorter than the application's own work between inferences.
constexpr const char* kSpinCount = "50000";
bool g_applied = false;

__attribute__((constructor)) void ApplyWaitPolicy() {
  if (std::getenv("OMP_WAIT_POLICY") || std::getenv("GOMP_SPINCOUNT") ||
      std::getenv("OCANN_OMP_KEEP_DEFAULT"))
    return;
  if (setenv("GOMP_SPINCOUNT", kSpinCount, 0) == 0) g_applied = true;
}

}  // namespace

extern "C" {
// Whether the constructor set GOMP_SPINCOUNT (libascendcl then unsets it).
__attribute__((visibility("default"))) int oc_omp_wait_policy_applied() { return g_applied; }
// The spin count applied, for logs and tests.
__attribute__((visibility("default"))) const char* oc_omp_wait_policy_spin_count() {
  return kSpinCount;
}
}
