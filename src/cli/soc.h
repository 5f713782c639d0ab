// The chips --soc_version names: a view of the one SoC table (opencann/soc_table.h).
#pragma once

#include <string>
#include <vector>

#include "opencann/soc_table.h"

namespace oc {

using SocInfo = opencann::SocSpec;

const SocInfo* FindSoc(const std::string& name);
std::vector<std::string> SocNames();

}  // namespace oc
