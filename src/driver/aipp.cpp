#include "driver/aipp.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "ops/aipp_params.h"

namespace oc {
namespace {

Status Bad(const std::string& what) {
  return InvalidArgument("Value [...] for parameter [--insert_op_conf] is invalid. Reason: " + what,
                         "E10001");
}

struct Token {
  std::string text;
  int line = 0;
};

std::vector<Token> Tokenize(const std::string& text) {
  std::vector<Token> out;
  int line = 1;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '{' || c == '}' || c == ':') {
      out.push_back({std::string(1, c), line});
      ++i;
    } else {
      size_t j = i;
      while (j < text.size() && !std::isspace(static_cast<unsigned char>(text[j])) &&
             text[j] != '{' && text[j] != '}' && text[j] != ':' && text[j] != '#')
        ++j;
      out.push_back({text.substr(i, j - i), line});
      i = j;
    }
  }
  return out;
}

Result<int64_t> Int(const std::string& field, const std::string& v, int64_t lo, int64_t hi) {
  if (v.empty() || v.find_first_not_of("-0123456789") != std::string::npos || v.size() > 12)
    return Bad("[" + field + "] takes an integer, not [" + v + "].");
  const int64_t x = std::stoll(v);
  if (x < lo || x > hi)
    return Bad("[" + field + "] = " + v + " is outside [" + std::to_string(lo) + ", " +
               std::to_string(hi) + "].");
  return x;
}

Result<float> Float(const std::string& field, const std::string& v) {
  char* end = nullptr;
  const float f = std::strtof(v.c_str(), &end);
  if (v.empty() || *end != '\0') return Bad("[" + field + "] takes a number, not [" + v + "].");
  return f;
}

Result<bool> Bool(const std::string& field, const std::string& v) {
  if (v == "true" || v == "1") return true;
  if (v == "false" || v == "0") return false;
  return Bad("[" + field + "] takes true or false, not [" + v + "].");
}

Status SetField(AippConfig& c, const std::string& k, const std::string& v) {
  static const std::map<std::string, AippFormat> kFormats = {
      {"YUV420SP_U8", AippFormat::kYuv420Sp}, {"XRGB8888_U8", AippFormat::kXrgb8888},
      {"RGB888_U8", AippFormat::kRgb888},     {"YUV400_U8", AippFormat::kYuv400},
      {"ARGB8888_U8", AippFormat::kArgb8888}, {"YUYV_U8", AippFormat::kYuyv},
      {"YUV422SP_U8", AippFormat::kYuv422Sp}, {"AYUV444_U8", AippFormat::kAyuv444}};
  auto set_int = [&](auto* dst, int64_t lo, int64_t hi) -> Status {
    OC_ASSIGN_OR_RETURN(int64_t x, Int(k, v, lo, hi));
    *dst = static_cast<std::remove_pointer_t<decltype(dst)>>(x);
    return Status::Ok();
  };
  if (k == "aipp_mode") {
    if (v != "static" && v != "dynamic")
      return Bad("aipp_mode must be static or dynamic, not [" + v + "].");
    c.dynamic = v == "dynamic";
    return Status::Ok();
  }
  // At most 4096 x 4096 x 4 bytes for each of 127 images.
  if (k == "max_src_image_size") return set_int(&c.max_src_image_size, 1, 8520204288LL);
  if (k == "related_input_rank") return set_int(&c.related_input_rank, 0, 1024);
  if (k == "input_format") {
    auto it = kFormats.find(v);
    if (it == kFormats.end()) return Bad("unknown input_format [" + v + "].");
    c.input_format = it->second;
    return Status::Ok();
  }
  if (k == "src_image_size_w") return set_int(&c.src_w, 0, 4096);
  if (k == "src_image_size_h") return set_int(&c.src_h, 0, 4096);
  if (k == "crop") {
    OC_ASSIGN_OR_RETURN(c.crop, Bool(k, v));
    return Status::Ok();
  }
  if (k == "load_start_pos_w") return set_int(&c.crop_x, 0, 4095);
  if (k == "load_start_pos_h") return set_int(&c.crop_y, 0, 4095);
  if (k == "crop_size_w") return set_int(&c.crop_w, 0, 4096);
  if (k == "crop_size_h") return set_int(&c.crop_h, 0, 4096);
  if (k == "padding") {
    OC_ASSIGN_OR_RETURN(c.padding, Bool(k, v));
    return Status::Ok();
  }
  if (k == "left_padding_size") return set_int(&c.pad_left, 0, 32);
  if (k == "right_padding_size") return set_int(&c.pad_right, 0, 32);
  if (k == "top_padding_size") return set_int(&c.pad_top, 0, 32);
  if (k == "bottom_padding_size") return set_int(&c.pad_bottom, 0, 32);
  if (k == "padding_value") {
    OC_ASSIGN_OR_RETURN(c.padding_value, Float(k, v));
    return Status::Ok();
  }
  for (const auto& [name, flag] : {std::pair<const char*, bool*>{"csc_switch", &c.csc},
                                   {"rbuv_swap_switch", &c.rbuv_swap},
                                   {"ax_swap_switch", &c.ax_swap}})
    if (k == name) {
      OC_ASSIGN_OR_RETURN(*flag, Bool(k, v));
      return Status::Ok();
    }
  if (k.size() == 11 && k.rfind("matrix_r", 0) == 0 && k[9] == 'c') {
    const int r = k[8] - '0', col = k[10] - '0';
    if (r >= 0 && r < 3 && col >= 0 && col < 3) return set_int(&c.matrix[r][col], -32768, 32767);
  }
  for (int i = 0; i < 3; ++i) {
    if (k == "input_bias_" + std::to_string(i)) return set_int(&c.input_bias[i], 0, 255);
    if (k == "output_bias_" + std::to_string(i)) return set_int(&c.output_bias[i], 0, 255);
  }
  for (int i = 0; i < 4; ++i) {
    if (k == "mean_chn_" + std::to_string(i)) return set_int(&c.mean[i], 0, 255);
    if (k == "min_chn_" + std::to_string(i)) {
      OC_ASSIGN_OR_RETURN(c.min[i], Float(k, v));
      return Status::Ok();
    }
    if (k == "var_reci_chn_" + std::to_string(i)) {
      OC_ASSIGN_OR_RETURN(c.var_reci[i], Float(k, v));
      return Status::Ok();
    }
  }
  return Bad("unknown field [" + k + "].");
}

// The format facts live with the op (ops/aipp_params.h): one copy for compiler and kernel.
int Code(AippFormat f) { return static_cast<int>(f); }

}  // namespace

Result<std::vector<AippConfig>> ParseAippConfig(const std::string& text) {
  const auto tokens = Tokenize(text);
  std::vector<AippConfig> out;
  size_t i = 0;
  auto at = [&](size_t k) { return k < tokens.size() ? tokens[k].text : std::string(); };
  while (i < tokens.size()) {
    if (at(i) != "aipp_op" || at(i + 1) != "{")
      return Bad("expected \"aipp_op {\" at line " + std::to_string(tokens[i].line) + ".");
    i += 2;
    AippConfig c;
    std::set<std::string> fields;
    while (i < tokens.size() && at(i) != "}") {
      if (at(i + 1) != ":" || i + 2 >= tokens.size())
        return Bad("expected \"field : value\" at line " + std::to_string(tokens[i].line) + ".");
      OC_RETURN_IF_ERROR(SetField(c, at(i), at(i + 2)));
      fields.insert(at(i));
      i += 3;
    }
    if (i >= tokens.size()) return Bad("an aipp_op block is not closed.");
    ++i;
    if (c.dynamic) {
      if (c.max_src_image_size == 0)
        return Bad("max_src_image_size is required with aipp_mode: dynamic.");
      for (const auto& f : fields)
        if (f != "aipp_mode" && f != "related_input_rank" && f != "max_src_image_size")
          return Bad("[" + f +
                     "] is a static AIPP field; with aipp_mode: dynamic the application sets "
                     "it at run time (aclmdlSetAIPP*, aclmdlSetInputAIPP).");
    } else if (fields.count("max_src_image_size")) {
      return Bad("max_src_image_size is only for aipp_mode: dynamic.");
    }
    if (!out.empty() && out.front().dynamic != c.dynamic)
      return Bad("static and dynamic AIPP cannot be configured in one model.");
    for (const auto& other : out)
      if (other.related_input_rank == c.related_input_rank)
        return Bad("two aipp_op blocks for input " + std::to_string(c.related_input_rank) + ".");
    out.push_back(c);
  }
  if (out.empty()) return Bad("the file has no aipp_op block.");
  return out;
}

namespace {

// Points every use of `name` at `produced` (a new value like `name`'s, float32).
void Redirect(Graph& graph, const std::string& name, const std::string& produced) {
  for (auto& node : graph.nodes)
    for (auto& in : node.inputs)
      if (in == name) in = produced;
  for (auto& out : graph.outputs)
    if (out == name) out = produced;
  ValueInfo vi = graph.values[name];
  vi.dtype = DataType::kFloat;
  graph.values[produced] = vi;
}

// The value the oc.Aipp node writes: the model input's replacement, or for an NHWC input an
// NCHW value that a Transpose inserted at the front turns into it.
std::string AippResult(Graph& graph, const std::string& name, bool nhwc, int64_t n, int64_t ch,
                       int64_t h, int64_t w) {
  const std::string produced = graph.UniqueValueName(name + "_aipp");
  Redirect(graph, name, produced);
  if (!nhwc) return produced;
  const std::string nchw = graph.UniqueValueName(name + "_aipp_nchw");
  graph.values[nchw] = ValueInfo{DataType::kFloat, Shape{n, ch, h, w}, true};
  Node t;
  t.name = name + "_aipp_to_nhwc";
  t.op_type = "Transpose";
  t.inputs = {nchw};
  t.outputs = {produced};
  t.attrs.Set("perm", std::vector<int64_t>{0, 2, 3, 1});
  graph.nodes.insert(graph.nodes.begin(), std::move(t));
  return nchw;
}

Status ApplyDynamicAipp(Graph& graph, const AippConfig& c, const std::string& name, int64_t n,
                        int64_t ch, int64_t h, int64_t w, int count, const AippPlacement& where) {
  if (ch < 1 || ch > 4) return Bad("input [" + name + "] has " + std::to_string(ch) + " channels.");
  const int64_t params_batch = std::max(n, where.dynamic_params_batch);
  if (AippDynamicDataSize(params_batch) == 0)
    return Bad("dynamic AIPP takes at most " + std::to_string(kAippMaxBatch) + " images, input [" +
               name + "] has batch " + std::to_string(params_batch) + ".");
  std::string params = kDynamicAippInputName;
  if (count) params += "_" + std::to_string(count);
  if (graph.values.count(params))
    return Bad("the model already has a value named [" + params + "].");
  const std::string produced = AippResult(graph, name, where.nhwc, n, ch, h, w);
  ValueInfo& vi = graph.values[name];
  vi.dtype = DataType::kUint8;
  vi.shape = {c.max_src_image_size};
  ValueInfo& pi = graph.values[params];
  pi.dtype = DataType::kUint8;
  pi.has_shape = true;
  pi.shape = {static_cast<int64_t>(AippDynamicDataSize(params_batch))};
  graph.inputs.push_back(params);
  Node a;
  a.name = name + "_aipp";
  a.op_type = "Aipp";
  a.domain = kOcDomain;
  a.inputs = {name, params};
  a.outputs = {produced};
  a.attrs.Set("dynamic", int64_t{1});
  a.attrs.Set("batch", n);
  a.attrs.Set("params_batch", params_batch);
  a.attrs.Set("out_chw", std::vector<int64_t>{ch, h, w});
  graph.nodes.insert(graph.nodes.begin(), std::move(a));
  return Status::Ok();
}

}  // namespace

Status ApplyAipp(Graph& graph, const std::vector<AippConfig>& configs, const AippPlacement& where) {
  int dynamic_count = 0;
  for (AippConfig c : configs) {
    if (c.related_input_rank >= static_cast<int>(graph.inputs.size()))
      return Bad("related_input_rank " + std::to_string(c.related_input_rank) + ": the model has " +
                 std::to_string(graph.inputs.size()) + " inputs.");
    const std::string name = graph.inputs[c.related_input_rank];
    ValueInfo& vi = graph.values[name];
    if (vi.dtype != DataType::kFloat && vi.dtype != DataType::kFloat16)
      return Bad("input [" + name + "] is not a float input.");
    const char* layout = where.nhwc ? "NHWC" : "NCHW";
    if (!vi.has_shape || vi.shape.size() != 4 || !IsStatic(vi.shape))
      return Bad("input [" + name + "] must be " + layout +
                 " with a fixed shape, or dynamic batch or image size gears (give "
                 "--input_shape with --dynamic_batch_size or --dynamic_image_size).");
    const int64_t n = vi.shape[0];
    const int64_t ch = where.nhwc ? vi.shape[3] : vi.shape[1];
    const int64_t h = where.nhwc ? vi.shape[1] : vi.shape[2];
    const int64_t w = where.nhwc ? vi.shape[2] : vi.shape[3];
    if (c.dynamic) {
      OC_RETURN_IF_ERROR(ApplyDynamicAipp(graph, c, name, n, ch, h, w, dynamic_count++, where));
      continue;
    }
    if (where.image_size_gears && (c.crop || c.padding || c.src_w || c.src_h))
      return Bad(
          "with --dynamic_image_size the source image is each gear's size: static AIPP "
          "cannot crop, pad or set src_image_size_w/h (CANN makes dynamic image size "
          "unavailable then).");
    const int64_t want_ch = c.input_format == AippFormat::kYuv400 && !c.csc ? 1 : 3;
    // A one-channel (gray) model takes the Y channel: of a YUV image without colour
    // conversion, or of an RGB image converted to YUV (CANN's RGB-to-gray configuration).
    const bool gives_yuv = AippFormatIsYuv(Code(c.input_format)) != c.csc;
    if (ch != want_ch && !(ch == 4 && AippStoredChannels(Code(c.input_format)) == 4) &&
        !(ch == 1 && gives_yuv))
      return Bad("input [" + name + "] has " + std::to_string(ch) +
                 " channels; this input_format " + "gives " + std::to_string(want_ch) + ".");
    // Sizes: the image after crop and padding is the model's H x W.
    const int64_t pw = c.padding ? c.pad_left + c.pad_right : 0;
    const int64_t ph = c.padding ? c.pad_top + c.pad_bottom : 0;
    if (!c.crop) {
      if (c.src_w == 0) c.src_w = w - pw;
      if (c.src_h == 0) c.src_h = h - ph;
      c.crop_x = c.crop_y = 0;
      c.crop_w = c.src_w;
      c.crop_h = c.src_h;
    } else {
      if (c.src_w == 0 || c.src_h == 0)
        return Bad("src_image_size_w and src_image_size_h are required with crop.");
      if (c.crop_w == 0) c.crop_w = w - pw;
      if (c.crop_h == 0) c.crop_h = h - ph;
      if (c.crop_x + c.crop_w > c.src_w || c.crop_y + c.crop_h > c.src_h)
        return Bad("the crop (start " + std::to_string(c.crop_x) + "," + std::to_string(c.crop_y) +
                   ", size " + std::to_string(c.crop_w) + "x" + std::to_string(c.crop_h) +
                   ") lies outside the " + std::to_string(c.src_w) + "x" + std::to_string(c.src_h) +
                   " image.");
    }
    if (c.crop_w + pw != w || c.crop_h + ph != h)
      return Bad("the image after crop and padding is " + std::to_string(c.crop_w + pw) + "x" +
                 std::to_string(c.crop_h + ph) + ", the model's input [" + name + "] is " +
                 std::to_string(w) + "x" + std::to_string(h) + ".");
    if (c.input_format == AippFormat::kYuv420Sp &&
        (c.src_w % 2 || c.src_h % 2 || c.crop_x % 2 || c.crop_y % 2))
      return Bad("YUV420SP_U8 needs even image sizes and crop start positions.");
    if ((c.input_format == AippFormat::kYuyv || c.input_format == AippFormat::kYuv422Sp) &&
        (c.src_w % 2 || c.crop_x % 2))
      return Bad("YUYV_U8 and YUV422SP_U8 need an even width and crop start.");
    // The input becomes the stored image; oc.Aipp makes the model's tensor of it.
    const DataType model_dtype = vi.dtype;
    const std::string produced = AippResult(graph, name, where.nhwc, n, ch, h, w);
    vi.dtype = DataType::kUint8;
    vi.shape = {n, AippStoredHeight(Code(c.input_format), c.src_h), c.src_w,
                AippStoredChannels(Code(c.input_format))};
    Node a;
    a.name = name + "_aipp";
    a.op_type = "Aipp";
    a.domain = kOcDomain;
    a.inputs = {name};
    a.outputs = {produced};
    auto& at = a.attrs;
    at.Set("input_format", static_cast<int64_t>(c.input_format));
    at.Set("src", std::vector<int64_t>{c.src_h, c.src_w});
    at.Set("crop", std::vector<int64_t>{c.crop_y, c.crop_x, c.crop_h, c.crop_w});
    at.Set("pads", std::vector<int64_t>{c.padding ? c.pad_top : 0, c.padding ? c.pad_left : 0});
    at.Set("padding_value", c.padding_value);
    at.Set("out_chw", std::vector<int64_t>{ch, h, w});
    at.Set("csc", static_cast<int64_t>(c.csc));
    at.Set("rbuv_swap", static_cast<int64_t>(c.rbuv_swap));
    at.Set("ax_swap", static_cast<int64_t>(c.ax_swap));
    std::vector<int64_t> m, ib, ob, mean;
    for (auto& row : c.matrix)
      for (int v : row) m.push_back(v);
    for (int i = 0; i < 3; ++i) {
      ib.push_back(c.input_bias[i]);
      ob.push_back(c.output_bias[i]);
    }
    for (int i = 0; i < 4; ++i) mean.push_back(c.mean[i]);
    at.Set("matrix", m);
    at.Set("input_bias", ib);
    at.Set("output_bias", ob);
    at.Set("mean", mean);
    at.Set("min", std::vector<float>(c.min, c.min + 4));
    at.Set("var_reci", std::vector<float>(c.var_reci, c.var_reci + 4));
    graph.nodes.insert(graph.nodes.begin(), std::move(a));
    if (model_dtype == DataType::kFloat16) {
      // An fp16 model input (--input_fp16_nodes) is refused with AIPP, as CANN does.
      return Bad("AIPP cannot be combined with --input_fp16_nodes on input [" + name + "].");
    }
  }
  return Status::Ok();
}

}  // namespace oc
