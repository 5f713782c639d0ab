// AscendCL for one msame run: the acl.json of --dump and --profiler, device, context, stream
// and model, and their release in CANN's order with CANN's messages.
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>

#include "base/file.h"
#include "msame/msame_internal.h"

namespace oc::msame {

bool Msame::Check(aclError e, const char* what) {
  if (e == ACL_SUCCESS) {
    if (std::strlen(what)) std::printf("[INFO] %s success\n", what);
    return true;
  }
  const char* msg = aclGetRecentErrMsg();
  std::printf("[ERROR] %s failed, error code: %d%s%s\n", what, e, msg ? ", " : "", msg ? msg : "");
  return false;
}

void Msame::Cleanup() {
  for (aclmdlDataset* ds : {in_, out_}) {
    if (!ds) continue;
    for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); ++i)
      aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i));
    aclmdlDestroyDataset(ds);
  }
  in_ = out_ = nullptr;
  for (void* p : dev_bufs_) aclrtFree(p);
  dev_bufs_.clear();
  out_ptrs_.clear();
  if (desc_) aclmdlDestroyDesc(desc_);
  desc_ = nullptr;
  if (loaded_ && aclmdlUnload(model_id_) == ACL_SUCCESS)
    std::printf("[INFO] unload model success, model Id is %u\n", model_id_);
  loaded_ = false;
  if (stream_) {
    std::printf("[INFO] end to destroy stream\n");
    aclrtDestroyStream(stream_);
  }
  stream_ = nullptr;
  if (ctx_) {
    std::printf("[INFO] end to destroy context\n");
    aclrtDestroyContext(ctx_);
  }
  ctx_ = nullptr;
  if (device_set_) {
    std::printf("[INFO] end to reset device is %d\n", device_);
    aclrtResetDevice(device_);
  }
  device_set_ = false;
  if (inited_) {
    aclFinalize();
    std::printf("[INFO] end to finalize acl\n");
  }
  inited_ = false;
  if (acl_json_) std::remove("acl.json");
  acl_json_ = false;
}

// --dump / --profiler: an acl.json in the working folder for aclInit (removed at the end),
// as CANN's msame writes it; data under <output>/dump or <output>/profiler.
bool Msame::WriteAclJson(const Options& o) {
  if (!o.dump && !o.profiler) return true;
  const std::string base = o.output ? *o.output : ".";
  nlohmann::json cfg;
  if (o.dump)
    cfg["dump"] = {{"dump_path", base + "/dump"},
                   {"dump_mode", "output"},
                   {"dump_list", {{{"model_name", BaseName(o.model)}}}}};
  else
    cfg["profiler"] = {
        {"switch", "on"}, {"aicpu", "on"}, {"output", base + "/profiler"}, {"aic_metrics", ""}};
  if (!CreateDirectories(base + (o.dump ? "/dump" : "/profiler")).ok() ||
      !WriteFileAtomic("acl.json", cfg.dump(2)).ok()) {
    std::printf("[ERROR] cannot write acl.json or the %s folder\n", o.dump ? "dump" : "profiler");
    return false;
  }
  acl_json_ = true;
  return true;
}

bool Msame::OpenDevice() {
  if (!Check(aclInit(acl_json_ ? "acl.json" : nullptr), "acl init")) return false;
  inited_ = true;
  if (!Check(aclrtSetDevice(device_), ("open device " + std::to_string(device_)).c_str()))
    return false;
  device_set_ = true;
  if (!Check(aclrtCreateContext(&ctx_, device_), "create context")) return false;
  if (!Check(aclrtCreateStream(&stream_), "create stream")) return false;
  aclrtRunMode mode;
  return Check(aclrtGetRunMode(&mode), "get run mode");
}

bool Msame::LoadModel(const std::string& model) {
  if (!Check(aclmdlLoadFromFile(model.c_str(), &model_id_), ("load model " + model).c_str()))
    return false;
  loaded_ = true;
  desc_ = aclmdlCreateDesc();
  if (!Check(aclmdlGetDesc(desc_, model_id_), "create model description")) return false;
  n_in_ = aclmdlGetNumInputs(desc_);
  n_out_ = aclmdlGetNumOutputs(desc_);
  return true;
}

}  // namespace oc::msame
