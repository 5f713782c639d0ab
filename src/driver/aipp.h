// Static AIPP (--insert_op_conf): the image pre-processing CANN inserts in front of a model
// input. The input becomes UINT8 NHWC in the source image's format and an oc.Aipp node
// turns it into what the model takes: swaps -> crop -> colour conversion -> normalisation
// -> padding. Facts: ../shared/reference/precision-aipp-compare.md.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "ir/graph.h"

namespace oc {

// CANN's ACL_DYNAMIC_AIPP_NAME.
inline constexpr const char* kDynamicAippInputName = "ascend_dynamic_aipp_data";

// The input formats, with CANN's numbers.
enum class AippFormat {
  kYuv420Sp = 1,
  kXrgb8888 = 2,
  kRgb888 = 3,
  kYuv400 = 4,
  kArgb8888 = 7,
  kYuyv = 8,
  kYuv422Sp = 9,
  kAyuv444 = 10,
};

struct AippConfig {
  int related_input_rank = 0;
  // Dynamic AIPP: the parameters come at run time (aclmdlSetInputAIPP) through an extra
  // UINT8 input; the image input holds up to max_src_image_size bytes.
  bool dynamic = false;
  int64_t max_src_image_size = 0;
  AippFormat input_format = AippFormat::kYuv420Sp;
  int64_t src_w = 0, src_h = 0;
  bool crop = false;
  int64_t crop_x = 0, crop_y = 0, crop_w = 0, crop_h = 0;
  bool padding = false;
  int64_t pad_left = 0, pad_right = 0, pad_top = 0, pad_bottom = 0;
  float padding_value = 0;
  bool csc = false, rbuv_swap = false, ax_swap = false;
  int matrix[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  int input_bias[3] = {0, 0, 0}, output_bias[3] = {0, 0, 0};
  int mean[4] = {0, 0, 0, 0};
  float min[4] = {0, 0, 0, 0}, var_reci[4] = {1, 1, 1, 1};
};

// Parses the text form: one `aipp_op { field : value ... }` block per input, # comments.
// Unknown fields, values out of range, static fields in a dynamic block and a file mixing
// the modes are E10001 naming --insert_op_conf.
Result<std::vector<AippConfig>> ParseAippConfig(const std::string& text);

// Where the AIPP goes: the model input's layout (NHWC inputs get the AIPP's NCHW result
// transposed back) and, under gears, what the rewrite of one gear's graph must know.
struct AippPlacement {
  bool nhwc = false;
  // Dynamic AIPP under dynamic batch: the parameter input holds this many images (CANN's
  // aclmdlCreateAIPP takes the largest gear) and a gear uses the first N. 0: the input's N.
  int64_t dynamic_params_batch = 0;
  // Under --dynamic_image_size the source image is each gear's H x W: static AIPP may not
  // crop, pad or fix the source size (CANN: "dynamic image size becomes unavailable").
  bool image_size_gears = false;
};

// Rewrites the graph: each configured input becomes UINT8 NHWC of the source image (dynamic:
// UINT8 [max_src_image_size], plus a parameter input named kDynamicAippInputName, then
// "_1", "_2"... appended to the inputs) and an oc.Aipp node feeds its consumers. Checks the
// sizes against the model's input, which must have a fixed shape (with gears: one gear's).
Status ApplyAipp(Graph& graph, const std::vector<AippConfig>& configs,
                 const AippPlacement& where = {});

}  // namespace oc
