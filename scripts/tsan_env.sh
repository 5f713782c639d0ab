#!/usr/bin/env bash
# Runs a command the way `make test-tsan` needs: OpenMP parallel regions covered by
# ThreadSanitizer through LLVM's OpenMP runtime and its Archer tool.
#
#   scripts/tsan_env.sh BUILD_DIR COMMAND...
#
# The build is compiled with clang -fsanitize=thread -fopenmp, so our kernels use libomp.
# oneDNN (Debian's) is linked against GCC's libgomp: a folder holding libgomp.so.1 -> libomp
# makes it use the same runtime (libomp implements the GOMP entry points), so there is one
# OpenMP runtime, and Archer (OMPT) tells TSan about its barriers, tasks and regions.
# Accesses inside libraries that are not instrumented (oneDNN, libstdc++) are not checked.
set -euo pipefail
BUILD=${1:?usage: scripts/tsan_env.sh BUILD_DIR COMMAND...}
shift
LLVM_LIB=/usr/lib/llvm-$(clang++ -dumpversion | cut -d. -f1)/lib
[[ -f $LLVM_LIB/libarcher.so ]] || { echo "tsan_env: no $LLVM_LIB/libarcher.so (libomp-dev)" >&2; exit 1; }
SHIM=$BUILD/omp-shim
mkdir -p "$SHIM"
ln -sf "$LLVM_LIB/libomp.so.5" "$SHIM/libgomp.so.1"
export LD_LIBRARY_PATH=$SHIM${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMP_TOOL_LIBRARIES=$LLVM_LIB/libarcher.so
export ARCHER_OPTIONS=${ARCHER_OPTIONS:-verbose=0}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0:second_deadlock_stack=1:ignore_noninstrumented_modules=1:exitcode=66}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
exec "$@"
