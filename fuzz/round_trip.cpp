#include "round_trip.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "base/file.h"
#include "base/sha256.h"
#include "base/shape.h"
#include "driver/convert.h"
#include "frontend/air/air_importer.h"
#include "frontend/caffe/caffe_importer.h"
#include "frontend/onnx/onnx_importer.h"
#include "frontend/tensorflow/tf_importer.h"
#include "om/om_model.h"
#include "runtime/model.h"

namespace oc::fuzz {

const char* FrameworkOf(InputKind kind) {
  switch (kind) {
    case InputKind::kOnnx:
      return "5";
    case InputKind::kCaffeJoined:
      return "0";
    case InputKind::kTensorFlow:
      return "3";
    case InputKind::kAir:
      return "1";
  }
  return "5";
}

Result<Graph> ImportInput(InputKind kind, const std::string& bytes, const std::string& base_dir) {
  switch (kind) {
    case InputKind::kOnnx: {
      OnnxImportOptions options;
      options.run_checker = false;
      return ImportOnnxBytes(bytes, base_dir, options);
    }
    case InputKind::kCaffeJoined: {
      const std::string separator = kCaffeWeightsSeparator;
      const size_t at = bytes.find(separator);
      const std::string text = bytes.substr(0, at);
      const std::string weights =
          at == std::string::npos ? std::string() : bytes.substr(at + separator.size());
      return ImportCaffeBuffers(text, weights, "fuzz.prototxt");
    }
    case InputKind::kTensorFlow:
      return ImportTensorFlowBytes(bytes, "fuzz.pb");
    case InputKind::kAir:
      return ImportAirBytes(bytes, "fuzz.air");
  }
  return InvalidArgument("unknown input kind");
}

const char* RoundTripName(RoundTrip outcome) {
  switch (outcome) {
    case RoundTrip::kNotConverted:
      return "not converted";
    case RoundTrip::kNotSerialized:
      return "not serialized";
    case RoundTrip::kLoadRefused:
      return "LOAD REFUSED";
    case RoundTrip::kLoaded:
      return "loaded (too large to execute)";
    case RoundTrip::kExecuted:
      return "executed";
    case RoundTrip::kExecutionFailed:
      return "execution failed";
  }
  return "?";
}

namespace {

// Zero-filled buffers for one execution; false when they would be too large.
struct Buffers {
  std::vector<std::vector<uint8_t>> inputs, outputs;
  ExecuteIo io;
};

bool PrepareBuffers(const Model& model, Buffers& b) {
  size_t total = 0;
  for (size_t i = 0; i < model.inputs().size(); ++i) {
    const IoDesc& in = model.inputs()[i];
    Shape shape = in.shape;
    const auto& ranges = model.input_ranges();
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] >= 0) continue;
      int64_t lo = i < ranges.size() && d < ranges[i].size() ? ranges[i][d].first : 0;
      shape[d] = lo > 1 ? lo : 1;
    }
    auto bytes = TensorBytes(shape, DataTypeSize(in.dtype));
    if (!bytes.ok()) return false;
    total += bytes.value();
    if (total > kMaxExecuteInputBytes) return false;
    b.inputs.emplace_back(std::max<size_t>(bytes.value(), 1));
    b.io.inputs.push_back(b.inputs.back().data());
    b.io.input_sizes.push_back(bytes.value());
    b.io.input_shapes.push_back(IsStatic(in.shape) ? Shape{} : shape);
  }
  for (const IoDesc& out : model.outputs()) {
    // Outputs sized at run time get room for what small inputs make.
    const size_t bytes = std::max<size_t>(out.bytes, size_t{1} << 16);
    if (bytes > 16 * kMaxExecuteInputBytes) return false;
    b.outputs.emplace_back(bytes);
    b.io.outputs.push_back(b.outputs.back().data());
    b.io.output_sizes.push_back(bytes);
  }
  return model.work_size() <= 64 * kMaxExecuteInputBytes;
}

}  // namespace

RoundTripResult RunRoundTrip(Result<Graph> imported, InputKind kind) {
  RoundTripResult r;
  if (!imported.ok()) {
    r.detail = imported.status().ToString();
    return r;
  }
  Graph graph = std::move(imported).value();
  ConvertOptions options;
  options.framework = FrameworkOf(kind);
  options.compile.dynamic_inputs = true;
  // As `atc --input_shape` naming the model's own -1 dims: the .om records them.
  for (const auto& name : graph.inputs) {
    const ValueInfo* vi = graph.FindValue(name);
    if (vi && vi->has_shape && !IsStatic(vi->shape))
      options.shapes.push_back({name, vi->shape, {}});
  }
  auto conversion = ConvertGraph(std::move(graph), options);
  if (!conversion.ok()) {
    r.detail = conversion.status().ToString();
    return r;
  }
  for (auto& og : conversion->graphs) og.graph.name = "round_trip";
  auto om = SerializeOm(conversion->graphs, conversion->write);
  if (!om.ok()) {
    r.outcome = RoundTrip::kNotSerialized;
    r.detail = om.status().ToString();
    return r;
  }
  r.om_bytes = om->size();
  LoadOptions load;
  load.num_threads = 1;
  auto model = Model::Load(MappedFile::FromCopy(om->data(), om->size()), load);
  if (!model.ok()) {
    r.outcome = RoundTrip::kLoadRefused;
    r.detail = model.status().ToString();
    return r;
  }
  Buffers buffers;
  if (!PrepareBuffers(*model.value(), buffers)) {
    r.outcome = RoundTrip::kLoaded;
    return r;
  }
  Status run = model.value()->Execute(buffers.io);
  r.outcome = run.ok() ? RoundTrip::kExecuted : RoundTrip::kExecutionFailed;
  if (!run.ok()) r.detail = run.ToString();
  return r;
}

namespace {

// A refusal's message with the parts that vary between inputs of one cause left out.
std::string Signature(const std::string& message) {
  std::string out;
  int depth = 0;
  for (char c : message) {
    if (c == '[') ++depth;
    if (depth == 0 && !(c >= '0' && c <= '9')) out += c;
    if (c == ']' && depth > 0) {
      --depth;
      if (depth == 0) out += "[]";
    }
  }
  return out;
}

void RecordRefusal(const std::string& dir, const std::string& bytes, const std::string& message) {
  // Named after the signature, so that runs and fork-mode jobs keep one input per kind.
  const std::string signature = Signature(message);
  const auto digest = Sha256(signature.data(), signature.size());
  char name[32];
  std::snprintf(name, sizeof(name), "refusal-%02x%02x%02x%02x", digest[0], digest[1], digest[2],
                digest[3]);
  const std::string stem = dir + "/" + name;
  if (FILE* seen = std::fopen((stem + ".txt").c_str(), "r")) {
    std::fclose(seen);
    return;
  }
  if (FILE* f = std::fopen((stem + ".input").c_str(), "wb")) {
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }
  if (FILE* f = std::fopen((stem + ".txt").c_str(), "w")) {
    std::fprintf(f, "%s\n", message.c_str());
    std::fclose(f);
  }
}

}  // namespace

void CheckRoundTrip(InputKind kind, const std::string& bytes) {
  RoundTripResult r = RunRoundTrip(ImportInput(kind, bytes), kind);
  if (r.outcome != RoundTrip::kLoadRefused) return;
  // atc loads what it wrote before the file takes its name, so a refusal here is atc
  // refusing the model: a clean outcome. Where the compiler let through what only the
  // loader catches is still worth knowing (a later, clearer error): OC_FUZZ_REFUSALS=DIR
  // keeps one input per kind; OC_FUZZ_STRICT_ROUND_TRIP=1 makes any refusal a finding.
  if (const char* dir = std::getenv("OC_FUZZ_REFUSALS")) RecordRefusal(dir, bytes, r.detail);
  if (!std::getenv("OC_FUZZ_STRICT_ROUND_TRIP")) return;
  std::fprintf(stderr,
               "==round trip== the runtime refused the .om (%zu bytes) the compiler wrote "
               "from this input (--framework=%s): %s\n",
               r.om_bytes, FrameworkOf(kind), r.detail.c_str());
  std::abort();
}

}  // namespace oc::fuzz
