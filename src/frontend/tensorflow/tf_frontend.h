#pragma once

#include "frontend/frontend.h"

namespace oc {

// --framework=3: a frozen TensorFlow GraphDef (.pb).
Frontend TensorFlowFrontend();

}  // namespace oc
