"""examples/ascendc_kernels: Add (multi-core, double buffer), LeakyReLU with tiling, a row
reduction and a half-precision Matmul with the high-level API, each against numpy."""
import numpy as np

from conftest import build_example, run


def test_example_kernels_match_numpy(tmp_path, prefix):
    b = build_example("ascendc_kernels", tmp_path / "build", prefix)
    rng = np.random.default_rng(0)
    d = tmp_path / "data"
    d.mkdir()
    add_x = rng.standard_normal(16384).astype(np.float16)
    add_y = rng.standard_normal(16384).astype(np.float16)
    leaky_x = rng.standard_normal(100003).astype(np.float32)
    sum_x = rng.standard_normal((37, 512)).astype(np.float32)
    mm_a = (rng.standard_normal((300, 200)) / 4).astype(np.float16)
    mm_b = (rng.standard_normal((200, 170)) / 4).astype(np.float16)
    mml_a = (rng.standard_normal((128, 64)) / 4).astype(np.float16)
    mml_b = (rng.standard_normal((64, 128)) / 4).astype(np.float16)
    mml_bias = rng.standard_normal(128).astype(np.float32)
    for name, arr in [("add_x", add_x), ("add_y", add_y), ("leaky_x", leaky_x), ("sum_x", sum_x),
                      ("mm_a", mm_a), ("mm_b", mm_b), ("mml_a", mml_a), ("mml_b", mml_b),
                      ("mml_bias", mml_bias)]:
        arr.tofile(d / f"{name}.bin")
    r = run([str(b / "run_kernels"), str(d)], cwd=str(tmp_path))
    assert r.returncode == 0 and "all kernels ran" in r.stdout, r.stdout[-3000:] + r.stderr
    # Add in half: numpy's float16 addition rounds to nearest even, as the vector unit.
    np.testing.assert_array_equal(np.fromfile(d / "add_z.bin", np.float16), add_x + add_y)
    np.testing.assert_allclose(np.fromfile(d / "leaky_y.bin", np.float32),
                               np.where(leaky_x >= 0, leaky_x, np.float32(0.1) * leaky_x), rtol=1e-6)
    np.testing.assert_allclose(np.fromfile(d / "sum_y.bin", np.float32), sum_x.sum(axis=1),
                               rtol=1e-5, atol=1e-4)
    want = (mm_a.astype(np.float32) @ mm_b.astype(np.float32)).astype(np.float16)
    got = np.fromfile(d / "mm_c.bin", np.float16).reshape(300, 170)
    np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), rtol=2e-3, atol=2e-3)
    # Mix mode: 2 cube cores and 4 vector cores computed every base block of C.
    h = mml_a.astype(np.float32) @ mml_b.astype(np.float32) + mml_bias
    want = np.where(h >= 0, h, np.float32(0.001) * h)
    got = np.fromfile(d / "mml_c.bin", np.float32).reshape(128, 128)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
    assert "2 blocks (2 AIC + 4 AIV, KERNEL_TYPE_MIX_AIC_1_2) exit success" in r.stdout
    # Each launch printed its cost estimate; the matmul is cube work.
    assert r.stdout.count("Cost ESTIMATE") == 5


def test_pad_gathermask_and_a_caught_race(tmp_path, prefix):
    """examples/ascendc_checks: Pad and GatherMask against numpy; a racy TBuf kernel is
    reported, its synced twin is clean."""
    b = build_example("ascendc_checks", tmp_path / "build", prefix)
    rng = np.random.default_rng(1)
    d = tmp_path / "data"
    d.mkdir()
    pad_x = rng.standard_normal((8, 13)).astype(np.float16)
    pos_x = rng.standard_normal(1024).astype(np.float32)
    scale_x = rng.standard_normal(4096).astype(np.float32)
    for name, arr in [("pad_x", pad_x), ("pos_x", pos_x), ("scale_x", scale_x)]:
        arr.tofile(d / f"{name}.bin")
    r = run([str(b / "run_checks"), str(d)], cwd=str(tmp_path))
    assert r.returncode == 0 and "checks example ran as expected" in r.stdout, \
        r.stdout[-4000:] + r.stderr
    want = np.pad(pad_x, ((0, 0), (1, 2)), constant_values=-1)
    np.testing.assert_array_equal(np.fromfile(d / "pad_y.bin", np.float16).reshape(8, 16), want)
    positive = pos_x[pos_x > 0]
    count = int(np.fromfile(d / "pos_count.bin", np.int32)[0])
    assert count == positive.size
    got = np.fromfile(d / "pos_y.bin", np.float32)
    np.testing.assert_array_equal(got[:count], positive)
    assert not got[count:].any()
    np.testing.assert_array_equal(np.fromfile(d / "scale_y.bin", np.float32), 2 * scale_x)
    assert "racy_scale_custom][blocks 0, 1, 2, 3] Muls: race (read after write) on UB byte 0" \
        in r.stdout, r.stdout[-4000:]
    assert "[FAILED] racy_scale_custom" in r.stdout
    assert "[SUCCESS] synced_scale_custom" in r.stdout
