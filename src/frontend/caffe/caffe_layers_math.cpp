// Caffe's activation and elementwise arithmetic layers (ReLU, PReLU, Sigmoid, TanH, AbsVal,
// BNLL, ELU, Power, Exp, Log, Eltwise, Softmax, Threshold).
#include <cmath>
#include <string>
#include <vector>

#include "frontend/caffe/caffe_layers.h"

namespace oc::caffe_import {

Status ReLU(const LayerParameter& l, const Weights&, Builder& b) {
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const float slope = l.relu_param().negative_slope();
  if (slope == 0) return SetTops(l, b, {b.Add1(l.name(), "Relu", {x})});
  AttributeMap a;
  a.Set("alpha", slope);
  return SetTops(l, b, {b.Add1(l.name(), "LeakyRelu", {x}, a)});
}

Status PReLU(const LayerParameter& l, const Weights& w, Builder& b) {
  OC_RETURN_IF_ERROR(NeedBlobs(l, w, 1));
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const std::string slope = ChannelParam(l, b, x, w.blobs[0], "_slope");
  return SetTops(l, b, {b.Add1(l.name(), "PRelu", {x, slope})});
}

Status Sigmoid(const LayerParameter& l, const Weights&, Builder& b) {
  return Unary(l, b, "Sigmoid");
}
Status TanH(const LayerParameter& l, const Weights&, Builder& b) { return Unary(l, b, "Tanh"); }
Status AbsVal(const LayerParameter& l, const Weights&, Builder& b) { return Unary(l, b, "Abs"); }
Status BNLL(const LayerParameter& l, const Weights&, Builder& b) { return Unary(l, b, "Softplus"); }
Status ELU(const LayerParameter& l, const Weights&, Builder& b) {
  AttributeMap a;
  a.Set("alpha", l.elu_param().alpha());
  return Unary(l, b, "Elu", a);
}

Status Power(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.power_param();
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  std::string y = Affine(l, b, x, p.scale(), p.shift());
  if (p.power() != 1)
    y = b.Add1(l.name(), "Pow", {y, b.Floats(l.name() + "_power", {p.power()}, {})});
  if (y == x) y = b.Add1(l.name(), "Identity", {x});
  return SetTops(l, b, {y});
}

Status Exp(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.exp_param();
  if (p.base() != -1 && p.base() <= 0) return LayerError(l, "base must be positive or -1 (e)");
  const float ln_base = p.base() == -1 ? 1.0f : std::log(p.base());
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  // base^(shift + scale x) = exp(ln(base) shift + ln(base) scale x)
  std::string y = Affine(l, b, x, ln_base * p.scale(), ln_base * p.shift());
  return SetTops(l, b, {b.Add1(l.name(), "Exp", {y})});
}

Status Log(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.log_param();
  if (p.base() != -1 && (p.base() <= 0 || p.base() == 1))
    return LayerError(l, "base must be positive and not 1, or -1 (e)");
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  std::string y = b.Add1(l.name(), "Log", {Affine(l, b, x, p.scale(), p.shift())});
  if (p.base() != -1) y = Affine(l, b, y, 1.0f / std::log(p.base()), 0);
  return SetTops(l, b, {y});
}

Status Eltwise(const LayerParameter& l, const Weights&, Builder& b) {
  const auto& p = l.eltwise_param();
  if (l.bottom_size() < 2) return LayerError(l, "needs two or more bottoms");
  std::vector<std::string> in;
  for (int i = 0; i < l.bottom_size(); ++i) {
    OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, static_cast<size_t>(i)));
    in.push_back(x);
  }
  if (p.coeff_size() > 0 && p.operation() != oc_caffe::EltwiseParameter::SUM)
    return LayerError(l, "coefficients are for SUM only");
  if (p.coeff_size() > 0 && p.coeff_size() != l.bottom_size())
    return LayerError(l, "has " + std::to_string(p.coeff_size()) + " coefficients for " +
                             std::to_string(l.bottom_size()) + " bottoms");
  const char* op = p.operation() == oc_caffe::EltwiseParameter::PROD  ? "Mul"
                   : p.operation() == oc_caffe::EltwiseParameter::MAX ? "Max"
                                                                      : "Sum";
  for (int i = 0; i < p.coeff_size(); ++i)
    if (p.coeff(i) != 1)
      in[i] = b.Add1(l.name(), "Mul", {in[i], b.Floats(l.name() + "_coeff", {p.coeff(i)}, {})});
  std::string y = in[0];
  if (std::string(op) == "Mul") {
    for (size_t i = 1; i < in.size(); ++i) y = b.Add1(l.name(), "Mul", {y, in[i]});
  } else {
    y = b.Add1(l.name(), op, in);
  }
  return SetTops(l, b, {y});
}

Status Softmax(const LayerParameter& l, const Weights&, Builder& b) {
  AttributeMap a;
  a.Set("axis", int64_t{l.softmax_param().axis()});
  return Unary(l, b, "Softmax", a);
}

Status Threshold(const LayerParameter& l, const Weights&, Builder& b) {
  OC_ASSIGN_OR_RETURN(std::string x, b.Bottom(l, 0));
  const std::string gt = b.Add1(
      l.name(), "Greater", {x, b.Floats(l.name() + "_t", {l.threshold_param().threshold()}, {})});
  AttributeMap a;
  a.Set("to", int64_t{static_cast<int64_t>(DataType::kFloat)});
  return SetTops(l, b, {b.Add1(l.name(), "Cast", {gt}, a)});
}

}  // namespace oc::caffe_import
