#pragma once

#include "frontend/frontend.h"

namespace oc {

// --framework=1: a MindSpore AIR model (.air).
Frontend AirFrontend();

}  // namespace oc
