// Capturing a model run: every op's float outputs as doubles, in execution order, for the
// comparison to match by value name.
#include <algorithm>
#include <cstring>

#include "base/half.h"
#include "compare/compare_internal.h"

namespace oc::compare_internal {

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

void CaptureObserver::OnStep(const StepRecord& r) {
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

}  // namespace oc::compare_internal
