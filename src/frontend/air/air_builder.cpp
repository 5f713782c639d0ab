#include "frontend/air/air_builder.h"

namespace oc::air_import {

Status OpError(const OpDef& op, const std::string& msg) {
  return frontend::OpError(kAirWords, op.name(), op.type(), msg);
}

Status OpUnsupported(const OpDef& op, const std::string& what) {
  return frontend::OpUnsupported(kAirWords, op.name(), op.type(), what);
}

const AttrDef* Find(const OpDef& op, const std::string& key) {
  auto it = op.attr().find(key);
  return it == op.attr().end() ? nullptr : &it->second;
}

Result<std::vector<int64_t>> Ints(const OpDef& op, const std::string& key, bool required,
                                  std::vector<int64_t> def) {
  const AttrDef* a = Find(op, key);
  if (!a) {
    if (required) return OpError(op, "the required attribute [" + key + "] is missing");
    return def;
  }
  if (a->value_case() != AttrDef::kList) return OpError(op, "[" + key + "] must be a list");
  return std::vector<int64_t>(a->list().i().begin(), a->list().i().end());
}

int64_t Int(const OpDef& op, const std::string& key, int64_t def) {
  const AttrDef* a = Find(op, key);
  return a && a->value_case() == AttrDef::kI ? a->i() : def;
}

DataType TypeAttr(const OpDef& op, const std::string& key, DataType def) {
  const AttrDef* a = Find(op, key);
  if (!a) return def;
  if (a->value_case() == AttrDef::kDt) return FromGeDataType(a->dt());
  // An int holds GE's C++ ge::DataType (DT_FLOAT 0, DT_FLOAT16 1, ...: aclDataType's numbers,
  // what GE's AttrUtils::SetInt and the single-op JSON write), not the proto enum `dt` uses.
  if (a->value_case() == AttrDef::kI) return FromAclDataType(static_cast<int32_t>(a->i()));
  return DataType::kUndefined;
}

Result<int64_t> RequiredInt(const OpDef& op, const std::string& key) {
  const AttrDef* a = Find(op, key);
  if (!a) return OpError(op, "the required attribute [" + key + "] is missing");
  if (a->value_case() != AttrDef::kI) return OpError(op, "[" + key + "] must be an int");
  return a->i();
}

float Float(const OpDef& op, const std::string& key, float def) {
  const AttrDef* a = Find(op, key);
  return a && a->value_case() == AttrDef::kF ? a->f() : def;
}

bool Bool(const OpDef& op, const std::string& key, bool def) {
  const AttrDef* a = Find(op, key);
  return a && a->value_case() == AttrDef::kB ? a->b() : def;
}

std::string Str(const OpDef& op, const std::string& key, const std::string& def) {
  const AttrDef* a = Find(op, key);
  return a && a->value_case() == AttrDef::kS ? a->s() : def;
}

namespace {
bool IsControl(const std::string& in) {
  return in.size() >= 3 && in.compare(in.size() - 3, 3, ":-1") == 0;
}
}  // namespace

size_t AirBuilder::NumInputs(const OpDef& op) const {
  size_t n = 0;
  for (const auto& in : op.input()) n += IsControl(in) ? 0 : 1;
  return n;
}

Result<std::string> AirBuilder::In(const OpDef& op, size_t i) const {
  std::vector<const std::string*> data;
  for (const auto& in : op.input())
    if (!IsControl(in)) data.push_back(&in);
  if (i >= data.size())
    return OpError(op,
                   "needs input " + std::to_string(i) + ", it has " + std::to_string(data.size()));
  auto it = values.find(*data[i]);
  if (it == values.end()) return OpError(op, "reads [" + *data[i] + "], which no op before makes");
  return it->second;
}

const Tensor* AirBuilder::Const(const OpDef& op, size_t i) const {
  auto v = In(op, i);
  return v.ok() ? b.graph().FindInitializer(v.value()) : nullptr;
}

Result<std::vector<int64_t>> ConstInts(const OpDef& op, AirBuilder& a, size_t i, const char* what) {
  const Tensor* t = a.Const(op, i);
  if (!t) return OpUnsupported(op, std::string("a ") + what + " that is not a constant");
  return t->ToInt64Vector();
}

}  // namespace oc::air_import
