// The per-repeat reductions of the basic API: WholeReduceMax/Min (with the index, in the
// order asked), BlockReduceMax/Min, PairReduceSum, and CANN 9's names for the family,
// ReduceRepeat, ReduceDataBlock and ReducePairElem (ReduceType SUM, MAX, MIN).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ascendc/kernel_reduce.h"

namespace AscendC {

enum class ReduceType { SUM, MAX, MIN };
// Where a max/min reduction puts the value and its index (the lane within the repeat).
enum class ReduceOrder { ORDER_VALUE_INDEX, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };

namespace detail {

template <typename T>
void PutIndexBits(T* slot, uint32_t index) {
  if constexpr (sizeof(T) == 2) {
    const uint16_t bits = static_cast<uint16_t>(index);
    std::memcpy(static_cast<void*>(slot), &bits, 2);
  } else {
    std::memcpy(static_cast<void*>(slot), &index, sizeof(uint32_t));
  }
}

// The masked lanes of repeat r in lane order: (lane, element offset in src).
template <typename T>
std::vector<std::pair<uint32_t, uint64_t>> RepeatLanes(const MaskSel<T>& sel, int64_t r,
                                                       int32_t srcBlkStride, int32_t srcRepStride,
                                                       uint32_t first, uint32_t count) {
  const uint32_t pb = PerBlock<T>(), per = PerRepeat<T>();
  std::vector<std::pair<uint32_t, uint64_t>> lanes;
  for (uint32_t e = first; e < first + count; ++e) {
    if (!LaneOn(sel, r, e, per)) continue;
    lanes.push_back(
        {e, (r * uint64_t(srcRepStride) + (e / pb) * uint64_t(srcBlkStride)) * pb + e % pb});
  }
  return lanes;
}

// Whole repeats to one max or min (and its lane), laid out by `order`.
template <typename T>
void WholeBest(const LocalTensor<T>& dst, const LocalTensor<T>& src, const MaskSel<T>& sel,
               int64_t repeats_asked, int32_t dstRepStride, int32_t srcBlkStride,
               int32_t srcRepStride, ReduceOrder order, bool max, const char* api) {
  CheckVector(dst, 0, api, "destination", sizeof(T));
  CheckVector(src, 0, api, "source");
  const uint32_t per = PerRepeat<T>();
  const int64_t repeats = RepeatsOf(sel, repeats_asked, per);
  for (int64_t r = 0; r < repeats; ++r) {
    const auto lanes = RepeatLanes(sel, r, srcBlkStride, srcRepStride, 0, per);
    if (lanes.empty()) continue;
    uint32_t best_lane = lanes[0].first;
    uint64_t best = lanes[0].second;
    CheckIndex(src, best, api, "source");
    for (const auto& [lane, i] : lanes) {
      CheckIndex(src, i, api, "source");
      const double v = AsDouble(src.GetPhyAddr()[i]), b = AsDouble(src.GetPhyAddr()[best]);
      if (max ? v > b : v < b) best = i, best_lane = lane;
    }
    const T value = src.GetPhyAddr()[best];
    switch (order) {
      case ReduceOrder::ORDER_VALUE_INDEX:
      case ReduceOrder::ORDER_INDEX_VALUE: {
        const uint64_t d = uint64_t(r) * dstRepStride * 2;  // units of two elements
        CheckIndex(dst, d + 1, api, "destination");
        const bool value_first = order == ReduceOrder::ORDER_VALUE_INDEX;
        dst.GetPhyAddr()[value_first ? d : d + 1] = value;
        PutIndexBits(&dst.GetPhyAddr()[value_first ? d + 1 : d], best_lane);
        break;
      }
      case ReduceOrder::ORDER_ONLY_VALUE: {
        const uint64_t d = uint64_t(r) * dstRepStride;
        CheckIndex(dst, d, api, "destination");
        dst.GetPhyAddr()[d] = value;
        break;
      }
      case ReduceOrder::ORDER_ONLY_INDEX: {
        const uint64_t byte = uint64_t(r) * dstRepStride * 4;  // units of uint32_t
        CheckIndex(dst, (byte + 4 + sizeof(T) - 1) / sizeof(T) - 1, api, "destination");
        std::memcpy(reinterpret_cast<uint8_t*>(dst.GetPhyAddr()) + byte, &best_lane, 4);
        break;
      }
    }
  }
  AddCycles(Pipe::kVector, 2.0 * double(repeats));
}

// Each 32-byte block of each repeat to one value: dst[r * dstRepStride * 8 + block].
template <typename T>
void BlockBest(const LocalTensor<T>& dst, const LocalTensor<T>& src, const MaskSel<T>& sel,
               int64_t repeats_asked, int32_t dstRepStride, int32_t srcBlkStride,
               int32_t srcRepStride, ReduceType type, const char* api) {
  CheckVector(dst, 0, api, "destination", sizeof(T));
  CheckVector(src, 0, api, "source");
  const uint32_t pb = PerBlock<T>(), per = PerRepeat<T>(), blocks = per / pb;
  const int64_t repeats = RepeatsOf(sel, repeats_asked, per);
  for (int64_t r = 0; r < repeats; ++r)
    for (uint32_t b = 0; b < blocks; ++b) {
      const auto lanes = RepeatLanes(sel, r, srcBlkStride, srcRepStride, b * pb, pb);
      if (lanes.empty()) continue;  // a block with no lane leaves its result (Atlas A2)
      std::vector<T> values;
      for (const auto& [lane, i] : lanes) {
        CheckIndex(src, i, api, "source");
        values.push_back(src.GetPhyAddr()[i]);
      }
      T out = values[0];
      if (type == ReduceType::SUM) {
        out = TreeSum(values);
      } else {
        for (const T& v : values)
          if (type == ReduceType::MAX ? AsDouble(v) > AsDouble(out) : AsDouble(v) < AsDouble(out))
            out = v;
      }
      const uint64_t d = uint64_t(r) * dstRepStride * blocks + b;
      CheckIndex(dst, d, api, "destination");
      dst.GetPhyAddr()[d] = out;
    }
  AddCycles(Pipe::kVector, double(repeats));
}

// Adjacent pairs of each repeat summed: dst[r * dstRepStride * (per / 2) + pair].
template <typename T>
void PairSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const MaskSel<T>& sel,
             int64_t repeats_asked, int32_t dstRepStride, int32_t srcBlkStride,
             int32_t srcRepStride, const char* api) {
  CheckVector(dst, 0, api, "destination", sizeof(T));
  CheckVector(src, 0, api, "source");
  const uint32_t per = PerRepeat<T>(), half_per = per / 2;
  const int64_t repeats = RepeatsOf(sel, repeats_asked, per);
  for (int64_t r = 0; r < repeats; ++r)
    for (uint32_t p = 0; p < half_per; ++p) {
      const auto lanes = RepeatLanes(sel, r, srcBlkStride, srcRepStride, 2 * p, 2);
      if (lanes.empty()) continue;
      std::vector<T> values;
      for (const auto& [lane, i] : lanes) {
        CheckIndex(src, i, api, "source");
        values.push_back(src.GetPhyAddr()[i]);
      }
      const uint64_t d = uint64_t(r) * dstRepStride * half_per + p;
      CheckIndex(dst, d, api, "destination");
      dst.GetPhyAddr()[d] = TreeSum(values);
    }
  AddCycles(Pipe::kVector, double(repeats));
}

// A count mask as the other vector calls read it: 0 is MASK_PLACEHOLDER (SetVectorMask's
// mask applies), and in counter mode the count runs across repeats.
template <typename T>
MaskSel<T> CountMask(int32_t mask, const char* api) {
  if (mask < 0) Fault(api, "mask " + std::to_string(mask) + " must not be negative");
  return ContinuousMask<T>(static_cast<uint64_t>(mask), api);
}

}  // namespace detail

#define OC_ASCENDC_WHOLE_BEST(Name, is_max)                                                   \
  template <typename T, bool isSetMask = true>                                                \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,         \
            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride, \
            const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) { \
    detail::WholeBest(dst, src, detail::CountMask<T>(mask, #Name),                            \
                      detail::CheckRepeat(repeatTime, #Name), dstRepStride, srcBlkStride,     \
                      srcRepStride, order, is_max, #Name);                                    \
  }                                                                                           \
  template <typename T, bool isSetMask = true>                                                \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],      \
            const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride, \
            const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) { \
    detail::WholeBest(dst, src, detail::BitMask<T>(mask, #Name),                              \
                      detail::CheckRepeat(repeatTime, #Name), dstRepStride, srcBlkStride,     \
                      srcRepStride, order, is_max, #Name);                                    \
  }
OC_ASCENDC_WHOLE_BEST(WholeReduceMax, true)
OC_ASCENDC_WHOLE_BEST(WholeReduceMin, false)
#undef OC_ASCENDC_WHOLE_BEST

#define OC_ASCENDC_BLOCK_BEST(Name, type)                                                   \
  template <typename T, bool isSetMask = true>                                              \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, \
            const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,     \
            const int32_t srcRepStride) {                                                   \
    detail::BlockBest(dst, src, detail::CountMask<T>(mask, #Name),                          \
                      detail::CheckRepeat(repeatTime, #Name), dstRepStride, srcBlkStride,   \
                      srcRepStride, type, #Name);                                           \
  }                                                                                         \
  template <typename T, bool isSetMask = true>                                              \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, \
            const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,  \
            const int32_t srcRepStride) {                                                   \
    detail::BlockBest(dst, src, detail::BitMask<T>(mask, #Name),                            \
                      detail::CheckRepeat(repeatTime, #Name), dstRepStride, srcBlkStride,   \
                      srcRepStride, type, #Name);                                           \
  }
OC_ASCENDC_BLOCK_BEST(BlockReduceMax, ReduceType::MAX)
OC_ASCENDC_BLOCK_BEST(BlockReduceMin, ReduceType::MIN)
#undef OC_ASCENDC_BLOCK_BEST

template <typename T, bool isSetMask = true>
void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                   const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,
                   const int32_t srcRepStride) {
  detail::PairSum(dst, src, detail::CountMask<T>(mask, "PairReduceSum"),
                  detail::CheckRepeat(repeatTime, "PairReduceSum"), dstRepStride, srcBlkStride,
                  srcRepStride, "PairReduceSum");
}
template <typename T, bool isSetMask = true>
void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                   const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,
                   const int32_t srcRepStride) {
  detail::PairSum(dst, src, detail::BitMask<T>(mask, "PairReduceSum"),
                  detail::CheckRepeat(repeatTime, "PairReduceSum"), dstRepStride, srcBlkStride,
                  srcRepStride, "PairReduceSum");
}

// CANN 9's names: the reduction as a template argument, mask before repeatTime.
template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true, typename M>
void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const M mask,
                  const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                  const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {
  static_assert(std::is_same_v<T, U>, "ReduceRepeat: OpenCANN reduces within one data type");
  const char* api = "ReduceRepeat";
  detail::MaskSel<T> sel;
  if constexpr (std::is_pointer_v<M>)
    sel = detail::BitMask<T>(mask, api);
  else
    sel = detail::CountMask<T>(static_cast<int32_t>(mask), api);
  const int64_t n = detail::CheckRepeat(repeatTime, api);
  if constexpr (reduceType == ReduceType::SUM) {
    // One sum per repeat, as WholeReduceSum adds.
    detail::CheckVector(dst, 0, api, "destination", sizeof(T));
    const uint32_t per = detail::PerRepeat<T>();
    const int64_t repeats = detail::RepeatsOf(sel, n, per);
    for (int64_t r = 0; r < repeats; ++r) {
      std::vector<T> lanes(per, static_cast<T>(0));
      for (const auto& [lane, i] :
           detail::RepeatLanes(sel, r, srcBlkStride, srcRepStride, 0, per)) {
        detail::CheckIndex(src, i, api, "source");
        lanes[lane] = src.GetPhyAddr()[i];
      }
      const uint64_t d = uint64_t(r) * dstRepStride;
      detail::CheckIndex(dst, d, api, "destination");
      dst.GetPhyAddr()[d] = detail::TreeSum(lanes);
    }
    detail::AddCycles(detail::Pipe::kVector, 2.0 * double(repeats));
  } else {
    detail::WholeBest(dst, src, sel, n, dstRepStride, srcBlkStride, srcRepStride, order,
                      reduceType == ReduceType::MAX, api);
  }
}
template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true, typename M>
void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const M mask,
                     const int32_t repeatTime, const int32_t dstRepStride,
                     const int32_t srcBlkStride, const int32_t srcRepStride) {
  static_assert(std::is_same_v<T, U>, "ReduceDataBlock: OpenCANN reduces within one data type");
  const char* api = "ReduceDataBlock";
  detail::MaskSel<T> sel;
  if constexpr (std::is_pointer_v<M>)
    sel = detail::BitMask<T>(mask, api);
  else
    sel = detail::CountMask<T>(static_cast<int32_t>(mask), api);
  detail::BlockBest(dst, src, sel, detail::CheckRepeat(repeatTime, api), dstRepStride, srcBlkStride,
                    srcRepStride, reduceType, api);
}
template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true, typename M>
void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const M mask,
                    const int32_t repeatTime, const int32_t dstRepStride,
                    const int32_t srcBlkStride, const int32_t srcRepStride) {
  static_assert(reduceType == ReduceType::SUM, "ReducePairElem sums (ReduceType::SUM)");
  static_assert(std::is_same_v<T, U>, "ReducePairElem: OpenCANN reduces within one data type");
  const char* api = "ReducePairElem";
  detail::MaskSel<T> sel;
  if constexpr (std::is_pointer_v<M>)
    sel = detail::BitMask<T>(mask, api);
  else
    sel = detail::CountMask<T>(static_cast<int32_t>(mask), api);
  detail::PairSum(dst, src, sel, detail::CheckRepeat(repeatTime, api), dstRepStride, srcBlkStride,
                  srcRepStride, api);
}

}  // namespace AscendC
