// The emulated chips (from the SoC table), the process-wide choice among them, and how a
// kernel type lays a launch's blockDim units onto the chip's cores.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "emu_state.h"
#include "opencann/soc_table.h"

namespace AscendC {
namespace detail {
namespace {

const SocFacts* g_soc = nullptr;

// Ascend310B1 runs with the Atlas A2 emulation's instruction semantics: say so once.
const SocFacts* Chosen(const SocFacts* s) {
  static bool warned = false;
  if (s && !warned && std::string(s->name).rfind("Ascend310B", 0) == 0) {
    warned = true;
    std::fprintf(stderr,
                 "[WARNING] %s: emulated with 310B1's core counts and buffer sizes and the Atlas "
                 "A2 (dav-c220) instruction semantics; dav-m300's own differences are not "
                 "modelled\n",
                 s->name);
  }
  return s;
}

}  // namespace

// The emulated chips' facts, from the one SoC table; alignments per memory from the
// reference (GM unchecked here).
const std::vector<SocFacts>& EmulatedSocs() {
  static const std::vector<SocFacts> socs = [] {
    std::vector<SocFacts> v;
    for (const auto& s : opencann::kSocTable) {
      if (!s.ascendc_emulated) continue;
      v.push_back({s.name,
                   s.aic_cores,
                   s.aiv_cores,
                   s.mhz,
                   {0, s.ub_bytes, s.l1_bytes, s.l0a_bytes, s.l0b_bytes, s.l0c_bytes, s.bt_bytes,
                    s.fb_bytes},
                   // The fixpipe buffer's 64 B is the spec table's; a constraints table
                   // says 128 B (not settled).
                   {0, 32, 32, 512, 512, 64, 64, 64}});
    }
    return v;
  }();
  return socs;
}

const SocFacts* FindSocFacts(const char* name) {
  for (const auto& s : EmulatedSocs())
    if (name && std::string(name) == s.name) return &s;
  return nullptr;
}

const char* KernelTypeName(int t) {
  static const char* const names[] = {"KERNEL_TYPE_AIV_ONLY",    "KERNEL_TYPE_AIC_ONLY",
                                      "KERNEL_TYPE_MIX_AIV_1_0", "KERNEL_TYPE_MIX_AIC_1_0",
                                      "KERNEL_TYPE_MIX_AIC_1_1", "KERNEL_TYPE_MIX_AIC_1_2",
                                      "KERNEL_TYPE_AICORE",      "KERNEL_TYPE_VECTORCORE",
                                      "KERNEL_TYPE_MIX_AICORE",  "KERNEL_TYPE_MIX_VECTOR_CORE"};
  return t >= 0 && t < KERNEL_TYPE_MAX ? names[t] : "an unknown kernel type";
}

int TypeOfMode(KernelMode m) {
  return m == KernelMode::AIV_MODE   ? KERNEL_TYPE_AIV_ONLY
         : m == KernelMode::AIC_MODE ? KERNEL_TYPE_AIC_ONLY
                                     : KERNEL_TYPE_MIX_AIC_1_2;  // 1 cube : 2 vector on 910B
}

bool IsMixType(int t) {
  return t == KERNEL_TYPE_MIX_AIV_1_0 || t == KERNEL_TYPE_MIX_AIC_1_0 ||
         t == KERNEL_TYPE_MIX_AIC_1_1 || t == KERNEL_TYPE_MIX_AIC_1_2;
}

GroupShape ShapeOf(int t) {
  switch (t) {
    case KERNEL_TYPE_AIC_ONLY:
    case KERNEL_TYPE_MIX_AIC_1_0:
      return {1, 0};
    case KERNEL_TYPE_MIX_AIC_1_1:
      return {1, 1};
    case KERNEL_TYPE_MIX_AIC_1_2:
      return {1, 2};
    default:
      return {0, 1};
  }
}

// The chip of a launch: its own (a model's --soc_version) or the process-wide one.
const SocFacts& SocOf(const LaunchState& l) { return l.soc ? *l.soc : CurrentSoc(); }

// How many blockDim units run at once: one per AI core when the type has cube cores, one
// per vector core otherwise.
int CoresFor(const LaunchState& l) {
  return l.shape.aic ? SocOf(l).ai_cores : SocOf(l).vector_cores;
}

bool IsMixLaunch(const LaunchState& l) { return l.shape.aic > 0 && l.shape.aiv > 0; }

const SocFacts& CurrentSoc() {
  // A launch for a model built for a chip uses that chip (LaunchOptions::soc).
  if (t_block && t_block->launch->soc) return *t_block->launch->soc;
  if (!g_soc) {
    const char* env = std::getenv("OCANN_SOC");
    g_soc = Chosen(FindSocFacts(env));
    if (!g_soc) {
      if (env && *env)
        std::fprintf(stderr,
                     "[WARNING] OCANN_SOC=%s: not a chip the Ascend C emulation models "
                     "(Ascend910B1-B4, Ascend310B1); %s is used\n",
                     env, opencann::kDefaultSoc);
      g_soc = FindSocFacts(opencann::kDefaultSoc);
    }
  }
  return *g_soc;
}

bool SetSoc(const char* name) {
  const SocFacts* s = Chosen(FindSocFacts(name));
  if (s) g_soc = s;
  return s != nullptr;
}

}  // namespace detail
}  // namespace AscendC
