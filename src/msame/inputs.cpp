// msame's inputs: their shapes with the --dym* flags resolved, the files that feed them (one
// per input, or folders fed file by file), the device buffers and the dynamic gear.
#include <algorithm>
#include <cstdio>

#include "base/file.h"
#include "base/npy.h"
#include "msame/msame_internal.h"

namespace oc::msame {
namespace {

// An input file's bytes: a raw .bin, or a .npy (as ais_bench reads them) whose dtype must be
// the input's; the .npy's own checks are base/npy.h's.
bool ReadInput(const std::string& path, aclDataType type, std::string* bytes, std::string* why) {
  auto file = ReadFile(path);
  if (!file.ok()) return *why = "cannot be read", false;
  *bytes = std::move(file.value());
  if (path.size() < 4 || path.compare(path.size() - 4, 4, ".npy") != 0) return true;
  auto header = ParseNpyHeader(*bytes);
  if (!header.ok()) return *why = header.status().message(), false;
  const DataType want = FromAclDataType(type);
  const std::string want_descr = NpyDescr(want);
  if (want_descr.empty() || header->dtype != want)
    return *why = "holds '" + header->descr + "' data; the input is " +
                  (want_descr.empty() ? std::string("a type .npy cannot describe")
                                      : "'" + want_descr + "'"),
           false;
  bytes->erase(0, header->data_offset);
  return true;
}

}  // namespace

void Msame::ReadModelInputs() {
  has_gears_ =
      aclmdlGetInputIndexByName(desc_, ACL_DYNAMIC_TENSOR_NAME, &gear_index_) == ACL_SUCCESS;
  for (size_t i = 0; i < n_in_; ++i)
    if (!has_gears_ || i != gear_index_) data_inputs_.push_back(i);
  shapes_.assign(n_in_, {});
  for (size_t i = 0; i < n_in_; ++i) {
    aclmdlIODims d{};
    aclmdlGetInputDims(desc_, i, &d);
    shapes_[i].assign(d.dims, d.dims + d.dimCount);
  }
}

bool Msame::ParseDynamicFlags(const Options& o) {
  if (o.dym_batch && (!ParseInts(*o.dym_batch, &dym_batch_) || dym_batch_.size() != 1)) {
    std::printf("[ERROR] --dymBatch takes one positive integer\n");
    return false;
  }
  if (o.dym_hw && (!ParseInts(*o.dym_hw, &dym_hw_) || dym_hw_.size() != 2)) {
    std::printf("[ERROR] --dymHW takes \"height,width\"\n");
    return false;
  }
  if (o.dym_dims && !ParseNamedDims(*o.dym_dims, &dym_dims_)) {
    std::printf("[ERROR] --dymDims takes \"input:d1,d2;input2:d1\"\n");
    return false;
  }
  if (o.dym_shape && !ParseNamedDims(*o.dym_shape, &dym_shape_)) {
    std::printf("[ERROR] --dymShape takes \"input:n,c,h,w;input2:n,c\"\n");
    return false;
  }
  if (o.dym_batch.has_value() + o.dym_hw.has_value() + o.dym_dims.has_value() +
          o.dym_shape.has_value() >
      1) {
    std::printf("[ERROR] --dymBatch, --dymHW, --dymDims and --dymShape are mutually exclusive\n");
    return false;
  }
  return true;
}

bool Msame::ApplyDynamicDims() {
  auto fill = [&](size_t i, const std::vector<size_t>& positions, const std::vector<int64_t>& v) {
    for (size_t k = 0; k < positions.size() && k < v.size(); ++k)
      if (positions[k] < shapes_[i].size()) shapes_[i][positions[k]] = v[k];
  };
  for (size_t i : data_inputs_) {
    const std::string name = aclmdlGetInputNameByIndex(desc_, i);
    if (!dym_batch_.empty() && !shapes_[i].empty() && shapes_[i][0] < 0) fill(i, {0}, dym_batch_);
    if (!dym_hw_.empty() && shapes_[i].size() == 4) {
      const bool nhwc = aclmdlGetInputFormat(desc_, i) == ACL_FORMAT_NHWC;
      fill(i, nhwc ? std::vector<size_t>{1, 2} : std::vector<size_t>{2, 3}, dym_hw_);
    }
    for (const auto& [n, dims] : dym_dims_)
      if (n == name) {
        if (dims.size() != shapes_[i].size()) {
          std::printf("[ERROR] --dymDims gives %zu dims for input %s of rank %zu\n", dims.size(),
                      name.c_str(), shapes_[i].size());
          return false;
        }
        shapes_[i] = dims;
      }
    for (const auto& [n, dims] : dym_shape_)
      if (n == name) shapes_[i] = dims;
  }
  for (const auto& list : {dym_dims_, dym_shape_})
    for (const auto& [n, dims] : list) {
      size_t idx = 0;
      if (aclmdlGetInputIndexByName(desc_, n.c_str(), &idx) != ACL_SUCCESS) {
        std::printf("[ERROR] the model has no input named %s\n", n.c_str());
        return false;
      }
    }
  return true;
}

bool Msame::ComputeInputSizes() {
  in_sizes_.assign(n_in_, 0);
  for (size_t i = 0; i < n_in_; ++i) {
    const int64_t n = Product(shapes_[i]);
    in_sizes_[i] = n >= 0
                       ? static_cast<size_t>(n) * aclDataTypeSize(aclmdlGetInputDataType(desc_, i))
                       : aclmdlGetInputSizeByIndex(desc_, i);
    if (n < 0 && !(has_gears_ && i == gear_index_)) {
      std::printf(
          "[ERROR] input %zu (%s) has dynamic dims: give them with --dymBatch, --dymHW, "
          "--dymDims or --dymShape\n",
          i, aclmdlGetInputNameByIndex(desc_, i));
      return false;
    }
  }
  if (has_gears_) in_sizes_[gear_index_] = aclmdlGetInputSizeByIndex(desc_, gear_index_);
  return true;
}

bool Msame::ListInputFiles(const Options& o) {
  if (!o.input) {
    runs_.push_back({});  // zeros
    return true;
  }
  auto items = Split(*o.input, ',');
  if (items.size() != data_inputs_.size()) {
    std::printf("[ERROR] the model has %zu inputs, --input names %zu\n", data_inputs_.size(),
                items.size());
    return false;
  }
  std::vector<std::vector<std::string>> per_input;
  size_t n_runs = 1;
  for (const auto& it : items) {
    folder_mode_ |= IsDirectory(it);
    per_input.push_back(IsDirectory(it) ? ListFiles(it) : std::vector<std::string>{it});
    if (per_input.back().empty()) {
      std::printf("[ERROR] input folder %s is empty\n", it.c_str());
      return false;
    }
    n_runs = std::max(n_runs, per_input.back().size());
  }
  for (size_t r = 0; r < n_runs; ++r) {
    std::vector<std::string> files;
    for (const auto& v : per_input) files.push_back(v[std::min(r, v.size() - 1)]);
    runs_.push_back(files);
  }
  return true;
}

bool Msame::CreateInputs() {
  in_ = aclmdlCreateDataset();
  for (size_t i = 0; i < n_in_; ++i) {
    const size_t sz = std::max(in_sizes_[i], aclmdlGetInputSizeByIndex(desc_, i));
    void* p = nullptr;
    if (!Check(aclrtMalloc(&p, std::max<size_t>(sz, 1), ACL_MEM_MALLOC_NORMAL_ONLY), ""))
      return false;
    dev_bufs_.push_back(p);
    aclrtMemset(p, sz, 0, sz);
    aclmdlAddDatasetBuffer(in_, aclCreateDataBuffer(p, sz));
    if (!dym_shape_.empty() && !(has_gears_ && i == gear_index_)) {
      aclTensorDesc* td =
          aclCreateTensorDesc(aclmdlGetInputDataType(desc_, i), static_cast<int>(shapes_[i].size()),
                              shapes_[i].data(), aclmdlGetInputFormat(desc_, i));
      aclError e = aclmdlSetDatasetTensorDesc(in_, td, i);
      aclDestroyTensorDesc(td);
      if (!Check(e, "")) return false;
    }
  }
  if (!dym_batch_.empty() && !Check(aclmdlSetDynamicBatchSize(model_id_, in_, gear_index_,
                                                              static_cast<uint64_t>(dym_batch_[0])),
                                    "set dynamic batch size"))
    return false;
  if (!dym_hw_.empty() &&
      !Check(aclmdlSetDynamicHWSize(model_id_, in_, gear_index_, static_cast<uint64_t>(dym_hw_[0]),
                                    static_cast<uint64_t>(dym_hw_[1])),
             "set dynamic hw size"))
    return false;
  if (!dym_dims_.empty()) {
    aclmdlIODims all{};
    for (size_t i : data_inputs_)
      for (int64_t d : shapes_[i])
        if (all.dimCount < ACL_MAX_DIM_CNT) all.dims[all.dimCount++] = d;
    if (!Check(aclmdlSetInputDynamicDims(model_id_, in_, gear_index_, &all), "set dynamic dims"))
      return false;
  }
  if (has_gears_ && dym_batch_.empty() && dym_hw_.empty() && dym_dims_.empty()) {
    std::printf(
        "[ERROR] the model has dynamic gears: choose one with --dymBatch, --dymHW or "
        "--dymDims\n");
    return false;
  }
  return true;
}

// Copies run `run`'s files into the input buffers.
bool Msame::FeedInputs(size_t run) {
  for (size_t k = 0; k < runs_[run].size(); ++k) {
    const size_t i = data_inputs_[k];
    const std::string& path = runs_[run][k];
    if (folder_mode_) std::printf("start to process file:%s\n", path.c_str());
    std::string bytes, why;
    if (!ReadInput(path, aclmdlGetInputDataType(desc_, i), &bytes, &why)) {
      std::printf("[ERROR] input file %s: %s\n", path.c_str(), why.c_str());
      return false;
    }
    if (bytes.size() != in_sizes_[i]) {
      std::printf("[ERROR] input file %s has %zu bytes, model input %zu needs %zu\n", path.c_str(),
                  bytes.size(), i, in_sizes_[i]);
      return false;
    }
    if (!Check(aclrtMemcpy(dev_bufs_[i], in_sizes_[i], bytes.data(), bytes.size(),
                           ACL_MEMCPY_HOST_TO_DEVICE),
               ""))
      return false;
  }
  return true;
}

}  // namespace oc::msame
