// aclSetCompileopt and friends: CANN's operator-compiler options. OpenCANN compiles no
// single operators, so the options only need to be valid and readable back; single-operator
// compilation is refused by name.
#include "acl/acl_op_compiler.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "acl/acl_state.h"

using oc::acl::Fail;

namespace {

std::mutex g_mutex;
std::map<int, std::string> g_options;

// The values an option may take where CANN fixes them; empty: any string.
const std::set<std::string>* AllowedValues(aclCompileOpt opt) {
  static const std::set<std::string> precision = {"force_fp32",
                                                  "force_fp16",
                                                  "allow_fp32_to_fp16",
                                                  "must_keep_origin_dtype",
                                                  "allow_mix_precision",
                                                  "allow_mix_precision_fp16",
                                                  "allow_mix_precision_bf16",
                                                  "allow_fp32_to_bf16",
                                                  "cube_fp16in_fp32out"};
  static const std::set<std::string> precision_v2 = {
      "fp16",           "origin",    "cube_fp16in_fp32out", "mixed_float16",
      "mixed_bfloat16", "cube_hif8", "mixed_hif8"};
  static const std::set<std::string> on_off = {"enable", "disable"};
  static const std::set<std::string> cache = {"enable", "disable", "force"};
  static const std::set<std::string> impl = {"high_precision", "high_performance"};
  static const std::set<std::string> zero_one = {"0", "1"};
  static const std::set<std::string> debug = {"0", "1", "2", "3", "4"};
  switch (opt) {
    case ACL_PRECISION_MODE:
      return &precision;
    case ACL_PRECISION_MODE_V2:
      return &precision_v2;
    case ACL_OP_JIT_COMPILE:
      return &on_off;
    case ACL_OP_COMPILER_CACHE_MODE:
      return &cache;
    case ACL_OP_SELECT_IMPL_MODE:
      return &impl;
    case ACL_OP_DETERMINISTIC:
    case ACL_ALLOW_HF32:
      return &zero_one;
    case ACL_OP_DEBUG_LEVEL:
      return &debug;
    default:
      return nullptr;
  }
}

}  // namespace

aclError aclSetCompileopt(aclCompileOpt opt, const char* value) {
  OC_ACL_CHECK_NULL(value);
  if (opt < ACL_PRECISION_MODE || opt > ACL_OP_DEBUG_OPTION)
    return Fail(ACL_ERROR_INVALID_PARAM,
                "aclSetCompileopt: unknown option " + std::to_string(static_cast<int>(opt)));
  const std::string v = value;
  if (const auto* allowed = AllowedValues(opt); allowed && !allowed->count(v)) {
    std::string list;
    for (const auto& a : *allowed) list += (list.empty() ? "" : ", ") + a;
    return Fail(ACL_ERROR_INVALID_PARAM, "aclSetCompileopt: [" + v + "] is not one of " + list +
                                             " for option " +
                                             std::to_string(static_cast<int>(opt)));
  }
  if (opt == ACL_AICORE_NUM) {
    char* end = nullptr;
    const long n = std::strtol(value, &end, 10);
    if (!*value || *end || n < 1 || n > 64)
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclSetCompileopt: ACL_AICORE_NUM must be a count of AI cores, not [" + v + "]");
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  g_options[opt] = v;
  return ACL_SUCCESS;
}

size_t aclGetCompileoptSize(aclCompileOpt opt) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_options.find(opt);
  return it == g_options.end() ? 0 : it->second.size() + 1;
}

aclError aclGetCompileopt(aclCompileOpt opt, char* value, size_t length) {
  OC_ACL_CHECK_NULL(value);
  std::lock_guard<std::mutex> lock(g_mutex);
  auto it = g_options.find(opt);
  if (it == g_options.end())
    return Fail(ACL_ERROR_INVALID_PARAM, "aclGetCompileopt: the option was never set");
  if (length < it->second.size() + 1)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclGetCompileopt: the buffer of " +
                                             std::to_string(length) + " bytes is too short");
  std::memcpy(value, it->second.c_str(), it->second.size() + 1);
  return ACL_SUCCESS;
}

aclError aclopSetCompileFlag(aclOpCompileFlag flag) {
  if (flag != ACL_OP_COMPILE_DEFAULT && flag != ACL_OP_COMPILE_FUZZ)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclopSetCompileFlag: unknown flag");
  return ACL_SUCCESS;  // how CANN compiles shapes (exact or fuzzy); no CPU effect
}

aclError aclopCompile(const char* opType, int, const aclTensorDesc* const[], int,
                      const aclTensorDesc* const[], const aclopAttr*, aclopEngineType,
                      aclopCompileType, const char*) {
  return Fail(ACL_ERROR_API_NOT_SUPPORT,
              std::string("aclopCompile(") + (opType ? opType : "null") +
                  "): OpenCANN does not compile single operators; convert a model with atc, "
                  "or call a custom operator's aclnn API");
}

aclError aclopCompileAndExecute(const char* opType, int, const aclTensorDesc* const[],
                                const aclDataBuffer* const[], int, const aclTensorDesc* const[],
                                aclDataBuffer* const[], const aclopAttr*, aclopEngineType,
                                aclopCompileType, const char*, aclrtStream) {
  return Fail(ACL_ERROR_API_NOT_SUPPORT,
              std::string("aclopCompileAndExecute(") + (opType ? opType : "null") +
                  "): OpenCANN does not compile single operators; convert a model with atc, "
                  "or call a custom operator's aclnn API");
}
