// Frontends by atc's --framework number. Each frontend is a folder under src/frontend/
// with an importer into the IR and one registration line in frontends.cpp; the
// conversion driver and atc never name a frontend.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "base/status.h"
#include "ir/graph.h"

namespace oc {

struct FrontendInput {
  std::string model;   // --model
  std::string weight;  // --weight (Caffe's .caffemodel); empty when not given
};

// One op of a source model as atc's pre-check (--mode=3) reports it.
struct OpSurvey {
  std::string name, type;
  bool supported = false;
  std::string reason;  // why not, when not
};

struct Frontend {
  std::string framework;  // --framework value: "0" Caffe, "1" MindSpore, "3" TensorFlow, "5" ONNX
  std::string name;       // "ONNX"
  bool needs_weight = false;  // --weight required (E10008 without it)
  std::function<Result<Graph>(const FrontendInput&)> import;
  // Every op of the model and whether OpenCANN converts it (no weights read).
  std::function<Result<std::vector<OpSurvey>>(const FrontendInput&)> survey;
};

class FrontendRegistry {
 public:
  static const FrontendRegistry& Global();
  const Frontend* Find(const std::string& framework) const;
  const std::vector<Frontend>& All() const { return frontends_; }
  void Register(Frontend f) { frontends_.push_back(std::move(f)); }

 private:
  std::vector<Frontend> frontends_;
};

}  // namespace oc
