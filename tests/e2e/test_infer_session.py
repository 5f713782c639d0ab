"""The InferSession helper: ndarrays in, ndarrays out, timing summary."""
import numpy as np
import pytest

from conftest import atc
from make_onnx import mlp_reference, tiny_mlp


def test_infer_session(acl_session, tmp_path):
    from acl_infer import InferSession
    m = tiny_mlp(tmp_path / "mlp.onnx", batch=2)
    assert atc(f"--model={m}", "--framework=5", f"--output={tmp_path / 'mlp'}",
               "--soc_version=Ascend910B3").returncode == 0
    with InferSession(0, str(tmp_path / "mlp.om")) as s:
        assert [i.shape for i in s.get_inputs()] == [[2, 4]]
        assert s.get_outputs()[0].dtype == np.float32
        for k in range(5):
            x = np.random.RandomState(k).randn(2, 4).astype(np.float32)
            (y,) = s.infer([x])
            np.testing.assert_allclose(y, mlp_reference(x), rtol=1e-6)
        summary = s.summary()
        assert summary["count"] == 5
        assert summary["min"] <= summary["median"] <= summary["max"]
        assert summary["throughput"] > 0
        with pytest.raises(ValueError):
            s.infer([np.zeros((3, 4), np.float32)])
        with pytest.raises(ValueError):
            s.infer([])


def test_feeds_as_lists_dicts_and_one_array_and_a_closed_session(acl_session, tmp_path):
    from acl_infer import InferSession
    m = tiny_mlp(tmp_path / "mlp.onnx", batch=2)
    assert atc(f"--model={m}", "--framework=5", f"--output={tmp_path / 'mlp'}",
               "--soc_version=Ascend910B3").returncode == 0
    s = InferSession(0, str(tmp_path / "mlp.om"))
    x = np.random.RandomState(9).randn(2, 4).astype(np.float32)
    name = s.get_inputs()[0].name
    for feeds in ([x], (x,), {name: x}, x):
        (y,) = s.infer(feeds)
        np.testing.assert_allclose(y, mlp_reference(x), rtol=1e-6)
    (y,) = s.run([x])
    np.testing.assert_allclose(y, mlp_reference(x), rtol=1e-6)
    with pytest.raises(ValueError, match="unknown"):
        s.infer({"nope": x})
    with pytest.raises(TypeError, match="a list of arrays, a dict by input name or one array"):
        s.infer(42)
    # float64 is converted with a warning (values may change); int8 -> float32 is safe.
    with pytest.warns(UserWarning, match="float64 converted to float32"):
        (y,) = s.infer([x.astype(np.float64)])
    np.testing.assert_allclose(y, mlp_reference(x), rtol=1e-6)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s.infer([np.ones((2, 4), np.int8)])
    s.free_resource()
    with pytest.raises(RuntimeError, match="the session is closed"):
        s.infer([x])
    s.free_resource()  # twice: nothing happens


def test_performance_run_command(tmp_path):
    import os
    import subprocess
    from conftest import BUILD, PY
    m = tiny_mlp(tmp_path / "mlp.onnx", batch=2)
    assert atc(f"--model={m}", "--framework=5", f"--output={tmp_path / 'mlp'}",
               "--soc_version=Ascend910B3").returncode == 0
    env = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"))
    r = subprocess.run([PY, "-m", "acl_infer", "--model", str(tmp_path / "mlp.om"), "--loop", "20"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    # ais_bench's summary lines (python3 -m ais_bench prints the same).
    assert "[INFO] NPU_compute_time (ms): min = " in r.stdout
    assert "median" in r.stdout and "percentile(99%)" in r.stdout
    assert "throughput 1000*batchsize.mean(2)/NPU_compute_time.mean(" in r.stdout
