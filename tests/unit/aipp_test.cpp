// Static AIPP through the driver's rewrite and the CPU kernel: sizes and bytes of every
// input format (run under the sanitizers too), hand-checked pixels, refused configs.
#include "driver/aipp.h"

#include <gtest/gtest.h>

#include "base/half.h"
#include "ops/aipp_params.h"
#include "test_graph.h"

namespace oc::testing {
namespace {

Graph ScaleGraph(int64_t c, int64_t h, int64_t w) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {1, c, h, w});
  b.Const("one", FloatTensor({}, {1.0f}));
  b.Add("Mul", {"x", "one"}, {"y"});
  b.Output("y");
  return b.g;
}

// Runs the AIPP model on `image` bytes; returns the model's float output.
Result<std::vector<float>> RunAipp(const std::string& cfg, int64_t c, int64_t h, int64_t w,
                                   const std::vector<uint8_t>& image, size_t* input_bytes) {
  OC_ASSIGN_OR_RETURN(auto configs, ParseAippConfig(cfg));
  Graph g = ScaleGraph(c, h, w);
  OC_RETURN_IF_ERROR(ApplyAipp(g, configs));
  OC_ASSIGN_OR_RETURN(std::string bytes, CompileToOm(std::move(g)));
  OC_ASSIGN_OR_RETURN(auto model, Model::Load(MappedFile::FromCopy(bytes.data(), bytes.size())));
  *input_bytes = model->inputs()[0].bytes;
  if (image.size() != *input_bytes) return InvalidArgument("wrong image size");
  std::vector<float> out(static_cast<size_t>(c * h * w));
  OC_RETURN_IF_ERROR(
      model->Execute({image.data()}, {image.size()}, {out.data()}, {out.size() * sizeof(float)}));
  return out;
}

TEST(Aipp, EveryFormatHasItsStoredSize) {
  struct Case {
    const char* format;
    int64_t channels;
    size_t bytes;  // for a 6 x 4 image
  };
  for (const Case& k :
       {Case{"YUV420SP_U8", 3, 36}, Case{"XRGB8888_U8", 3, 96}, Case{"RGB888_U8", 3, 72},
        Case{"YUV400_U8", 1, 24}, Case{"ARGB8888_U8", 3, 96}, Case{"YUYV_U8", 3, 48},
        Case{"YUV422SP_U8", 3, 48}, Case{"AYUV444_U8", 3, 96}}) {
    SCOPED_TRACE(k.format);
    const std::string cfg =
        std::string("aipp_op {\n aipp_mode: static\n input_format: ") + k.format +
        "\n csc_switch: " +
        (k.channels == 3 && std::string(k.format).find("RGB") == std::string::npos
             ? "true\n matrix_r0c0: 256 matrix_r1c1: 256 matrix_r2c2: 256\n"
             : "false\n") +
        "}\n";
    size_t bytes = 0;
    std::vector<uint8_t> img(k.bytes);
    for (size_t i = 0; i < img.size(); ++i) img[i] = static_cast<uint8_t>(i * 37 + 11);
    auto out = RunAipp(cfg, k.channels, 4, 6, img, &bytes);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ(bytes, k.bytes);
    for (float v : *out) EXPECT_TRUE(v >= 0 && v <= 255) << v;
  }
}

TEST(Aipp, PixelsByHand) {
  // RGB888 with R/B swap, mean and fp16-held var_reci.
  const std::string cfg =
      "aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n rbuv_swap_switch: true\n"
      " mean_chn_0: 10\n var_reci_chn_0: 0.1\n}\n";
  std::vector<uint8_t> img(2 * 2 * 3);
  for (size_t i = 0; i < img.size(); ++i) img[i] = static_cast<uint8_t>(100 + i);
  size_t bytes = 0;
  auto out = RunAipp(cfg, 3, 2, 2, img, &bytes);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  // Pixel (0,0) is bytes 100,101,102; swapped: channel 0 = 102.
  const float var = HalfToFloat(FloatToHalf(0.1f));
  EXPECT_EQ((*out)[0], HalfToFloat(FloatToHalf((102 - 10) * var)));
  EXPECT_EQ((*out)[4], 101.0f);  // channel 1, pixel (0,0)
  EXPECT_EQ((*out)[8], 100.0f);  // channel 2
  // YUV420SP -> RGB with the identity matrix and a bias: Y - 16 on channel 0.
  const std::string nv12 =
      "aipp_op {\n input_format: YUV420SP_U8\n csc_switch: true\n"
      " matrix_r0c0: 256 matrix_r1c1: 256 matrix_r2c2: 256\n input_bias_0: 16\n}\n";
  std::vector<uint8_t> yuv = {50, 60, 70, 80, 200, 100};  // 2x2 Y, then U=200 V=100
  out = RunAipp(nv12, 3, 2, 2, yuv, &bytes);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ((*out)[0], 34.0f);
  EXPECT_EQ((*out)[3], 64.0f);
  EXPECT_EQ((*out)[4], 200.0f);  // U everywhere
  EXPECT_EQ((*out)[8], 100.0f);  // V everywhere
}

TEST(Aipp, RefusedConfigs) {
  for (const char* bad : {"aipp_op {\n input_format: BMP\n}\n", "aipp_op {\n crop: maybe\n}\n",
                          "aipp_op {\n}\naipp_op {\n}\n", "aipp_op {\n mean_chn_0: 300\n}\n",
                          "aipp_op {\n aipp_mode: dynamic\n}\n", "", "aipp_op input_format\n"}) {
    SCOPED_TRACE(bad);
    auto c = ParseAippConfig(bad);
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.status().cann_code(), "E10001");
  }
  auto one = ParseAippConfig("aipp_op {\n related_input_rank: 1\n input_format: RGB888_U8\n}\n");
  ASSERT_TRUE(one.ok());
  Graph g = ScaleGraph(3, 4, 4);
  auto applied = ApplyAipp(g, one.value());
  ASSERT_FALSE(applied.ok());  // the model has one input
}

// The dynamic parameter bytes survive a round trip, and any bytes at all (they come from
// the application's buffer) decode to an error or to a plan whose reads stay in the image.
TEST(Aipp, DynamicParametersRoundTripAndHostileBytes) {
  AippDynamicParams p;
  p.input_format = 3;
  p.src_w = 16;
  p.src_h = 12;
  p.rbuv_swap = 1;
  p.matrix[4] = -300;
  p.input_bias[2] = 128;
  p.batches.resize(2);
  p.batches[1].crop = 1;
  p.batches[1].crop_x = 6;
  p.batches[1].crop_y = 4;
  p.batches[1].crop_w = 10;
  p.batches[1].crop_h = 8;
  p.batches[1].mean[2] = 77;
  p.batches[1].min[0] = FloatToHalf(0.5f);
  std::vector<uint8_t> bytes(AippDynamicDataSize(2));
  ASSERT_EQ(bytes.size(), 64u + 2 * 96u);
  EncodeAippParams(p, bytes.data());
  auto back = DecodeAippParams(bytes.data(), bytes.size());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->src_w, 16);
  EXPECT_EQ(back->matrix[4], -300);
  EXPECT_EQ(back->input_bias[2], 128);
  ASSERT_EQ(back->batches.size(), 2u);
  EXPECT_EQ(back->batches[1].crop_x, 6);
  EXPECT_EQ(back->batches[1].mean[2], 77);
  auto plan = PlanDynamicImage(*back, 1, 3, 8, 10);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_EQ(plan->min[0], 0.5f);
  EXPECT_FALSE(PlanDynamicImage(*back, 0, 3, 8, 10).ok());  // 16x12 uncropped is not 10x8
  EXPECT_FALSE(DecodeAippParams(bytes.data(), 100).ok());   // truncated
  uint32_t seed = 1;
  for (int trial = 0; trial < 2000; ++trial) {
    for (auto& b : bytes) b = static_cast<uint8_t>((seed = seed * 1103515245u + 12345u) >> 24);
    bytes[4] = static_cast<uint8_t>(trial % 4);  // batch counts 0..3
    auto d = DecodeAippParams(bytes.data(), bytes.size());
    if (!d.ok()) continue;
    for (size_t b = 0; b < d->batches.size(); ++b) {
      auto pl = PlanDynamicImage(*d, b, 3, 8, 10);
      if (!pl.ok()) continue;
      EXPECT_LE(pl->crop_x + pl->crop_w, pl->src_w);
      EXPECT_LE(pl->crop_y + pl->crop_h, pl->src_h);
    }
  }
}

}  // namespace
}  // namespace oc::testing
