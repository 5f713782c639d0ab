"""The C programs of tests/c, built against libascendcl: CANN-style sample flow and the
misuse of every public function."""
import os
import re
import subprocess
import textwrap

import numpy as np
import pytest
import torch

from conftest import BUILD, PY, SOURCE, atc, run

MISUSE = os.path.join(BUILD, "tests", "oc_acl_misuse")
SAMPLE = os.path.join(BUILD, "tests", "oc_acl_sample")


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.fc = torch.nn.Linear(4 * 8 * 8, 6)

    def forward(self, x):
        return torch.softmax(self.fc(torch.flatten(torch.relu(self.conv(x)), 1)), 1)


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    d = tmp_path_factory.mktemp("cprog")
    torch.manual_seed(3)
    m = Net().eval()
    src = str(d / "net.onnx")
    torch.onnx.export(m, torch.randn(1, 3, 8, 8), src, input_names=["x"], output_names=["y"],
                      dynamic_axes={"x": {0: "n"}, "y": {0: "n"}}, opset_version=13)
    common = [f"--model={src}", "--framework=5", "--soc_version=Ascend910B3"]
    r = atc(*common, f"--output={d / 'static'}", "--input_shape=x:1,3,8,8")
    assert r.returncode == 0, r.stdout
    r = atc(*common, f"--output={d / 'gears'}", "--input_shape=x:-1,3,8,8",
            "--dynamic_batch_size=1,2,4")
    assert r.returncode == 0, r.stdout
    return m, str(d / "static.om"), str(d / "gears.om")


def public_functions():
    names = set()
    for root, _, files in os.walk(os.path.join(SOURCE, "include", "acl")):
        for h in files:
            if not h.endswith(".h"):
                continue
            text = open(os.path.join(root, h)).read()
            names |= set(re.findall(r"ACL_FUNC_VISIBILITY[^;(]*?\b(acl\w+)\s*\(", text))
    return names


def test_misuse_program_covers_every_public_function():
    names = public_functions()
    assert len(names) > 80
    source = open(os.path.join(SOURCE, "tests", "c", "acl_misuse.c")).read()
    missing = sorted(n for n in names if not re.search(r"\b" + n + r"\s*\(", source))
    assert not missing, missing


def test_misuse_of_every_function_returns_cann_codes(models):
    _, static, gears = models
    r = run([MISUSE, static, gears])
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"[1-9]\d+ checks, 0 failures", r.stdout), r.stdout


@pytest.mark.parametrize("batch", [1, 2, 4])
def test_sample_flow_with_gears(models, tmp_path, batch):
    m, static, gears = models
    x = np.random.default_rng(batch).standard_normal((batch, 3, 8, 8)).astype(np.float32)
    x.tofile(tmp_path / "x.bin")
    r = run([SAMPLE, gears, str(tmp_path / "x.bin"), str(tmp_path / "y.bin"), str(batch), "4"])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "gears: 1 2 4" in r.stdout
    assert "callbacks: 4" in r.stdout
    assert f"output dims: {batch} 6" in r.stdout
    y = np.fromfile(tmp_path / "y.bin", np.float32).reshape(batch, 6)
    with torch.no_grad():
        np.testing.assert_allclose(y, m(torch.from_numpy(x)).numpy(), rtol=1e-4, atol=1e-6)


def test_sample_flow_static_model(models, tmp_path):
    m, static, _ = models
    x = np.random.default_rng(9).standard_normal((1, 3, 8, 8)).astype(np.float32)
    x.tofile(tmp_path / "x.bin")
    r = run([SAMPLE, static, str(tmp_path / "x.bin"), str(tmp_path / "y.bin")])
    assert r.returncode == 0, r.stdout + r.stderr
    y = np.fromfile(tmp_path / "y.bin", np.float32).reshape(1, 6)
    with torch.no_grad():
        np.testing.assert_allclose(y, m(torch.from_numpy(x)).numpy(), rtol=1e-4, atol=1e-6)
    # A gear the model lacks is refused before anything runs.
    r = run([SAMPLE, models[2], str(tmp_path / "x.bin"), str(tmp_path / "y.bin"), "3"])
    assert r.returncode != 0 and "145013" in r.stderr


def test_every_python_function_survives_bad_handles(tmp_path):
    """Each function of acl, acl.rt and acl.mdl called with zero handles, before and after
    init, returns a code or an empty value; the process never crashes."""
    script = tmp_path / "fuzz.py"
    script.write_text(textwrap.dedent("""
        import re, acl
        def arity(f):
            m = re.match(r"\\w+\\((.*?)\\)", f.__doc__ or "")
            if not m or not m.group(1).strip():
                return []
            return [a.split(":")[1].strip() for a in m.group(1).split(",")]
        def bad(t):
            return {"int": 0, "str": "", "float": 0.0}.get(t, None)
        SKIP = {"process_report", "launch_callback"}  # blocking by design; tested elsewhere
        calls = 0
        for phase in ("before", "after"):
            if phase == "after":
                assert acl.init() == 0 and acl.rt.set_device(0) == 0
            for mod in (acl, acl.rt, acl.mdl):
                for name in dir(mod):
                    f = getattr(mod, name)
                    if name.startswith("_") or not callable(f) or name in SKIP or \\
                            name in ("init", "finalize") or isinstance(f, type(acl)):
                        continue
                    args = [bad(t) for t in arity(f)]
                    if any(a is None for a in args):
                        args = [0 if a is None else a for a in args]
                    try:
                        f(*args)
                    except (TypeError, ValueError):
                        pass  # argument conversion refused: not a crash
                    calls += 1
        print("calls", calls)
    """))
    env = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"))
    r = subprocess.run([PY, str(script)], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr[-3000:]
    assert int(r.stdout.split()[-1]) > 150
