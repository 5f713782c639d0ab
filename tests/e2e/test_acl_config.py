"""aclInit's JSON config: dump (per-layer tensors) and profiler (op_summary/op_statistic)."""
import glob
import os
import subprocess
import textwrap

import numpy as np
import torch

from conftest import BUILD, PY, atc


class TwoConv(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.c2 = torch.nn.Conv2d(8, 4, 3, padding=1)

    def forward(self, x):
        return self.c2(torch.relu(self.c1(x)))


def build(tmp_path):
    torch.manual_seed(0)
    m = TwoConv().eval()
    src = str(tmp_path / "two.onnx")
    torch.onnx.export(m, torch.randn(1, 3, 10, 12), src, input_names=["x"], output_names=["y"],
                      opset_version=13)
    r = atc(f"--model={src}", "--framework=5", f"--output={tmp_path / 'two'}",
            "--soc_version=Ascend910B3")
    assert r.returncode == 0, r.stdout
    return m, str(tmp_path / "two.om")


def run_app(tmp_path, config, om, x, runs=2):
    cfg = tmp_path / "acl.json"
    cfg.write_text(config)
    np.save(tmp_path / "x.npy", x)
    script = tmp_path / "app.py"
    script.write_text(textwrap.dedent(f"""
        import sys, numpy as np, acl
        sys.path.insert(0, {os.path.dirname(__file__)!r})
        from acl_helpers import OmModel
        ret = acl.init({str(cfg)!r})
        print("init", ret)
        if ret == 0:
            acl.rt.set_device(0)
            m = OmModel({om!r})
            for _ in range({runs}):
                y = m.run([np.load({str(tmp_path / 'x.npy')!r})])[0]
            np.save({str(tmp_path / 'y.npy')!r}, y)
            m.close()
            acl.rt.reset_device(0)
            print("finalize", acl.finalize())
    """))
    env = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"))
    return subprocess.run([PY, str(script)], capture_output=True, text=True, env=env, timeout=300)


def test_dump_writes_every_layer_in_cann_format(tmp_path):
    import sys
    sys.path.insert(0, os.path.join(BUILD, "python"))
    import ocann_dump
    m, om = build(tmp_path)
    x = np.random.default_rng(0).standard_normal((1, 3, 10, 12)).astype(np.float32)
    dump = tmp_path / "dump"
    r = run_app(tmp_path, f'{{"dump": {{"dump_path": "{dump}", "dump_mode": "all", '
                          f'"dump_list": [{{"model_name": "two"}}]}}}}', om, x)
    assert r.returncode == 0 and "init 0" in r.stdout, r.stdout + r.stderr
    # {dump_path}/{time}/{device}/{model_name}/{model_id}/{execution}/{OpType}.{OpName}.{task}.{ts}
    runs = sorted(glob.glob(str(dump / "*" / "0" / "two" / "*" / "*")))
    assert [os.path.basename(p) for p in runs] == ["0", "1"]
    files = sorted(os.listdir(runs[0]))
    assert all(len(f.split(".")) == 4 and f.split(".")[3].isdigit() for f in files), files
    convs = [ocann_dump.load(os.path.join(runs[0], f)) for f in files if f.startswith("Conv.")]
    assert len(convs) == 2, files
    with torch.no_grad():
        hidden = torch.relu(m.c1(torch.from_numpy(x))).numpy()
        final = m(torch.from_numpy(x)).numpy()
    # The ReLU is fused into the first convolution: its dump is named for the ReLU's output.
    first = [d for d in convs if d.outputs[0].shape == hidden.shape][0]
    assert first.outputs[0].original_name.startswith("/Relu") or "Relu" in \
        first.outputs[0].original_name, first.outputs[0].original_name
    assert first.outputs[0].original_output_index == 0
    # The first convolution's output is kept channels-last inside; the dump is NCHW.
    assert first.outputs[0].format == "NCHW" and first.outputs[0].dtype == "float32"
    np.testing.assert_allclose(first.outputs[0].array, hidden, rtol=1e-4, atol=1e-5)
    np.testing.assert_array_equal(first.inputs[0].array, x)
    assert [t.shape for t in first.inputs] == [(1, 3, 10, 12), (8, 3, 3, 3), (8,)]
    last = [d for d in convs if d.outputs[0].shape == final.shape][0]
    np.testing.assert_allclose(last.outputs[0].array, final, rtol=1e-4, atol=1e-5)
    # The command line lists and converts.
    out = tmp_path / "npy"
    r = subprocess.run([PY, "-m", "ocann_dump", runs[0], "-o", str(out)], capture_output=True,
                       text=True, env=dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python")),
                       timeout=120)
    assert r.returncode == 0 and "output.0 float32 NCHW [1, 8, 10, 12]" in r.stdout, r.stdout
    assert len(glob.glob(str(out / "*.output.0.npy"))) == len(files)
    # A damaged file is an error, not a crash or a wrong tensor.
    bad = tmp_path / "bad"
    data = open(os.path.join(runs[0], files[0]), "rb").read()
    bad.write_bytes(data[:len(data) // 2])
    r = subprocess.run([PY, "-m", "ocann_dump", str(bad)], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python")), timeout=60)
    assert r.returncode == 1 and "past the end" in r.stderr, r.stderr


def test_dump_layer_list_takes_source_names_of_fused_ops(tmp_path):
    import sys
    sys.path.insert(0, os.path.join(BUILD, "python"))
    import ocann_dump
    _, om = build(tmp_path)
    x = np.zeros((1, 3, 10, 12), np.float32)
    dump = tmp_path / "dump"
    # The ReLU no longer exists as an op: asking for it dumps the convolution that absorbed it.
    relu = [n.name for n in __import__("onnx").load(str(tmp_path / "two.onnx")).graph.node
            if n.op_type == "Relu"][0]
    r = run_app(tmp_path, f'{{"dump": {{"dump_path": "{dump}", "dump_list": '
                          f'[{{"model_name": "two", "layer": ["{relu}"]}}]}}}}', om, x, runs=1)
    assert r.returncode == 0, r.stdout + r.stderr
    files = glob.glob(str(dump / "*" / "0" / "two" / "*" / "0" / "*"))
    assert len(files) == 1 and os.path.basename(files[0]).startswith("Conv."), files
    d = ocann_dump.load(files[0])
    assert d.outputs[0].original_name == relu and not d.inputs  # dump_mode output


def test_dump_filters_layers_and_models(tmp_path):
    _, om = build(tmp_path)
    x = np.zeros((1, 3, 10, 12), np.float32)
    dump = tmp_path / "dump"
    r = run_app(tmp_path, f'{{"dump": {{"dump_path": "{dump}", '
                          f'"dump_list": [{{"model_name": "other_model"}}]}}}}', om, x)
    assert r.returncode == 0 and "init 0" in r.stdout, r.stdout + r.stderr
    assert not glob.glob(str(dump / "*" / "0" / "two"))


def test_profiler_writes_op_summary_and_statistic(tmp_path):
    _, om = build(tmp_path)
    x = np.ones((1, 3, 10, 12), np.float32)
    prof = tmp_path / "prof"
    r = run_app(tmp_path, f'{{"profiler": {{"switch": "on", "output": "{prof}"}}}}', om, x, runs=3)
    assert r.returncode == 0 and "finalize 0" in r.stdout, r.stdout + r.stderr
    summary = glob.glob(str(prof / "PROF_*" / "op_summary_*.csv"))
    stats = glob.glob(str(prof / "PROF_*" / "op_statistic_*.csv"))
    assert len(summary) == 1 and len(stats) == 1
    rows = open(summary[0]).read().splitlines()
    assert rows[0].startswith("Model Name,Model ID,Infer ID,Op Name,OP Type")
    assert len(rows) - 1 == 3 * 2  # two convolutions, three executions
    stat = open(stats[0]).read().splitlines()
    conv = [s for s in stat if s.startswith("Conv,")]
    assert conv and conv[0].split(",")[2] == "6"


def test_dump_op_switch_leaves_models_to_dump_list(tmp_path):
    # CANN's switch for single-operator dumps (tests/e2e/test_single_op.py dumps one): models
    # are still dumped only as dump_list names them.
    _, om = build(tmp_path)
    dump = tmp_path / "dump"
    r = run_app(tmp_path, f'{{"dump": {{"dump_path": "{dump}", "dump_op_switch": "on"}}}}', om,
                np.zeros((1, 3, 10, 12), np.float32), runs=1)
    assert r.returncode == 0 and "init 0" in r.stdout, r.stdout + r.stderr
    assert not glob.glob(str(dump / "*" / "0" / "two"))


def test_bad_dump_and_profiler_configs(tmp_path):
    _, om = build(tmp_path)
    x = np.zeros((1, 3, 10, 12), np.float32)
    for cfg in ['{"dump": {"dump_list": [{"model_name": "m"}]}}',  # no dump_path
                '{"dump": {"dump_path": "/tmp/d", "dump_mode": "sideways", "dump_list": []}}',
                '{"dump": {"dump_path": "/tmp/d", "dump_list": [{"layer": ["a"]}]}}',
                '{"profiler": {"switch": "maybe"}}',
                '{"dump": []}',
                '{"dump": {"dump_path": "/proc/no/such", "dump_list": [{"model_name": "two"}]}}',
                '{"profiler": {"switch": "on", "output": "/proc/no/such"}}',
                '{"profiler": {"switch": 1}}',  # not a string: an error, not a throw
                '{"dump": {"dump_path": "/tmp/d", "dump_op_switch": true}}']:
        r = run_app(tmp_path, cfg, om, x)
        assert r.returncode == 0 and "init 100000" in r.stdout, (cfg, r.stdout + r.stderr)


def test_runtime_calls_need_a_context_unless_a_default_device_is_configured(tmp_path):
    """CANN's context rule: without aclrtSetDevice (or a context set on the thread) runtime
    calls fail with ACL_ERROR_RT_CONTEXT_NULL; aclInit's defaultDevice sets the device
    implicitly, on every thread."""
    script = tmp_path / "ctx.py"
    script.write_text(textwrap.dedent("""
        import sys, threading, acl
        cfg = sys.argv[1] if len(sys.argv) > 1 else ""
        print("init", acl.init(cfg))
        p, ret = acl.rt.malloc(64, 0)
        print("malloc", ret)
        out = []
        t = threading.Thread(target=lambda: out.append(acl.rt.create_stream()[1]))
        t.start(); t.join()
        print("thread", out[0])
    """))
    env = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"))

    def run(*args):
        r = subprocess.run([PY, str(script), *args], capture_output=True, text=True, env=env,
                           timeout=120)
        return r.stdout.split("\n")

    assert run()[:3] == ["init 0", "malloc 107002", "thread 107002"]
    good = tmp_path / "default.json"
    good.write_text('{"defaultDevice": {"default_device": "0"}}')
    assert run(str(good))[:3] == ["init 0", "malloc 0", "thread 0"]
    bad = tmp_path / "bad.json"
    bad.write_text('{"defaultDevice": {"default_device": "3"}}')
    assert run(str(bad))[0] == "init 100000"
