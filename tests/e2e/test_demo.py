"""make demo's script: trains, converts, runs, and PyTorch and OpenCANN agree."""
import os

from conftest import BUILD, PY, SOURCE, run


def test_digits_demo(tmp_path):
    r = run([PY, os.path.join(SOURCE, "examples", "digits_demo", "run_demo.py"), "--build", BUILD,
             "--out", str(tmp_path)])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "demo OK" in r.stdout
    assert "ATC run success, welcome to the next use." in r.stdout
