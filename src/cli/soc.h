// Platform facts of the SoCs that --soc_version names.
#pragma once

#include <string>
#include <vector>

namespace oc {

struct SocInfo {
  const char* name;
  int ai_cores;
  int hbm_gb;
};

const SocInfo* FindSoc(const std::string& name);
std::vector<std::string> SocNames();

}  // namespace oc
