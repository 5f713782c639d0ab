#!/usr/bin/env bash
# Runs every libFuzzer harness for SECONDS each (or FUZZ_RUNS executions, 1,000,000 unless
# set, whichever comes first): the committed seeds (fuzz/corpus/NAME) are
# read, new inputs go to a scratch corpus in the build folder, crashes to fuzz/findings/.
# Then replays fuzz/regressions/NAME/* (inputs that once crashed). Exit 1 on any finding.
set -uo pipefail
BIN=${1:?usage: fuzz/run.sh FUZZ_BIN_DIR SECONDS}
SECONDS_EACH=${2:-60}
RUNS=${FUZZ_RUNS:-1000000}  # each harness stops at this many executions or SECONDS_EACH
HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH=$BIN/corpus
FINDINGS=$HERE/findings
mkdir -p "$SCRATCH" "$FINDINGS"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export OMP_NUM_THREADS=1
status=0
printf '%-26s %12s %10s %s\n' fuzzer executions seconds result
for f in onnx_import caffe_import tf_import air_import om_load atc_flags python_tokenizer op_json dvpp_media; do
  exe=$BIN/${f}_fuzzer
  [[ -x $exe ]] || { echo "missing $exe" >&2; status=1; continue; }
  mkdir -p "$SCRATCH/$f"
  seeds=$HERE/corpus/$f
  [[ $f == python_tokenizer ]] && seeds="$HERE/corpus/python_tokenizer $HERE/corpus/notebook"
  log=$BIN/$f.log
  start=$(date +%s)
  # The protobuf harnesses mutate through their structure-aware mutator (fuzz/proto_mutator.h),
  # whose changes add fields: without -len_control=0 libFuzzer would hold them to the size of
  # the largest seed for the first minutes.
  extra=()
  [[ $f == *_import ]] && extra=(-len_control=0)
  # shellcheck disable=SC2086
  "$exe" -max_total_time="$SECONDS_EACH" -runs="$RUNS" -timeout=20 -rss_limit_mb=6144 -print_final_stats=1 \
    "${extra[@]}" -artifact_prefix="$FINDINGS/$f-" "$SCRATCH/$f" $seeds >"$log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  secs=$(($(date +%s) - start))
  result=clean
  if [[ $rc -ne 0 ]]; then result="FINDING (see $log)"; status=1; fi
  printf '%-26s %12s %10s %s\n' "${f}_fuzzer" "${execs:-?}" "${secs:-?}" "$result"
  if [[ -d $HERE/regressions/$f ]] && compgen -G "$HERE/regressions/$f/*" >/dev/null; then
    if ! "$exe" -runs=1 "$HERE"/regressions/$f/* >"$BIN/$f.regressions.log" 2>&1; then
      echo "  regression inputs of $f crash again: $BIN/$f.regressions.log"
      status=1
    fi
  fi
done
exit $status
