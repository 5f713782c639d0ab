// The .npy reader and writer (base/npy.h): files as numpy writes them, round trips, and the
// broken ones refused with a Status rather than read past their end.
#include "base/npy.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "base/file.h"

namespace oc {
namespace {

// A .npy as numpy.save writes it: magic, version, little-endian header length, the dict
// padded with spaces to a 64-byte boundary and ended by '\n', then the data.
std::string Npy(const std::string& dict, const std::string& data, int major = 1) {
  const size_t prefix = major == 1 ? 10 : 12;
  std::string header = dict;
  header.append((64 - (prefix + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  for (size_t k = 0; k < prefix - 8; ++k)
    out += static_cast<char>((header.size() >> (8 * k)) & 0xff);
  return out + header + data;
}

std::string Dict(const std::string& descr, const std::string& shape, bool fortran = false) {
  return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
         ", 'shape': " + shape + ", }";
}

std::string Floats(std::initializer_list<float> v) {
  std::string out(v.size() * 4, '\0');
  std::memcpy(out.data(), v.begin(), out.size());
  return out;
}

TEST(Npy, ReadsNumpyFilesOfSeveralDtypes) {
  const std::string f4 = Floats({1, 2, 3, 4, 5, 6});
  auto h = ParseNpyHeader(Npy(Dict("<f4", "(2, 3)"), f4));
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->dtype, DataType::kFloat);
  EXPECT_EQ(h->descr, "<f4");
  EXPECT_EQ(h->shape, (Shape{2, 3}));
  EXPECT_EQ(h->data_offset, 128u);  // the header padded to a 64-byte boundary
  EXPECT_EQ(h->data_bytes, 24u);

  struct Case {
    const char* descr;
    const char* shape;
    size_t bytes;
    DataType dtype;
    Shape dims;
  };
  const Case cases[] = {
      {"<f2", "(4,)", 8, DataType::kFloat16, {4}},
      {"<f8", "(1, 1, 2)", 16, DataType::kDouble, {1, 1, 2}},
      {"<i8", "()", 8, DataType::kInt64, {}},
      {"<i4", "(3,)", 12, DataType::kInt32, {3}},
      {"<i2", "(2,)", 4, DataType::kInt16, {2}},
      {"<u2", "(2,)", 4, DataType::kUint16, {2}},
      {"<u4", "(1,)", 4, DataType::kUint32, {1}},
      {"<u8", "(1,)", 8, DataType::kUint64, {1}},
      {"|u1", "(3, 1)", 3, DataType::kUint8, {3, 1}},
      {"|i1", "(0,)", 0, DataType::kInt8, {0}},
      {"|b1", "(2,)", 2, DataType::kBool, {2}},
      {"=f4", "(1,)", 4, DataType::kFloat, {1}},  // native order: little-endian here
  };
  for (const auto& c : cases) {
    auto r = ParseNpyHeader(Npy(Dict(c.descr, c.shape), std::string(c.bytes, '\x01')));
    ASSERT_TRUE(r.ok()) << c.descr << ": " << r.status().ToString();
    EXPECT_EQ(r->dtype, c.dtype) << c.descr;
    EXPECT_EQ(r->shape, c.dims) << c.descr;
    EXPECT_EQ(r->data_bytes, c.bytes) << c.descr;
  }
  // Versions 2 and 3 have a 4-byte header length; keys in any order, double quotes.
  auto v2 = ParseNpyHeader(Npy("{\"shape\": (2,), \"fortran_order\": False, \"descr\": \"<i8\"}",
                               std::string(16, 0), 2));
  ASSERT_TRUE(v2.ok()) << v2.status().ToString();
  EXPECT_EQ(v2->dtype, DataType::kInt64);
  EXPECT_EQ(v2->data_offset % 64, 0u);
}

TEST(Npy, RoundTripsWhatItWrites) {
  const std::string data = Floats({0.5f, -1, 2, 3});
  for (const Shape& shape : {Shape{4}, Shape{2, 2}, Shape{1, 2, 1, 2}}) {
    auto bytes = NpyBytes(DataType::kFloat, shape, data);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    auto h = ParseNpyHeader(*bytes);
    ASSERT_TRUE(h.ok()) << h.status().ToString();
    EXPECT_EQ(h->shape, shape);
    EXPECT_EQ(h->data_offset % 64, 0u);
    EXPECT_EQ(bytes->substr(h->data_offset), data);
  }
  auto scalar = NpyBytes(DataType::kInt64, {}, std::string(8, '\x07'));
  ASSERT_TRUE(scalar.ok());
  EXPECT_NE(scalar->find("'shape': (), }"), std::string::npos);
  EXPECT_TRUE(ParseNpyHeader(*scalar).ok());
  EXPECT_STREQ(NpyDescr(DataType::kBool), "|b1");
  EXPECT_STREQ(NpyDescr(DataType::kBFloat16), "");
  // What .npy cannot describe, and data that is not the shape's, are refused.
  EXPECT_EQ(NpyBytes(DataType::kBFloat16, {2}, std::string(4, 0)).status().code(),
            StatusCode::kUnsupported);
  EXPECT_FALSE(NpyBytes(DataType::kFloat, {2, 2}, data.substr(4)).ok());
}

TEST(Npy, RefusesBrokenFiles) {
  const std::string good = Npy(Dict("<f4", "(2, 2)"), Floats({1, 2, 3, 4}));
  ASSERT_TRUE(ParseNpyHeader(good).ok());
  auto message = [](const std::string& file) {
    auto r = ParseNpyHeader(file);
    EXPECT_FALSE(r.ok());
    return r.ok() ? std::string() : r.status().message();
  };
  // Not a .npy, or cut short anywhere.
  EXPECT_NE(message("plain bytes").find("NUMPY magic"), std::string::npos);
  EXPECT_NE(message("\x93NUMPX" + good.substr(6)).find("NUMPY magic"), std::string::npos);
  EXPECT_NE(message(good.substr(0, 9)).find("NUMPY magic"), std::string::npos);
  EXPECT_NE(message(good.substr(0, 11)).find("truncated .npy header"), std::string::npos);
  EXPECT_NE(message(good.substr(0, 40)).find("truncated .npy header"), std::string::npos);
  EXPECT_NE(message(good.substr(0, good.size() - 1)).find("is truncated"), std::string::npos);
  const size_t data_offset = good.size() - 16;
  EXPECT_NE(message(good.substr(0, data_offset)).find("is truncated"), std::string::npos);
  EXPECT_NE(message(good.substr(0, data_offset - 1)).find("truncated .npy header"),
            std::string::npos);
  // More data than the header says.
  EXPECT_NE(message(good + "xx").find("2 bytes more"), std::string::npos);
  // A version this reader does not know.
  std::string v4 = good;
  v4[6] = 4;
  EXPECT_NE(message(v4).find("version 4"), std::string::npos);
  // Fortran order, big-endian data and dtypes that are not plain numbers.
  auto fortran = ParseNpyHeader(Npy(Dict("<f4", "(2, 2)", true), Floats({1, 2, 3, 4})));
  EXPECT_EQ(fortran.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(fortran.status().message().find("Fortran"), std::string::npos);
  auto big = ParseNpyHeader(Npy(Dict(">f4", "(1,)"), Floats({1})));
  EXPECT_EQ(big.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(big.status().message().find("big-endian"), std::string::npos);
  EXPECT_TRUE(ParseNpyHeader(Npy(Dict(">u1", "(1,)"), "x")).ok());  // one byte: no order
  EXPECT_NE(message(Npy(Dict("<c8", "(1,)"), std::string(8, 0))).find("'<c8'"), std::string::npos);
  EXPECT_NE(message(Npy(Dict("|f4", "(1,)"), std::string(4, 0))).find("'|f4'"), std::string::npos);
  EXPECT_NE(message(Npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }",
                        std::string(4, 0)))
                .find("structured"),
            std::string::npos);
  // Shapes that overflow or cannot be a shape.
  EXPECT_NE(message(Npy(Dict("<f4", "(4294967296, 4294967296, 16)"), "")).find("shape"),
            std::string::npos);
  EXPECT_NE(message(Npy(Dict("<f4", "(99999999999999999999,)"), "")).find("beyond int64"),
            std::string::npos);
  EXPECT_NE(message(Npy(Dict("<f4", "(1 << 62, 4)"), "")).find("malformed"), std::string::npos);
  EXPECT_NE(message(Npy(Dict("<f4", "(-1, 4)"), "")).find("malformed"), std::string::npos);
  EXPECT_NE(message(Npy(Dict("<f4", "(2,, 2)"), "")).find("malformed"), std::string::npos);
  EXPECT_NE(message(Npy(Dict("<f4", "[2, 2]"), "")).find("malformed"), std::string::npos);
  // Headers that are not numpy's dict.
  EXPECT_NE(message(Npy("{'descr': '<f4', 'fortran_order': False}", "")).find("no 'shape'"),
            std::string::npos);
  EXPECT_NE(message(Npy("descr: <f4", "")).find("malformed"), std::string::npos);
  EXPECT_NE(message(Npy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': ()}",
                        std::string(4, 0)))
                .find("twice"),
            std::string::npos);
  EXPECT_NE(message(Npy(Dict("<f4", "(1,)") + "}", std::string(4, 0))).find("after the dict"),
            std::string::npos);
  EXPECT_NE(
      message(Npy("{'descr': '<f4', 'fortran_order': 0, 'shape': (1,)}", "")).find("fortran_order"),
      std::string::npos);
}

TEST(Npy, ReadNpyNamesTheFile) {
  char dir[] = "/tmp/oc_npy_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string good = std::string(dir) + "/good.npy", bad = std::string(dir) + "/bad.npy";
  const std::string data = Floats({1, 2, 3});
  ASSERT_TRUE(WriteFileAtomic(good, NpyBytes(DataType::kFloat, {3}, data).value()).ok());
  ASSERT_TRUE(WriteFileAtomic(bad, "plain bytes").ok());
  auto a = ReadNpy(good);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->dtype, DataType::kFloat);
  EXPECT_EQ(a->shape, (Shape{3}));
  EXPECT_EQ(a->data, data);
  auto b = ReadNpy(bad);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), StatusCode::kParseError);
  EXPECT_EQ(b.status().message(), "[" + bad + "] is not a .npy file (no NUMPY magic)");
  EXPECT_FALSE(ReadNpy(std::string(dir) + "/missing.npy").ok());
  std::remove(good.c_str());
  std::remove(bad.c_str());
  rmdir(dir);
}

}  // namespace
}  // namespace oc
