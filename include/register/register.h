// Framework plugins of an operator package (framework/tf_plugin, onnx_plugin, caffe_plugin):
// REGISTER_CUSTOM_OP maps a framework's op type onto the package's op, as CANN's
// register/register.h declares it. OpenCANN records every registration (libopregister);
// its parsers do not call the plugins' parse functions yet (docs/ascendc.md says which
// frameworks' custom ops atc maps).
//
// C++11 and free of std::string in what the package and the library share, like
// op_def_registry.h, so either C++ string ABI registers the same data.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <vector>

#include "graph/ascend_string.h"

namespace ge {
class Operator;  // the graph operator a parse function fills (graph/operator.h in CANN)
}  // namespace ge

namespace domi {

using Status = uint32_t;
constexpr Status SUCCESS = 0;
constexpr Status FAILED = 0xFFFFFFFF;

enum FrameworkType {
  CAFFE = 0,
  MINDSPORE = 1,
  TENSORFLOW = 3,
  ANDROID_NN = 4,
  ONNX = 5,
  FRAMEWORK_RESERVED = 6
};

enum class ImplyType : unsigned int {
  BUILDIN = 0,
  TVM,
  CUSTOM,
  AI_CPU,
  CCE,
  GELOCAL,
  HCCL,
  INVALID = 0xFFFFFFFF
};

using ParseParamByOpFunc = Status (*)(const ge::Operator&, ge::Operator&);

// The default mapping: the framework op's attributes become the package op's by name.
Status AutoMappingByOpFn(const ge::Operator& op_src, ge::Operator& op);

class OpRegistrationData {
 public:
  explicit OpRegistrationData(const char* om_optype) : om_type_(om_optype) {}
  OpRegistrationData& FrameworkType(domi::FrameworkType type) {
    framework_ = type;
    return *this;
  }
  OpRegistrationData& OriginOpType(const char* type) {
    origin_types_.push_back(ge::AscendString(type));
    return *this;
  }
  OpRegistrationData& OriginOpType(std::initializer_list<const char*> types) {
    for (const char* t : types) origin_types_.push_back(ge::AscendString(t));
    return *this;
  }
  OpRegistrationData& OriginOpType(const std::vector<ge::AscendString>& types) {
    for (const auto& t : types) origin_types_.push_back(t);
    return *this;
  }
  OpRegistrationData& ParseParamsByOperatorFn(ParseParamByOpFunc fn) {
    parse_by_operator_ = fn;
    return *this;
  }
  OpRegistrationData& ImplyType(domi::ImplyType type) {
    imply_type_ = type;
    return *this;
  }

  const char* GetOmOptype() const { return om_type_.GetString(); }
  domi::FrameworkType GetFrameworkType() const { return framework_; }
  const std::vector<ge::AscendString>& GetOriginOpTypes() const { return origin_types_; }
  ParseParamByOpFunc GetParseParamByOperatorFn() const { return parse_by_operator_; }
  domi::ImplyType GetImplyType() const { return imply_type_; }

 private:
  ge::AscendString om_type_;
  domi::FrameworkType framework_ = FRAMEWORK_RESERVED;
  std::vector<ge::AscendString> origin_types_;
  ParseParamByOpFunc parse_by_operator_ = nullptr;
  domi::ImplyType imply_type_ = domi::ImplyType::TVM;
};

// Receives one registration (libopregister keeps a copy for the parsers).
class OpReceiver {
 public:
  OpReceiver(OpRegistrationData& reg_data);  // NOLINT(runtime/references): CANN's signature
  ~OpReceiver() = default;
};

// Every framework registration received so far, in load order.
const std::vector<OpRegistrationData>& RegisteredFrameworkOps();

}  // namespace domi

#define OC_REGISTER_CUSTOM_OP_UNIQ(ctr, name)                               \
  static ::domi::OpReceiver g_oc_register_op##ctr __attribute__((unused)) = \
      ::domi::OpRegistrationData(name)
#define OC_REGISTER_CUSTOM_OP_HELPER(ctr, name) OC_REGISTER_CUSTOM_OP_UNIQ(ctr, name)
#define REGISTER_CUSTOM_OP(name) OC_REGISTER_CUSTOM_OP_HELPER(__COUNTER__, name)
