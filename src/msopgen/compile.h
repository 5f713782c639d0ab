// msopgen compile: builds an operator project into its package (build_out/*.run), as the
// seed's step 3 does with CANN's msopgen. Projects msopgen gen wrote (op_host + op_kernel,
// built with CMake against an installed OpenCANN) are built; TBE (Python DSL/TIK) and AI CPU
// deliverables are refused with what to do instead. Projects on CANN's own template
// (cmake/func.cmake) build through their build.sh with OpenCANN's op_build and opc.
#pragma once

#include <string>

#include "base/status.h"

namespace oc::msopgen {

struct CompileOptions {
  std::string project_dir;  // -i
  std::string install_dir;  // -c: the toolkit to build against (default: msopgen's own)
};

// The kind of project in `dir`, or why it cannot be built here.
Status CheckCompilable(const std::string& dir);

// Runs the project's build; `package` receives the .run file it wrote.
Status CompileProject(const CompileOptions& options, std::string* package);

}  // namespace oc::msopgen
