"""The AscendCL stress run (tests/c/acl_stress.c) on two models, for ctest and the sanitizer
builds: 16 threads loading, executing (sync and async) and unloading in random order, every
output bit-identical to a single-threaded run; then aclFinalize with executions queued; then
the race run (tests/c/acl_race.c): threads destroying and recreating every kind of handle
while others use it, every code a clean one.

    /usr/bin/python3 tests/c/run_stress.py --build build [--threads 16] [--iterations 200]
        [--race-threads 16] [--race-iterations 1500]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def models(work):
    rng = np.random.RandomState(7)
    f = TensorProto.FLOAT
    conv = helper.make_graph(
        [helper.make_node("Conv", ["x", "k", "kb"], ["c"], pads=[1, 1, 1, 1]),
         helper.make_node("Relu", ["c"], ["r"]),
         helper.make_node("Flatten", ["r"], ["fl"]),
         helper.make_node("Gemm", ["fl", "w", "b"], ["g"], transB=1),
         helper.make_node("Softmax", ["g"], ["y"], axis=-1)],
        "stress_conv", [helper.make_tensor_value_info("x", f, [2, 3, 8, 8])],
        [helper.make_tensor_value_info("y", f, None)],
        [numpy_helper.from_array(rng.randn(4, 3, 3, 3).astype(np.float32), "k"),
         numpy_helper.from_array(rng.randn(4).astype(np.float32), "kb"),
         numpy_helper.from_array(rng.randn(6, 256).astype(np.float32) * 0.1, "w"),
         numpy_helper.from_array(rng.randn(6).astype(np.float32), "b")])
    attn = helper.make_graph(
        [helper.make_node("MatMul", ["q", "kt"], ["s"]),
         helper.make_node("Softmax", ["s"], ["p"], axis=-1),
         helper.make_node("MatMul", ["p", "v"], ["o"]),
         helper.make_node("Add", ["o", "q"], ["y"]),
         helper.make_node("ReduceMean", ["y"], ["m"], axes=[-1])],
        "stress_attn", [helper.make_tensor_value_info("q", f, [4, 16, 32])],
        [helper.make_tensor_value_info("y", f, None), helper.make_tensor_value_info("m", f, None)],
        [numpy_helper.from_array(rng.randn(32, 16).astype(np.float32), "kt"),
         numpy_helper.from_array(rng.randn(16, 32).astype(np.float32), "v")])
    for g in (conv, attn):
        path = os.path.join(work, g.name + ".onnx")
        onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)
        yield g.name, path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--threads", type=int, default=16)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--finalize-runs", type=int, default=5)
    ap.add_argument("--race-threads", type=int, default=16)
    ap.add_argument("--race-iterations", type=int, default=1500)
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    stress = os.path.join(build, "tests", "oc_acl_stress")
    race = os.path.join(build, "tests", "oc_acl_race")
    failed = 0
    with tempfile.TemporaryDirectory() as work:
        for name, path in models(work):
            stem = os.path.join(work, name)
            r = subprocess.run([os.path.join(build, "bin", "atc"), f"--model={path}",
                                "--framework=5", f"--output={stem}",
                                "--soc_version=Ascend910B3"], capture_output=True, text=True)
            if r.returncode != 0:
                print(r.stdout + r.stderr)
                return 1
            runs = [(stress, [str(a.threads), str(a.iterations)])]
            runs += [(stress, [str(a.threads), "0", "--finalize-in-flight"])] * a.finalize_runs
            runs += [(race, [str(a.race_threads), str(a.race_iterations)])]
            for program, args in runs:
                try:
                    r = subprocess.run([program, stem + ".om", *args], capture_output=True,
                                       text=True, timeout=600)
                except subprocess.TimeoutExpired:
                    print(f"{os.path.basename(program)} {name} {' '.join(args)}: no answer in 600 s")
                    failed += 1
                    continue
                last = (r.stdout.strip().splitlines() or ["(no output)"])[-1]
                ok = r.returncode == 0 and "Sanitizer" not in r.stderr
                what = f"{os.path.basename(program)} {name} {' '.join(args)}"
                print(f"{'ok  ' if ok else 'FAIL'} {what}: {last}")
                if not ok:
                    failed += 1
                    print(r.stderr[-4000:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
