// The .om container: a 256-byte IMOD header, a partition table, then the partitions
// back to back (see reference/atc-and-om.md). All little-endian.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace oc {

inline constexpr uint32_t kOmMagic = 0x444F4D49;  // "IMOD"
inline constexpr uint32_t kOmHeaderSize = 256;
inline constexpr uint32_t kOmVersion = 0x20000000;
inline constexpr size_t kOmWeightAlign = 512;

// How OmHeader::checksum is computed. A file may say either; an unknown kind is refused.
enum class OmChecksumKind : uint8_t {
  kSha256 = 0,         // SHA-256 of the body (OpenCANN before 2026-12)
  kSha256Chunked = 1,  // Sha256Chunked of the body: verified on several threads
};

enum class OmPartitionType : uint64_t {
  kModelDef = 0,
  kWeightsData = 1,
  kTaskInfo = 2,
  kTbeKernels = 3,
  kCustAicpuKernels = 4,
  kSoBins = 5,
};

#pragma pack(push, 1)
struct OmHeader {
  uint32_t magic;
  uint32_t headsize;
  uint32_t version;
  uint8_t checksum[64];  // digest of everything after the header in the first 32 bytes
  uint32_t length;       // bytes after the header (low 32 bits)
  uint8_t is_encrypt;
  uint8_t is_checksum;  // 0 = checked
  uint8_t modeltype;
  uint8_t genmode;
  char name[32];
  uint32_t ops;
  uint8_t userdefineinfo[32];
  uint32_t om_ir_version;
  uint32_t model_num;
  uint8_t platform_version[20];
  uint8_t platform_type;
  uint8_t pad[3];
  uint64_t model_length;
  uint8_t need_check_os_cpu_info;
  uint8_t is_unknow_model;
  uint8_t checksum_kind;  // OmChecksumKind (CANN leaves it 0)
  uint8_t reserved[61];
};
struct OmPartitionEntry {
  uint64_t type;
  uint64_t mem_offset;  // relative to the end of the partition table
  uint64_t mem_size;
};
#pragma pack(pop)
static_assert(sizeof(OmHeader) == kOmHeaderSize, "OM header must be 256 bytes");
static_assert(sizeof(OmPartitionEntry) == 24, "partition entry must be 24 bytes");

struct OmPartitionView {
  OmPartitionType type;
  const uint8_t* data;
  size_t size;
};

// Parsed, validated container view over bytes owned elsewhere.
struct OmContainer {
  OmHeader header;
  std::vector<OmPartitionView> partitions;
  const OmPartitionView* Find(OmPartitionType t) const;
};

// Validates header, partition bounds and (unless skipped) the SHA-256 checksum.
Result<OmContainer> ParseOmContainer(const uint8_t* data, size_t size);

}  // namespace oc
