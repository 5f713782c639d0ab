#!/usr/bin/env python3
"""OpenCANN (msame on the .om) next to ONNX Runtime (../shared/peers/ort-bench) on the same
ONNX models, run interleaved so both see the same machine state.

usage: bench/model_latency.py [--models resnet50,bert_encoder] [--threads 1,2] [--loops 20]
                              [--rounds 2] [--busy] [--memory] [--load] [--all] [--bf16]
                              [--peak-gflops 200] [--write-docs]

Latency: each round runs msame and ort-bench once per model and thread count; the best
median over the rounds is kept (p90 beside it). --busy repeats the rounds while a bounded
busy loop holds every core (a library inside an application must not spin against it).
--memory samples each process's resident set (VmRSS) while it runs and reports the median of
the middle half (steady inference) and the peak. --load times aclmdlLoadFromFile to the first
result against ONNX Runtime's session creation plus first run. The fraction of peak is the
model's convolution and matmul FLOPs per second over the machine's fp32 FMA peak
(--peak-gflops per core, 200 for this machine kind: 2 FMA units x 16 lanes x 2 x ~3.1 GHz).
--bf16 converts --bf16-models with --precision_mode=allow_mix_precision_bf16 and times them
against ORT's fp32, with the cosine similarity of output 0 to OpenCANN's fp32 output on the
model's reference input. --write-docs replaces the tables in docs/performance.md. Ratios are OpenCANN / ORT: below 1
means OpenCANN is faster or smaller. Compare ratios, not absolute times.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
PEER = os.path.abspath(os.path.join(ROOT, "..", "shared", "peers", "ort-bench"))
PY = "/usr/bin/python3"
DOC = os.path.join(ROOT, "docs", "performance.md")


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


def msame_times(build, om, threads, loops, env=None):
    env = dict(env or os.environ, OCANN_NUM_THREADS=str(threads))
    r = subprocess.run([os.path.join(build, "bin", "msame"), "--model", om, "--loop", str(loops + 1)],
                       capture_output=True, text=True, env=env, check=True)
    times = [float(m) for m in re.findall(r"Inference time: ([0-9.]+) ?ms", r.stdout)][1:]
    return statistics.median(times), sorted(times)[min(len(times) - 1, int(0.9 * len(times)))]


def msame_output(build, om, npy):
    """Output 0 of one run of om on the input saved beside the model (float32)."""
    import numpy as np
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([os.path.join(build, "bin", "msame"), "--model", om, "--input", npy,
                        "--output", d, "--outfmt", "BIN"], check=True, capture_output=True)
        for root, _, files in os.walk(d):
            for f in files:
                if f.endswith("_output_0.bin"):
                    return np.fromfile(os.path.join(root, f), dtype=np.float32)
    raise RuntimeError(f"msame wrote no output for {om}")


def cosine(a, b):
    import numpy as np
    a, b = a.astype(np.float64), b.astype(np.float64)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def msame_median(build, om, threads, loops):
    return msame_times(build, om, threads, loops)[0]


def ort_times(onnx, threads, loops):
    r = subprocess.run([PEER, onnx, "--threads", str(threads), "--iters", str(loops)],
                       capture_output=True, text=True, check=True)
    med = float(re.search(r"median_ms=([0-9.]+)", r.stdout).group(1))
    p90 = float(re.search(r"p90_ms=([0-9.]+)", r.stdout).group(1))
    return med, p90


def ort_median(onnx, threads, loops):
    return ort_times(onnx, threads, loops)[0]


def model_gflop(onnx_path):
    """Convolution and matmul FLOPs (2 per multiply-add) of one inference, from the ONNX graph
    with shapes inferred at batch 1."""
    import numpy as np
    import onnx
    from onnx import shape_inference
    m = onnx.load(onnx_path)
    for i in m.graph.input:
        for d in i.type.tensor_type.shape.dim:
            if not d.dim_value:
                d.dim_value = 1
    m = shape_inference.infer_shapes(m)
    shapes = {}
    for v in list(m.graph.value_info) + list(m.graph.input) + list(m.graph.output):
        shapes[v.name] = [d.dim_value for d in v.type.tensor_type.shape.dim]
    for t in m.graph.initializer:
        shapes[t.name] = list(t.dims)
    flops = 0
    for n in m.graph.node:
        if n.op_type == "Conv" and n.input[1] in shapes and n.output[0] in shapes:
            w, y = shapes[n.input[1]], shapes[n.output[0]]
            flops += 2 * int(np.prod(y)) * int(np.prod(w[1:]))
        elif n.op_type in ("MatMul", "Gemm") and all(x in shapes for x in n.input[:2]):
            a, b = shapes[n.input[0]], shapes[n.input[1]]
            if n.op_type == "Gemm":
                trans_a = any(at.name == "transA" and at.i for at in n.attribute)
                trans_b = any(at.name == "transB" and at.i for at in n.attribute)
                mdim, k = (a[1], a[0]) if trans_a else (a[0], a[1])
                ndim = b[0] if trans_b else b[1]
                flops += 2 * mdim * k * ndim
            elif len(a) >= 2 and len(b) >= 2:
                batch = int(np.prod(a[:-2])) if len(a) > 2 else 1
                flops += 2 * batch * a[-2] * a[-1] * b[-1]
    return flops / 1e9


def sample_rss(cmd, env=None):
    """Runs cmd, sampling VmRSS every 20 ms: (peak MB, median of the middle half in MB)."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    samples = []
    while p.poll() is None:
        try:
            for line in open(f"/proc/{p.pid}/status"):
                if line.startswith("VmRSS:"):
                    samples.append(int(line.split()[1]) / 1024)
        except OSError:
            pass
        time.sleep(0.02)
    if not samples:
        return 0.0, 0.0
    mid = sorted(samples[len(samples) // 4: len(samples) // 4 + max(1, len(samples) // 2)])
    return max(samples), mid[len(mid) // 2]


def ours_load_ms(build, om, threads):
    code = textwrap.dedent(f"""
        import sys, time, numpy as np, acl
        sys.path.insert(0, "{os.path.join(ROOT, 'tests', 'e2e')}")
        from acl_helpers import OmModel
        acl.init(); acl.rt.set_device(0)
        t0 = time.perf_counter()
        m = OmModel("{om}")
        t1 = time.perf_counter()
        xs = []
        for i in range(m.n_in):
            size = acl.mdl.get_input_size_by_index(m.desc, i)
            dt = acl.mdl.get_input_data_type(m.desc, i)
            xs.append(np.zeros(size // (8 if dt == 9 else 4), dtype=np.int64 if dt == 9 else np.float32))
        m.run(xs)
        t2 = time.perf_counter()
        print((t1 - t0) * 1e3, (t2 - t1) * 1e3)
        """)
    env = dict(os.environ, PYTHONPATH=os.path.join(build, "python"), OCANN_NUM_THREADS=str(threads))
    r = subprocess.run([PY, "-c", code], env=env, capture_output=True, text=True, check=True)
    load, first = (float(v) for v in r.stdout.split()[-2:])
    return load, first


def ort_load_ms(onnx, threads):
    module = os.path.join(os.environ.get("ORT_PEER_DIR", os.path.expanduser("~/.cache/ort-peer")),
                          "node_modules", "onnxruntime-node")
    env = dict(os.environ, ORT_NODE_MODULE=module)
    r = subprocess.run(["node", os.path.join(ROOT, "bench", "ort_load.js"), onnx, "--threads",
                        str(threads)], capture_output=True, text=True, env=env, check=True)
    create = float(re.search(r"create_ms=([0-9.]+)", r.stdout).group(1))
    first = float(re.search(r"first_run_ms=([0-9.]+)", r.stdout).group(1))
    return create, first


class BusyLoad:
    """A bounded busy loop on every core (each its own process pinned to one core)."""

    def __enter__(self):
        def spin(core):
            return subprocess.Popen([PY, "-c", "import os, time\n"
                                     f"os.sched_setaffinity(0, {{{core}}})\n"
                                     "end = time.time() + 900\n"
                                     "while time.time() < end: pass\n"])
        self.procs = [spin(c) for c in range(os.cpu_count() or 1)]
        time.sleep(0.5)
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            p.kill()
        for p in self.procs:
            p.wait()


def latency_rows(args, models, busy):
    rows = []
    for t in args.thread_list:
        best = {}
        for _ in range(args.rounds):
            for name, (onnx, om, _) in models.items():
                ours = msame_times(args.build, om, t, args.loops)
                peer = ort_times(onnx, t, args.loops)
                prev = best.get(name)
                best[name] = (min(ours, prev[0]) if prev else ours, min(peer, prev[1]) if prev else peer)
        for name in models:
            rows.append((name, t, busy, *best[name]))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--models", default="resnet50,mobilenet_v2,efficientnet_b0,bert_encoder,vit_b_16")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--loops", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--busy", action="store_true", help="also run under a background CPU load")
    ap.add_argument("--memory", action="store_true", help="resident memory during inference")
    ap.add_argument("--load", action="store_true", help="load-to-first-result time")
    ap.add_argument("--all", action="store_true", help="--busy --memory --load")
    ap.add_argument("--bf16", action="store_true",
                    help="also allow_mix_precision_bf16 builds against ORT's fp32, with the cosine "
                         "similarity of their outputs to OpenCANN's fp32 ones")
    ap.add_argument("--bf16-models", default="resnet50,efficientnet_b0,bert_encoder")
    ap.add_argument("--peak-gflops", type=float, default=200.0, help="fp32 FMA peak per core")
    ap.add_argument("--write-docs", action="store_true", help="replace the tables in docs/performance.md")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench_models"))
    args = ap.parse_args()
    if args.all:
        args.busy = args.memory = args.load = True
    args.thread_list = [int(x) for x in args.threads.split(",")]
    os.makedirs(args.out, exist_ok=True)
    if not os.path.exists(PEER):
        print(f"ONNX Runtime peer not found at {PEER}", file=sys.stderr)
        return 1
    models = {}
    for name in args.models.split(","):
        onnx = export(name, args.out)
        t0 = time.perf_counter()
        om = convert(args.build, onnx, os.path.join(args.out, name), name)
        models[name] = (onnx, om, time.perf_counter() - t0)
    gflop = {name: model_gflop(onnx) for name, (onnx, _, _) in models.items()}

    out = []
    rows = latency_rows(args, models, False)
    busy_rows = []
    if args.busy:
        with BusyLoad():
            busy_rows = latency_rows(args, models, True)
    busy_by = {(r[0], r[1]): r for r in busy_rows}
    out.append("| model | GFLOP | threads | OpenCANN ms (p90) | ORT ms (p90) | ratio | of peak |"
               + (" busy: OpenCANN / ORT ms | busy ratio |" if args.busy else ""))
    out.append("| --- | --- | --- | --- | --- | --- | --- |" + (" --- | --- |" if args.busy else ""))
    for name, t, _, (om_med, om_p90), (ort_med, ort_p90) in rows:
        peak = gflop[name] / (om_med / 1e3) / (args.peak_gflops * t)
        line = (f"| {name} | {gflop[name]:.2f} | {t} | {om_med:.2f} ({om_p90:.2f}) | "
                f"{ort_med:.2f} ({ort_p90:.2f}) | {om_med / ort_med:.2f} | {peak * 100:.0f}% |")
        if args.busy:
            b = busy_by[(name, t)]
            line += f" {b[3][0]:.2f} / {b[4][0]:.2f} | {b[3][0] / b[4][0]:.2f} |"
        out.append(line)
    if args.memory or args.load:
        out.append("")
        out.append("| model | OpenCANN RSS MB (peak) | ORT RSS MB (peak) | RSS ratio | OpenCANN load + first ms |"
                   " ORT create + first ms | load ratio | atc s |")
        out.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
        t = args.thread_list[-1]
        for name, (onnx, om, atc_s) in models.items():
            mem = load = ("", "", "")
            if args.memory:
                env = dict(os.environ, OCANN_NUM_THREADS=str(t))
                o_peak, o_steady = sample_rss([os.path.join(args.build, "bin", "msame"), "--model", om,
                                               "--loop", str(args.loops * 3)], env)
                r_peak, r_steady = sample_rss([PEER, onnx, "--threads", str(t), "--iters", str(args.loops * 3)])
                mem = (f"{o_steady:.0f} ({o_peak:.0f})", f"{r_steady:.0f} ({r_peak:.0f})",
                       f"{o_steady / r_steady:.2f}")
            if args.load:
                lo = min(sum(ours_load_ms(args.build, om, t)) for _ in range(args.rounds))
                lr = min(sum(ort_load_ms(onnx, t)) for _ in range(args.rounds))
                load = (f"{lo:.0f}", f"{lr:.0f}", f"{lo / lr:.2f}")
            out.append(f"| {name} | {mem[0]} | {mem[1]} | {mem[2]} | {load[0]} | {load[1]} | {load[2]} | "
                       f"{atc_s:.1f} |")
    if args.bf16:
        out.append("")
        out.append("| model, allow_mix_precision_bf16 | threads | OpenCANN bf16 ms (p90) | ORT fp32 ms (p90) |"
                   " ratio | cosine to fp32 |")
        out.append("| --- | --- | --- | --- | --- | --- |")
        low = {}
        for name in args.bf16_models.split(","):
            if name not in models:
                continue
            onnx, om, _ = models[name]
            om16 = convert(args.build, onnx, os.path.join(args.out, f"{name}_bf16"), name,
                           "--precision_mode=allow_mix_precision_bf16")
            npy = os.path.join(args.out, f"{name}.input.npy")
            cos = cosine(msame_output(args.build, om16, npy), msame_output(args.build, om, npy))
            low[name] = (onnx, om16, cos)
        for t in args.thread_list:
            best = {}
            for _ in range(args.rounds):
                for name, (onnx, om16, _) in low.items():
                    ours = msame_times(args.build, om16, t, args.loops)
                    peer = ort_times(onnx, t, args.loops)
                    prev = best.get(name)
                    best[name] = (min(ours, prev[0]) if prev else ours, min(peer, prev[1]) if prev else peer)
            for name, (o, r) in best.items():
                out.append(f"| {name} | {t} | {o[0]:.2f} ({o[1]:.2f}) | {r[0]:.2f} ({r[1]:.2f}) | "
                           f"{o[0] / r[0]:.2f} | {low[name][2]:.5f} |")
    text = "\n".join(out)
    print(text)
    if args.write_docs:
        doc = open(DOC).read()
        begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
        stamp = (f"`bench/model_latency.py {' '.join(sys.argv[1:])}` on {os.cpu_count()} cores, "
                 f"{time.strftime('%Y-%m-%d')}:")
        new = f"{begin}\n{stamp}\n\n{text}\n{end}"
        doc = doc[:doc.index(begin)] + new + doc[doc.index(end) + len(end):]
        open(DOC, "w").write(doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
