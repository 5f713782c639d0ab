// What the importer harnesses share: logs off, and an imported graph compiled as atc would
// (dynamic inputs allowed), any Status being a fine outcome.
#pragma once

#include "base/log.h"
#include "compiler/compiler.h"

namespace oc::fuzz {

inline void QuietLogs() {
  static const bool quiet = [] {
    SetLogLevel(LogLevel::kNull);
    return true;
  }();
  (void)quiet;
}

inline void CompileIfImported(Result<Graph> graph) {
  if (!graph.ok()) return;
  CompileOptions compile;
  compile.dynamic_inputs = true;
  compile.backends = BackendRegistry::Global().Order().value();
  (void)CompileGraph(std::move(graph).value(), compile);
}

}  // namespace oc::fuzz
