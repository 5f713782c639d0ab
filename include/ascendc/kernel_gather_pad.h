// Gather (elements at byte offsets), CreateVecIndex, GatherMask (keep the elements a bit
// pattern selects, packed) and Pad/UnPad (the width axis of a [height, width] tensor in UB),
// as CANN's vector APIs define them.
#pragma once

#include <cstring>
#include <string>

#include "ascendc/kernel_vector.h"
#include "kernel_tiling/kernel_tiling.h"

namespace AscendC {

struct GatherMaskParams {
  uint8_t src0BlockStride = 1;
  uint16_t repeatTimes = 1;
  uint16_t src0RepeatStride = 8;
  uint8_t src1RepeatStride = 8;
  GatherMaskParams() = default;
  GatherMaskParams(uint8_t blk, uint16_t repeats, uint16_t rep0, uint8_t rep1)
      : src0BlockStride(blk),
        repeatTimes(repeats),
        src0RepeatStride(rep0),
        src1RepeatStride(rep1) {}
};
enum class GatherMaskMode : uint8_t { V1, V2 };
inline constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::V1;

namespace detail {

// Walks the elements of GatherMask's repeats: normal mode 256 bytes a repeat, counter mode
// `mask` elements a repeat; keep(r, e) says whether element e of repeat r stays.
template <typename T, typename Keep>
uint64_t GatherWalk(const LocalTensor<T>& dst, const LocalTensor<T>& src, bool counter,
                    uint32_t mask, const GatherMaskParams& p, Keep keep, const char* api) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GatherMask takes 16- or 32-bit elements");
  if (p.repeatTimes > 255)
    Fault(api, "repeatTimes " + std::to_string(p.repeatTimes) + " is out of 0..255");
  constexpr uint32_t per = 256 / sizeof(T), pb = 32 / sizeof(T);
  if (counter && (mask == 0 || mask > per))
    Fault(api, "in counter mode mask is the elements per repeat, 1.." + std::to_string(per));
  CheckVector(dst, 0, api, "destination");
  CheckVector(src, 0, api, "source");
  const uint32_t n = counter ? mask : per;
  uint64_t out = 0;
  for (uint32_t r = 0; r < p.repeatTimes; ++r)
    for (uint32_t e = 0; e < n; ++e) {
      if (!keep(r, e)) continue;
      const uint64_t i =
          (uint64_t(r) * p.src0RepeatStride + uint64_t(e / pb) * p.src0BlockStride) * pb + e % pb;
      CheckIndex(src, i, api, "source");
      CheckIndex(dst, out, api, "destination");
      dst.GetPhyAddr()[out++] = src.GetPhyAddr()[i];
    }
  AddCycles(Pipe::kVector, static_cast<double>(p.repeatTimes));
  return out;
}

}  // namespace detail

namespace detail {
// One gathered element: the element at byte base + offset of src, which must be a whole
// element inside src.
template <typename T>
T GatherOne(const LocalTensor<T>& src, uint64_t base, uint32_t offset, uint64_t i,
            const char* api) {
  const uint64_t byte = base + offset;
  if (byte % sizeof(T))
    Fault(api, "offset " + std::to_string(offset) + " (element " + std::to_string(i) +
                   ") with srcBaseAddr " + std::to_string(base) + " is not a multiple of " +
                   std::to_string(sizeof(T)) + " bytes");
  if (byte + sizeof(T) > uint64_t{src.GetSize()} * sizeof(T))
    Fault(api, "offset " + std::to_string(offset) + " (element " + std::to_string(i) +
                   ") with srcBaseAddr " + std::to_string(base) + " reads past the " +
                   std::to_string(uint64_t{src.GetSize()} * sizeof(T)) + " bytes of the source");
  return src.GetPhyAddr()[byte / sizeof(T)];
}
}  // namespace detail

// dst[i] = the element at byte srcBaseAddr + srcOffset[i] of src (offsets in bytes).
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr,
            const uint32_t count) {
  const char* api = "Gather";
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Gather takes 16- or 32-bit elements");
  detail::CheckVector(dst, count, api, "destination");
  detail::CheckVector(srcOffset, count, api, "source offsets");
  detail::CheckVector(src, 0, api, "source");
  for (uint32_t i = 0; i < count; ++i)
    dst.GetPhyAddr()[i] = detail::GatherOne(src, srcBaseAddr, srcOffset.GetPhyAddr()[i], i, api);
  detail::CountCycles(uint64_t{count} * sizeof(T) * 2);  // one block fetch per element pair
}

// The repeat forms: repeat r takes its offsets from srcOffset[r * elements per repeat] on
// (the offsets advance by a whole repeat, as the count form's do; the documentation's
// wording does not settle this) and writes from dst block r * dstRepStride.
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr, const uint64_t mask,
            const uint8_t repeatTimes, const uint16_t dstRepStride) {
  const char* api = "Gather";
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Gather takes 16- or 32-bit elements");
  const detail::MaskSel<T> sel = detail::ContinuousMask<T>(mask, api);
  detail::CheckVector(dst, 0, api, "destination");
  detail::CheckVector(srcOffset, 0, api, "source offsets");
  detail::CheckVector(src, 0, api, "source");
  const uint32_t per = detail::PerRepeat<T>();
  const bool counter = detail::Mask().counter;
  const uint64_t repeats = counter ? (sel.count + per - 1) / per : repeatTimes;
  uint64_t remaining = sel.count;
  for (uint64_t r = 0; r < repeats; ++r) {
    const uint64_t n = counter ? std::min<uint64_t>(remaining, per) : per;
    for (uint32_t e = 0; e < n; ++e) {
      if (!counter && !sel.On(e)) continue;
      const uint64_t d = r * dstRepStride * detail::PerBlock<T>() + e, o = r * per + e;
      detail::CheckIndex(dst, d, api, "destination");
      detail::CheckIndex(srcOffset, o, api, "source offsets");
      dst.GetPhyAddr()[d] = detail::GatherOne(src, srcBaseAddr, srcOffset.GetPhyAddr()[o], o, api);
    }
    remaining -= n;
  }
  detail::AddCycles(detail::Pipe::kVector, 2.0 * static_cast<double>(repeats));
}

template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr,
            const uint64_t mask[], const uint8_t repeatTimes, const uint16_t dstRepStride) {
  const char* api = "Gather";
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Gather takes 16- or 32-bit elements");
  const detail::MaskSel<T> sel = detail::BitMask<T>(mask, api);
  detail::CheckVector(dst, 0, api, "destination");
  detail::CheckVector(srcOffset, 0, api, "source offsets");
  detail::CheckVector(src, 0, api, "source");
  const uint32_t per = detail::PerRepeat<T>();
  for (uint64_t r = 0; r < repeatTimes; ++r)
    for (uint32_t e = 0; e < per; ++e) {
      if (!sel.On(e)) continue;
      const uint64_t d = r * dstRepStride * detail::PerBlock<T>() + e, o = r * per + e;
      detail::CheckIndex(dst, d, api, "destination");
      detail::CheckIndex(srcOffset, o, api, "source offsets");
      dst.GetPhyAddr()[d] = detail::GatherOne(src, srcBaseAddr, srcOffset.GetPhyAddr()[o], o, api);
    }
  detail::AddCycles(detail::Pipe::kVector, 2.0 * repeatTimes);
}

// dst[i] = firstValue + i.
template <typename T>
void CreateVecIndex(const LocalTensor<T>& dst, const T& firstValue, uint32_t count) {
  const char* api = "CreateVecIndex";
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "CreateVecIndex takes 16- or 32-bit elements");
  detail::CheckVector(dst, count, api, "destination");
  using C = detail::Calc<T>;
  for (uint32_t i = 0; i < count; ++i)
    dst.GetPhyAddr()[i] = static_cast<T>(static_cast<C>(firstValue) + static_cast<C>(i));
  detail::CountCycles(uint64_t{count} * sizeof(T));
}

// A pattern tensor: bit e of repeat r's pattern keeps element e (uint16_t patterns for
// 16-bit data, uint32_t for 32-bit); src1RepeatStride (32-byte blocks) moves the pattern.
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                const LocalTensor<U>& src1Pattern, const bool reduceMode, const uint32_t mask,
                const GatherMaskParams& p, uint64_t& rsvdCnt) {
  const char* api = "GatherMask";
  static_assert(sizeof(U) == sizeof(T), "the pattern's type is as wide as the data's");
  detail::CheckVector(src1Pattern, 0, api, "source 1 (pattern)");
  constexpr uint32_t bits = 8 * sizeof(U);
  rsvdCnt = detail::GatherWalk(
      dst, src0, reduceMode, mask, p,
      [&](uint32_t r, uint32_t e) {
        const uint64_t word = uint64_t(r) * p.src1RepeatStride * 32 / sizeof(U) + e / bits;
        detail::CheckIndex(src1Pattern, word, api, "pattern");
        return ((src1Pattern.GetPhyAddr()[word] >> (e % bits)) & 1) != 0;
      },
      api);
}

// A fixed pattern: 1 even elements, 2 odd, 3..6 the first..fourth of every 4, 7 all.
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                const bool reduceMode, const uint32_t mask, const GatherMaskParams& p,
                uint64_t& rsvdCnt) {
  const char* api = "GatherMask";
  if (src1Pattern < 1 || src1Pattern > 7)
    detail::Fault(api, "fixed pattern " + std::to_string(src1Pattern) + " is out of 1..7");
  rsvdCnt = detail::GatherWalk(
      dst, src0, reduceMode, mask, p,
      [&](uint32_t, uint32_t e) {
        switch (src1Pattern) {
          case 1:
            return e % 2 == 0;
          case 2:
            return e % 2 == 1;
          case 7:
            return true;
          default:
            return e % 4 == static_cast<uint32_t>(src1Pattern - 3);
        }
      },
      api);
}

struct PadParams {
  uint16_t leftPad = 0, rightPad = 0;
  int32_t padValue = 0;
};
struct UnPadParams {
  uint16_t leftPad = 0, rightPad = 0;
};

namespace detail {

template <typename T>
void PadImpl(const LocalTensor<T>& dst, const LocalTensor<T>& src, const PadParams& p,
             const PadTiling& t) {
  const char* api = "Pad";
  const uint64_t h = t.srcHeight, w = t.srcWidth, ow = t.srcOriWidth ? t.srcOriWidth : w;
  if (h == 0 || w == 0) Fault(api, "the tiling has no source shape (was PadTilingFunc called?)");
  if (ow > w) Fault(api, "srcOriWidth " + std::to_string(ow) + " is more than srcWidth");
  const uint64_t row_bytes = w * sizeof(T), aligned = (row_bytes + 31) / 32 * 32;
  uint64_t out_w = w;
  if (row_bytes % 32) {
    // Case 1: rows not 32-byte aligned are padded out, left and right, up to the block.
    out_w = p.leftPad + w + p.rightPad;
    if (out_w * sizeof(T) > aligned)
      Fault(api, "leftPad " + std::to_string(p.leftPad) + " + width " + std::to_string(w) +
                     " + rightPad " + std::to_string(p.rightPad) + " is wider than the row's " +
                     std::to_string(aligned / sizeof(T)) + "-element 32-byte block");
  } else {
    // Case 2: aligned rows with unused tail columns: only those, on the right, are padded.
    if (p.leftPad) Fault(api, "rows already 32-byte aligned take no leftPad");
    if (ow + p.rightPad > w)
      Fault(api, "srcOriWidth " + std::to_string(ow) + " + rightPad " + std::to_string(p.rightPad) +
                     " is more than the width " + std::to_string(w));
  }
  CheckVector(src, h * w, api, "source");
  CheckVector(dst, h * out_w, api, "destination");
  const T pad = static_cast<T>(p.padValue);
  std::vector<T> row(static_cast<size_t>(out_w));
  for (uint64_t r = 0; r < h; ++r) {
    const T* s = src.GetPhyAddr() + r * w;
    if (row_bytes % 32) {
      for (uint64_t c = 0; c < out_w; ++c)
        row[c] = c < p.leftPad || c >= p.leftPad + w ? pad : s[c - p.leftPad];
    } else {
      for (uint64_t c = 0; c < w; ++c) row[c] = c >= ow && c < ow + p.rightPad ? pad : s[c];
    }
    std::copy(row.begin(), row.end(), dst.GetPhyAddr() + r * out_w);
  }
  CountCycles(h * aligned * 2);
}

}  // namespace detail

template <typename T>
void Pad(const LocalTensor<T>& dst, const LocalTensor<T>& src, PadParams& p,
         const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling) {
  detail::CheckVector(sharedTmpBuffer, 0, "Pad", "work");
  detail::PadImpl(dst, src, p, tiling);
}
template <typename T>
void Pad(const LocalTensor<T>& dst, const LocalTensor<T>& src, PadParams& p, PadTiling& tiling) {
  detail::PadImpl(dst, src, p, tiling);
}

// UnPad: drops rightPad (< 32 bytes) columns from each row of a [height, width] tensor.
// The form without a temporary buffer takes its scratch from the framework on the NPU; the
// emulation needs none.
template <typename T>
void UnPad(const LocalTensor<T>& dst, const LocalTensor<T>& src, UnPadParams& p, UnPadTiling& t) {
  const char* api = "UnPad";
  const uint64_t h = t.srcHeight, w = t.srcWidth;
  if (h == 0 || w == 0) detail::Fault(api, "the tiling has no source shape");
  if (p.rightPad * sizeof(T) >= 32 || p.rightPad >= w)
    detail::Fault(api, "rightPad " + std::to_string(p.rightPad) +
                           " must be under one 32-byte block and the width");
  const uint64_t out_w = w - p.rightPad;
  detail::CheckVector(src, h * w, api, "source");
  detail::CheckVector(dst, h * out_w, api, "destination");
  for (uint64_t r = 0; r < h; ++r)
    std::copy(src.GetPhyAddr() + r * w, src.GetPhyAddr() + r * w + out_w,
              dst.GetPhyAddr() + r * out_w);
  detail::CountCycles(h * w * sizeof(T) * 2);
}
template <typename T>
void UnPad(const LocalTensor<T>& dst, const LocalTensor<T>& src, UnPadParams& p,
           LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTiling& t) {
  detail::CheckVector(sharedTmpBuffer, 0, "UnPad", "work");
  UnPad(dst, src, p, t);
}

// Broadcast: dim 1 ([1] -> [k]) or 2 along an axis (axis 1: [m, 1] -> [m, k]; axis 0:
// [1, k] -> [m, k]); shapes in elements, dst and src in UB.
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim]) {
  static_assert(dim == 1 || dim == 2, "Broadcast takes 1-D or 2-D shapes");
  static_assert(axis == 0 || axis == 1, "Broadcast's axis is 0 or 1");
  const char* api = "Broadcast";
  const uint64_t m = dim == 2 ? dstShape[0] : 1, k = dstShape[dim - 1];
  const uint64_t sm = dim == 2 ? srcShape[0] : 1, sk = srcShape[dim - 1];
  const bool along_k = dim == 1 || axis == 1;
  if (along_k ? (sm != m || sk != 1) : (sm != 1 || sk != k))
    detail::Fault(api,
                  "srcShape does not broadcast to dstShape along axis " + std::to_string(axis));
  detail::CheckVector(src, sm * sk, api, "source");
  detail::CheckVector(dst, m * k, api, "destination");
  for (uint64_t r = 0; r < m; ++r)
    for (uint64_t c = 0; c < k; ++c)
      dst.GetPhyAddr()[r * k + c] = src.GetPhyAddr()[along_k ? r : c];
  detail::CountCycles(m * k * sizeof(T));
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[dim],
               const uint32_t srcShape[dim], LocalTensor<uint8_t>& sharedTmpBuffer) {
  detail::CheckVector(sharedTmpBuffer, 0, "Broadcast", "work");
  Broadcast<T, dim, axis, isReuseSource>(dst, src, dstShape, srcShape);
}

// Gatherb's strides: where each gathered 32-byte block lands in dst (in blocks); the
// source-side fields are reserved, as CANN documents them.
struct GatherRepeatParams {
  uint32_t blockNumber = 8;
  uint16_t dstRepStride = 8;
  uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1, src0RepStride = 8,
          src1RepStride = 8;
  bool repeatStrideMode = false, strideSizeMode = false;
  GatherRepeatParams() = default;
  GatherRepeatParams(uint8_t dstBlkStrideIn, uint16_t dstRepStrideIn)
      : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}
};

// Gatherb: each repeat gathers 8 blocks of 32 bytes from src0 at the byte offsets in
// offset[8r .. 8r+7] (32-byte aligned) into dst's blocks r * dstRepStride + b * dstBlkStride.
template <typename T>
void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
             const LocalTensor<uint32_t>& offset, const uint8_t repeatTime,
             const GatherRepeatParams& p) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4,
                "Gatherb moves 16- and 32-bit elements on Atlas A2 (uint16_t, uint32_t)");
  const char* api = "Gatherb";
  if (repeatTime == 0) detail::Fault(api, "repeatTime must be 1..255");
  detail::CheckVector(offset, uint64_t(repeatTime) * 8, api, "offset");
  detail::CheckVector(dst, 0, api, "destination");
  detail::CheckVector(src0, 0, api, "source");
  const uint64_t src_bytes = uint64_t(src0.GetSize()) * sizeof(T);
  const uint64_t dst_bytes = uint64_t(dst.GetSize()) * sizeof(T);
  auto* out = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  const auto* in = reinterpret_cast<const uint8_t*>(src0.GetPhyAddr());
  for (uint32_t r = 0; r < repeatTime; ++r)
    for (uint32_t b = 0; b < 8; ++b) {
      const uint64_t from = offset.GetPhyAddr()[r * 8 + b];
      const uint64_t to = (uint64_t(r) * p.dstRepStride + uint64_t(b) * p.dstBlkStride) * 32;
      if (from % 32)
        detail::Fault(api, "offset " + std::to_string(from) + " (block " +
                               std::to_string(r * 8 + b) + ") is not 32-byte aligned");
      if (from + 32 > src_bytes)
        detail::Fault(api, "offset " + std::to_string(from) + " reads past the source's " +
                               std::to_string(src_bytes) + " bytes");
      if (to + 32 > dst_bytes)
        detail::Fault(api, "block " + std::to_string(r * 8 + b) + " lands past the destination's " +
                               std::to_string(dst_bytes) + " bytes");
      std::memcpy(out + to, in + from, 32);
    }
  detail::CountCycles(uint64_t(repeatTime) * 256);
}

}  // namespace AscendC
