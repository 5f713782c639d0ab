#include "base/sha256.h"

#include <openssl/sha.h>

namespace oc {

std::array<uint8_t, 32> Sha256(const void* data, size_t size) {
  std::array<uint8_t, 32> out{};
  SHA256(static_cast<const unsigned char*>(data), size, out.data());
  return out;
}

}  // namespace oc
