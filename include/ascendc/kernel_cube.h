// The cube path on the CPU, with the NPU's fractal layouts (16 x C0 blocks, C0 = 32 bytes):
//   GM (ND) --DataCopy+Nd2NzParams--> L1 (NZ) --LoadData--> L0A (ZZ) / L0B (ZN)
//   --Mmad--> L0C (NZ, float accumulation) --Fixpipe--> GM (ND)
// Element (r, c) of a matrix with R rows lives at:
//   NZ (L1, L0C): (c / C0) * Rpad * C0 + r * C0 + c % C0
//   ZZ (L0A):     ((r / 16) * Cb + c / C0) * 16 * C0 + (r % 16) * C0 + c % C0
//   ZN (L0B):     ((r / C0) * Cb + c / 16) * 16 * C0 + (c % 16) * C0 + r % C0
// (Rpad rows padded to 16, Cb column blocks). docs/ascendc.md has the details.
#pragma once

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "ascendc/kernel_data_copy.h"

namespace AscendC {

struct Nd2NzParams {
  uint16_t ndNum = 1, nValue = 0, dValue = 0, srcNdMatrixStride = 0, srcDValue = 0,
           dstNzC0Stride = 0, dstNzNStride = 1, dstNzMatrixStride = 0;
  Nd2NzParams() = default;
  Nd2NzParams(uint16_t nd, uint16_t n, uint16_t d, uint16_t srcMat, uint16_t srcD,
              uint16_t c0Stride, uint16_t nStride, uint16_t dstMat)
      : ndNum(nd),
        nValue(n),
        dValue(d),
        srcNdMatrixStride(srcMat),
        srcDValue(srcD),
        dstNzC0Stride(c0Stride),
        dstNzNStride(nStride),
        dstNzMatrixStride(dstMat) {}
};

struct LoadData2DParams {
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 1;
  uint16_t srcStride = 1;
  uint8_t sid = 0;
  uint16_t dstGap = 0;
  bool ifTranspose = false;
  uint8_t addrMode = 0;
};

struct MmadParams {
  uint16_t m = 0, n = 0, k = 0;
  bool isBias = false;  // false: C = A*B; true: C += A*B (accumulate into L0C)
  int32_t fmOffset = 0;
  bool enSsparse = false, enWinogradA = false, enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;
  bool cmatrixInitVal = true;  // true: start from zero (when isBias is false)
  MmadParams() = default;
  // CANN's short form: {m, n, k, unitFlag, cmatrixSource, cmatrixInitVal}.
  MmadParams(uint16_t m_, uint16_t n_, uint16_t k_, uint8_t unit, bool source, bool init_zero)
      : m(m_), n(n_), k(k_), unitFlag(unit), cmatrixSource(source), cmatrixInitVal(init_zero) {}
  MmadParams(uint16_t m_, uint16_t n_, uint16_t k_, bool bias, int32_t off, bool s, bool wa,
             bool wb)
      : m(m_),
        n(n_),
        k(k_),
        isBias(bias),
        fmOffset(off),
        enSsparse(s),
        enWinogradA(wa),
        enWinogradB(wb) {}
};

// How Fixpipe converts L0C's float or int32 results on the way out: a plain type change
// (F322F16, F322BF16; NoQuant keeps the type), a scalar scale (DEQF16: int32 -> half,
// QF322B8_PRE: float -> int8/uint8, REQ8: int32 -> int8/uint8), or a per-channel one from
// the fixpipe buffer (the V* modes).
enum class QuantMode_t {
  NoQuant,
  F322F16,
  F322BF16,
  DEQF16,
  VDEQF16,
  QF322B8_PRE,
  VQF322B8_PRE,
  REQ8,
  VREQ8,
  QF322F16_PRE,
  VQF322F16_PRE,
  QF322BF16_PRE,
  VQF322BF16_PRE
};

// Fields in CANN's order: {nSize, mSize, srcStride, dstStride, reluEn, quantPre, deqScalar,
// ndNum, srcNdStride, dstNdStride, unitFlag}, as samples brace-initialise it.
struct FixpipeParamsV220 {
  uint16_t nSize = 0, mSize = 0;
  uint16_t srcStride = 0;  // rows of each L0C column block (Mpad)
  uint32_t dstStride = 0;  // GM row stride in elements
  bool reluEn = false;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
  uint16_t ndNum = 1, srcNdStride = 0, dstNdStride = 0;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
};

namespace detail {
uint64_t& FixpipeQuantFlag();  // the block's SetFixpipePreQuantFlag value
}  // namespace detail
// The scalar quantisation parameter of the next Fixpipe: the scale's float bits in the low
// 32 bits (bit 46: a signed int8 result).
inline void SetFixpipePreQuantFlag(uint64_t config) { detail::FixpipeQuantFlag() = config; }

namespace detail {

template <typename T>
constexpr uint32_t C0() {
  return 32 / sizeof(T);
}

template <typename T>
void CheckIn(const LocalTensor<T>& t, Memory m, const char* api, const char* which) {
  RequireCore(AIC, api);  // L1, L0A/B/C and the cube unit are on the cube core
  if (MemoryOf(t.GetPosition()) != m)
    Fault(api, std::string(which) + " must be in " + MemoryName(m) + ", it is in " +
                   MemoryName(MemoryOf(t.GetPosition())));
  NoteLocal(t.GetPhyAddr(), uint64_t{t.GetSize()} * sizeof(T),
            which[0] == 'd' ? Use::kWrite : Use::kRead, api);
}

template <typename T>
T& At(const LocalTensor<T>& t, uint64_t i, const char* api, const char* which) {
  if (i >= t.GetSize())
    Fault(api, std::string(which) + " element " + std::to_string(i) + " is outside the tensor of " +
                   std::to_string(t.GetSize()) + " elements");
  return t.GetPhyAddr()[i];
}

template <typename T>
float AsFloat(T v) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>)
    return float(v);
  else
    return static_cast<float>(v);
}

}  // namespace detail

// GM (ND) -> L1 (NZ): nValue rows of dValue elements, row stride srcDValue.
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p) {
  const char* api = "DataCopy(GM->L1, Nd2NzParams)";
  const uint32_t c0 = detail::C0<T>();
  detail::CheckIn(dst, detail::Memory::kL1, api, "destination");
  if (p.dstNzC0Stride < p.nValue)
    detail::Fault(api, "dstNzC0Stride " + std::to_string(p.dstNzC0Stride) +
                           " is less than nValue " + std::to_string(p.nValue));
  uint64_t bytes = 0;
  for (uint32_t nd = 0; nd < p.ndNum; ++nd)
    for (uint32_t n = 0; n < p.nValue; ++n) {
      const uint64_t s = uint64_t(nd) * p.srcNdMatrixStride + uint64_t(n) * p.srcDValue;
      detail::CheckGlobalRange(src, s * sizeof(T), uint64_t(p.dValue) * sizeof(T), api, "source");
      for (uint32_t d = 0; d < p.dValue; ++d) {
        const uint64_t o = uint64_t(nd) * p.dstNzMatrixStride +
                           uint64_t(d / c0) * p.dstNzC0Stride * c0 +
                           uint64_t(n) * p.dstNzNStride * c0 + d % c0;
        detail::At(dst, o, api, "destination") = src.GetPhyAddr()[s + d];
      }
      bytes += uint64_t(p.dValue) * sizeof(T);
    }
  detail::AddCycles(detail::Pipe::kMTE2, detail::MteCycles(bytes, p.ndNum * p.nValue));
}

// L1 -> L0A / L0B: repeatTimes fractals of 512 bytes, source fractal startIndex + i * srcStride,
// destination fractal i * (1 + dstGap); ifTranspose transposes each 16 x C0 fractal.
template <typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p) {
  const char* api = "LoadData";
  const uint32_t frac = 512 / sizeof(T), c0 = detail::C0<T>();
  const detail::Memory dm = detail::MemoryOf(dst.GetPosition());
  if (dm != detail::Memory::kL0A && dm != detail::Memory::kL0B)
    detail::Fault(
        api, std::string("destination must be in L0A or L0B, it is in ") + detail::MemoryName(dm));
  detail::CheckIn(src, detail::Memory::kL1, api, "source");
  if (p.ifTranspose && c0 != 16)
    detail::Fault(api, "ifTranspose needs 16-bit elements (a square 16 x 16 fractal)");
  detail::RequireCore(AIC, api);
  if (p.repeatTimes)
    detail::NoteLocal(dst.GetPhyAddr(),
                      std::min<uint64_t>((uint64_t(p.repeatTimes - 1) * (1 + p.dstGap) + 1) * 512,
                                         uint64_t{dst.GetSize()} * sizeof(T)),
                      detail::Use::kWrite, api);
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const uint64_t s = (uint64_t(p.startIndex) + uint64_t(i) * p.srcStride) * frac;
    const uint64_t d = uint64_t(i) * (1 + p.dstGap) * frac;
    for (uint32_t r = 0; r < 16; ++r)
      for (uint32_t c = 0; c < c0; ++c) {
        const uint64_t from = s + (p.ifTranspose ? c * c0 + r : r * c0 + c);
        detail::At(dst, d + r * c0 + c, api, "destination") = detail::At(src, from, api, "source");
      }
  }
  detail::AddCycles(detail::Pipe::kMTE1, 50.0 + p.repeatTimes * 512 / 256.0);
}

// The first releases' spelling.
using LoadData2dParams = LoadData2DParams;

// L1 -> L0A / L0B with a transpose of whole squares: for 8-bit types two consecutive 16 x 32
// fractals form a 32 x 32 square, for 16-bit types one 16 x 16 fractal is the square. Square
// i is read at startIndex + i * srcStride (in squares); its transposed fractals go to
// i * (1 + dstGap) fractals, the second (8-bit) 1 + dstFracGap fractals after the first.
// The 32-bit form (two 16 x 8 fractals) is refused: its square's layout is not confirmed.
struct LoadData2dTransposeParams {
  uint16_t startIndex = 0;
  uint8_t repeatTimes = 0;
  uint16_t srcStride = 0;
  uint16_t dstGap = 0;
  uint16_t dstFracGap = 0;
  uint8_t addrMode = 0;
  LoadData2dTransposeParams() = default;
  LoadData2dTransposeParams(uint16_t start, uint8_t repeat, uint16_t src, uint16_t gap,
                            uint16_t fracGap, uint8_t mode = 0)
      : startIndex(start),
        repeatTimes(repeat),
        srcStride(src),
        dstGap(gap),
        dstFracGap(fracGap),
        addrMode(mode) {}
};

template <typename T>
void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LoadData2dTransposeParams& p) {
  const char* api = "LoadDataWithTranspose";
  static_assert(sizeof(T) <= 4, "LoadDataWithTranspose moves 8-, 16- or 32-bit elements");
  if constexpr (sizeof(T) == 4)
    detail::Fault(api,
                  "the 32-bit form (two 16 x 8 fractals per square) is not supported by "
                  "OpenCANN's emulation");
  const detail::Memory dm = detail::MemoryOf(dst.GetPosition());
  if (dm != detail::Memory::kL0A && dm != detail::Memory::kL0B)
    detail::Fault(
        api, std::string("destination must be in L0A or L0B, it is in ") + detail::MemoryName(dm));
  detail::CheckIn(src, detail::Memory::kL1, api, "source");
  constexpr uint32_t side = sizeof(T) == 1 ? 32 : 16;  // the square's rows and columns
  constexpr uint32_t fracs = sizeof(T) == 1 ? 2 : 1;   // 512-byte fractals per square
  constexpr uint32_t frac_elems = 512 / sizeof(T), c0 = 32 / sizeof(T);
  // One write operand for the cost model and the checks: from the first destination fractal
  // to the end of the last (the gaps of usual layouts are filled by other repeats). The
  // source is noted whole by CheckIn, unchecked, as LoadData's is.
  if (p.repeatTimes) {
    const uint64_t last = uint64_t(p.repeatTimes - 1) * (1 + p.dstGap) +
                          (fracs - 1) * (1 + uint64_t{p.dstFracGap}) + 1;
    detail::NoteLocal(dst.GetPhyAddr(),
                      std::min<uint64_t>(last * 512, uint64_t{dst.GetSize()} * sizeof(T)),
                      detail::Use::kWrite, api);
  }
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const uint64_t s = (uint64_t(p.startIndex) + uint64_t(i) * p.srcStride) * side * side;
    const uint64_t d0 = uint64_t(i) * (1 + p.dstGap) * frac_elems;
    for (uint32_t f = 0; f < fracs; ++f) {
      const uint64_t d = d0 + uint64_t(f) * (1 + p.dstFracGap) * frac_elems;
      // Destination fractal f holds rows 16f.. of the transposed square, C0 columns each.
      for (uint32_t r = 0; r < 16; ++r)
        for (uint32_t c = 0; c < c0; ++c) {
          const uint32_t tr = f * 16 + r;  // transposed row = source column
          detail::At(dst, d + r * c0 + c, api, "destination") =
              detail::At(src, s + (c / 16) * 16 * c0 + (c % 16) * c0 + tr, api, "source");
        }
    }
  }
  detail::AddCycles(detail::Pipe::kMTE1, 50.0 + double(p.repeatTimes) * fracs * 512 / 256.0);
}

// DataCopy's enhanced form (L0C -> CO2 on chips that have it). BLOCK_MODE_MATRIX counts in
// 16 x 16 fractals of the element type (the unit is recalled, not confirmed); the other
// modes are refused by name.
enum class BlockMode : uint8_t {
  BLOCK_MODE_NORMAL,
  BLOCK_MODE_MATRIX,
  BLOCK_MODE_VECTOR,
  BLOCK_MODE_SMALL_MATRIX,
  BLOCK_MODE_DEPTHWISE
};
struct DataCopyEnhancedParams {
  BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
  uint64_t deqValue = 0;
  bool isRelu = false;
};

template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p,
              const DataCopyEnhancedParams& e) {
  const char* api = "DataCopy(enhanced)";
  if (e.blockMode == BlockMode::BLOCK_MODE_NORMAL) return DataCopy(dst, src, p);
  if (e.blockMode != BlockMode::BLOCK_MODE_MATRIX)
    detail::Fault(api,
                  "block modes other than NORMAL and MATRIX are not supported by OpenCANN's "
                  "emulation");
  if (e.isRelu || e.deqValue)
    detail::Fault(api,
                  "ReLU and dequantization in the copy are not supported by OpenCANN's "
                  "emulation");
  const uint64_t unit = 256;  // elements of one 16 x 16 fractal
  if (p.blockCount && p.blockLen) {
    const uint64_t last_s =
        (uint64_t(p.blockCount - 1) * (p.blockLen + p.srcStride) + p.blockLen) * unit;
    const uint64_t last_d =
        (uint64_t(p.blockCount - 1) * (p.blockLen + p.dstStride) + p.blockLen) * unit;
    detail::NoteLocal(src.GetPhyAddr(), std::min<uint64_t>(last_s, src.GetSize()) * sizeof(T),
                      detail::Use::kRead, api);
    detail::NoteLocal(dst.GetPhyAddr(), std::min<uint64_t>(last_d, dst.GetSize()) * sizeof(T),
                      detail::Use::kWrite, api);
  }
  for (uint16_t b = 0; b < p.blockCount; ++b)
    for (uint16_t l = 0; l < p.blockLen; ++l) {
      const uint64_t s = (uint64_t(b) * (p.blockLen + p.srcStride) + l) * unit;
      const uint64_t d = (uint64_t(b) * (p.blockLen + p.dstStride) + l) * unit;
      for (uint64_t i = 0; i < unit; ++i)
        detail::At(dst, d + i, api, "destination") = detail::At(src, s + i, api, "source");
    }
  detail::AddCycles(detail::Pipe::kVector,
                    1.0 + double(p.blockCount) * p.blockLen * unit * sizeof(T) / 256.0);
}

// C (L0C, NZ, float) = A (L0A, ZZ) x B (L0B, ZN) [+ C when isBias]: m x k times k x n.
template <typename C, typename A, typename B>
void Mmad(const LocalTensor<C>& dst, const LocalTensor<A>& a, const LocalTensor<B>& b,
          const MmadParams& p) {
  const char* api = "Mmad";
  detail::CheckIn(dst, detail::Memory::kL0C, api, "destination");
  detail::CheckIn(a, detail::Memory::kL0A, api, "A");
  detail::CheckIn(b, detail::Memory::kL0B, api, "B");
  const uint32_t c0 = detail::C0<A>();
  const uint32_t mb = (p.m + 15) / 16, kb = (p.k + c0 - 1) / c0, nb = (p.n + 15) / 16;
  // Every fractal of A and B the product reads must have been loaded (L0 starts as garbage).
  detail::NoteLocal(a.GetPhyAddr(),
                    std::min<uint64_t>(uint64_t(mb) * kb * 512, uint64_t{a.GetSize()} * sizeof(A)),
                    detail::Use::kReadChecked, api);
  detail::NoteLocal(b.GetPhyAddr(),
                    std::min<uint64_t>(uint64_t(kb) * nb * 512, uint64_t{b.GetSize()} * sizeof(B)),
                    detail::Use::kReadChecked, api);
  for (uint32_t m = 0; m < p.m; ++m)
    for (uint32_t n = 0; n < p.n; ++n) {
      float acc = 0;
      for (uint32_t k = 0; k < p.k; ++k) {
        const uint64_t ia = ((m / 16) * kb + k / c0) * 16 * c0 + (m % 16) * c0 + k % c0;
        const uint64_t ib = ((k / c0) * nb + n / 16) * 16 * c0 + (n % 16) * c0 + k % c0;
        acc += detail::AsFloat(detail::At(a, ia, api, "A")) *
               detail::AsFloat(detail::At(b, ib, api, "B"));
      }
      const uint64_t ic = ((n / 16) * mb + m / 16) * 256 + (m % 16) * 16 + n % 16;
      C& out = detail::At(dst, ic, api, "destination");
      const bool accumulate = p.isBias || !p.cmatrixInitVal;
      out = static_cast<C>(accumulate ? detail::AsFloat(out) + acc : acc);
    }
  detail::AddCycles(detail::Pipe::kCube, static_cast<double>(mb) * nb * kb);
}

// Mmad with a bias from the bias table (C2, filled by DataCopy from C1): C = A x B + bias[n]
// (isBias or not, the bias starts the accumulation, as the cube's bias input does).
template <typename C, typename A, typename B, typename Bias>
void Mmad(const LocalTensor<C>& dst, const LocalTensor<A>& a, const LocalTensor<B>& b,
          const LocalTensor<Bias>& bias, const MmadParams& p) {
  const char* api = "Mmad(bias)";
  detail::CheckIn(bias, detail::Memory::kBT, api, "bias (TPosition::C2)");
  if (bias.GetSize() < p.n)
    detail::Fault(api, "the bias has " + std::to_string(bias.GetSize()) +
                           " values for n = " + std::to_string(p.n));
  // The n values must have been loaded (DataCopy from C1): the table starts as garbage.
  detail::NoteLocal(bias.GetPhyAddr(), uint64_t{p.n} * sizeof(Bias), detail::Use::kReadChecked,
                    api);
  MmadParams q = p;
  q.cmatrixInitVal = true;
  q.isBias = false;
  Mmad(dst, a, b, q);
  const uint32_t mb = (p.m + 15) / 16;
  for (uint32_t m = 0; m < p.m; ++m)
    for (uint32_t n = 0; n < p.n; ++n) {
      const uint64_t ic = ((n / 16) * mb + m / 16) * 256 + (m % 16) * 16 + n % 16;
      C& out = detail::At(dst, ic, api, "destination");
      out = static_cast<C>(detail::AsFloat(out) + detail::AsFloat(bias.GetPhyAddr()[n]));
    }
}

namespace detail {
// One L0C value through Fixpipe's quantisation into the GM type. Scaled results round to
// nearest even and saturate (the hardware's rounding is not published).
template <typename D>
D FixpipeConvert(double v, const FixpipeParamsV220& p, const char* api) {
  const QuantMode_t q = p.quantPre;
  switch (q) {
    case QuantMode_t::NoQuant:
    case QuantMode_t::F322F16:
    case QuantMode_t::F322BF16:
      return static_cast<D>(static_cast<float>(v));
    case QuantMode_t::DEQF16:
    case QuantMode_t::QF322B8_PRE:
    case QuantMode_t::REQ8:
    case QuantMode_t::QF322F16_PRE:
    case QuantMode_t::QF322BF16_PRE: {
      const uint64_t flag = p.deqScalar ? p.deqScalar : FixpipeQuantFlag();
      const uint32_t bits = static_cast<uint32_t>(flag & 0xFFFFFFFFu);
      float scale;
      std::memcpy(&scale, &bits, 4);
      const double scaled = v * scale;
      if constexpr (std::is_integral_v<D>) {
        const double r = std::nearbyint(scaled);
        const double lo = static_cast<double>(std::numeric_limits<D>::min()),
                     hi = static_cast<double>(std::numeric_limits<D>::max());
        return static_cast<D>(std::isnan(r) ? 0 : r < lo ? lo : r > hi ? hi : r);
      } else {
        return static_cast<D>(static_cast<float>(scaled));
      }
    }
    default:
      Fault(api,
            "per-channel quantisation (a V* quantPre mode, scales from the fixpipe buffer) is not "
            "supported by OpenCANN's emulation");
      return D();
  }
}
}  // namespace detail

// Fixpipe's output layout: ROW_MAJOR converts L0C's NZ fractals to rows (ND), NZ keeps them.
enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
struct FixpipeConfig {
  CO2Layout format = CO2Layout::ROW_MAJOR;
};
inline constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
inline constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};

// L0C (NZ, float or int32) -> GM (ND): mSize x nSize, through quantPre into the GM type.
template <typename D, typename S, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<D>& dst, const LocalTensor<S>& src, const FixpipeParamsV220& p) {
  const char* api = "Fixpipe";
  if (config.format != CO2Layout::ROW_MAJOR)
    detail::Fault(api,
                  "only CFG_ROW_MAJOR (NZ to ND) output is supported by OpenCANN's "
                  "emulation; CFG_NZ and column-major output are not modelled");
  detail::CheckIn(src, detail::Memory::kL0C, api, "source");
  const uint32_t rows = p.srcStride ? p.srcStride : (p.mSize + 15) / 16 * 16;
  const uint32_t stride = p.dstStride ? p.dstStride : p.nSize;
  for (uint32_t m = 0; m < p.mSize; ++m) {
    detail::CheckGlobalRange(dst, (uint64_t(m) * stride) * sizeof(D), uint64_t(p.nSize) * sizeof(D),
                             api, "destination");
    for (uint32_t n = 0; n < p.nSize; ++n) {
      double v = static_cast<double>(
          detail::AsFloat(detail::At(src, (n / 16) * rows * 16 + m * 16 + n % 16, api, "source")));
      if constexpr (std::is_integral_v<S>)
        v = static_cast<double>(
            detail::At(src, (n / 16) * rows * 16 + m * 16 + n % 16, api, "source"));
      if (p.reluEn && v < 0) v = 0;
      dst.GetPhyAddr()[uint64_t(m) * stride + n] = detail::FixpipeConvert<D>(v, p, api);
    }
  }
  detail::AddCycles(detail::Pipe::kMTE3,
                    detail::MteCycles(uint64_t(p.mSize) * p.nSize * sizeof(D), p.mSize));
}

// Per-channel quantisation (a scale tensor from the fixpipe buffer) and L0C -> L1 output are
// refused with their names: the emulation does not model them.
template <typename D, typename S, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<D>&, const LocalTensor<S>&, const LocalTensor<uint64_t>&,
             const FixpipeParamsV220&) {
  detail::Fault("Fixpipe",
                "per-channel quantisation with a scale tensor is not supported by OpenCANN's "
                "emulation");
}
template <typename D, typename S, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const LocalTensor<D>&, const LocalTensor<S>&, const FixpipeParamsV220&) {
  detail::Fault("Fixpipe",
                "L0C to L1 (a LocalTensor destination) is not supported by OpenCANN's emulation; "
                "Fixpipe to GM is");
}

}  // namespace AscendC

// A CCE enum: kernels name it without a namespace.
using AscendC::QuantMode_t;
