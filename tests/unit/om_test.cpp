// The .om container: round trip, header facts, corruption and truncation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "base/sha256.h"
#include "om/om_format.h"
#include "test_graph.h"

namespace oc {
namespace {

using testing::FloatTensor;
using testing::GraphBuilder;

Result<std::string> SmallOm() {
  GraphBuilder b;
  b.g.name = "small";
  b.Input("x", DataType::kFloat, {1, 4});
  b.Const("w", FloatTensor({4, 2}, {1, 2, 3, 4, 5, 6, 7, 8}));
  b.Add("MatMul", {"x", "w"}, {"y"});
  b.Output("y");
  OC_ASSIGN_OR_RETURN(CompiledGraph cg, oc::testing::Compile(b.g, {}));
  return SerializeOm(cg.graph, cg.plan, {});
}

TEST(Om, HeaderAndPartitions) {
  auto bytes = SmallOm();
  ASSERT_TRUE(bytes.ok());
  const auto* d = reinterpret_cast<const uint8_t*>(bytes->data());
  auto c = ParseOmContainer(d, bytes->size());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(std::memcmp(d, "IMOD", 4), 0);
  EXPECT_EQ(c->header.headsize, 256u);
  EXPECT_EQ(c->header.model_length, bytes->size() - 256);
  EXPECT_STREQ(c->header.name, "small");
  ASSERT_GE(c->partitions.size(), 2u);
  const OmPartitionView* w = c->Find(OmPartitionType::kWeightsData);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->size > 0, true);
}

TEST(Om, RoundTripKeepsGraphAndAlignsWeights) {
  auto bytes = SmallOm();
  ASSERT_TRUE(bytes.ok());
  auto file = MappedFile::FromCopy(bytes->data(), bytes->size());
  auto m = LoadOm(file);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->graph().inputs, (std::vector<std::string>{"x"}));
  EXPECT_EQ(m->graph().outputs, (std::vector<std::string>{"y"}));
  ASSERT_EQ(m->graph().nodes.size(), 1u);
  const Tensor* w = m->graph().FindInitializer("w");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->data_as<float>()[7], 8.0f);
  // Weights are borrowed from the file image at 512-byte aligned file offsets.
  const size_t offset = static_cast<const uint8_t*>(w->data()) - file->data();
  EXPECT_EQ(offset % 512, 0u);
}

TEST(Om, DetectsCorruptionAndTruncation) {
  auto bytes = SmallOm();
  ASSERT_TRUE(bytes.ok());
  std::string corrupt = bytes.value();
  corrupt[corrupt.size() - 10] ^= 0x5a;
  auto c = ParseOmContainer(reinterpret_cast<const uint8_t*>(corrupt.data()), corrupt.size());
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("checksum"), std::string::npos);
  for (size_t len : {size_t{0}, size_t{100}, size_t{300}, bytes->size() - 1}) {
    auto t = ParseOmContainer(reinterpret_cast<const uint8_t*>(bytes->data()), len);
    EXPECT_FALSE(t.ok()) << len;
  }
  std::string not_om(4096, 'x');
  EXPECT_FALSE(
      ParseOmContainer(reinterpret_cast<const uint8_t*>(not_om.data()), not_om.size()).ok());
}

// The chunked digest equals its definition (SHA-256 over the pieces' SHA-256 digests),
// whatever the size and however many threads hash it.
TEST(Om, ChunkedDigestMatchesItsDefinition) {
  for (size_t size : {size_t{0}, size_t{1}, kSha256ChunkBytes - 1, kSha256ChunkBytes,
                      kSha256ChunkBytes * 9 + 17}) {
    std::string data(size, '\0');
    for (size_t i = 0; i < size; ++i) data[i] = static_cast<char>((i * 2654435761u) >> 13);
    std::string pieces;
    for (size_t off = 0; off < size; off += kSha256ChunkBytes) {
      auto d = Sha256(data.data() + off, std::min(kSha256ChunkBytes, size - off));
      pieces.append(reinterpret_cast<const char*>(d.data()), d.size());
    }
    EXPECT_EQ(Sha256Chunked(data.data(), size), Sha256(pieces.data(), pieces.size())) << size;
  }
}

// The writer uses the chunked kind; files with the whole-body SHA-256 (written before it)
// still load; an unknown kind, or a body that no longer matches, is refused.
TEST(Om, ChecksumKinds) {
  auto bytes = SmallOm();
  ASSERT_TRUE(bytes.ok());
  OmHeader h;
  std::memcpy(&h, bytes->data(), sizeof(h));
  EXPECT_EQ(h.checksum_kind, static_cast<uint8_t>(OmChecksumKind::kSha256Chunked));
  auto parse = [](const std::string& b) {
    return ParseOmContainer(reinterpret_cast<const uint8_t*>(b.data()), b.size());
  };
  std::string old = bytes.value();
  h.checksum_kind = static_cast<uint8_t>(OmChecksumKind::kSha256);
  auto whole = Sha256(old.data() + kOmHeaderSize, old.size() - kOmHeaderSize);
  std::memcpy(h.checksum, whole.data(), whole.size());
  std::memcpy(old.data(), &h, sizeof(h));
  EXPECT_TRUE(parse(old).ok()) << parse(old).status().ToString();
  std::string unknown = old;
  unknown[offsetof(OmHeader, checksum_kind)] = 7;
  ASSERT_FALSE(parse(unknown).ok());
  EXPECT_NE(parse(unknown).status().message().find("checksum kind"), std::string::npos);
  // A kind switched without the digest recomputed does not verify.
  std::string switched = bytes.value();
  switched[offsetof(OmHeader, checksum_kind)] = 0;
  EXPECT_FALSE(parse(switched).ok());
}

}  // namespace
}  // namespace oc
