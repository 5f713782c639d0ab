#pragma once

#include "frontend/frontend.h"

namespace oc {

// --framework=0: a Caffe .prototxt with --weight=.caffemodel.
Frontend CaffeFrontend();

}  // namespace oc
