#!/usr/bin/env bash
# Tutorial 3, PyTorch models on the NPU: every command of docs/tutorials/03-pytorch.md, checked.
set -euo pipefail
source $OPENCANN_ROOT/set_env.sh

# 1. PyTorch -> ONNX
python3 export_model.py

# 2. ONNX -> .om, and run it through AscendCL against PyTorch
atc --model=sensor_resnet18.onnx --framework=5 --output=sensor --soc_version=Ascend910B3
python3 verify_accuracy.py sensor.om | tee accuracy_fp32.txt
grep -q "sensor.om *1.000000" accuracy_fp32.txt

# 3. Verify the accuracy under the NPU's precision modes
atc --model=sensor_resnet18.onnx --framework=5 --output=sensor_force_fp16 --soc_version=Ascend910B3 --precision_mode=force_fp16
atc --model=sensor_resnet18.onnx --framework=5 --output=sensor_mix --soc_version=Ascend910B3 --precision_mode=allow_mix_precision
atc --model=sensor_resnet18.onnx --framework=5 --output=sensor_origin --soc_version=Ascend910B3 --precision_mode=must_keep_origin_dtype
python3 verify_accuracy.py sensor_force_fp16.om sensor_mix.om sensor_origin.om | tee accuracy_modes.txt
grep -q "sensor_force_fp16.om .*DIFF" accuracy_modes.txt
grep -q "sensor_origin.om *1.000000" accuracy_modes.txt

# 4. Find the op that breaks, and the fix
ocann-compare -m sensor_resnet18.onnx -om sensor_force_fp16.om -i image.npy -o compare_fp16 | tee compare.txt
grep -q "first op breaking a threshold: /0/Mul (Mul, computed in float16)" compare.txt
sed -n '/^fix:/,/^result:/p' compare.txt | grep '^    ' | sed 's/^    //' > keep_dtype.cfg
cat keep_dtype.cfg
atc --model=sensor_resnet18.onnx --framework=5 --output=sensor_fp16_fixed --soc_version=Ascend910B3 --precision_mode=force_fp16 --keep_dtype=keep_dtype.cfg
python3 verify_accuracy.py sensor_fp16_fixed.om | tee accuracy_fixed.txt
python3 - <<'PY'
cosine = float(open("accuracy_fixed.txt").read().split()[-3])
assert cosine > 0.999, cosine
print(f"with --keep_dtype the fp16 model's cosine to PyTorch is {cosine}")
PY

# 5. Deployment: dynamic batch and AIPP
atc --model=resnet18.onnx --framework=5 --output=resnet18_dyn --soc_version=Ascend910B3 --input_shape="input:-1,3,224,224" --dynamic_batch_size="1,2,4"
atc --model=resnet18.onnx --framework=5 --output=resnet18_aipp --soc_version=Ascend910B3 --input_shape="input:1,3,224,224" --insert_op_conf=aipp_rgb.cfg
python3 deploy_check.py | tee deploy.txt
grep -q "deployment checks passed" deploy.txt

# 6. msame and the profiler timeline
msame --model sensor_fp16_fixed.om --input image.npy --output msame_out --loop 5 --profiler true | tee msame.txt
grep -q "Inference average time without first time" msame.txt
python3 read_profile.py msame_out/profiler
echo "tutorial 3: OK"
