// Writes CANN's platform description files, one <SoC>.ini per chip of the SoC table, into the
// folder given: what tools and applications read for a chip's name family and core counts
// ($ASCEND_HOME_PATH/compiler/data/platform_config/<SoC>.ini). Keys OpenCANN does not know
// for a chip (the table's zeros) are left out rather than guessed.
#include <cstdio>
#include <string>

#include "opencann/soc_table.h"

namespace {

// The family name CANN's compilers use for a chip (Short_SoC_version).
std::string ShortName(const std::string& name) {
  for (const char* family : {"Ascend910B", "Ascend310P", "Ascend310B"})
    if (name.rfind(family, 0) == 0) return family;
  if (name.rfind("Ascend910", 0) == 0) return "Ascend910";
  return name;
}

void Key(std::FILE* f, const char* key, unsigned long long value) {
  if (value != 0) std::fprintf(f, "%s=%llu\n", key, value);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_FOLDER\n", argv[0]);
    return 2;
  }
  for (const auto& s : opencann::kSocTable) {
    const std::string path = std::string(argv[1]) + "/" + s.name + ".ini";
    const std::string tmp = path + ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "w");
    if (!f) {
      std::perror(tmp.c_str());
      return 1;
    }
    std::fprintf(f, "# %s as OpenCANN's SoC table describes it (include/opencann/soc_table.h).\n",
                 s.name);
    std::fprintf(f, "[version]\nSoC_version=%s\nShort_SoC_version=%s\n", s.name,
                 ShortName(s.name).c_str());
    std::fprintf(f, "\n[SoCInfo]\n");
    Key(f, "ai_core_cnt", static_cast<unsigned long long>(s.aic_cores));
    Key(f, "cube_core_cnt", static_cast<unsigned long long>(s.aiv_cores ? s.aic_cores : 0));
    Key(f, "vector_core_cnt", static_cast<unsigned long long>(s.aiv_cores));
    Key(f, "memory_size", static_cast<unsigned long long>(s.hbm_gib) << 30);
    Key(f, "l2_size", s.l2_bytes);
    std::fprintf(f, "\n[AICoreSpec]\n");
    Key(f, "cube_freq", static_cast<unsigned long long>(s.mhz));
    Key(f, "ub_size", s.ub_bytes);
    Key(f, "l1_size", s.l1_bytes);
    Key(f, "l0_a_size", s.l0a_bytes);
    Key(f, "l0_b_size", s.l0b_bytes);
    Key(f, "l0_c_size", s.l0c_bytes);
    if (std::fclose(f) != 0 || std::rename(tmp.c_str(), path.c_str()) != 0) {
      std::perror(path.c_str());
      return 1;
    }
  }
  return 0;
}
