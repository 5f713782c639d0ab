#!/usr/bin/python3
"""Runs ONNX backend test cases through the real OpenCANN path: atc compiles each
model.onnx to an .om, AscendCL (pyACL) loads and executes it in a forked process (so a
crash is contained and reported), and every output is compared with the reference
(exact dtype and shape; values with rtol 1e-3, atol 1e-5; NaN where NaN).

usage: oc-conformance DIR [DIR ...] [--json results.json] [--expect expected.json]
                      [--update-expected expected.json] [--filter SUBSTR] [-v]
DIR is a folder of cases (each a folder with model.onnx and test_data_set_*/) or one case.
Prints one line per case, then "N passed, N failed, N skipped". With --expect, exits 1 when
a case's result differs from the list (a pass that regressed, or a listed failure that
now passes), so the list stays true.
"""
import argparse
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
RTOL, ATOL = 1e-3, 1e-5
CASE_TIMEOUT_S = 120

def find_build():
    for cand in (os.environ.get("OC_BUILD_DIR"), os.path.join(HERE, ".."),
                 os.path.join(HERE, "..", "..", "build")):
        if cand and os.path.exists(os.path.join(cand, "bin", "atc")):
            return os.path.abspath(cand)
    sys.exit("oc-conformance: cannot find the build folder (set OC_BUILD_DIR)")


def find_cases(paths, filt):
    cases = []
    for p in paths:
        if os.path.exists(os.path.join(p, "model.onnx")):
            cases.append(p)
        else:
            cases += sorted(os.path.dirname(m) for m in glob.glob(os.path.join(p, "*", "model.onnx")))
    return [c for c in cases if not filt or filt in c]


def case_name(path):
    return f"{os.path.basename(os.path.dirname(path))}/{os.path.basename(path)}"


def load_pb(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def data_sets(case):
    sets = []
    for d in sorted(glob.glob(os.path.join(case, "test_data_set_*"))):
        ins = [load_pb(p) for p in sorted(glob.glob(os.path.join(d, "input_*.pb")),
                                          key=lambda p: int(p.rsplit("_", 1)[1][:-3]))]
        outs = [load_pb(p) for p in sorted(glob.glob(os.path.join(d, "output_*.pb")),
                                           key=lambda p: int(p.rsplit("_", 1)[1][:-3]))]
        sets.append((ins, outs))
    return sets


def graph_inputs(model):
    inits = {i.name for i in model.graph.initializer}
    return [i for i in model.graph.input if i.name not in inits]


def shape_flag(model, inputs):
    """--input_shape for inputs whose model shape is not fully static."""
    parts = []
    for vi, arr in zip(graph_inputs(model), inputs):
        tt = vi.type.tensor_type
        static = tt.HasField("shape") and all(d.HasField("dim_value") for d in tt.shape.dim)
        if not static:
            parts.append(f"{vi.name}:{','.join(str(d) for d in arr.shape)}")
    return ";".join(parts)


def compare(got, want):
    """Returns (ok, detail, max_error)."""
    if got.dtype != want.dtype:
        return False, f"dtype {got.dtype} != {want.dtype}", None
    if got.shape != want.shape:
        return False, f"shape {got.shape} != {want.shape}", None
    if want.dtype == np.bool_ or np.issubdtype(want.dtype, np.integer):
        bad = int((got != want).sum())
        return bad == 0, f"{bad} elements differ" if bad else "", float(bad)
    with np.errstate(invalid="ignore", over="ignore"):
        return _compare_float(got.astype(np.float64), want.astype(np.float64))


def _compare_float(g, w):
    nan_ok = np.array_equal(np.isnan(g), np.isnan(w))
    finite = ~np.isnan(w)
    err = np.abs(g[finite] - w[finite])
    tol = ATOL + RTOL * np.abs(w[finite])
    inf_ok = np.array_equal(np.isinf(g), np.isinf(w))
    bad = int(((err > tol) & ~np.isinf(w[finite])).sum())
    max_err = float(np.nanmax(np.where(np.isinf(err), 0, err))) if err.size else 0.0
    ok = nan_ok and inf_ok and bad == 0
    return ok, "" if ok else f"max |error| {max_err:.3g}, {bad} elements over tolerance", max_err


def non_tensor_io(model):
    """Names of graph inputs/outputs that are not tensors (sequences, optionals, maps)."""
    out = []
    for vi in list(model.graph.input) + list(model.graph.output):
        if not vi.type.HasField("tensor_type"):
            out.append(vi.name)
        elif vi.type.tensor_type.elem_type == onnx.TensorProto.STRING:
            out.append(vi.name)
    return out


def run_case(case, build, tmp):
    model = onnx.load(os.path.join(case, "model.onnx"), load_external_data=False)
    odd = non_tensor_io(model)
    if odd:
        return {"status": "unsupported",
                "detail": "Sequence, Optional and string tensors are not supported: " + ", ".join(odd)}
    sets = data_sets(case)
    if not sets:
        return {"status": "skipped", "detail": "no test data"}
    om_base = os.path.join(tmp, "model")
    flag = shape_flag(model, sets[0][0])
    cmd = [os.path.join(build, "bin", "atc"), f"--model={os.path.join(case, 'model.onnx')}",
           "--framework=5", f"--output={om_base}", "--soc_version=Ascend910B3"]
    if flag:
        cmd.append(f"--input_shape={flag}")
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=CASE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return {"status": "failed", "detail": "atc timed out"}
    if r.returncode < 0:
        return {"status": "failed", "detail": f"atc crashed with signal {-r.returncode}"}
    if r.returncode != 0:
        lines = [l for l in r.stdout.splitlines() if l and not l.startswith("ATC ")]
        return {"status": "unsupported", "detail": " ".join(lines)[:400]}
    worst = 0.0
    for ins, outs in sets:
        res = run_forked(build, om_base + ".om", ins, [max(o.nbytes, 1) for o in outs])
        if "error" in res:
            return {"status": "failed", "detail": res["error"]}
        got = res["outputs"]
        if len(got) != len(outs):
            return {"status": "failed", "detail": f"{len(got)} outputs, expected {len(outs)}"}
        for i, (g, w) in enumerate(zip(got, outs)):
            ok, detail, err = compare(g, w)
            if not ok:
                return {"status": "failed", "detail": f"output {i}: {detail}", "max_error": err}
            if err is not None:
                worst = max(worst, err)
    return {"status": "passed", "max_error": worst}


def run_forked(build, om, inputs, output_bytes):
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(rfd)
        code = 0
        try:
            import pickle
            sys.path.insert(0, HERE)
            import acl
            from acl_runner import run_om
            outs = run_om(acl, om, inputs, output_bytes)
            payload = pickle.dumps({"outputs": outs})
        except Exception as e:  # reported, not raised: the parent decides
            import pickle
            payload = pickle.dumps({"error": str(e)[:400]})
            code = 1
        with os.fdopen(wfd, "wb") as w:
            w.write(payload)
        os._exit(code)
    os.close(wfd)
    import pickle
    data = b""
    deadline = time.time() + CASE_TIMEOUT_S
    with os.fdopen(rfd, "rb") as rf:
        import select
        while True:
            left = deadline - time.time()
            if left <= 0:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return {"error": "execution timed out"}
            ready, _, _ = select.select([rf], [], [], left)
            if not ready:
                continue
            chunk = os.read(rf.fileno(), 1 << 20)
            if not chunk:
                break
            data += chunk
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return {"error": f"runtime crashed with signal {os.WTERMSIG(status)}"}
    try:
        return pickle.loads(data)
    except Exception:
        return {"error": "no result from the execution process"}


def write_markdown(path, results, reasons):
    folders = {}
    for name, res in results.items():
        f = folders.setdefault(name.split("/")[0], {"passed": 0, "failed": 0, "unsupported": 0})
        f[res["status"] if res["status"] in f else "unsupported"] += 1
    lines = ["# ONNX conformance", "",
             "Generated by `oc-conformance --markdown` over Debian's `libonnx-testdata` (ONNX 1.12):",
             "each case is compiled by atc, loaded and executed through AscendCL, and compared",
             f"with rtol {RTOL}, atol {ATOL} and exact dtype and shape.", "",
             "| folder | passed | failed | unsupported |", "| --- | --- | --- | --- |"]
    total = {"passed": 0, "failed": 0, "unsupported": 0}
    for folder, c in sorted(folders.items()):
        lines.append(f"| {folder} | {c['passed']} | {c['failed']} | {c['unsupported']} |")
        for k in total:
            total[k] += c[k]
    lines.append(f"| **all** | {total['passed']} | {total['failed']} | {total['unsupported']} |")
    lines += ["", "## Cases that do not pass, and why", "", "| case | result | reason |",
              "| --- | --- | --- |"]
    for name, res in sorted(results.items()):
        if res["status"] != "passed":
            reason = (reasons.get(name, {}).get("note") or res.get("detail", "")).replace("|", "\\|")
            lines.append(f"| {name} | {res['status']} | {reason} |")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--json")
    ap.add_argument("--expect")
    ap.add_argument("--update-expected")
    ap.add_argument("--filter")
    ap.add_argument("--markdown", help="write a Markdown report (counts per folder, every "
                                        "non-passing case with its reason)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    build = find_build()
    sys.path.insert(0, os.path.join(build, "python"))
    sys.path.insert(0, HERE)
    import acl  # noqa: F401
    cases = find_cases(args.paths, args.filter)
    results = {}
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    tmp = tempfile.mkdtemp(prefix="oc-conformance-")
    try:
        for case in cases:
            name = case_name(case)
            try:
                res = run_case(case, build, tmp)
            except Exception as e:
                res = {"status": "failed", "detail": f"runner error: {e}"[:400]}
            results[name] = res
            key = {"passed": "passed", "failed": "failed"}.get(res["status"], "skipped")
            counts[key] += 1
            line = f"{res['status']:11} {name}"
            if res.get("detail"):
                line += f"  {res['detail']}"
            elif res["status"] == "passed" and args.verbose:
                line += f"  max |error| {res.get('max_error', 0):.3g}"
            print(line, flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
    expected = {}
    if args.expect:
        with open(args.expect) as f:
            expected = json.load(f)
    if args.markdown:
        write_markdown(args.markdown, results, expected)
    if args.update_expected:
        # "reason" is refreshed from each run; a hand-written "note" survives while the
        # case keeps its result.
        old = {}
        if os.path.exists(args.update_expected):
            with open(args.update_expected) as f:
                old = json.load(f)
        out = {}
        for k, v in sorted(results.items()):
            entry = {"status": v["status"]}
            if v.get("detail"):
                entry["reason"] = v["detail"]
            prev = old.get(k, {})
            if prev.get("note") and prev.get("status") == v["status"]:
                entry["note"] = prev["note"]
            out[k] = entry
        with open(args.update_expected, "w") as f:
            json.dump(out, f, indent=1, sort_keys=True)
            f.write("\n")
    if args.expect:
        changed = []
        for name, res in results.items():
            want = expected.get(name, {}).get("status")
            if want is None:
                changed.append(f"{name}: not in the expected list (now {res['status']})")
            elif want != res["status"]:
                changed.append(f"{name}: expected {want}, now {res['status']} {res.get('detail', '')}")
        if changed:
            print(f"{len(changed)} case(s) differ from {args.expect}:")
            for c in changed:
                print("  " + c)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
