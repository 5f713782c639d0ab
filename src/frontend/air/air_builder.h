// What an AIR op converter works with: the GE op (type, "op:index" inputs, GE attributes),
// and a builder mapping GE outputs to IR values. Attribute helpers follow GE's prototypes: a
// required attribute that is missing, or one of the wrong kind, is an error naming the op.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "frontend/converter_table.h"
#include "frontend/graph_builder.h"
#include "ge_ir.pb.h"

namespace oc::air_import {

using ge::proto::AttrDef;
using ge::proto::OpDef;

inline constexpr frontend::ParserWords kAirWords{"AIR", "op", "GE operator"};

using frontend::Invalid;
Status OpError(const OpDef& op, const std::string& msg);
Status OpUnsupported(const OpDef& op, const std::string& what);

const AttrDef* Find(const OpDef& op, const std::string& key);
Result<std::vector<int64_t>> Ints(const OpDef& op, const std::string& key, bool required,
                                  std::vector<int64_t> def = {});
int64_t Int(const OpDef& op, const std::string& key, int64_t def);
Result<int64_t> RequiredInt(const OpDef& op, const std::string& key);
// A type attribute GE stores as a data type (single ops' "data_type") or as its number
// ("int"); def when absent, kUndefined when it names no type.
DataType TypeAttr(const OpDef& op, const std::string& key, DataType def);
float Float(const OpDef& op, const std::string& key, float def);
bool Bool(const OpDef& op, const std::string& key, bool def);
std::string Str(const OpDef& op, const std::string& key, const std::string& def);

class AirBuilder {
 public:
  GraphBuilder b;
  std::map<std::string, std::string> values;  // "op:k" -> IR value

  // Data inputs (control edges "op:-1" left out).
  size_t NumInputs(const OpDef& op) const;
  Result<std::string> In(const OpDef& op, size_t i) const;
  // The value of input i when it is a constant, else nullptr.
  const Tensor* Const(const OpDef& op, size_t i) const;
  void Out(const OpDef& op, const std::string& value, int k = 0) {
    values[op.name() + ":" + std::to_string(k)] = value;
  }
};

// Input i as constant ints (an axis, a shape, paddings), or an error naming it.
Result<std::vector<int64_t>> ConstInts(const OpDef& op, AirBuilder& a, size_t i, const char* what);

using AirConverter = Status (*)(const OpDef& op, AirBuilder& a);
// Shapes, data movement and reductions (air_ops_shape.cpp); the others are air_ops.cpp's.
Status Reshape(const OpDef& op, AirBuilder& a);
Status Transpose(const OpDef& op, AirBuilder& a);
Status ReduceMean(const OpDef& op, AirBuilder& a);
Status ReduceSum(const OpDef& op, AirBuilder& a);
Status ReduceMax(const OpDef& op, AirBuilder& a);
Status ArgMaxMin(const OpDef& op, AirBuilder& a);
Status Cast(const OpDef& op, AirBuilder& a);
Status Concat(const OpDef& op, AirBuilder& a);
Status ExpandDims(const OpDef& op, AirBuilder& a);
Status Unsqueeze(const OpDef& op, AirBuilder& a);
Status Squeeze(const OpDef& op, AirBuilder& a);
Status Pad(const OpDef& op, AirBuilder& a);
// GE operator types -> their converters (air_ops.cpp); Data, Const, Constant and NetOutput are
// the importer's.
const frontend::ConverterTable<AirConverter>& Converters();

}  // namespace oc::air_import
