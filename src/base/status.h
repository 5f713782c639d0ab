// Status: the one error type inside OpenCANN. Carries a category, a message and,
// where CANN defines one, the user-facing error code (E10001, EZ3003, ...).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace oc {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,  // bad flag or parameter value
  kNotFound,         // missing file, name or id
  kUnsupported,      // op or feature without an implementation
  kParseError,       // malformed file contents
  kIoError,          // read/write failure
  kShapeMismatch,    // shapes or sizes that contradict the model
  kOutOfMemory,
  kInternal,
  kNeedsInputValue,  // a kernel needs the value of a non-constant input: prepare it at run time
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message, std::string cann_code = {})
      : code_(code), message_(std::move(message)), cann_code_(std::move(cann_code)) {}

  static Status Ok() { return {}; }
  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // CANN error code such as "E10001"; empty when none applies.
  const std::string& cann_code() const { return cann_code_; }
  std::string ToString() const;
  // Prepends context ("while loading x: ...") keeping code and cann code.
  Status WithContext(const std::string& context) const;
  void IgnoreError() const {}

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
  std::string cann_code_;
};

inline Status InvalidArgument(std::string msg, std::string cann = {}) {
  return {StatusCode::kInvalidArgument, std::move(msg), std::move(cann)};
}
inline Status NotFound(std::string msg, std::string cann = {}) {
  return {StatusCode::kNotFound, std::move(msg), std::move(cann)};
}
inline Status Unsupported(std::string msg, std::string cann = {}) {
  return {StatusCode::kUnsupported, std::move(msg), std::move(cann)};
}
inline Status ParseError(std::string msg, std::string cann = {}) {
  return {StatusCode::kParseError, std::move(msg), std::move(cann)};
}
inline Status IoError(std::string msg) { return {StatusCode::kIoError, std::move(msg)}; }
inline Status ShapeMismatch(std::string msg, std::string cann = {}) {
  return {StatusCode::kShapeMismatch, std::move(msg), std::move(cann)};
}
inline Status Internal(std::string msg) { return {StatusCode::kInternal, std::move(msg)}; }

// A value or the Status explaining why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}         // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}  // NOLINT
  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  T& operator*() { return value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace oc

#define OC_CONCAT_INNER(a, b) a##b
#define OC_CONCAT(a, b) OC_CONCAT_INNER(a, b)

#define OC_RETURN_IF_ERROR(expr)             \
  do {                                       \
    ::oc::Status oc_status_ = (expr);        \
    if (!oc_status_.ok()) return oc_status_; \
  } while (0)

#define OC_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                             \
  if (!tmp.ok()) return tmp.status();            \
  lhs = std::move(tmp).value()

#define OC_ASSIGN_OR_RETURN(lhs, expr) \
  OC_ASSIGN_OR_RETURN_IMPL(OC_CONCAT(oc_result_, __LINE__), lhs, expr)

#define OC_CHECK_ARG(cond, msg)                     \
  do {                                              \
    if (!(cond)) return ::oc::InvalidArgument(msg); \
  } while (0)
