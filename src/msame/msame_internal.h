// What the files of msame share: the Msame class, whose Run is split by concern into
// session.cpp (AscendCL set-up and release), inputs.cpp, outputs.cpp, run_loop.cpp and
// summary.cpp, and the text parsing of options.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "msame/msame.h"

namespace oc::msame {

using NamedDims = std::vector<std::pair<std::string, std::vector<int64_t>>>;

// ---- options.cpp
// "a,b,,c" -> {a, b, c}.
std::vector<std::string> Split(const std::string& s, char sep);
// "1,600" -> {1, 600}: non-negative integers, at least one; false on bad text.
bool ParseInts(const std::string& text, std::vector<int64_t>* out);
// "in:1,600;in2:3" -> {in: [1,600], in2: [3]}; false on bad text.
bool ParseNamedDims(const std::string& text, NamedDims* out);
int64_t Product(const std::vector<int64_t>& dims);

// ---- outputs.cpp
// The model file's name without its folder and its ".om" (dump and output file names).
std::string BaseName(const std::string& path);

// One run of the tool. Each step prints msame's [ERROR] line and returns false when it fails;
// the destructor releases whatever was set up, printing CANN's lines.
class Msame {
 public:
  int Run(const Options& o);  // msame.cpp: the steps in order
  ~Msame() { Cleanup(); }

 private:
  // session.cpp: AscendCL from aclInit to the model description, released by Cleanup.
  bool Check(aclError e, const char* what);
  void Cleanup();
  bool WriteAclJson(const Options& o);
  bool OpenDevice();
  bool LoadModel(const std::string& model);
  // inputs.cpp
  void ReadModelInputs();
  bool ParseDynamicFlags(const Options& o);
  bool ApplyDynamicDims();
  bool ComputeInputSizes();
  bool ListInputFiles(const Options& o);
  bool CreateInputs();
  bool FeedInputs(size_t run);
  // outputs.cpp
  bool CreateOutputs(const Options& o);
  bool MakeOutputFolder(const Options& o);
  bool WriteOutputs(const Options& o, size_t run);
  // run_loop.cpp
  bool RunAll(const Options& o);
  // summary.cpp
  void PrintDebugDims() const;
  void PrintSummary() const;

  // AscendCL objects.
  bool inited_ = false, device_set_ = false, acl_json_ = false;
  int32_t device_ = 0;
  aclrtContext ctx_ = nullptr;
  aclrtStream stream_ = nullptr;
  uint32_t model_id_ = 0;
  bool loaded_ = false;
  aclmdlDesc* desc_ = nullptr;
  aclmdlDataset* in_ = nullptr;
  aclmdlDataset* out_ = nullptr;
  std::vector<void*> dev_bufs_;  // the inputs' buffers, then the outputs'
  std::vector<void*> out_ptrs_;

  // The model's inputs as this run feeds them.
  size_t n_in_ = 0, n_out_ = 0;
  // A model with gears has the extra ascend_mbatch_shape_data input: msame fills it.
  bool has_gears_ = false;
  size_t gear_index_ = 0;
  std::vector<size_t> data_inputs_;  // the inputs the user's files feed
  // The actual shape of each input: the model's dims with the -1s resolved from --dym*.
  std::vector<std::vector<int64_t>> shapes_;
  std::vector<size_t> in_sizes_;
  std::vector<int64_t> dym_batch_, dym_hw_;
  NamedDims dym_dims_, dym_shape_;
  // Input files: one per data input for each run (folders are fed file by file).
  std::vector<std::vector<std::string>> runs_;
  bool folder_mode_ = false;

  std::string out_dir_;  // empty: outputs are not written
  std::vector<double> times_;
};

}  // namespace oc::msame
