#include "ir/attribute.h"

#include <cmath>

namespace oc {

const AttributeValue* AttributeMap::Find(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? nullptr : &it->second;
}

int64_t AttributeMap::GetInt(const std::string& name, int64_t def) const {
  const auto* v = Find(name);
  if (!v) return def;
  if (auto* i = std::get_if<int64_t>(v)) return *i;
  // A float where an int is meant (a file may hold either kind): its integral value when it
  // has one in range; NaN and out-of-range values have none (converting them is undefined).
  if (auto* f = std::get_if<float>(v)) {
    const double d = *f;
    if (std::isfinite(d) && d >= -9.2233720368547758e18 && d < 9.2233720368547758e18)
      return static_cast<int64_t>(d);
  }
  return def;
}

float AttributeMap::GetFloat(const std::string& name, float def) const {
  const auto* v = Find(name);
  if (!v) return def;
  if (auto* f = std::get_if<float>(v)) return *f;
  if (auto* i = std::get_if<int64_t>(v)) return static_cast<float>(*i);
  return def;
}

std::string AttributeMap::GetString(const std::string& name, const std::string& def) const {
  const auto* v = Find(name);
  if (auto* s = v ? std::get_if<std::string>(v) : nullptr) return *s;
  return def;
}

std::vector<int64_t> AttributeMap::GetInts(const std::string& name,
                                           std::vector<int64_t> def) const {
  const auto* v = Find(name);
  auto* s = v ? std::get_if<std::vector<int64_t>>(v) : nullptr;
  return s && !s->empty() ? *s : def;
}

std::vector<float> AttributeMap::GetFloats(const std::string& name, std::vector<float> def) const {
  const auto* v = Find(name);
  auto* s = v ? std::get_if<std::vector<float>>(v) : nullptr;
  return s && !s->empty() ? *s : def;
}

std::vector<std::string> AttributeMap::GetStrings(const std::string& name) const {
  const auto* v = Find(name);
  if (auto* s = v ? std::get_if<std::vector<std::string>>(v) : nullptr) return *s;
  return {};
}

const Tensor* AttributeMap::GetTensor(const std::string& name) const {
  const auto* v = Find(name);
  return v ? std::get_if<Tensor>(v) : nullptr;
}

}  // namespace oc
