"""python3 -m acl_infer with ais_bench's flags and output layout: files per inference named
after the input, the _summary.json beside them, the console summary; outputs checked against
PyTorch; what OpenCANN cannot do is refused naming the flag."""
import json
import os
import subprocess

import numpy as np

from conftest import BUILD, PY
from test_acl_dynamic import convert, net, reference  # noqa: F401 (net is a fixture)


def cli(*args, cwd):
    env = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"))
    return subprocess.run([PY, "-m", "acl_infer", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=300)


def test_static_model_with_a_folder_of_inputs(net, tmp_path):
    m, src = net
    om = convert(src, str(tmp_path / "static"), "--input_shape=x:1,3,16,16")
    folder = tmp_path / "in"
    folder.mkdir()
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal((1, 3, 16, 16)).astype(np.float32) for _ in range(2)]
    xs[0].tofile(folder / "img_a.bin")
    np.save(folder / "img_b.npy", xs[1])
    r = cli("--model", om, "--input", str(folder), "--output", "out", "--output_dirname", "run",
            "--outfmt", "NPY", "--loop", "3", "--display_all_summary", "1", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "[INFO] NPU_compute_time (ms): min = " in r.stdout
    assert "[INFO] H2D_latency (ms)" in r.stdout and "throughput 1000*batchsize.mean(1)" in r.stdout
    for stem, x in zip(("img_a", "img_b"), xs):
        got = np.load(tmp_path / "out" / "run" / f"{stem}_0.npy")
        np.testing.assert_allclose(got, reference(m, x), rtol=1e-5, atol=1e-5)
    summary = json.loads((tmp_path / "out" / "run_summary.json").read_text())
    assert summary["NPU_compute_time"]["count"] == 6  # 2 inferences x --loop 3
    assert summary["filesinfo"]["0"]["infiles"] == [str(folder / "img_a.bin")]


def test_dynamic_batch_shape_and_range(net, tmp_path):
    m, src = net
    gears = convert(src, str(tmp_path / "gears"), "--input_shape=x:-1,3,16,16",
                    "--dynamic_batch_size=1,2,4")
    x = np.random.default_rng(1).standard_normal((2, 3, 16, 16)).astype(np.float32)
    x.tofile(tmp_path / "x.bin")
    r = cli("--model", gears, "--input", "x.bin", "--dymBatch", "2", "--output", "out",
            "--output_dirname", "b", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    got = np.fromfile(tmp_path / "out" / "b" / "x_0.bin", np.float32).reshape(2, 5)
    np.testing.assert_allclose(got, reference(m, x), rtol=1e-5, atol=1e-5)
    # A batch the model has no gear for fails, naming the call.
    r = cli("--model", gears, "--input", "x.bin", "--dymBatch", "3", cwd=tmp_path)
    assert r.returncode != 0

    dyn = convert(src, str(tmp_path / "dyn"), "--input_shape=x:1~3,3,16,16")
    r = cli("--model", dyn, "--dymShape_range", "x:1~3,3,16,16", "--output", "out",
            "--output_dirname", "r", "--outputSize", "100000", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    names = sorted(os.listdir(tmp_path / "out" / "r"))
    assert names == ["x-1_3_16_16_0.bin", "x-2_3_16_16_0.bin", "x-3_3_16_16_0.bin"]
    r = cli("--model", dyn, "--dymShape", "x:3,3,16,16", "--outputSize", "8", cwd=tmp_path)
    assert r.returncode == 1 and "its buffer has 8" in r.stderr


def test_what_opencann_cannot_do_is_refused(net, tmp_path):
    _, src = net
    om = convert(src, str(tmp_path / "s"), "--input_shape=x:1,3,16,16")
    for flags, words in ((["--device", "0,1"], "one NPU"),
                         (["--energy_consumption", "1"], "energy_consumption"),
                         (["--run_mode", "tensor"], "run_mode"),
                         (["--profiler", "1", "--dump", "1"], "together"),
                         (["--input", "missing.bin"], "neither a file nor a folder")):
        r = cli("--model", om, *flags, cwd=tmp_path)
        assert r.returncode == 1 and words in r.stderr, (flags, r.stderr)
