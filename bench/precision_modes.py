#!/usr/bin/env python3
"""What the precision modes cost and how far they move the results: each model converted
with must_keep_origin_dtype (fp32), force_fp16 and allow_mix_precision_bf16, timed with
msame (interleaved rounds) and compared with the fp32 outputs (1 - cosine, max |diff|).

usage: bench/precision_modes.py [--models resnet50,bert_encoder] [--threads 2] [--loops 20]
"""
import argparse
import os
import statistics
import sys

import numpy as np

from model_latency import ROOT, convert, export, msame_median

MODES = ["must_keep_origin_dtype", "force_fp16", "allow_mix_precision_bf16"]


def outputs(build, om, x):
    sys.path.insert(0, os.path.join(build, "python"))
    sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
    from acl_helpers import OmModel
    m = OmModel(om)
    y = m.run([x])[0]
    m.close()
    return y.ravel().astype(np.float64)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--models", default="resnet50,efficientnet_b0,bert_encoder")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--loops", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench_models"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    sys.path.insert(0, os.path.join(args.build, "python"))
    import acl
    acl.init()
    acl.rt.set_device(0)
    print(f"{'model':16}{'mode':28}{'ms':>9}{'x fp32':>8}{'1-cos':>10}{'max|d|':>10}")
    for name in args.models.split(","):
        onnx = export(name, args.out)
        x = np.load(os.path.join(args.out, f"{name}.input.npy"))
        oms = {}
        for mode in MODES:
            oms[mode] = convert(args.build, onnx, os.path.join(args.out, f"{name}_{mode}"), name,
                                f"--precision_mode={mode}")
        times = {m: [] for m in MODES}
        for _ in range(args.rounds):
            for m in MODES:
                times[m].append(msame_median(args.build, oms[m], args.threads, args.loops))
        ref = outputs(args.build, oms[MODES[0]], x)
        for m in MODES:
            y = outputs(args.build, oms[m], x)
            cos = float(np.dot(y, ref) / (np.linalg.norm(y) * np.linalg.norm(ref) + 1e-300))
            t = statistics.median(times[m])
            t0 = statistics.median(times[MODES[0]])
            print(f"{name:16}{m:28}{t:>9.2f}{t / t0:>8.2f}{1 - cos:>10.2e}"
                  f"{np.abs(y - ref).max():>10.2e}", flush=True)
    acl.finalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
