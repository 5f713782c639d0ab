// Vector instructions on local (UB) tensors: count forms and the mask/repeat forms with
// CANN's block and repeat strides. One repeat covers 8 blocks of 32 bytes.
#pragma once

#include <cmath>
#include <limits>
#include <string>

#include "ascendc/kernel_data_copy.h"

namespace AscendC {
namespace detail {

// repeatTimes as given: the hardware field is 8 bits, so values over 255 would wrap.
struct Repeat {
  int64_t value;
  template <typename I, typename = std::enable_if_t<std::is_integral_v<I>>>
  Repeat(I v) : value(static_cast<int64_t>(v)) {}  // NOLINT: implicit by design
};

template <typename T>
constexpr uint32_t PerBlock() {
  return kBlock / sizeof(T);
}
template <typename T>
constexpr uint32_t PerRepeat() {
  return std::min<uint32_t>(256 / sizeof(T), 128);  // the mask has at most 128 bits
}

// float view of a value for arithmetic; integers keep their type.
template <typename T>
using Calc = std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>, float, T>;

template <typename T>
void CheckVector(const LocalTensor<T>& t, uint64_t elems, const char* api, const char* which,
                 uint32_t align = 0) {
  const Memory m = MemoryOf(t.GetPosition());
  if (m != Memory::kUB)
    Fault(api, std::string(which) + " tensor is in " + MemoryName(m) +
                   "; vector instructions work on UB (VECIN/VECOUT/VECCALC)");
  CheckLocalRange(t, 0, elems * sizeof(T), api, which, align);
  // Repeat forms check each element later: the tensor is the operand.
  if (elems == 0)
    NoteLocal(t.GetPhyAddr(), uint64_t{t.GetSize()} * sizeof(T),
              which[0] == 'd' ? Use::kWrite : Use::kRead, api);
}

inline void CountCycles(uint64_t bytes) { AddCycles(Pipe::kVector, ContiguousVectorCycles(bytes)); }

// Selected element positions of one repeat, from the mask (continuous or bits) or the
// counter mode's remaining count.
template <typename T>
struct MaskSel {
  bool bits = false;
  uint64_t count = 0, m[2] = {0, 0};
  bool On(uint32_t e) const {
    if (!bits) return e < count;
    return (m[e / 64] >> (e % 64)) & 1;
  }
};

template <typename T>
MaskSel<T> ContinuousMask(uint64_t mask, const char* api) {
  MaskSel<T> s;
  if (mask == 0) {
    // MASK_PLACEHOLDER (isSetMask = false): the mask SetVectorMask set applies, the count in
    // counter mode, the bits in normal mode.
    if (Mask().counter) {
      s.count = Mask().mask[0];
      if (s.count == 0)
        Fault(api, "counter mode with MASK_PLACEHOLDER, and SetVectorMask set no count");
      return s;
    }
    s.bits = true;
    s.m[0] = Mask().mask[0];
    s.m[1] = PerRepeat<T>() > 64 ? Mask().mask[1] : 0;
    return s;
  }
  if (Mask().counter) {
    s.count = mask;  // total elements over all repeats
    return s;
  }
  if (mask == 0 || mask > PerRepeat<T>())
    Fault(api, "mask " + std::to_string(mask) + " must be 1.." + std::to_string(PerRepeat<T>()) +
                   " for " + std::to_string(sizeof(T) * 8) + "-bit elements");
  s.count = mask;
  return s;
}

// Counter mode (SetMaskCount) with a count, not bits: the count runs across repeats, and the
// number of repeats follows from it rather than from the call's repeatTimes.
template <typename T>
bool CountsAcrossRepeats(const MaskSel<T>& sel) {
  return Mask().counter && !sel.bits;
}
template <typename T>
bool LaneOn(const MaskSel<T>& sel, int64_t repeat, uint32_t lane, uint32_t per) {
  if (CountsAcrossRepeats(sel)) return uint64_t(repeat) * per + lane < sel.count;
  return sel.On(lane);
}
template <typename T>
int64_t RepeatsOf(const MaskSel<T>& sel, int64_t repeats, uint32_t per) {
  return CountsAcrossRepeats(sel) ? static_cast<int64_t>((sel.count + per - 1) / per) : repeats;
}

template <typename T>
MaskSel<T> BitMask(const uint64_t mask[], const char* api) {
  MaskSel<T> s;
  s.bits = true;
  s.m[0] = mask[0];
  s.m[1] = PerRepeat<T>() > 64 ? mask[1] : 0;
  if (PerRepeat<T>() <= 64 && mask[1])
    Warn(api, "mask[1] is ignored for " + std::to_string(sizeof(T) * 8) + "-bit elements");
  return s;
}

inline int64_t CheckRepeat(const Repeat& r, const char* api) {
  if (r.value < 0 || r.value > 255)
    Fault(api, "repeatTimes " + std::to_string(r.value) +
                   " is out of 0..255: the 8-bit hardware field would make it " +
                   std::to_string(static_cast<uint8_t>(r.value)));
  return r.value;
}

// Walks the selected elements of every repeat: f(dst_index, src0_index, src1_index).
template <typename T, typename F>
void ForRepeats(const MaskSel<T>& sel, int64_t repeats, const uint32_t blk[3],
                const uint32_t rep[3], F&& f) {
  const uint32_t per = PerRepeat<T>(), pb = PerBlock<T>();
  uint64_t remaining = sel.count;
  const bool counter = Mask().counter && !sel.bits;
  if (counter) repeats = static_cast<int64_t>((sel.count + per - 1) / per);
  for (int64_t r = 0; r < repeats; ++r) {
    for (uint32_t e = 0; e < per; ++e) {
      const bool on = counter ? e < remaining : sel.On(e);
      if (!on) continue;
      const uint32_t b = e / pb, w = e % pb;
      uint64_t idx[3];
      for (int k = 0; k < 3; ++k) idx[k] = (r * uint64_t{rep[k]} + b * uint64_t{blk[k]}) * pb + w;
      f(idx[0], idx[1], idx[2]);
    }
    if (counter) remaining -= std::min<uint64_t>(remaining, per);
  }
  AddCycles(Pipe::kVector, StridedVectorCycles(repeats, blk, rep));
}

template <typename T>
void CheckIndex(const LocalTensor<T>& t, uint64_t i, const char* api, const char* which) {
  if (i >= t.GetSize())
    Fault(api, std::string(which) + " element " + std::to_string(i) +
                   " (from the repeat and block strides) is outside the tensor of " +
                   std::to_string(t.GetSize()) + " elements");
}

template <typename T, typename Op>
void BinaryCount(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
                 int32_t count, Op op, const char* api) {
  if (count < 0) Fault(api, "count " + std::to_string(count) + " is negative");
  CheckVector(dst, count, api, "destination");
  CheckVector(a, count, api, "source 0");
  CheckVector(b, count, api, "source 1");
  for (int32_t i = 0; i < count; ++i)
    dst.GetPhyAddr()[i] = op(a.GetPhyAddr()[i], b.GetPhyAddr()[i]);
  CountCycles(uint64_t(count) * sizeof(T));
}

template <typename T, typename Op>
void BinaryRepeat(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
                  const MaskSel<T>& sel, const Repeat& repeat, const BinaryRepeatParams& p, Op op,
                  const char* api) {
  const int64_t n = CheckRepeat(repeat, api);
  CheckVector(dst, 0, api, "destination");
  CheckVector(a, 0, api, "source 0");
  CheckVector(b, 0, api, "source 1");
  const uint32_t blk[3] = {p.dstBlkStride, p.src0BlkStride, p.src1BlkStride};
  const uint32_t rep[3] = {p.dstRepStride, p.src0RepStride, p.src1RepStride};
  ForRepeats(sel, n, blk, rep, [&](uint64_t d, uint64_t s0, uint64_t s1) {
    CheckIndex(dst, d, api, "destination");
    CheckIndex(a, s0, api, "source 0");
    CheckIndex(b, s1, api, "source 1");
    dst.GetPhyAddr()[d] = op(a.GetPhyAddr()[s0], b.GetPhyAddr()[s1]);
  });
}

template <typename T, typename Op>
void UnaryCount(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count, Op op,
                const char* api, bool reads_source = true) {
  if (count < 0) Fault(api, "count " + std::to_string(count) + " is negative");
  CheckVector(dst, count, api, "destination");
  if (reads_source) CheckVector(src, count, api, "source");
  for (int32_t i = 0; i < count; ++i) dst.GetPhyAddr()[i] = op(src.GetPhyAddr()[i]);
  CountCycles(uint64_t(count) * sizeof(T));
}

template <typename T, typename Op>
void UnaryRepeat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const MaskSel<T>& sel,
                 const Repeat& repeat, const UnaryRepeatParams& p, Op op, const char* api,
                 bool reads_source = true) {
  const int64_t n = CheckRepeat(repeat, api);
  CheckVector(dst, 0, api, "destination");
  if (reads_source) CheckVector(src, 0, api, "source");
  const uint32_t blk[3] = {p.dstBlkStride, p.srcBlkStride, 0};
  const uint32_t rep[3] = {p.dstRepStride, p.srcRepStride, 0};
  ForRepeats(sel, n, blk, rep, [&](uint64_t d, uint64_t s, uint64_t) {
    CheckIndex(dst, d, api, "destination");
    CheckIndex(src, s, api, "source");
    dst.GetPhyAddr()[d] = op(src.GetPhyAddr()[s]);
  });
}

template <typename T>
T FromCalc(Calc<T> v) {
  return static_cast<T>(v);
}

}  // namespace detail

// Binary: count, continuous-mask and bit-mask forms.
#define OC_ASCENDC_BINARY(NAME, EXPR)                                                              \
  template <typename T>                                                                            \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,     \
            const int32_t& count) {                                                                \
    detail::BinaryCount(dst, src0, src1, count, OC_ASCENDC_OP2(T, EXPR), #NAME);                   \
  }                                                                                                \
  template <typename T, bool isSetMask = true>                                                     \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,     \
            uint64_t mask, detail::Repeat repeatTimes, const BinaryRepeatParams& params) {         \
    detail::BinaryRepeat(dst, src0, src1, detail::ContinuousMask<T>(mask, #NAME), repeatTimes,     \
                         params, OC_ASCENDC_OP2(T, EXPR), #NAME);                                  \
  }                                                                                                \
  template <typename T, bool isSetMask = true>                                                     \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,     \
            const uint64_t mask[], detail::Repeat repeatTimes, const BinaryRepeatParams& params) { \
    detail::BinaryRepeat(dst, src0, src1, detail::BitMask<T>(mask, #NAME), repeatTimes, params,    \
                         OC_ASCENDC_OP2(T, EXPR), #NAME);                                          \
  }

#define OC_ASCENDC_OP2(T, EXPR)                             \
  [](T x_, T y_) -> T {                                     \
    using C = detail::Calc<T>;                              \
    const C a = static_cast<C>(x_), b = static_cast<C>(y_); \
    return detail::FromCalc<T>(static_cast<C>(EXPR));       \
  }

OC_ASCENDC_BINARY(Add, a + b)
OC_ASCENDC_BINARY(Sub, a - b)
OC_ASCENDC_BINARY(Mul, a* b)
OC_ASCENDC_BINARY(Div, (std::is_integral_v<C> && b == C(0)) ? C(0) : a / b)
OC_ASCENDC_BINARY(Max, a > b ? a : b)
OC_ASCENDC_BINARY(Min, a < b ? a : b)

// Bitwise ops: integer element types only (the hardware has them for 16-bit integers).
OC_ASCENDC_BINARY(And, a& b)
OC_ASCENDC_BINARY(Or, a | b)

// The operator forms: `dst = a * b;` is Mul(dst, a, b, dst.GetSize()) (the count as dst's
// size is how the emulation reads CANN's operator overloads; not confirmed).
#define OC_ASCENDC_VEC_OPERATOR(SYM, OP)                                              \
  template <typename T>                                                               \
  detail::VecExpr<T> operator SYM(const LocalTensor<T>& a, const LocalTensor<T>& b) { \
    return {a, b, detail::VecOp::OP};                                                 \
  }
OC_ASCENDC_VEC_OPERATOR(+, kAdd)
OC_ASCENDC_VEC_OPERATOR(-, kSub)
OC_ASCENDC_VEC_OPERATOR(*, kMul)
OC_ASCENDC_VEC_OPERATOR(/, kDiv)
OC_ASCENDC_VEC_OPERATOR(&, kAnd)
OC_ASCENDC_VEC_OPERATOR(|, kOr)
#undef OC_ASCENDC_VEC_OPERATOR

template <typename T>
LocalTensor<T>& LocalTensor<T>::operator=(const detail::VecExpr<T>& e) {
  const int32_t n = static_cast<int32_t>(GetSize());
  switch (e.op) {
    case detail::VecOp::kAdd:
      Add(*this, e.a, e.b, n);
      break;
    case detail::VecOp::kSub:
      Sub(*this, e.a, e.b, n);
      break;
    case detail::VecOp::kMul:
      Mul(*this, e.a, e.b, n);
      break;
    case detail::VecOp::kDiv:
      Div(*this, e.a, e.b, n);
      break;
    case detail::VecOp::kAnd:
      if constexpr (std::is_integral_v<T>)
        And(*this, e.a, e.b, n);
      else
        detail::Fault("LocalTensor operator&", "bitwise operators take integer tensors");
      break;
    case detail::VecOp::kOr:
      if constexpr (std::is_integral_v<T>)
        Or(*this, e.a, e.b, n);
      else
        detail::Fault("LocalTensor operator|", "bitwise operators take integer tensors");
      break;
  }
  return *this;
}

// Copy: local -> local in repeats of 256 bytes, block and repeat strides in 32-byte blocks
// (CopyRepeatParams: dstStride, srcStride, dstRepeatSize, srcRepeatSize).
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,
          detail::Repeat repeatTimes, const CopyRepeatParams& p) {
  const char* api = "Copy";
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Copy moves 16- and 32-bit elements");
  const int64_t n = detail::CheckRepeat(repeatTimes, api);
  detail::CheckVector(dst, 0, api, "destination");
  detail::CheckVector(src, 0, api, "source");
  const uint32_t blk[3] = {p.dstStride, p.srcStride, 0};
  const uint32_t rep[3] = {p.dstRepeatSize, p.srcRepeatSize, 0};
  detail::ForRepeats(detail::ContinuousMask<T>(mask, api), n, blk, rep,
                     [&](uint64_t d, uint64_t s, uint64_t) {
                       detail::CheckIndex(dst, d, api, "destination");
                       detail::CheckIndex(src, s, api, "source");
                       dst.GetPhyAddr()[d] = src.GetPhyAddr()[s];
                     });
}
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
          detail::Repeat repeatTimes, const CopyRepeatParams& p) {
  const char* api = "Copy";
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Copy moves 16- and 32-bit elements");
  const int64_t n = detail::CheckRepeat(repeatTimes, api);
  const uint32_t blk[3] = {p.dstStride, p.srcStride, 0};
  const uint32_t rep[3] = {p.dstRepeatSize, p.srcRepeatSize, 0};
  detail::ForRepeats(detail::BitMask<T>(mask, api), n, blk, rep,
                     [&](uint64_t d, uint64_t s, uint64_t) {
                       detail::CheckIndex(dst, d, api, "destination");
                       detail::CheckIndex(src, s, api, "source");
                       dst.GetPhyAddr()[d] = src.GetPhyAddr()[s];
                     });
}

// Unary.
#define OC_ASCENDC_UNARY(NAME, EXPR)                                                           \
  /* isReuseSource: the advanced API's spelling of the same count form (Log<T, false>). */     \
  template <typename T, bool isReuseSource = false>                                            \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {      \
    detail::UnaryCount(dst, src, count, OC_ASCENDC_OP1(T, EXPR), #NAME);                       \
  }                                                                                            \
  template <typename T, bool isSetMask = true>                                                 \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,               \
            detail::Repeat repeatTimes, const UnaryRepeatParams& params) {                     \
    detail::UnaryRepeat(dst, src, detail::ContinuousMask<T>(mask, #NAME), repeatTimes, params, \
                        OC_ASCENDC_OP1(T, EXPR), #NAME);                                       \
  }                                                                                            \
  template <typename T, bool isSetMask = true>                                                 \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],       \
            detail::Repeat repeatTimes, const UnaryRepeatParams& params) {                     \
    detail::UnaryRepeat(dst, src, detail::BitMask<T>(mask, #NAME), repeatTimes, params,        \
                        OC_ASCENDC_OP1(T, EXPR), #NAME);                                       \
  }

#define OC_ASCENDC_OP1(T, EXPR)                       \
  [](T x_) -> T {                                     \
    using C = detail::Calc<T>;                        \
    const C a = static_cast<C>(x_);                   \
    return detail::FromCalc<T>(static_cast<C>(EXPR)); \
  }

OC_ASCENDC_UNARY(Relu, a > C(0) ? a : C(0))
OC_ASCENDC_UNARY(Exp, std::exp(a))
OC_ASCENDC_UNARY(Ln, std::log(a))
OC_ASCENDC_UNARY(Abs, a < C(0) ? -a : a)
OC_ASCENDC_UNARY(Sqrt, std::sqrt(a))
OC_ASCENDC_UNARY(Rsqrt, C(1) / std::sqrt(a))
OC_ASCENDC_UNARY(Reciprocal, C(1) / a)

OC_ASCENDC_UNARY(Not, ~a)

// Tensor-scalar.
#define OC_ASCENDC_SCALAR(NAME, EXPR)                                                             \
  template <typename T, typename U>                                                               \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,           \
            const int32_t& count) {                                                               \
    const detail::Calc<T> s_ = static_cast<detail::Calc<T>>(static_cast<T>(scalarValue));         \
    detail::UnaryCount(dst, src, count, OC_ASCENDC_OPS(T, EXPR), #NAME);                          \
  }                                                                                               \
  template <typename T, typename U, bool isSetMask = true>                                        \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,           \
            uint64_t mask, detail::Repeat repeatTimes, const UnaryRepeatParams& params) {         \
    const detail::Calc<T> s_ = static_cast<detail::Calc<T>>(static_cast<T>(scalarValue));         \
    detail::UnaryRepeat(dst, src, detail::ContinuousMask<T>(mask, #NAME), repeatTimes, params,    \
                        OC_ASCENDC_OPS(T, EXPR), #NAME);                                          \
  }                                                                                               \
  template <typename T, typename U, bool isSetMask = true>                                        \
  void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue,           \
            const uint64_t mask[], detail::Repeat repeatTimes, const UnaryRepeatParams& params) { \
    const detail::Calc<T> s_ = static_cast<detail::Calc<T>>(static_cast<T>(scalarValue));         \
    detail::UnaryRepeat(dst, src, detail::BitMask<T>(mask, #NAME), repeatTimes, params,           \
                        OC_ASCENDC_OPS(T, EXPR), #NAME);                                          \
  }

#define OC_ASCENDC_OPS(T, EXPR)                       \
  [s_](T x_) -> T {                                   \
    using C = detail::Calc<T>;                        \
    const C a = static_cast<C>(x_), s = s_;           \
    return detail::FromCalc<T>(static_cast<C>(EXPR)); \
  }

OC_ASCENDC_SCALAR(Adds, a + s)
OC_ASCENDC_SCALAR(Muls, a* s)
OC_ASCENDC_SCALAR(Maxs, a > s ? a : s)
OC_ASCENDC_SCALAR(Mins, a < s ? a : s)
OC_ASCENDC_SCALAR(LeakyRelu, a >= C(0) ? a : a * s)

OC_ASCENDC_SCALAR(ShiftLeft, a << s)
OC_ASCENDC_SCALAR(ShiftRight, a >> s)

// Logarithms (the high-level Log/Log2/Log10): natural, base 2 and base 10. The forms with a
// temporary buffer take it for the NPU's intermediate results; the emulation needs none.
OC_ASCENDC_UNARY(Log, std::log(a))
OC_ASCENDC_UNARY(Log2, std::log2(a))
OC_ASCENDC_UNARY(Log10, std::log10(a))
template <typename T, bool isReuseSource = false>
void Log(const LocalTensor<T>& dst, const LocalTensor<T>& src,
         const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, uint32_t count) {
  Log(dst, src, static_cast<int32_t>(count));
}
template <typename T, bool isReuseSource = false>
void Log2(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, uint32_t count) {
  Log2(dst, src, static_cast<int32_t>(count));
}
template <typename T, bool isReuseSource = false>
void Log10(const LocalTensor<T>& dst, const LocalTensor<T>& src,
           const LocalTensor<uint8_t>& /*sharedTmpBuffer*/, uint32_t count) {
  Log10(dst, src, static_cast<int32_t>(count));
}

// Axpy: dst = src * scalar + dst, also with a half source into a float destination. Computed
// in float and rounded once to dst's type (the unit's rounding of the intermediate product
// is not confirmed).
template <typename T, typename U, typename S>
void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const S& scalarValue,
          const int32_t& count) {
  const char* api = "Axpy";
  static_assert(std::is_same_v<T, U> || (std::is_same_v<T, float> && std::is_same_v<U, half>),
                "Axpy: dst and src have the same type, or src is half and dst float");
  if (count < 0) detail::Fault(api, "count " + std::to_string(count) + " is negative");
  detail::CheckVector(dst, count, api, "source and destination");
  detail::CheckVector(src, count, api, "source");
  using C = detail::Calc<T>;
  const C s = static_cast<C>(static_cast<detail::Calc<U>>(static_cast<U>(scalarValue)));
  for (int32_t i = 0; i < count; ++i)
    dst.GetPhyAddr()[i] = static_cast<T>(static_cast<C>(src.GetPhyAddr()[i]) * s +
                                         static_cast<C>(dst.GetPhyAddr()[i]));
  detail::NoteLocal(dst.GetPhyAddr(), uint64_t(count) * sizeof(T), detail::Use::kWrite, api);
  detail::CountCycles(uint64_t(count) * sizeof(T));
}

template <typename T, typename U>
void Duplicate(const LocalTensor<T>& dst, const U& scalarValue, const int32_t& count) {
  const T v = static_cast<T>(scalarValue);
  detail::UnaryCount(
      dst, dst, count, [v](T) { return v; }, "Duplicate", false);
}
// The bit-mask form: mask[0] the low 64 elements of a repeat, mask[1] the high 64.
template <typename T, typename U, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const U& scalarValue, uint64_t mask[],
               detail::Repeat repeatTimes, uint16_t dstBlockStride, uint8_t dstRepeatStride) {
  const T v = static_cast<T>(scalarValue);
  detail::UnaryRepeat(
      dst, dst, detail::BitMask<T>(mask, "Duplicate"), repeatTimes,
      UnaryRepeatParams(dstBlockStride, dstBlockStride, dstRepeatStride, dstRepeatStride),
      [v](T) { return v; }, "Duplicate", false);
}
template <typename T, typename U, bool isSetMask = true>
void Duplicate(const LocalTensor<T>& dst, const U& scalarValue, uint64_t mask,
               detail::Repeat repeatTimes, uint16_t dstBlockStride, uint8_t dstRepeatStride) {
  const T v = static_cast<T>(scalarValue);
  detail::UnaryRepeat(
      dst, dst, detail::ContinuousMask<T>(mask, "Duplicate"), repeatTimes,
      UnaryRepeatParams(dstBlockStride, dstBlockStride, dstRepeatStride, dstRepeatStride),
      [v](T) { return v; }, "Duplicate", false);
}

}  // namespace AscendC
