"""make demo's script: trains, converts, runs, and PyTorch and OpenCANN agree."""
import os

from conftest import BUILD, PY, SOURCE, run


def test_digits_demo(tmp_path):
    r = run([PY, os.path.join(SOURCE, "examples", "digits_demo", "run_demo.py"), "--build", BUILD,
             "--out", str(tmp_path)])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "demo OK" in r.stdout
    assert "ATC run success, welcome to the next use." in r.stdout


def test_digits_demo_keeps_its_accuracy_in_bf16(tmp_path):
    """allow_mix_precision_bf16 (bf16 convolutions and matmuls where the CPU has them)
    leaves the test accuracy where PyTorch's fp32 model has it."""
    r = run([PY, os.path.join(SOURCE, "examples", "digits_demo", "run_demo.py"), "--build", BUILD,
             "--out", str(tmp_path), "--precision_mode=allow_mix_precision_bf16"])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "demo OK: allow_mix_precision_bf16 keeps PyTorch's accuracy" in r.stdout
