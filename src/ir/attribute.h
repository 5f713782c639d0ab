// Node attributes with ONNX meanings.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "ir/tensor.h"

namespace oc {

class Graph;

using AttributeValue =
    std::variant<int64_t, float, std::string, std::vector<int64_t>, std::vector<float>,
                 std::vector<std::string>, Tensor, std::shared_ptr<Graph>>;

class AttributeMap {
 public:
  bool Has(const std::string& name) const { return values_.count(name) != 0; }
  void Set(const std::string& name, AttributeValue v) { values_[name] = std::move(v); }
  void Erase(const std::string& name) { values_.erase(name); }

  int64_t GetInt(const std::string& name, int64_t def) const;
  float GetFloat(const std::string& name, float def) const;
  std::string GetString(const std::string& name, const std::string& def) const;
  // An empty list reads as the default, as ONNX Runtime reads it: `strides: []` is "not
  // given", so a kernel and its schema never disagree about an absent stride.
  std::vector<int64_t> GetInts(const std::string& name, std::vector<int64_t> def = {}) const;
  std::vector<float> GetFloats(const std::string& name, std::vector<float> def = {}) const;
  std::vector<std::string> GetStrings(const std::string& name) const;
  const Tensor* GetTensor(const std::string& name) const;
  const AttributeValue* Find(const std::string& name) const;

  const std::map<std::string, AttributeValue>& all() const { return values_; }

 private:
  std::map<std::string, AttributeValue> values_;
};

}  // namespace oc
