#include "msopgen/op_spec.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "base/file.h"

namespace oc::msopgen {
namespace {

using json = nlohmann::json;

std::optional<int64_t> ParseInt(const json& v) {
  if (v.is_number_integer()) return v.get<int64_t>();
  if (!v.is_string()) return std::nullopt;
  const std::string t = v.get<std::string>();
  int64_t out = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
  if (ec != std::errc() || end != t.data() + t.size() || t.empty()) return std::nullopt;
  return out;
}

std::optional<double> ParseFloat(const json& v) {
  double out = 0;
  if (v.is_number()) {
    out = v.get<double>();
  } else if (v.is_string()) {
    const std::string t = v.get<std::string>();
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
    if (ec != std::errc() || end != t.data() + t.size() || t.empty()) return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (!std::isfinite(out) || std::fabs(out) > 3.4e38) return std::nullopt;
  return out;
}

std::string FloatLiteral(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.9g", v);
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s + "f";
}

// A C++ string literal for any bytes: printable ASCII as is, the rest as octal escapes.
std::string StringLiteral(const std::string& v) {
  std::string out = "\"";
  for (unsigned char c : v) {
    if (c == '"' || c == '\\' || c == '?') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\%03o", c);
      out += buf;
    }
  }
  return out + "\"";
}

// op.json writes list defaults as JSON lists or as strings holding one ("[1, 2]").
std::optional<json> ListOf(const json& v) {
  if (v.is_array()) return v;
  if (v.is_object() && v.empty()) return json::array();  // {} in the JSON: an empty list
  if (!v.is_string()) return std::nullopt;
  std::string text = v.get<std::string>();
  // CANN's examples also write lists as C++ initialisers: "{}", "{1, 2}".
  if (text.size() >= 2 && text.front() == '{' && text.back() == '}') {
    text.front() = '[';
    text.back() = ']';
  }
  json parsed = json::parse(text, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_array()) return std::nullopt;
  return parsed;
}

std::optional<std::string> DefaultLiteral(const std::string& type, const json& v) {
  if (type == "int") {
    auto i = ParseInt(v);
    return i ? std::optional<std::string>(std::to_string(*i)) : std::nullopt;
  }
  if (type == "float") {
    auto f = ParseFloat(v);
    return f ? std::optional<std::string>(FloatLiteral(*f)) : std::nullopt;
  }
  if (type == "bool") {
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_string()) {
      std::string t = v.get<std::string>();
      for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (t == "true" || t == "1") return "true";
      if (t == "false" || t == "0") return "false";
    }
    return std::nullopt;
  }
  if (type == "str") {
    if (!v.is_string()) return std::nullopt;
    return StringLiteral(v.get<std::string>());
  }
  auto list = ListOf(v);
  if (!list) return std::nullopt;
  std::string out;
  for (const auto& e : *list) {
    std::optional<std::string> item;
    if (type == "listInt") {
      if (auto i = ParseInt(e)) item = std::to_string(*i);
    } else if (auto f = ParseFloat(e)) {
      item = FloatLiteral(*f);
    }
    if (!item) return std::nullopt;
    out += (out.empty() ? "" : ", ") + *item;
  }
  return out;
}

// op.json type spellings (CANN accepts several) -> GE names.
const std::map<std::string, std::string>& TypeNames() {
  static const std::map<std::string, std::string> m = {
      {"fp16", "DT_FLOAT16"},  {"float16", "DT_FLOAT16"}, {"half", "DT_FLOAT16"},
      {"float", "DT_FLOAT"},   {"fp32", "DT_FLOAT"},      {"float32", "DT_FLOAT"},
      {"bf16", "DT_BF16"},     {"bfloat16", "DT_BF16"},   {"double", "DT_DOUBLE"},
      {"int8", "DT_INT8"},     {"uint8", "DT_UINT8"},     {"int16", "DT_INT16"},
      {"uint16", "DT_UINT16"}, {"int32", "DT_INT32"},     {"uint32", "DT_UINT32"},
      {"int64", "DT_INT64"},   {"uint64", "DT_UINT64"},   {"bool", "DT_BOOL"}};
  return m;
}

const std::set<std::string>& Formats() {
  static const std::set<std::string> s = {"ND", "NCHW", "NHWC", "NCDHW", "NDHWC"};
  return s;
}

const std::set<std::string>& AttrTypes() {
  static const std::set<std::string> s = {"int", "float", "bool", "str", "listInt", "listFloat"};
  return s;
}

std::string Keys(const std::map<std::string, std::string>& m) {
  std::string out;
  for (const auto& [k, v] : m) out += (out.empty() ? "" : ", ") + k;
  return out;
}

bool IsIdentifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

class Checker {
 public:
  explicit Checker(std::string file) : file_(std::move(file)) {}
  Status Bad(const std::string& field, const std::string& why) const {
    return InvalidArgument(file_ + ": " + field + ": " + why);
  }
  Result<std::string> String(const json& obj, const std::string& key, const std::string& field,
                             bool required = true, const std::string& def = "") const {
    if (!obj.contains(key)) {
      if (required) return Bad(field + "." + key, "is missing");
      return def;
    }
    if (!obj[key].is_string()) return Bad(field + "." + key, "must be a string");
    return obj[key].get<std::string>();
  }
  Result<ParamSpec> Param(const json& p, const std::string& field) const {
    if (!p.is_object()) return Bad(field, "must be an object");
    ParamSpec s;
    OC_ASSIGN_OR_RETURN(s.name, String(p, "name", field));
    if (!IsIdentifier(s.name))
      return Bad(field + ".name", "\"" + s.name + "\" is not an identifier");
    OC_ASSIGN_OR_RETURN(s.param_type, String(p, "param_type", field, false, "required"));
    if (s.param_type != "required" && s.param_type != "optional")
      return Bad(field + ".param_type", "\"" + s.param_type +
                                            "\" must be required or optional (dynamic inputs "
                                            "are not supported yet)");
    // A single type or format may be written without the list (CANN's samples do).
    const json types = p.contains("type") && p["type"].is_string() ? json::array({p["type"]})
                                                                   : p.value("type", json());
    if (!types.is_array() || types.empty())
      return Bad(field + ".type", "must be a non-empty list of data types");
    for (size_t i = 0; i < types.size(); ++i) {
      const auto& t = types[i];
      const std::string f = field + ".type[" + std::to_string(i) + "]";
      if (!t.is_string()) return Bad(f, "must be a string");
      auto it = TypeNames().find(t.get<std::string>());
      if (it == TypeNames().end())
        return Bad(
            f, "\"" + t.get<std::string>() + "\" is not a data type (" + Keys(TypeNames()) + ")");
      s.types.push_back(it->second);
    }
    if (p.contains("format")) {
      const json formats = p["format"].is_string() ? json::array({p["format"]}) : p["format"];
      if (!formats.is_array()) return Bad(field + ".format", "must be a list");
      for (size_t i = 0; i < formats.size(); ++i) {
        const auto& fm = formats[i];
        const std::string f = field + ".format[" + std::to_string(i) + "]";
        if (!fm.is_string() || !Formats().count(fm.get<std::string>()))
          return Bad(f, "must be one of ND, NCHW, NHWC, NCDHW, NDHWC");
        s.formats.push_back("FORMAT_" + fm.get<std::string>());
      }
      // One entry on either side applies to every entry of the other, as CANN's msopgen
      // takes it; other lengths must agree.
      if (s.formats.size() == 1 && s.types.size() > 1)
        s.formats.assign(s.types.size(), s.formats[0]);
      else if (s.types.size() == 1 && s.formats.size() > 1)
        s.types.assign(s.formats.size(), s.types[0]);
      if (s.formats.size() != s.types.size())
        return Bad(field + ".format", "has " + std::to_string(s.formats.size()) +
                                          " entries, type has " + std::to_string(s.types.size()));
    } else {
      s.formats.assign(s.types.size(), "FORMAT_ND");
    }
    return s;
  }
  Result<AttrSpec> Attr(const json& a, const std::string& field) const {
    if (!a.is_object()) return Bad(field, "must be an object");
    AttrSpec s;
    OC_ASSIGN_OR_RETURN(s.name, String(a, "name", field));
    if (!IsIdentifier(s.name))
      return Bad(field + ".name", "\"" + s.name + "\" is not an identifier");
    OC_ASSIGN_OR_RETURN(s.param_type, String(a, "param_type", field, false, "optional"));
    if (s.param_type != "required" && s.param_type != "optional")
      return Bad(field + ".param_type", "must be required or optional");
    OC_ASSIGN_OR_RETURN(s.type, String(a, "type", field));
    // Spellings CANN's msopgen also takes.
    static const std::map<std::string, std::string> kAttrAliases = {{"list_int", "listInt"},
                                                                    {"list_float", "listFloat"},
                                                                    {"string", "str"},
                                                                    {"int32", "int"},
                                                                    {"int64", "int"},
                                                                    {"float32", "float"},
                                                                    {"list_int64", "listInt"},
                                                                    {"list_int32", "listInt"},
                                                                    {"list_float32", "listFloat"}};
    if (auto alias = kAttrAliases.find(s.type); alias != kAttrAliases.end()) s.type = alias->second;
    // "value" is the default's other spelling in CANN's examples.
    const char* default_key = a.contains("default_value") ? "default_value" : "value";
    if (!AttrTypes().count(s.type))
      return Bad(field + ".type",
                 "\"" + s.type + "\" must be int, float, bool, str, listInt or listFloat");
    if (a.contains(default_key)) {
      // The value lands in generated C++: it must be a literal of the attribute's type.
      auto literal = DefaultLiteral(s.type, a[default_key]);
      if (!literal)
        return Bad(field + "." + default_key,
                   a[default_key].dump() + " is not a value of type " + s.type);
      s.default_value = *literal;
    } else if (s.param_type == "optional") {
      return Bad(field + ".default_value", "an optional attribute needs a default value");
    }
    return s;
  }

 private:
  std::string file_;
};

}  // namespace

// CANN's msopgen names an op's files and kernel in lower case with an underscore where a word
// starts: before a capital that follows a lowercase letter or a digit, or that ends a run of
// capitals followed by a lowercase letter. AddCustom -> add_custom, Conv2D -> conv2_d (as
// CANN's documentation names it), NLLLoss -> nll_loss, SoftMax -> soft_max (as projects CANN
// generated carry them). Derived from those names, not from msopgen's source.
std::string SnakeCase(const std::string& camel) {
  auto at = [&](size_t i) -> unsigned char {
    return i < camel.size() ? static_cast<unsigned char>(camel[i]) : 0;
  };
  std::string out;
  for (size_t i = 0; i < camel.size(); ++i) {
    const unsigned char c = at(i);
    if (i > 0 && std::isupper(c)) {
      const unsigned char prev = at(i - 1), next = at(i + 1);
      if (std::islower(prev) || std::isdigit(prev) || (std::isupper(prev) && std::islower(next)))
        out += '_';
    }
    out += static_cast<char>(std::tolower(c));
  }
  return out;
}

std::string KernelType(const std::string& ge_type) {
  static const std::map<std::string, std::string> m = {
      {"DT_FLOAT16", "half"},    {"DT_FLOAT", "float"},     {"DT_BF16", "bfloat16_t"},
      {"DT_DOUBLE", "double"},   {"DT_INT8", "int8_t"},     {"DT_UINT8", "uint8_t"},
      {"DT_INT16", "int16_t"},   {"DT_UINT16", "uint16_t"}, {"DT_INT32", "int32_t"},
      {"DT_UINT32", "uint32_t"}, {"DT_INT64", "int64_t"},   {"DT_UINT64", "uint64_t"},
      {"DT_BOOL", "bool"}};
  auto it = m.find(ge_type);
  return it == m.end() ? "uint8_t" : it->second;
}

Result<std::vector<OpSpec>> ParseOpSpecs(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return InvalidArgument("cannot read the op description file [" + path + "]");
  json doc = json::parse(text.value(), nullptr, false);
  Checker c(path);
  if (doc.is_discarded()) return c.Bad("(file)", "is not valid JSON");
  if (doc.is_object()) doc = json::array({doc});
  if (!doc.is_array() || doc.empty()) return c.Bad("(file)", "must be a list of op descriptions");
  std::vector<OpSpec> ops;
  std::set<std::string> names;
  for (size_t i = 0; i < doc.size(); ++i) {
    const std::string field = "[" + std::to_string(i) + "]";
    const json& o = doc[i];
    if (!o.is_object()) return c.Bad(field, "must be an object");
    OpSpec op;
    OC_ASSIGN_OR_RETURN(op.op, c.String(o, "op", field));
    if (!IsIdentifier(op.op) || !std::isupper(static_cast<unsigned char>(op.op[0])))
      return c.Bad(field + ".op",
                   "\"" + op.op + "\" must be a CamelCase identifier (e.g. AddCustom)");
    if (!names.insert(op.op).second)
      return c.Bad(field + ".op", "\"" + op.op + "\" is given twice");
    op.kernel_name = SnakeCase(op.op);
    for (const char* key : {"input_desc", "output_desc"}) {
      if (!o.contains(key)) {
        if (std::string(key) == "output_desc") return c.Bad(field + "." + key, "is missing");
        continue;
      }
      if (!o[key].is_array()) return c.Bad(field + "." + key, "must be a list");
      auto& list = std::string(key) == "input_desc" ? op.inputs : op.outputs;
      for (size_t k = 0; k < o[key].size(); ++k) {
        OC_ASSIGN_OR_RETURN(ParamSpec p,
                            c.Param(o[key][k], field + "." + key + "[" + std::to_string(k) + "]"));
        list.push_back(std::move(p));
      }
    }
    if (op.inputs.empty() && op.outputs.empty())
      return c.Bad(field, "needs at least one input or output");
    if (o.contains("attr")) {
      if (!o["attr"].is_array()) return c.Bad(field + ".attr", "must be a list");
      for (size_t k = 0; k < o["attr"].size(); ++k) {
        OC_ASSIGN_OR_RETURN(AttrSpec a,
                            c.Attr(o["attr"][k], field + ".attr[" + std::to_string(k) + "]"));
        op.attrs.push_back(std::move(a));
      }
    }
    // An output may share an input's name: the op updates that input in place, and the kernel
    // takes it as <name>_ref (as CANN's msopgen writes it). Other repeats are mistakes.
    std::set<std::string> inputs, seen;
    for (auto& p : op.inputs) {
      p.arg_name = p.name;
      inputs.insert(p.name);
    }
    for (auto& p : op.outputs) p.arg_name = inputs.count(p.name) ? p.name + "_ref" : p.name;
    for (const auto* list : {&op.inputs, &op.outputs})
      for (const auto& p : *list)
        if (!seen.insert(p.arg_name).second || (list == &op.outputs && inputs.count(p.arg_name)))
          return c.Bad(field, "input/output name \"" + p.name + "\" is used twice");
    // Every type list is one column per supported combination.
    const ParamSpec& first = op.outputs.empty() ? op.inputs[0] : op.outputs[0];
    op.combos = first.types.size();
    for (const auto* list : {&op.inputs, &op.outputs})
      for (const auto& p : *list)
        if (p.types.size() != op.combos)
          return c.Bad(field, "\"" + p.name + "\" lists " + std::to_string(p.types.size()) +
                                  " types, \"" + first.name + "\" lists " +
                                  std::to_string(op.combos) +
                                  ": each column of the type lists is one supported combination");
    ops.push_back(std::move(op));
  }
  return ops;
}

}  // namespace oc::msopgen
