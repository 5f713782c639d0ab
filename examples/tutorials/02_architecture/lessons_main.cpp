// Runs the kernels of lessons.cpp on the CPU emulation of one AI Core and checks what each
// shows. Exit status 0 when the good kernels compute x + y exactly and the two broken ones are
// caught by the emulation's checks.
#include <cstdio>
#include <cstring>
#include <vector>

#include "tikicpulib.h"
#include "tiling/platform/platform_ascendc.h"

extern "C" void add_single_buffer(uint8_t*, uint8_t*, uint8_t*);
extern "C" void add_double_buffer(uint8_t*, uint8_t*, uint8_t*);
extern "C" void add_bank_conflict(uint8_t*, uint8_t*, uint8_t*);
extern "C" void add_bank_spread(uint8_t*, uint8_t*, uint8_t*);
extern "C" void ub_overflow(uint8_t*, uint8_t*, uint8_t*);
extern "C" void misaligned_copy(uint8_t*, uint8_t*, uint8_t*);

int main() {
  using platform_ascendc::CoreMemType;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
  uint64_t ub = 0, l1 = 0, l0a = 0, l0b = 0, l0c = 0, l2 = 0;
  platform->GetCoreMemSize(CoreMemType::UB, ub);
  platform->GetCoreMemSize(CoreMemType::L1, l1);
  platform->GetCoreMemSize(CoreMemType::L0_A, l0a);
  platform->GetCoreMemSize(CoreMemType::L0_B, l0b);
  platform->GetCoreMemSize(CoreMemType::L0_C, l0c);
  platform->GetCoreMemSize(CoreMemType::L2, l2);
  std::printf("cores: %u cube (AIC), %u vector (AIV)\n", platform->GetCoreNumAic(),
              platform->GetCoreNumAiv());
  std::printf(
      "per core: UB %llu KiB, L1 %llu KiB, L0A %llu KiB, L0B %llu KiB, L0C %llu KiB; "
      "shared L2 %llu MiB\n",
      (unsigned long long)(ub >> 10), (unsigned long long)(l1 >> 10),
      (unsigned long long)(l0a >> 10), (unsigned long long)(l0b >> 10),
      (unsigned long long)(l0c >> 10), (unsigned long long)(l2 >> 20));

  const size_t n = 16 * 2048, bytes = n * sizeof(float);
  auto* x = static_cast<float*>(AscendC::GmAlloc(bytes));
  auto* y = static_cast<float*>(AscendC::GmAlloc(bytes));
  auto* z = static_cast<float*>(AscendC::GmAlloc(bytes));
  for (size_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 1000) * 0.25f;
    y[i] = 3.0f - static_cast<float>(i % 7);
  }
  auto exact = [&](size_t count) {
    for (size_t i = 0; i < count; ++i)
      if (z[i] != x[i] + y[i]) return false;
    return true;
  };
  auto* gx = reinterpret_cast<uint8_t*>(x);
  auto* gy = reinterpret_cast<uint8_t*>(y);
  auto* gz = reinterpret_cast<uint8_t*>(z);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  bool ok = true;

  std::memset(z, 0, bytes);
  ok &= ICPU_RUN_KF(add_single_buffer, 1, gx, gy, gz) && exact(n);
  std::memset(z, 0, bytes);
  ok &= ICPU_RUN_KF(add_double_buffer, 1, gx, gy, gz) && exact(n);
  std::memset(z, 0, bytes);
  ok &= ICPU_RUN_KF(add_bank_conflict, 1, gx, gy, gz) && exact(2048);
  std::memset(z, 0, bytes);
  ok &= ICPU_RUN_KF(add_bank_spread, 1, gx, gy, gz) && exact(2048);
  std::printf("the four add kernels: %s\n", ok ? "exact" : "WRONG");

  // These two must fail: the emulation refuses what the hardware cannot do.
  const bool overflow_ran = ICPU_RUN_KF(ub_overflow, 1, gx, gy, gz);
  const bool misaligned_ran = ICPU_RUN_KF(misaligned_copy, 1, gx, gy, gz);
  std::printf("ub_overflow %s, misaligned_copy %s\n", overflow_ran ? "RAN" : "was refused",
              misaligned_ran ? "RAN" : "was refused");
  ok &= !overflow_ran && !misaligned_ran;

  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  std::printf("%s\n", ok ? "lessons ran as expected" : "lessons FAILED");
  return ok ? 0 : 1;
}
