// What the compiler knows about unknown dims beyond "-1": which of them are the same
// dimension (a named symbol, as in ONNX's dim_param or ONNX Runtime's symbolic shape
// inference), and the partly known values of small integer tensors computed from shapes
// (Shape -> Gather -> Concat -> Reshape chains). Compile-time knowledge only: the .om keeps
// -1, and the runtime sees actual shapes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace oc {

// One element of a shape-like value: known, a symbol, or unknown.
struct ShapeElement {
  int64_t value = 0;   // when known
  int32_t symbol = 0;  // 0: known; > 0: this symbol's size; < 0: unknown
  bool known() const { return symbol == 0; }
  static ShapeElement Known(int64_t v) { return {v, 0}; }
  static ShapeElement Symbol(int32_t s) { return {0, s}; }
  static ShapeElement Unknown() { return {0, -1}; }
};
using PartialValue = std::vector<ShapeElement>;

struct SymbolicFacts {
  // Value -> symbol of each dim (0 where none); only values with a symbolic dim.
  std::unordered_map<std::string, std::vector<int32_t>> dim_symbols;
  // Value -> elements of a 0-D or 1-D integer tensor that is not a constant.
  std::unordered_map<std::string, PartialValue> partial_values;

  // The symbol of dim `dim` of `value` (of rank `rank`), minted on first use so that every
  // Shape of the same value names the same symbols.
  int32_t SymbolOf(const std::string& value, size_t dim, size_t rank) {
    auto& dims = dim_symbols[value];
    if (dims.size() != rank) dims.assign(rank, 0);
    if (dims[dim] == 0) dims[dim] = next_symbol_++;
    return dims[dim];
  }
  // Dims that a model names alike (ONNX dim_param) are one symbol.
  void NameDim(const std::string& value, size_t dim, size_t rank, const std::string& name) {
    auto [it, fresh] = named_.emplace(name, next_symbol_);
    if (fresh) ++next_symbol_;
    auto& dims = dim_symbols[value];
    if (dims.size() != rank) dims.assign(rank, 0);
    dims[dim] = it->second;
  }
  const std::vector<int32_t>* DimsOf(const std::string& value) const {
    auto it = dim_symbols.find(value);
    return it == dim_symbols.end() ? nullptr : &it->second;
  }
  const PartialValue* ValueOf(const std::string& value) const {
    auto it = partial_values.find(value);
    return it == partial_values.end() ? nullptr : &it->second;
  }

 private:
  std::map<std::string, int32_t> named_;
  int32_t next_symbol_ = 1;
};

}  // namespace oc
