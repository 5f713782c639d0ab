// msame's outputs: device buffers (the model's sizes or --outputSize), the time-stamped
// output folder, and each run's outputs written as CANN's msame names them, BIN or TXT.
#include <sys/time.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>

#include "base/file.h"
#include "msame/msame_internal.h"

namespace oc::msame {
namespace {

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

// The shape output `i` has after this run: from the output dataset's tensor description
// (dynamic models) or the current gear's output dims.
std::vector<int64_t> RunOutputDims(const aclmdlDataset* out, const aclmdlDesc* desc, size_t i) {
  std::vector<int64_t> dims;
  if (const aclTensorDesc* td = aclmdlGetDatasetTensorDesc(out, i)) {
    for (size_t k = 0; k < aclGetTensorDescNumDims(td); ++k) {
      int64_t v = 0;
      aclGetTensorDescDimV2(td, k, &v);
      dims.push_back(v);
    }
  } else {
    aclmdlIODims d{};
    aclmdlGetCurOutputDims(desc, i, &d);
    dims.assign(d.dims, d.dims + d.dimCount);
  }
  return dims;
}

}  // namespace

std::string BaseName(const std::string& p) {
  std::string b = p.substr(p.find_last_of('/') + 1);
  auto dot = b.rfind(".om");
  return dot == std::string::npos ? b : b.substr(0, dot);
}

bool Msame::CreateOutputs(const Options& o) {
  std::vector<int64_t> output_sizes;
  if (o.output_size &&
      (!ParseInts(*o.output_size, &output_sizes) || output_sizes.size() != n_out_)) {
    std::printf("[ERROR] --outputSize takes one byte size per output (%zu)\n", n_out_);
    return false;
  }
  out_ = aclmdlCreateDataset();
  for (size_t i = 0; i < n_out_; ++i) {
    size_t sz = output_sizes.empty() ? aclmdlGetOutputSizeByIndex(desc_, i)
                                     : static_cast<size_t>(output_sizes[i]);
    if (sz == 0) {
      std::printf("[ERROR] output %zu has a size known only at run time: give --outputSize\n", i);
      return false;
    }
    void* p = nullptr;
    if (!Check(aclrtMalloc(&p, sz, ACL_MEM_MALLOC_NORMAL_ONLY), "")) return false;
    dev_bufs_.push_back(p);
    out_ptrs_.push_back(p);
    aclmdlAddDatasetBuffer(out_, aclCreateDataBuffer(p, sz));
  }
  std::printf("[INFO] create model output success\n");
  return true;
}

bool Msame::MakeOutputFolder(const Options& o) {
  if (!o.output) return true;
  // CANN's folder name: local time without zero padding, then microseconds.
  timeval tv{};
  gettimeofday(&tv, nullptr);
  tm t{};
  localtime_r(&tv.tv_sec, &t);
  char stamp[96];
  std::snprintf(stamp, sizeof(stamp), "%d%d%d_%d_%d_%d_%ld", t.tm_year + 1900, t.tm_mon + 1,
                t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec, static_cast<long>(tv.tv_usec));
  out_dir_ = *o.output + "/" + stamp;
  if (!CreateDirectories(out_dir_).ok()) {
    std::printf("[ERROR] cannot create output folder %s\n", out_dir_.c_str());
    return false;
  }
  std::printf("%s\n", out_dir_.c_str());
  return true;
}

bool Msame::WriteOutputs(const Options& o, size_t run) {
  for (size_t i = 0; i < n_out_; ++i) {
    const std::vector<int64_t> dims = RunOutputDims(out_, desc_, i);
    aclDataType t = aclmdlGetOutputDataType(desc_, i);
    const size_t es = aclDataTypeSize(t);
    const size_t buf = aclGetDataBufferSizeV2(aclmdlGetDatasetBuffer(out_, i));
    const int64_t n = Product(dims);
    const size_t sz = n >= 0 ? std::min(buf, static_cast<size_t>(n) * es) : buf;
    std::vector<uint8_t> host(sz);
    if (sz && !Check(aclrtMemcpy(host.data(), sz, out_ptrs_[i], sz, ACL_MEMCPY_DEVICE_TO_HOST), ""))
      return false;
    // Named after the input file in folder mode, after the model otherwise (CANN's).
    const std::string base =
        folder_mode_ && !runs_[run].empty() ? Stem(runs_[run][0]) : BaseName(o.model);
    std::string stem = out_dir_ + "/" + base + "_output_" + std::to_string(i);
    if (o.outfmt == "BIN") {
      std::ofstream f(stem + ".bin", std::ios::binary);
      f.write(reinterpret_cast<const char*>(host.data()), static_cast<std::streamsize>(sz));
    } else {
      const size_t row = dims.empty() ? 1 : static_cast<size_t>(std::max<int64_t>(1, dims.back()));
      std::ofstream f(stem + ".txt");
      for (size_t k = 0; es && k < sz / es; ++k)
        f << FormatValue(t, host.data() + k * es) << ((k + 1) % row == 0 ? "\n" : " ");
    }
    if (o.debug) std::printf("[INFO] output %zu written to %s\n", i, stem.c_str());
  }
  std::printf("[INFO] output data success\n");
  return true;
}

}  // namespace oc::msame
