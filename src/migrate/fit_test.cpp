// Unit tests of gpu2npu fit (migrate/fit.h): memory for weights, KV cache, optimizer states
// and activations worked out by hand for a 7B Llama-shaped model on an Ascend 910B3 (64 GiB,
// 90% usable), the shape derived from a bare parameter count, and refused requests.
#include "migrate/fit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace oc::migrate {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

TEST(Fit, SevenBInferenceInBf16) {
  FitRequest q;
  q.model = "7B";
  q.method = "inference";
  auto r = EstimateFit(q);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->layers, 32);
  EXPECT_EQ(r->hidden, 4096);
  EXPECT_DOUBLE_EQ(r->device_gib, 64);
  EXPECT_DOUBLE_EQ(r->usable_gib, 57.6);
  ASSERT_EQ(r->parts.size(), 3u);
  EXPECT_EQ(r->parts[0].name, "weights");
  EXPECT_NEAR(r->parts[0].gib, 6.7e9 * 2 / kGiB, 1e-9);
  // K and V: 2 x 32 layers x 2048 tokens x 4096 wide x 2 bytes = exactly 1 GiB.
  EXPECT_EQ(r->parts[1].name, "KV cache (32 KV heads)");
  EXPECT_DOUBLE_EQ(r->parts[1].gib, 1.0);
  EXPECT_DOUBLE_EQ(r->parts[2].gib, 2048.0 * 4096 * 12 * 2 / kGiB);
  EXPECT_TRUE(r->fits);
  EXPECT_EQ(r->cards, 1);
  EXPECT_EQ(r->verdict, "fits one Ascend910B3: 13.7 of 57.6 usable GiB");
}

TEST(Fit, SevenBFullFineTuningNeedsTwoCards) {
  FitRequest q;
  q.model = "7b";
  q.method = "full";
  auto r = EstimateFit(q);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // 16 bytes of states per parameter: 16-bit weights and gradients, fp32 master and moments.
  double states = 0;
  for (size_t i = 0; i + 1 < r->parts.size(); ++i) states += r->parts[i].gib;
  EXPECT_NEAR(states, 6.7e9 * 16 / kGiB, 1e-9);
  // Activations: 32 layers x 2048 x 4096 x 34 bytes = 8.5 GiB; recomputed: 0.765625 GiB.
  EXPECT_DOUBLE_EQ(r->parts.back().gib, 8.5);
  EXPECT_DOUBLE_EQ(r->activations_recompute_gib, 0.765625);
  EXPECT_FALSE(r->fits);
  EXPECT_FALSE(r->fits_with_recompute);
  EXPECT_EQ(r->cards, 2);
  EXPECT_EQ(r->verdict,
            "does not fit one Ascend910B3 (100.6 GiB needed, 57.6 usable): 2 cards with sharded "
            "states (ZeRO-3 / FSDP) and recomputation");
}

TEST(Fit, LoraAdapterCountFollowsTheTargets) {
  FitRequest q;  // 7B, LoRA r=16 on q and v (PEFT's default)
  auto r = EstimateFit(q);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // 32 layers x 2 modules x 16 x (4096 + 4096).
  EXPECT_DOUBLE_EQ(r->lora_params, 32.0 * 2 * 16 * 8192);
  q.lora_targets = "q_proj,k_proj,v_proj,o_proj";
  auto four = EstimateFit(q);
  ASSERT_TRUE(four.ok()) << four.status().ToString();
  EXPECT_DOUBLE_EQ(four->lora_params, 2 * r->lora_params);
}

TEST(Fit, BareParameterCountGetsALlamaLikeShape) {
  FitRequest q;
  q.model = "1.3e9";
  q.method = "inference";
  auto r = EstimateFit(q);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // P = 12 L h^2 with L = h / 128: h = cbrt(128 P / 12) rounded to 128s, L = P / (12 h^2).
  EXPECT_DOUBLE_EQ(r->params, 1.3e9);
  EXPECT_EQ(r->hidden, 2432);
  EXPECT_EQ(r->layers, 18);
  EXPECT_EQ(r->heads, 19);
}

TEST(Fit, BadRequestsAreRefused) {
  auto refused = [](FitRequest q, const std::string& start) {
    auto r = EstimateFit(q);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(r.status().message().rfind(start, 0), 0u) << r.status().message();
  };
  FitRequest q;
  q.device = "Ascend999";
  refused(q, "unknown device [Ascend999]; known: ");
  q = FitRequest();
  q.method = "distill";
  refused(q, "--method must be inference, full, lora or qlora, not [distill]");
  q = FitRequest();
  q.model = "seven";
  refused(q, "--params [seven] is not a parameter count");
  q = FitRequest();
  q.kv_heads = 5;
  refused(q, "--kv-heads 5 must divide the 32 attention heads");
  q = FitRequest();
  q.lora_targets = "q,mlp";
  refused(q, "--lora-targets: unknown module [mlp]");
  q = FitRequest();
  q.batch = 0;
  refused(q, "--batch and --seq must be positive");
}

TEST(Fit, KnownDevicesIncludeTheSocTableAndGpus) {
  const auto d = KnownDevices();
  for (const char* name : {"Ascend910B3", "Ascend310P3", "A100-80GB", "H100"})
    EXPECT_NE(std::find(d.begin(), d.end(), name), d.end()) << name;
}

}  // namespace
}  // namespace oc::migrate
