#include "base/status.h"

namespace oc {

std::string Status::ToString() const {
  if (ok()) return "OK";
  if (cann_code_.empty()) return message_;
  return "[" + cann_code_ + "] " + message_;
}

Status Status::WithContext(const std::string& context) const {
  if (ok()) return *this;
  return Status(code_, context + ": " + message_, cann_code_);
}

}  // namespace oc
