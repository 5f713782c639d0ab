// Cast, reductions, Compare and Select.
#pragma once

#include <algorithm>
#include <vector>

#include "ascendc/kernel_vector.h"

namespace AscendC {
namespace detail {

inline Rounding ToRounding(RoundMode m) {
  switch (m) {
    case RoundMode::CAST_FLOOR:
      return Rounding::kFloor;
    case RoundMode::CAST_CEIL:
      return Rounding::kCeil;
    case RoundMode::CAST_ROUND:
      return Rounding::kNearestAway;
    case RoundMode::CAST_TRUNC:
      return Rounding::kTrunc;
    case RoundMode::CAST_ODD:
      return Rounding::kOdd;
    default:
      return Rounding::kNearestEven;  // CAST_NONE, CAST_RINT
  }
}

inline double RoundTo(double v, RoundMode m) {
  switch (m) {
    case RoundMode::CAST_FLOOR:
      return std::floor(v);
    case RoundMode::CAST_CEIL:
      return std::ceil(v);
    case RoundMode::CAST_ROUND:
      return std::round(v);
    case RoundMode::CAST_TRUNC:
      return std::trunc(v);
    default:
      return std::nearbyint(v);  // CAST_NONE, CAST_RINT (ties to even)
  }
}

template <typename T>
double AsDouble(T v) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>)
    return float(v);
  else
    return static_cast<double>(v);
}

// One element converted as the vector unit converts it: float targets round with the
// mode at their precision, integer targets round then saturate.
template <typename D, typename S>
D Convert(S s, RoundMode mode) {
  const double v = AsDouble(s);
  if constexpr (std::is_same_v<D, half>) {
    // Through float: exact for half, bfloat16 and float sources.
    return half::FromBits(FloatToHalfBits(static_cast<float>(v), ToRounding(mode)));
  } else if constexpr (std::is_same_v<D, bfloat16_t>) {
    return bfloat16_t::FromBits(FloatToBf16Bits(static_cast<float>(v), ToRounding(mode)));
  } else if constexpr (std::is_floating_point_v<D>) {
    return static_cast<D>(v);
  } else {
    if (std::isnan(v)) return D(0);
    const double r = RoundTo(v, mode);
    if (r <= static_cast<double>(std::numeric_limits<D>::lowest()))
      return std::numeric_limits<D>::lowest();
    if (r >= static_cast<double>(std::numeric_limits<D>::max()))
      return std::numeric_limits<D>::max();
    return static_cast<D>(r);
  }
}

}  // namespace detail

template <typename D, typename S>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& roundMode,
          const uint32_t& count) {
  const char* api = "Cast";
  detail::CheckVector(dst, count, api, "destination");
  detail::CheckVector(src, count, api, "source");
  for (uint32_t i = 0; i < count; ++i)
    dst.GetPhyAddr()[i] = detail::Convert<D>(src.GetPhyAddr()[i], roundMode);
  detail::CountCycles(uint64_t(count) * std::max(sizeof(D), sizeof(S)));
}

// Mask/repeat form: per repeat the masked elements of one 256-byte stride of the wider type.
template <typename D, typename S>
void Cast(const LocalTensor<D>& dst, const LocalTensor<S>& src, const RoundMode& roundMode,
          uint64_t mask, detail::Repeat repeatTimes, const UnaryRepeatParams& params) {
  const char* api = "Cast";
  const int64_t n = detail::CheckRepeat(repeatTimes, api);
  detail::CheckVector(dst, 0, api, "destination");
  detail::CheckVector(src, 0, api, "source");
  // Elements per repeat follow the wider type; blocks are counted in each tensor's own type.
  using W = std::conditional_t<(sizeof(D) > sizeof(S)), D, S>;
  const auto sel = detail::ContinuousMask<W>(mask, api);
  const uint32_t per = detail::PerRepeat<W>(), pd = detail::PerBlock<D>(),
                 ps = detail::PerBlock<S>();
  const int64_t repeats = detail::RepeatsOf(sel, n, per);
  for (int64_t r = 0; r < repeats; ++r)
    for (uint32_t e = 0; e < per; ++e) {
      if (!detail::LaneOn(sel, r, e, per)) continue;
      const uint64_t di = (r * uint64_t(params.dstRepStride)) * pd + e;
      const uint64_t si = (r * uint64_t(params.srcRepStride)) * ps + e;
      detail::CheckIndex(dst, di, api, "destination");
      detail::CheckIndex(src, si, api, "source");
      dst.GetPhyAddr()[di] = detail::Convert<D>(src.GetPhyAddr()[si], roundMode);
    }
  detail::AddCycles(detail::Pipe::kVector, static_cast<double>(n));
}

namespace detail {
// The vector unit sums a repeat as a binary tree, adjacent pairs first, each partial sum
// rounded to the element type (so half sums lose what the NPU's lose); integer types sum
// exactly. The tree order follows CANN's description of WholeReduceSum; the hardware's
// exact pairing is not published.
template <typename T>
T TreeSum(std::vector<T>& v) {
  if (v.empty()) return static_cast<T>(0);
  size_t n = v.size();
  while (n > 1) {
    const size_t half_n = n / 2;
    for (size_t i = 0; i < half_n; ++i)
      v[i] = static_cast<T>(static_cast<Calc<T>>(AsDouble(v[2 * i]) + AsDouble(v[2 * i + 1])));
    if (n % 2) v[half_n] = v[n - 1];
    n = half_n + n % 2;
  }
  return v[0];
}
// A whole count of elements as the NPU reduces it: each 256-byte repeat summed as a tree,
// then the repeats' sums the same way, round after round, until one value is left.
template <typename T>
T RepeatTreeSum(const T* data, uint64_t count) {
  const size_t per = 256 / sizeof(T);
  std::vector<T> level(data, data + count);
  while (level.size() > 1) {
    std::vector<T> next;
    for (size_t at = 0; at < level.size(); at += per) {
      std::vector<T> chunk(level.begin() + at, level.begin() + std::min(level.size(), at + per));
      next.push_back(TreeSum(chunk));
    }
    level.swap(next);
  }
  return level.empty() ? static_cast<T>(0) : level[0];
}
}  // namespace detail

namespace detail {
// The result register ReduceSum's count form leaves, per block (blocks are threads).
inline double& LastReduceSum() {
  static thread_local double value = 0;
  return value;
}
}  // namespace detail

// Whole-tensor reductions: dst[0] = result (ReduceMax/Min with calIndex: dst[1] holds the
// index's bits, as the hardware stores it).
template <typename T, bool isSetMask = true>  // isSetMask: the mask forms' flag, accepted here too
void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               const int32_t count) {
  const char* api = "ReduceSum";
  // A reduction's result needs only its element's alignment (CANN documents 2 bytes for half,
  // 4 for float), not the 32 bytes of other vector operands.
  detail::CheckVector(dst, 1, api, "destination", sizeof(T));
  detail::CheckVector(src, count, api, "source");
  (void)work;
  dst.GetPhyAddr()[0] =
      detail::RepeatTreeSum(src.GetPhyAddr(), uint64_t(std::max<int32_t>(count, 0)));
  detail::LastReduceSum() = detail::AsDouble(dst.GetPhyAddr()[0]);
  detail::CountCycles(uint64_t(count) * sizeof(T) * 2);
}

namespace detail {
template <typename T, typename Better>
void ReduceBest(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count, bool index,
                Better better, const char* api) {
  CheckVector(dst, index ? 2 : 1, api, "destination", sizeof(T));
  CheckVector(src, count, api, "source");
  if (count <= 0) Fault(api, "count must be positive");
  int32_t best = 0;
  for (int32_t i = 1; i < count; ++i)
    if (better(AsDouble(src.GetPhyAddr()[i]), AsDouble(src.GetPhyAddr()[best]))) best = i;
  dst.GetPhyAddr()[0] = src.GetPhyAddr()[best];
  if (index) {
    if constexpr (sizeof(T) == 2) {
      const uint16_t bits = static_cast<uint16_t>(best);
      std::memcpy(&dst.GetPhyAddr()[1], &bits, 2);
    } else if constexpr (sizeof(T) == 4) {
      const uint32_t bits = static_cast<uint32_t>(best);
      std::memcpy(&dst.GetPhyAddr()[1], &bits, 4);
    }
  }
  CountCycles(uint64_t(count) * sizeof(T) * 2);
}
}  // namespace detail

template <typename T, bool isSetMask = true>  // isSetMask: the mask forms' flag, accepted here too
void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               const int32_t count, bool calIndex = false) {
  (void)work;
  detail::ReduceBest(
      dst, src, count, calIndex, [](double a, double b) { return a > b; }, "ReduceMax");
}
template <typename T, bool isSetMask = true>  // isSetMask: the mask forms' flag, accepted here too
void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work,
               const int32_t count, bool calIndex = false) {
  (void)work;
  detail::ReduceBest(
      dst, src, count, calIndex, [](double a, double b) { return a < b; }, "ReduceMin");
}

namespace detail {
// The mask forms: the elements the mask selects in each of repeatTime repeats (repeat r
// starting srcRepStride blocks after r - 1) are reduced to one value and its offset in src.
template <typename T, typename Better>
void ReduceBestRepeat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const MaskSel<T>& sel,
                      int32_t repeatTime, int32_t srcRepStride, bool index, Better better,
                      const char* api) {
  if (repeatTime < 1 || repeatTime > 255)
    Fault(api, "repeatTime " + std::to_string(repeatTime) + " is out of 1..255");
  if (srcRepStride < 0) Fault(api, "srcRepStride must not be negative");
  CheckVector(dst, index ? 2 : 1, api, "destination", sizeof(T));
  CheckVector(src, 0, api, "source");
  const uint32_t per = PerRepeat<T>(), pb = PerBlock<T>();
  int64_t best = -1;
  const int64_t repeats = RepeatsOf(sel, repeatTime, per);
  for (int64_t r = 0; r < repeats; ++r)
    for (uint32_t e = 0; e < per; ++e) {
      if (!LaneOn(sel, r, e, per)) continue;
      const uint64_t i = uint64_t(r) * srcRepStride * pb + e;
      CheckIndex(src, i, api, "source");
      if (best < 0 || better(AsDouble(src.GetPhyAddr()[i]), AsDouble(src.GetPhyAddr()[best])))
        best = static_cast<int64_t>(i);
    }
  if (best < 0) Fault(api, "the mask selects no element");
  dst.GetPhyAddr()[0] = src.GetPhyAddr()[best];
  if (index) {
    if constexpr (sizeof(T) == 2) {
      const uint16_t bits = static_cast<uint16_t>(best);
      std::memcpy(&dst.GetPhyAddr()[1], &bits, 2);
    } else if constexpr (sizeof(T) == 4) {
      const uint32_t bits = static_cast<uint32_t>(best);
      std::memcpy(&dst.GetPhyAddr()[1], &bits, 4);
    }
  }
  AddCycles(Pipe::kVector, 2.0 * repeatTime);
}
}  // namespace detail

#define OC_ASCENDC_REDUCE_MASK_FORMS(Name, cmp)                                               \
  template <typename T>                                                                       \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, \
            const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride,      \
            bool calIndex = false) {                                                          \
    (void)work;                                                                               \
    detail::ReduceBestRepeat(                                                                 \
        dst, src, detail::BitMask<T>(mask, #Name), repeatTime, srcRepStride, calIndex,        \
        [](double a, double b) { return a cmp b; }, #Name);                                   \
  }                                                                                           \
  template <typename T>                                                                       \
  void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, \
            const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride,         \
            bool calIndex = false) {                                                          \
    (void)work;                                                                               \
    detail::MaskSel<T> sel;                                                                   \
    if (mask < 1 || static_cast<uint32_t>(mask) > detail::PerRepeat<T>())                     \
      detail::Fault(#Name, "mask " + std::to_string(mask) + " must be 1.." +                  \
                               std::to_string(detail::PerRepeat<T>()));                       \
    sel.count = static_cast<uint64_t>(mask);                                                  \
    detail::ReduceBestRepeat(                                                                 \
        dst, src, sel, repeatTime, srcRepStride, calIndex,                                    \
        [](double a, double b) { return a cmp b; }, #Name);                                   \
  }
OC_ASCENDC_REDUCE_MASK_FORMS(ReduceMax, >)
OC_ASCENDC_REDUCE_MASK_FORMS(ReduceMin, <)
#undef OC_ASCENDC_REDUCE_MASK_FORMS

// Per repeat: the sum of the masked elements -> dst[r * dstRepStride].
template <typename T, bool isSetMask = true>
void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,
                    detail::Repeat repeatTimes, int32_t dstRepStride, int32_t srcBlkStride,
                    int32_t srcRepStride) {
  const char* api = "WholeReduceSum";
  const int64_t n = detail::CheckRepeat(repeatTimes, api);
  const auto sel = detail::ContinuousMask<T>(mask, api);
  detail::CheckVector(dst, 0, api, "destination", sizeof(T));  // element-aligned, as documented
  detail::CheckVector(src, 0, api, "source");
  const uint32_t pb = detail::PerBlock<T>(), per = detail::PerRepeat<T>();
  const int64_t repeats = detail::RepeatsOf(sel, n, per);
  for (int64_t r = 0; r < repeats; ++r) {
    // Every lane keeps its place in the tree; a masked-off lane adds zero.
    std::vector<T> lanes(per, static_cast<T>(0));
    for (uint32_t e = 0; e < per; ++e) {
      if (!detail::LaneOn(sel, r, e, per)) continue;
      const uint64_t i =
          (r * uint64_t(srcRepStride) + (e / pb) * uint64_t(srcBlkStride)) * pb + e % pb;
      detail::CheckIndex(src, i, api, "source");
      lanes[e] = src.GetPhyAddr()[i];
    }
    const uint64_t d = r * uint64_t(dstRepStride);
    detail::CheckIndex(dst, d, api, "destination");
    dst.GetPhyAddr()[d] = detail::TreeSum(lanes);
  }
  detail::AddCycles(detail::Pipe::kVector, static_cast<double>(2 * repeats));
}

// Per repeat and 32-byte block: the block's masked sum -> dst[r * dstRepStride * 8 + block]:
// dstRepStride counts one repeat's reduced length (8 elements: 16 bytes of half, 32 of
// float), as CANN documents it; 1 lays the repeats' results end to end.
template <typename T, bool isSetMask = true>
void BlockReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                    detail::Repeat repeatTimes, uint64_t mask, int32_t dstRepStride,
                    int32_t srcBlkStride, int32_t srcRepStride) {
  const char* api = "BlockReduceSum";
  const int64_t n = detail::CheckRepeat(repeatTimes, api);
  const auto sel = detail::ContinuousMask<T>(mask, api);
  const uint32_t pb = detail::PerBlock<T>();
  const uint32_t per = detail::PerRepeat<T>(), blocks = per / pb;
  const int64_t repeats = detail::RepeatsOf(sel, n, per);
  for (int64_t r = 0; r < repeats; ++r)
    for (uint32_t b = 0; b < blocks; ++b) {
      double acc = 0;
      for (uint32_t w = 0; w < pb; ++w) {
        if (!detail::LaneOn(sel, r, b * pb + w, per)) continue;
        const uint64_t i = (r * uint64_t(srcRepStride) + b * uint64_t(srcBlkStride)) * pb + w;
        detail::CheckIndex(src, i, api, "source");
        acc += detail::AsDouble(src.GetPhyAddr()[i]);
      }
      const uint64_t d = r * uint64_t(dstRepStride) * blocks + b;
      detail::CheckIndex(dst, d, api, "destination");
      dst.GetPhyAddr()[d] = static_cast<T>(static_cast<detail::Calc<T>>(acc));
    }
  detail::AddCycles(detail::Pipe::kVector, static_cast<double>(repeats));
}

namespace detail {
inline bool CompareOp(double a, double b, CMPMODE m) {
  switch (m) {
    case CMPMODE::LT:
      return a < b;
    case CMPMODE::GT:
      return a > b;
    case CMPMODE::EQ:
      return a == b;
    case CMPMODE::LE:
      return a <= b;
    case CMPMODE::GE:
      return a >= b;
    case CMPMODE::NE:
      return a != b;
  }
  return false;
}
template <typename U>
void SetBit(const LocalTensor<U>& dst, uint32_t i, bool on) {
  auto* bytes = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  if (on)
    bytes[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  else
    bytes[i / 8] &= static_cast<uint8_t>(~(1u << (i % 8)));
}
template <typename U>
bool GetBit(const LocalTensor<U>& m, uint32_t i) {
  return (reinterpret_cast<const uint8_t*>(m.GetPhyAddr())[i / 8] >> (i % 8)) & 1;
}
}  // namespace detail

// Result bits, one per element, least significant bit first.
template <typename T, typename U>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, uint32_t count) {
  const char* api = "Compare";
  detail::CheckVector(src0, count, api, "source 0");
  detail::CheckVector(src1, count, api, "source 1");
  detail::CheckLocalRange(dst, 0, (count + 7) / 8, api, "destination");
  for (uint32_t i = 0; i < count; ++i)
    detail::SetBit(dst, i,
                   detail::CompareOp(detail::AsDouble(src0.GetPhyAddr()[i]),
                                     detail::AsDouble(src1.GetPhyAddr()[i]), cmpMode));
  detail::CountCycles(uint64_t(count) * sizeof(T));
}

template <typename T, typename U>
void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,
              CMPMODE cmpMode, uint32_t count) {
  const char* api = "Compares";
  detail::CheckVector(src0, count, api, "source");
  detail::CheckLocalRange(dst, 0, (count + 7) / 8, api, "destination");
  for (uint32_t i = 0; i < count; ++i)
    detail::SetBit(dst, i,
                   detail::CompareOp(detail::AsDouble(src0.GetPhyAddr()[i]),
                                     detail::AsDouble(src1Scalar), cmpMode));
  detail::CountCycles(uint64_t(count) * sizeof(T));
}

// CompareScalar: the newer name of Compares' count form.
template <typename T, typename U>
void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,
                   CMPMODE cmpMode, uint32_t count) {
  Compares(dst, src0, src1Scalar, cmpMode, count);
}

// dst[i] = bit i of selMask ? src0[i] : src1[i] (or the scalar). In VSEL_CMPMASK_SPR mode
// the mask holds one repeat's bits (256 / sizeof(T)) and every repeat uses the same ones.
template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint32_t count) {
  const char* api = "Select";
  const bool one_repeat = selMode == SELMODE::VSEL_CMPMASK_SPR;
  const uint32_t per = detail::PerRepeat<T>();
  detail::CheckVector(dst, count, api, "destination");
  detail::CheckVector(src0, count, api, "source 0");
  detail::CheckVector(src1, count, api, "source 1");
  detail::CheckLocalRange(selMask, 0, ((one_repeat ? std::min(count, per) : count) + 7) / 8, api,
                          "mask");
  for (uint32_t i = 0; i < count; ++i)
    dst.GetPhyAddr()[i] = detail::GetBit(selMask, one_repeat ? i % per : i) ? src0.GetPhyAddr()[i]
                                                                            : src1.GetPhyAddr()[i];
  detail::CountCycles(uint64_t(count) * sizeof(T));
}

template <typename T, typename U>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            T src1, SELMODE selMode, uint32_t count) {
  const char* api = "Select";
  (void)selMode;
  detail::CheckVector(dst, count, api, "destination");
  detail::CheckVector(src0, count, api, "source 0");
  detail::CheckLocalRange(selMask, 0, (count + 7) / 8, api, "mask");
  for (uint32_t i = 0; i < count; ++i)
    dst.GetPhyAddr()[i] = detail::GetBit(selMask, i) ? src0.GetPhyAddr()[i] : src1;
  detail::CountCycles(uint64_t(count) * sizeof(T));
}

namespace detail {
// The repeat forms of Compare and Select: f(r, e, dst index, src0 index, src1 index) for each
// element e the mask selects in repeat r; bit r * (elements per repeat) + e is the element's
// place in the bit mask (lanes the mask leaves out produce 0 bits).
template <typename T, typename F>
void ForMaskedRepeats(const MaskSel<T>& sel, const Repeat& repeat, const BinaryRepeatParams& p,
                      const char* api, F&& f) {
  const uint32_t per = PerRepeat<T>(), pb = PerBlock<T>();
  const int64_t n = RepeatsOf(sel, CheckRepeat(repeat, api), per);
  for (int64_t r = 0; r < n; ++r)
    for (uint32_t e = 0; e < per; ++e) {
      const uint32_t b = e / pb, w = e % pb;
      auto at = [&](uint32_t blk, uint32_t rep) {
        return (r * uint64_t{rep} + b * uint64_t{blk}) * pb + w;
      };
      f(r, e, LaneOn(sel, r, e, per), at(p.dstBlkStride, p.dstRepStride),
        at(p.src0BlkStride, p.src0RepStride), at(p.src1BlkStride, p.src1RepStride));
    }
  AddCycles(Pipe::kVector, static_cast<double>(n));
}

template <typename T, typename U>
void CompareRepeat(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, CMPMODE m, const MaskSel<T>& sel,
                   const Repeat& repeat, const BinaryRepeatParams& p) {
  const char* api = "Compare";
  CheckVector(src0, 0, api, "source 0");
  CheckVector(src1, 0, api, "source 1");
  const uint64_t bits = uint64_t(CheckRepeat(repeat, api)) * PerRepeat<T>();
  CheckLocalRange(dst, 0, (bits + 7) / 8, api, "destination");
  ForMaskedRepeats(
      sel, repeat, p, api, [&](int64_t r, uint32_t e, bool on, uint64_t, uint64_t a, uint64_t b) {
        bool v = false;
        if (on) {
          CheckIndex(src0, a, api, "source 0");
          CheckIndex(src1, b, api, "source 1");
          v = CompareOp(AsDouble(src0.GetPhyAddr()[a]), AsDouble(src1.GetPhyAddr()[b]), m);
        }
        SetBit(dst, static_cast<uint32_t>(r * PerRepeat<T>() + e), v);
      });
}

template <typename T, typename U, typename Other>
void SelectRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& selMask,
                  const LocalTensor<T>& src0, Other other, const MaskSel<T>& sel,
                  const Repeat& repeat, const BinaryRepeatParams& p) {
  const char* api = "Select";
  CheckVector(dst, 0, api, "destination");
  CheckVector(src0, 0, api, "source 0");
  const uint64_t bits = uint64_t(CheckRepeat(repeat, api)) * PerRepeat<T>();
  CheckLocalRange(selMask, 0, (bits + 7) / 8, api, "mask");
  ForMaskedRepeats(
      sel, repeat, p, api, [&](int64_t r, uint32_t e, bool on, uint64_t d, uint64_t a, uint64_t b) {
        if (!on) return;
        CheckIndex(dst, d, api, "destination");
        CheckIndex(src0, a, api, "source 0");
        const bool pick = GetBit(selMask, static_cast<uint32_t>(r * PerRepeat<T>() + e));
        dst.GetPhyAddr()[d] = pick ? src0.GetPhyAddr()[a] : other(b);
      });
}
}  // namespace detail

// Repeat forms: a continuous mask (the first `mask` lanes) or bit masks, BinaryRepeatParams.
template <typename T, typename U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTimes,
             const BinaryRepeatParams& repeatParams) {
  detail::CompareRepeat(dst, src0, src1, cmpMode, detail::ContinuousMask<T>(mask, "Compare"),
                        repeatTimes, repeatParams);
}
template <typename T, typename U, bool isSetMask = true>
void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
             CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTimes,
             const BinaryRepeatParams& repeatParams) {
  detail::CompareRepeat(dst, src0, src1, cmpMode, detail::BitMask<T>(mask, "Compare"), repeatTimes,
                        repeatParams);
}
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            T src1, SELMODE selMode, uint64_t mask, uint8_t repeatTimes,
            const BinaryRepeatParams& repeatParams) {
  (void)selMode;
  detail::SelectRepeat(
      dst, selMask, src0, [src1](uint64_t) { return src1; },
      detail::ContinuousMask<T>(mask, "Select"), repeatTimes, repeatParams);
}
template <typename T, typename U, bool isSetMask = true>
void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
            const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTimes,
            const BinaryRepeatParams& repeatParams) {
  (void)selMode;
  detail::CheckVector(src1, 0, "Select", "source 1");
  detail::SelectRepeat(
      dst, selMask, src0,
      [&src1](uint64_t i) {
        detail::CheckIndex(src1, i, "Select", "source 1");
        return src1.GetPhyAddr()[i];
      },
      detail::ContinuousMask<T>(mask, "Select"), repeatTimes, repeatParams);
}

// dcci: cleans a data-cache line so scalar writes to GM reach memory before a DMA reads it.
// The CPU's caches are coherent, so it has nothing to do here (a missing dcci is not found).
enum cache_line_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE = 1 };
enum dcci_dst_t { CACHELINE_ALL = 0, CACHELINE_UB = 1, CACHELINE_OUT = 2, CACHELINE_ATOMIC = 3 };
inline void dcci(__gm__ const void*, int /* cache_line_t */) {}
inline void dcci(__gm__ const void*, int /* cache_line_t */, int /* dcci_dst_t */) {}
// DataCacheCleanAndInvalid: the API form of dcci (the same: nothing to do on a coherent CPU).
enum class CacheLine { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE = 1 };
enum class DcciDst { CACHELINE_ALL = 0, CACHELINE_UB = 1, CACHELINE_OUT = 2, CACHELINE_ATOMIC = 3 };
template <typename T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {}
template <typename T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const LocalTensor<T>&) {}
template <typename T, CacheLine entireType>
void DataCacheCleanAndInvalid(const GlobalTensor<T>&) {}

// The last count-form ReduceSum's result, kept in a register (GetAccVal: the older name).
template <typename T>
T GetReduceRepeatSumSpr() {
  return static_cast<T>(static_cast<detail::Calc<T>>(detail::LastReduceSum()));
}
template <typename T>
T GetAccVal() {
  return GetReduceRepeatSumSpr<T>();
}

// Sum of the advanced API: each of `outter` rows of `inner` stored elements sums its first
// n into dst[row], adding as ReduceSum does (a binary tree per 256-byte repeat).
struct SumParams {
  uint32_t outter = 1;
  uint32_t inner = 0;
  uint32_t n = 0;
};
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const SumParams& sumParams) {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Sum takes half or float");
  const char* api = "Sum";
  const uint32_t outter = sumParams.outter, inner = sumParams.inner, n = sumParams.n;
  if (outter == 0 || inner == 0 || inner * sizeof(T) % 32 != 0)
    detail::Fault(api, "SumParams: inner " + std::to_string(inner) +
                           " must be a positive count of 32 bytes, outter positive");
  if (n < 1 || n > inner)
    detail::Fault(api, "SumParams.n " + std::to_string(n) + " is not in 1..inner");
  detail::CheckVector(srcTensor, uint64_t(outter) * inner, api, "source");
  detail::CheckVector(dstTensor, outter, api, "destination");
  std::vector<T> results(outter);
  for (uint32_t r = 0; r < outter; ++r)
    results[r] = detail::RepeatTreeSum(srcTensor.GetPhyAddr() + uint64_t(r) * inner, n);
  for (uint32_t r = 0; r < outter; ++r) dstTensor.GetPhyAddr()[r] = results[r];
  detail::CountCycles(uint64_t(outter) * inner * sizeof(T) * 2);
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
         const LocalTensor<uint8_t>& sharedTmpBuffer, const SumParams& sumParams) {
  (void)sharedTmpBuffer;  // the emulation computes without it
  Sum<T, reduceDim, isReuseSource, isBasicBlock>(dstTensor, srcTensor, sumParams);
}

}  // namespace AscendC

using AscendC::dcci;
