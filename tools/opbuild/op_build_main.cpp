// op_build <op_host library> <output folder>: run by CANN's operator-project template
// (cmake/func.cmake, opbuild()) on the library it compiles from op_host/*.cpp. Loads the
// library, and writes the aclnn sources, op_proto and aic-<soc>-ops-info.ini for the OpDefs
// it registers (src/msopgen/op_build.h).
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "msopgen/op_build.h"
#include "register/op_def_registry.h"

int main(int argc, char** argv) {
  if (argc == 2 && (std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help")) {
    std::printf("usage: op_build <op_host library (.so)> <output folder>\n");
    return 0;
  }
  if (argc != 3) {
    std::fprintf(stderr,
                 "[ERROR] op_build: usage: op_build <op_host library (.so)> <output folder>\n");
    return 1;
  }
  // OPS_PROJECT_NAME and OPS_DIRECT_ACCESS_PREFIX (set by newer templates) only name the
  // generated API's library; OpenCANN's aclnn sources need neither.
  void* lib = ::dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* err = ::dlerror();
    std::fprintf(stderr, "[ERROR] op_build: cannot load [%s]: %s\n", argv[1],
                 err ? err : "unknown error");
    return 1;
  }
  std::vector<const ops::OpDef*> defs;
  for (const auto& def : ops::OpDefRegistry::Global().op_defs()) defs.push_back(def.get());
  if (defs.empty()) {
    std::fprintf(stderr, "[ERROR] op_build: [%s] registers no operator (OP_ADD)\n", argv[1]);
    return 1;
  }
  const oc::Status st = oc::msopgen::WriteOpBuildOutputs(defs, argv[2]);
  if (!st.ok()) {
    std::fprintf(stderr, "[ERROR] op_build: %s\n", st.message().c_str());
    return 1;
  }
  for (const auto* def : defs) std::printf("op_build: %s\n", def->type());
  return 0;
}
