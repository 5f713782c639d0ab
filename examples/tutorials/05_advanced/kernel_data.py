"""Inputs for examples/ascendc_kernels' run_kernels, and the check of its mix-mode kernel
(a Matmul on the cube cores, LeakyReLU on the vector cores) against numpy.
Run: python3 kernel_data.py write DIR, run_kernels DIR, then python3 kernel_data.py check DIR"""
import sys
from pathlib import Path

import numpy as np

mode, folder = sys.argv[1], Path(sys.argv[2])
rng = np.random.default_rng(0)
inputs = {
    "add_x": rng.standard_normal(16384).astype(np.float16),
    "add_y": rng.standard_normal(16384).astype(np.float16),
    "leaky_x": rng.standard_normal(100003).astype(np.float32),
    "sum_x": rng.standard_normal((37, 512)).astype(np.float32),
    "mm_a": (rng.standard_normal((300, 200)) / 4).astype(np.float16),
    "mm_b": (rng.standard_normal((200, 170)) / 4).astype(np.float16),
    "mml_a": (rng.standard_normal((128, 64)) / 4).astype(np.float16),
    "mml_b": (rng.standard_normal((64, 128)) / 4).astype(np.float16),
    "mml_bias": rng.standard_normal(128).astype(np.float32),
}
if mode == "write":
    folder.mkdir(parents=True, exist_ok=True)
    for name, arr in inputs.items():
        arr.tofile(folder / f"{name}.bin")
    print(f"wrote {len(inputs)} inputs to {folder}")
else:
    a, b = inputs["mml_a"].astype(np.float32), inputs["mml_b"].astype(np.float32)
    h = a @ b + inputs["mml_bias"]
    want = np.where(h >= 0, h, np.float32(0.001) * h)
    got = np.fromfile(folder / "mml_c.bin", np.float32).reshape(128, 128)
    err = np.abs(got - want).max()
    print(f"mix-mode Matmul + LeakyReLU: max abs error vs numpy {err:.1e}")
    assert err < 1e-4
