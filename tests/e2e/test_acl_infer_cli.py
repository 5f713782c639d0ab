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
    for flags, words in ((["--dump_npy", "1"], "dump_npy"),
                         (["--output_batchsize_axis", "1"], "output_batchsize_axis"),
                         (["--auto_set_dymshape_mode", "1"], ".npy inputs")):
        r = cli("--model", om, *flags, cwd=tmp_path)
        assert r.returncode == 1 and words in r.stderr, (flags, r.stderr)


def test_pure_data_profiler_and_range_steps(net, tmp_path):
    """--pure_data_type random feeds random data (the outputs differ from zero data's);
    --profiler's files are all written (the session finalizes pyACL); --dymShape_range takes
    a~b~step and runs each shape on its own, ranked as ais_bench ranks them; the throughput
    batch of --dymShape is its first input's dim 0."""
    m, src = net
    om = convert(src, str(tmp_path / "s"), "--input_shape=x:1,3,16,16")
    outs = {}
    for kind in ("zero", "random"):
        r = cli("--model", om, "--pure_data_type", kind, "--output", "out", "--output_dirname",
                kind, "--outfmt", "NPY", cwd=tmp_path)
        assert r.returncode == 0, r.stdout + r.stderr
        outs[kind] = np.load(tmp_path / "out" / kind / "pure_infer_data_0.npy")
    np.testing.assert_allclose(outs["zero"], reference(m, np.zeros((1, 3, 16, 16), np.float32)),
                               rtol=1e-5, atol=1e-5)
    assert not np.allclose(outs["zero"], outs["random"])
    r = cli("--model", om, "--output", "prof", "--profiler", "1", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    written = [f for _, _, fs in os.walk(tmp_path / "prof" / "profiler") for f in fs]
    for prefix in ("op_summary_", "op_statistic_", "trace_"):
        assert any(f.startswith(prefix) for f in written), (prefix, written)

    dyn = convert(src, str(tmp_path / "dyn"), "--input_shape=x:1~5,3,16,16")
    r = cli("--model", dyn, "--dymShape_range", "x:1~5~2,3,16,16", "--outputSize", "100000",
            cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "run_count:3 success_count:3" in r.stdout
    assert sorted(ln.split("dymshape:")[1].split()[0] for ln in r.stdout.splitlines()
                  if " dymshape:" in ln) == ["x:1,3,16,16", "x:3,3,16,16", "x:5,3,16,16"]
    assert "batchsize.mean(5)" in r.stdout and "batchsize.mean(3)" in r.stdout
    r = cli("--model", dyn, "--dymShape", "x:4,3,16,16", "--outputSize", "100000", cwd=tmp_path)
    assert r.returncode == 0 and "batchsize.mean(4)" in r.stdout, r.stdout + r.stderr
    r = cli("--model", dyn, "--dymShape_range", "x:1~5~0,3,16,16", cwd=tmp_path)
    assert r.returncode == 1 and "a~b~step" in r.stderr
