#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace oc {

std::array<uint8_t, 32> Sha256(const void* data, size_t size);

// SHA-256 over the SHA-256 digests of consecutive kSha256ChunkBytes pieces of the data
// (the last one shorter): as strong a check, but the pieces are hashed on several threads,
// so large weight files verify in a fraction of the time.
inline constexpr size_t kSha256ChunkBytes = size_t{1} << 20;
std::array<uint8_t, 32> Sha256Chunked(const void* data, size_t size);

}  // namespace oc
