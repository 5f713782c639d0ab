// aclnn's list arguments (aclIntArray, aclFloatArray): what acl_nn.cpp reads of them.
#pragma once

#include <cstdint>
#include <vector>

struct aclIntArray {
  std::vector<int64_t> values;
};
struct aclFloatArray {
  std::vector<float> values;
};

namespace oc::acl {
inline constexpr const char* kIntArrayKind = "aclIntArray";
inline constexpr const char* kFloatArrayKind = "aclFloatArray";
}  // namespace oc::acl
