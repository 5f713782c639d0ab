#include "msopgen/op_build.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "base/file.h"
#include "msopgen/project.h"
#include "register/op_def_registry.h"

namespace oc::msopgen {
namespace {

struct TypeName {
  const char* ge;   // DT_FLOAT16: msopgen's op specs, kernels' ORIG_DTYPE_*
  const char* ini;  // float16: CANN's ops-info ini and opc's parameter files
};

const std::map<ge::DataType, TypeName>& TypeNames() {
  static const std::map<ge::DataType, TypeName> m = {
      {ge::DT_FLOAT, {"DT_FLOAT", "float32"}},
      {ge::DT_FLOAT16, {"DT_FLOAT16", "float16"}},
      {ge::DT_BF16, {"DT_BF16", "bfloat16"}},
      {ge::DT_DOUBLE, {"DT_DOUBLE", "double"}},
      {ge::DT_INT8, {"DT_INT8", "int8"}},
      {ge::DT_UINT8, {"DT_UINT8", "uint8"}},
      {ge::DT_INT16, {"DT_INT16", "int16"}},
      {ge::DT_UINT16, {"DT_UINT16", "uint16"}},
      {ge::DT_INT32, {"DT_INT32", "int32"}},
      {ge::DT_UINT32, {"DT_UINT32", "uint32"}},
      {ge::DT_INT64, {"DT_INT64", "int64"}},
      {ge::DT_UINT64, {"DT_UINT64", "uint64"}},
      {ge::DT_BOOL, {"DT_BOOL", "bool"}},
      {ge::DT_COMPLEX64, {"DT_COMPLEX64", "complex64"}},
      {ge::DT_COMPLEX128, {"DT_COMPLEX128", "complex128"}}};
  return m;
}

std::string FormatName(ge::Format f) {
  switch (f) {
    case ge::FORMAT_NCHW:
      return "NCHW";
    case ge::FORMAT_NHWC:
      return "NHWC";
    case ge::FORMAT_ND:
      return "ND";
    case ge::FORMAT_NC1HWC0:
      return "NC1HWC0";
    case ge::FORMAT_FRACTAL_Z:
      return "FRACTAL_Z";
    case ge::FORMAT_HWCN:
      return "HWCN";
    case ge::FORMAT_NDHWC:
      return "NDHWC";
    case ge::FORMAT_FRACTAL_NZ:
      return "FRACTAL_NZ";
    case ge::FORMAT_NCDHW:
      return "NCDHW";
    default:
      return "";
  }
}

std::string ParamTypeName(ops::Option o) {
  return o == ops::OPTIONAL ? "optional" : o == ops::DYNAMIC ? "dynamic" : "required";
}

// The attribute's type as CANN's ini and op.json name it.
std::string AttrTypeName(const gert::RuntimeAttrs::Value& v) {
  switch (v.kind) {
    case gert::RuntimeAttrs::Value::kInt:
      return "int";
    case gert::RuntimeAttrs::Value::kFloat:
      return "float";
    case gert::RuntimeAttrs::Value::kBool:
      return "bool";
    case gert::RuntimeAttrs::Value::kString:
      return "str";
    case gert::RuntimeAttrs::Value::kListInt:
      return "listInt";
    case gert::RuntimeAttrs::Value::kListFloat:
      return "listFloat";
  }
  return "int";
}

std::string FloatText(float f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(f));
  std::string s = buf;
  if (s.find_first_of(".eEni") == std::string::npos) s += ".0";
  return s;
}

// The default as the ini writes it: the template's wrapper generator pastes it into Python
// (bool capitalised there), so lists are bracketed.
std::string AttrDefaultText(const gert::RuntimeAttrs::Value& v) {
  std::string out = "[";
  switch (v.kind) {
    case gert::RuntimeAttrs::Value::kInt:
      return std::to_string(v.i);
    case gert::RuntimeAttrs::Value::kFloat:
      return FloatText(v.f);
    case gert::RuntimeAttrs::Value::kBool:
      return v.b ? "true" : "false";
    case gert::RuntimeAttrs::Value::kString:
      return v.s.GetString();
    case gert::RuntimeAttrs::Value::kListInt:
      for (int64_t x : v.ints) out += (out.size() > 1 ? "," : "") + std::to_string(x);
      return out + "]";
    case gert::RuntimeAttrs::Value::kListFloat:
      for (float x : v.floats) out += (out.size() > 1 ? "," : "") + FloatText(x);
      return out + "]";
  }
  return "";
}

// The default as C++ source, as op_spec.h keeps it.
std::string AttrDefaultSource(const gert::RuntimeAttrs::Value& v) {
  switch (v.kind) {
    case gert::RuntimeAttrs::Value::kFloat:
      return FloatText(v.f) + "f";
    case gert::RuntimeAttrs::Value::kString: {
      std::string q = "\"";
      for (const char* c = v.s.GetString(); *c; ++c) {
        if (*c == '"' || *c == '\\') q += '\\';
        q += *c;
      }
      return q + "\"";
    }
    case gert::RuntimeAttrs::Value::kListFloat: {
      std::string out;
      for (float x : v.floats) out += (out.empty() ? "" : ", ") + FloatText(x) + "f";
      return out;
    }
    case gert::RuntimeAttrs::Value::kListInt: {
      std::string out;
      for (int64_t x : v.ints) out += (out.empty() ? "" : ", ") + std::to_string(x);
      return out;
    }
    default:
      return AttrDefaultText(v);
  }
}

Result<ParamSpec> ParamFromDef(const ops::OpParamDef& p, const std::string& where, size_t* combos) {
  ParamSpec spec;
  spec.name = p.name();
  spec.arg_name = spec.name;
  spec.param_type = ParamTypeName(p.param_type());
  if (p.dtypes().empty()) return ParseError(where + " [" + spec.name + "]: has no DataType list");
  for (ge::DataType t : p.dtypes()) {
    auto it = TypeNames().find(t);
    if (it == TypeNames().end())
      return ParseError(where + " [" + spec.name + "]: data type " + std::to_string(t) +
                        " has no name OpenCANN knows");
    spec.types.push_back(it->second.ge);
  }
  if (*combos == 0) *combos = spec.types.size();
  if (spec.types.size() != *combos)
    return ParseError(where + " [" + spec.name + "]: " + std::to_string(spec.types.size()) +
                      " data types where the op's first parameter lists " +
                      std::to_string(*combos) + " (every list must be as long)");
  for (ge::Format f : p.formats()) {
    const std::string name = FormatName(f);
    if (name.empty())
      return ParseError(where + " [" + spec.name + "]: format " + std::to_string(f) +
                        " has no name OpenCANN knows");
    spec.formats.push_back("FORMAT_" + name);
  }
  if (spec.formats.empty()) spec.formats.assign(*combos, "FORMAT_ND");
  if (spec.formats.size() != *combos)
    return ParseError(where + " [" + spec.name + "]: " + std::to_string(spec.formats.size()) +
                      " formats for " + std::to_string(*combos) + " data types");
  return spec;
}

std::string IniTypeOf(const std::string& ge_name) {
  for (const auto& [type, names] : TypeNames())
    if (ge_name == names.ge) return names.ini;
  return ge_name;
}

std::string Joined(const std::vector<std::string>& v, bool strip_format) {
  std::string out;
  for (const auto& s : v) {
    std::string item = strip_format && s.rfind("FORMAT_", 0) == 0 ? s.substr(7) : IniTypeOf(s);
    out += (out.empty() ? "" : ",") + item;
  }
  return out;
}

Status WriteText(const std::string& path, const std::string& text) {
  return WriteFileAtomic(path, text);
}

}  // namespace

Result<OpSpec> SpecFromOpDef(const ops::OpDef& def) {
  OpSpec spec;
  spec.op = def.type();
  spec.kernel_name = SnakeCase(spec.op);
  const std::string where = "op [" + spec.op + "]";
  size_t combos = 0;
  for (const auto& in : def.inputs()) {
    OC_ASSIGN_OR_RETURN(ParamSpec p, ParamFromDef(in, where + " input", &combos));
    spec.inputs.push_back(std::move(p));
  }
  for (const auto& out : def.outputs()) {
    OC_ASSIGN_OR_RETURN(ParamSpec p, ParamFromDef(out, where + " output", &combos));
    // An output named like an input updates it in place: the kernel's <name>_ref.
    for (const auto& in : spec.inputs)
      if (in.name == p.name) p.arg_name = p.name + "_ref";
    spec.outputs.push_back(std::move(p));
  }
  for (const auto& a : def.attrs()) {
    AttrSpec attr;
    attr.name = a.name();
    attr.param_type = a.attr_type() == ops::REQUIRED ? "required" : "optional";
    attr.type = AttrTypeName(a.default_value());
    if (attr.param_type == "optional") attr.default_value = AttrDefaultSource(a.default_value());
    spec.attrs.push_back(std::move(attr));
  }
  spec.combos = combos;
  return spec;
}

std::vector<std::string> ComputeUnitsOf(const ops::OpDef& def) {
  std::vector<std::string> units;
  for (const auto& soc : def.ai_core_def().socs()) {
    std::string u = soc.GetString();
    std::transform(u.begin(), u.end(), u.begin(), [](unsigned char c) { return std::tolower(c); });
    if (!u.empty() && std::find(units.begin(), units.end(), u) == units.end()) units.push_back(u);
  }
  return units;
}

std::string OpsInfoSection(const ops::OpDef& def, const OpSpec& spec) {
  std::ostringstream s;
  s << "[" << spec.op << "]\n";
  for (size_t i = 0; i < spec.inputs.size(); ++i) {
    const auto& p = spec.inputs[i];
    s << "input" << i << ".name=" << p.name << "\n"
      << "input" << i << ".dtype=" << Joined(p.types, false) << "\n"
      << "input" << i << ".format=" << Joined(p.formats, true) << "\n"
      << "input" << i << ".paramType=" << p.param_type << "\n"
      << "input" << i << ".shape=all\n";
  }
  for (size_t i = 0; i < spec.outputs.size(); ++i) {
    const auto& p = spec.outputs[i];
    s << "output" << i << ".name=" << p.name << "\n"
      << "output" << i << ".dtype=" << Joined(p.types, false) << "\n"
      << "output" << i << ".format=" << Joined(p.formats, true) << "\n"
      << "output" << i << ".paramType=" << p.param_type << "\n"
      << "output" << i << ".shape=all\n";
  }
  if (!spec.attrs.empty()) {
    s << "attr.list=";
    for (size_t i = 0; i < spec.attrs.size(); ++i) s << (i ? "," : "") << spec.attrs[i].name;
    s << "\n";
    size_t i = 0;
    for (const auto& a : def.attrs()) {
      const AttrSpec& attr = spec.attrs[i++];
      s << "attr_" << attr.name << ".type=" << attr.type << "\n"
        << "attr_" << attr.name << ".value=all\n"
        << "attr_" << attr.name << ".paramType=" << attr.param_type << "\n";
      if (attr.param_type == "optional")
        s << "attr_" << attr.name << ".defaultValue=" << AttrDefaultText(a.default_value()) << "\n";
    }
  }
  s << "dynamicCompileStatic.flag=true\n"
    << "dynamicFormat.flag=true\n"
    << "dynamicRankSupport.flag=true\n"
    << "dynamicShapeSupport.flag=true\n"
    << "needCheckSupport.flag=false\n"
    << "precision_reduce.flag=true\n"
    << "opFile.value=" << spec.kernel_name << "\n"
    << "opInterface.value=" << spec.kernel_name << "\n";
  return s.str();
}

Status WriteOpBuildOutputs(const std::vector<const ops::OpDef*>& defs, const std::string& out_dir) {
  if (!IsDirectory(out_dir))
    return NotFound("op_build: output folder [" + out_dir + "] does not exist");
  std::map<std::string, std::string> ini_by_unit;  // compute unit -> sections
  std::string proto_h =
      "/* Operator prototypes of this package, written by OpenCANN's op_build from the\n"
      " * OpDefs of the op_host library. OpenCANN has no GE graph IR API (REG_OP), so the ops\n"
      " * are described here for reading; atc and the runtime take them from the package. */\n"
      "#ifndef OP_PROTO_H_\n#define OP_PROTO_H_\n\n";
  std::set<std::string> seen;
  for (const ops::OpDef* def : defs) {
    if (!seen.insert(def->type()).second) continue;
    OC_ASSIGN_OR_RETURN(OpSpec spec, SpecFromOpDef(*def));
    OC_RETURN_IF_ERROR(GenerateAclnn(spec, out_dir));
    proto_h += "/* " + spec.op + "(";
    for (size_t i = 0; i < spec.inputs.size(); ++i)
      proto_h += (i ? ", " : "") + spec.inputs[i].name + ": " + Joined(spec.inputs[i].types, false);
    proto_h += ") -> (";
    for (size_t i = 0; i < spec.outputs.size(); ++i)
      proto_h +=
          (i ? ", " : "") + spec.outputs[i].name + ": " + Joined(spec.outputs[i].types, false);
    proto_h += ")";
    for (const auto& a : spec.attrs) proto_h += ", attr " + a.name + ": " + a.type;
    proto_h += " */\n";
    const std::string section = OpsInfoSection(*def, spec);
    for (const auto& unit : ComputeUnitsOf(*def)) ini_by_unit[unit] += section;
  }
  proto_h += "\n#endif  // OP_PROTO_H_\n";
  OC_RETURN_IF_ERROR(WriteText(out_dir + "/op_proto.h", proto_h));
  OC_RETURN_IF_ERROR(
      WriteText(out_dir + "/op_proto.cc",
                "// The prototypes of op_proto.h (OpenCANN registers the ops from\n"
                "// their OpDefs; nothing is compiled here).\n#include \"op_proto.h\"\n"));
  for (const auto& [unit, text] : ini_by_unit)
    OC_RETURN_IF_ERROR(WriteText(out_dir + "/aic-" + unit + "-ops-info.ini", text));
  return Status::Ok();
}

}  // namespace oc::msopgen
