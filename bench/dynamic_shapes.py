#!/usr/bin/env python3
"""Cost of dynamic shapes: one model compiled with batch gears and fully dynamic (a batch
range), each timed with msame at the same batch, back to back; batch 1 also static.

usage: bench/dynamic_shapes.py [--model mobilenet_v2] [--batches 1,4] [--loops 20]
Prints medians per batch and the ratio fully dynamic / gears.
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
BIN = os.path.join(os.environ.get("OC_BUILD_DIR", os.path.join(ROOT, "build")), "bin")
PY = "/usr/bin/python3"


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{r.stdout}{r.stderr}")
    return r.stdout


def median_ms(om, loops, extra):
    out = run([os.path.join(BIN, "msame"), f"--model={om}", f"--loop={loops}", *extra])
    times = [float(t) for t in re.findall(r"Inference time: ([0-9.]+) ?ms", out)]
    return statistics.median(times[1:])  # the first run of a new shape prepares kernels


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="mobilenet_v2")
    ap.add_argument("--batches", default="1,4")
    ap.add_argument("--loops", type=int, default=20)
    args = ap.parse_args()
    batches = [int(b) for b in args.batches.split(",")]
    work = tempfile.mkdtemp(prefix="oc_dyn_bench_")
    run([PY, os.path.join(ROOT, "tests", "models", "export_models.py"), args.model, "--out", work,
         "--opset", "13"])
    src = os.path.join(work, f"{args.model}.onnx")
    common = [f"--model={src}", "--framework=5", "--soc_version=Ascend910B3"]
    gears = ",".join(str(b) for b in sorted(set(batches + [max(batches) * 2])))
    run([os.path.join(BIN, "atc"), *common, f"--output={work}/gears",
         "--input_shape=input:-1,3,224,224", f"--dynamic_batch_size={gears}"])
    run([os.path.join(BIN, "atc"), *common, f"--output={work}/full",
         f"--input_shape=input:1~{max(batches) * 2},3,224,224"])
    run([os.path.join(BIN, "atc"), *common, f"--output={work}/static"])
    static = median_ms(f"{work}/static.om", args.loops, [])
    print(f"{args.model}: median ms over {args.loops} runs (first run left out); "
          f"static batch 1: {static:.2f} ms")
    print(f"{'batch':>5} {'gears':>9} {'dynamic':>9} {'dynamic/gears':>14}")
    for b in batches:
        gear = median_ms(f"{work}/gears.om", args.loops, [f"--dymBatch={b}"])
        full = median_ms(f"{work}/full.om", args.loops,
                         [f"--dymShape=input:{b},3,224,224", f"--outputSize={b * 4000}"])
        print(f"{b:>5} {gear:>9.2f} {full:>9.2f} {full / gear:>14.2f}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
