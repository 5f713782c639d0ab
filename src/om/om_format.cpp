#include "om/om_format.h"

#include <cstring>

#include "base/sha256.h"

namespace oc {

const OmPartitionView* OmContainer::Find(OmPartitionType t) const {
  for (const auto& p : partitions)
    if (p.type == t) return &p;
  return nullptr;
}

Result<OmContainer> ParseOmContainer(const uint8_t* data, size_t size) {
  OmContainer c;
  if (size < kOmHeaderSize + 8)
    return ParseError("the file is too small to be an .om model (" + std::to_string(size) +
                      " bytes)");
  std::memcpy(&c.header, data, sizeof(OmHeader));
  if (c.header.magic != kOmMagic) return ParseError("bad magic: the file is not an .om model");
  if (c.header.headsize != kOmHeaderSize) return ParseError("unexpected .om header size");
  if (c.header.is_encrypt) return Unsupported("encrypted .om models are not supported");
  const uint64_t body = size - kOmHeaderSize;
  if (c.header.model_length != 0 && c.header.model_length != body)
    return ParseError("the .om file is truncated or has trailing bytes: header says " +
                      std::to_string(c.header.model_length) + " bytes after the header, file has " +
                      std::to_string(body));
  if (c.header.length != static_cast<uint32_t>(body))
    return ParseError("the .om header's length (" + std::to_string(c.header.length) +
                      ") does not match the " + std::to_string(body) + " bytes after the header");
  // Always verified: a header flag may not switch the check off.
  if (c.header.is_checksum != 0)
    return ParseError("the .om header says it has no checksum: OpenCANN loads checked models only");
  std::array<uint8_t, 32> digest;
  switch (static_cast<OmChecksumKind>(c.header.checksum_kind)) {
    case OmChecksumKind::kSha256:
      digest = Sha256(data + kOmHeaderSize, body);
      break;
    case OmChecksumKind::kSha256Chunked:
      digest = Sha256Chunked(data + kOmHeaderSize, body);
      break;
    default:
      return ParseError("the .om header names the unknown checksum kind " +
                        std::to_string(c.header.checksum_kind));
  }
  if (std::memcmp(digest.data(), c.header.checksum, digest.size()) != 0)
    return ParseError("checksum mismatch: the .om file is corrupted");
  uint32_t num = 0;
  std::memcpy(&num, data + kOmHeaderSize, 4);
  const uint64_t table_end = kOmHeaderSize + 8 + uint64_t{num} * sizeof(OmPartitionEntry);
  if (num == 0 || num > 64 || table_end > size) return ParseError("invalid .om partition table");
  for (uint32_t i = 0; i < num; ++i) {
    OmPartitionEntry e;
    std::memcpy(&e, data + kOmHeaderSize + 8 + i * sizeof(OmPartitionEntry), sizeof(e));
    if (e.mem_offset > size - table_end || e.mem_size > size - table_end - e.mem_offset)
      return ParseError("partition " + std::to_string(i) + " lies outside the file (truncated?)");
    if (e.type > static_cast<uint64_t>(OmPartitionType::kSoBins))
      return ParseError("partition " + std::to_string(i) + " has the unknown type " +
                        std::to_string(e.type));
    const auto type = static_cast<OmPartitionType>(e.type);
    if (c.Find(type))
      return ParseError("the .om has two partitions of type " + std::to_string(e.type));
    // Partitions may not overlap: one byte belongs to one partition.
    for (const auto& p : c.partitions) {
      const uint64_t start = static_cast<uint64_t>(p.data - (data + table_end));
      if (e.mem_size != 0 && p.size != 0 && e.mem_offset < start + p.size &&
          start < e.mem_offset + e.mem_size)
        return ParseError("partition " + std::to_string(i) + " overlaps another");
    }
    c.partitions.push_back(
        {type, data + table_end + e.mem_offset, static_cast<size_t>(e.mem_size)});
  }
  if (!c.Find(OmPartitionType::kModelDef)) return ParseError("the .om has no ModelDef partition");
  return c;
}

}  // namespace oc
