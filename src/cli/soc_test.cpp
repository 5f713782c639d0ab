// Unit tests of cli/soc.h: the chip names --soc_version accepts, looked up in the one SoC
// table (include/opencann/soc_table.h), with the figures of a few known chips.
#include "cli/soc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

namespace oc {
namespace {

TEST(CliSoc, FindsAscend910B3WithItsCoreCountsAndMemory) {
  const SocInfo* s = FindSoc("Ascend910B3");
  ASSERT_NE(s, nullptr);
  EXPECT_STREQ(s->name, "Ascend910B3");
  EXPECT_EQ(s->aic_cores, 20);
  EXPECT_EQ(s->aiv_cores, 40);
  EXPECT_EQ(s->hbm_gib, 64);
  EXPECT_TRUE(s->ascendc_emulated);
  EXPECT_EQ(s->ub_bytes, 192u * 1024u);
}

TEST(CliSoc, Ascend910B4HasHalfTheMemoryOf910B3) {
  const SocInfo* b3 = FindSoc("Ascend910B3");
  const SocInfo* b4 = FindSoc("Ascend910B4");
  ASSERT_NE(b3, nullptr);
  ASSERT_NE(b4, nullptr);
  EXPECT_EQ(b4->hbm_gib, 32);
  EXPECT_EQ(b4->aic_cores, b3->aic_cores);
}

TEST(CliSoc, InferenceChipsAreKnownButNotEmulated) {
  for (const char* name : {"Ascend310", "Ascend310P3", "Ascend910A"}) {
    const SocInfo* s = FindSoc(name);
    ASSERT_NE(s, nullptr) << name;
    EXPECT_FALSE(s->ascendc_emulated) << name;
    EXPECT_EQ(s->aiv_cores, 0) << name;
  }
}

// Atlas 200I/500 A2: one AI core (a cube part and a vector part), 248 KiB of UB.
TEST(CliSoc, Ascend310B1IsEmulatedWithItsOwnSizes) {
  const SocInfo* s = FindSoc("Ascend310B1");
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->ascendc_emulated);
  EXPECT_EQ(s->aic_cores, 1);
  EXPECT_EQ(s->aiv_cores, 1);
  EXPECT_EQ(s->ub_bytes, 253952u);
  EXPECT_EQ(s->l1_bytes, 1u << 20);
}

TEST(CliSoc, UnknownAndMisspelledNamesAreNotFound) {
  EXPECT_EQ(FindSoc(""), nullptr);
  EXPECT_EQ(FindSoc("Ascend910B9"), nullptr);
  EXPECT_EQ(FindSoc("Ascend910B3 "), nullptr);
  EXPECT_EQ(FindSoc("ascend910b3"), nullptr);  // names match exactly
  EXPECT_EQ(FindSoc("A100"), nullptr);
}

TEST(CliSoc, SocNamesListsEveryChipOnceAndEachIsFound) {
  const auto names = SocNames();
  EXPECT_EQ(names.size(), 13u);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  for (const auto& n : names) {
    const SocInfo* s = FindSoc(n);
    ASSERT_NE(s, nullptr) << n;
    EXPECT_EQ(std::string(s->name), n);
  }
}

TEST(CliSoc, DefaultSocIsListed) {
  const auto names = SocNames();
  EXPECT_NE(std::find(names.begin(), names.end(), opencann::kDefaultSoc), names.end());
  EXPECT_NE(FindSoc(opencann::kDefaultSoc), nullptr);
}

TEST(CliSoc, EmulatedChipsCarryLocalMemorySizes) {
  int emulated = 0;
  for (const auto& n : SocNames()) {
    const SocInfo* s = FindSoc(n);
    ASSERT_NE(s, nullptr);
    if (!s->ascendc_emulated) continue;
    ++emulated;
    EXPECT_GT(s->ub_bytes, 0u) << n;
    EXPECT_GT(s->l1_bytes, s->ub_bytes) << n;
    EXPECT_GT(s->l0c_bytes, 0u) << n;
    EXPECT_GT(s->mhz, 0) << n;
  }
  EXPECT_EQ(emulated, 5);  // the 910B family and Ascend310B1
}

}  // namespace
}  // namespace oc
