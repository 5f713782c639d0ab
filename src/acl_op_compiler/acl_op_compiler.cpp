// libacl_op_compiler: CANN's operator compiler at run time. aclopCompile writes the op as an
// `atc --singleop` description, runs atc (beside this library: <prefix>/bin/atc, or
// OCANN_ATC) in a child process — as CANN runs its operator compiler out of process — and
// hands the .om to AscendCL with aclopLoad: the compile side and the run side meet only at the
// .om. The options of aclSetCompileopt are checked and kept; ACL_PRECISION_MODE applies.
#include "acl/acl_op_compiler.h"

#include <dlfcn.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl_internal_abi.h"

extern char** environ;

namespace {
// Errors are reported through AscendCL's message (aclGetRecentErrMsg) as its own are.
aclError Fail(aclError code, const std::string& message) {
  oc_internal_acl_fail(code, message.c_str());
  return code;
}
}  // namespace

#define OC_ACL_CHECK_NULL(p)                                                        \
  do {                                                                              \
    if ((p) == nullptr)                                                             \
      return Fail(ACL_ERROR_INVALID_PARAM,                                          \
                  std::string(__func__) + ": parameter [" #p "] must not be null"); \
  } while (0)

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
  if (!oc_internal_host_range_writable(value, it->second.size() + 1))
    return Fail(ACL_ERROR_INVALID_PARAM, "aclGetCompileopt: value is not writable memory of " +
                                             std::to_string(it->second.size() + 1) + " bytes");
  std::memcpy(value, it->second.c_str(), it->second.size() + 1);
  return ACL_SUCCESS;
}

aclError aclopSetCompileFlag(aclOpCompileFlag flag) {
  if (flag != ACL_OP_COMPILE_DEFAULT && flag != ACL_OP_COMPILE_FUZZ)
    return Fail(ACL_ERROR_INVALID_PARAM, "aclopSetCompileFlag: unknown flag");
  return ACL_SUCCESS;  // how CANN compiles shapes (exact or fuzzy); no CPU effect
}

namespace {

const char* DtypeName(aclDataType t) {
  switch (t) {
    case ACL_FLOAT:
      return "float";
    case ACL_FLOAT16:
      return "float16";
    case ACL_INT8:
      return "int8";
    case ACL_INT32:
      return "int32";
    case ACL_UINT8:
      return "uint8";
    case ACL_INT16:
      return "int16";
    case ACL_UINT16:
      return "uint16";
    case ACL_UINT32:
      return "uint32";
    case ACL_INT64:
      return "int64";
    case ACL_UINT64:
      return "uint64";
    case ACL_DOUBLE:
      return "double";
    case ACL_BOOL:
      return "bool";
    case ACL_BF16:
      return "bfloat16";
    default:
      return nullptr;
  }
}

const char* FormatName(aclFormat f) {
  switch (f) {
    case ACL_FORMAT_ND:
      return "ND";
    case ACL_FORMAT_NCHW:
      return "NCHW";
    case ACL_FORMAT_NHWC:
      return "NHWC";
    case ACL_FORMAT_NCDHW:
      return "NCDHW";
    case ACL_FORMAT_NDHWC:
      return "NDHWC";
    case ACL_FORMAT_HWCN:
      return "HWCN";
    default:
      return nullptr;
  }
}

// The call as one entry of atc --singleop's JSON.
aclError Describe(const char* fn, const char* opType, int nin, const aclTensorDesc* const in[],
                  int nout, const aclTensorDesc* const out[], const aclopAttr* attr,
                  nlohmann::json* op) {
  if (!opType) return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": opType is null");
  if (nin < 0 || nout <= 0 || (nin && !in) || !out)
    return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": bad tensor description arrays");
  (*op)["op"] = opType;
  // Trailing optional inputs marked omitted are not given (the runtime's rule, shared).
  if (aclError e = oc_internal_given_inputs(fn, &nin, in)) return e;
  for (int k = 0; k < nin + nout; ++k) {
    const aclTensorDesc* d = k < nin ? in[k] : out[k - nin];
    const aclDataType dt = aclGetTensorDescType(d);
    if (dt == ACL_DT_UNDEFINED)
      return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": tensor description " +
                                               std::to_string(k) + " is not a live one");
    const char* type = DtypeName(dt);
    const char* format = FormatName(aclGetTensorDescFormat(d));
    if (!type || !format)
      return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                  std::string(fn) + ": tensor " + std::to_string(k) +
                      " has a data type or format OpenCANN's single operators do not take");
    nlohmann::json t = {{"type", type}, {"format", format}, {"shape", nlohmann::json::array()}};
    const size_t rank = aclGetTensorDescNumDims(d);
    if (rank == static_cast<size_t>(ACL_UNKNOWN_RANK))
      return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": tensor " + std::to_string(k) +
                                               " has an unknown rank; compiling needs its dims");
    for (size_t i = 0; i < rank; ++i) {
      int64_t v = 0;
      aclGetTensorDescDimV2(d, i, &v);
      t["shape"].push_back(v);
    }
    (*op)[k < nin ? "input_desc" : "output_desc"].push_back(std::move(t));
  }
  if (attr) {
    const char* text = oc_internal_aclop_attr_json(attr);
    if (!text)
      return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": attr is not a live aclopAttr");
    auto& list = (*op)["attr"] = nlohmann::json::array();
    // Held in a local: items() of a temporary would outlive it inside the loop.
    const nlohmann::json attrs = nlohmann::json::parse(text, nullptr, false);
    if (!attrs.is_object())
      return Fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": attr is not a live aclopAttr");
    for (const auto& [name, v] : attrs.items()) {
      nlohmann::json a = v;
      a["name"] = name;
      list.push_back(std::move(a));
    }
  }
  return ACL_SUCCESS;
}

// atc: OCANN_ATC, else bin/atc beside this library's lib/ folder.
std::string AtcPath() {
  if (const char* atc = oc_internal_config_atc(); *atc) return atc;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&AtcPath), &info) && info.dli_fname) {
    const auto dir = std::filesystem::path(info.dli_fname).parent_path();
    return (dir.parent_path() / "bin" / "atc").string();
  }
  return "atc";
}

// Runs atc; its exit status, and what it printed in *output.
int RunAtc(const std::vector<std::string>& args, std::string* output) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, args[0].c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    *output = "cannot run " + args[0] + ": " + std::strerror(rc);
    return -1;
  }
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof(buf))) > 0;) output->append(buf, buf + n);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::mutex g_compiled_mutex;
std::set<std::string> g_compiled;  // the ops already compiled and loaded (their JSON)

aclError CompileAndLoad(const char* fn, const nlohmann::json& op, aclopCompileType type,
                        const char* opPath) {
  if (type == ACL_COMPILE_UNREGISTERED || opPath)
    return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                std::string(fn) +
                    ": compiling an unregistered operator from an operator path "
                    "(TBE source) is not supported by OpenCANN");
  const std::string key = op.dump();
  {
    std::lock_guard<std::mutex> lock(g_compiled_mutex);
    if (g_compiled.count(key)) return ACL_SUCCESS;
  }
  char tmpl[] = "/tmp/ocann_aclop_XXXXXX";
  if (!mkdtemp(tmpl)) return Fail(ACL_ERROR_FAILURE, std::string(fn) + ": no temporary folder");
  const std::string dir = tmpl;
  std::ofstream(dir + "/op.json") << nlohmann::json::array({op}).dump();
  std::vector<std::string> args = {AtcPath(), "--singleop=" + dir + "/op.json",
                                   "--output=" + dir + "/out",
                                   std::string("--soc_version=") + aclrtGetSocName()};
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    auto it = g_options.find(ACL_PRECISION_MODE);
    if (it != g_options.end()) args.push_back("--precision_mode=" + it->second);
  }
  std::string output;
  const int rc = RunAtc(args, &output);
  std::string om;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir + "/out", ec))
    if (e.path().extension() == ".om") om = e.path().string();
  aclError result = ACL_SUCCESS;
  if (rc != 0 || om.empty()) {
    // atc's error line (E10001, E19010, ...) says what is wrong with the op.
    std::string why;
    std::istringstream lines(output);
    for (std::string l; std::getline(lines, l);)
      if (l.size() > 7 && l[0] == 'E' && l[6] == ':') why += (why.empty() ? "" : " ") + l;
    result = Fail(
        why.find("E19010") != std::string::npos ? ACL_ERROR_OP_NOT_FOUND : ACL_ERROR_INVALID_PARAM,
        std::string(fn) + ": atc could not compile " + op["op"].get<std::string>() + ": " +
            (why.empty() ? output : why));
  } else {
    std::ifstream in(om, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    result = aclopLoad(bytes.data(), bytes.size());
  }
  std::filesystem::remove_all(dir, ec);
  if (result != ACL_SUCCESS) return result;
  std::lock_guard<std::mutex> lock(g_compiled_mutex);
  g_compiled.insert(key);
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclopCompile(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                      int numOutputs, const aclTensorDesc* const outputDesc[],
                      const aclopAttr* attr, aclopEngineType engineType,
                      aclopCompileType compileFlag, const char* opPath) {
  (void)engineType;  // every engine is the CPU here
  nlohmann::json op;
  if (aclError e =
          Describe(__func__, opType, numInputs, inputDesc, numOutputs, outputDesc, attr, &op))
    return e;
  return CompileAndLoad(__func__, op, compileFlag, opPath);
}

aclError aclopCompileAndExecute(const char* opType, int numInputs,
                                const aclTensorDesc* const inputDesc[],
                                const aclDataBuffer* const inputs[], int numOutputs,
                                const aclTensorDesc* const outputDesc[],
                                aclDataBuffer* const outputs[], const aclopAttr* attr,
                                aclopEngineType engineType, aclopCompileType compileFlag,
                                const char* opPath, aclrtStream stream) {
  if (aclError e = aclopCompile(opType, numInputs, inputDesc, numOutputs, outputDesc, attr,
                                engineType, compileFlag, opPath))
    return e;
  return aclopExecute(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr,
                      stream);
}

aclError aclopCompileAndExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                                  aclDataBuffer* inputs[], int numOutputs,
                                  aclTensorDesc* outputDesc[], aclDataBuffer* outputs[],
                                  aclopAttr* attr, aclopEngineType engineType,
                                  aclopCompileType compileFlag, const char* opPath,
                                  aclrtStream stream) {
  if (aclError e = aclopCompile(opType, numInputs, inputDesc, numOutputs, outputDesc, attr,
                                engineType, compileFlag, opPath))
    return e;
  return aclopExecuteV2(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr,
                        stream);
}

}  // extern "C"
