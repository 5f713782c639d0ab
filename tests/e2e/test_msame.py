"""msame as CANN's: BIN by default, CANN's folder and file names, --dump and --profiler through
an acl.json it removes afterwards, .npy inputs (as ais_bench reads them), and a summary with
the distribution and the throughput."""
import glob
import json
import os
import re

import numpy as np

from conftest import atc, run, tool
from make_onnx import mlp_reference, tiny_mlp


def model(tmp_path):
    m = tiny_mlp(tmp_path / "mlp.onnx", batch=4)
    assert atc(f"--model={m}", "--framework=5", f"--output={tmp_path / 'mlp'}",
               "--soc_version=Ascend910B3").returncode == 0
    return str(tmp_path / "mlp.om")


def msame(*args, cwd):
    return run([tool("msame"), *args], cwd=cwd)


def test_npy_input_default_bin_and_summary(tmp_path):
    om = model(tmp_path)
    x = np.random.default_rng(0).standard_normal((4, 4)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    r = msame("--model", om, "--input", "x.npy", "--output", "out", "--loop", "5", cwd=tmp_path)
    assert r.returncode == 0, r.stdout
    (stamp,) = os.listdir(tmp_path / "out")
    assert re.fullmatch(r"\d{6,8}_\d{1,2}_\d{1,2}_\d{1,2}_\d+", stamp), stamp
    assert f"out/{stamp}" in r.stdout.splitlines()
    y = np.fromfile(tmp_path / "out" / stamp / "mlp_output_0.bin", np.float32).reshape(4, 3)
    np.testing.assert_allclose(y, mlp_reference(x), rtol=1e-6)
    assert sum(l.startswith("Inference time: ") for l in r.stdout.splitlines()) == 5
    m = re.search(r"summary: 5 runs, min ([\d.]+) ms, mean ([\d.]+) ms, median ([\d.]+) ms, "
                  r"p90 ([\d.]+) ms, p99 ([\d.]+) ms, max ([\d.]+) ms, throughput ([\d.]+) "
                  r"samples/s \(batch 4\)", r.stdout)
    assert m, r.stdout
    lo, mean, med, p90, p99, hi, tput = map(float, m.groups())
    assert lo <= med <= p90 <= p99 <= hi and lo <= mean <= hi and tput > 0
    assert re.search(r"\[INFO\] pid: \d+ Execute sample success", r.stdout)
    # A .npy of another dtype is refused, naming both.
    np.save(tmp_path / "x64.npy", x.astype(np.float64))
    r = msame("--model", om, "--input", "x64.npy", cwd=tmp_path)
    assert r.returncode != 0 and "'<f8'" in r.stdout and "'<f4'" in r.stdout, r.stdout
    (tmp_path / "not.npy").write_bytes(b"plain bytes")
    r = msame("--model", om, "--input", "not.npy", cwd=tmp_path)
    assert r.returncode != 0 and "NUMPY magic" in r.stdout


def test_folder_inputs_are_named_after_their_files(tmp_path):
    om = model(tmp_path)
    (tmp_path / "in").mkdir()
    xs = {}
    for name in ("cat", "dog"):
        xs[name] = np.random.default_rng(len(name)).standard_normal((4, 4)).astype(np.float32)
        xs[name].tofile(tmp_path / "in" / f"{name}.bin")
    r = msame("--model", om, "--input", "in", "--output", "out", "--outfmt", "TXT", cwd=tmp_path)
    assert r.returncode == 0, r.stdout
    assert "start to process file:in/cat.bin" in r.stdout
    assert re.search(r"Inference average time : [\d.]+ ms", r.stdout)
    (stamp,) = os.listdir(tmp_path / "out")
    for name, x in xs.items():
        y = np.loadtxt(tmp_path / "out" / stamp / f"{name}_output_0.txt", dtype=np.float32)
        np.testing.assert_allclose(y.reshape(4, 3), mlp_reference(x), rtol=1e-5)


def test_dump_and_profiler(tmp_path):
    om = model(tmp_path)
    r = msame("--model", om, "--dump", "true", "--output", "d", cwd=tmp_path)
    assert r.returncode == 0, r.stdout
    assert glob.glob(str(tmp_path / "d" / "dump" / "*" / "0" / "mlp" / "*" / "0" / "*"))
    assert not (tmp_path / "acl.json").exists()
    np.zeros((4, 4), np.float32).tofile(tmp_path / "z.bin")
    r = msame("--model", om, "--input", "z.bin", "--profiler", "true", "--output", "p", "--loop",
              "3", cwd=tmp_path)
    assert r.returncode == 0, r.stdout
    (trace,) = glob.glob(str(tmp_path / "p" / "profiler" / "*" / "trace_*.json"))
    events = json.load(open(trace))["traceEvents"]
    assert len(events) >= 3 and {e["ph"] for e in events} == {"X"}
    assert {"memcpy", "MatMul"} <= {e["cat"] for e in events}  # copies beside the ops
    assert all(e["dur"] >= 0 and "name" in e for e in events)
    assert glob.glob(str(tmp_path / "p" / "profiler" / "*" / "op_summary_*.csv"))
    assert not (tmp_path / "acl.json").exists()
    r = msame("--model", om, "--dump", "true", "--profiler", "true", cwd=tmp_path)
    assert r.returncode != 0 and "cannot be used together" in r.stdout
    r = msame("--model", om, "--dump", "yes", cwd=tmp_path)
    assert r.returncode != 0 and "--dump takes true or false" in r.stdout
    r = msame("--model", str(tmp_path / "mlp.onnx"), cwd=tmp_path)
    assert r.returncode != 0 and "input model file type is not .om" in r.stdout
