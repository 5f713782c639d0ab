// msame: runs an .om model through AscendCL and reports inference times, like CANN's
// msame tool. Uses only the public AscendCL C API, as the original does.
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "base/file.h"
#include "cli/flags.h"

namespace {

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

// numpy's descr for an aclDataType (little-endian), or empty.
std::string NpyDescr(aclDataType t) {
  switch (t) {
    case ACL_FLOAT:
      return "<f4";
    case ACL_FLOAT16:
      return "<f2";
    case ACL_DOUBLE:
      return "<f8";
    case ACL_INT8:
      return "|i1";
    case ACL_UINT8:
      return "|u1";
    case ACL_INT16:
      return "<i2";
    case ACL_UINT16:
      return "<u2";
    case ACL_INT32:
      return "<i4";
    case ACL_UINT32:
      return "<u4";
    case ACL_INT64:
      return "<i8";
    case ACL_UINT64:
      return "<u8";
    case ACL_BOOL:
      return "|b1";
    default:
      return "";
  }
}

// An input file's bytes: a raw .bin, or a .npy (as ais_bench reads them) whose dtype must be
// the input's and whose data must be C-ordered.
bool ReadInput(const std::string& path, aclDataType type, std::vector<char>* bytes,
               std::string* why) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return *why = "cannot be read", false;
  bytes->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (path.size() < 4 || path.compare(path.size() - 4, 4, ".npy") != 0) return true;
  const std::string magic = "\x93NUMPY";
  if (bytes->size() < 10 || std::string(bytes->data(), 6) != magic)
    return *why = "is not a .npy file (no NUMPY magic)", false;
  const int major = static_cast<unsigned char>((*bytes)[6]);
  size_t header_len = 0, at = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>((*bytes)[8]) |
                 (static_cast<size_t>(static_cast<unsigned char>((*bytes)[9])) << 8);
    at = 10;
  } else if (major == 2 || major == 3) {
    if (bytes->size() < 12) return *why = "has a truncated .npy header", false;
    for (int k = 0; k < 4; ++k)
      header_len |= static_cast<size_t>(static_cast<unsigned char>((*bytes)[8 + k])) << (8 * k);
    at = 12;
  } else {
    return *why = "has .npy version " + std::to_string(major), false;
  }
  if (header_len > bytes->size() - at) return *why = "has a truncated .npy header", false;
  const std::string header(bytes->data() + at, header_len);
  auto field = [&](const std::string& key) {
    const size_t k = header.find("'" + key + "'");
    if (k == std::string::npos) return std::string();
    size_t v = header.find(':', k);
    if (v == std::string::npos) return std::string();
    ++v;
    while (v < header.size() && header[v] == ' ') ++v;
    const char close = header[v] == '\'' ? '\'' : (header[v] == '(' ? ')' : ',');
    const size_t end = header.find(close, v + 1);
    return header.substr(v, end == std::string::npos ? std::string::npos : end - v + 1);
  };
  const std::string descr = field("descr"), order = field("fortran_order");
  const std::string want = NpyDescr(type);
  if (descr != "'" + want + "'")
    return *why = "holds " + descr + " data; the input is " +
                  (want.empty() ? std::string("a type .npy cannot describe") : "'" + want + "'"),
           false;
  if (order.rfind("True", 0) == 0)
    return *why = "is Fortran-ordered; save it C-ordered (np.ascontiguousarray)", false;
  bytes->erase(bytes->begin(), bytes->begin() + static_cast<std::ptrdiff_t>(at + header_len));
  return true;
}

std::string BaseName(const std::string& p) {
  std::string b = p.substr(p.find_last_of('/') + 1);
  auto dot = b.rfind(".om");
  return dot == std::string::npos ? b : b.substr(0, dot);
}

// A file's name without its folder and its last extension (an input's, in folder mode).
std::string Stem(const std::string& p) {
  std::string b = p.substr(p.find_last_of('/') + 1);
  const auto dot = b.rfind('.');
  return dot == std::string::npos || dot == 0 ? b : b.substr(0, dot);
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

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t c = s.find(sep, start);
    if (c == std::string::npos) c = s.size();
    if (c > start) out.push_back(s.substr(start, c - start));
    start = c + 1;
  }
  return out;
}

bool ParseInts(const std::string& text, std::vector<int64_t>* out) {
  out->clear();
  for (const auto& item : SplitComma(text)) {
    try {
      size_t pos = 0;
      long long v = std::stoll(item, &pos);
      if (pos != item.size() || v < 0) return false;
      out->push_back(v);
    } catch (...) {
      return false;
    }
  }
  return !out->empty();
}

// "in:1,600;in2:3" -> {in: [1,600], in2: [3]}; false on bad text.
bool ParseNamedDims(const std::string& text,
                    std::vector<std::pair<std::string, std::vector<int64_t>>>* out) {
  for (const auto& item : Split(text, ';')) {
    const auto colon = item.rfind(':');
    if (colon == std::string::npos || colon == 0) return false;
    std::vector<int64_t> dims;
    if (!ParseInts(item.substr(colon + 1), &dims)) return false;
    out->emplace_back(item.substr(0, colon), dims);
  }
  return !out->empty();
}

int64_t Product(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
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

  bool inited_ = false, device_set_ = false, acl_json_ = false;
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
  if (acl_json_) std::remove("acl.json");
  acl_json_ = false;
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
  // As CANN's msame: TXT, or BIN for anything else (the default).
  const std::string outfmt = f.Get("outfmt", "BIN") == "TXT" ? "TXT" : "BIN";
  const bool debug = f.Get("debug", "false") == "true";
  if (model.find(".om") == std::string::npos) {
    std::printf("[ERROR] input model file type is not .om , please check your model type!\n");
    return 1;
  }
  const bool dump = f.Get("dump", "false") == "true";
  const bool profiler = f.Get("profiler", "false") == "true";
  for (const char* flag : {"dump", "profiler", "debug"})
    if (f.Has(flag) && f.Get(flag) != "true" && f.Get(flag) != "false") {
      std::printf("[ERROR] --%s takes true or false\n", flag);
      return 1;
    }
  if (dump && profiler) {
    std::printf("[ERROR] --dump and --profiler cannot be used together\n");
    return 1;
  }
  // --dump / --profiler: an acl.json in the working folder for aclInit (removed at the end),
  // as CANN's msame writes it; data under <output>/dump or <output>/profiler.
  if (dump || profiler) {
    const std::string base = f.Has("output") ? f.Get("output") : ".";
    nlohmann::json cfg;
    if (dump)
      cfg["dump"] = {{"dump_path", base + "/dump"},
                     {"dump_mode", "output"},
                     {"dump_list", {{{"model_name", BaseName(model)}}}}};
    else
      cfg["profiler"] = {
          {"switch", "on"}, {"aicpu", "on"}, {"output", base + "/profiler"}, {"aic_metrics", ""}};
    if (!oc::CreateDirectories(base + (dump ? "/dump" : "/profiler")).ok() ||
        !oc::WriteFileAtomic("acl.json", cfg.dump(2)).ok()) {
      std::printf("[ERROR] cannot write acl.json or the %s folder\n", dump ? "dump" : "profiler");
      return 1;
    }
    acl_json_ = true;
  }

  if (!Check(aclInit(acl_json_ ? "acl.json" : nullptr), "acl init")) return 1;
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
  // A model with gears has the extra ascend_mbatch_shape_data input: msame fills it.
  size_t gear_index = 0;
  const bool has_gears =
      aclmdlGetInputIndexByName(desc_, ACL_DYNAMIC_TENSOR_NAME, &gear_index) == ACL_SUCCESS;
  std::vector<size_t> data_inputs;  // the inputs the user's files feed
  for (size_t i = 0; i < n_in; ++i)
    if (!has_gears || i != gear_index) data_inputs.push_back(i);

  // The actual shape of each input: the model's dims with the -1s resolved from --dym*.
  std::vector<std::vector<int64_t>> shapes(n_in);
  for (size_t i = 0; i < n_in; ++i) {
    aclmdlIODims d{};
    aclmdlGetInputDims(desc_, i, &d);
    shapes[i].assign(d.dims, d.dims + d.dimCount);
  }
  auto fill = [&](size_t i, const std::vector<size_t>& positions, const std::vector<int64_t>& v) {
    for (size_t k = 0; k < positions.size() && k < v.size(); ++k)
      if (positions[k] < shapes[i].size()) shapes[i][positions[k]] = v[k];
  };
  std::vector<int64_t> dym_batch, dym_hw;
  std::vector<std::pair<std::string, std::vector<int64_t>>> dym_dims, dym_shape;
  if (f.Has("dymBatch") && (!ParseInts(f.Get("dymBatch"), &dym_batch) || dym_batch.size() != 1)) {
    std::printf("[ERROR] --dymBatch takes one positive integer\n");
    return 1;
  }
  if (f.Has("dymHW") && (!ParseInts(f.Get("dymHW"), &dym_hw) || dym_hw.size() != 2)) {
    std::printf("[ERROR] --dymHW takes \"height,width\"\n");
    return 1;
  }
  if (f.Has("dymDims") && !ParseNamedDims(f.Get("dymDims"), &dym_dims)) {
    std::printf("[ERROR] --dymDims takes \"input:d1,d2;input2:d1\"\n");
    return 1;
  }
  if (f.Has("dymShape") && !ParseNamedDims(f.Get("dymShape"), &dym_shape)) {
    std::printf("[ERROR] --dymShape takes \"input:n,c,h,w;input2:n,c\"\n");
    return 1;
  }
  if (f.Has("dymBatch") + f.Has("dymHW") + f.Has("dymDims") + f.Has("dymShape") > 1) {
    std::printf("[ERROR] --dymBatch, --dymHW, --dymDims and --dymShape are mutually exclusive\n");
    return 1;
  }
  for (size_t i : data_inputs) {
    const std::string name = aclmdlGetInputNameByIndex(desc_, i);
    if (!dym_batch.empty() && !shapes[i].empty() && shapes[i][0] < 0) fill(i, {0}, dym_batch);
    if (!dym_hw.empty() && shapes[i].size() == 4) {
      const bool nhwc = aclmdlGetInputFormat(desc_, i) == ACL_FORMAT_NHWC;
      fill(i, nhwc ? std::vector<size_t>{1, 2} : std::vector<size_t>{2, 3}, dym_hw);
    }
    for (const auto& [n, dims] : dym_dims)
      if (n == name) {
        if (dims.size() != shapes[i].size()) {
          std::printf("[ERROR] --dymDims gives %zu dims for input %s of rank %zu\n", dims.size(),
                      name.c_str(), shapes[i].size());
          return 1;
        }
        shapes[i] = dims;
      }
    for (const auto& [n, dims] : dym_shape)
      if (n == name) shapes[i] = dims;
  }
  for (const auto& list : {dym_dims, dym_shape})
    for (const auto& [n, dims] : list) {
      size_t idx = 0;
      if (aclmdlGetInputIndexByName(desc_, n.c_str(), &idx) != ACL_SUCCESS) {
        std::printf("[ERROR] the model has no input named %s\n", n.c_str());
        return 1;
      }
    }
  std::vector<size_t> in_sizes(n_in);
  for (size_t i = 0; i < n_in; ++i) {
    const int64_t n = Product(shapes[i]);
    in_sizes[i] = n >= 0
                      ? static_cast<size_t>(n) * aclDataTypeSize(aclmdlGetInputDataType(desc_, i))
                      : aclmdlGetInputSizeByIndex(desc_, i);
    if (n < 0 && !(has_gears && i == gear_index)) {
      std::printf(
          "[ERROR] input %zu (%s) has dynamic dims: give them with --dymBatch, --dymHW, "
          "--dymDims or --dymShape\n",
          i, aclmdlGetInputNameByIndex(desc_, i));
      return 1;
    }
  }
  if (has_gears) in_sizes[gear_index] = aclmdlGetInputSizeByIndex(desc_, gear_index);

  // Input files: one per model input, or folders whose files are fed run by run.
  std::vector<std::vector<std::string>> runs;
  bool folder_mode = false;
  if (f.Has("input")) {
    auto items = SplitComma(f.Get("input"));
    if (items.size() != data_inputs.size()) {
      std::printf("[ERROR] the model has %zu inputs, --input names %zu\n", data_inputs.size(),
                  items.size());
      return 1;
    }
    std::vector<std::vector<std::string>> per_input;
    size_t n_runs = 1;
    for (const auto& it : items) {
      folder_mode |= oc::IsDirectory(it);
      per_input.push_back(oc::IsDirectory(it) ? oc::ListFiles(it) : std::vector<std::string>{it});
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
  for (size_t i = 0; i < n_in; ++i) {
    const size_t sz = std::max(in_sizes[i], aclmdlGetInputSizeByIndex(desc_, i));
    void* p = nullptr;
    if (!Check(aclrtMalloc(&p, std::max<size_t>(sz, 1), ACL_MEM_MALLOC_NORMAL_ONLY), "")) return 1;
    dev_bufs_.push_back(p);
    aclrtMemset(p, sz, 0, sz);
    aclmdlAddDatasetBuffer(in_, aclCreateDataBuffer(p, sz));
    if (!dym_shape.empty() && !(has_gears && i == gear_index)) {
      aclTensorDesc* td =
          aclCreateTensorDesc(aclmdlGetInputDataType(desc_, i), static_cast<int>(shapes[i].size()),
                              shapes[i].data(), aclmdlGetInputFormat(desc_, i));
      aclError e = aclmdlSetDatasetTensorDesc(in_, td, i);
      aclDestroyTensorDesc(td);
      if (!Check(e, "")) return 1;
    }
  }
  if (!dym_batch.empty() && !Check(aclmdlSetDynamicBatchSize(model_id_, in_, gear_index,
                                                             static_cast<uint64_t>(dym_batch[0])),
                                   "set dynamic batch size"))
    return 1;
  if (!dym_hw.empty() &&
      !Check(aclmdlSetDynamicHWSize(model_id_, in_, gear_index, static_cast<uint64_t>(dym_hw[0]),
                                    static_cast<uint64_t>(dym_hw[1])),
             "set dynamic hw size"))
    return 1;
  if (!dym_dims.empty()) {
    aclmdlIODims all{};
    for (size_t i : data_inputs)
      for (int64_t d : shapes[i])
        if (all.dimCount < ACL_MAX_DIM_CNT) all.dims[all.dimCount++] = d;
    if (!Check(aclmdlSetInputDynamicDims(model_id_, in_, gear_index, &all), "set dynamic dims"))
      return 1;
  }
  if (has_gears && dym_batch.empty() && dym_hw.empty() && dym_dims.empty()) {
    std::printf(
        "[ERROR] the model has dynamic gears: choose one with --dymBatch, --dymHW or "
        "--dymDims\n");
    return 1;
  }
  // Output buffers: the model's sizes, or --outputSize for outputs sized at run time.
  std::vector<int64_t> output_sizes;
  if (f.Has("outputSize") &&
      (!ParseInts(f.Get("outputSize"), &output_sizes) || output_sizes.size() != n_out)) {
    std::printf("[ERROR] --outputSize takes one byte size per output (%zu)\n", n_out);
    return 1;
  }
  out_ = aclmdlCreateDataset();
  std::vector<void*> out_ptrs;
  for (size_t i = 0; i < n_out; ++i) {
    size_t sz = output_sizes.empty() ? aclmdlGetOutputSizeByIndex(desc_, i)
                                     : static_cast<size_t>(output_sizes[i]);
    if (sz == 0) {
      std::printf("[ERROR] output %zu has a size known only at run time: give --outputSize\n", i);
      return 1;
    }
    void* p = nullptr;
    if (!Check(aclrtMalloc(&p, sz, ACL_MEM_MALLOC_NORMAL_ONLY), "")) return 1;
    dev_bufs_.push_back(p);
    out_ptrs.push_back(p);
    aclmdlAddDatasetBuffer(out_, aclCreateDataBuffer(p, sz));
  }
  std::printf("[INFO] create model output success\n");
  if (debug) {
    for (size_t i = 0; i < n_in; ++i) {
      aclmdlIODims d{};
      aclmdlGetInputDims(desc_, i, &d);
      std::string dims;
      for (size_t k = 0; k < d.dimCount; ++k) dims += (k ? "," : "") + std::to_string(d.dims[k]);
      std::printf("[DEBUG] input %zu: name %s, dims [%s], size %zu bytes (this run %zu)\n", i,
                  d.name, dims.c_str(), aclmdlGetInputSizeByIndex(desc_, i), in_sizes[i]);
    }
    for (size_t i = 0; i < n_out; ++i) {
      aclmdlIODims d{};
      aclmdlGetOutputDims(desc_, i, &d);
      std::string dims;
      for (size_t k = 0; k < d.dimCount; ++k) dims += (k ? "," : "") + std::to_string(d.dims[k]);
      std::printf("[DEBUG] output %zu: name %s, dims [%s], size %zu bytes\n", i, d.name,
                  dims.c_str(), aclmdlGetOutputSizeByIndex(desc_, i));
    }
  }

  std::string out_dir;
  if (f.Has("output")) {
    // CANN's folder name: local time without zero padding, then microseconds.
    timeval tv{};
    gettimeofday(&tv, nullptr);
    tm t{};
    localtime_r(&tv.tv_sec, &t);
    char stamp[96];
    std::snprintf(stamp, sizeof(stamp), "%d%d%d_%d_%d_%d_%ld", t.tm_year + 1900, t.tm_mon + 1,
                  t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec, static_cast<long>(tv.tv_usec));
    out_dir = f.Get("output") + "/" + stamp;
    if (!oc::CreateDirectories(out_dir).ok()) {
      std::printf("[ERROR] cannot create output folder %s\n", out_dir.c_str());
      return 1;
    }
    std::printf("%s\n", out_dir.c_str());
  }

  std::vector<double> times;
  for (size_t r = 0; r < runs.size(); ++r) {
    for (size_t k = 0; k < runs[r].size(); ++k) {
      const size_t i = data_inputs[k];
      if (folder_mode) std::printf("start to process file:%s\n", runs[r][k].c_str());
      std::vector<char> bytes;
      std::string why;
      if (!ReadInput(runs[r][k], aclmdlGetInputDataType(desc_, i), &bytes, &why)) {
        std::printf("[ERROR] input file %s: %s\n", runs[r][k].c_str(), why.c_str());
        return 1;
      }
      if (bytes.size() != in_sizes[i]) {
        std::printf("[ERROR] input file %s has %zu bytes, model input %zu needs %zu\n",
                    runs[r][k].c_str(), bytes.size(), i, in_sizes[i]);
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
      std::printf("Inference time: %gms\n", ms);
    }
    if (!out_dir.empty()) {
      for (size_t i = 0; i < n_out; ++i) {
        // The shape this run produced: from the output dataset's tensor description
        // (dynamic models) or the current gear's output dims.
        std::vector<int64_t> dims;
        if (const aclTensorDesc* td = aclmdlGetDatasetTensorDesc(out_, i)) {
          for (size_t k = 0; k < aclGetTensorDescNumDims(td); ++k) {
            int64_t v = 0;
            aclGetTensorDescDimV2(td, k, &v);
            dims.push_back(v);
          }
        } else {
          aclmdlIODims d{};
          aclmdlGetCurOutputDims(desc_, i, &d);
          dims.assign(d.dims, d.dims + d.dimCount);
        }
        aclDataType t = aclmdlGetOutputDataType(desc_, i);
        const size_t es = aclDataTypeSize(t);
        const size_t buf = aclGetDataBufferSizeV2(aclmdlGetDatasetBuffer(out_, i));
        const int64_t n = Product(dims);
        const size_t sz = n >= 0 ? std::min(buf, static_cast<size_t>(n) * es) : buf;
        std::vector<uint8_t> host(sz);
        if (sz &&
            !Check(aclrtMemcpy(host.data(), sz, out_ptrs[i], sz, ACL_MEMCPY_DEVICE_TO_HOST), ""))
          return 1;
        // Named after the input file in folder mode, after the model otherwise (CANN's).
        const std::string base =
            folder_mode && !runs[r].empty() ? Stem(runs[r][0]) : BaseName(model);
        std::string stem = out_dir + "/" + base + "_output_" + std::to_string(i);
        if (outfmt == "BIN") {
          std::ofstream o(stem + ".bin", std::ios::binary);
          o.write(reinterpret_cast<const char*>(host.data()), static_cast<std::streamsize>(sz));
        } else {
          const size_t row =
              dims.empty() ? 1 : static_cast<size_t>(std::max<int64_t>(1, dims.back()));
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
  const char* avg_fmt =
      folder_mode ? "Inference average time : %.2f ms\n" : "Inference average time: %f ms\n";
  std::printf(avg_fmt, sum / static_cast<double>(times.size()));
  if (times.size() > 1)
    std::printf(folder_mode ? "Inference average time without first time: %.2f ms\n"
                            : "Inference average time without first time: %f ms\n",
                (sum - times[0]) / static_cast<double>(times.size() - 1));
  // Beyond CANN's lines: the distribution and the throughput (batch = the first input's
  // first dim when it is known).
  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  auto pct = [&](double p) {
    const size_t at = static_cast<size_t>(std::ceil(p / 100.0 * sorted.size()));
    return sorted[std::min(sorted.size() - 1, at ? at - 1 : 0)];
  };
  const double mean = sum / static_cast<double>(times.size());
  int64_t batch = 1;
  if (!data_inputs.empty() && !shapes[data_inputs[0]].empty() && shapes[data_inputs[0]][0] > 0)
    batch = shapes[data_inputs[0]][0];
  std::printf(
      "[INFO] summary: %zu runs, min %.3f ms, mean %.3f ms, median %.3f ms, p90 %.3f ms, p99 %.3f "
      "ms, max %.3f ms, throughput %.2f samples/s (batch %lld)\n",
      times.size(), sorted.front(), mean, pct(50), pct(90), pct(99), sorted.back(),
      mean > 0 ? 1000.0 * static_cast<double>(batch) / mean : 0.0, static_cast<long long>(batch));
  std::printf("[INFO] destroy model input success\n");
  Cleanup();
  std::printf("[INFO] pid: %d Execute sample success\n", static_cast<int>(getpid()));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  auto flags = oc::Flags::Parse(
      argc, argv,
      {"model", "input", "output", "outfmt", "loop", "debug", "device", "dymBatch", "dymHW",
       "dymDims", "dymShape", "outputSize", "profiler", "dump", "help", "h"},
      {"help", "h"});
  if (!flags.ok()) {
    std::printf("[ERROR] %s\n", flags.status().ToString().c_str());
    return 1;
  }
  if (flags->Has("help") || flags->Has("h") || argc == 1) {
    std::printf(
        "msame --model <x.om> [--input a.bin,b.npy|dir] [--output dir] [--outfmt TXT|BIN]\n"
        "      [--loop N] [--device 0] [--debug true|false] [--dump true|false]\n"
        "      [--profiler true|false]\n"
        "      [--dymBatch N | --dymHW h,w | --dymDims \"in:d1,d2;in2:..\" |\n"
        "       --dymShape \"in:n,c,h,w;in2:..\" --outputSize \"bytes0,bytes1\"]\n");
    return argc == 1 ? 1 : 0;
  }
  Msame app;
  return app.Run(flags.value());
}
