// The .npy reader and writer: the header's dict literal parsed by hand (numpy writes it with
// repr, so only strings, True/False and tuples of ints appear), every size checked before
// it is used.
#include "base/npy.h"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <map>
#include <vector>

#include "base/file.h"

namespace oc {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";

// The canonical spellings; a file's byte-order character is checked on its own.
struct DescrRow {
  const char* descr;
  DataType dtype;
};
constexpr DescrRow kDescrs[] = {
    {"<f4", DataType::kFloat},  {"<f2", DataType::kFloat16}, {"<f8", DataType::kDouble},
    {"|i1", DataType::kInt8},   {"<i2", DataType::kInt16},   {"<i4", DataType::kInt32},
    {"<i8", DataType::kInt64},  {"|u1", DataType::kUint8},   {"<u2", DataType::kUint16},
    {"<u4", DataType::kUint32}, {"<u8", DataType::kUint64},  {"|b1", DataType::kBool}};

Status Malformed(const std::string& why) {
  return ParseError("has a malformed .npy header (" + why + ")");
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The header's dict: each key with its value's text, quotes and parentheses kept so that a
// string, a tuple and a name stay apart.
Result<std::map<std::string, std::string>> ParseDict(std::string_view h) {
  size_t i = 0;
  auto skip = [&] {
    while (i < h.size() && IsSpace(h[i])) ++i;
  };
  auto quoted = [&](std::string* out) {
    const char q = h[i];
    const size_t end = h.find(q, i + 1);
    if (end == std::string_view::npos) return false;
    *out = std::string(h.substr(i, end + 1 - i));
    i = end + 1;
    return true;
  };
  std::map<std::string, std::string> dict;
  skip();
  if (i >= h.size() || h[i] != '{') return Malformed("no dict");
  ++i;
  for (;;) {
    skip();
    if (i < h.size() && h[i] == '}') break;
    std::string key;
    if (i >= h.size() || (h[i] != '\'' && h[i] != '"') || !quoted(&key))
      return Malformed("a key that is not a string");
    key = key.substr(1, key.size() - 2);
    skip();
    if (i >= h.size() || h[i] != ':') return Malformed("no ':' after '" + key + "'");
    ++i;
    skip();
    std::string value;
    if (i < h.size() && (h[i] == '\'' || h[i] == '"')) {
      if (!quoted(&value)) return Malformed("an unterminated string");
    } else if (i < h.size() && h[i] == '(') {
      const size_t end = h.find(')', i);
      if (end == std::string_view::npos) return Malformed("an unterminated tuple");
      value = std::string(h.substr(i, end + 1 - i));
      i = end + 1;
    } else if (i < h.size() && h[i] == '[') {
      // A list descr is a structured dtype: records, not a tensor.
      if (key == "descr") return Unsupported("holds a structured dtype, not a plain array");
      return Malformed("a list value for '" + key + "'");
    } else {
      const size_t start = i;
      while (i < h.size() && (std::isalnum(static_cast<unsigned char>(h[i])) || h[i] == '_')) ++i;
      value = std::string(h.substr(start, i - start));
      if (value.empty()) return Malformed("no value for '" + key + "'");
    }
    if (!dict.emplace(key, value).second) return Malformed("'" + key + "' twice");
    skip();
    if (i < h.size() && h[i] == ',') {
      ++i;
      continue;
    }
    if (i < h.size() && h[i] == '}') break;
    return Malformed("no ',' or '}' after '" + key + "'");
  }
  ++i;
  skip();
  if (i != h.size()) return Malformed("text after the dict");
  return dict;
}

// descr as the file spells it, without quotes: a byte order ('<', '>', '|' or '=', the
// native order: little-endian on every host OpenCANN runs on) and numpy's type code.
Result<DataType> ParseDescr(const std::string& descr) {
  const DescrRow* row = nullptr;
  if (descr.size() >= 2)
    for (const auto& r : kDescrs)
      if (descr.compare(1, std::string::npos, r.descr + 1) == 0) row = &r;
  const char order = descr.empty() ? '\0' : descr[0];
  const bool single_byte = row && row->descr[0] == '|';
  if (!row || std::string_view("<>|=").find(order) == std::string_view::npos ||
      (order == '|' && !single_byte))
    return Unsupported("holds '" + descr + "' data, a dtype OpenCANN does not read from .npy");
  if (order == '>' && !single_byte)
    return Unsupported("holds '" + descr + "' data: big-endian; save it little-endian (" +
                       "astype('" + row->descr + "'))");
  return row->dtype;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

// "(2, 3)", "(4,)" or "()": non-negative int64 dims.
Result<Shape> ParseShape(const std::string& text) {
  if (text.size() < 2 || text.front() != '(' || text.back() != ')')
    return Malformed("'shape' is not a tuple");
  std::vector<std::string_view> items;
  const std::string_view inner = std::string_view(text).substr(1, text.size() - 2);
  for (size_t start = 0;;) {
    const size_t comma = inner.find(',', start);
    items.push_back(Trim(inner.substr(start, comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  // "()" is a scalar, and the comma that ends "(4,)" leaves an empty last item.
  if (items.back().empty()) items.pop_back();
  Shape shape;
  for (std::string_view item : items) {
    int64_t d = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), d);
    if (ec == std::errc::result_out_of_range)
      return ParseError("has a shape dim beyond int64 (" + std::string(item) + ")");
    if (item.empty() || ec != std::errc() || end != item.data() + item.size() || d < 0)
      return Malformed("shape dim '" + std::string(item) + "'");
    shape.push_back(d);
  }
  return shape;
}

}  // namespace

const char* NpyDescr(DataType dtype) {
  for (const auto& r : kDescrs)
    if (r.dtype == dtype) return r.descr;
  return "";
}

Result<NpyHeader> ParseNpyHeader(std::string_view file) {
  if (file.size() < 10 || file.substr(0, kMagic.size()) != kMagic)
    return ParseError("is not a .npy file (no NUMPY magic)");
  const int major = static_cast<unsigned char>(file[6]);
  size_t header_len = 0, at = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(file[8]) |
                 (static_cast<size_t>(static_cast<unsigned char>(file[9])) << 8);
    at = 10;
  } else if (major == 2 || major == 3) {
    if (file.size() < 12) return ParseError("has a truncated .npy header");
    for (int k = 0; k < 4; ++k)
      header_len |= static_cast<size_t>(static_cast<unsigned char>(file[8 + k])) << (8 * k);
    at = 12;
  } else {
    return Unsupported("has .npy version " + std::to_string(major));
  }
  if (header_len > file.size() - at) return ParseError("has a truncated .npy header");
  OC_ASSIGN_OR_RETURN(auto dict, ParseDict(file.substr(at, header_len)));
  for (const char* key : {"descr", "fortran_order", "shape"})
    if (!dict.count(key)) return Malformed(std::string("no '") + key + "'");
  NpyHeader h;
  const std::string& descr = dict["descr"];
  if (descr.size() < 2 || (descr[0] != '\'' && descr[0] != '"'))
    return Malformed("'descr' is not a string");
  h.descr = descr.substr(1, descr.size() - 2);
  OC_ASSIGN_OR_RETURN(h.dtype, ParseDescr(h.descr));
  if (dict["fortran_order"] == "True")
    return Unsupported("is Fortran-ordered; save it C-ordered (np.ascontiguousarray)");
  if (dict["fortran_order"] != "False") return Malformed("'fortran_order' is not True or False");
  OC_ASSIGN_OR_RETURN(h.shape, ParseShape(dict["shape"]));
  auto bytes = TensorBytes(h.shape, DataTypeSize(h.dtype));
  if (!bytes.ok()) return ParseError("has an impossible shape: " + bytes.status().message());
  h.data_offset = at + header_len;
  h.data_bytes = bytes.value();
  const size_t held = file.size() - h.data_offset;
  const std::string what = "its header's shape " + ShapeToString(h.shape) + " of '" + h.descr +
                           "' takes " + std::to_string(h.data_bytes) + " bytes";
  if (held < h.data_bytes)
    return ParseError("is truncated: " + what + ", the file holds " + std::to_string(held));
  if (held > h.data_bytes)
    return ParseError("has " + std::to_string(held - h.data_bytes) + " bytes more than " + what);
  return h;
}

Result<NpyArray> ReadNpy(const std::string& path) {
  OC_ASSIGN_OR_RETURN(std::string file, ReadFile(path));
  auto h = ParseNpyHeader(file);
  if (!h.ok()) return Status(h.status().code(), "[" + path + "] " + h.status().message());
  NpyArray a;
  a.dtype = h->dtype;
  a.shape = std::move(h->shape);
  file.erase(0, h->data_offset);
  a.data = std::move(file);
  return a;
}

Result<std::string> NpyBytes(DataType dtype, const Shape& shape, std::string_view data) {
  const std::string descr = NpyDescr(dtype);
  if (descr.empty())
    return Unsupported(std::string("a ") + DataTypeName(dtype) + " tensor has no .npy dtype");
  OC_ASSIGN_OR_RETURN(size_t need, TensorBytes(shape, DataTypeSize(dtype)));
  if (data.size() != need)
    return InvalidArgument("a tensor of shape " + ShapeToString(shape) + " takes " +
                           std::to_string(need) + " bytes, not " + std::to_string(data.size()));
  std::string dims = "(";
  for (int64_t d : shape) dims += std::to_string(d) + ",";
  if (shape.size() > 1) dims.pop_back();
  dims += ")";
  std::string header =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + dims + ", }";
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  if (header.size() > UINT16_MAX)
    return InvalidArgument("a shape of rank " + std::to_string(shape.size()) +
                           " is too long for a .npy header");
  std::string out(kMagic);
  out += '\x01';
  out += '\0';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(data);
  return out;
}

}  // namespace oc
