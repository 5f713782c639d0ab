// What the frontends' unit tests share: the op types of an imported graph in order, and the
// check that an import was refused with a given status, CANN code and message part.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ir/graph.h"

namespace oc::testing {

inline std::vector<std::string> OpTypes(const Graph& g) {
  std::vector<std::string> out;
  for (const auto& n : g.nodes) out.push_back(n.op_type);
  return out;
}

inline void ExpectRefused(const Result<Graph>& r, StatusCode code, const std::string& cann,
                          const std::string& part) {
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), code) << r.status().ToString();
  EXPECT_EQ(r.status().cann_code(), cann) << r.status().ToString();
  EXPECT_NE(r.status().message().find(part), std::string::npos) << r.status().message();
}

}  // namespace oc::testing
