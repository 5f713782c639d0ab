#pragma once

#include "frontend/frontend.h"

namespace oc {

// --framework=5: an ONNX model file (external data beside it).
Frontend OnnxFrontend();

}  // namespace oc
