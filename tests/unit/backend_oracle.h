// Kernel-family tests: one node (or a small chain) compiled once, run on the CPU backend
// and on the reference backend (the oracle), outputs compared.
#pragma once

#include <gtest/gtest.h>

#include "test_graph.h"

namespace oc::testing {

// A graph with float inputs `x0`, `x1`, ... of the given shapes; the caller adds nodes
// and constants through the builder and names the outputs.
struct OracleCase {
  GraphBuilder b;
  std::vector<std::vector<float>> inputs;
  int64_t opset = 17;

  void FloatInput(const std::string& name, const Shape& shape, uint32_t seed) {
    b.Input(name, DataType::kFloat, shape);
    inputs.push_back(Pseudo(static_cast<size_t>(NumElements(shape)), seed));
  }
  // Runs on the CPU backend alone and on the reference backend alone; the reference must
  // place every node (no silent fallback) and the answers must agree within `tol`.
  void ExpectAgree(float tol = 1e-4f) {
    b.g.opset_version = opset;
    auto bytes = CompileToOm(b.g);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    std::map<std::string, size_t> placed;
    auto cpu = RunOmOn(bytes.value(), "cpu", inputs);
    ASSERT_TRUE(cpu.ok()) << cpu.status().ToString();
    auto ref = RunOmOn(bytes.value(), "reference", inputs, &placed);
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    EXPECT_EQ(placed.count("cpu"), 0u);
    ASSERT_EQ(cpu->size(), ref->size());
    for (size_t o = 0; o < cpu->size(); ++o) {
      ASSERT_EQ((*cpu)[o].size(), (*ref)[o].size()) << "output " << o;
      EXPECT_LE(MaxRelativeError((*cpu)[o], (*ref)[o]), tol) << "output " << o;
    }
  }
};

}  // namespace oc::testing
