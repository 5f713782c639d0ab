// One dump file: an op's input and output tensors at one execution, in CANN's dump layout
// (dump_data.proto): what aclInit's "dump" config writes and what ocann-compare and the
// Python reader (python/ocann_dump.py) read, from OpenCANN or from an NPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/dtype.h"
#include "base/shape.h"
#include "base/status.h"

namespace oc {

struct DumpTensor {
  DataType dtype = DataType::kUndefined;
  std::string format = "ND";  // NCHW, NHWC, NDHWC or ND
  Shape shape;
  std::string original_name;    // outputs: the source-model op this tensor stands for
  int64_t original_index = -1;  // and which of its outputs; -1: none
  std::string bytes;            // logical (row-major) order
};

struct DumpRecord {
  std::string op_name;
  uint64_t time_us = 0;
  std::vector<DumpTensor> inputs, outputs;
};

std::string EncodeDumpFile(const DumpRecord& record);
// Checks every length against the file: a damaged or hostile file is an error, never a read
// outside it.
Result<DumpRecord> DecodeDumpFile(const std::string& file);

// {OpType}.{OpName}.{task_id}.{timestamp}, with '/', '\\', ' ' and '.' in names made '_'.
std::string DumpFileName(const std::string& op_type, const std::string& op_name, uint32_t task_id,
                         uint64_t time_us);

}  // namespace oc
