// The frontends of this build, one line each.
#include "frontend/air/air_frontend.h"
#include "frontend/caffe/caffe_frontend.h"
#include "frontend/frontend.h"
#include "frontend/onnx/onnx_frontend.h"
#include "frontend/tensorflow/tf_frontend.h"

namespace oc {

const FrontendRegistry& FrontendRegistry::Global() {
  static const FrontendRegistry registry = [] {
    FrontendRegistry r;
    r.Register(CaffeFrontend());
    r.Register(AirFrontend());
    r.Register(TensorFlowFrontend());
    r.Register(OnnxFrontend());
    return r;
  }();
  return registry;
}

const Frontend* FrontendRegistry::Find(const std::string& framework) const {
  for (const auto& f : frontends_)
    if (f.framework == framework) return &f;
  return nullptr;
}

}  // namespace oc
