// msame's flags: their checks before AscendCL starts, and the integer lists that --dym* and
// --outputSize take.
#include <string>

#include "msame/msame_internal.h"

namespace oc::msame {

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t c = s.find(sep, start);
    if (c == std::string::npos) c = s.size();
    if (c > start) out.push_back(s.substr(start, c - start));
    start = c + 1;
  }
  return out;
}

bool ParseInts(const std::string& text, std::vector<int64_t>* out) {
  out->clear();
  for (const auto& item : Split(text, ',')) {
    try {
      size_t pos = 0;
      long long v = std::stoll(item, &pos);
      if (pos != item.size() || v < 0) return false;
      out->push_back(v);
    } catch (...) {
      return false;
    }
  }
  return !out->empty();
}

bool ParseNamedDims(const std::string& text, NamedDims* out) {
  for (const auto& item : Split(text, ';')) {
    const auto colon = item.rfind(':');
    if (colon == std::string::npos || colon == 0) return false;
    std::vector<int64_t> dims;
    if (!ParseInts(item.substr(colon + 1), &dims)) return false;
    out->emplace_back(item.substr(0, colon), dims);
  }
  return !out->empty();
}

int64_t Product(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

Result<Options> OptionsFromFlags(const Flags& f) {
  Options o;
  o.model = f.Get("model");
  if (o.model.empty()) return InvalidArgument("--model is required");
  try {
    o.loop = std::stoi(f.Get("loop", "1"));
    o.device = std::stoi(f.Get("device", "0"));
  } catch (...) {
    return InvalidArgument("--loop and --device take integers");
  }
  if (o.loop < 1 || o.loop > 100000) return InvalidArgument("--loop must be between 1 and 100000");
  // As CANN's msame: TXT, or BIN for anything else (the default).
  o.outfmt = f.Get("outfmt", "BIN") == "TXT" ? "TXT" : "BIN";
  o.debug = f.Get("debug", "false") == "true";
  if (o.model.find(".om") == std::string::npos)
    return InvalidArgument("input model file type is not .om , please check your model type!");
  o.dump = f.Get("dump", "false") == "true";
  o.profiler = f.Get("profiler", "false") == "true";
  for (const char* flag : {"dump", "profiler", "debug"})
    if (f.Has(flag) && f.Get(flag) != "true" && f.Get(flag) != "false")
      return InvalidArgument(std::string("--") + flag + " takes true or false");
  if (o.dump && o.profiler) return InvalidArgument("--dump and --profiler cannot be used together");
  auto text = [&](const char* key) {
    return f.Has(key) ? std::optional<std::string>(f.Get(key)) : std::nullopt;
  };
  o.input = text("input");
  o.output = text("output");
  o.dym_batch = text("dymBatch");
  o.dym_hw = text("dymHW");
  o.dym_dims = text("dymDims");
  o.dym_shape = text("dymShape");
  o.output_size = text("outputSize");
  return o;
}

}  // namespace oc::msame
