#!/bin/bash
# The seed's custom operator flow, end to end, in a work folder:
# msopgen gen -> write the kernel -> build the package -> install it -> an ONNX model that
# uses the op -> atc -> run through AscendCL from Python -> compare with torch.relu.
# usage: examples/custom_relu/run.sh [WORK_DIR]   (OPENCANN_ROOT: an installed OpenCANN)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-$(mktemp -d)}
root=${OPENCANN_ROOT:?set OPENCANN_ROOT to the OpenCANN install prefix (make install PREFIX=...)}
export PATH="$root/bin:$PATH"
mkdir -p "$work" && cd "$work"

echo "== 1. msopgen gen"
rm -rf CustomReLU opp
msopgen gen -i "$here/custom_relu.json" -c ai_core-Ascend910B3 -lan cpp -out CustomReLU
echo "== 2. the kernel: y = max(x, 0)"
cp "$here/custom_relu.cpp" CustomReLU/op_kernel/custom_re_lu.cpp
echo "== 3. build and install the operator package"
OPENCANN_ROOT="$root" CustomReLU/build.sh > build.log 2>&1 || { cat build.log; exit 1; }
CustomReLU/build_out/custom_opp_linux_x86_64.run --install-path="$work/opp"
source "$work/opp/vendors/customize/bin/set_env.bash"
echo "== 4. a model that uses it"
/usr/bin/python3 "$here/model.py" export model.onnx
echo "== 5. atc"
atc --model=model.onnx --framework=5 --output=model --soc_version=Ascend910B3
echo "== 6. run through AscendCL and compare"
PYTHONPATH="$(dirname "$(find "$root" -name 'acl_infer.py' | head -1)")" \
  /usr/bin/python3 "$here/model.py" check model.om
