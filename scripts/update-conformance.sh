#!/usr/bin/env bash
# Re-runs the ONNX conformance suite and rewrites the committed expectations,
# docs/conformance.md and docs/ops.md. Hand-written reasons survive while a case keeps
# its result. Review the diff before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
DATA=/usr/share/libonnx-testdata/data
CASES=("$DATA/node" "$DATA/pytorch-converted" "$DATA/pytorch-operator" "$DATA/simple")
"$BUILD/bin/oc-conformance" "${CASES[@]}" --update-expected tests/conformance/expected.json >/dev/null || true
"$BUILD/bin/oc-conformance" "${CASES[@]}" --expect tests/conformance/expected.json \
  --markdown docs/conformance.md | tail -1
"$BUILD/bin/oc_ops_table" > docs/ops.md
