#include "base/sha256.h"

#include <openssl/sha.h>

#include <algorithm>
#include <thread>
#include <vector>

namespace oc {

std::array<uint8_t, 32> Sha256(const void* data, size_t size) {
  std::array<uint8_t, 32> out{};
  SHA256(static_cast<const unsigned char*>(data), size, out.data());
  return out;
}

std::array<uint8_t, 32> Sha256Chunked(const void* data, size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  const size_t chunks = size == 0 ? 0 : (size - 1) / kSha256ChunkBytes + 1;
  std::vector<unsigned char> digests(chunks * SHA256_DIGEST_LENGTH);
  auto hash_range = [&](size_t first, size_t step) {
    for (size_t c = first; c < chunks; c += step) {
      const size_t begin = c * kSha256ChunkBytes;
      SHA256(bytes + begin, std::min(kSha256ChunkBytes, size - begin),
             digests.data() + c * SHA256_DIGEST_LENGTH);
    }
  };
  // A few threads of our own for the burst (not the compute pool: loading may run while
  // another model executes); small inputs stay on the caller's thread.
  const size_t threads =
      std::min<size_t>({std::max(1u, std::thread::hardware_concurrency()), 8, chunks / 4 + 1});
  std::vector<std::thread> pool;
  for (size_t t = 1; t < threads; ++t) pool.emplace_back(hash_range, t, threads);
  hash_range(0, threads);
  for (auto& t : pool) t.join();
  std::array<uint8_t, 32> out{};
  SHA256(digests.data(), digests.size(), out.data());
  return out;
}

}  // namespace oc
