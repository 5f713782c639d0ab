#include "frontend/converter_table.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/message_lite.h>

#include <climits>

namespace oc::frontend {
namespace {

std::string Named(const ParserWords& w, const std::string& name, const std::string& type) {
  return std::string(w.op) + " [" + name + "] (" + type + "): ";
}

}  // namespace

Status Invalid(const std::string& msg) { return ParseError(msg, "E19005"); }

Status OpError(const ParserWords& w, const std::string& name, const std::string& type,
               const std::string& msg) {
  return Invalid(Named(w, name, type) + msg);
}

Status OpUnsupported(const ParserWords& w, const std::string& name, const std::string& type,
                     const std::string& what) {
  return Unsupported(
      Named(w, name, type) + what + " is not supported by OpenCANN's " + w.parser + " parser",
      "E19010");
}

Status NoConverter(const ParserWords& w, const std::string& name, const std::string& type) {
  return Unsupported("No parser is registered for Op [" + name + ", optype [" + type +
                         "]]: OpenCANN's " + w.parser + " parser has no such " + w.op_type,
                     "E19010");
}

std::string NoConverterReason(const ParserWords& w) {
  return std::string("no parser is registered for this ") + w.op_type + " (E19010)";
}

bool ParseBinaryProto(const std::string& bytes, google::protobuf::MessageLite& message) {
  if (bytes.size() > static_cast<size_t>(INT_MAX)) return false;
  google::protobuf::io::ArrayInputStream raw(bytes.data(), static_cast<int>(bytes.size()));
  google::protobuf::io::CodedInputStream in(&raw);
  in.SetTotalBytesLimit(INT_MAX);
  return message.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
}

}  // namespace oc::frontend
