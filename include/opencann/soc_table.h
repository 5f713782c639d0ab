// The one table of the chips --soc_version names: atc, the Ascend C emulation (checks and
// cost model), msopgen, the tiling platform API (platform_ascendc.h) and gpu2npu fit all
// read it. Header-only so that operator packages' host code can use it without linking.
//
// Sources: public Ascend documentation and product pages, collected in OpenCANN's
// shared/reference notes. Local memory sizes are given only for the chips the Ascend C
// emulation models (the 910B family); the others carry 0 there (not confirmed).
#pragma once
// C++11: included by operator packages' host code, which CANN's templates build with -std=c++11.

#include <cstdint>
#include <cstring>

namespace opencann {

struct SocSpec {
  const char* name;
  int aic_cores;      // AI cores (cube units; on 910B each pairs with two vector cores)
  int aiv_cores;      // vector cores; 0 where cube and vector share one AI core
  int hbm_gib;        // device memory
  double mhz;         // AI core clock the cost model uses
  uint32_t ub_bytes;  // Unified Buffer per core
  uint32_t l1_bytes;
  uint32_t l0a_bytes, l0b_bytes, l0c_bytes;
  uint64_t l2_bytes;
  bool ascendc_emulated;  // the emulation's checks and cost model know this chip
  uint32_t bt_bytes;      // bias table (TPosition::C2)
  uint32_t fb_bytes;      // fixpipe buffer (TPosition::C2PIPE2GM)
};

// C++11 (operator packages' host code includes this through platform_ascendc.h): an
// aggregate table with internal linkage, one copy per translation unit.
static constexpr SocSpec kSocTable[] = {
    // name           AIC AIV HBM  MHz   UB         L1         L0A       L0B       L0C
    //   L2, emulated, bias table, fixpipe buffer
    {"Ascend910B1", 24, 48, 64, 1800, 192 << 10, 512 << 10, 64 << 10, 64 << 10, 128 << 10,
     192ull << 20, true, 1 << 10, 2 << 10},
    {"Ascend910B2", 24, 48, 64, 1800, 192 << 10, 512 << 10, 64 << 10, 64 << 10, 128 << 10,
     192ull << 20, true, 1 << 10, 2 << 10},
    {"Ascend910B3", 20, 40, 64, 1800, 192 << 10, 512 << 10, 64 << 10, 64 << 10, 128 << 10,
     192ull << 20, true, 1 << 10, 2 << 10},
    {"Ascend910B4", 20, 40, 32, 1800, 192 << 10, 512 << 10, 64 << 10, 64 << 10, 128 << 10,
     192ull << 20, true, 1 << 10, 2 << 10},
    {"Ascend910A", 32, 0, 32, 0, 0, 0, 0, 0, 0, 0, false, 0, 0},
    {"Ascend910B", 32, 0, 32, 0, 0, 0, 0, 0, 0, 0, false, 0, 0},
    {"Ascend910ProA", 32, 0, 32, 0, 0, 0, 0, 0, 0, 0, false, 0, 0},
    {"Ascend910ProB", 32, 0, 32, 0, 0, 0, 0, 0, 0, 0, false, 0, 0},
    {"Ascend910PremiumA", 32, 0, 32, 0, 0, 0, 0, 0, 0, 0, false, 0, 0},
    {"Ascend310", 2, 0, 8, 0, 0, 0, 0, 0, 0, 0, false, 0, 0},
    {"Ascend310P1", 10, 0, 24, 0, 0, 0, 0, 0, 0, 0, false, 0, 0},
    {"Ascend310P3", 8, 0, 24, 0, 0, 0, 0, 0, 0, 0, false, 0, 0},
    // Atlas 200I/500 A2 (dav-m300): one AI core split into a cube and a vector part, as its
    // platform ini's counts give them; UB 248 KiB, L1 1 MiB, L2 4 MiB (docs/npu-facts).
    {"Ascend310B1", 1, 1, 8, 1224, 248 << 10, 1 << 20, 64 << 10, 64 << 10, 128 << 10, 4ull << 20,
     true, 1 << 10, 2 << 10},
};

// The default chip when none is named (atc requires --soc_version; the emulation and the
// platform API fall back to it).
static constexpr const char* kDefaultSoc = "Ascend910B3";

inline const SocSpec* FindSocSpec(const char* name) {
  if (!name) return nullptr;
  for (const auto& s : kSocTable)
    if (std::strcmp(name, s.name) == 0) return &s;
  return nullptr;
}

}  // namespace opencann
