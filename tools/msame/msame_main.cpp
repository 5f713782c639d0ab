// msame: runs an .om model through AscendCL and reports inference times, like CANN's
// msame tool. Uses only the public AscendCL C API, as the original does.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "cli/flags.h"

namespace {

bool IsDir(const std::string& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> SplitComma(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t c = s.find(',', start);
    if (c == std::string::npos) c = s.size();
    if (c > start) out.push_back(s.substr(start, c - start));
    start = c + 1;
  }
  return out;
}

std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n == "." || n == "..") continue;
      if (!IsDir(dir + "/" + n)) out.push_back(dir + "/" + n);
    }
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool MakeDirs(const std::string& path) {
  std::string cur;
  for (size_t i = 0; i <= path.size(); ++i) {
    if (i == path.size() || path[i] == '/') {
      if (!cur.empty() && !IsDir(cur) && mkdir(cur.c_str(), 0755) != 0) return false;
    }
    if (i < path.size()) cur += path[i];
  }
  return true;
}

std::string BaseName(const std::string& p) {
  std::string b = p.substr(p.find_last_of('/') + 1);
  auto dot = b.rfind(".om");
  return dot == std::string::npos ? b : b.substr(0, dot);
}

std::string FormatValue(aclDataType t, const uint8_t* p) {
  char buf[64];
  switch (t) {
    case ACL_FLOAT:
      std::snprintf(buf, sizeof(buf), "%g", *reinterpret_cast<const float*>(p));
      break;
    case ACL_FLOAT16:
      std::snprintf(buf, sizeof(buf), "%g",
                    aclFloat16ToFloat(*reinterpret_cast<const uint16_t*>(p)));
      break;
    case ACL_DOUBLE:
      std::snprintf(buf, sizeof(buf), "%g", *reinterpret_cast<const double*>(p));
      break;
    case ACL_INT8:
      std::snprintf(buf, sizeof(buf), "%d", *reinterpret_cast<const int8_t*>(p));
      break;
    case ACL_UINT8:
    case ACL_BOOL:
      std::snprintf(buf, sizeof(buf), "%u", *p);
      break;
    case ACL_INT16:
      std::snprintf(buf, sizeof(buf), "%d", *reinterpret_cast<const int16_t*>(p));
      break;
    case ACL_UINT16:
      std::snprintf(buf, sizeof(buf), "%u", *reinterpret_cast<const uint16_t*>(p));
      break;
    case ACL_INT32:
      std::snprintf(buf, sizeof(buf), "%d", *reinterpret_cast<const int32_t*>(p));
      break;
    case ACL_UINT32:
      std::snprintf(buf, sizeof(buf), "%u", *reinterpret_cast<const uint32_t*>(p));
      break;
    case ACL_INT64:
      std::snprintf(buf, sizeof(buf), "%lld",
                    static_cast<long long>(*reinterpret_cast<const int64_t*>(p)));
      break;
    case ACL_UINT64:
      std::snprintf(buf, sizeof(buf), "%llu",
                    static_cast<unsigned long long>(*reinterpret_cast<const uint64_t*>(p)));
      break;
    default:
      std::snprintf(buf, sizeof(buf), "?");
  }
  return buf;
}

class Msame {
 public:
  int Run(const oc::Flags& f);
  ~Msame() { Cleanup(); }

 private:
  bool Check(aclError e, const char* what) {
    if (e == ACL_SUCCESS) {
      if (std::strlen(what)) std::printf("[INFO] %s success\n", what);
      return true;
    }
    const char* msg = aclGetRecentErrMsg();
    std::printf("[ERROR] %s failed, error code: %d%s%s\n", what, e, msg ? ", " : "",
                msg ? msg : "");
    return false;
  }
  void Cleanup();

  bool inited_ = false, device_set_ = false;
  int32_t device_ = 0;
  aclrtContext ctx_ = nullptr;
  aclrtStream stream_ = nullptr;
  uint32_t model_id_ = 0;
  bool loaded_ = false;
  aclmdlDesc* desc_ = nullptr;
  aclmdlDataset* in_ = nullptr;
  aclmdlDataset* out_ = nullptr;
  std::vector<void*> dev_bufs_;
};

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
}

int Msame::Run(const oc::Flags& f) {
  const std::string model = f.Get("model");
  if (model.empty()) {
    std::printf("[ERROR] --model is required\n");
    return 1;
  }
  int loop = 1;
  try {
    loop = std::stoi(f.Get("loop", "1"));
    device_ = std::stoi(f.Get("device", "0"));
  } catch (...) {
    std::printf("[ERROR] --loop and --device take integers\n");
    return 1;
  }
  if (loop < 1 || loop > 100000) {
    std::printf("[ERROR] --loop must be between 1 and 100000\n");
    return 1;
  }
  const std::string outfmt = f.Get("outfmt", "TXT");
  if (outfmt != "TXT" && outfmt != "BIN") {
    std::printf("[ERROR] --outfmt must be TXT or BIN\n");
    return 1;
  }
  const bool debug = f.Get("debug", "false") == "true";

  if (!Check(aclInit(nullptr), "acl init")) return 1;
  inited_ = true;
  if (!Check(aclrtSetDevice(device_), ("open device " + std::to_string(device_)).c_str())) return 1;
  device_set_ = true;
  if (!Check(aclrtCreateContext(&ctx_, device_), "create context")) return 1;
  if (!Check(aclrtCreateStream(&stream_), "create stream")) return 1;
  aclrtRunMode mode;
  if (!Check(aclrtGetRunMode(&mode), "get run mode")) return 1;
  if (!Check(aclmdlLoadFromFile(model.c_str(), &model_id_), ("load model " + model).c_str()))
    return 1;
  loaded_ = true;
  desc_ = aclmdlCreateDesc();
  if (!Check(aclmdlGetDesc(desc_, model_id_), "create model description")) return 1;
  const size_t n_in = aclmdlGetNumInputs(desc_), n_out = aclmdlGetNumOutputs(desc_);

  // Input files: one per model input, or folders whose files are fed run by run.
  std::vector<std::vector<std::string>> runs;
  if (f.Has("input")) {
    auto items = SplitComma(f.Get("input"));
    if (items.size() != n_in) {
      std::printf("[ERROR] the model has %zu inputs, --input names %zu\n", n_in, items.size());
      return 1;
    }
    std::vector<std::vector<std::string>> per_input;
    size_t n_runs = 1;
    for (const auto& it : items) {
      per_input.push_back(IsDir(it) ? ListDir(it) : std::vector<std::string>{it});
      if (per_input.back().empty()) {
        std::printf("[ERROR] input folder %s is empty\n", it.c_str());
        return 1;
      }
      n_runs = std::max(n_runs, per_input.back().size());
    }
    for (size_t r = 0; r < n_runs; ++r) {
      std::vector<std::string> files;
      for (const auto& v : per_input) files.push_back(v[std::min(r, v.size() - 1)]);
      runs.push_back(files);
    }
  } else {
    runs.push_back({});  // zeros
  }

  in_ = aclmdlCreateDataset();
  std::vector<size_t> in_sizes;
  for (size_t i = 0; i < n_in; ++i) {
    size_t sz = aclmdlGetInputSizeByIndex(desc_, i);
    void* p = nullptr;
    if (!Check(aclrtMalloc(&p, std::max<size_t>(sz, 1), ACL_MEM_MALLOC_NORMAL_ONLY), "")) return 1;
    dev_bufs_.push_back(p);
    aclrtMemset(p, sz, 0, sz);
    aclmdlAddDatasetBuffer(in_, aclCreateDataBuffer(p, sz));
    in_sizes.push_back(sz);
  }
  out_ = aclmdlCreateDataset();
  std::vector<void*> out_ptrs;
  for (size_t i = 0; i < n_out; ++i) {
    size_t sz = aclmdlGetOutputSizeByIndex(desc_, i);
    void* p = nullptr;
    if (!Check(aclrtMalloc(&p, std::max<size_t>(sz, 1), ACL_MEM_MALLOC_NORMAL_ONLY), "")) return 1;
    dev_bufs_.push_back(p);
    out_ptrs.push_back(p);
    aclmdlAddDatasetBuffer(out_, aclCreateDataBuffer(p, sz));
  }
  std::printf("[INFO] create model output success\n");

  std::string out_dir;
  if (f.Has("output")) {
    char stamp[64];
    std::time_t now = std::time(nullptr);
    std::strftime(stamp, sizeof(stamp), "%Y%m%d_%H%M%S", std::localtime(&now));
    out_dir = f.Get("output") + "/" + stamp;
    if (!MakeDirs(out_dir)) {
      std::printf("[ERROR] cannot create output folder %s\n", out_dir.c_str());
      return 1;
    }
  }

  std::vector<double> times;
  for (size_t r = 0; r < runs.size(); ++r) {
    for (size_t i = 0; i < runs[r].size(); ++i) {
      std::ifstream in(runs[r][i], std::ios::binary);
      if (!in) {
        std::printf("[ERROR] cannot read input file %s\n", runs[r][i].c_str());
        return 1;
      }
      std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
      if (bytes.size() != in_sizes[i]) {
        std::printf("[ERROR] input file %s has %zu bytes, model input %zu needs %zu\n",
                    runs[r][i].c_str(), bytes.size(), i, in_sizes[i]);
        return 1;
      }
      if (!Check(aclrtMemcpy(dev_bufs_[i], in_sizes[i], bytes.data(), bytes.size(),
                             ACL_MEMCPY_HOST_TO_DEVICE),
                 ""))
        return 1;
    }
    for (int l = 0; l < loop; ++l) {
      auto t0 = std::chrono::steady_clock::now();
      aclError e = aclmdlExecute(model_id_, in_, out_);
      auto t1 = std::chrono::steady_clock::now();
      if (!Check(e, "model execute")) return 1;
      double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
      times.push_back(ms);
      std::printf("Inference time: %.3f ms\n", ms);
    }
    if (!out_dir.empty()) {
      for (size_t i = 0; i < n_out; ++i) {
        const size_t sz = aclmdlGetOutputSizeByIndex(desc_, i);
        std::vector<uint8_t> host(sz);
        if (!Check(aclrtMemcpy(host.data(), sz, out_ptrs[i], sz, ACL_MEMCPY_DEVICE_TO_HOST), ""))
          return 1;
        std::string stem = out_dir + "/" + BaseName(model) +
                           (runs.size() > 1 ? "_" + std::to_string(r) : "") + "_output_" +
                           std::to_string(i);
        if (outfmt == "BIN") {
          std::ofstream o(stem + ".bin", std::ios::binary);
          o.write(reinterpret_cast<const char*>(host.data()), static_cast<std::streamsize>(sz));
        } else {
          aclDataType t = aclmdlGetOutputDataType(desc_, i);
          size_t es = aclDataTypeSize(t);
          aclmdlIODims dims;
          aclmdlGetOutputDims(desc_, i, &dims);
          size_t row = dims.dimCount
                           ? static_cast<size_t>(std::max<int64_t>(1, dims.dims[dims.dimCount - 1]))
                           : 1;
          std::ofstream o(stem + ".txt");
          for (size_t k = 0; es && k < sz / es; ++k)
            o << FormatValue(t, host.data() + k * es) << ((k + 1) % row == 0 ? "\n" : " ");
        }
        if (debug) std::printf("[INFO] output %zu written to %s\n", i, stem.c_str());
      }
      std::printf("[INFO] output data success\n");
    }
  }
  double sum = 0;
  for (double t : times) sum += t;
  std::printf("Inference average time: %.3f ms\n", sum / static_cast<double>(times.size()));
  if (times.size() > 1)
    std::printf("Inference average time without first time: %.3f ms\n",
                (sum - times[0]) / static_cast<double>(times.size() - 1));
  Cleanup();
  std::printf("[INFO] execute sample success\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  auto flags =
      oc::Flags::Parse(argc, argv,
                       {"model", "input", "output", "outfmt", "loop", "debug", "device", "dymBatch",
                        "dymHW", "dymDims", "dymShape", "outputSize", "profiler", "help", "h"},
                       {"help", "h"});
  if (!flags.ok()) {
    std::printf("[ERROR] %s\n", flags.status().ToString().c_str());
    return 1;
  }
  if (flags->Has("help") || flags->Has("h") || argc == 1) {
    std::printf(
        "msame --model <x.om> [--input a.bin,b.bin|dir] [--output dir] [--outfmt TXT|BIN]\n"
        "      [--loop N] [--device 0] [--debug true|false]\n");
    return argc == 1 ? 1 : 0;
  }
  Msame app;
  return app.Run(flags.value());
}
