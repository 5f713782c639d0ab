// The parameters of one AIPP run, and the byte layout of the dynamic AIPP parameter input
// (`ascend_dynamic_aipp_data`) that aclmdlSetInputAIPP writes and oc.Aipp reads. Part of
// the op's definition: the run side (acl) writes it, the kernels read it, the compiler
// sizes the input; nothing else shares it.
//
// Layout, little-endian, after CANN's documented kAippDynamicPara / kAippDynamicBatchPara
// (the field order after scfOutputSizeH and the 64 + 96 * batch total could not be confirmed
// from public documentation; applications should size the input with aclmdlGetAippDataSize
// or aclmdlGetInputSizeByIndex and write it only through aclmdlSetInputAIPP):
//   header (64 bytes): u8 inputFormat, i8 cscSwitch, i8 rbuvSwapSwitch, i8 axSwapSwitch,
//     i8 batchNum, 3 reserved; i32 srcImageSizeW, i32 srcImageSizeH; i16 matrix[9],
//     3 x i16 reserved; u8 outputBias[3], u8 inputBias[3], 18 reserved
//   per batch (96 bytes): i8 cropSwitch, i8 scfSwitch, i8 paddingSwitch, i8 rotateSwitch,
//     4 reserved; i32 cropStartPosW, H, cropSizeW, H; i32 scfInputSizeW, H, scfOutputSizeW, H;
//     i32 paddingTop, Bottom, Left, Right; i16 mean[4]; u16 min[4] (fp16); u16 varReci[4]
//     (fp16); 16 reserved
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace oc {

inline constexpr size_t kAippHeaderBytes = 64;
inline constexpr size_t kAippBatchBytes = 96;
inline constexpr size_t kAippMaxBatch = 127;  // batchNum is an int8

// Bytes of the parameter input for `batch` images; 0 when batch is 0 or too large.
size_t AippDynamicDataSize(uint64_t batch);

// One image's AIPP, everything resolved: what the kernel runs.
struct AippImagePlan {
  int format = 1;  // CANN's aclAippInputFormat numbers (1 YUV420SP ... 10 AYUV444)
  int64_t src_w = 0, src_h = 0;
  bool csc = false, rbuv_swap = false, ax_swap = false;
  int matrix[3][3] = {};
  int input_bias[3] = {}, output_bias[3] = {};
  int64_t crop_x = 0, crop_y = 0, crop_w = 0, crop_h = 0;
  int64_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  float padding_value = 0;
  float mean[4] = {}, min[4] = {}, var_reci[4] = {1, 1, 1, 1};  // min, var_reci: fp16 values
};

// The parameters as aclmdlSetAIPP* set them (the dynamic form; fp16 fields as bits).
struct AippBatchParams {
  int8_t crop = 0, scf = 0, padding = 0, rotate = 0;
  int32_t crop_x = 0, crop_y = 0, crop_w = 0, crop_h = 0;
  int32_t scf_in_w = 0, scf_in_h = 0, scf_out_w = 0, scf_out_h = 0;
  int32_t pad_top = 0, pad_bottom = 0, pad_left = 0, pad_right = 0;
  int16_t mean[4] = {};
  uint16_t min[4] = {};
  uint16_t var_reci[4] = {0x3c00, 0x3c00, 0x3c00, 0x3c00};  // 1.0
};
struct AippDynamicParams {
  uint8_t input_format = 0;  // 0: not set
  int8_t csc = 0, rbuv_swap = 0, ax_swap = 0;
  int32_t src_w = 0, src_h = 0;
  int16_t matrix[9] = {};
  uint8_t output_bias[3] = {}, input_bias[3] = {};
  std::vector<AippBatchParams> batches;
};

void EncodeAippParams(const AippDynamicParams& p, uint8_t* dst);  // AippDynamicDataSize bytes
Result<AippDynamicParams> DecodeAippParams(const uint8_t* src, size_t size);

// Whether a format is a YUV one, and how it is stored: bytes per pixel as the channels of
// the NHWC image (YUV420SP: 1, its UV plane below the Y plane), stored rows, image bytes.
bool AippFormatIsYuv(int format);
bool AippFormatKnown(int format);
int64_t AippStoredChannels(int format);
int64_t AippStoredHeight(int format, int64_t h);
int64_t AippImageBytes(int format, int64_t w, int64_t h);

// The plan of image `b` of dynamic parameters, checked against the model's C x H x W:
// the crop inside the image, even sizes where the format needs them, the output size.
// Errors name the aclmdlSetAIPP* call that set the wrong value.
Result<AippImagePlan> PlanDynamicImage(const AippDynamicParams& p, size_t b, int64_t out_c,
                                       int64_t out_h, int64_t out_w);

}  // namespace oc
