#!/usr/bin/env python3
"""Latency of two OpenCANN builds side by side, with ONNX Runtime as the yardstick: each
build converts the model with its own atc, then msame of build A, msame of build B and ORT
run interleaved for a few rounds on the same machine state. Use it to show a change does
not slow inference (compare the two OpenCANN/ORT ratios, not absolute times).

usage: bench/compare_builds.py --base OTHER_BUILD [--build build] [--models resnet50,...]
       [--threads 1,2] [--loops 20] [--rounds 3]
"""
import argparse
import os
import statistics
import sys

from model_latency import PEER, ROOT, convert, export, msame_median, ort_median


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True, help="build folder of the version to compare with")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--models", default="resnet50,mobilenet_v2,efficientnet_b0,vit_b_16,bert_encoder")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--loops", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench_models"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if not os.path.exists(PEER):
        print(f"ONNX Runtime peer not found at {PEER}", file=sys.stderr)
        return 1
    print(f"{'model':16}{'thr':>4}{'base/ORT':>10}{'this/ORT':>10}{'this/base':>11}")
    for name in args.models.split(","):
        onnx = export(name, args.out)
        om_base = convert(args.base, onnx, os.path.join(args.out, name + "_base"), name)
        om_this = convert(args.build, onnx, os.path.join(args.out, name + "_this"), name)
        for t in [int(x) for x in args.threads.split(",")]:
            base, this, peer = [], [], []
            for _ in range(args.rounds):
                base.append(msame_median(args.base, om_base, t, args.loops))
                this.append(msame_median(args.build, om_this, t, args.loops))
                peer.append(ort_median(onnx, t, args.loops))
            b, c, p = (statistics.median(v) for v in (base, this, peer))
            print(f"{name:16}{t:>4}{b / p:>10.3f}{c / p:>10.3f}{c / b:>11.3f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
