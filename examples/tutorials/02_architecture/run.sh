#!/usr/bin/env bash
# Tutorial 2, the architecture: every command of docs/tutorials/02-architecture.md, with checks.
set -euo pipefail
source $OPENCANN_ROOT/set_env.sh

cmake -S . -B build -DCMAKE_PREFIX_PATH=$ASCEND_TOOLKIT_HOME
cmake --build build
mkdir -p reports
OCANN_ASCENDC_REPORT_DIR=$PWD/reports ./build/lessons | tee lessons.txt
grep -q "per core: UB 192 KiB, L1 512 KiB, L0A 64 KiB, L0B 64 KiB, L0C 128 KiB; shared L2 192 MiB" lessons.txt
grep -q "UB capacity exceeded: 40960 more bytes at offset 163840, but UB has 196608 bytes" lessons.txt
grep -q "destination LocalTensor address 4 in UB is not 32-byte aligned" lessons.txt
grep -q "lessons ran as expected" lessons.txt
python3 read_costs.py reports | tee costs.txt
grep -q "double buffering saves" costs.txt
echo "tutorial 2: OK"
