// One SoC table: the emulation, the tiling platform API and a launch for a model's chip
// all read opencann/soc_table.h.
#include <gtest/gtest.h>

#include "kernel_operator.h"
#include "opencann/soc_table.h"
#include "tikicpulib.h"
#include "tiling/platform/platform_ascendc.h"

using namespace AscendC;

namespace {

TEST(SocTable, PlatformApiReadsThePlatformInfoItIsGiven) {
  const opencann::SocSpec* b1 = opencann::FindSocSpec("Ascend910B1");
  ASSERT_NE(b1, nullptr);
  platform_ascendc::PlatformAscendC p(b1);
  EXPECT_EQ(p.GetCoreNumAic(), 24u);
  EXPECT_EQ(p.GetCoreNumAiv(), 48u);
  uint64_t ub = 0, hbm = 0;
  p.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  p.GetCoreMemSize(platform_ascendc::CoreMemType::HBM, hbm);
  EXPECT_EQ(ub, 192u * 1024);
  EXPECT_EQ(hbm, 64ull << 30);
  platform_ascendc::PlatformAscendC b4(opencann::FindSocSpec("Ascend910B4"));
  b4.GetCoreMemSize(platform_ascendc::CoreMemType::HBM, hbm);
  EXPECT_EQ(hbm, 32ull << 30);
  EXPECT_EQ(b4.GetCoreNumAic(), 20u);
}

TEST(SocTable, EveryEmulatedChipHasItsMemories) {
  for (const auto& s : opencann::kSocTable) {
    if (!s.ascendc_emulated) continue;
    EXPECT_GT(s.ub_bytes, 0u) << s.name;
    EXPECT_GT(s.l0c_bytes, 0u) << s.name;
    EXPECT_GT(s.aiv_cores, 0) << s.name;
    EXPECT_TRUE(detail::SetSoc(s.name)) << s.name;
  }
  EXPECT_TRUE(detail::SetSoc(opencann::kDefaultSoc));
  EXPECT_FALSE(detail::SetSoc("Ascend310P3"));  // listed, not modelled by the emulation
}

// A launch for a model's chip has that chip's cores: SyncAll over 44 blocks works on
// Ascend910B1 (48 vector cores) and is a fault on Ascend910B3 (40).
TEST(SocTable, LaunchUsesTheModelsChip) {
  for (const char* soc : {"Ascend910B1", "Ascend910B3"}) {
    detail::LaunchOptions options;
    options.soc = soc;
    options.report = false;
    options.mode = KernelMode::AIV_MODE;
    auto r = detail::Launch(
        "soc_probe", 44, [] { SyncAll(); }, options);
    const bool b1 = std::string(soc) == "Ascend910B1";
    EXPECT_EQ(r.ok, b1) << soc;
    if (!b1) {
      ASSERT_FALSE(r.errors.empty());
      EXPECT_NE(r.errors[0].find("40 vector cores of Ascend910B3"), std::string::npos)
          << r.errors[0];
    }
  }
  detail::LaunchOptions bad;
  bad.soc = "Ascend310P3";
  bad.report = false;
  auto r = detail::Launch(
      "soc_probe", 1, [] {}, bad);
  ASSERT_FALSE(r.ok);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_NE(r.errors[0].find("does not model"), std::string::npos) << r.errors[0];
}

}  // namespace
