// What the element-wise kernel files share (elementwise.cpp, elementwise_unary.cpp,
// elementwise_binary.cpp): the parallel split of a flat loop, and the registration of the
// unary and binary families, which RegisterElementwiseKernels calls in its order.
#pragma once

#include <algorithm>
#include <cstdint>

#include "backend/kernel.h"

namespace oc {

constexpr int64_t kGrain = 16384;  // elements per parallel chunk

template <typename F>
void ParallelChunks(int64_t n, int threads, F&& f) {
  const int64_t chunks = (n + kGrain - 1) / kGrain;
  if (chunks <= 1 || threads <= 1) {
    f(int64_t{0}, n);
    return;
  }
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t c = 0; c < chunks; ++c) f(c * kGrain, std::min(n, (c + 1) * kGrain));
}

// Every unary op (Relu, Sigmoid, ..., IsNaN): one kernel.
void RegisterElementwiseUnaryKernels(KernelTable& r);
// The broadcasting arithmetic, comparison and variadic ops: one kernel.
void RegisterElementwiseBinaryKernels(KernelTable& r);

}  // namespace oc
