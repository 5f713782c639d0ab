// The DVPP core without AscendCL: JPEGD on files libjpeg writes here (whole, truncated,
// damaged, progressive), the chips' picture rules and VPC's geometry.
#include <gtest/gtest.h>
#include <jpeglib.h>

#include <cstdlib>
#include <vector>

#include "dvpp/jpeg.h"
#include "dvpp/vpc.h"

namespace oc::dvpp {
namespace {

std::vector<uint8_t> Encode(int w, int h, bool progressive, int h_samp = 2, int v_samp = 2) {
  jpeg_compress_struct c;
  jpeg_error_mgr e;
  c.err = jpeg_std_error(&e);
  jpeg_create_compress(&c);
  unsigned char* out = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&c, &out, &size);
  c.image_width = w;
  c.image_height = h;
  c.input_components = 3;
  c.in_color_space = JCS_RGB;
  jpeg_set_defaults(&c);
  c.comp_info[0].h_samp_factor = h_samp;
  c.comp_info[0].v_samp_factor = v_samp;
  if (progressive) jpeg_simple_progression(&c);
  jpeg_start_compress(&c, TRUE);
  std::vector<uint8_t> row(static_cast<size_t>(w) * 3);
  while (c.next_scanline < c.image_height) {
    for (int x = 0; x < w; ++x) {
      row[x * 3] = static_cast<uint8_t>(x * 255 / w);
      row[x * 3 + 1] = static_cast<uint8_t>(c.next_scanline * 255 / h);
      row[x * 3 + 2] = 90;
    }
    JSAMPROW p = row.data();
    jpeg_write_scanlines(&c, &p, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  std::vector<uint8_t> bytes(out, out + size);
  std::free(out);
  return bytes;
}

TEST(Jpegd, DecodesAndRefusesWhatTheHardwareRefuses) {
  const auto jpeg = Encode(70, 50, false);
  auto info = ReadJpegInfo(jpeg.data(), jpeg.size());
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->width, 70u);
  EXPECT_EQ(info->sampling, kCss420);
  const uint32_t ws = 128, hs = 64;  // 310: 128x16 strides
  std::vector<uint8_t> buf(192 * hs * 3 / 2);
  Picture out{buf.data(), static_cast<uint32_t>(buf.size()), kNv12, 0, 0, ws, hs};
  ASSERT_TRUE(DecodeJpeg(jpeg.data(), jpeg.size(), &out, Chip::k310).ok());
  EXPECT_EQ(out.width, 70u);
  // A grey ramp from left to right in the luma.
  EXPECT_LT(buf[2], buf[60]);
  Picture narrow = out;
  narrow.width_stride = 192;  // 64-aligned: 310P's rule, not 310's (128)
  EXPECT_FALSE(DecodeJpeg(jpeg.data(), jpeg.size(), &narrow, Chip::k310).ok());
  EXPECT_TRUE(DecodeJpeg(jpeg.data(), jpeg.size(), &narrow, Chip::k310P).ok());
  // Truncated in the data, cut in the headers, garbage, progressive.
  EXPECT_FALSE(DecodeJpeg(jpeg.data(), jpeg.size() - 50, &out, Chip::k310).ok());
  EXPECT_FALSE(DecodeJpeg(jpeg.data(), 30, &out, Chip::k310).ok());
  std::vector<uint8_t> garbage(300, 0x5a);
  garbage[0] = 0xFF;
  garbage[1] = 0xD8;
  EXPECT_FALSE(ReadJpegInfo(garbage.data(), garbage.size()).ok());
  const auto progressive = Encode(64, 48, true);
  EXPECT_EQ(DecodeJpeg(progressive.data(), progressive.size(), &out, Chip::k310).code(),
            StatusCode::kUnsupported);
  // Every truncation of a valid file is an error or a picture, never a fault.
  for (size_t n = 0; n < jpeg.size(); n += 7) (void)DecodeJpeg(jpeg.data(), n, &out, Chip::k910B);
}

TEST(Vpc, RulesAndGeometry) {
  std::vector<uint8_t> in(64 * 48 * 3 / 2, 50), out(40 * 24 * 3 / 2, 0);
  Picture a{in.data(), static_cast<uint32_t>(in.size()), kNv12, 64, 48, 64, 48};
  Picture b{out.data(), static_cast<uint32_t>(out.size()), kNv12, 32, 24, 32, 24};
  EXPECT_TRUE(CheckVpcPicture(a, Chip::k310P, Role::kVpcInput, "in").ok());
  Picture odd = b;
  odd.width_stride = 40;
  odd.size = 40 * 24 * 3 / 2;
  EXPECT_FALSE(CheckVpcPicture(odd, Chip::k310P, Role::kVpcOutput, "out").ok());
  EXPECT_TRUE(CheckVpcPicture(odd, Chip::k910B, Role::kVpcOutput, "out").ok());
  const Roi all_in{0, 63, 0, 47}, all_out{0, 31, 0, 23};
  ASSERT_TRUE(CropResizePaste(a, all_in, b, all_out, kBilinear, Chip::k910B).ok());
  EXPECT_EQ(out[0], 50);
  EXPECT_EQ(out[32 * 24], 50);  // chroma
  EXPECT_FALSE(CheckRoi(Roi{1, 32, 0, 23}, a, Chip::k310, false, "crop").ok());
  EXPECT_FALSE(CheckRoi(Roi{8, 39, 0, 23}, b, Chip::k310P, true, "paste").ok());
  EXPECT_FALSE(CheckRoi(Roi{0, 70, 0, 23}, a, Chip::k910B, false, "crop").ok());
  const Roi tiny{0, 9, 0, 5};
  std::vector<uint8_t> big(4096 * 96 * 3 / 2);
  Picture c{big.data(), static_cast<uint32_t>(big.size()), kNv12, 4096, 96, 4096, 96};
  EXPECT_FALSE(CropResizePaste(a, tiny, c, Roi{0, 4095, 0, 95}, kBilinear, Chip::k910B).ok());
}

}  // namespace
}  // namespace oc::dvpp

namespace oc::dvpp {
namespace {

// Ascend 310B's interpolations 3 and 4 are OpenCV's bilinear and nearest again (not
// TensorFlow's, as on 310/910); 5 (its high-order filter) is computed bilinearly.
TEST(Vpc, AscendThreeTenBInterpolationsThreeToFive) {
  std::vector<uint8_t> src(64 * 48);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 37 % 251);
  const Picture in{src.data(), static_cast<uint32_t>(src.size()), kYuv400, 64, 48, 64, 48};
  auto resize = [&](uint32_t interpolation, Chip chip) {
    std::vector<uint8_t> dst(40 * 30);
    const Picture out{dst.data(), static_cast<uint32_t>(dst.size()), kYuv400, 40, 30, 40, 30};
    EXPECT_TRUE(CheckInterpolation(interpolation, chip).ok());
    EXPECT_TRUE(
        CropResizePaste(in, Roi{0, 63, 0, 47}, out, Roi{0, 39, 0, 29}, interpolation, chip).ok());
    return dst;
  };
  EXPECT_EQ(resize(3, Chip::k310B), resize(1, Chip::k310B));
  EXPECT_EQ(resize(4, Chip::k310B), resize(2, Chip::k310B));
  EXPECT_EQ(resize(5, Chip::k310B), resize(1, Chip::k310B));
  EXPECT_NE(resize(3, Chip::k310), resize(1, Chip::k310));  // TensorFlow's corners there
  EXPECT_FALSE(CheckInterpolation(5, Chip::k310).ok());
  EXPECT_FALSE(CheckInterpolation(3, Chip::k910B).ok());
}

}  // namespace
}  // namespace oc::dvpp
