#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace oc {

std::array<uint8_t, 32> Sha256(const void* data, size_t size);

}  // namespace oc
