// msame's run, step by step in the order CANN's msame reports them, and Run as the library's
// entry point.
#include "msame/msame.h"

#include <unistd.h>

#include <cstdio>

#include "msame/msame_internal.h"

namespace oc::msame {

int Msame::Run(const Options& o) {
  device_ = o.device;
  if (!WriteAclJson(o) || !OpenDevice() || !LoadModel(o.model)) return 1;
  ReadModelInputs();
  if (!ParseDynamicFlags(o) || !ApplyDynamicDims() || !ComputeInputSizes()) return 1;
  if (!ListInputFiles(o) || !CreateInputs() || !CreateOutputs(o)) return 1;
  if (o.debug) PrintDebugDims();
  if (!MakeOutputFolder(o) || !RunAll(o)) return 1;
  PrintSummary();
  std::printf("[INFO] destroy model input success\n");
  Cleanup();
  std::printf("[INFO] pid: %d Execute sample success\n", static_cast<int>(getpid()));
  return 0;
}

int Run(const Options& options) {
  Msame app;
  return app.Run(options);
}

}  // namespace oc::msame
