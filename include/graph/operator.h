// ge::Operator as framework plugins (register/register.h) use it: a named operator of a type
// with attributes a parse function reads from the framework's op and writes to the package's.
// Header-only, C++11, and free of std::string in its storage, so a plugin built with either
// C++ string ABI sees the same object. OpenCANN has no GE graph construction API: building
// graphs from Operators (inputs, outputs, Graph) is not provided.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/types.h"

namespace ge {

// GE's graph headers bring these into namespace ge; plugins written `using namespace ge;` use
// them unqualified.
using std::string;
using std::vector;

class Operator {
 public:
  Operator() = default;
  explicit Operator(const char* type) : type_(type) {}
  Operator(const char* name, const char* type) : name_(name), type_(type) {}

  graphStatus GetName(AscendString& name) const {  // NOLINT(runtime/references): GE's API
    name = name_;
    return GRAPH_SUCCESS;
  }
  graphStatus GetOpType(AscendString& type) const {  // NOLINT(runtime/references)
    type = type_;
    return GRAPH_SUCCESS;
  }

  Operator& SetAttr(const char* name, int64_t v) { return Put(name, Value::kInt).i = v, *this; }
  Operator& SetAttr(const char* name, int32_t v) { return SetAttr(name, static_cast<int64_t>(v)); }
  Operator& SetAttr(const char* name, uint32_t v) { return SetAttr(name, static_cast<int64_t>(v)); }
  Operator& SetAttr(const char* name, float v) { return Put(name, Value::kFloat).f = v, *this; }
  Operator& SetAttr(const char* name, bool v) { return Put(name, Value::kBool).b = v, *this; }
  Operator& SetAttr(const char* name, const char* v) {
    return Put(name, Value::kString).s = AscendString(v), *this;
  }
  Operator& SetAttr(const char* name, const AscendString& v) {
    return SetAttr(name, v.GetString());
  }
  Operator& SetAttr(const char* name, const std::vector<int64_t>& v) {
    return Put(name, Value::kListInt).ints = v, *this;
  }
  Operator& SetAttr(const char* name, const std::vector<float>& v) {
    return Put(name, Value::kListFloat).floats = v, *this;
  }

  graphStatus GetAttr(const char* name, int64_t& v) const {  // NOLINT(runtime/references)
    const Value* a = Get(name, Value::kInt);
    return a ? (v = a->i, GRAPH_SUCCESS) : GRAPH_FAILED;
  }
  graphStatus GetAttr(const char* name, int32_t& v) const {  // NOLINT(runtime/references)
    const Value* a = Get(name, Value::kInt);
    return a ? (v = static_cast<int32_t>(a->i), GRAPH_SUCCESS) : GRAPH_FAILED;
  }
  graphStatus GetAttr(const char* name, float& v) const {  // NOLINT(runtime/references)
    const Value* a = Get(name, Value::kFloat);
    return a ? (v = a->f, GRAPH_SUCCESS) : GRAPH_FAILED;
  }
  graphStatus GetAttr(const char* name, bool& v) const {  // NOLINT(runtime/references)
    const Value* a = Get(name, Value::kBool);
    return a ? (v = a->b, GRAPH_SUCCESS) : GRAPH_FAILED;
  }
  graphStatus GetAttr(const char* name, AscendString& v) const {  // NOLINT(runtime/references)
    const Value* a = Get(name, Value::kString);
    return a ? (v = a->s, GRAPH_SUCCESS) : GRAPH_FAILED;
  }
  graphStatus GetAttr(const char* name, std::string& v) const {  // NOLINT(runtime/references)
    const Value* a = Get(name, Value::kString);
    return a ? (v = a->s.GetString(), GRAPH_SUCCESS) : GRAPH_FAILED;
  }
  graphStatus GetAttr(const char* name, std::vector<int64_t>& v) const {  // NOLINT
    const Value* a = Get(name, Value::kListInt);
    return a ? (v = a->ints, GRAPH_SUCCESS) : GRAPH_FAILED;
  }
  graphStatus GetAttr(const char* name, std::vector<float>& v) const {  // NOLINT
    const Value* a = Get(name, Value::kListFloat);
    return a ? (v = a->floats, GRAPH_SUCCESS) : GRAPH_FAILED;
  }
  // Every attribute with its type's name (VT_INT, VT_FLOAT, VT_BOOL, VT_STRING, VT_LIST_INT,
  // VT_LIST_FLOAT), as GE names them.
  graphStatus GetAllAttrNamesAndTypes(
      std::map<AscendString, AscendString>& out) const {  // NOLINT(runtime/references)
    static const char* const kNames[] = {"VT_INT",    "VT_FLOAT",    "VT_BOOL",
                                         "VT_STRING", "VT_LIST_INT", "VT_LIST_FLOAT"};
    for (const auto& a : attrs_) out[a.name] = AscendString(kNames[a.kind]);
    return GRAPH_SUCCESS;
  }
  bool HasAttr(const char* name) const {
    for (const auto& a : attrs_)
      if (a.name == name) return true;
    return false;
  }

 private:
  struct Value {
    enum Kind { kInt, kFloat, kBool, kString, kListInt, kListFloat } kind = kInt;
    AscendString name;
    int64_t i = 0;
    float f = 0;
    bool b = false;
    AscendString s;
    std::vector<int64_t> ints;
    std::vector<float> floats;
  };
  Value& Put(const char* name, typename Value::Kind kind) {
    for (auto& a : attrs_)
      if (a.name == name) return a = Value(), a.name = AscendString(name), a.kind = kind, a;
    attrs_.emplace_back();
    attrs_.back().name = AscendString(name);
    attrs_.back().kind = kind;
    return attrs_.back();
  }
  const Value* Get(const char* name, typename Value::Kind kind) const {
    for (const auto& a : attrs_)
      if (a.name == name && a.kind == kind) return &a;
    return nullptr;
  }
  AscendString name_, type_;
  std::vector<Value> attrs_;
};

}  // namespace ge
