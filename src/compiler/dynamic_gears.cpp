// atc's gear options. A model with gears is compiled once per gear (as GE does); the
// runtime picks the graph from the values in the extra ascend_mbatch_shape_data input.
#include <set>
#include <sstream>

#include "compiler/compiler.h"

namespace oc {
namespace {

constexpr size_t kMinGears = 2, kMaxGears = 100;

Status BadOption(const std::string& option, const std::string& value, const std::string& why) {
  return InvalidArgument(
      "Value [" + value + "] for parameter [--" + option + "] is invalid. Reason: " + why,
      "E10001");
}

Result<std::vector<int64_t>> ParseValues(const std::string& option, const std::string& text,
                                         const std::string& gear) {
  std::vector<int64_t> values;
  std::stringstream ss(gear);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t pos = 0;
    long long v = 0;
    try {
      v = std::stoll(item, &pos);
    } catch (...) {
      pos = 0;
    }
    if (item.empty() || pos != item.size())
      return BadOption(option, text, "[" + item + "] is not a number");
    if (v <= 0) return BadOption(option, text, "gear values must be positive, got " + item);
    values.push_back(v);
  }
  if (values.empty()) return BadOption(option, text, "a gear is empty");
  return values;
}

}  // namespace

const char* GearKindName(GearKind kind) {
  switch (kind) {
    case GearKind::kBatch:
      return "batch";
    case GearKind::kImageSize:
      return "image_size";
    case GearKind::kDims:
      return "dims";
  }
  return "";
}

Result<GearSpec> ParseGearOption(const std::string* batch, const std::string* image_size,
                                 const std::string* dims) {
  const int given = (batch != nullptr) + (image_size != nullptr) + (dims != nullptr);
  if (given == 0) return InvalidArgument("no gear option given");
  if (given > 1)
    return InvalidArgument(
        "Parameters [--dynamic_batch_size], [--dynamic_image_size] and [--dynamic_dims] are "
        "mutually exclusive: give only one of them.",
        "E10009");
  GearSpec spec;
  std::string option, text;
  if (batch) {
    spec.kind = GearKind::kBatch;
    option = "dynamic_batch_size";
    text = *batch;
    // Batch gears are one list "1,2,4,8".
    OC_ASSIGN_OR_RETURN(auto values, ParseValues(option, text, text));
    for (int64_t v : values) spec.gears.push_back({v});
  } else {
    spec.kind = image_size ? GearKind::kImageSize : GearKind::kDims;
    option = image_size ? "dynamic_image_size" : "dynamic_dims";
    text = image_size ? *image_size : *dims;
    std::stringstream ss(text);
    std::string gear;
    while (std::getline(ss, gear, ';')) {
      if (gear.empty()) continue;
      OC_ASSIGN_OR_RETURN(auto values, ParseValues(option, text, gear));
      if (image_size && values.size() != 2)
        return BadOption(option, text, "each gear must be \"height,width\", got [" + gear + "]");
      if (!spec.gears.empty() && values.size() != spec.gears.front().size())
        return BadOption(option, text, "every gear must have the same number of values");
      spec.gears.push_back(std::move(values));
    }
  }
  if (spec.gears.size() < kMinGears || spec.gears.size() > kMaxGears)
    return BadOption(
        option, text,
        "the number of gears must be between 2 and 100, got " + std::to_string(spec.gears.size()));
  std::set<std::vector<int64_t>> seen;
  for (const auto& g : spec.gears)
    if (!seen.insert(g).second) return BadOption(option, text, "a gear is given twice");
  return spec;
}

Result<std::vector<std::vector<InputShapeSpec>>> ExpandGears(
    const std::vector<InputShapeSpec>& shapes, const GearSpec& spec,
    const std::string& input_format) {
  const std::string option =
      std::string("dynamic_") + (spec.kind == GearKind::kBatch       ? "batch_size"
                                 : spec.kind == GearKind::kImageSize ? "image_size"
                                                                     : "dims");
  auto bad_shape = [&](const std::string& why) {
    std::string text;
    for (const auto& s : shapes)
      text += (text.empty() ? "" : ";") + s.name + ":" + ShapeToString(s.dims);
    return InvalidArgument("Value [" + text +
                               "] for parameter [--input_shape] is invalid with [--" + option +
                               "]. Reason: " + why,
                           "E10001");
  };
  // Where the gear values go: (input, dim) of every -1, in --input_shape order.
  std::vector<std::pair<size_t, size_t>> slots;
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (!shapes[i].ranges.empty())
      return bad_shape("ranges (lo~hi) cannot be combined with gears; use -1");
    for (size_t d = 0; d < shapes[i].dims.size(); ++d)
      if (shapes[i].dims[d] < 0) slots.emplace_back(i, d);
  }
  if (slots.empty()) return bad_shape("no dimension is -1: mark the dimensions the gears set");
  size_t h_dim = 2, w_dim = 3;
  if (input_format == "NHWC") h_dim = 1, w_dim = 2;
  switch (spec.kind) {
    case GearKind::kBatch:
      for (auto [i, d] : slots)
        if (d != 0)
          return bad_shape("only the batch (first) dimension may be -1, input [" + shapes[i].name +
                           "] has -1 at dimension " + std::to_string(d));
      break;
    case GearKind::kImageSize: {
      if (input_format != "NCHW" && input_format != "NHWC")
        return bad_shape("--dynamic_image_size needs --input_format NCHW or NHWC");
      std::set<size_t> inputs;
      for (auto [i, d] : slots) {
        if (shapes[i].dims.size() != 4 || (d != h_dim && d != w_dim))
          return bad_shape("only H and W of a 4-D " + input_format + " input may be -1, input [" +
                           shapes[i].name + "] has -1 at dimension " + std::to_string(d));
        inputs.insert(i);
      }
      for (size_t i : inputs)
        if (shapes[i].dims[h_dim] >= 0 || shapes[i].dims[w_dim] >= 0)
          return bad_shape("input [" + shapes[i].name + "] must have both H and W as -1");
      break;
    }
    case GearKind::kDims:
      if (input_format != "ND") return bad_shape("--dynamic_dims needs --input_format=ND");
      if (spec.gears.front().size() != slots.size())
        return BadOption(option, "",
                         "each gear has " + std::to_string(spec.gears.front().size()) +
                             " values but --input_shape has " + std::to_string(slots.size()) +
                             " dimensions of -1");
      break;
  }
  std::vector<std::vector<InputShapeSpec>> out;
  for (const auto& gear : spec.gears) {
    std::vector<InputShapeSpec> g = shapes;
    for (size_t k = 0; k < slots.size(); ++k) {
      auto [i, d] = slots[k];
      int64_t v = 0;
      if (spec.kind == GearKind::kBatch)
        v = gear[0];
      else if (spec.kind == GearKind::kImageSize)
        v = d == h_dim ? gear[0] : gear[1];
      else
        v = gear[k];
      g[i].dims[d] = v;
    }
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace oc
