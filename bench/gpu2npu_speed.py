#!/usr/bin/env python3
"""gpu2npu analyse on a generated 100,000-line Python project (issue 6: under 2 seconds).

usage: bench/gpu2npu_speed.py [--lines 100000] [--runs 3]
Writes the project to a temporary folder (200 files of training-script-like code with CUDA
signals, comments and docstrings) and prints the median wall time of `gpu2npu analyse`."""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
TOOL = os.path.join(os.environ.get("OC_BUILD_DIR", os.path.join(ROOT, "build")), "bin", "gpu2npu")

BLOCK = '''
def step_{i}(model, batch, optimizer):
    """Moves the batch to .cuda() and runs one step (docstring: no finding)."""
    # torch.cuda.synchronize() in a comment: no finding
    x, y = batch[0].cuda(non_blocking=True), batch[1].to("cuda:0")
    with torch.cuda.amp.autocast():
        loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
    return float(loss)
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        per_file, lines, f = 500, 0, 0
        while lines < args.lines:
            text = "import torch\nimport torch.distributed as dist\n"
            i = 0
            while text.count("\n") < per_file:
                text += BLOCK.format(i=i)
                i += 1
            text += 'dist.init_process_group(backend="nccl")\n'
            with open(os.path.join(d, f"module_{f:04d}.py"), "w") as fh:
                fh.write(text)
            lines += text.count("\n")
            f += 1
        times = []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            r = subprocess.run([TOOL, "analyse", d, "--format", "json"], capture_output=True, text=True)
            times.append(time.perf_counter() - t0)
            assert r.returncode == 1, r.stderr
        findings = r.stdout.count('"rule":')
        print(f"{lines} lines in {f} files, {findings} findings: median {statistics.median(times):.2f} s "
              f"over {args.runs} runs (target: under 2 s)")


if __name__ == "__main__":
    main()
