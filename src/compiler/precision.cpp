#include "compiler/precision.h"

#include <nlohmann/json.hpp>
#include <sstream>

namespace oc {
namespace {

Status BadValue(const std::string& flag, const std::string& value, const std::string& why) {
  return InvalidArgument(
      "Value [" + value + "] for parameter [--" + flag + "] is invalid. Reason: " + why, "E10001");
}

}  // namespace

Result<PrecisionOptions> ParsePrecisionMode(const std::string& value, bool v2) {
  struct Name {
    const char* name;
    PrecisionMode mode;
  };
  static const Name kV1[] = {{"force_fp16", PrecisionMode::kForceFp16},
                             {"force_fp32", PrecisionMode::kCubeFp16In},
                             {"cube_fp16in_fp32out", PrecisionMode::kCubeFp16In},
                             {"allow_fp32_to_fp16", PrecisionMode::kCubeFp16},
                             {"must_keep_origin_dtype", PrecisionMode::kOrigin},
                             {"allow_mix_precision", PrecisionMode::kMixedFp16},
                             {"allow_mix_precision_fp16", PrecisionMode::kMixedFp16},
                             {"allow_mix_precision_bf16", PrecisionMode::kMixedBf16},
                             {"allow_fp32_to_bf16", PrecisionMode::kOrigin}};
  static const Name kV2[] = {{"fp16", PrecisionMode::kForceFp16},
                             {"cube_fp16in_fp32out", PrecisionMode::kCubeFp16In},
                             {"origin", PrecisionMode::kOrigin},
                             {"mixed_float16", PrecisionMode::kMixedFp16},
                             {"mixed_bfloat16", PrecisionMode::kMixedBf16}};
  std::string known;
  auto look = [&](const auto& table) -> const Name* {
    for (const auto& n : table) {
      known += (known.empty() ? "" : ", ") + std::string(n.name);
      if (value == n.name) return &n;
    }
    return nullptr;
  };
  const Name* n = v2 ? look(kV2) : look(kV1);
  if (!n)
    return BadValue(v2 ? "precision_mode_v2" : "precision_mode", value,
                    "the value must be one of " + known + ".");
  PrecisionOptions o;
  o.mode = n->mode;
  o.name = value;
  return o;
}

Status ParseKeepDtype(const std::string& text, PrecisionOptions* options) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
      line.pop_back();
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    line = line.substr(start);
    if (line.rfind("OpType::", 0) == 0) {
      if (line.size() == 8) return BadValue("keep_dtype", line, "OpType:: names no op type.");
      options->keep_types.insert(line.substr(8));
    } else {
      options->keep_nodes.insert(line);
    }
  }
  return Status::Ok();
}

Status ParseCustomizeDtypes(const std::string& text, PrecisionOptions* options) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    const size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos || line[start] == '#') continue;
    line = line.substr(start);
    bool by_type = false;
    std::string rest = line;
    if (rest.rfind("OpType::", 0) == 0) {
      by_type = true;
      rest = rest.substr(8);
    }
    // Name::InputDtype:... or (by type) Type:InputDtype:...
    size_t sep = by_type ? rest.find(':') : rest.find("::");
    if (sep == std::string::npos || sep == 0)
      return BadValue("customize_dtypes", line,
                      "a line is Name::InputDtype:...,OutputDtype:... or OpType::Type:...");
    const std::string who = rest.substr(0, sep);
    const std::string spec = rest.substr(sep + (by_type ? 1 : 2));
    std::set<std::string> dtypes;
    std::stringstream items(spec);
    std::string item;
    while (std::getline(items, item, ',')) {
      for (const char* key : {"InputDtype:", "OutputDtype:"})
        if (item.rfind(key, 0) == 0) item = item.substr(std::string(key).size());
      if (item.empty()) continue;
      if (item != "float16" && item != "float32" && item != "bfloat16")
        return BadValue("customize_dtypes", line,
                        "dtype [" + item + "]: the dtypes are float16, bfloat16 and float32.");
      dtypes.insert(item);
    }
    if (dtypes.empty()) return BadValue("customize_dtypes", line, "it gives no dtype.");
    if (dtypes.size() > 1)
      return BadValue("customize_dtypes", line,
                      "OpenCANN does not support different dtypes for one op's inputs and "
                      "outputs; give the op one dtype.");
    (by_type ? options->custom_types : options->custom_nodes)[who] = *dtypes.begin();
  }
  return Status::Ok();
}

Status ParseModifyMixlist(const std::string& text, PrecisionOptions* options) {
  if (options->mode != PrecisionMode::kMixedFp16 && options->mode != PrecisionMode::kMixedBf16)
    return BadValue("modify_mixlist", "...",
                    "it applies only with --precision_mode=allow_mix_precision(_fp16/_bf16) or "
                    "--precision_mode_v2=mixed_float16/mixed_bfloat16.");
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return BadValue("modify_mixlist", "...", "the file is not a JSON object.");
  for (const auto& [list, body] : j.items()) {
    std::set<std::string>*add = nullptr, *remove = nullptr;
    std::set<std::string> ignored;
    if (list == "white-list") {
      add = &options->allow_add;
      remove = &options->allow_remove;
    } else if (list == "black-list") {
      add = &options->block_add;
      remove = &options->block_remove;
    } else if (list == "gray-list") {
      add = &options->gray_add;
      remove = &ignored;
    } else {
      return BadValue("modify_mixlist", list,
                      "the lists are white-list, black-list and gray-list.");
    }
    if (!body.is_object())
      return BadValue("modify_mixlist", list, "a list must hold to-add and/or to-remove.");
    for (const auto& [what, ops] : body.items()) {
      if ((what != "to-add" && what != "to-remove") || !ops.is_array())
        return BadValue("modify_mixlist", list + "." + what,
                        "expected \"to-add\" or \"to-remove\" with a list of op types.");
      for (const auto& op : ops) {
        if (!op.is_string())
          return BadValue("modify_mixlist", list + "." + what, "op types must be strings.");
        (what == "to-add" ? add : remove)->insert(op.get<std::string>());
      }
    }
  }
  return Status::Ok();
}

}  // namespace oc
