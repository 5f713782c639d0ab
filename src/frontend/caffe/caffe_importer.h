// Caffe nets: a deploy .prototxt (text) and its trained .caffemodel (binary), both
// NetParameter, V1 ("layers") and V2 ("layer") formats, lowered into the IR.
#pragma once

#include <string>

#include "base/status.h"
#include "frontend/frontend.h"
#include "ir/graph.h"

namespace oc {

// `caffemodel` may be empty when the prototxt holds every layer's blobs itself.
Result<Graph> ImportCaffe(const std::string& prototxt, const std::string& caffemodel);
// Every layer of the prototxt (TEST phase) and whether a converter exists for its type.
Result<std::vector<OpSurvey>> SurveyCaffe(const std::string& prototxt);
// The same from the files' contents (`name` stands for the prototxt in messages).
Result<Graph> ImportCaffeBuffers(const std::string& prototxt_text,
                                 const std::string& caffemodel_bytes, const std::string& name);

}  // namespace oc
