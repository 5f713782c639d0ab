// Dump files in CANN's layout: a round trip keeps every field and byte; truncated, inflated
// or random files are errors, never reads outside the file.
#include <gtest/gtest.h>

#include <cstring>

#include "dump/dump_file.h"

namespace oc::testing {
namespace {

DumpRecord Sample() {
  DumpRecord r;
  r.op_name = "/layer1/conv/Conv";
  r.time_us = 1700000000123456ull;
  DumpTensor in;
  in.dtype = DataType::kFloat16;
  in.shape = {2, 3};
  in.bytes = std::string(12, '\x11');
  r.inputs.push_back(in);
  DumpTensor out;
  out.dtype = DataType::kFloat;
  out.format = "NCHW";
  out.shape = {1, 2, 1, 1};
  out.bytes = std::string("\x00\x00\x80\x3f\x00\x00\x00\x40", 8);
  out.original_name = "/layer1/relu/Relu";
  out.original_index = 0;
  r.outputs.push_back(out);
  DumpTensor scalar;
  scalar.dtype = DataType::kInt64;
  scalar.bytes = std::string(8, '\x07');
  scalar.original_name = "/shape";
  scalar.original_index = 2;
  r.outputs.push_back(scalar);
  return r;
}

TEST(DumpFile, RoundTrip) {
  const DumpRecord r = Sample();
  const std::string file = EncodeDumpFile(r);
  uint64_t header = 0;
  std::memcpy(&header, file.data(), 8);
  EXPECT_EQ(file.size(), 8 + header + 12 + 8 + 8);  // inputs, then outputs, after the header
  auto back = DecodeDumpFile(file);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->op_name, r.op_name);
  EXPECT_EQ(back->time_us, r.time_us);
  ASSERT_EQ(back->inputs.size(), 1u);
  ASSERT_EQ(back->outputs.size(), 2u);
  EXPECT_EQ(back->inputs[0].dtype, DataType::kFloat16);
  EXPECT_EQ(back->inputs[0].shape, (Shape{2, 3}));
  EXPECT_EQ(back->inputs[0].bytes, r.inputs[0].bytes);
  EXPECT_EQ(back->outputs[0].format, "NCHW");
  EXPECT_EQ(back->outputs[0].original_name, "/layer1/relu/Relu");
  EXPECT_EQ(back->outputs[0].original_index, 0);
  EXPECT_EQ(back->outputs[0].bytes, r.outputs[0].bytes);
  EXPECT_EQ(back->outputs[1].shape, Shape{});
  EXPECT_EQ(back->outputs[1].original_index, 2);
}

TEST(DumpFile, NamesFollowCannsPattern) {
  EXPECT_EQ(DumpFileName("Conv", "/layer1/conv.1/Conv", 3, 42), "Conv._layer1_conv_1_Conv.3.42");
}

TEST(DumpFile, DamagedFilesAreErrors) {
  const std::string file = EncodeDumpFile(Sample());
  for (size_t cut = 0; cut < file.size(); ++cut)
    EXPECT_FALSE(DecodeDumpFile(file.substr(0, cut)).ok()) << cut;
  std::string huge = file;
  const uint64_t big = ~0ull;
  std::memcpy(huge.data(), &big, 8);
  EXPECT_FALSE(DecodeDumpFile(huge).ok());
  uint32_t seed = 7;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string noisy = file;
    for (int k = 0; k < 4; ++k) {
      seed = seed * 1103515245u + 12345u;
      noisy[8 + (seed >> 8) % (noisy.size() - 8)] = static_cast<char>(seed >> 24);
    }
    auto r = DecodeDumpFile(noisy);  // must not crash; when it parses, sizes add up
    if (r.ok()) {
      for (const auto& t : r->outputs) EXPECT_LE(t.bytes.size(), noisy.size());
    }
  }
}

}  // namespace
}  // namespace oc::testing
