// Operator definitions for custom operator packages (op_host code): the op's inputs,
// outputs and attributes (OpDef), shape and type inference, and the tiling function, as
// CANN's register/op_def_registry.h declares them. OpenCANN's atc and runtime read the
// definitions of every package on ASCEND_CUSTOM_OPP_PATH (libopregister).
//
// C++11, and free of std::string in everything a package and the library share (names are
// ge::AscendString), so a package compiled as CANN's templates compile op_host code
// (-std=c++11 -D_GLIBCXX_USE_CXX11_ABI=0) registers the same definitions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/types.h"
#include "register/tilingdata_base.h"

namespace gert {

class Shape {
 public:
  Shape() = default;
  Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
  explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}
  size_t GetDimNum() const { return dims_.size(); }
  int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
  void SetDimNum(size_t n) { dims_.resize(n, 1); }
  void SetDim(size_t i, int64_t v) {
    if (i >= dims_.size()) dims_.resize(i + 1, 1);
    dims_[i] = v;
  }
  Shape& AppendDim(int64_t v) {
    dims_.push_back(v);
    return *this;
  }
  int64_t GetShapeSize() const {
    int64_t n = 1;
    for (int64_t d : dims_) n *= d;
    return n;
  }
  bool IsScalar() const { return dims_.empty(); }
  int64_t operator[](size_t i) const { return dims_[i]; }
  int64_t& operator[](size_t i) { return dims_[i]; }
  bool operator==(const Shape& o) const { return dims_ == o.dims_; }
  bool operator!=(const Shape& o) const { return dims_ != o.dims_; }
  const std::vector<int64_t>& dims() const { return dims_; }

 private:
  std::vector<int64_t> dims_;
};

// The shape before and after the NPU's layout change; on the CPU both are the same.
class StorageShape {
 public:
  StorageShape() = default;
  StorageShape(Shape origin, Shape storage)
      : origin_(std::move(origin)), storage_(std::move(storage)) {}
  const Shape& GetOriginShape() const { return origin_; }
  const Shape& GetStorageShape() const { return storage_; }
  Shape& MutableOriginShape() { return origin_; }
  Shape& MutableStorageShape() { return storage_; }

 private:
  Shape origin_, storage_;
};

template <typename T>
class TypedContinuousVector {
 public:
  explicit TypedContinuousVector(const std::vector<T>* v) : v_(v) {}
  size_t GetSize() const { return v_->size(); }
  const T* GetData() const { return v_->data(); }

 private:
  const std::vector<T>* v_;
};

// Attribute values of a node, in the order the OpDef declares them.
class RuntimeAttrs {
 public:
  struct Value {
    enum Kind { kInt, kFloat, kBool, kString, kListInt, kListFloat } kind = kInt;
    int64_t i = 0;
    float f = 0;
    bool b = false;
    ge::AscendString s;
    std::vector<int64_t> ints;
    std::vector<float> floats;
  };
  template <typename T>
  const T* GetAttrPointer(size_t index) const {
    if (index >= values_.size()) return nullptr;
    return Pointer(index, values_[index], static_cast<const T*>(nullptr));
  }
  const int64_t* GetInt(size_t i) const { return GetAttrPointer<int64_t>(i); }
  const float* GetFloat(size_t i) const { return GetAttrPointer<float>(i); }
  const bool* GetBool(size_t i) const { return GetAttrPointer<bool>(i); }
  const char* GetStr(size_t i) const { return GetAttrPointer<char>(i); }
  const TypedContinuousVector<int64_t>* GetListInt(size_t i) {
    if (i >= values_.size()) return nullptr;
    static std::vector<int64_t> empty;
    if (values_[i].kind != Value::kListInt) Mismatch(i, values_[i], "a list of int");
    lists_.emplace_back(values_[i].kind == Value::kListInt ? &values_[i].ints : &empty);
    return &lists_.back();
  }
  size_t GetAttrNum() const { return values_.size(); }
  std::vector<Value>& values() { return values_; }

 private:
  // An attribute read as another type than its own: CANN hands out the attribute's storage
  // reinterpreted, and so does this (a list's reads as zeros), with one warning line.
  static void Mismatch(size_t index, const Value& v, const char* as) {
    static const char* const kinds[] = {"an int",   "a float",       "a bool",
                                        "a string", "a list of int", "a list of float"};
    std::fprintf(stderr,
                 "[WARNING] RuntimeAttrs: attribute %zu is %s and is read as %s; its bytes are "
                 "reinterpreted, as CANN's are (check the attribute index)\n",
                 index, kinds[v.kind], as);
  }
  static const void* Storage(const Value& v) {
    alignas(8) static const unsigned char zeros[16] = {};
    switch (v.kind) {
      case Value::kInt:
        return &v.i;
      case Value::kFloat:
        return &v.f;
      case Value::kBool:
        return &v.b;
      case Value::kString:
        return v.s.GetString();
      default:
        return zeros;
    }
  }
  template <typename T>
  const T* Reinterpreted(size_t index, const Value& v, const char* as) const {
    Mismatch(index, v, as);
    return static_cast<const T*>(Storage(v));
  }
  // The value as T (chosen by the tag's type); another kind's storage, reinterpreted.
  const int64_t* Pointer(size_t i, const Value& v, const int64_t*) const {
    return v.kind == Value::kInt ? &v.i : Reinterpreted<int64_t>(i, v, "an int");
  }
  const float* Pointer(size_t i, const Value& v, const float*) const {
    return v.kind == Value::kFloat ? &v.f : Reinterpreted<float>(i, v, "a float");
  }
  const bool* Pointer(size_t i, const Value& v, const bool*) const {
    return v.kind == Value::kBool ? &v.b : Reinterpreted<bool>(i, v, "a bool");
  }
  const char* Pointer(size_t i, const Value& v, const char*) const {
    return v.kind == Value::kString ? v.s.GetString() : Reinterpreted<char>(i, v, "a string");
  }
  // Another integer type over an Int attribute reads its storage's low bytes, as CANN's
  // int64 storage reads (GetAttrPointer<uint32_t> on an Int attribute).
  template <typename T>
  struct IntView {
    static const bool value =
        std::is_integral<T>::value && !std::is_same<T, bool>::value && sizeof(T) <= sizeof(int64_t);
  };
  template <typename T>
  typename std::enable_if<IntView<T>::value, const T*>::type Pointer(size_t i, const Value& v,
                                                                     const T*) const {
    return v.kind == Value::kInt ? reinterpret_cast<const T*>(&v.i)
                                 : Reinterpreted<T>(i, v, "an integer");
  }
  template <typename T>
  typename std::enable_if<!IntView<T>::value, const T*>::type Pointer(size_t, const Value&,
                                                                      const T*) const {
    return nullptr;  // types no attribute has (structs): nothing to hand out
  }
  std::vector<Value> values_;
  std::deque<TypedContinuousVector<int64_t>> lists_;
};

class CompileTimeTensorDesc {
 public:
  ge::DataType GetDataType() const { return dtype_; }
  ge::Format GetOriginFormat() const { return format_; }
  ge::Format GetStorageFormat() const { return format_; }
  void Set(ge::DataType dtype, ge::Format format) {
    dtype_ = dtype;
    format_ = format;
  }

 private:
  ge::DataType dtype_ = ge::DT_FLOAT;
  ge::Format format_ = ge::FORMAT_ND;
};

// Raw tiling bytes the tiling function fills (SaveToBuffer + SetDataSize).
class TilingData {
 public:
  enum : size_t { kCapacity = 64 * 1024 };
  void* GetData() { return data_; }
  size_t GetCapacity() const { return kCapacity; }
  void SetDataSize(size_t n) { size_ = n < size_t{kCapacity} ? n : size_t{kCapacity}; }
  size_t GetDataSize() const { return size_; }

 private:
  alignas(64) unsigned char data_[kCapacity] = {};
  size_t size_ = 0;
};

// A tensor as the tiling function sees it (TilingContext::GetInputTensor): its shapes, data
// type and formats; GetData is the value only where it is known when tiling runs (null
// otherwise, as CANN gives null for inputs the op does not declare value-dependent).
class Tensor {
 public:
  Tensor() = default;
  Tensor(StorageShape shape, CompileTimeTensorDesc desc, const void* data)
      : shape_(std::move(shape)), desc_(desc), data_(data) {}
  const StorageShape& GetShape() const { return shape_; }
  const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
  const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
  int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
  ge::DataType GetDataType() const { return desc_.GetDataType(); }
  ge::Format GetOriginFormat() const { return desc_.GetOriginFormat(); }
  ge::Format GetStorageFormat() const { return desc_.GetStorageFormat(); }
  template <typename T>
  const T* GetData() const {
    return static_cast<const T*>(data_);
  }
  const void* GetAddr() const { return data_; }

 private:
  StorageShape shape_;
  CompileTimeTensorDesc desc_;
  const void* data_ = nullptr;
};

// What a node looks like to its host functions. OpenCANN fills it; op code reads it.
class NodeView {
 public:
  ge::AscendString name, type;
  std::vector<StorageShape> input_shapes, output_shapes;
  std::vector<CompileTimeTensorDesc> input_descs, output_descs;
  std::vector<bool> input_present;        // optional inputs may be absent
  std::vector<const void*> input_values;  // constant inputs' data when known; may be shorter
  RuntimeAttrs attrs;
  // The chip the model is built for (an opencann::SocSpec, see opencann/soc_table.h);
  // null = the default. Tiling code passes it to PlatformAscendC as CANN's platform info.
  const void* platform_info = nullptr;
};

class TilingContext {
 public:
  explicit TilingContext(NodeView* node) : node_(node) {}
  const StorageShape* GetInputShape(size_t i) const {
    return Present(i) ? &node_->input_shapes[i] : nullptr;
  }
  const StorageShape* GetOptionalInputShape(size_t i) const { return GetInputShape(i); }
  const StorageShape* GetOutputShape(size_t i) const {
    return i < node_->output_shapes.size() ? &node_->output_shapes[i] : nullptr;
  }
  const CompileTimeTensorDesc* GetInputDesc(size_t i) const {
    return Present(i) ? &node_->input_descs[i] : nullptr;
  }
  const CompileTimeTensorDesc* GetOptionalInputDesc(size_t i) const { return GetInputDesc(i); }
  const CompileTimeTensorDesc* GetOutputDesc(size_t i) const {
    return i < node_->output_descs.size() ? &node_->output_descs[i] : nullptr;
  }
  // The inputs and outputs as tensors (shape, data type, format, and a constant's value).
  const Tensor* GetInputTensor(size_t i) const {
    if (!Present(i)) return nullptr;
    Tensors();
    return &inputs_[i];
  }
  const Tensor* GetOptionalInputTensor(size_t i) const { return GetInputTensor(i); }
  const Tensor* GetOutputTensor(size_t i) const {
    if (i >= node_->output_shapes.size()) return nullptr;
    Tensors();
    return &outputs_[i];
  }
  RuntimeAttrs* GetAttrs() const { return &node_->attrs; }
  size_t GetComputeNodeInputNum() const { return node_->input_shapes.size(); }
  size_t GetComputeNodeOutputNum() const { return node_->output_shapes.size(); }
  const char* GetNodeName() const { return node_->name.GetString(); }
  const char* GetNodeType() const { return node_->type.GetString(); }
  ge::graphStatus SetBlockDim(uint32_t n) {
    block_dim_ = n;
    return ge::GRAPH_SUCCESS;
  }
  uint32_t GetBlockDim() const { return block_dim_; }
  ge::graphStatus SetTilingKey(uint64_t k) {
    tiling_key_ = k;
    return ge::GRAPH_SUCCESS;
  }
  uint64_t GetTilingKey() const { return tiling_key_; }
  TilingData* GetRawTilingData() { return &tiling_; }
  // The tiling as a plain struct (a kernel reads it with GET_TILING_DATA_WITH_STRUCT or
  // REGISTER_TILING_DEFAULT): the bytes the kernel receives are sizeof(T).
  template <typename T>
  T* GetTilingData() {
    static_assert(sizeof(T) <= TilingData::kCapacity, "the tiling struct is over 64 KiB");
    tiling_.SetDataSize(sizeof(T));
    return static_cast<T*>(tiling_.GetData());
  }
  size_t* GetWorkspaceSizes(size_t num) {
    if (workspaces_.size() < num) workspaces_.resize(num, 0);
    return workspaces_.data();
  }
  size_t GetWorkspaceNum() const { return workspaces_.size(); }
  const void* GetPlatformInfo() const { return node_->platform_info; }  // platform_ascendc.h

 private:
  bool Present(size_t i) const {
    return i < node_->input_shapes.size() &&
           (i >= node_->input_present.size() || node_->input_present[i]);
  }
  // Built on first use from the node (its shapes and descriptions do not change meanwhile).
  void Tensors() const {
    if (built_) return;
    built_ = true;
    for (size_t i = 0; i < node_->input_shapes.size(); ++i)
      inputs_.emplace_back(
          node_->input_shapes[i],
          i < node_->input_descs.size() ? node_->input_descs[i] : CompileTimeTensorDesc(),
          i < node_->input_values.size() ? node_->input_values[i] : nullptr);
    for (size_t i = 0; i < node_->output_shapes.size(); ++i)
      outputs_.emplace_back(
          node_->output_shapes[i],
          i < node_->output_descs.size() ? node_->output_descs[i] : CompileTimeTensorDesc(),
          nullptr);
  }
  NodeView* node_;
  mutable bool built_ = false;
  mutable std::vector<Tensor> inputs_, outputs_;
  uint32_t block_dim_ = 1;
  uint64_t tiling_key_ = 0;
  TilingData tiling_;
  std::vector<size_t> workspaces_;
};

class InferShapeContext {
 public:
  explicit InferShapeContext(NodeView* node) : node_(node) {}
  const Shape* GetInputShape(size_t i) const {
    return i < node_->input_shapes.size() &&
                   (i >= node_->input_present.size() || node_->input_present[i])
               ? &node_->input_shapes[i].GetOriginShape()
               : nullptr;
  }
  const Shape* GetOptionalInputShape(size_t i) const { return GetInputShape(i); }
  const Shape* GetRequiredInputShape(size_t i) const { return GetInputShape(i); }
  Shape* GetOutputShape(size_t i) {
    return i < node_->output_shapes.size() ? &node_->output_shapes[i].MutableOriginShape()
                                           : nullptr;
  }
  RuntimeAttrs* GetAttrs() const { return &node_->attrs; }
  size_t GetComputeNodeInputNum() const { return node_->input_shapes.size(); }
  const char* GetNodeName() const { return node_->name.GetString(); }
  const char* GetNodeType() const { return node_->type.GetString(); }

 private:
  NodeView* node_;
};

class InferDataTypeContext {
 public:
  explicit InferDataTypeContext(NodeView* node) : node_(node) {}
  ge::DataType GetInputDataType(size_t i) const {
    return i < node_->input_descs.size() ? node_->input_descs[i].GetDataType() : ge::DT_UNDEFINED;
  }
  ge::DataType GetOptionalInputDataType(size_t i) const { return GetInputDataType(i); }
  ge::graphStatus SetOutputDataType(size_t i, ge::DataType dtype) {
    if (i >= node_->output_descs.size()) return ge::GRAPH_FAILED;
    node_->output_descs[i].Set(dtype, node_->output_descs[i].GetOriginFormat());
    return ge::GRAPH_SUCCESS;
  }
  RuntimeAttrs* GetAttrs() const { return &node_->attrs; }
  const char* GetNodeName() const { return node_->name.GetString(); }

 private:
  NodeView* node_;
};

}  // namespace gert

namespace ops {

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };

class OpParamDef {
 public:
  explicit OpParamDef(const char* name) : name_(name) {}
  OpParamDef& ParamType(Option o) {
    type_ = o;
    return *this;
  }
  OpParamDef& DataType(std::vector<ge::DataType> types) {
    dtypes_ = std::move(types);
    return *this;
  }
  OpParamDef& DataTypeList(std::vector<ge::DataType> types) { return DataType(std::move(types)); }
  OpParamDef& Format(std::vector<ge::Format> formats) {
    formats_ = std::move(formats);
    return *this;
  }
  OpParamDef& FormatList(std::vector<ge::Format> formats) { return Format(std::move(formats)); }
  OpParamDef& UnknownShapeFormat(std::vector<ge::Format>) { return *this; }
  OpParamDef& ValueDepend(Option) { return *this; }
  OpParamDef& AutoContiguous() { return *this; }
  OpParamDef& IgnoreContiguous() { return *this; }

  const char* name() const { return name_.GetString(); }
  Option param_type() const { return type_; }
  const std::vector<ge::DataType>& dtypes() const { return dtypes_; }
  const std::vector<ge::Format>& formats() const { return formats_; }

 private:
  ge::AscendString name_;
  Option type_ = REQUIRED;
  std::vector<ge::DataType> dtypes_;
  std::vector<ge::Format> formats_;
};

class OpAttrDef {
 public:
  explicit OpAttrDef(const char* name) : name_(name) {}
  OpAttrDef& AttrType(Option o) {
    type_ = o;
    return *this;
  }
  OpAttrDef& Bool(bool v = false) {
    Set(gert::RuntimeAttrs::Value::kBool).b = v;
    return *this;
  }
  OpAttrDef& Float(float v = 0) {
    Set(gert::RuntimeAttrs::Value::kFloat).f = v;
    return *this;
  }
  OpAttrDef& Int(int64_t v = 0) {
    Set(gert::RuntimeAttrs::Value::kInt).i = v;
    return *this;
  }
  OpAttrDef& String(const char* v = "") {
    Set(gert::RuntimeAttrs::Value::kString).s = ge::AscendString(v);
    return *this;
  }
  OpAttrDef& ListInt(std::vector<int64_t> v = {}) {
    Set(gert::RuntimeAttrs::Value::kListInt).ints = std::move(v);
    return *this;
  }
  OpAttrDef& ListFloat(std::vector<float> v = {}) {
    Set(gert::RuntimeAttrs::Value::kListFloat).floats = std::move(v);
    return *this;
  }

  const char* name() const { return name_.GetString(); }
  Option attr_type() const { return type_; }
  const gert::RuntimeAttrs::Value& default_value() const { return value_; }

 private:
  gert::RuntimeAttrs::Value& Set(gert::RuntimeAttrs::Value::Kind kind) {
    value_.kind = kind;
    return value_;
  }
  ge::AscendString name_;
  Option type_ = OPTIONAL;
  gert::RuntimeAttrs::Value value_;
};

using InferShapeFunc = ge::graphStatus (*)(gert::InferShapeContext*);
using InferDataTypeFunc = ge::graphStatus (*)(gert::InferDataTypeContext*);
using TilingFunc = ge::graphStatus (*)(gert::TilingContext*);

class OpAICoreConfig {
 public:
  OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
  OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
  OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
  OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
  OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
  OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
};

class OpAICoreDef {
 public:
  OpAICoreDef& SetTiling(TilingFunc f) {
    tiling_ = f;
    return *this;
  }
  OpAICoreDef& AddConfig(const char* soc) {
    socs_.push_back(soc);
    return *this;
  }
  OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig&) { return AddConfig(soc); }
  TilingFunc tiling() const { return tiling_; }
  const std::vector<ge::AscendString>& socs() const { return socs_; }

 private:
  TilingFunc tiling_ = nullptr;
  std::vector<ge::AscendString> socs_;
};

class OpDef {
 public:
  explicit OpDef(const char* type) : type_(type) {}
  virtual ~OpDef() = default;
  OpParamDef& Input(const char* name) {
    inputs_.emplace_back(name);
    return inputs_.back();
  }
  OpParamDef& Output(const char* name) {
    outputs_.emplace_back(name);
    return outputs_.back();
  }
  OpAttrDef& Attr(const char* name) {
    attrs_.emplace_back(name);
    return attrs_.back();
  }
  OpDef& SetInferShape(InferShapeFunc f) {
    infer_shape_ = f;
    return *this;
  }
  OpDef& SetInferDataType(InferDataTypeFunc f) {
    infer_dtype_ = f;
    return *this;
  }
  OpAICoreDef& AICore() { return aicore_; }

  const char* type() const { return type_.GetString(); }
  const std::deque<OpParamDef>& inputs() const { return inputs_; }
  const std::deque<OpParamDef>& outputs() const { return outputs_; }
  const std::deque<OpAttrDef>& attrs() const { return attrs_; }
  InferShapeFunc infer_shape() const { return infer_shape_; }
  InferDataTypeFunc infer_dtype() const { return infer_dtype_; }
  const OpAICoreDef& ai_core_def() const { return aicore_; }

 private:
  ge::AscendString type_;
  std::deque<OpParamDef> inputs_, outputs_;  // deque: references stay valid while chaining
  std::deque<OpAttrDef> attrs_;
  InferShapeFunc infer_shape_ = nullptr;
  InferDataTypeFunc infer_dtype_ = nullptr;
  OpAICoreDef aicore_;
};

// The kernel entry of an op: extern "C" function taking its inputs, outputs, workspace and
// tiling as GM addresses (num_args of them).
struct KernelEntry {
  KernelEntry() {}
  KernelEntry(const char* op, const char* kernel, void* fn, int n, std::vector<ge::DataType> t)
      : op_type(op), kernel_name(kernel), function(fn), num_args(n), types(std::move(t)) {}
  ge::AscendString op_type, kernel_name;
  void* function = nullptr;
  int num_args = 0;
  std::vector<ge::DataType> types;  // inputs then outputs; empty: any
};

// Everything packages registered (static initialisers run when a package is loaded).
class OpDefRegistry {
 public:
  static OpDefRegistry& Global();
  void AddOpDef(std::unique_ptr<OpDef> def);
  void AddKernel(KernelEntry entry);
  const std::vector<std::unique_ptr<OpDef>>& op_defs() const { return defs_; }
  const std::vector<KernelEntry>& kernels() const { return kernels_; }
  // OpenCANN's loader names the package being loaded, so definitions can be traced to it.
  void SetCurrentSource(const char* source) { source_ = ge::AscendString(source); }
  const std::vector<ge::AscendString>& sources() const { return sources_; }
  std::vector<ge::AscendString>& kernel_sources() { return kernel_sources_; }

 private:
  std::vector<std::unique_ptr<OpDef>> defs_;
  std::vector<ge::AscendString> sources_, kernel_sources_;
  std::vector<KernelEntry> kernels_;
  ge::AscendString source_;
};

struct OpDefRegisterer {
  explicit OpDefRegisterer(std::unique_ptr<OpDef> def) {
    OpDefRegistry::Global().AddOpDef(std::move(def));
  }
};
struct KernelRegisterer {
  KernelRegisterer(const char* op, const char* kernel, void* fn, int num_args,
                   std::vector<ge::DataType> types = {}) {
    OpDefRegistry::Global().AddKernel(KernelEntry(op, kernel, fn, num_args, std::move(types)));
  }
};

}  // namespace ops

#define OP_ADD(opType, ...) \
  static ::ops::OpDefRegisterer g_oc_op_def_##opType(std::unique_ptr<opType>(new opType(#opType)))

// Used by the entry file msopgen writes next to each kernel.
// ... one kernel symbol per type combination (inputs then outputs), as msopgen writes it.
#define OC_KERNEL_ADD_TYPED(opType, kernel, numArgs, ...)                                        \
  static ::ops::KernelRegisterer g_oc_kernel_##kernel(#opType, #kernel,                          \
                                                      reinterpret_cast<void*>(&kernel), numArgs, \
                                                      std::vector<ge::DataType> __VA_ARGS__)
#define OC_KERNEL_ADD(opType, kernel, numArgs)                          \
  static ::ops::KernelRegisterer g_oc_kernel_##opType(#opType, #kernel, \
                                                      reinterpret_cast<void*>(&kernel), numArgs)
