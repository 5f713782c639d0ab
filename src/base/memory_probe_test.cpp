// The host-range probes: read-only, inaccessible and unmapped pages answer false without a
// fault, through the process_vm_* calls and through the /proc/self/maps fallback alike.
#include "base/memory_probe.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <vector>

namespace oc {
namespace {

class MemoryProbe : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    testing_only::ForceMapsProbe(GetParam());
    page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    // Three pages: writable, read-only, inaccessible; a fourth unmapped after them.
    base_ = static_cast<char*>(
        mmap(nullptr, 4 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    ASSERT_NE(base_, MAP_FAILED);
    std::memset(base_, 0x5a, 3 * page_);
    ASSERT_EQ(mprotect(base_ + page_, page_, PROT_READ), 0);
    ASSERT_EQ(mprotect(base_ + 2 * page_, page_, PROT_NONE), 0);
    ASSERT_EQ(munmap(base_ + 3 * page_, page_), 0);
  }
  void TearDown() override {
    munmap(base_, 3 * page_);
    testing_only::ForceMapsProbe(false);
  }
  size_t page_ = 0;
  char* base_ = nullptr;
};

TEST_P(MemoryProbe, TellsPagesThatWouldFault) {
  EXPECT_TRUE(HostRangeReadable(base_, page_));
  EXPECT_TRUE(HostRangeWritable(base_, page_));
  EXPECT_TRUE(HostRangeReadable(base_ + 10, 2 * page_ - 20));  // writable + read-only
  EXPECT_FALSE(HostRangeWritable(base_ + 10, 2 * page_ - 20));
  EXPECT_FALSE(HostRangeWritable(base_ + page_, 1));
  EXPECT_FALSE(HostRangeReadable(base_ + 2 * page_, 1));     // PROT_NONE
  EXPECT_FALSE(HostRangeReadable(base_, 3 * page_));         // ends in PROT_NONE
  EXPECT_FALSE(HostRangeReadable(base_ + 3 * page_, 8));     // unmapped
  EXPECT_FALSE(HostRangeReadable(base_ + page_, SIZE_MAX));  // wraps around
  EXPECT_FALSE(HostRangeReadable(nullptr, 4));
  EXPECT_TRUE(HostRangeReadable(nullptr, 0));
  // The writable probe leaves the bytes as they were.
  EXPECT_TRUE(HostRangeWritable(base_ + 3, 100));
  for (int i = 0; i < 200; ++i) ASSERT_EQ(base_[i], 0x5a);
  // Many pages: more than one batch of the process_vm_* calls.
  std::vector<char> big(600 * page_, 1);
  EXPECT_TRUE(HostRangeWritable(big.data(), big.size()));
}

INSTANTIATE_TEST_SUITE_P(Probes, MemoryProbe, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Maps" : "VmCalls"; });

}  // namespace
}  // namespace oc
