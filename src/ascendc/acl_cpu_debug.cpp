// The few AscendCL calls a CPU-debug host program makes without linking AscendCL (CANN's CPU
// debug library provides them): half conversions and data type sizes. Same results as
// libascendcl's, which a program linking both may use instead.
#include "acl/acl_base.h"
#include "kernel_operator.h"

extern "C" {

float aclFloat16ToFloat(aclFloat16 value) { return AscendC::detail::HalfBitsToFloat(value); }

aclFloat16 aclFloatToFloat16(float value) { return AscendC::detail::FloatToHalfBits(value); }

size_t aclDataTypeSize(aclDataType dataType) {
  switch (dataType) {
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
      return 4;
    case ACL_FLOAT16:
    case ACL_INT16:
    case ACL_UINT16:
    case ACL_BF16:
      return 2;
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_BOOL:
      return 1;
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_DOUBLE:
    case ACL_COMPLEX64:
      return 8;
    case ACL_COMPLEX128:
      return 16;
    default:
      return 0;
  }
}

}  // extern "C"
