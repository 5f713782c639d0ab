"""Backends through AscendCL: aclInit's "backends" key and OCANN_BACKENDS choose where the
nodes run; every choice gives torch's answer; a model no chosen backend can run is refused
at load with ACL_ERROR_OP_NOT_FOUND (100024)."""
import os
import subprocess
import textwrap

import numpy as np
import torch

from conftest import BUILD, PY, atc
from test_acl_config import build, run_app


def test_backends_from_acl_json_match_torch(tmp_path):
    m, om = build(tmp_path)
    x = np.random.RandomState(0).randn(1, 3, 10, 12).astype(np.float32)
    want = m(torch.from_numpy(x)).detach().numpy()
    # "guarded" keeps device memory where the host cannot read it (a GPU's shape): the
    # application's aclrtMalloc buffers live there and reach the CPU's steps through copies.
    for backends in ('["reference"]', '"reference,cpu"', '["cpu"]', '"guarded,cpu"'):
        r = run_app(tmp_path, '{"backends": %s}' % backends, om, x)
        assert "init 0" in r.stdout and "finalize 0" in r.stdout, r.stdout + r.stderr
        y = np.load(tmp_path / "y.npy")
        np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-4, err_msg=backends)


def test_unknown_backend_is_refused_by_acl_init(tmp_path):
    _, om = build(tmp_path)
    x = np.zeros((1, 3, 10, 12), np.float32)
    r = run_app(tmp_path, '{"backends": ["cpu", "tpu"]}', om, x)
    assert "init 100000" in r.stdout, r.stdout + r.stderr  # ACL_ERROR_INVALID_PARAM


class SinNet(torch.nn.Module):
    def forward(self, x):
        return torch.sin(x) + 1.0


def test_model_that_cannot_be_placed_is_refused_at_load(tmp_path):
    src = str(tmp_path / "sin.onnx")
    torch.onnx.export(SinNet(), torch.randn(2, 3), src, input_names=["x"], output_names=["y"],
                      opset_version=13)
    r = atc(f"--model={src}", "--framework=5", f"--output={tmp_path / 'sin'}",
            "--soc_version=Ascend910B3")
    assert r.returncode == 0, r.stdout
    script = tmp_path / "load.py"
    script.write_text(textwrap.dedent(f"""
        import acl
        print("init", acl.init())
        acl.rt.set_device(0)
        model_id, ret = acl.mdl.load_from_file({str(tmp_path / 'sin.om')!r})
        print("load", ret)
        print(acl.get_recent_err_msg())
    """))
    env = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"), OCANN_BACKENDS="reference")
    r = subprocess.run([PY, str(script)], capture_output=True, text=True, env=env, timeout=300)
    assert "load 100024" in r.stdout, r.stdout + r.stderr
    assert "Sin" in r.stdout and "reference" in r.stdout, r.stdout


def test_model_compiled_with_one_thread_loads_with_queried_memory_on_sixteen(tmp_path):
    """The .om stores no machine-dependent workspace: aclmdlQuerySize measures it where the
    model runs, so aclmdlLoadFromFileWithMem with that size works whatever the thread count
    of the machine that ran atc."""
    env1 = dict(os.environ, OCANN_NUM_THREADS="1")
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Conv2d(16, 64, 3, padding=1), torch.nn.ReLU(),
                              torch.nn.Conv2d(64, 64, 3, padding=1)).eval()
    src = str(tmp_path / "c.onnx")
    torch.onnx.export(net, torch.randn(1, 16, 56, 56), src, input_names=["x"],
                      output_names=["y"], opset_version=13)
    r = subprocess.run([os.path.join(BUILD, "bin", "atc"), f"--model={src}", "--framework=5",
                        f"--output={tmp_path / 'c'}", "--soc_version=Ascend910B3"],
                       capture_output=True, text=True, env=env1, timeout=300)
    assert r.returncode == 0, r.stdout
    script = tmp_path / "q.py"
    script.write_text(textwrap.dedent(f"""
        import acl
        acl.init()
        acl.rt.set_device(0)
        work, weight, ret = acl.mdl.query_size({str(tmp_path / 'c.om')!r})
        assert ret == 0, ret
        wp, ret = acl.rt.malloc(work, 0)
        assert ret == 0, ret
        mid, ret = acl.mdl.load_from_file_with_mem({str(tmp_path / 'c.om')!r}, wp, work, 0, 0)
        print("load", ret, work)
    """))
    for threads in ("1", "16"):
        env = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"), OCANN_NUM_THREADS=threads)
        r = subprocess.run([PY, str(script)], capture_output=True, text=True, env=env, timeout=300)
        assert "load 0 " in r.stdout, r.stdout + r.stderr
