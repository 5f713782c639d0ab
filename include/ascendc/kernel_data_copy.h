// DataCopy and DataCopyPad between global memory and local buffers (MTE2 in, MTE3 out).
#pragma once

#include <algorithm>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ascendc/kernel_tensor.h"

namespace AscendC {
namespace detail {

constexpr uint32_t kBlock = 32;  // bytes: the unit of every DataCopy

template <typename T>
// `align`: the start alignment the operand needs; 0 is the memory's (UB: 32 bytes).
void CheckLocalRange(const LocalTensor<T>& t, uint64_t first_byte, uint64_t bytes, const char* api,
                     const char* which, uint32_t align_override = 0) {
  if (t.empty()) Fault(api, std::string(which) + " LocalTensor has no buffer");
  if (first_byte + bytes > static_cast<uint64_t>(t.GetSize()) * sizeof(T))
    Fault(api, std::string(which) + " LocalTensor of " + std::to_string(t.GetSize() * sizeof(T)) +
                   " bytes is accessed up to byte " + std::to_string(first_byte + bytes) +
                   " (overflows the buffer)");
  const Memory m = MemoryOf(t.GetPosition());
  // UB is on the vector cores; L1 and L0 on the cube core.
  RequireCore(m == Memory::kUB ? AIV : AIC, api);
  const uintptr_t addr =
      reinterpret_cast<uintptr_t>(t.GetPhyAddr()) - reinterpret_cast<uintptr_t>(LocalBase(m));
  const uint32_t align =
      align_override ? align_override : CurrentSoc().alignment[static_cast<int>(m)];
  if (align && addr % align)
    Fault(api, std::string(which) + " LocalTensor address " + std::to_string(addr) + " in " +
                   MemoryName(m) + " is not " + std::to_string(align) + "-byte aligned");
  CheckSlotAccess(t.slot(), t.generation(), which[0] == 'd', api);
  if (bytes)
    NoteLocal(reinterpret_cast<const uint8_t*>(t.GetPhyAddr()) + first_byte, bytes,
              which[0] == 'd'   ? Use::kWrite
              : which[0] == 's' ? Use::kReadChecked
                                : Use::kRead,
              api);
}

template <typename T>
void CheckGlobalRange(const GlobalTensor<T>& t, uint64_t first_byte, uint64_t bytes,
                      const char* api, const char* which) {
  if (!t.GetPhyAddr()) Fault(api, std::string(which) + " GlobalTensor has no buffer");
  if (first_byte + bytes > t.GetSize() * sizeof(T)) {
    // Say where the view sits in the buffer SetGlobalBuffer gave, so an offset past its end
    // reads as that, not as a tensor of 0 bytes. The NPU does not check views: past one but
    // inside the allocation (kernels pad their buffers on purpose) is a warning.
    const uint64_t start = t.ViewOffset() * sizeof(T) + first_byte;
    const uint64_t total = t.BufferSize() * sizeof(T);
    const std::string what =
        std::string(which) + " GlobalTensor: bytes " + std::to_string(start) + ".." +
        std::to_string(start + bytes) + " of a " + std::to_string(total) +
        "-byte SetGlobalBuffer are accessed, " +
        std::to_string(start + bytes - std::min(total, start + bytes)) + " bytes past its end" +
        (t.ViewOffset() ? " (the view starts at element " + std::to_string(t.ViewOffset()) + ")"
                        : "");
    if (GlobalRangeAllocated(reinterpret_cast<const uint8_t*>(t.GetPhyAddr()) + first_byte, bytes))
      Warn(api, what + "; the allocation holds them, so the NPU accesses them without a fault");
    else
      Fault(api, what);
  }
  CheckGlobal(reinterpret_cast<const uint8_t*>(t.GetPhyAddr()) + first_byte, bytes, api);
  if (which[0] == 'd' || which[0] == 'C')
    NoteGlobalWrite(reinterpret_cast<const uint8_t*>(t.GetPhyAddr()) + first_byte, bytes);
}

// The hardware moves whole 32-byte blocks: a length that is not a multiple of 32 bytes is
// cut to whole blocks, which silently loses the tail. We copy what the hardware copies.
inline uint64_t WholeBlocks(uint64_t bytes, const char* api) {
  if (bytes % kBlock)
    Warn(api, "length " + std::to_string(bytes) +
                  " bytes is not a multiple of 32: the hardware copies only " +
                  std::to_string(bytes / kBlock * kBlock) +
                  " bytes (use DataCopyPad for unaligned lengths)");
  return bytes / kBlock * kBlock;
}

inline double MteCycles(uint64_t bytes, uint32_t bursts) {
  // One instruction's latency, a small cost per burst, then bandwidth (docs/ascendc.md).
  return 200.0 + 10.0 * bursts + static_cast<double>(bytes) / 64.0;
}

template <typename T>
void StoreToGlobal(T* dst, const T* src, uint64_t bytes) {
  if (!AtomicAddEnabled()) {
    NoteGlobalWriteData(dst, src, bytes);
    std::memcpy(dst, src, bytes);
    return;
  }
  const int op = AtomicOp();
  auto value = [](T x) {
    if constexpr (std::is_integral_v<T>)
      return static_cast<double>(x);
    else
      return static_cast<double>(static_cast<float>(x));
  };
  LockAtomics();
  for (uint64_t i = 0; i < bytes / sizeof(T); ++i) {
    if (op == 0)
      dst[i] = static_cast<T>(dst[i] + src[i]);
    else if (op == 1)
      dst[i] = value(src[i]) > value(dst[i]) ? src[i] : dst[i];
    else
      dst[i] = value(src[i]) < value(dst[i]) ? src[i] : dst[i];
  }
  UnlockAtomics();
}

template <typename T>
uint8_t* Bytes(const T* p) {
  return reinterpret_cast<uint8_t*>(const_cast<T*>(p));
}

// L1 (C1) -> bias table (C2): blockCount bursts of blockLen 64-byte blocks of the source; a
// half or bfloat16 source is widened to float on the way, so one block fills 128 bytes of the
// table. That blockLen counts source bytes is what CANN's own bias sample relies on (32 halves
// copied with blockLen = 32 * sizeof(half) / 64 = 1); the gaps' units (source 32 B, table
// 64 B) are the copy_cbuf_to_bt instruction's, not confirmed for the Ascend C call.
template <typename T, typename U>
void CopyIntoBiasTable(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                       const DataCopyParams& p, const char* api) {
  if (MemoryOf(src.GetPosition()) != Memory::kL1)
    Fault(api, std::string("the bias table is filled from L1 (C1); the source is in ") +
                   MemoryName(MemoryOf(src.GetPosition())));
  constexpr bool widen = sizeof(U) == 2;
  if (!(std::is_same_v<T, float> || std::is_same_v<T, int32_t>) ||
      (widen && !std::is_same_v<T, float>) || (!widen && !std::is_same_v<T, U>))
    Fault(api, "the bias table holds float (from float, half or bfloat16) or int32_t");
  constexpr uint64_t kTableBlock = 64, kSourceBlock = 64;
  const uint64_t n = uint64_t{p.blockLen} * kSourceBlock / sizeof(U);  // elements per burst
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    const uint64_t d = i * (n * sizeof(T) + uint64_t{p.dstStride} * kTableBlock);
    const uint64_t s = i * (uint64_t{p.blockLen} * kSourceBlock + uint64_t{p.srcStride} * kBlock);
    CheckLocalRange(src, s, n * sizeof(U), api, "source");
    CheckLocalRange(dst, d, n * sizeof(T), api, "destination");
    const U* from = reinterpret_cast<const U*>(Bytes(src.GetPhyAddr()) + s);
    T* to = reinterpret_cast<T*>(Bytes(dst.GetPhyAddr()) + d);
    for (uint64_t k = 0; k < n; ++k) {
      if constexpr (widen)
        to[k] = static_cast<T>(static_cast<float>(from[k]));
      else
        to[k] = static_cast<T>(from[k]);
    }
  }
  AddCycles(Pipe::kMTE1, 50.0 + double(p.blockCount) * double(n * sizeof(T)) / 256.0);
}

// Local -> local copies that end in the cube's side buffers.
template <typename T, typename U>
bool CopyIntoCubeBuffer(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                        const DataCopyParams& p, const char* api) {
  const Memory m = MemoryOf(dst.GetPosition());
  if (m == Memory::kBT) {
    CopyIntoBiasTable(dst, src, p, api);
    return true;
  }
  if (m == Memory::kFB)
    Fault(api,
          "copies into the fixpipe buffer (C2PIPE2GM, for Fixpipe's per-channel quantization) "
          "are not supported by OpenCANN's emulation");
  return false;
}

}  // namespace detail

template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count) {
  const char* api = "DataCopy(GM->local)";
  const uint64_t bytes = detail::WholeBlocks(uint64_t{count} * sizeof(T), api);
  detail::CheckLocalRange(dst, 0, bytes, api, "destination");
  detail::CheckGlobalRange(src, 0, bytes, api, "source");
  std::memcpy(dst.GetPhyAddr(), src.GetPhyAddr(), bytes);
  detail::AddCycles(detail::Pipe::kMTE2, detail::MteCycles(bytes, 1));
}

template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  const char* api = "DataCopy(local->GM)";
  const uint64_t bytes = detail::WholeBlocks(uint64_t{count} * sizeof(T), api);
  detail::CheckLocalRange(src, 0, bytes, api, "source");
  detail::CheckGlobalRange(dst, 0, bytes, api, "destination");
  detail::StoreToGlobal(dst.GetPhyAddr(), src.GetPhyAddr(), bytes);
  detail::AddCycles(detail::Pipe::kMTE3, detail::MteCycles(bytes, 1));
}

template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count) {
  const char* api = "DataCopy(local->local)";
  if (detail::MemoryOf(dst.GetPosition()) == detail::Memory::kBT ||
      detail::MemoryOf(dst.GetPosition()) == detail::Memory::kFB) {
    if (uint64_t{count} * sizeof(T) % 64)
      detail::Fault(api, "a bias-table copy moves whole 64-byte blocks; " + std::to_string(count) +
                             " elements are not");
    DataCopyParams p;
    p.blockLen = static_cast<uint16_t>(uint64_t{count} * sizeof(T) / 64);
    detail::CopyIntoCubeBuffer(dst, src, p, api);
    return;
  }
  const uint64_t bytes = detail::WholeBlocks(uint64_t{count} * sizeof(T), api);
  detail::CheckLocalRange(dst, 0, bytes, api, "destination");
  detail::CheckLocalRange(src, 0, bytes, api, "source");
  std::memmove(dst.GetPhyAddr(), src.GetPhyAddr(), bytes);
  const bool to_l0 = detail::MemoryOf(dst.GetPosition()) == detail::Memory::kL0A ||
                     detail::MemoryOf(dst.GetPosition()) == detail::Memory::kL0B;
  detail::AddCycles(to_l0 ? detail::Pipe::kMTE1 : detail::Pipe::kVector,
                    to_l0 ? 50.0 + bytes / 256.0 : 1.0 + bytes / 256.0);
}

namespace detail {
// The bursts of a strided copy: move(dst_offset, src_offset, bytes) per burst, offsets and
// lengths in bytes from DataCopyParams' 32-byte units.
template <typename Move>
uint64_t ForBursts(const DataCopyParams& p, Move move) {
  const uint64_t len = uint64_t{p.blockLen} * kBlock;
  for (uint32_t i = 0; i < p.blockCount; ++i)
    move(i * (len + uint64_t{p.dstStride} * kBlock), i * (len + uint64_t{p.srcStride} * kBlock),
         len);
  return len * p.blockCount;
}
}  // namespace detail

// Strided forms: blockCount bursts of blockLen blocks; strides are the gaps in blocks.
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) {
  const char* api = "DataCopy(GM->local, DataCopyParams)";
  const uint64_t total = detail::ForBursts(p, [&](uint64_t d, uint64_t s, uint64_t len) {
    detail::CheckLocalRange(dst, d, len, api, "destination");
    detail::CheckGlobalRange(src, s, len, api, "source");
    std::memcpy(detail::Bytes(dst.GetPhyAddr()) + d, detail::Bytes(src.GetPhyAddr()) + s, len);
  });
  detail::AddCycles(detail::Pipe::kMTE2, detail::MteCycles(total, p.blockCount));
}

template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  const char* api = "DataCopy(local->GM, DataCopyParams)";
  const uint64_t total = detail::ForBursts(p, [&](uint64_t d, uint64_t s, uint64_t len) {
    detail::CheckLocalRange(src, s, len, api, "source");
    detail::CheckGlobalRange(dst, d, len, api, "destination");
    detail::StoreToGlobal(reinterpret_cast<T*>(detail::Bytes(dst.GetPhyAddr()) + d),
                          reinterpret_cast<const T*>(detail::Bytes(src.GetPhyAddr()) + s), len);
  });
  detail::AddCycles(detail::Pipe::kMTE3, detail::MteCycles(total, p.blockCount));
}

template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  const char* api = "DataCopy(local->local, DataCopyParams)";
  if (detail::CopyIntoCubeBuffer(dst, src, p, api)) return;
  const uint64_t total = detail::ForBursts(p, [&](uint64_t d, uint64_t s, uint64_t len) {
    detail::CheckLocalRange(src, s, len, api, "source");
    detail::CheckLocalRange(dst, d, len, api, "destination");
    std::memmove(detail::Bytes(dst.GetPhyAddr()) + d, detail::Bytes(src.GetPhyAddr()) + s, len);
  });
  detail::AddCycles(detail::Pipe::kVector, 1.0 + total / 256.0);
}

// L1 half/bfloat16 -> bias table float, the one local copy that changes the type.
// (SFINAE, not a requires clause: kernels are built as C++17 too.)
template <typename T, typename U, typename = std::enable_if_t<!std::is_same_v<T, U>>>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p) {
  const char* api = "DataCopy(C1->C2, DataCopyParams)";
  if (detail::MemoryOf(dst.GetPosition()) != detail::Memory::kBT)
    detail::Fault(api,
                  "a copy between local tensors of different types goes only from L1 (C1) "
                  "into the bias table (C2)");
  detail::CopyIntoBiasTable(dst, src, p, api);
}

// DataCopyPad GM -> local: any byte length; each burst lands 32-byte aligned in local
// memory, its tail (and left/right padding) filled with paddingValue when isPad.
template <typename T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                 const DataCopyPadExtParams<T>& pad) {
  const char* api = "DataCopyPad(GM->local)";
  const uint64_t len = p.blockLen;
  const uint64_t left = uint64_t{pad.leftPadding} * sizeof(T);
  const uint64_t right = uint64_t{pad.rightPadding} * sizeof(T);
  const uint64_t span = (left + len + right + detail::kBlock - 1) / detail::kBlock * detail::kBlock;
  if (pad.isPad && (left > detail::kBlock || right > detail::kBlock))
    detail::Fault(api, "left/right padding must fit in one 32-byte block");
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    const uint64_t s = i * (len + p.srcStride);
    const uint64_t d = i * (span + uint64_t{p.dstStride} * detail::kBlock);
    detail::CheckLocalRange(dst, d, span, api, "destination");
    detail::CheckGlobalRange(src, s, len, api, "source");
    uint8_t* out = reinterpret_cast<uint8_t*>(dst.GetPhyAddr()) + d;
    uint64_t register_bits = 0;
    if (pad.isPad) {
      T* e = reinterpret_cast<T*>(out);
      for (uint64_t k = 0; k < span / sizeof(T); ++k) e[k] = pad.paddingValue;
    } else if ((left || right) && detail::PadValueBits(&register_bits)) {
      // Without isPad the padding takes SetPadValue's value.
      T value;
      std::memcpy(static_cast<void*>(&value), &register_bits, sizeof(T));
      T* e = reinterpret_cast<T*>(out);
      for (uint64_t k = 0; k < span / sizeof(T); ++k) e[k] = value;
    }
    std::memcpy(out + left, reinterpret_cast<const uint8_t*>(src.GetPhyAddr()) + s, len);
  }
  detail::AddCycles(detail::Pipe::kMTE2, detail::MteCycles(len * p.blockCount, p.blockCount));
}

// DataCopyPad local -> GM: exactly blockLen bytes per burst.
template <typename T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                 const DataCopyExtParams& p) {
  const char* api = "DataCopyPad(local->GM)";
  const uint64_t len = p.blockLen;
  const uint64_t span = (len + detail::kBlock - 1) / detail::kBlock * detail::kBlock;
  for (uint32_t i = 0; i < p.blockCount; ++i) {
    const uint64_t s = i * (span + uint64_t{p.srcStride} * detail::kBlock);
    const uint64_t d = i * (len + p.dstStride);
    detail::CheckLocalRange(src, s, len, api, "source");
    detail::CheckGlobalRange(dst, d, len, api, "destination");
    detail::StoreToGlobal(
        reinterpret_cast<T*>(reinterpret_cast<uint8_t*>(dst.GetPhyAddr()) + d),
        reinterpret_cast<const T*>(reinterpret_cast<const uint8_t*>(src.GetPhyAddr()) + s), len);
  }
  detail::AddCycles(detail::Pipe::kMTE3, detail::MteCycles(len * p.blockCount, p.blockCount));
}

// The older parameter forms: DataCopyParams (blockLen in bytes here too) and
// DataCopyPadParams, whose uint64_t paddingValue gives the pad element's bits (its low
// sizeof(T) bytes; CANN's exact reading of that field is not confirmed).
template <typename T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                 const DataCopyPadParams& pad) {
  DataCopyPadExtParams<T> ext;
  ext.isPad = pad.isPad;
  ext.leftPadding = pad.leftPadding;
  ext.rightPadding = pad.rightPadding;
  std::memcpy(&ext.paddingValue, &pad.paddingValue, std::min(sizeof(T), sizeof(uint64_t)));
  DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0),
              ext);
}
template <typename T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0));
}

}  // namespace AscendC

namespace AscendC {

// One axis of a sliced copy (axis 0 the innermost). On axis 0, the elements from startIndex to
// endIndex are moved in bursts of burstLen 32-byte blocks, stride elements apart; on the
// other axes, every (stride + 1)-th index from startIndex to endIndex (burstLen must be 1).
// shapeValue is the axis's length in the tensor's layout, in elements.
// The most axes a slice describes (SliceInfo arrays are sized with it).
inline constexpr uint32_t K_MAX_DIM = 8;
struct SliceInfo {
  uint32_t startIndex = 0;
  uint32_t endIndex = 0;
  uint32_t stride = 0;
  uint32_t burstLen = 1;
  uint32_t shapeValue = 0;
};

namespace detail {
struct SliceBurst {
  uint64_t offset, bytes;  // bytes from the tensor's start
};
// The bursts a slice description walks, outer axes slowest.
template <typename T>
std::vector<SliceBurst> SliceBursts(const SliceInfo* info, uint32_t dims, const char* api,
                                    const char* which) {
  if (dims == 0 || dims > K_MAX_DIM) Fault(api, std::string(which) + ": dimValue must be 1..8");
  std::vector<uint64_t> pitch(dims, 1);
  for (uint32_t d = 1; d < dims; ++d) {
    if (info[d - 1].shapeValue == 0)
      Fault(api, std::string(which) + " slice axis " + std::to_string(d - 1) + " has shapeValue 0");
    pitch[d] = pitch[d - 1] * info[d - 1].shapeValue;
  }
  for (uint32_t d = 0; d < dims; ++d) {
    if (info[d].startIndex > info[d].endIndex)
      Fault(api, std::string(which) + " slice axis " + std::to_string(d) + ": startIndex " +
                     std::to_string(info[d].startIndex) + " is past endIndex " +
                     std::to_string(info[d].endIndex));
    if (d > 0 && info[d].burstLen != 1)
      Fault(api, std::string(which) + " slice axis " + std::to_string(d) +
                     ": burstLen must be 1 beyond the first axis");
  }
  if (info[0].burstLen == 0) Fault(api, std::string(which) + ": burstLen of axis 0 is 0");
  const uint64_t burst_elems = uint64_t{info[0].burstLen} * kBlock / sizeof(T);
  // The walk's size before it is built: a slice of more bursts than any buffer holds is a
  // mistake (and would take the host's memory).
  uint64_t walked = (info[0].endIndex - info[0].startIndex) / (burst_elems + info[0].stride) + 1;
  for (uint32_t d = 1; d < dims && walked <= (uint64_t{1} << 20); ++d)
    walked *=
        (uint64_t{info[d].endIndex} - info[d].startIndex) / (uint64_t{info[d].stride} + 1) + 1;
  if (walked > (uint64_t{1} << 20))
    Fault(api, std::string(which) +
                   " slice walks more than 2^20 bursts: its indices are out of "
                   "any buffer's range");
  std::vector<uint64_t> row_starts;  // element offsets of the innermost axis's rows
  row_starts.push_back(0);
  for (uint32_t d = dims; d-- > 1;) {
    std::vector<uint64_t> next;
    for (uint64_t base : row_starts)
      for (uint64_t i = info[d].startIndex; i <= info[d].endIndex;
           i += uint64_t{info[d].stride} + 1)
        next.push_back(base + i * pitch[d]);
    row_starts.swap(next);
  }
  std::vector<SliceBurst> bursts;
  for (uint64_t row : row_starts)
    for (uint64_t e = info[0].startIndex; e <= info[0].endIndex; e += burst_elems + info[0].stride)
      bursts.push_back({(row + e) * sizeof(T), burst_elems * sizeof(T)});
  return bursts;
}
}  // namespace detail

namespace detail {
// Pairs the two slice walks burst by burst: move(dst offset, src offset, bytes). Returns the
// bytes moved and the burst count.
template <typename T, typename Move>
std::pair<uint64_t, uint32_t> ForSliceBursts(const SliceInfo dstSliceInfo[],
                                             const SliceInfo srcSliceInfo[], uint32_t dimValue,
                                             const char* api, Move move) {
  const auto d = SliceBursts<T>(dstSliceInfo, dimValue, api, "destination");
  const auto s = SliceBursts<T>(srcSliceInfo, dimValue, api, "source");
  if (d.size() != s.size())
    Fault(api, "the source slice has " + std::to_string(s.size()) + " bursts and the destination " +
                   std::to_string(d.size()));
  uint64_t total = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const uint64_t len = std::min(s[i].bytes, d[i].bytes);
    move(d[i].offset, s[i].offset, len);
    total += len;
  }
  return {total, static_cast<uint32_t>(s.size())};
}
}  // namespace detail

template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1) {
  const char* api = "DataCopy(GM->local, SliceInfo)";
  const auto [total, bursts] = detail::ForSliceBursts<T>(
      dstSliceInfo, srcSliceInfo, dimValue, api, [&](uint64_t d, uint64_t s, uint64_t len) {
        detail::CheckLocalRange(dst, d, len, api, "destination");
        detail::CheckGlobalRange(src, s, len, api, "source");
        std::memcpy(detail::Bytes(dst.GetPhyAddr()) + d, detail::Bytes(src.GetPhyAddr()) + s, len);
      });
  detail::AddCycles(detail::Pipe::kMTE2, detail::MteCycles(total, bursts));
}

template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const SliceInfo dstSliceInfo[],
              const SliceInfo srcSliceInfo[], const uint32_t dimValue = 1) {
  const char* api = "DataCopy(local->GM, SliceInfo)";
  const auto [total, bursts] = detail::ForSliceBursts<T>(
      dstSliceInfo, srcSliceInfo, dimValue, api, [&](uint64_t d, uint64_t s, uint64_t len) {
        detail::CheckLocalRange(src, s, len, api, "source");
        detail::CheckGlobalRange(dst, d, len, api, "destination");
        detail::StoreToGlobal(reinterpret_cast<T*>(detail::Bytes(dst.GetPhyAddr()) + d),
                              reinterpret_cast<const T*>(detail::Bytes(src.GetPhyAddr()) + s), len);
      });
  detail::AddCycles(detail::Pipe::kMTE3, detail::MteCycles(total, bursts));
}

// InitOutput: fills `size` elements of a global tensor with `value` (an output that atomic
// adds accumulate into, a workspace of flags), through UB on a vector core as on the NPU.
template <typename T>
void InitOutput(const GlobalTensor<T>& gmWorkspaceAddr, uint32_t size, T value = 0) {
  const char* api = "InitOutput";
  detail::RequireCore(AIV, api);
  const uint64_t bytes = uint64_t{size} * sizeof(T);
  detail::CheckGlobalRange(gmWorkspaceAddr, 0, bytes, api, "destination");
  T* out = gmWorkspaceAddr.GetPhyAddr();
  const std::vector<T> values(size, value);
  // Blocks that all initialise the same output with the same value do no harm.
  detail::NoteGlobalWriteData(out, values.data(), bytes);
  for (uint32_t i = 0; i < size; ++i) out[i] = value;
  detail::AddCycles(detail::Pipe::kMTE3, detail::MteCycles(bytes, 1));
}

// The value DataCopyPad from GM fills its left/right padding with when isPad is false
// (pos: the destination, VECIN or VECOUT; one register serves both here).
template <typename T, TPosition pos = TPosition::MAX>
void SetPadValue(T paddingValue) {
  static_assert(sizeof(T) <= 8, "SetPadValue takes a scalar of at most 8 bytes");
  uint64_t bits = 0;
  std::memcpy(&bits, static_cast<const void*>(&paddingValue), sizeof(T));
  detail::SetPadValueBits(bits);
}

// Scalar GM access that bypasses the data cache, and the barrier that orders it: on the CPU
// every access reaches memory; these are atomic accesses with a full fence, so one block
// can publish a flag another reads.
enum class MemDsbT { ALL = 0, DDR, UB, SEQ };
template <MemDsbT arg0>
void DataSyncBarrier() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
template <typename T>
T ReadGmByPassDCache(__gm__ T* addr) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                "ReadGmByPassDCache reads a scalar of at most 8 bytes");
  detail::CheckGlobal(addr, sizeof(T), "ReadGmByPassDCache");
  T value;
  if constexpr (std::is_integral_v<T> || std::is_floating_point_v<T>) {
    __atomic_load(addr, &value, __ATOMIC_SEQ_CST);
  } else {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    std::memcpy(static_cast<void*>(&value), addr, sizeof(T));
  }
  return value;
}
template <typename T>
void WriteGmByPassDCache(__gm__ T* addr, T value) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                "WriteGmByPassDCache writes a scalar of at most 8 bytes");
  detail::CheckGlobal(addr, sizeof(T), "WriteGmByPassDCache");
  detail::NoteGlobalWrite(addr, sizeof(T));
  if constexpr (std::is_integral_v<T> || std::is_floating_point_v<T>) {
    __atomic_store(addr, &value, __ATOMIC_SEQ_CST);
  } else {
    std::memcpy(static_cast<void*>(addr), &value, sizeof(T));
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
  }
}

}  // namespace AscendC
