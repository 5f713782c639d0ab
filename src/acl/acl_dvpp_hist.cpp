// Colour histograms, remapping tables and the pyramid step of VPC. The histogram and the
// table are objects the application reads and writes through pointers into them
// (acldvppGetHistData, acldvppGetLutMapData), as on CANN. Ascend 310 and 910 have none of
// these; PyrDown is Ascend 310P's only.
#include <cstring>
#include <new>

#include "acl/acl_dvpp_objects.h"
#include "dvpp/vpc_filters.h"

using oc::acl_dvpp::Fail;
using oc::acl_dvpp::FailStatus;
using oc::acl_dvpp::Kind;
using oc::dvpp::kComponents;
using oc::dvpp::kLevels;
using oc::dvpp::Picture;

struct acldvppLutMap {
  uint8_t map[kComponents][kLevels];
};
struct acldvppHist {
  uint32_t counts[kComponents][kLevels] = {};
  uint32_t ret_code = 0;
};

namespace {

bool OldChip(oc::dvpp::Chip chip) {
  return chip == oc::dvpp::Chip::k310 || chip == oc::dvpp::Chip::k910;
}

template <typename T>
T* Create(Kind kind) {
  auto* t = new (std::nothrow) T();
  if (!t) return nullptr;
  std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
  oc::acl_dvpp::Add(t, kind);
  return t;
}

template <typename T>
aclError Destroy(T* t, Kind kind, const char* fn) {
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    if (!t || !oc::acl_dvpp::Remove(t, kind))
      return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": not a live handle");
  }
  delete t;
  return ACL_SUCCESS;
}

aclError CheckDim(const char* fn, uint32_t dim) {
  if (dim < kComponents) return ACL_SUCCESS;
  return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": dim " + std::to_string(dim) +
                                           " is not 0 to " + std::to_string(kComponents - 1));
}

}  // namespace

extern "C" {

acldvppLutMap* acldvppCreateLutMap(void) {
  acldvppLutMap* m = Create<acldvppLutMap>(Kind::kLutMap);
  if (m)  // the identity until the application writes its table
    for (auto& component : m->map)
      for (uint32_t v = 0; v < kLevels; ++v) component[v] = static_cast<uint8_t>(v);
  return m;
}
aclError acldvppDestroyLutMap(acldvppLutMap* m) { return Destroy(m, Kind::kLutMap, __func__); }
uint32_t acldvppGetLutMapDims(const acldvppLutMap* m) {
  return oc::acl_dvpp::GetLive<uint32_t>(m, Kind::kLutMap, 0u,
                                         [](const acldvppLutMap&) { return kComponents; });
}
aclError acldvppGetLutMapData(const acldvppLutMap* m, uint32_t dim, uint8_t** data, uint32_t* len) {
  if (aclError e = CheckDim(__func__, dim)) return e;
  if (!data || !len)
    return Fail(ACL_ERROR_INVALID_PARAM, "acldvppGetLutMapData: data or len is null");
  return oc::acl_dvpp::SetLive(const_cast<acldvppLutMap*>(m), Kind::kLutMap, __func__,
                               [&](acldvppLutMap& live) {
                                 *data = live.map[dim];
                                 *len = kLevels;
                               });
}

acldvppHist* acldvppCreateHist(void) { return Create<acldvppHist>(Kind::kHist); }
aclError acldvppDestroyHist(acldvppHist* h) { return Destroy(h, Kind::kHist, __func__); }
uint32_t acldvppGetHistDims(acldvppHist* h) {
  return oc::acl_dvpp::GetLive<uint32_t>(h, Kind::kHist, 0u,
                                         [](const acldvppHist&) { return kComponents; });
}
aclError acldvppGetHistData(acldvppHist* h, uint32_t dim, uint32_t** data, uint16_t* len) {
  if (aclError e = CheckDim(__func__, dim)) return e;
  if (!data || !len)
    return Fail(ACL_ERROR_INVALID_PARAM, "acldvppGetHistData: data or len is null");
  return oc::acl_dvpp::SetLive(h, Kind::kHist, __func__, [&](acldvppHist& live) {
    *data = live.counts[dim];
    *len = kLevels;
  });
}
uint32_t acldvppGetHistRetCode(acldvppHist* h) {
  return oc::acl_dvpp::GetLive<uint32_t>(h, Kind::kHist, 1u,
                                         [](const acldvppHist& live) { return live.ret_code; });
}
aclError acldvppClearHist(acldvppHist* h) {
  return oc::acl_dvpp::SetLive(h, Kind::kHist, __func__, [](acldvppHist& live) {
    std::memset(live.counts, 0, sizeof live.counts);
    live.ret_code = 0;
  });
}

aclError acldvppVpcCalcHistAsync(acldvppChannelDesc* ch, acldvppPicDesc* in, acldvppHist* hist,
                                 void* /*reserve: CANN's too*/, aclrtStream stream) {
  const oc::dvpp::Chip chip = oc::acl_dvpp::CurrentChip();
  if (OldChip(chip)) return oc::acl_dvpp::Unavailable(__func__, chip);
  Picture picture;
  if (aclError e = oc::acl_dvpp::BeginVpc(__func__, ch, in, nullptr, stream, &picture, nullptr))
    return e;
  // Counted apart, then added under the lock: the histogram may be read meanwhile.
  static_assert(sizeof(acldvppHist::counts) == kComponents * kLevels * sizeof(uint32_t));
  uint32_t counts[kComponents][kLevels] = {};
  const oc::Status s = oc::dvpp::CalcHist(picture, counts);
  if (!s.ok()) return FailStatus(s, __func__);
  return oc::acl_dvpp::SetLive(hist, Kind::kHist, __func__, [&](acldvppHist& live) {
    for (uint32_t c = 0; c < kComponents; ++c)
      for (uint32_t v = 0; v < kLevels; ++v) live.counts[c][v] += counts[c][v];
    live.ret_code = 0;
  });
}

aclError acldvppVpcEqualizeHistAsync(const acldvppChannelDesc* ch, const acldvppPicDesc* in,
                                     acldvppPicDesc* out, const acldvppLutMap* lut,
                                     aclrtStream stream) {
  const oc::dvpp::Chip chip = oc::acl_dvpp::CurrentChip();
  if (OldChip(chip)) return oc::acl_dvpp::Unavailable(__func__, chip);
  Picture pin, pout;
  if (aclError e = oc::acl_dvpp::BeginVpc(__func__, ch, in, out, stream, &pin, &pout)) return e;
  acldvppLutMap table;
  {
    std::lock_guard<std::mutex> lock(oc::acl_dvpp::Mutex());
    if (!lut || !oc::acl_dvpp::Live(lut, Kind::kLutMap))
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "acldvppVpcEqualizeHistAsync: lutMap is not a live handle");
    table = *lut;
  }
  const oc::Status s = oc::dvpp::RemapColors(pin, pout, table.map);
  if (!s.ok()) return FailStatus(s, __func__);
  oc::acl_dvpp::SetPicRetCode(out, 0);
  return ACL_SUCCESS;
}

aclError acldvppVpcPyrDownAsync(acldvppChannelDesc* ch, acldvppPicDesc* in, acldvppPicDesc* out,
                                void* /*reserve: CANN's too*/, aclrtStream stream) {
  const oc::dvpp::Chip chip = oc::acl_dvpp::CurrentChip();
  if (chip != oc::dvpp::Chip::k310P) return oc::acl_dvpp::Unavailable(__func__, chip);
  Picture pin, pout;
  if (aclError e = oc::acl_dvpp::BeginVpc(__func__, ch, in, out, stream, &pin, &pout)) return e;
  const oc::Status s = oc::dvpp::PyrDown(pin, pout);
  if (!s.ok()) return FailStatus(s, __func__);
  oc::acl_dvpp::SetPicRetCode(out, 0);
  return ACL_SUCCESS;
}

}  // extern "C"
