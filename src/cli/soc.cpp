#include "cli/soc.h"

namespace oc {
namespace {
constexpr SocInfo kSocs[] = {
    {"Ascend910A", 32, 32},    {"Ascend910B", 32, 32},        {"Ascend910ProA", 32, 32},
    {"Ascend910ProB", 32, 32}, {"Ascend910PremiumA", 32, 32}, {"Ascend910B1", 24, 64},
    {"Ascend910B2", 24, 64},   {"Ascend910B3", 20, 64},       {"Ascend910B4", 20, 32},
    {"Ascend310", 2, 8},       {"Ascend310P1", 10, 24},       {"Ascend310P3", 8, 24},
    {"Ascend310B1", 1, 8},
};
}  // namespace

const SocInfo* FindSoc(const std::string& name) {
  for (const auto& s : kSocs)
    if (name == s.name) return &s;
  return nullptr;
}

std::vector<std::string> SocNames() {
  std::vector<std::string> out;
  for (const auto& s : kSocs) out.push_back(s.name);
  return out;
}

}  // namespace oc
