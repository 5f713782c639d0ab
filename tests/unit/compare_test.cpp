// CANN's comparison metrics against hand-computed values.
#include "compare/compare.h"

#include <gtest/gtest.h>

#include <cmath>

namespace oc {
namespace {

TEST(Compare, MetricsByHand) {
  const std::vector<double> y = {1, 2, 3, 4};
  auto same = CompareTensors(y, y);
  EXPECT_DOUBLE_EQ(same.cosine, 1.0);
  EXPECT_DOUBLE_EQ(same.max_abs, 0.0);
  EXPECT_DOUBLE_EQ(same.red, 0.0);
  EXPECT_NEAR(same.kld, 0.0, 1e-12);
  EXPECT_TRUE(same.fail_reason.empty());

  const std::vector<double> x = {1, 2, 3, 5};  // one element off by 1
  auto m = CompareTensors(x, y);
  EXPECT_NEAR(m.cosine, 34.0 / std::sqrt(39.0 * 30.0), 1e-12);
  EXPECT_DOUBLE_EQ(m.max_abs, 1.0);
  EXPECT_DOUBLE_EQ(m.mae, 0.25);
  EXPECT_DOUBLE_EQ(m.rmse, 0.5);
  EXPECT_NEAR(m.red, std::sqrt(1.0 / 30.0), 1e-12);
  EXPECT_DOUBLE_EQ(m.accumulated_rel, 0.1);
  EXPECT_DOUBLE_EQ(m.max_rel, 0.25);
  EXPECT_DOUBLE_EQ(m.mean_rel, 0.0625);
  EXPECT_NE(m.fail_reason.find("RED > 0.05"), std::string::npos);  // 0.18
  EXPECT_EQ(m.fail_reason.find("cosine"), std::string::npos);      // 0.9956 passes

  auto overflow = CompareTensors({1, INFINITY, 3, 4}, y);
  EXPECT_NE(overflow.fail_reason.find("NaN or Inf"), std::string::npos);
  auto zeros = CompareTensors({0, 0, 0, 0}, y);
  EXPECT_DOUBLE_EQ(zeros.cosine, 0.0);
  EXPECT_NE(zeros.fail_reason.find("cosine < 0.99"), std::string::npos);
}

}  // namespace
}  // namespace oc
