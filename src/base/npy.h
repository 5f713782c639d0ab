// NumPy's .npy format: the one reader and writer of OpenCANN (msame's inputs, ocann-compare's
// inputs and its ONNX Runtime exchange). Only what a tensor needs is accepted: format
// versions 1 to 3, a little-endian (or single-byte) numeric dtype, C order, and exactly the
// data bytes the header's shape describes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/dtype.h"
#include "base/shape.h"
#include "base/status.h"

namespace oc {

struct NpyHeader {
  DataType dtype = DataType::kUndefined;
  std::string descr;  // as the file spells it ("<f4", "|u1")
  Shape shape;
  size_t data_offset = 0;  // where the array's bytes start in the file
  size_t data_bytes = 0;   // what the shape and dtype take, and what the file holds
};

struct NpyArray {
  DataType dtype = DataType::kUndefined;
  Shape shape;
  std::string data;
};

// Checks a whole .npy file held in memory. Messages are phrases about the file ("is not a
// .npy file (no NUMPY magic)"), for the caller to put the file's name before them.
Result<NpyHeader> ParseNpyHeader(std::string_view file);
// Reads `path` as a .npy; messages start with "[path] ".
Result<NpyArray> ReadNpy(const std::string& path);
// numpy's descr for `dtype` ("<f4", "|b1"), or "" when .npy has no plain spelling for it.
const char* NpyDescr(DataType dtype);
// A version 1.0 .npy file of C-ordered `data`, its header padded as numpy pads it (the data
// starts on a 64-byte boundary).
Result<std::string> NpyBytes(DataType dtype, const Shape& shape, std::string_view data);

}  // namespace oc
