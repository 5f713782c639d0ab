// Platform facts for tiling functions (PlatformAscendC): core counts and local memory sizes
// from the one SoC table (opencann/soc_table.h): the chip of the platform info a tiling
// context gives (the model's --soc_version), else OCANN_SOC, else Ascend910B3.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <iostream>  // as CANN's host headers: tiling code uses std::cout
#include <string>

#include "opencann/soc_table.h"

namespace platform_ascendc {

enum class CoreMemType { L0_A, L0_B, L0_C, L1, L2, UB, HBM, RESERVED };
enum class SocVersion { ASCEND910B, ASCEND310P, RESERVED_VERSION };

class PlatformAscendC {
 public:
  explicit PlatformAscendC(const void* platformInfo = nullptr) {
    soc_ = static_cast<const opencann::SocSpec*>(platformInfo);
    if (!soc_) soc_ = opencann::FindSocSpec(std::getenv("OCANN_SOC"));
    if (!soc_ || !soc_->ascendc_emulated) soc_ = opencann::FindSocSpec(opencann::kDefaultSoc);
  }
  uint32_t GetCoreNum() const { return GetCoreNumAiv(); }
  uint32_t GetCoreNumAic() const { return static_cast<uint32_t>(soc_->aic_cores); }
  uint32_t GetCoreNumAiv() const {
    return static_cast<uint32_t>(soc_->aiv_cores ? soc_->aiv_cores : soc_->aic_cores);
  }
  void GetCoreMemSize(CoreMemType type, uint64_t& size) const {
    switch (type) {
      case CoreMemType::UB:
        size = soc_->ub_bytes;
        break;
      case CoreMemType::L1:
        size = soc_->l1_bytes;
        break;
      case CoreMemType::L0_A:
        size = soc_->l0a_bytes;
        break;
      case CoreMemType::L0_B:
        size = soc_->l0b_bytes;
        break;
      case CoreMemType::L0_C:
        size = soc_->l0c_bytes;
        break;
      case CoreMemType::L2:
        size = soc_->l2_bytes;
        break;
      case CoreMemType::HBM:
        size = static_cast<uint64_t>(soc_->hbm_gib) << 30;
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
  const opencann::SocSpec* soc_ = nullptr;
};

// The process's platform for host programs without a tiling context (CPU-only hosts): the
// first call decides the chip (a SoC name, else OCANN_SOC or Ascend910B3).
class PlatformAscendCManager {
 public:
  static PlatformAscendC* GetInstance() { return GetInstance(nullptr); }
  static PlatformAscendC* GetInstance(const char* customSocVersion) {
    static PlatformAscendC* instance = [&] {
      const opencann::SocSpec* soc =
          customSocVersion ? opencann::FindSocSpec(customSocVersion) : nullptr;
      return new PlatformAscendC(soc && soc->ascendc_emulated ? soc : nullptr);
    }();
    return instance;
  }
};

}  // namespace platform_ascendc
