// Ascend C on the CPU: qualifiers, scalar types and enums. Part of OpenCANN's emulation of
// CANN's kernel_operator.h; kernels written for the NPU compile unchanged with g++.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascendc/kernel_fp16.h"

// On the NPU these place code and data; on the CPU they mean nothing.
#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __gm__
#define __gm__
#endif
// The newer compiler's core-type marks of a kernel (__global__ __cube__ void k()): ccec's
// rewrite of a <<<>>> launch of a marked kernel in the same source declares its type
// (KERNEL_TYPE_AIC_ONLY / AIV_ONLY), so only those cores run it, as on the NPU.
#ifndef __vector__
#define __vector__
#endif
#ifndef __cube__
#define __cube__
#endif
// __mix__(cube, vector): a mix kernel's core ratio, declared the same way (MIX_AIC_1_2 ...).
#ifndef __mix__
#define __mix__(...)
#endif
// The parameter that receives the Matmul API's system workspace in a mix kernel.
#ifndef __kfc_workspace__
#define __kfc_workspace__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __inline__
#define __inline__ inline
#endif
#ifndef GM_ADDR
#define GM_ADDR uint8_t*
#endif

namespace AscendC {
// Whether two types are the same (kernels pick code paths with it at compile time).
template <typename T, typename U>
struct IsSameType {
  static constexpr bool value = false;
};
template <typename T>
struct IsSameType<T, T> {
  static constexpr bool value = true;
};
}  // namespace AscendC

namespace AscendC {

// IEEE binary16 as the NPU stores it; arithmetic goes through float, and each result is
// rounded to nearest-even, as the vector unit does.
struct half {
  uint16_t bits = 0;
  half() = default;
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  half(T v) : bits(detail::FloatToHalfBits(static_cast<float>(v))) {}  // NOLINT: implicit
  operator float() const { return detail::HalfBitsToFloat(bits); }     // NOLINT
  static half FromBits(uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }
  half& operator+=(half o) { return *this = half(float(*this) + float(o)); }
  half& operator-=(half o) { return *this = half(float(*this) - float(o)); }
  half& operator*=(half o) { return *this = half(float(*this) * float(o)); }
  half& operator/=(half o) { return *this = half(float(*this) / float(o)); }
  half operator-() const { return FromBits(static_cast<uint16_t>(bits ^ 0x8000)); }
};
inline half operator+(half a, half b) { return half(float(a) + float(b)); }
inline half operator-(half a, half b) { return half(float(a) - float(b)); }
inline half operator*(half a, half b) { return half(float(a) * float(b)); }
inline half operator/(half a, half b) { return half(float(a) / float(b)); }

// bfloat16, rounded to nearest-even from float.
struct bfloat16_t {
  uint16_t bits = 0;
  bfloat16_t() = default;
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  bfloat16_t(T v) : bits(detail::FloatToBf16Bits(static_cast<float>(v))) {}  // NOLINT
  operator float() const { return detail::Bf16BitsToFloat(bits); }           // NOLINT
  static bfloat16_t FromBits(uint16_t b) {
    bfloat16_t h;
    h.bits = b;
    return h;
  }
};

enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM,
  TSCM,
  C2PIPE2GM,
  C2PIPE2LOCAL,
  MAX
};
using QuePosition = TPosition;

enum class HardEvent : uint8_t {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MTE1_FIX,
  FIX_MTE1,
  FIX_FIX,
  MAX
};

enum pipe_t : uint8_t {
  PIPE_S,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
  PIPE_FIX
};

enum class RoundMode : uint8_t {
  CAST_NONE,
  CAST_RINT,
  CAST_FLOOR,
  CAST_CEIL,
  CAST_ROUND,
  CAST_TRUNC,
  CAST_ODD
};

enum class CMPMODE : uint8_t { LT, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class MaskMode : uint8_t { NORMAL, COUNTER };
// GlobalTensor::SetL2CacheHint's arguments.
enum class CacheMode : uint8_t {
  CACHE_MODE_DISABLE = 0,
  CACHE_MODE_NORMAL = 1,
  CACHE_MODE_PERSISTENT = 4
};
enum class CacheRwMode : uint8_t { READ = 1, WRITE = 2, RW = 3 };

// CPU debug's launch layout (SetKernelMode), in CANN's order.
enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE };
// Core types, as g_coreType holds them: ASCEND_IS_AIC / ASCEND_IS_AIV compare with these.
// The largest repeatTimes of a vector instruction: the hardware field is 8 bits.
inline constexpr int32_t MAX_REPEAT_TIMES = 255;

inline constexpr int32_t MIX = 0;
inline constexpr int32_t AIC = 1;
inline constexpr int32_t AIV = 2;
// Event ids of SetFlag / WaitFlag (0-7 on Atlas A2).
using TEventID = int8_t;
enum class CubeFormat { ND, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };

// Strides of the repeat forms, in 32-byte blocks.
struct BinaryRepeatParams {
  uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
  uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
  BinaryRepeatParams() = default;
  BinaryRepeatParams(uint8_t db, uint8_t s0b, uint8_t s1b, uint8_t dr, uint8_t s0r, uint8_t s1r)
      : dstBlkStride(db),
        src0BlkStride(s0b),
        src1BlkStride(s1b),
        dstRepStride(dr),
        src0RepStride(s0r),
        src1RepStride(s1r) {}
};
// Copy's strides: within a repeat (in 32-byte blocks) and between repeats (in blocks).
struct CopyRepeatParams {
  uint16_t dstStride = 1, srcStride = 1, dstRepeatSize = 8, srcRepeatSize = 8;
  CopyRepeatParams() = default;
  CopyRepeatParams(uint16_t ds, uint16_t ss, uint16_t dr, uint16_t sr)
      : dstStride(ds), srcStride(ss), dstRepeatSize(dr), srcRepeatSize(sr) {}
};
struct UnaryRepeatParams {
  uint16_t dstBlkStride = 1, srcBlkStride = 1;
  uint8_t dstRepStride = 8, srcRepStride = 8;
  UnaryRepeatParams() = default;
  UnaryRepeatParams(uint16_t db, uint16_t sb, uint8_t dr, uint8_t sr)
      : dstBlkStride(db), srcBlkStride(sb), dstRepStride(dr), srcRepStride(sr) {}
};

// DataCopy with strides: lengths and strides in 32-byte blocks.
struct DataCopyParams {
  uint16_t blockCount = 1, blockLen = 0, srcStride = 0, dstStride = 0;
  DataCopyParams() = default;
  DataCopyParams(uint16_t count, uint16_t len, uint16_t src, uint16_t dst)
      : blockCount(count), blockLen(len), srcStride(src), dstStride(dst) {}
};
// DataCopyPad: blockLen and the GM-side stride in bytes, the UB-side stride in blocks.
struct DataCopyExtParams {
  uint16_t blockCount = 1;
  uint32_t blockLen = 0, srcStride = 0, dstStride = 0, rsv = 0;
  DataCopyExtParams() = default;
  DataCopyExtParams(uint16_t count, uint32_t len, uint32_t src, uint32_t dst, uint32_t r)
      : blockCount(count), blockLen(len), srcStride(src), dstStride(dst), rsv(r) {}
};
struct DataCopyPadParams {
  bool isPad = false;
  uint8_t leftPadding = 0, rightPadding = 0;
  uint64_t paddingValue = 0;
  DataCopyPadParams() = default;
  DataCopyPadParams(bool pad, uint8_t left, uint8_t right, uint64_t value)
      : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};
template <typename T>
struct DataCopyPadExtParams {
  bool isPad = false;
  uint8_t leftPadding = 0, rightPadding = 0;
  T paddingValue{};
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
      : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

}  // namespace AscendC

using AscendC::bfloat16_t;
using AscendC::half;

// Names CANN's compiler provides at global scope: pipes, event ids, kernel types.
using AscendC::PIPE_ALL;
using AscendC::PIPE_FIX;
using AscendC::PIPE_M;
using AscendC::PIPE_MTE1;
using AscendC::PIPE_MTE2;
using AscendC::PIPE_MTE3;
using AscendC::PIPE_S;
using AscendC::pipe_t;
using AscendC::PIPE_V;
enum event_t : uint8_t {
  EVENT_ID0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7
};
// KERNEL_TASK_TYPE_DEFAULT(...) values: the core types a launch runs on.
enum KernelMetaType : uint8_t {
  KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE,
  KERNEL_TYPE_MAX
};
namespace AscendC {
using ::EVENT_ID0;
using ::EVENT_ID1;
using ::EVENT_ID2;
using ::EVENT_ID3;
using ::EVENT_ID4;
using ::EVENT_ID5;
using ::EVENT_ID6;
using ::EVENT_ID7;
using ::event_t;
// A tensor's shape as DumpTensor prints it and LocalTensor::SetShapeInfo keeps it.
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC };

struct ShapeInfo {
  static constexpr int K_MAX_DIM = 8;
  uint8_t shapeDim = 0, originalShapeDim = 0;
  uint32_t shape[K_MAX_DIM] = {}, originalShape[K_MAX_DIM] = {};
  DataFormat dataFormat = DataFormat::ND;
  ShapeInfo() = default;
  ShapeInfo(uint8_t dim, const uint32_t s[], uint8_t origDim, const uint32_t orig[], DataFormat fmt)
      : shapeDim(dim), originalShapeDim(origDim), dataFormat(fmt) {
    for (int i = 0; i < dim && i < K_MAX_DIM; ++i) shape[i] = s[i];
    for (int i = 0; i < origDim && i < K_MAX_DIM; ++i) originalShape[i] = orig[i];
  }
  ShapeInfo(uint8_t dim, const uint32_t s[], DataFormat fmt = DataFormat::ND)
      : ShapeInfo(dim, s, dim, s, fmt) {}
};

}  // namespace AscendC
