#pragma once
#include <cstdint>
struct ScaleAddTiling {
  uint32_t total;
  float scale;
};
