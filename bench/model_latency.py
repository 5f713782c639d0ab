#!/usr/bin/env python3
"""Latency of OpenCANN (msame on the .om) next to ONNX Runtime (../shared/peers/ort-bench)
on the same ONNX model, run back to back so both see the same machine state.

usage: bench/model_latency.py [--models resnet50,bert_encoder] [--threads 1,2] [--loops 20]
Prints one row per model and thread count with both medians and the ratio
(OpenCANN / ONNX Runtime: below 1 means OpenCANN is faster).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
PEER = os.path.abspath(os.path.join(ROOT, "..", "shared", "peers", "ort-bench"))
PY = "/usr/bin/python3"


def export(name, out):
    if not os.path.exists(os.path.join(out, f"{name}.onnx")):
        subprocess.run([PY, os.path.join(ROOT, "tests", "models", "export_models.py"), name,
                        "--out", out, "--opset", "11"], check=True, capture_output=True)
    return os.path.join(out, f"{name}.onnx")


def input_shape(name):
    return "input_ids:1,128" if name == "bert_encoder" else "input:1,3,224,224"


def convert(build, onnx, om, name, *flags):
    """atc of `build` on the model; returns the .om path."""
    subprocess.run([os.path.join(build, "bin", "atc"), f"--model={onnx}", "--framework=5",
                    f"--output={om}", "--soc_version=Ascend910B3",
                    f"--input_shape={input_shape(name)}", *flags], check=True, capture_output=True)
    return om + ".om"


def msame_median(build, om, threads, loops):
    env = dict(os.environ, OCANN_NUM_THREADS=str(threads))
    r = subprocess.run([os.path.join(build, "bin", "msame"), "--model", om, "--loop", str(loops + 1)],
                       capture_output=True, text=True, env=env, check=True)
    times = [float(m) for m in re.findall(r"Inference time: ([0-9.]+) ?ms", r.stdout)][1:]
    return statistics.median(times)


def ort_median(onnx, threads, loops):
    r = subprocess.run([PEER, onnx, "--threads", str(threads), "--iters", str(loops)],
                       capture_output=True, text=True, check=True)
    return float(re.search(r"median_ms=([0-9.]+)", r.stdout).group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--models", default="resnet50,mobilenet_v2,efficientnet_b0,vit_b_16,bert_encoder")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--loops", type=int, default=20)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench_models"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if not os.path.exists(PEER):
        print(f"ONNX Runtime peer not found at {PEER}", file=sys.stderr)
        return 1
    print(f"{'model':18}{'threads':>8}{'OpenCANN ms':>13}{'ORT ms':>10}{'ratio':>8}")
    for name in args.models.split(","):
        onnx = export(name, args.out)
        om = convert(args.build, onnx, os.path.join(args.out, name), name)
        for t in [int(x) for x in args.threads.split(",")]:
            ours = msame_median(args.build, om, t, args.loops)
            peer = ort_median(onnx, t, args.loops)
            print(f"{name:18}{t:>8}{ours:>13.2f}{peer:>10.2f}{ours / peer:>8.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
