// ONNX frontend: reads a ModelProto (libonnx + protobuf) into the IR.
#pragma once

#include <string>

#include "base/status.h"
#include "ir/graph.h"

namespace oc {

struct OnnxImportOptions {
  bool run_checker = true;  // onnx::checker on the model first
};

Result<Graph> ImportOnnxFile(const std::string& path, const OnnxImportOptions& options = {});
Result<Graph> ImportOnnxBytes(const std::string& bytes, const std::string& base_dir,
                              const OnnxImportOptions& options = {});

}  // namespace oc
