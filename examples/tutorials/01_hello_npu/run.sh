#!/usr/bin/env bash
# Tutorial 1, Hello NPU: every command of docs/tutorials/01-hello-npu.md, in order, with checks.
# Run from a copy of this folder with OPENCANN_ROOT naming an OpenCANN install.
set -euo pipefail
source $OPENCANN_ROOT/set_env.sh

python3 npu_info.py | tee npu_info.txt
grep -q "NPU 0  Ascend910B3  AI cores 20  vector cores 40  L2 192 MiB" npu_info.txt
OCANN_SOC=Ascend310P3 python3 npu_info.py | tee npu_info_310p.txt
grep -q "Ascend310P3  AI cores 8  vector cores 0  L2 unknown" npu_info_310p.txt

gcc hello_acl.c -I$ASCEND_TOOLKIT_HOME/runtime/include -L$ASCEND_TOOLKIT_HOME/runtime/lib64/stub -lascendcl -o hello_acl
./hello_acl | tee hello_c.txt
grep -q "round trip: identical (last value 511.5)" hello_c.txt
grep -q "hello NPU: done" hello_c.txt

python3 hello_acl.py | tee hello_py.txt
grep -q "round trip: identical (last value 511.5)" hello_py.txt

python3 beginner_errors.py | tee errors.txt
grep -q "9 beginner errors shown" errors.txt
echo "tutorial 1: OK"
