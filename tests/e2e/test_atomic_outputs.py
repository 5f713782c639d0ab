"""Killed at any moment, atc, msopgen and gpu2npu leave either nothing at the output path or
the whole result, never a partial one that looks complete: each writes to a temporary file
or folder and renames it into place. Each tool is killed (SIGKILL) at moments spread over
the time a full run takes, and what is at the output path is compared with a full run."""
import json
import os
import signal
import subprocess
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from conftest import tool

KILLS = 24


def tree(root):
    """Relative path -> bytes of every file under root."""
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, root)] = fh.read()
    return out


def kill_at_moments(cmd, duration, out_path, check, cwd=None):
    """Runs cmd KILLS times, killing it after delays from 0 to 1.2 x duration; after each,
    check(out_path) must hold when out_path exists. Returns how many runs were cut short."""
    cut = 0
    for k in range(KILLS):
        delay = duration * 1.2 * k / (KILLS - 1)
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             cwd=cwd)
        time.sleep(delay)
        if p.poll() is None:
            p.send_signal(signal.SIGKILL)
            cut += 1
        p.wait()
        if os.path.exists(out_path):
            check(out_path)
        remove(out_path)
    return cut


def remove(path):
    if os.path.isdir(path):
        subprocess.run(["rm", "-rf", path], check=True)
    elif os.path.exists(path):
        os.remove(path)


def timed(cmd, cwd=None, cleanup=None):
    """How long a full run takes once caches are warm (the faster of two runs)."""
    best = None
    for attempt in range(2):
        if attempt and cleanup:
            cleanup()
        t = time.monotonic()
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
        assert r.returncode in (0, 1), r.stdout + r.stderr
        best = min(best or 1e9, time.monotonic() - t)
    return best


def test_atc_killed_leaves_no_partial_om(tmp_path):
    # Weights large enough that writing the .om takes a while.
    rng = np.random.RandomState(0)
    w = numpy_helper.from_array(rng.randn(2048, 4096).astype(np.float32), "w")
    g = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"])], "big",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2048])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [w])
    src = str(tmp_path / "big.onnx")
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), src)
    cmd = lambda out: [tool("atc"), f"--model={src}", "--framework=5", f"--output={out}",
                       "--soc_version=Ascend910B3"]
    out = tmp_path / "killed"
    # The reference: the same output name (the .om holds it).
    duration = timed(cmd(out), cleanup=lambda: os.remove(tmp_path / "killed.om"))
    reference = (tmp_path / "killed.om").read_bytes()
    os.remove(tmp_path / "killed.om")

    def check(path):
        data = open(path, "rb").read()
        assert data == reference, f"a partial .om of {len(data)} bytes"
        r = subprocess.run([tool("atc"), "--mode=1", f"--om={path}",
                            f"--json={tmp_path / 'check.json'}"], capture_output=True, text=True)
        assert r.returncode == 0, r.stdout

    cut = kill_at_moments(cmd(out), duration, str(out) + ".om", check)
    assert cut >= KILLS // 4, (cut, duration)  # enough runs cut short to mean something


def test_msopgen_killed_leaves_no_partial_project(tmp_path):
    ops = [{"op": f"Op{i}Custom", "language": "cpp",
            "input_desc": [{"name": "x", "param_type": "required", "format": ["ND", "ND"],
                            "type": ["float", "float16"]}],
            "output_desc": [{"name": "z", "param_type": "required", "format": ["ND", "ND"],
                             "type": ["float", "float16"]}],
            "attr": [{"name": "alpha", "param_type": "optional", "type": "float",
                      "default_value": "1.0"}]} for i in range(60)]
    spec = tmp_path / "ops.json"
    spec.write_text(json.dumps(ops))
    cmd = lambda out: [tool("msopgen"), "gen", "-i", str(spec), "-c", "ai_core-Ascend910B3",
                       "-lan", "cpp", "-out", str(out)]
    ref = tmp_path / "ref"
    duration = timed(cmd(ref), cleanup=lambda: remove(str(ref)))
    reference = tree(ref)
    assert len(reference) > 100

    def check(path):
        assert tree(path) == reference, "a partial project at the output path"

    out = tmp_path / "killed"
    kill_at_moments(cmd(out), duration, str(out), check)
    # Staging folders are named as such; nothing else sits beside the output.
    assert all(".msopgen-tmp." in p.name or p.name in ("ref", "ops.json")
               for p in tmp_path.iterdir())


def test_gpu2npu_migrate_killed_leaves_no_partial_copy(tmp_path):
    src = tmp_path / "project"
    for i in range(150):
        d = src / f"pkg{i % 10}"
        d.mkdir(parents=True, exist_ok=True)
        (d / f"m{i}.py").write_text(
            "import torch\n" + "".join(f"x{k} = torch.ones(4).cuda()\ntorch.cuda.synchronize()\n"
                                       for k in range(40)))
    cmd = lambda out: [tool("gpu2npu"), "migrate", str(src), "-o", str(out)]
    ref = tmp_path / "ref"
    duration = timed(cmd(ref), cleanup=lambda: remove(str(ref)))
    reference = tree(ref)

    def check(path):
        got = tree(path)
        assert got.keys() == reference.keys(), "a partial copy at the output path"
        assert got == reference

    out = tmp_path / "killed"
    cut = kill_at_moments(cmd(out), duration, str(out), check)
    assert cut >= KILLS // 4, (cut, duration)


def test_gpu2npu_csv_reports_killed_leave_no_partial_set(tmp_path):
    src = tmp_path / "project"
    src.mkdir()
    for i in range(200):
        (src / f"m{i}.py").write_text("import torch\nx = torch.ones(4).cuda()\n" * 30)
    cmd = lambda out: [tool("gpu2npu"), "analyse", str(src), "--csv", str(out), "-o",
                       str(tmp_path / "report.txt")]
    ref = tmp_path / "ref"
    duration = timed(cmd(ref))
    reference = tree(ref)
    assert len(reference) == 3

    def check(path):
        assert tree(path) == reference, "a partial set of reports"

    out = tmp_path / "killed"
    kill_at_moments(cmd(out), duration, str(out), check)
