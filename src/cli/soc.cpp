#include "cli/soc.h"

namespace oc {

const SocInfo* FindSoc(const std::string& name) { return opencann::FindSocSpec(name.c_str()); }

std::vector<std::string> SocNames() {
  std::vector<std::string> out;
  for (const auto& s : opencann::kSocTable) out.push_back(s.name);
  return out;
}

}  // namespace oc
