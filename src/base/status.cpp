#include "base/status.h"

namespace oc {

std::string Status::ToString() const {
  if (ok()) return "OK";
  if (cann_code_.empty()) return message_;
  return "[" + cann_code_ + "] " + message_;
}

Status Status::WithContext(const std::string& context) const {
  if (ok()) return *this;
  // A message that already starts with the context (a kernel naming its node) keeps one copy.
  if (message_.rfind(context, 0) == 0) return *this;
  return Status(code_, context + ": " + message_, cann_code_);
}

}  // namespace oc
