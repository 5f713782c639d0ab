// Which algorithm a convolution runs: direct, or Winograd for 3x3 stride-1 fp32 layers
// when it measures faster on this machine (reorders at its edges included).
#pragma once

#include <dnnl.hpp>
#include <functional>
#include <string>

#include "base/config.h"

namespace oc {

// Returns `direct` or the Winograd primitive descriptor `make_winograd` builds (it may
// throw when oneDNN has none for the shape). `mode` (Config::conv_algo, OCANN_CONV_ALGO: unset
// or `auto`, `measure`, `direct`, `winograd`; anything else is refused): `auto` (default) uses
// Winograd for the layer shapes where it measured clearly faster, `measure` times both
// once per layer shape, post-ops and thread count in the process and keeps the faster (10 %
// margin), `direct` never uses Winograd, `winograd` uses it wherever oneDNN has it.
// `signature` names what else changes the cost (post-ops, bias).
dnnl::convolution_forward::primitive_desc ChooseConvAlgorithm(
    const dnnl::convolution_forward::primitive_desc& direct,
    const std::function<dnnl::convolution_forward::primitive_desc()>& make_winograd,
    const dnnl::memory::desc& src_user, const dnnl::memory::desc& dst_user,
    const std::string& signature, ConvAlgoMode mode);

}  // namespace oc
