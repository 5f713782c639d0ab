#include "dump/dump_file.h"

#include <cstring>
#include <limits>

#include "dump_data.pb.h"

namespace oc {
namespace {

struct TypeCode {
  DataType dtype;
  int code;
};
constexpr TypeCode kTypes[] = {
    {DataType::kFloat, 1},    {DataType::kFloat16, 2}, {DataType::kInt8, 3},
    {DataType::kUint8, 4},    {DataType::kInt16, 5},   {DataType::kUint16, 6},
    {DataType::kInt32, 7},    {DataType::kInt64, 8},   {DataType::kUint32, 9},
    {DataType::kUint64, 10},  {DataType::kBool, 11},   {DataType::kDouble, 12},
    {DataType::kBFloat16, 27}};

int TypeToCode(DataType t) {
  for (const auto& k : kTypes)
    if (k.dtype == t) return k.code;
  return 0;
}
DataType CodeToType(int c) {
  for (const auto& k : kTypes)
    if (k.code == c) return k.dtype;
  return DataType::kUndefined;
}

int FormatToCode(const std::string& f) {
  if (f == "NCHW") return 0;
  if (f == "NHWC") return 1;
  if (f == "NDHWC") return 27;
  return 2;
}
std::string CodeToFormat(int c) {
  switch (c) {
    case 0:
      return "NCHW";
    case 1:
      return "NHWC";
    case 27:
      return "NDHWC";
    default:
      return "ND";
  }
}

void SetShape(opencann::dump::DumpShape* s, const Shape& shape) {
  for (int64_t d : shape) s->add_dim(static_cast<uint64_t>(d));
}

Result<Shape> GetShape(const opencann::dump::DumpShape& s) {
  Shape out;
  for (uint64_t d : s.dim()) {
    if (d > static_cast<uint64_t>(std::numeric_limits<int32_t>::max()))
      return InvalidArgument("dump file: a dimension of " + std::to_string(d));
    out.push_back(static_cast<int64_t>(d));
  }
  return out;
}

}  // namespace

std::string EncodeDumpFile(const DumpRecord& r) {
  opencann::dump::DumpData d;
  d.set_version("2.0");
  d.set_dump_time(r.time_us);
  d.set_op_name(r.op_name);
  for (const auto& t : r.inputs) {
    auto* in = d.add_input();
    in->set_data_type(TypeToCode(t.dtype));
    in->set_format(FormatToCode(t.format));
    SetShape(in->mutable_shape(), t.shape);
    SetShape(in->mutable_original_shape(), t.shape);
    in->set_size(t.bytes.size());
  }
  for (const auto& t : r.outputs) {
    auto* out = d.add_output();
    out->set_data_type(TypeToCode(t.dtype));
    out->set_format(FormatToCode(t.format));
    SetShape(out->mutable_shape(), t.shape);
    SetShape(out->mutable_original_shape(), t.shape);
    out->set_size(t.bytes.size());
    if (!t.original_name.empty()) {
      auto* o = out->mutable_original_op();
      o->set_name(t.original_name);
      o->set_output_index(static_cast<uint32_t>(std::max<int64_t>(t.original_index, 0)));
      o->set_data_type(TypeToCode(t.dtype));
      o->set_format(FormatToCode(t.format));
    }
  }
  std::string header = d.SerializeAsString();
  const uint64_t len = header.size();
  std::string file(reinterpret_cast<const char*>(&len), sizeof(len));
  file += header;
  for (const auto& t : r.inputs) file += t.bytes;
  for (const auto& t : r.outputs) file += t.bytes;
  return file;
}

Result<DumpRecord> DecodeDumpFile(const std::string& file) {
  uint64_t len = 0;
  if (file.size() < sizeof(len)) return InvalidArgument("dump file: shorter than its header");
  std::memcpy(&len, file.data(), sizeof(len));
  if (len > file.size() - sizeof(len))
    return InvalidArgument("dump file: the header length " + std::to_string(len) +
                           " is past the end of the " + std::to_string(file.size()) + "-byte file");
  opencann::dump::DumpData d;
  if (!d.ParseFromArray(file.data() + sizeof(len), static_cast<int>(len)))
    return InvalidArgument("dump file: the header is not a DumpData message");
  DumpRecord r;
  r.op_name = d.op_name();
  r.time_us = d.dump_time();
  size_t offset = sizeof(len) + len;
  auto take = [&](uint64_t size, std::string* bytes) -> Status {
    if (size > file.size() - offset)
      return InvalidArgument("dump file: a tensor of " + std::to_string(size) +
                             " bytes runs past the end of the file");
    bytes->assign(file, offset, size);
    offset += size;
    return Status::Ok();
  };
  auto check = [](const DumpTensor& t) -> Status {
    const int64_t n = NumElements(t.shape);
    if (t.dtype != DataType::kUndefined && n >= 0 &&
        static_cast<uint64_t>(n) * DataTypeSize(t.dtype) != t.bytes.size())
      return InvalidArgument("dump file: a " + std::string(DataTypeName(t.dtype)) + " tensor of " +
                             ShapeToString(t.shape) + " cannot hold " +
                             std::to_string(t.bytes.size()) + " bytes");
    return Status::Ok();
  };
  for (const auto& in : d.input()) {
    DumpTensor t;
    t.dtype = CodeToType(in.data_type());
    t.format = CodeToFormat(in.format());
    OC_ASSIGN_OR_RETURN(t.shape, GetShape(in.shape()));
    OC_RETURN_IF_ERROR(take(in.size(), &t.bytes));
    OC_RETURN_IF_ERROR(check(t));
    r.inputs.push_back(std::move(t));
  }
  for (const auto& out : d.output()) {
    DumpTensor t;
    t.dtype = CodeToType(out.data_type());
    t.format = CodeToFormat(out.format());
    OC_ASSIGN_OR_RETURN(t.shape, GetShape(out.shape()));
    if (out.has_original_op()) {
      t.original_name = out.original_op().name();
      t.original_index = out.original_op().output_index();
    }
    OC_RETURN_IF_ERROR(take(out.size(), &t.bytes));
    OC_RETURN_IF_ERROR(check(t));
    r.outputs.push_back(std::move(t));
  }
  return r;
}

std::string DumpFileName(const std::string& op_type, const std::string& op_name, uint32_t task_id,
                         uint64_t time_us) {
  auto clean = [](std::string s) {
    for (char& c : s)
      if (c == '/' || c == '\\' || c == ' ' || c == '.') c = '_';
    return s;
  };
  return clean(op_type) + "." + clean(op_name) + "." + std::to_string(task_id) + "." +
         std::to_string(time_us);
}

}  // namespace oc
