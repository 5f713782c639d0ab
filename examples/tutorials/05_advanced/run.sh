#!/usr/bin/env bash
# Tutorial 5, advanced topics: every command of docs/tutorials/05-advanced.md, checked.
# OPENCANN_SOURCE names the OpenCANN checkout (its examples/ folder is used).
set -euo pipefail
source $OPENCANN_ROOT/set_env.sh
SRC=${OPENCANN_SOURCE:-$HOME/opencann}

# 1. Ascend C: a mix-mode Matmul + LeakyReLU (cube and vector cores), and a race caught
cmake -S $SRC/examples/ascendc_kernels -B build/kernels -DCMAKE_PREFIX_PATH=$ASCEND_TOOLKIT_HOME
cmake --build build/kernels
python3 kernel_data.py write data
./build/kernels/run_kernels data | tee kernels.txt
grep -q "2 blocks (2 AIC + 4 AIV, KERNEL_TYPE_MIX_AIC_1_2) exit success" kernels.txt
python3 kernel_data.py check data
cmake -S $SRC/examples/ascendc_checks -B build/checks -DCMAKE_PREFIX_PATH=$ASCEND_TOOLKIT_HOME
cmake --build build/checks
python3 -c "import numpy as np; r = np.random.default_rng(1); [a.tofile(f'data/{n}.bin') for n, a in [('pad_x', r.standard_normal((8, 13)).astype(np.float16)), ('pos_x', r.standard_normal(1024).astype(np.float32)), ('scale_x', r.standard_normal(4096).astype(np.float32))]]"
./build/checks/run_checks data 2>&1 | tee checks.txt
grep -q "race (read after write)" checks.txt
grep -q "checks example ran as expected" checks.txt

# 2. ATC + AscendCL in C: one operator, no model
atc --singleop=add_op.json --output=op_models --soc_version=Ascend910B3
gcc single_op_add.c -I$ASCEND_TOOLKIT_HOME/runtime/include -L$ASCEND_TOOLKIT_HOME/runtime/lib64/stub -lascendcl -o single_op_add
./single_op_add | tee single_op.txt
grep -q "Add \[8,16\] by aclopExecuteV2: exact" single_op.txt

# 3. Deciding a migration with gpu2npu
for project in standard_cv complex_kernel complex_no_port not_advised; do
  gpu2npu analyse $SRC/examples/migration/$project --format json -o $project.json || test $? -eq 1
done
gpu2npu analyse $SRC/examples/migration/complex_kernel || true
python3 read_verdict.py standard_cv.json complex_kernel.json complex_no_port.json not_advised.json | tee verdicts.txt
grep -q "complex_no_port   high" verdicts.txt
echo "tutorial 5: OK"
