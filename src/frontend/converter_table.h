// What the Caffe, TensorFlow and AIR frontends share: the table from an op type to its
// converter, the errors CANN's parsers give (worded once, with each frontend's own names) and
// the reading of a binary model. A frontend keeps its converters, table entries and words.
#pragma once

#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "frontend/frontend.h"

namespace google::protobuf {
class MessageLite;
}  // namespace google::protobuf

namespace oc::frontend {

// How a frontend's messages name things; CANN's parsers word their errors this way.
struct ParserWords {
  const char* parser;   // "Caffe": "... is not supported by OpenCANN's Caffe parser"
  const char* op;       // "layer": "layer [conv1] (Convolution): ..."
  const char* op_type;  // "layer type": "... has no such layer type"
};

// A malformed model (E19005).
Status Invalid(const std::string& msg);
// A malformed op, named with its type (E19005).
Status OpError(const ParserWords& w, const std::string& name, const std::string& type,
               const std::string& msg);
// Something an op asks for that OpenCANN does not convert (E19010).
Status OpUnsupported(const ParserWords& w, const std::string& name, const std::string& type,
                     const std::string& what);
// An op of a type no converter is registered for (E19010), as CANN's parsers say it.
Status NoConverter(const ParserWords& w, const std::string& name, const std::string& type);
// The pre-check's (--mode=3) reason for such an op.
std::string NoConverterReason(const ParserWords& w);

// Parses `bytes` as one whole binary message; false when they are not one. Models may be up
// to protobuf's 2 GiB limit, above the default total-bytes limit of a coded stream.
bool ParseBinaryProto(const std::string& bytes, google::protobuf::MessageLite& message);

// Op type -> converter, for one frontend. `Converter` is the frontend's function pointer type
// (its op message and the context its converters emit IR nodes into). Built-in types are
// those the importer reads itself (inputs, constants): supported, with no converter.
template <typename Converter>
class ConverterTable {
 public:
  ConverterTable(const ParserWords& words, std::vector<std::string> built_in,
                 std::initializer_list<std::pair<const std::string, Converter>> converters)
      : words_(words), built_in_(std::move(built_in)), converters_(converters) {}

  const ParserWords& words() const { return words_; }

  // The converter of `type`, or nullptr when it has none.
  Converter Find(const std::string& type) const {
    auto it = converters_.find(type);
    return it == converters_.end() ? nullptr : it->second;
  }
  // The converter of op `name`'s type, or the E19010 error naming the op.
  Result<Converter> Lookup(const std::string& name, const std::string& type) const {
    if (Converter c = Find(type)) return c;
    return NoConverter(words_, name, type);
  }
  bool Supports(const std::string& type) const {
    for (const auto& b : built_in_)
      if (b == type) return true;
    return Find(type) != nullptr;
  }
  // Every supported type: the built-in ones, then the converted ones in name order.
  std::vector<std::string> Types() const {
    std::vector<std::string> out = built_in_;
    for (const auto& entry : converters_) out.push_back(entry.first);
    return out;
  }
  // One op as the pre-check reports it.
  OpSurvey Survey(const std::string& name, const std::string& type) const {
    OpSurvey s;
    s.name = name;
    s.type = type;
    s.supported = Supports(type);
    if (!s.supported) s.reason = NoConverterReason(words_);
    return s;
  }

 private:
  ParserWords words_;
  std::vector<std::string> built_in_;
  std::map<std::string, Converter> converters_;
};

}  // namespace oc::frontend
