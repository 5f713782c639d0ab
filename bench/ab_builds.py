#!/usr/bin/env python3
"""Two builds of OpenCANN side by side on the same .om files: msame from build A and from
build B, run interleaved so both see the same machine state; the best of the per-run
medians is kept for each. For changes that must not cost speed (a restructuring, a new
seam): a ratio B / A above 1 means B is slower.

usage: bench/ab_builds.py --a OLD_BUILD --b NEW_BUILD [--models resnet50,mobilenet_v2]
                          [--threads 1,2] [--rounds 3] [--loops 20]

The .om files come from bench/model_latency.py's folder (build/bench_models: run it once
first); both builds must read them (the .om format is shared).
"""
import argparse
import os
import re
import statistics
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))


def median_ms(build, om, threads, loops):
    env = dict(os.environ, OCANN_NUM_THREADS=str(threads))
    r = subprocess.run([os.path.join(build, "bin", "msame"), "--model", om, "--loop",
                        str(loops + 1)], capture_output=True, text=True, env=env, check=True)
    times = [float(t) for t in re.findall(r"Inference time: ([0-9.]+) ?ms", r.stdout)][1:]
    if not times:
        raise RuntimeError(f"msame printed no inference times for {om}")
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", required=True, help="the reference build folder")
    ap.add_argument("--b", default=os.path.join(ROOT, "build"), help="the build to check")
    ap.add_argument("--models", default="resnet50,mobilenet_v2,efficientnet_b0,bert_encoder,vit_b_16")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--loops", type=int, default=20)
    ap.add_argument("--oms", default=os.path.join(ROOT, "build", "bench_models"))
    args = ap.parse_args()
    print("| model | threads | A ms | B ms | B / A |")
    print("| --- | --- | --- | --- | --- |")
    for t in args.threads.split(","):
        for m in args.models.split(","):
            om = os.path.join(args.oms, f"{m}.om")
            a, b = [], []
            for _ in range(args.rounds):
                a.append(median_ms(args.a, om, t, args.loops))
                b.append(median_ms(args.b, om, t, args.loops))
            print(f"| {m} | {t} | {min(a):.2f} | {min(b):.2f} | {min(b) / min(a):.3f} |",
                  flush=True)


if __name__ == "__main__":
    main()
