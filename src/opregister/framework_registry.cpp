// Framework plugin registrations (register/register.h) and where each op's tiling data is
// declared (register/tilingdata_base.h): both filled by packages' static initialisers.
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "register/register.h"
#include "register/tilingdata_base.h"

namespace domi {
namespace {

std::mutex& RegistryMutex() {
  static std::mutex* m = new std::mutex();
  return *m;
}

std::vector<OpRegistrationData>& Registrations() {
  static auto* v = new std::vector<OpRegistrationData>();  // packages may outlive statics
  return *v;
}

}  // namespace

OpReceiver::OpReceiver(OpRegistrationData& reg_data) {
  std::lock_guard<std::mutex> lock(RegistryMutex());
  Registrations().push_back(reg_data);
}

const std::vector<OpRegistrationData>& RegisteredFrameworkOps() { return Registrations(); }

Status AutoMappingByOpFn(const ge::Operator&, ge::Operator&) {
  // Only a framework parser calls this, and OpenCANN's parsers map package ops by their
  // OpDef instead; reaching it means a caller expected CANN's graph operators.
  std::fprintf(stderr,
               "[ERROR] AutoMappingByOpFn: OpenCANN has no ge::Operator graph API; framework "
               "ops map onto package ops by the OpDef's names\n");
  return FAILED;
}

}  // namespace domi

namespace {

struct TilingDeclaration {
  std::string op_type, struct_name, header;
};

std::vector<TilingDeclaration>& TilingDeclarations() {
  static auto* v = new std::vector<TilingDeclaration>();
  return *v;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void OcRegisterTilingDataHeader(
    const char* op_type, const char* struct_name, const char* header) {
  if (!op_type || !struct_name || !header) return;
  std::lock_guard<std::mutex> lock(domi::RegistryMutex());
  for (const auto& d : TilingDeclarations())
    if (d.op_type == op_type && d.header == header) return;  // one per translation unit
  TilingDeclarations().push_back({op_type, struct_name, header});
}

// The header that declares `op_type`'s tiling data (the first registered), or NULL.
extern "C" __attribute__((visibility("default"))) const char* OcTilingDataHeaderOf(
    const char* op_type, const char** struct_name) {
  if (!op_type) return nullptr;
  std::lock_guard<std::mutex> lock(domi::RegistryMutex());
  for (const auto& d : TilingDeclarations()) {
    if (d.op_type != op_type) continue;
    if (struct_name) *struct_name = d.struct_name.c_str();
    return d.header.c_str();
  }
  return nullptr;
}
