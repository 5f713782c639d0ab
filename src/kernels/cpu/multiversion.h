// Hot loops of the CPU kernels are built for the baseline x86-64 (any machine runs the
// library) and again for AVX2+FMA and AVX-512 machines; the loader picks the version for
// the running CPU once (GCC function multiversioning, an ifunc). Put OC_MULTIVERSION on a
// function that holds the loop itself, not on one that only opens an OpenMP region: the
// parallel region's body is outlined into a function of its own.
#pragma once

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define OC_MULTIVERSION \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
// Other compilers (clang for the sanitizer and fuzzing builds) keep the baseline version.
#define OC_MULTIVERSION
#endif
