// oc.RoundTo (the precision emulation's rounding) on both backends against hand values:
// ties to even, subnormals, overflow to infinity, bfloat16.
#include <cmath>
#include <limits>

#include "backend_oracle.h"

namespace oc::testing {
namespace {

std::vector<float> RoundOn(const std::string& backend, const std::string& to,
                           const std::vector<float>& x) {
  GraphBuilder b;
  b.Input("x", DataType::kFloat, {static_cast<int64_t>(x.size())});
  Node& n = b.Add("RoundTo", {"x"}, {"y"});
  n.domain = kOcDomain;
  n.attrs.Set("to", to);
  b.Output("y");
  auto bytes = CompileToOm(b.g);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  if (!bytes.ok()) return {};
  std::map<std::string, size_t> placed;
  auto out = RunOmOn(bytes.value(), backend, {x}, &placed);
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(placed[backend], 1u);
  return out.ok() ? (*out)[0] : std::vector<float>{};
}

TEST(PrecisionFamily, Float16RoundsToNearestEven) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<std::pair<float, float>> cases = {
      {1.0f + std::ldexp(1.0f, -11), 1.0f},                             // tie, even is 1.0
      {1.0f + 3 * std::ldexp(1.0f, -11), 1.0f + std::ldexp(1.0f, -9)},  // tie, up to even
      {1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20), 1.0f + std::ldexp(1.0f, -10)},
      {65504.0f, 65504.0f},
      {65519.0f, 65504.0f},
      {65520.0f, inf},  // the tie above the largest half rounds to infinity
      {-70000.0f, -inf},
      {std::ldexp(1.0f, -24), std::ldexp(1.0f, -24)},  // smallest subnormal
      {std::ldexp(1.0f, -25), 0.0f},                   // tie with 0: even is 0
      {3 * std::ldexp(1.0f, -25), std::ldexp(1.0f, -23)},
      {1e-9f, 0.0f},
      {0.1f, 0.0999755859375f},
      {-0.333333f, -0.333251953125f},
  };
  std::vector<float> x;
  for (const auto& [in, want] : cases) x.push_back(in);
  for (const char* backend : {"cpu", "reference"}) {
    auto y = RoundOn(backend, "float16", x);
    ASSERT_EQ(y.size(), cases.size()) << backend;
    for (size_t i = 0; i < cases.size(); ++i)
      EXPECT_EQ(y[i], cases[i].second) << backend << " " << cases[i].first;
  }
}

TEST(PrecisionFamily, BFloat16RoundsToNearestEven) {
  const std::vector<std::pair<float, float>> cases = {
      {1.0f + std::ldexp(1.0f, -8), 1.0f},
      {1.0f + 3 * std::ldexp(1.0f, -8), 1.0f + std::ldexp(1.0f, -6)},
      {1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20), 1.0f + std::ldexp(1.0f, -7)},
      {70000.0f, 70144.0f},
      {0.1f, 0.10009765625f},
  };
  std::vector<float> x;
  for (const auto& [in, want] : cases) x.push_back(in);
  for (const char* backend : {"cpu", "reference"}) {
    auto y = RoundOn(backend, "bfloat16", x);
    ASSERT_EQ(y.size(), cases.size()) << backend;
    for (size_t i = 0; i < cases.size(); ++i)
      EXPECT_EQ(y[i], cases[i].second) << backend << " " << cases[i].first;
  }
}

TEST(PrecisionFamily, BackendsAgreeOnManyValues) {
  OracleCase c;
  c.FloatInput("x", {4097}, 17);
  for (auto& v : c.inputs[0]) v *= 3000.0f;  // spans many binades
  c.b.Add("RoundTo", {"x"}, {"y"}).attrs.Set("to", std::string("float16"));
  c.b.g.nodes.back().domain = kOcDomain;
  c.b.Output("y");
  c.ExpectAgree(0);
}

}  // namespace
}  // namespace oc::testing
