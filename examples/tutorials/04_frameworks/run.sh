#!/usr/bin/env bash
# Tutorial 4, other frameworks: every command of docs/tutorials/04-frameworks.md, checked.
set -euo pipefail
source $OPENCANN_ROOT/set_env.sh

python3 make_models.py
atc --model=small_cnn.prototxt --weight=small_cnn.caffemodel --framework=0 --output=caffe_cnn --soc_version=Ascend910B3
atc --model=small_cnn.pb --framework=3 --output=tf_cnn --soc_version=Ascend910B3
atc --model=small_cnn.air --framework=1 --output=air_cnn --soc_version=Ascend910B3
python3 check_models.py | tee check.txt
grep -q "all three frameworks agree with PyTorch" check.txt

# What a layer atc cannot convert looks like, and the pre-check that finds it first.
if atc --model=python_layer.prototxt --weight=small_cnn.caffemodel --framework=0 --output=py --soc_version=Ascend910B3 > refusal.txt 2>&1; then
  echo "atc converted a Python layer" >&2; exit 1
fi
cat refusal.txt
grep -q "E19010: model \[python_layer.prototxt\]: No parser is registered for Op \[proposal, optype \[Python\]\]" refusal.txt
test ! -e py.om
atc --mode=3 --model=python_layer.prototxt --weight=small_cnn.caffemodel --framework=0 --soc_version=Ascend910B3 || true
python3 -c "import json; s = json.load(open('check_result.json'))['summary']; print(s); assert s == {'ops': 2, 'supported': 1, 'unsupported': 1}"
echo "tutorial 4: OK"
