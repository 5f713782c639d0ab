#include "compare/compare.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "base/file.h"
#include "base/half.h"
#include "driver/convert.h"
#include "dump/dump_file.h"
#include "om/om_model.h"
#include "runtime/model.h"

namespace oc {
namespace {

// ---- Metrics ----------------------------------------------------------------------

double Sum(const std::vector<double>& v) {
  double s = 0;
  for (double a : v) s += a;
  return s;
}

double StdDev(const std::vector<double>& v) {
  if (v.empty()) return 0;
  const double mean = Sum(v) / static_cast<double>(v.size());
  double acc = 0;
  for (double a : v) acc += (a - mean) * (a - mean);
  return std::sqrt(acc / static_cast<double>(v.size()));
}

// Min-max normalised to [0, 1], then to a distribution (sum 1).
std::vector<double> Distribution(const std::vector<double>& v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  const double span = *hi - *lo;
  std::vector<double> p(v.size());
  for (size_t i = 0; i < v.size(); ++i) p[i] = span > 0 ? (v[i] - *lo) / span : 1.0;
  const double s = Sum(p);
  for (double& a : p) a = s > 0 ? a / s : 0;
  return p;
}

// ---- Inputs ---------------------------------------------------------------------------

struct HostTensor {
  DataType dtype = DataType::kFloat;
  Shape shape;
  std::string bytes;
};

Result<HostTensor> ReadNpy(const std::string& path) {
  OC_ASSIGN_OR_RETURN(std::string data, ReadFile(path));
  if (data.size() < 10 || data.compare(0, 6, "\x93NUMPY") != 0)
    return ParseError("[" + path + "] is not a .npy file");
  const int major = static_cast<unsigned char>(data[6]);
  size_t header_len = 0, offset = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(data[8]) | (static_cast<unsigned char>(data[9]) << 8);
    offset = 10;
  } else {
    if (data.size() < 12) return ParseError("[" + path + "] is truncated");
    header_len = 0;
    for (int i = 0; i < 4; ++i)
      header_len |= static_cast<size_t>(static_cast<unsigned char>(data[8 + i])) << (8 * i);
    offset = 12;
  }
  if (offset + header_len > data.size()) return ParseError("[" + path + "] is truncated");
  const std::string header = data.substr(offset, header_len);
  auto field = [&](const std::string& key) {
    size_t k = header.find("'" + key + "'");
    if (k == std::string::npos) return std::string();
    size_t colon = header.find(':', k);
    return header.substr(colon + 1);
  };
  const std::string descr = field("descr");
  struct Type {
    const char* code;
    DataType dtype;
  };
  static const Type kTypes[] = {{"<f4", DataType::kFloat},  {"<f2", DataType::kFloat16},
                                {"<f8", DataType::kDouble}, {"<i8", DataType::kInt64},
                                {"<i4", DataType::kInt32},  {"|u1", DataType::kUint8},
                                {"|i1", DataType::kInt8},   {"|b1", DataType::kBool}};
  HostTensor t;
  bool found = false;
  for (const auto& ty : kTypes)
    if (descr.find(ty.code) != std::string::npos && descr.find(ty.code) < descr.find(',')) {
      t.dtype = ty.dtype;
      found = true;
    }
  if (!found) return Unsupported("[" + path + "]: unsupported .npy dtype " + descr.substr(0, 12));
  if (field("fortran_order").find("True") < field("fortran_order").find(','))
    return Unsupported("[" + path + "]: Fortran-ordered arrays are not supported");
  const std::string shape = field("shape");
  const size_t open = shape.find('('), close = shape.find(')');
  if (open == std::string::npos || close == std::string::npos)
    return ParseError("[" + path + "]: no shape in the header");
  std::stringstream dims(shape.substr(open + 1, close - open - 1));
  std::string d;
  while (std::getline(dims, d, ',')) {
    d.erase(std::remove(d.begin(), d.end(), ' '), d.end());
    if (d.empty()) continue;
    t.shape.push_back(std::stoll(d));
  }
  const size_t need = static_cast<size_t>(NumElements(t.shape)) * DataTypeSize(t.dtype);
  if (data.size() - offset - header_len < need) return ParseError("[" + path + "] is truncated");
  t.bytes = data.substr(offset + header_len, need);
  return t;
}

// The data an input of `desc` gets: from a file (converted to the input's dtype when it is
// a float type) or seeded pseudo-random values.
Result<std::string> InputBytes(const IoDesc& desc, const std::string& file, uint32_t seed) {
  const size_t n = static_cast<size_t>(NumElements(desc.shape));
  std::vector<double> values(n);
  if (file.empty()) {
    for (auto& v : values) {
      seed = seed * 1664525u + 1013904223u;
      v = desc.dtype == DataType::kFloat || desc.dtype == DataType::kFloat16
              ? static_cast<double>(seed >> 8) / static_cast<double>(1 << 23) - 1.0
              : 0.0;
    }
  } else {
    HostTensor t;
    if (file.size() > 4 && file.compare(file.size() - 4, 4, ".npy") == 0) {
      OC_ASSIGN_OR_RETURN(t, ReadNpy(file));
    } else {
      OC_ASSIGN_OR_RETURN(t.bytes, ReadFile(file));
      t.dtype = desc.dtype;
      t.shape = desc.shape;
    }
    if (t.dtype == desc.dtype) {
      if (t.bytes.size() != desc.bytes)
        return InvalidArgument("input file [" + file + "] has " + std::to_string(t.bytes.size()) +
                               " bytes, input [" + desc.name + "] takes " +
                               std::to_string(desc.bytes));
      return t.bytes;
    }
    if (static_cast<size_t>(NumElements(t.shape)) != n)
      return InvalidArgument("input file [" + file + "] has shape " + ShapeToString(t.shape) +
                             ", input [" + desc.name + "] is " + ShapeToString(desc.shape));
    for (size_t i = 0; i < n; ++i) {
      const char* p = t.bytes.data() + i * DataTypeSize(t.dtype);
      switch (t.dtype) {
        case DataType::kFloat: {
          float f;
          std::memcpy(&f, p, 4);
          values[i] = f;
          break;
        }
        case DataType::kFloat16: {
          uint16_t h;
          std::memcpy(&h, p, 2);
          values[i] = HalfToFloat(h);
          break;
        }
        case DataType::kDouble: {
          double f;
          std::memcpy(&f, p, 8);
          values[i] = f;
          break;
        }
        default:
          return InvalidArgument("input file [" + file + "] must hold " + DataTypeName(desc.dtype) +
                                 " data");
      }
    }
  }
  std::string out(desc.bytes, '\0');
  for (size_t i = 0; i < n; ++i) {
    char* p = out.data() + i * DataTypeSize(desc.dtype);
    switch (desc.dtype) {
      case DataType::kFloat: {
        float f = static_cast<float>(values[i]);
        std::memcpy(p, &f, 4);
        break;
      }
      case DataType::kFloat16: {
        uint16_t h = FloatToHalf(static_cast<float>(values[i]));
        std::memcpy(p, &h, 2);
        break;
      }
      case DataType::kInt64: {
        int64_t v = static_cast<int64_t>(values[i]);
        std::memcpy(p, &v, 8);
        break;
      }
      case DataType::kInt32: {
        int32_t v = static_cast<int32_t>(values[i]);
        std::memcpy(p, &v, 4);
        break;
      }
      default:
        break;  // zero bytes
    }
  }
  return out;
}

// A float tensor's bytes (float32, float16, bfloat16 or float64) as doubles.
std::vector<double> FloatValues(DataType dtype, const void* bytes, size_t count) {
  std::vector<double> out(count);
  const auto* p = static_cast<const uint8_t*>(bytes);
  for (size_t i = 0; i < count; ++i) {
    if (dtype == DataType::kFloat) {
      float f;
      std::memcpy(&f, p + 4 * i, 4);
      out[i] = f;
    } else if (dtype == DataType::kDouble) {
      std::memcpy(&out[i], p + 8 * i, 8);
    } else {
      uint16_t h;
      std::memcpy(&h, p + 2 * i, 2);
      out[i] = dtype == DataType::kFloat16 ? HalfToFloat(h) : BFloat16ToFloat(h);
    }
  }
  return out;
}

// ---- Capturing every op's outputs ---------------------------------------------------

struct Captured {
  std::vector<double> values;
  Shape shape;
  DataType dtype = DataType::kUndefined;
  std::string op_name, op_type;
  size_t order = 0;
};

class CaptureObserver : public StepObserver {
 public:
  void OnStep(const StepRecord& r) override {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& t : r.outputs) {
      if (!t.name || !IsFloatType(t.dtype) || t.dtype == DataType::kDouble) continue;
      const int64_t n = NumElements(t.shape);
      if (n < 0) continue;
      std::vector<uint8_t> plain(static_cast<size_t>(n) * DataTypeSize(t.dtype));
      if (!t.CopyPlain(plain.data()).ok()) continue;
      Captured c;
      c.shape = t.shape;
      c.dtype = t.dtype;
      c.op_name = *r.node_name;
      c.op_type = *r.op_type;
      c.order = order_++;
      c.values = FloatValues(t.dtype, plain.data(), static_cast<size_t>(n));
      // Rounding steps stand for the op whose result they round.
      if (c.op_type == "RoundTo" && !r.inputs.empty() && r.inputs[0].name) {
        auto it = tensors.find(*r.inputs[0].name);
        if (it != tensors.end()) {
          c.op_name = it->second.op_name;
          c.op_type = it->second.op_type;
        }
      }
      tensors[*t.name] = std::move(c);
    }
  }
  std::map<std::string, Captured> tensors;

 private:
  std::mutex mutex_;
  size_t order_ = 0;
};

Result<std::shared_ptr<CaptureObserver>> RunCaptured(const std::shared_ptr<Model>& model,
                                                     const std::vector<std::string>& inputs) {
  auto observer = std::make_shared<CaptureObserver>();
  model->SetObserver(observer);
  std::vector<const void*> in;
  std::vector<size_t> in_sizes;
  for (const auto& b : inputs) {
    in.push_back(b.data());
    in_sizes.push_back(b.size());
  }
  // An output whose shape is only known at run time (a detector's boxes) gets a buffer of
  // kDynamicOutputBytes, as an application would give it, and more if that was too small.
  constexpr size_t kDynamicOutputBytes = size_t{64} << 20;
  for (size_t dynamic_bytes = kDynamicOutputBytes;; dynamic_bytes *= 16) {
    std::vector<std::vector<uint8_t>> outs;
    std::vector<void*> out;
    std::vector<size_t> out_sizes;
    bool any_dynamic = false;
    for (const auto& o : model->outputs()) {
      const bool dynamic = !IsStatic(o.shape);
      any_dynamic |= dynamic;
      outs.emplace_back(dynamic ? dynamic_bytes : std::max<size_t>(o.bytes, 1));
    }
    for (auto& o : outs) {
      out.push_back(o.data());
      out_sizes.push_back(o.size());
    }
    Status run = model->Execute(in, in_sizes, out, out_sizes);
    if (run.ok()) return observer;
    if (!any_dynamic || run.code() != StatusCode::kInvalidArgument ||
        run.message().find("its buffer has") == std::string::npos ||
        dynamic_bytes >= (size_t{1} << 32))
      return run;
    observer = std::make_shared<CaptureObserver>();
    model->SetObserver(observer);
  }
}

// Dump files as a capture: each output that names its source op and output index stands
// for the reference's value of that op and index.
Result<std::shared_ptr<CaptureObserver>> LoadDumpCapture(const std::string& dir,
                                                         const Model& reference) {
  std::map<std::pair<std::string, int64_t>, std::string> value_of;
  std::map<std::string, std::string> type_of;
  for (const Graph* g : reference.Graphs())
    for (const auto& n : g->nodes) {
      type_of[n.name] = n.op_type;
      for (size_t k = 0; k < n.outputs.size(); ++k)
        value_of[{n.name, static_cast<int64_t>(k)}] = n.outputs[k];
    }
  std::error_code ec;
  std::vector<std::pair<uint64_t, std::filesystem::path>> files;
  bool subfolders = false;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.is_directory()) subfolders = true;
    if (!e.is_regular_file() || e.path().extension() == ".npy") continue;
    // {OpType}.{OpName}.{task_id}.{timestamp}: executed in task order.
    const std::string name = e.path().filename().string();
    std::vector<std::string> parts;
    std::stringstream ss(name);
    for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
    uint64_t task = 0;
    if (parts.size() >= 4 && !parts[2].empty() &&
        parts[2].find_first_not_of("0123456789") == std::string::npos && parts[2].size() < 10)
      task = std::stoull(parts[2]);
    files.emplace_back(task, e.path());
  }
  if (ec) return NotFound("cannot read the dump folder " + dir + ": " + ec.message());
  if (files.empty())
    return InvalidArgument("no dump files in " + dir +
                           (subfolders ? " (give the folder of one execution: "
                                         "{dump_path}/{time}/{device}/{model}/{model_id}/{n})"
                                       : ""));
  std::sort(files.begin(), files.end());
  auto capture = std::make_shared<CaptureObserver>();
  size_t order = 0, matched = 0;
  for (const auto& [task, path] : files) {
    OC_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path.string()));
    auto rec = DecodeDumpFile(bytes);
    if (!rec.ok()) return rec.status().WithContext(path.string());
    const std::string file = path.filename().string();
    const std::string op_type = file.substr(0, file.find('.'));
    for (const auto& t : rec->outputs) {
      if (t.original_name.empty()) continue;
      auto v = value_of.find({t.original_name, t.original_index});
      if (v == value_of.end()) continue;
      if (t.dtype != DataType::kFloat && t.dtype != DataType::kFloat16 &&
          t.dtype != DataType::kBFloat16)
        continue;
      Captured c;
      c.shape = t.shape;
      c.dtype = t.dtype;
      // A rounding step stands for the op whose result it rounds.
      c.op_name = op_type == "RoundTo" ? t.original_name : rec->op_name;
      c.op_type = op_type == "RoundTo" ? type_of[t.original_name] : op_type;
      c.order = order++;
      c.values = FloatValues(t.dtype, t.bytes.data(), t.bytes.size() / DataTypeSize(t.dtype));
      capture->tensors[v->second] = std::move(c);
      ++matched;
    }
  }
  if (matched == 0)
    return InvalidArgument("none of the " + std::to_string(files.size()) + " dump files in " + dir +
                           " has an output that names an op of the source model (dump_mode "
                           "output or all, from a model converted from this source)");
  return capture;
}

// ---- ONNX Runtime as the reference -------------------------------------------------

std::string NpyBytes(DataType dtype, const Shape& shape, const std::string& data) {
  const char* descr = dtype == DataType::kFloat     ? "<f4"
                      : dtype == DataType::kFloat16 ? "<f2"
                      : dtype == DataType::kDouble  ? "<f8"
                      : dtype == DataType::kInt64   ? "<i8"
                      : dtype == DataType::kInt32   ? "<i4"
                      : dtype == DataType::kInt8    ? "|i1"
                      : dtype == DataType::kBool    ? "|b1"
                                                    : "|u1";
  std::string dims = "(";
  for (int64_t d : shape) dims += std::to_string(d) + ",";
  if (shape.size() > 1) dims.pop_back();
  dims += ")";
  std::string header =
      std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + dims + ", }";
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  const uint16_t len = static_cast<uint16_t>(header.size());
  out.append(reinterpret_cast<const char*>(&len), 2);
  return out + header + data;
}

// The helper script: OCANN_ORT_REFERENCE, else beside this tool in the build tree
// (bin/../python) or in the installed layout (bin/../lib/python3/dist-packages).
std::string FindOrtHelper() {
  if (const char* e = std::getenv("OCANN_ORT_REFERENCE")) return e;
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) return "";
  for (const char* rel : {"../python", "../lib/python3/dist-packages"}) {
    const auto p = exe.parent_path() / rel / "ocann_ort_reference.py";
    if (std::filesystem::exists(p, ec)) return p.string();
  }
  return "";
}

// Runs argv without a shell; returns its exit status (-1 when it could not start).
int RunProgram(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

Result<std::shared_ptr<CaptureObserver>> RunOrtReference(const std::string& source,
                                                         const Model& reference,
                                                         const std::vector<std::string>& inputs) {
  const std::string helper = FindOrtHelper();
  if (helper.empty())
    return NotFound("ocann_ort_reference.py is not beside ocann-compare; set OCANN_ORT_REFERENCE");
  const char* py = std::getenv("OCANN_PYTHON");
  std::error_code ec;
  const auto dir = std::filesystem::temp_directory_path(ec) /
                   ("ocann_ort_" + std::to_string(getpid()) + "_" +
                    std::to_string(reinterpret_cast<uintptr_t>(&reference) & 0xffff));
  std::filesystem::create_directories(dir / "out", ec);
  if (ec) return Internal("cannot make a temporary folder: " + ec.message());
  struct Cleanup {
    std::filesystem::path p;
    ~Cleanup() {
      std::error_code e;
      std::filesystem::remove_all(p, e);
    }
  } cleanup{dir};
  std::vector<std::string> args = {py ? py : "/usr/bin/python3", helper, source,
                                   (dir / "out").string()};
  for (size_t i = 0; i < inputs.size(); ++i) {
    const IoDesc& d = reference.inputs()[i];
    const std::string f = (dir / ("in" + std::to_string(i) + ".npy")).string();
    OC_RETURN_IF_ERROR(WriteFileAtomic(f, NpyBytes(d.dtype, d.shape, inputs[i])));
    args.push_back(f);
  }
  const int rc = RunProgram(args);
  if (rc == 3)
    return Unsupported(
        "ONNX Runtime is not available as the reference: install the Python module "
        "onnxruntime or onnxruntime-node (ORT_NODE_MODULE), or use --reference opencann");
  if (rc != 0)
    return Internal("the ONNX Runtime reference failed (exit status " + std::to_string(rc) +
                    "; its message is above)");
  OC_ASSIGN_OR_RETURN(std::string text, ReadFile((dir / "out" / "index.json").string()));
  const auto index = nlohmann::json::parse(text, nullptr, false);
  if (index.is_discarded() || !index.contains("tensors") || !index["tensors"].is_array())
    return Internal("the ONNX Runtime reference wrote no valid index.json");
  auto capture = std::make_shared<CaptureObserver>();
  size_t order = 0;
  for (const auto& t : index["tensors"]) {
    if (!t.is_object() || !t.value("file", nlohmann::json()).is_string()) continue;
    OC_ASSIGN_OR_RETURN(HostTensor h,
                        ReadNpy((dir / "out" / t["file"].get<std::string>()).string()));
    if (h.dtype != DataType::kFloat && h.dtype != DataType::kFloat16 &&
        h.dtype != DataType::kDouble)
      continue;
    Captured c;
    c.shape = h.shape;
    c.dtype = h.dtype;
    auto text = [&](const char* key) {
      return t.contains(key) && t[key].is_string() ? t[key].get<std::string>() : std::string();
    };
    c.op_name = text("op");
    c.op_type = text("op_type");
    c.order = order++;
    c.values = FloatValues(h.dtype, h.bytes.data(), h.bytes.size() / DataTypeSize(h.dtype));
    capture->tensors[text("name")] = std::move(c);
  }
  return capture;
}

std::string Fmt(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

}  // namespace

TensorMetrics CompareTensors(const std::vector<double>& x, const std::vector<double>& y);

namespace {

// Rows for every tensor of `ours` (in execution order) that the reference also has.
std::vector<CompareRow> CompareRuns(const CaptureObserver& truth, const CaptureObserver& ours,
                                    const Model& model) {
  std::vector<std::pair<size_t, std::string>> order;
  for (const auto& [name, c] : ours.tensors) order.emplace_back(c.order, name);
  std::sort(order.begin(), order.end());
  std::map<std::string, std::string> op_dtype;  // the dtype each op computed in
  for (const Graph* g : model.Graphs())
    for (const auto& n : g->nodes) op_dtype[n.name] = n.attrs.GetString("_oc_dtype", "float32");
  std::vector<CompareRow> rows;
  for (const auto& [unused, name] : order) {
    auto t = truth.tensors.find(name);
    if (t == truth.tensors.end()) continue;
    const Captured& c = ours.tensors.at(name);
    CompareRow row;
    row.index = rows.size();
    row.op_type = c.op_type;
    row.op_name = c.op_name;
    row.truth_op = t->second.op_name;
    row.truth_type = t->second.op_type;
    row.dtype = op_dtype.count(c.op_name) ? op_dtype[c.op_name] : DataTypeName(c.dtype);
    row.truth_dtype = DataTypeName(t->second.dtype);
    row.tensor = name;
    row.shape = ShapeToString(c.shape);
    row.metrics = CompareTensors(c.values, t->second.values);
    rows.push_back(std::move(row));
  }
  return rows;
}

int FirstFailure(const std::vector<CompareRow>& rows) {
  for (const auto& r : rows)
    if (!r.metrics.fail_reason.empty()) return static_cast<int>(r.index);
  return -1;
}

}  // namespace

TensorMetrics CompareTensors(const std::vector<double>& x, const std::vector<double>& y) {
  TensorMetrics m;
  const size_t n = std::min(x.size(), y.size());
  if (x.size() != y.size()) {
    m.fail_reason = "the tensors differ in size";
    return m;
  }
  bool finite = true;
  for (double a : x) finite = finite && std::isfinite(a);
  double xx = 0, yy = 0, xy = 0, abs_sum = 0, y_abs = 0, sq = 0, rel_sum = 0;
  size_t rel_count = 0;
  constexpr double kEps = 1e-6;
  for (size_t i = 0; i < n; ++i) {
    const double d = x[i] - y[i];
    xx += x[i] * x[i];
    yy += y[i] * y[i];
    xy += x[i] * y[i];
    abs_sum += std::fabs(d);
    y_abs += std::fabs(y[i]);
    sq += d * d;
    m.max_abs = std::max(m.max_abs, std::fabs(d));
    if (std::fabs(y[i]) > kEps) {
      const double rel = std::fabs(x[i] / y[i] - 1.0);
      m.max_rel = std::max(m.max_rel, rel);
      rel_sum += rel;
      ++rel_count;
    }
  }
  m.cosine = (xx == 0 && yy == 0) ? 1.0 : (xx == 0 || yy == 0) ? 0.0 : xy / std::sqrt(xx * yy);
  m.accumulated_rel = y_abs > 0 ? abs_sum / y_abs : (abs_sum > 0 ? INFINITY : 0);
  m.red = yy > 0 ? std::sqrt(sq / yy) : (sq > 0 ? INFINITY : 0);
  m.mae = n ? abs_sum / static_cast<double>(n) : 0;
  m.rmse = n ? std::sqrt(sq / static_cast<double>(n)) : 0;
  m.mean_rel = rel_count ? rel_sum / static_cast<double>(rel_count) : 0;
  m.std_ours = StdDev(x);
  m.std_truth = StdDev(y);
  if (finite && n) {
    const auto p = Distribution(y), q = Distribution(x);
    for (size_t i = 0; i < n; ++i)
      if (p[i] > 0) m.kld += p[i] * std::log(p[i] / std::max(q[i], 1e-12));
  }
  std::vector<std::string> why;
  if (!finite) why.push_back("NaN or Inf in the .om's tensor");
  if (!(m.cosine >= 0.99)) why.push_back("cosine < 0.99");
  if (!(m.red <= 0.05)) why.push_back("RED > 0.05");
  if (!(m.kld <= 0.005)) why.push_back("KLD > 0.005");
  if (!(m.rmse <= 1.0)) why.push_back("RMSE > 1.0");
  if (!(m.mean_rel <= 1.0)) why.push_back("MeanRelativeError > 1.0");
  for (size_t i = 0; i < why.size(); ++i) m.fail_reason += (i ? "; " : "") + why[i];
  return m;
}

Result<CompareReport> RunCompare(const CompareOptions& o) {
  OC_ASSIGN_OR_RETURN(auto target, Model::LoadFile(o.om_model));
  // The source model takes the pre-processed tensor, the .om the raw image: no common input.
  if (target->attrs().count("_oc_aipp_inputs"))
    return Unsupported(
        "the .om takes AIPP images (atc --insert_op_conf); OpenCANN's compare "
        "does not support AIPP models yet: convert the model without "
        "--insert_op_conf to compare it");
  if (!o.dump_dir.empty() && o.inputs.empty())
    return InvalidArgument(
        "comparing dumps needs the inputs of the run that wrote them (-i in0.npy,...)");
  if (!o.inputs.empty() && o.inputs.size() != target->inputs().size())
    return InvalidArgument("the .om has " + std::to_string(target->inputs().size()) + " inputs, " +
                           std::to_string(o.inputs.size()) + " input files given");
  std::vector<std::string> inputs;
  for (size_t i = 0; i < target->inputs().size(); ++i) {
    OC_ASSIGN_OR_RETURN(std::string bytes,
                        InputBytes(target->inputs()[i], o.inputs.empty() ? "" : o.inputs[i],
                                   static_cast<uint32_t>(7 + i)));
    inputs.push_back(std::move(bytes));
  }
  // The reference: the source model unfused, in its own dtypes, with the .om's shapes.
  ConvertOptions ref;
  ref.model = o.source_model;
  for (const auto& in : target->inputs()) {
    if (!IsStatic(in.shape))
      return Unsupported("input [" + in.name + "] has dynamic dims: compare a static .om");
    ref.shapes.push_back({in.name, in.shape, {}});
  }
  for (const auto& p : PipelinePassNames())
    if (p.rfind("Fuse", 0) == 0 || p == "FoldBatchNormIntoConv")
      ref.compile.disabled_passes.insert(p);
  OC_ASSIGN_OR_RETURN(Conversion conv, Convert(ref));
  OC_ASSIGN_OR_RETURN(std::string bytes, SerializeOm(conv.graphs, conv.write));
  OC_ASSIGN_OR_RETURN(auto reference,
                      Model::Load(MappedFile::FromCopy(bytes.data(), bytes.size())));
  // The reference takes the source model's input dtypes (fp32 where the .om has fp16).
  std::vector<std::string> ref_inputs;
  for (size_t i = 0; i < reference->inputs().size(); ++i) {
    const IoDesc& want = reference->inputs()[i];
    const IoDesc& have = target->inputs()[i];
    if (want.dtype == have.dtype) {
      ref_inputs.push_back(inputs[i]);
      continue;
    }
    std::string widened(want.bytes, '\0');
    const size_t n = static_cast<size_t>(NumElements(want.shape));
    for (size_t k = 0; k < n && have.dtype == DataType::kFloat16 && want.dtype == DataType::kFloat;
         ++k) {
      uint16_t h;
      std::memcpy(&h, inputs[i].data() + 2 * k, 2);
      const float f = HalfToFloat(h);
      std::memcpy(widened.data() + 4 * k, &f, 4);
    }
    ref_inputs.push_back(std::move(widened));
  }
  std::shared_ptr<CaptureObserver> truth;
  if (o.reference == "onnxruntime") {
    OC_ASSIGN_OR_RETURN(truth, RunOrtReference(o.source_model, *reference, ref_inputs));
  } else if (o.reference == "opencann" || o.reference.empty()) {
    OC_ASSIGN_OR_RETURN(truth, RunCaptured(reference, ref_inputs));
  } else {
    return InvalidArgument("--reference must be opencann or onnxruntime, not [" + o.reference +
                           "]");
  }
  std::shared_ptr<CaptureObserver> ours;
  if (o.dump_dir.empty()) {
    OC_ASSIGN_OR_RETURN(ours, RunCaptured(target, inputs));
  } else {
    OC_ASSIGN_OR_RETURN(ours, LoadDumpCapture(o.dump_dir, *reference));
  }
  CompareReport report;
  report.reference =
      o.reference == "onnxruntime" ? "ONNX Runtime" : "OpenCANN fp32 (the source model unfused)";
  if (auto it = target->attrs().find("precision_mode"); it != target->attrs().end())
    report.precision_mode = it->second;
  report.rows = CompareRuns(*truth, *ours, *target);
  report.first_failure = FirstFailure(report.rows);
  if (report.first_failure < 0) return report;
  // Find the --keep_dtype lines that fix it, and check them: convert the source model again
  // with the .om's precision mode keeping the failing ops in fp32, until nothing fails.
  const bool mixed = report.precision_mode.find("mix") != std::string::npos;
  auto mode = ParsePrecisionMode(report.precision_mode, false);
  if (!mode.ok()) mode = ParsePrecisionMode(report.precision_mode, true);
  std::vector<std::string> keep;
  bool fixed = false;
  std::vector<CompareRow> rows = report.rows;
  std::set<std::string> outputs;
  for (const auto& out : target->outputs()) outputs.insert(out.name);
  // Fixed: every model output within the thresholds and no NaN or Inf anywhere (a kept
  // fp32 op may still differ by more than RMSE 1.0 in absolute terms when its values are
  // large: its inputs were fp16).
  auto is_fixed = [&](const std::vector<CompareRow>& rs) {
    for (const auto& r : rs) {
      if (r.metrics.fail_reason.find("NaN or Inf") != std::string::npos) return false;
      if (outputs.count(r.tensor) && !r.metrics.fail_reason.empty()) return false;
    }
    return true;
  };
  for (int round = 0; mode.ok() && round < 16; ++round) {
    if (is_fixed(rows)) {
      fixed = true;
      break;
    }
    const CompareRow* next = nullptr;
    for (const auto& r : rows)
      if (!r.metrics.fail_reason.empty() &&
          std::find(keep.begin(), keep.end(), r.op_name) == keep.end()) {
        next = &r;
        break;
      }
    if (!next) break;  // every failing op is kept already: not only a precision problem
    keep.push_back(next->op_name);
    ConvertOptions again = ref;
    again.compile.disabled_passes.clear();
    again.compile.precision = mode.value();
    for (const auto& k : keep) again.compile.precision.keep_nodes.insert(k);
    OC_ASSIGN_OR_RETURN(Conversion c2, Convert(again));
    OC_ASSIGN_OR_RETURN(std::string b2, SerializeOm(c2.graphs, c2.write));
    OC_ASSIGN_OR_RETURN(auto m2, Model::Load(MappedFile::FromCopy(b2.data(), b2.size())));
    OC_ASSIGN_OR_RETURN(auto run2, RunCaptured(m2, ref_inputs));
    rows = CompareRuns(*truth, *run2, *m2);
  }
  const CompareRow& r = report.rows[report.first_failure];
  if (fixed) {
    std::string lines;
    for (const auto& k : keep) lines += "\n    " + k;
    report.suggestion =
        "--keep_dtype=FILE, the file holding these lines (checked: with them the model's " +
        std::string("outputs are within the thresholds and nothing overflows):") + lines;
    report.keep_dtype = keep;
  } else if (mixed) {
    report.suggestion =
        "--modify_mixlist with {\"black-list\": {\"to-add\": [\"" + r.op_type + "\"]}}";
  } else {
    report.suggestion = "--keep_dtype=FILE with the line \"" + r.op_name +
                        "\" (or \"OpType::" + r.op_type +
                        "\"); keeping the failing ops in fp32 did not bring every " +
                        "tensor within the thresholds: the difference is not only precision";
  }
  return report;
}

std::string CompareCsv(const CompareReport& report) {
  std::ostringstream csv;
  csv << "Index,OpType,NPUDump,DataType,GroundTruth,DataType,TensorIndex,Shape,"
         "CosineSimilarity,MaxAbsoluteError,AccumulatedRelativeError,RelativeEuclideanDistance,"
         "KullbackLeiblerDivergence,StandardDeviation,MeanAbsoluteError,RootMeanSquareError,"
         "MaxRelativeError,MeanRelativeError,CompareFailReason\n";
  auto q = [](const std::string& s) {
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
  };
  for (const auto& r : report.rows) {
    const auto& m = r.metrics;
    csv << r.index << "," << r.op_type << "," << q(r.op_name) << "," << q(r.dtype) << ","
        << q(r.truth_op) << "," << r.truth_dtype << "," << q(r.tensor) << "," << q(r.shape) << ","
        << Fmt(m.cosine) << "," << Fmt(m.max_abs) << "," << Fmt(m.accumulated_rel) << ","
        << Fmt(m.red) << "," << Fmt(m.kld) << "," << q(Fmt(m.std_ours) + ";" + Fmt(m.std_truth))
        << "," << Fmt(m.mae) << "," << Fmt(m.rmse) << "," << Fmt(m.max_rel) << ","
        << Fmt(m.mean_rel) << "," << q(m.fail_reason) << "\n";
  }
  return csv.str();
}

std::string CompareSummary(const CompareReport& report) {
  std::ostringstream s;
  s << report.rows.size() << " tensors compared (precision mode "
    << (report.precision_mode.empty() ? "?" : report.precision_mode) << ")\n";
  if (!report.reference.empty()) s << "reference: " << report.reference << "\n";
  double worst = 1;
  for (const auto& r : report.rows) worst = std::min(worst, r.metrics.cosine);
  s << "lowest cosine similarity: " << Fmt(worst) << "\n";
  if (report.first_failure < 0) {
    s << "every tensor is within CANN's thresholds\n";
    return s.str();
  }
  const CompareRow& r = report.rows[report.first_failure];
  s << "first op breaking a threshold: " << r.op_name << " (" << r.op_type << ", computed in "
    << r.dtype << "), tensor " << r.tensor << ": " << r.metrics.fail_reason << "\n";
  s << "fix: " << report.suggestion << "\n";
  return s.str();
}

namespace {

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

// A polyline of `values` (clamped to [lo, hi]) over the plot area. Non-finite values are
// drawn at `worst` (a NaN cosine at the bottom, an infinite distance at the top).
std::string Polyline(const std::vector<double>& values, double lo, double hi, double worst,
                     double x0, double y0, double w, double h, const char* colour) {
  std::ostringstream os;
  os << "<polyline fill=\"none\" stroke=\"" << colour << "\" stroke-width=\"1.5\" points=\"";
  const size_t n = values.size();
  for (size_t i = 0; i < n; ++i) {
    double v = std::isfinite(values[i]) ? values[i] : worst;
    v = std::min(hi, std::max(lo, v));
    const double x = x0 + (n > 1 ? w * static_cast<double>(i) / static_cast<double>(n - 1) : 0);
    const double y = y0 + h - h * (v - lo) / (hi - lo);
    os << x << "," << y << " ";
  }
  os << "\"/>";
  return os.str();
}

}  // namespace

std::string CompareHtml(const CompareReport& report) {
  std::ostringstream os;
  os << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>ocann-compare</title>"
        "<style>body{font-family:sans-serif;margin:24px;color:#222}"
        "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ccc;"
        "padding:3px 6px;text-align:right}td.l,th.l{text-align:left}tr.fail{background:#fde2e2}"
        "pre{background:#f4f4f4;padding:8px;white-space:pre-wrap}</style></head><body>\n";
  os << "<h1>Accuracy comparison</h1>\n<pre>" << Escape(CompareSummary(report)) << "</pre>\n";
  std::vector<double> cos, red;
  for (const auto& r : report.rows) {
    cos.push_back(r.metrics.cosine);
    red.push_back(r.metrics.red);
  }
  const double W = 900, H = 260, L = 60, T = 20, PW = W - L - 20, PH = H - T - 40;
  os << "<h2>Per layer</h2>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W
     << "\" height=\"" << H << "\">";
  os << "<rect x=\"" << L << "\" y=\"" << T << "\" width=\"" << PW << "\" height=\"" << PH
     << "\" fill=\"#fafafa\" stroke=\"#999\"/>";
  // Cosine on [0.9, 1] (left axis), RED on [0, 0.2] (right), the thresholds dashed.
  const double cos_threshold_y = T + PH - PH * (0.99 - 0.9) / 0.1;
  os << "<line x1=\"" << L << "\" x2=\"" << L + PW << "\" y1=\"" << cos_threshold_y << "\" y2=\""
     << cos_threshold_y << "\" stroke=\"#1f77b4\" stroke-dasharray=\"4 3\"/>";
  const double red_threshold_y = T + PH - PH * 0.05 / 0.2;
  os << "<line x1=\"" << L << "\" x2=\"" << L + PW << "\" y1=\"" << red_threshold_y << "\" y2=\""
     << red_threshold_y << "\" stroke=\"#d62728\" stroke-dasharray=\"4 3\"/>";
  os << Polyline(cos, 0.9, 1.0, 0.9, L, T, PW, PH, "#1f77b4");
  os << Polyline(red, 0.0, 0.2, 0.2, L, T, PW, PH, "#d62728");
  os << "<text x=\"4\" y=\"" << T + 10 << "\" font-size=\"11\" fill=\"#1f77b4\">cos 1.0</text>"
     << "<text x=\"4\" y=\"" << T + PH << "\" font-size=\"11\" fill=\"#1f77b4\">cos 0.9</text>"
     << "<text x=\"" << L << "\" y=\"" << H - 8 << "\" font-size=\"12\">layer index (0 to "
     << (report.rows.empty() ? 0 : report.rows.size() - 1)
     << "); blue: cosine similarity (threshold 0.99), red: relative Euclidean distance on [0, "
        "0.2] (threshold 0.05)</text>";
  if (report.first_failure >= 0 && report.rows.size() > 1) {
    const double x = L + PW * report.first_failure / static_cast<double>(report.rows.size() - 1);
    os << "<line x1=\"" << x << "\" x2=\"" << x << "\" y1=\"" << T << "\" y2=\"" << T + PH
       << "\" stroke=\"#000\" stroke-width=\"1\"/>";
  }
  os << "</svg>\n<h2>Tensors</h2>\n<table><tr><th>#</th><th class=\"l\">op</th><th "
        "class=\"l\">type</th><th class=\"l\">dtype</th><th class=\"l\">tensor</th><th "
        "class=\"l\">shape</th><th>cosine</th><th>RED</th><th>max abs</th><th>RMSE</th><th "
        "class=\"l\">fail reason</th></tr>\n";
  for (const auto& r : report.rows) {
    const auto& m = r.metrics;
    os << "<tr" << (m.fail_reason.empty() ? "" : " class=\"fail\"") << "><td>" << r.index
       << "</td><td class=\"l\">" << Escape(r.op_name) << "</td><td class=\"l\">"
       << Escape(r.op_type) << "</td><td class=\"l\">" << Escape(r.dtype) << "</td><td class=\"l\">"
       << Escape(r.tensor) << "</td><td class=\"l\">" << r.shape << "</td><td>" << Fmt(m.cosine)
       << "</td><td>" << Fmt(m.red) << "</td><td>" << Fmt(m.max_abs) << "</td><td>" << Fmt(m.rmse)
       << "</td><td class=\"l\">" << Escape(m.fail_reason) << "</td></tr>\n";
  }
  os << "</table></body></html>\n";
  return os.str();
}

}  // namespace oc
