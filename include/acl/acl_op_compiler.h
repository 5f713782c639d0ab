/* OpenCANN: AscendCL's operator-compiler options, as aclnn applications include them.
 * Options that only steer how CANN compiles and caches operators on the NPU (JIT, cache,
 * debug output, tuning) are recorded and read back; they change nothing on the CPU.
 * Compiling single operators (aclopCompile*) is refused with ACL_ERROR_API_NOT_SUPPORT and
 * a message naming what OpenCANN does not support. */
#ifndef OPENCANN_ACL_ACL_OP_COMPILER_H_
#define OPENCANN_ACL_ACL_OP_COMPILER_H_

#include <stddef.h>

#include "acl/acl_base.h"
#include "acl/acl_op.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum aclEngineType ACL_ENUM_INT {
  ACL_ENGINE_SYS,
  ACL_ENGINE_AICORE,
  ACL_ENGINE_VECTOR
} aclopEngineType;

typedef enum aclCompileType ACL_ENUM_INT {
  ACL_COMPILE_SYS,
  ACL_COMPILE_UNREGISTERED
} aclopCompileType;

typedef enum ACL_ENUM_INT {
  ACL_PRECISION_MODE,
  ACL_AICORE_NUM,
  ACL_AUTO_TUNE_MODE,
  ACL_OP_SELECT_IMPL_MODE,
  ACL_OPTYPELIST_FOR_IMPLMODE,
  ACL_OP_DEBUG_LEVEL,
  ACL_DEBUG_DIR,
  ACL_OP_COMPILER_CACHE_MODE,
  ACL_OP_COMPILER_CACHE_DIR,
  ACL_OP_PERFORMANCE_MODE,
  ACL_OP_JIT_COMPILE,
  ACL_OP_DETERMINISTIC,
  ACL_CUSTOMIZE_DTYPES,
  ACL_OP_PRECISION_MODE,
  ACL_ALLOW_HF32,
  ACL_PRECISION_MODE_V2,
  ACL_OP_DEBUG_OPTION
} aclCompileOpt;

typedef enum aclCompileFlag ACL_ENUM_INT {
  ACL_OP_COMPILE_DEFAULT,
  ACL_OP_COMPILE_FUZZ
} aclOpCompileFlag;

/* Sets an option for the rest of the process; the value is checked where it has a fixed
 * set (precision modes, on/off switches, AI core counts). */
ACL_FUNC_VISIBILITY aclError aclSetCompileopt(aclCompileOpt opt, const char* value);
/* Length of the option's value including the terminating NUL (0 when never set). */
ACL_FUNC_VISIBILITY size_t aclGetCompileoptSize(aclCompileOpt opt);
ACL_FUNC_VISIBILITY aclError aclGetCompileopt(aclCompileOpt opt, char* value, size_t length);
ACL_FUNC_VISIBILITY aclError aclopSetCompileFlag(aclOpCompileFlag flag);

ACL_FUNC_VISIBILITY aclError aclopCompile(const char* opType, int numInputs,
                                          const aclTensorDesc* const inputDesc[], int numOutputs,
                                          const aclTensorDesc* const outputDesc[],
                                          const aclopAttr* attr, aclopEngineType engineType,
                                          aclopCompileType compileFlag, const char* opPath);
ACL_FUNC_VISIBILITY aclError aclopCompileAndExecute(
    const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
    const aclDataBuffer* const inputs[], int numOutputs, const aclTensorDesc* const outputDesc[],
    aclDataBuffer* const outputs[], const aclopAttr* attr, aclopEngineType engineType,
    aclopCompileType compileFlag, const char* opPath, aclrtStream stream);

/* aclopCompileAndExecute with the descriptions writable: the outputs' run through
 * aclopExecuteV2 (for ops whose output shapes depend on the data). */
ACL_FUNC_VISIBILITY aclError
aclopCompileAndExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                         aclDataBuffer* inputs[], int numOutputs, aclTensorDesc* outputDesc[],
                         aclDataBuffer* outputs[], aclopAttr* attr, aclopEngineType engineType,
                         aclopCompileType compileFlag, const char* opPath, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* OPENCANN_ACL_ACL_OP_COMPILER_H_ */
