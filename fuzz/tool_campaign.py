"""Structure-aware mutation campaign through the real tools: ONNX models (ONNX's own node
test models and fuzz/corpus/onnx_import) mutated at the protobuf level, converted with atc,
and every .om atc writes run with msame on zero inputs. Independent of the libFuzzer
harnesses: it sees what a user sees, process exits and files.

    /usr/bin/python3 fuzz/tool_campaign.py --build build --cases 2000 [--seed 1]

A finding is a crash or sanitizer report of either tool (a signal, or exit status >= 128),
a hang (past --timeout), a half-written .om, or a wrong success: atc succeeded and msame
cannot load what it wrote (a clean refusal at execution, zero inputs being values the
model cannot take, is counted but is not a finding). Findings are copied to fuzz/findings/campaign-*.onnx;
the summary table is printed at the end. Exit 1 on any finding.
"""
import argparse
import collections
import glob
import os
import random
import shutil
import subprocess
import sys
import tempfile

import onnx
from onnx import TensorProto

HERE = os.path.dirname(os.path.abspath(__file__))
BOUNDARY_INTS = [0, -1, 1, 2, 3, -5, 2**31, 2**31 - 1, 2**40, 2**62, -2**63, 2**63 - 1]
DTYPES = [0, 1, 2, 3, 6, 7, 8, 9, 10, 11, 16, 999, -1]


def seeds(limit):
    import onnx.backend.test
    root = os.path.join(os.path.dirname(onnx.backend.test.__file__), "data", "node")
    paths = sorted(glob.glob(os.path.join(root, "*", "model.onnx")))
    paths += sorted(glob.glob(os.path.join(HERE, "corpus", "onnx_import", "*.onnx")))
    out = []
    for p in paths:
        try:
            m = onnx.load(p, load_external_data=False)
        except Exception:
            continue
        if m.ByteSize() < 200_000:
            out.append((p, m.SerializeToString()))
    return out[:limit] if limit else out


def all_graphs(g):
    yield g
    for n in g.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                yield from all_graphs(a.g)


def names_of(g):
    names = [v.name for v in list(g.input) + list(g.output) + list(g.value_info)]
    names += [t.name for t in g.initializer]
    for n in g.node:
        names += list(n.input) + list(n.output)
    return [n for n in names if n] or ["x"]


def mutate(m, rng):
    """One structural mutation, chosen at random; returns its name."""
    graphs = list(all_graphs(m.graph))
    g = rng.choice(graphs)
    nodes = list(g.node)
    kind = rng.choice([
        "empty_input", "duplicate_name", "drop_input", "extra_input", "cycle", "attr_kind",
        "attr_int", "dtype", "dim", "raw_short", "raw_long", "op_type", "opset", "drop_node",
        "drop_subgraph", "empty_subgraph", "bad_utf8", "drop_output", "initializer_dims",
    ])
    if kind == "empty_input" and nodes:
        n = rng.choice(nodes)
        if n.input:
            n.input[rng.randrange(len(n.input))] = ""
    elif kind == "duplicate_name" and nodes:
        n = rng.choice(nodes)
        if n.output:
            n.output[rng.randrange(len(n.output))] = rng.choice(names_of(g))
    elif kind == "drop_input" and nodes:
        n = rng.choice(nodes)
        if n.input:
            del n.input[rng.randrange(len(n.input))]
    elif kind == "extra_input" and nodes:
        rng.choice(nodes).input.append(rng.choice(names_of(g) + ["nowhere"]))
    elif kind == "cycle" and len(nodes) >= 1:
        a, b = rng.choice(nodes), rng.choice(nodes)
        if a.input and b.output:
            a.input[rng.randrange(len(a.input))] = b.output[0]
    elif kind in ("attr_kind", "attr_int") and nodes:
        n = rng.choice(nodes)
        if n.attribute:
            a = rng.choice(n.attribute)
            if kind == "attr_kind":
                a.type = rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 11, 13])
            else:
                a.i = rng.choice(BOUNDARY_INTS)
                a.ints[:] = [rng.choice(BOUNDARY_INTS) for _ in range(rng.randrange(0, 5))]
                a.type = rng.choice([onnx.AttributeProto.INT, onnx.AttributeProto.INTS])
    elif kind == "dtype":
        vals = list(g.input) + list(g.output) + list(g.value_info)
        if vals:
            rng.choice(vals).type.tensor_type.elem_type = rng.choice(DTYPES)
        elif g.initializer:
            rng.choice(g.initializer).data_type = rng.choice(DTYPES)
    elif kind == "dim":
        vals = [v for v in list(g.input) + list(g.output) + list(g.value_info)
                if v.type.tensor_type.shape.dim]
        if vals:
            d = rng.choice(vals[0:]).type.tensor_type.shape.dim
            d[rng.randrange(len(d))].dim_value = rng.choice(BOUNDARY_INTS)
    elif kind in ("raw_short", "raw_long") and g.initializer:
        t = rng.choice(g.initializer)
        if t.raw_data:
            t.raw_data = t.raw_data[: len(t.raw_data) // 2] if kind == "raw_short" \
                else t.raw_data + b"\0" * rng.choice([1, 4, 4096])
    elif kind == "initializer_dims" and g.initializer:
        t = rng.choice(g.initializer)
        t.dims[:] = [rng.choice(BOUNDARY_INTS) for _ in range(rng.randrange(0, 4))]
    elif kind == "op_type" and nodes:
        rng.choice(nodes).op_type = rng.choice(["NoSuchOp", "", "Loop", "If", "Scan", "Add",
                                                "Reshape", "LSTM", "Conv"])
    elif kind == "opset" and m.opset_import:
        m.opset_import[0].version = rng.choice([1, 6, 7, 9, 11, 13, 17, 21, 99, 0])
    elif kind == "drop_node" and nodes:
        del g.node[rng.randrange(len(nodes))]
    elif kind in ("drop_subgraph", "empty_subgraph"):
        with_graph = [(n, a) for n in nodes for a in n.attribute if a.type == a.GRAPH]
        if with_graph:
            n, a = rng.choice(with_graph)
            if kind == "drop_subgraph":
                n.attribute.remove(a)
            else:
                a.g.Clear()
    elif kind == "bad_utf8" and nodes:
        rng.choice(nodes).name = "bad-name-\u00ff"
        return "bad_utf8"  # made invalid at the byte level in mutate_bytes
    elif kind == "drop_output" and g.output:
        del g.output[rng.randrange(len(g.output))]
    return kind


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=timeout)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return "hang", ""


def crashed(rc, log):
    return rc == "hang" or (isinstance(rc, int) and (rc < 0 or rc >= 128)) or \
        "Sanitizer" in log or "runtime error:" in log


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--cases", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--seeds", type=int, default=0, help="use the first N seed models (0: all)")
    args = ap.parse_args()
    atc = os.path.join(args.build, "bin", "atc")
    msame = os.path.join(args.build, "bin", "msame")
    rng = random.Random(args.seed)
    pool = seeds(args.seeds)
    findings_dir = os.path.join(HERE, "findings")
    os.makedirs(findings_dir, exist_ok=True)
    counts = collections.Counter()
    by_kind = collections.Counter()
    findings = []
    work = tempfile.mkdtemp(prefix="oc-campaign-")
    # The campaign is about structure, not capacity: a mutated dim of 2^31 is a valid model
    # this host may not have the memory for. Tensors are bounded at 256 MiB, so atc refuses
    # those by the documented bound instead of msame meeting the kernel's OOM killer.
    os.environ["OMP_NUM_THREADS"] = "1"
    os.environ.setdefault("OCANN_MAX_TENSOR_BYTES", str(256 << 20))
    for case in range(args.cases):
        path, raw = rng.choice(pool)
        m = onnx.ModelProto()
        m.ParseFromString(raw)
        kinds = [mutate(m, rng) for _ in range(rng.choice([1, 1, 2, 3]))]
        data = m.SerializeToString()
        if "bad_utf8" in kinds:
            data = data.replace("bad-name-\u00ff".encode(), b"bad-name-\xff\xfe")
        src = os.path.join(work, "m.onnx")
        with open(src, "wb") as f:
            f.write(data)
        out = os.path.join(work, "m")
        for leftover in glob.glob(out + ".om*"):
            os.remove(leftover)
        rc, log = run([atc, f"--model={src}", "--framework=5", f"--output={out}",
                       "--soc_version=Ascend310P3", "--log=error"], args.timeout)
        kind = None
        if crashed(rc, log):
            kind = "atc crash" if rc != "hang" else "atc hang"
        elif rc == 0:
            counts["atc accepted"] += 1
            rc2, log2 = run([msame, f"--model={out}.om", f"--output={work}/o",
                             "--outfmt=BIN"], args.timeout)
            shutil.rmtree(os.path.join(work, "o"), ignore_errors=True)
            if crashed(rc2, log2):
                kind = "msame crash" if rc2 != "hang" else "msame hang"
            elif rc2 != 0 and "[ERROR] load model" in log2:
                kind = "wrong success"
                log = log2
            elif rc2 != 0:
                # Zero inputs may be values the model cannot take (a Reshape's shape, an
                # index): a clean refusal at execution is the model's, not atc's.
                counts["refused at execution"] += 1
            else:
                counts["ran"] += 1
        else:
            counts["atc refused"] += 1
            if glob.glob(out + ".om*"):
                kind = "half-written .om"
        for k in kinds:
            by_kind[k] += 1
        if kind:
            counts[kind] += 1
            keep = os.path.join(findings_dir, f"campaign-{args.seed}-{case}.onnx")
            with open(keep, "wb") as f:
                f.write(data)
            last = [line for line in log.splitlines() if line.strip()][-3:]
            seed_name = os.path.basename(os.path.dirname(path)) if path.endswith("model.onnx") \
                else os.path.basename(path)
            findings.append((kind, seed_name, "+".join(kinds), keep, last))
    shutil.rmtree(work, ignore_errors=True)
    print(f"{args.cases} cases from {len(pool)} seed models (seed {args.seed})")
    print("| outcome | cases |\n| --- | --- |")
    for k in ["atc refused", "atc accepted", "ran", "refused at execution", "atc crash", "atc hang", "msame crash",
              "msame hang", "wrong success", "half-written .om"]:
        print(f"| {k} | {counts[k]} |")
    print("mutations applied: " + ", ".join(f"{k} {v}" for k, v in sorted(by_kind.items())))
    for kind, seed_path, kinds, keep, last in findings:
        print(f"FINDING {kind}: seed {seed_path}, mutations {kinds}, input {keep}")
        for line in last:
            print("    " + line[:300])
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
