// Platform facts for tiling functions (PlatformAscendC): core counts and local memory sizes
// of the emulated SoC (Ascend910B3 unless OCANN_SOC names Ascend910B1/B2/B4).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

namespace platform_ascendc {

enum class CoreMemType { L0_A, L0_B, L0_C, L1, L2, UB, HBM, RESERVED };
enum class SocVersion { ASCEND910B, ASCEND310P, RESERVED_VERSION };

class PlatformAscendC {
 public:
  explicit PlatformAscendC(const void* /*platformInfo*/ = nullptr) {
    const char* soc = std::getenv("OCANN_SOC");
    const std::string name = soc ? soc : "Ascend910B3";
    if (name == "Ascend910B1" || name == "Ascend910B2") aic_ = 24;
    aiv_ = 2 * aic_;
  }
  uint32_t GetCoreNum() const { return aiv_; }
  uint32_t GetCoreNumAic() const { return aic_; }
  uint32_t GetCoreNumAiv() const { return aiv_; }
  void GetCoreMemSize(CoreMemType type, uint64_t& size) const {
    switch (type) {
      case CoreMemType::UB:
        size = 192 * 1024;
        break;
      case CoreMemType::L1:
        size = 512 * 1024;
        break;
      case CoreMemType::L0_A:
      case CoreMemType::L0_B:
        size = 64 * 1024;
        break;
      case CoreMemType::L0_C:
        size = 128 * 1024;
        break;
      case CoreMemType::L2:
        size = 192ull * 1024 * 1024;
        break;
      case CoreMemType::HBM:
        size = 64ull * 1024 * 1024 * 1024;
        break;
      default:
        size = 0;
    }
  }
  uint32_t GetLibApiWorkSpaceSize() const { return 16 * 1024 * 1024; }
  SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }
  uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
    return aicCoreNum == 0 ? sliceNum : (aivCoreNum == 0 ? sliceNum : (sliceNum + 1) / 2);
  }

 private:
  uint32_t aic_ = 20, aiv_ = 40;
};

}  // namespace platform_ascendc
