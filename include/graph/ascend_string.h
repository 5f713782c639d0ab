// ge::AscendString: the string GE's interfaces pass between an operator package and the
// library, so that packages built with either C++ string ABI (-D_GLIBCXX_USE_CXX11_ABI=0, as
// CANN's templates set) share its layout. Held in a std::vector<char> (whose layout does not
// depend on that ABI), always NUL-terminated. C++11.
#pragma once

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

namespace ge {

class AscendString {
 public:
  AscendString() : data_(1, '\0') {}
  AscendString(const char* text) { Assign(text, text ? std::strlen(text) : 0); }  // NOLINT
  AscendString(const char* text, size_t length) { Assign(text, length); }
  AscendString(const std::string& text) { Assign(text.data(), text.size()); }  // NOLINT

  const char* GetString() const { return data_.data(); }
  size_t GetLength() const { return data_.size() - 1; }
  bool empty() const { return GetLength() == 0; }

  bool operator<(const AscendString& o) const {
    return std::strcmp(GetString(), o.GetString()) < 0;
  }
  bool operator>(const AscendString& o) const { return o < *this; }
  bool operator<=(const AscendString& o) const { return !(o < *this); }
  bool operator>=(const AscendString& o) const { return !(*this < o); }
  bool operator==(const AscendString& o) const {
    return GetLength() == o.GetLength() &&
           std::memcmp(GetString(), o.GetString(), GetLength()) == 0;
  }
  bool operator!=(const AscendString& o) const { return !(*this == o); }

 private:
  void Assign(const char* text, size_t length) {
    data_.assign(text, text + (text ? length : 0));
    data_.push_back('\0');
  }
  std::vector<char> data_;
};

inline bool operator==(const AscendString& a, const char* b) { return a == AscendString(b); }
inline bool operator==(const char* a, const AscendString& b) { return b == AscendString(a); }
inline bool operator!=(const AscendString& a, const char* b) { return !(a == b); }
inline std::string operator+(const std::string& a, const AscendString& b) {
  return a + b.GetString();
}
inline std::string operator+(const AscendString& a, const std::string& b) {
  return a.GetString() + b;
}

}  // namespace ge
