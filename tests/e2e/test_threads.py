"""Results agree across thread counts (OCANN_NUM_THREADS)."""
import os
import subprocess
import textwrap

import numpy as np

from conftest import BUILD, PY, atc, export_model


def test_thread_counts_agree(tmp_path):
    onnx_path, x, _ = export_model("bert_encoder", 11)
    assert atc(f"--model={onnx_path}", "--framework=5", f"--output={tmp_path / 'm'}",
               "--soc_version=Ascend910B3", "--input_shape=input_ids:1,128").returncode == 0
    np.save(tmp_path / "x.npy", x)
    code = textwrap.dedent(f"""
        import sys, numpy as np, acl
        sys.path.insert(0, "{os.path.dirname(__file__)}")
        from acl_helpers import OmModel
        acl.init(); acl.rt.set_device(0)
        m = OmModel("{tmp_path / 'm.om'}")
        np.save(sys.argv[1], m.run([np.load("{tmp_path / 'x.npy'}")])[0])
        m.close(); acl.finalize()
        """)
    (tmp_path / "run.py").write_text(code)
    outs = []
    for n in (1, 2, 3):
        env = dict(os.environ, OCANN_NUM_THREADS=str(n), PYTHONPATH=os.path.join(BUILD, "python"))
        out = tmp_path / f"y{n}.npy"
        r = subprocess.run([PY, str(tmp_path / "run.py"), str(out)], env=env, capture_output=True,
                           text=True, timeout=600)
        assert r.returncode == 0, r.stderr
        outs.append(np.load(out))
    for y in outs[1:]:
        rel = np.abs(y - outs[0]).max() / np.abs(outs[0]).max()
        assert rel < 1e-5, rel


def _omp_env(env_extra, code="import acl"):
    """Loads the pyACL module (libascendcl) in a fresh interpreter with OMP_DISPLAY_ENV and
    returns (libgomp's printed settings, GOMP_SPINCOUNT as the process sees it afterwards)."""
    probe = textwrap.dedent(f"""
        import ctypes
        {code}
        getenv = ctypes.CDLL(None).getenv
        getenv.restype = ctypes.c_char_p
        v = getenv(b"GOMP_SPINCOUNT")
        print("AFTER=" + (v.decode() if v else "unset"))
        """)
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    env.update(PYTHONPATH=os.path.join(BUILD, "python"), OMP_DISPLAY_ENV="verbose", **env_extra)
    r = subprocess.run([PY, "-c", probe], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    shown = {}
    for line in r.stderr.splitlines():
        if "=" in line and line.strip().startswith(("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")):
            k, v = line.strip().split("=", 1)
            shown[k.strip()] = v.strip().strip("'")
    after = next(l for l in r.stdout.splitlines() if l.startswith("AFTER="))[6:]
    return shown, after


def test_openmp_workers_spin_briefly_then_sleep():
    """An application that set no wait policy gets a short spin (libgomp's default spins
    300,000 times, tens of milliseconds, against the application's own threads); the variable
    that carried it is gone from the application's environment afterwards."""
    shown, after = _omp_env({})
    assert shown["GOMP_SPINCOUNT"] == "50000" and shown["OMP_WAIT_POLICY"] == "PASSIVE", shown
    assert after == "unset"


def test_the_applications_wait_policy_wins():
    shown, after = _omp_env({"OMP_WAIT_POLICY": "active"})
    assert shown["OMP_WAIT_POLICY"] == "ACTIVE" and shown["GOMP_SPINCOUNT"] != "50000", shown
    shown, after = _omp_env({"GOMP_SPINCOUNT": "1234"})
    assert shown["GOMP_SPINCOUNT"] == "1234" and after == "1234", (shown, after)
