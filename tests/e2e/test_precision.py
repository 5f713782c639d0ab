"""Precision modes end to end: a model converted with --precision_mode=force_fp16 gives
what fp16 storage with fp32 cube accumulation gives (an independent numpy emulation), the
dtype of each op is visible, and --keep_dtype fixes an fp16 overflow."""
import json
import os

import numpy as np
import pytest
import torch

from acl_helpers import OmModel
from conftest import atc, run, tool


def r16(a):
    """Round to the nearest float16 value (ties to even) and compute on in float64."""
    return np.asarray(a, np.float64).astype(np.float16).astype(np.float64)


class SmallCnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.c2 = torch.nn.Conv2d(8, 6, 3, padding=1)
        self.fc = torch.nn.Linear(6, 5)

    def forward(self, x):
        f = self.c2(torch.relu(self.c1(x)))
        return f, self.fc(f.mean(dim=(2, 3)))


def conv64(x, w, b):
    return torch.nn.functional.conv2d(torch.from_numpy(x), torch.from_numpy(w),
                                      torch.from_numpy(b), padding=1).numpy()


def convert(tmp_path, model, x, name, *flags, outputs=("y",)):
    src = str(tmp_path / f"{name}.onnx")
    torch.onnx.export(model, torch.from_numpy(x), src, input_names=["x"],
                      output_names=list(outputs), opset_version=13)
    r = atc(f"--model={src}", "--framework=5", f"--output={tmp_path / name}",
            "--soc_version=Ascend910B3", *flags)
    assert r.returncode == 0, r.stdout
    return str(tmp_path / f"{name}.om"), r


def test_force_fp16_matches_a_numpy_emulation(acl_session, tmp_path):
    torch.manual_seed(0)
    m = SmallCnn().eval()
    x = np.random.RandomState(1).randn(1, 3, 12, 12).astype(np.float32)
    om, r = convert(tmp_path, m, x, "cnn", "--precision_mode=force_fp16", "--log=info",
                    outputs=("feat", "y"))
    assert "dtype" in r.stdout + r.stderr and "float16" in r.stdout + r.stderr
    model = OmModel(om)
    feat, y = model.run([x])
    model.close()
    p = {k: v.detach().numpy().astype(np.float64) for k, v in m.state_dict().items()}
    # fp16 storage: input and weights rounded; each op's result rounded once; cube ops
    # multiply fp16 values and accumulate in (here more than) fp32.
    h1 = r16(np.maximum(conv64(r16(x), r16(p["c1.weight"]), r16(p["c1.bias"])), 0))
    f = r16(conv64(h1, r16(p["c2.weight"]), r16(p["c2.bias"])))
    g = r16(f.mean(axis=(2, 3)))
    want = r16(g @ r16(p["fc.weight"]).T + r16(p["fc.bias"]))
    for got, ref in ((feat, f), (y, want)):
        got = got.astype(np.float64)
        assert np.array_equal(got.astype(np.float16).astype(np.float64), got), "not fp16 values"
        ulp = np.abs(got.astype(np.float16).view(np.int16).astype(np.int64) -
                     ref.astype(np.float16).view(np.int16).astype(np.int64))
        # fp32 accumulation in another order may land one fp16 step away, rarely.
        assert ulp.max() <= 1, ulp.max()
        assert (ulp == 0).mean() >= 0.99, (ulp == 0).mean()
    # ...and fp16 really moved the result away from fp32.
    tf, ty = (t.detach().numpy() for t in m(torch.from_numpy(x)))
    assert 0 < np.abs(feat - tf).max() < 0.05


def test_dtypes_are_visible_and_inputs_stay_float32(acl_session, tmp_path):
    torch.manual_seed(0)
    x = np.random.RandomState(1).randn(1, 3, 12, 12).astype(np.float32)
    om, _ = convert(tmp_path, SmallCnn().eval(), x, "cnn", "--precision_mode=allow_fp32_to_fp16",
                    outputs=("feat", "y"))
    js = tmp_path / "cnn.json"
    r = atc("--mode=1", f"--om={om}", f"--json={js}")
    assert r.returncode == 0, r.stdout
    text = js.read_text()
    assert "_oc_dtype" in text and "float16" in text and "RoundTo" in text
    assert json.loads(text)  # valid JSON
    model_id, ret = acl_session.mdl.load_from_file(om)
    assert ret == 0
    desc = acl_session.mdl.create_desc()
    assert acl_session.mdl.get_desc(desc, model_id) == 0
    assert acl_session.mdl.get_input_data_type(desc, 0) == 0  # ACL_FLOAT: fed as fp32
    acl_session.mdl.destroy_desc(desc)
    acl_session.mdl.unload(model_id)


class RmsNorm(torch.nn.Module):
    """A normalisation whose sum of squares overflows fp16 (65504) for inputs near 300."""

    def forward(self, x):
        s = x * 300.0
        return s / torch.sqrt((s * s).mean(dim=-1, keepdim=True) + 1e-5)


def test_keep_dtype_fixes_an_fp16_overflow(acl_session, tmp_path):
    x = np.random.RandomState(2).randn(4, 64).astype(np.float32)
    want = RmsNorm()(torch.from_numpy(x)).numpy()
    om, _ = convert(tmp_path, RmsNorm(), x, "rms", "--precision_mode=force_fp16")
    model = OmModel(om)
    broken = model.run([x])[0]
    model.close()
    assert not np.allclose(broken, want, atol=0.05), "fp16 should overflow here"
    keep = tmp_path / "keep.cfg"
    keep.write_text("OpType::Mul\nOpType::ReduceMean\nOpType::Add\nOpType::Sqrt\n")
    om, _ = convert(tmp_path, RmsNorm(), x, "rms_kept", "--precision_mode=force_fp16",
                    f"--keep_dtype={keep}")
    model = OmModel(om)
    fixed = model.run([x])[0]
    model.close()
    np.testing.assert_allclose(fixed, want, atol=5e-3, rtol=5e-3)


def test_precision_flag_errors(tmp_path):
    x = np.zeros((4, 64), np.float32)
    src = str(tmp_path / "rms.onnx")
    torch.onnx.export(RmsNorm(), torch.from_numpy(x), src, input_names=["x"],
                      output_names=["y"], opset_version=13)
    base = [f"--model={src}", "--framework=5", f"--output={tmp_path / 'o'}"]
    cases = [
        (["--soc_version=Ascend910B3", "--precision_mode=fp16"], "E10001"),  # a v2 name
        (["--soc_version=Ascend910B3", "--precision_mode_v2=force_fp16"], "E10001"),
        (["--soc_version=Ascend910B3", "--precision_mode=force_fp16",
          "--precision_mode_v2=fp16"], "E10001"),
        (["--soc_version=Ascend310P3", "--precision_mode=allow_mix_precision_bf16"], "E10001"),
        (["--soc_version=Ascend910B3", "--precision_mode=force_fp16",
          f"--keep_dtype={tmp_path / 'missing'}"], "E10001"),
    ]
    mix = tmp_path / "mix.json"
    mix.write_text('{"white-list": {"to-add": ["Mul"]}}')
    cases.append((["--soc_version=Ascend910B3", "--precision_mode=force_fp16",
                   f"--modify_mixlist={mix}"], "E10001"))  # only in mixed modes
    for flags, code in cases:
        r = atc(*base, *flags)
        assert r.returncode == 1 and code in r.stdout, (flags, r.stdout)
        assert not os.path.exists(tmp_path / "o.om")
    r = atc(*base, "--soc_version=Ascend910B3", "--precision_mode_v2=mixed_float16",
            f"--modify_mixlist={mix}")
    assert r.returncode == 0, r.stdout
    r = atc(*base, "--soc_version=Ascend910B3")
    assert "no --precision_mode" in r.stdout


def test_compare_tool_finds_the_overflow_and_its_fix(tmp_path):
    x = np.random.RandomState(2).randn(4, 64).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    om, _ = convert(tmp_path, RmsNorm(), x, "rms", "--precision_mode=force_fp16")
    src = str(tmp_path / "rms.onnx")
    r = run([tool("ocann-compare"), "-m", src, "-om", om, "-i", str(tmp_path / "x.npy"),
             "-o", str(tmp_path / "cmp")])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "first op breaking a threshold: /Mul_1 (Mul" in r.stdout, r.stdout
    lines = r.stdout.split("nothing overflows):", 1)[1].split("result:", 1)[0].split()
    assert "/Mul_1" in lines, r.stdout
    csv = (tmp_path / "cmp" / "compare_result.csv").read_text().splitlines()
    assert csv[0].startswith("Index,OpType,NPUDump,DataType,GroundTruth,DataType,TensorIndex,"
                             "Shape,CosineSimilarity,MaxAbsoluteError")
    assert any(row.startswith("1,Mul,") and "NaN or Inf" in row for row in csv[1:]), csv
    html = (tmp_path / "cmp" / "compare_report.html").read_text()
    assert "<svg" in html and html.count("<polyline") == 2 and "class=\"fail\"" in html
    # The suggested --keep_dtype file fixes it.
    keep = tmp_path / "keep.cfg"
    keep.write_text("\n".join(lines) + "\n")
    om2, _ = convert(tmp_path, RmsNorm(), x, "rms_fixed", "--precision_mode=force_fp16",
                     f"--keep_dtype={keep}")
    r = run([tool("ocann-compare"), "-m", src, "-om", om2, "-i", str(tmp_path / "x.npy"),
             "-o", str(tmp_path / "cmp2")])
    assert r.returncode == 0, r.stdout + r.stderr
    rows = (tmp_path / "cmp2" / "compare_result.csv").read_text().splitlines()[1:]
    assert rows and all("NaN" not in row for row in rows), rows
    final = [row for row in rows if ',"y",' in row]
    assert final and final[0].endswith(',""'), final  # the model output passes every threshold
    # A model within the thresholds says so.
    om3, _ = convert(tmp_path, RmsNorm(), x, "rms_fp32")
    r = run([tool("ocann-compare"), "-m", src, "-om", om3, "-i", str(tmp_path / "x.npy"),
             "-o", str(tmp_path / "cmp3")])
    assert "every tensor is within CANN's thresholds" in r.stdout, r.stdout


def test_compare_reads_dump_files_of_a_run(tmp_path):
    """The .om run by an application with aclInit dumps on, then compared from its dump
    files (as with an NPU's dumps): the same first failing op and the same CSV rows."""
    import glob
    from test_acl_config import run_app
    x = np.random.RandomState(2).randn(4, 64).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    om, _ = convert(tmp_path, RmsNorm(), x, "rms", "--precision_mode=force_fp16")
    src = str(tmp_path / "rms.onnx")
    dump = tmp_path / "dump"
    r = run_app(tmp_path, f'{{"dump": {{"dump_path": "{dump}", '
                          f'"dump_list": [{{"model_name": "rms"}}]}}}}', om, x, runs=1)
    assert r.returncode == 0, r.stdout + r.stderr
    runs = glob.glob(str(dump / "*" / "0" / "rms" / "*" / "0"))
    assert len(runs) == 1
    r = run([tool("ocann-compare"), "-m", src, "-om", om, "-i", str(tmp_path / "x.npy"),
             "-d", runs[0], "-o", str(tmp_path / "from_dump")])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "first op breaking a threshold: /Mul_1 (Mul" in r.stdout, r.stdout
    r2 = run([tool("ocann-compare"), "-m", src, "-om", om, "-i", str(tmp_path / "x.npy"),
              "-o", str(tmp_path / "direct")])
    assert r2.returncode == 0, r2.stdout + r2.stderr

    def rows(d):
        return [line.split(",")[1:] for line in
                (tmp_path / d / "compare_result.csv").read_text().splitlines()[1:]]
    assert rows("from_dump") == rows("direct")
    # Without the run's inputs, or with a folder holding no dumps, it says what is missing.
    r = run([tool("ocann-compare"), "-m", src, "-om", om, "-d", runs[0]])
    assert r.returncode == 1 and "-i" in r.stderr, r.stderr
    r = run([tool("ocann-compare"), "-m", src, "-om", om, "-i", str(tmp_path / "x.npy"),
             "-d", str(dump)])
    assert r.returncode == 1 and "folder of one execution" in r.stderr, r.stderr


def ort_available():
    try:
        import onnxruntime  # noqa: F401
        return True
    except ImportError:
        module = os.environ.get("ORT_NODE_MODULE") or os.path.expanduser(
            "~/.cache/ort-peer/node_modules/onnxruntime-node")
        return os.path.isfile(os.path.join(module, "package.json"))


def test_compare_with_onnxruntime_as_the_reference(tmp_path):
    """ONNX Runtime as the ground truth gives the rows OpenCANN's own reference gives (both
    fp32) when it is there, and a clear refusal when it is not."""
    import pytest
    torch.manual_seed(0)
    x = np.random.RandomState(1).randn(1, 3, 12, 12).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    om, _ = convert(tmp_path, SmallCnn().eval(), x, "cnn", "--precision_mode=force_fp16",
                    outputs=("feat", "y"))
    src = str(tmp_path / "cnn.onnx")
    base = [tool("ocann-compare"), "-m", src, "-om", om, "-i", str(tmp_path / "x.npy")]
    r = run(base + ["--reference", "onnxruntime", "-o", str(tmp_path / "none")],
            env=dict(os.environ, ORT_NODE_MODULE="/nonexistent", PYTHONPATH="/nonexistent"))
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        assert r.returncode == 1 and "ONNX Runtime is not available" in r.stderr, r.stderr
    r = run(base + ["--reference", "sideways"])
    assert r.returncode == 1 and "opencann or onnxruntime" in r.stderr, r.stderr
    if not ort_available():
        pytest.skip("ONNX Runtime (Python module or onnxruntime-node) is not on this machine")
    r = run(base + ["--reference", "onnxruntime", "-o", str(tmp_path / "ort")])
    assert r.returncode == 0 and "reference: ONNX Runtime" in r.stdout, r.stdout + r.stderr
    r = run(base + ["-o", str(tmp_path / "own")])
    assert r.returncode == 0, r.stdout + r.stderr

    import csv

    def rows(d):
        return list(csv.reader((tmp_path / d / "compare_result.csv").open()))[1:]
    ort, own = rows("ort"), rows("own")
    assert [r[:8] for r in ort] == [r[:8] for r in own] and len(own) >= 4
    for a, b in zip(ort, own):  # cosine similarity of the same fp16 tensor to two fp32 runs
        assert abs(float(a[8]) - float(b[8])) < 1e-4, (a, b)


def test_compare_html_report_renders_in_a_browser(tmp_path):
    """The compare report opens in headless Chromium: the screenshot shows both curves (cosine
    blue #1f77b4, RED red #d62728) and the failing rows' highlight."""
    import subprocess
    from PIL import Image
    x = np.random.RandomState(2).randn(4, 64).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    om, _ = convert(tmp_path, RmsNorm(), x, "rms", "--precision_mode=force_fp16")
    r = run([tool("ocann-compare"), "-m", str(tmp_path / "rms.onnx"), "-om", om, "-i",
             str(tmp_path / "x.npy"), "-o", str(tmp_path / "cmp")])
    assert r.returncode == 0, r.stderr
    html = tmp_path / "cmp" / "compare_report.html"
    page = html.read_text()
    assert "<script" not in page and "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    shot = tmp_path / "shot.png"
    b = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                        "--hide-scrollbars", "--window-size=1200,900", f"--screenshot={shot}",
                        html.as_uri()], capture_output=True, text=True, timeout=120)
    assert shot.exists(), b.stderr[-2000:]
    pixels = list(Image.open(shot).convert("RGB").getdata())

    def near(c):
        return sum(1 for p in pixels if all(abs(p[i] - c[i]) < 30 for i in range(3)))
    assert near((0x1f, 0x77, 0xb4)) > 100 and near((0xd6, 0x27, 0x28)) > 100


def rbf16(a):
    """Round to the nearest bfloat16 value (ties to even) and compute on in float64."""
    u = np.asarray(a, np.float32).view(np.uint32).astype(np.uint64)
    u = ((u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
    return u.view(np.float32).astype(np.float64)


def bf16_steps(got, ref):
    """Distance in bfloat16 steps (got and ref hold bfloat16 values)."""
    g = (np.asarray(got, np.float32).view(np.int32) >> 16).astype(np.int64)
    r = (np.asarray(ref, np.float32).view(np.int32) >> 16).astype(np.int64)
    return np.abs(g - r)


def test_mixed_bf16_computes_in_bf16_and_matches_an_emulation(acl_session, tmp_path):
    """allow_mix_precision_bf16 on a CPU with bf16 dot products runs the convolutions and
    the matmul as bf16 kernels (fp32 accumulation); the result is what bf16 storage gives."""
    torch.manual_seed(0)
    m = SmallCnn().eval()
    x = np.random.RandomState(1).randn(1, 3, 12, 12).astype(np.float32)
    om, _ = convert(tmp_path, m, x, "cnn", "--precision_mode=allow_mix_precision_bf16",
                    outputs=("feat", "y"))
    model = OmModel(om)
    feat, y = model.run([x])
    model.close()
    p = {k: v.detach().numpy().astype(np.float64) for k, v in m.state_dict().items()}
    h1 = rbf16(np.maximum(conv64(rbf16(x), rbf16(p["c1.weight"]), rbf16(p["c1.bias"])), 0))
    f = rbf16(conv64(h1, rbf16(p["c2.weight"]), rbf16(p["c2.bias"])))
    g = rbf16(f.mean(axis=(2, 3)))
    want = rbf16(g @ rbf16(p["fc.weight"]).T + rbf16(p["fc.bias"]))
    for got, ref in ((feat, f), (y, want)):
        assert np.array_equal(rbf16(got), got.astype(np.float64)), "not bf16 values"
        steps = bf16_steps(got, ref)
        assert steps.max() <= 1, steps.max()
        assert (steps == 0).mean() >= 0.98, (steps == 0).mean()
    # Which kernels ran: bf16 ones where the CPU has bf16 dot products (direct convolutions:
    # `auto` may pick fp32 Winograd for a 3x3 layer where it measures faster).
    env = dict(os.environ, ONEDNN_VERBOSE="1", OCANN_CONV_ALGO="direct")
    r = run([tool("msame"), "--model", om, "--loop", "1"], env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    conv_lines = [l for l in r.stdout.splitlines() if l.startswith("onednn_verbose,exec,cpu,convolution")]
    assert conv_lines
    if "avx512_bf16" in open("/proc/cpuinfo").read() or "amx_bf16" in open("/proc/cpuinfo").read():
        assert all("src_bf16" in l and "wei_bf16" in l for l in conv_lines), conv_lines
    # OCANN_BF16_COMPUTE=0 multiplies the same bf16 values in fp32.
    env = dict(os.environ, ONEDNN_VERBOSE="1", OCANN_BF16_COMPUTE="0", OCANN_CONV_ALGO="direct")
    r = run([tool("msame"), "--model", om, "--loop", "1"], env=env)
    assert r.returncode == 0 and "src_bf16" not in r.stdout


def test_model_stored_in_float16_runs_as_the_npu_computes_it(acl_session, tmp_path):
    """A model whose weights, inputs and outputs are float16 (ONNX Runtime runs it in its own
    types): Conv, Relu, pooling, Gemm and Softmax in float16, each result rounded to float16
    as the NPU stores it, float16 in and out. Checked against torch in float32 on the same
    float16 weights."""
    import onnx
    from onnx import TensorProto as T, helper, numpy_helper
    from acl_helpers import OmModel
    rng = np.random.default_rng(0)
    w = {"W": rng.standard_normal((8, 3, 3, 3)), "B": rng.standard_normal(8),
         "G": rng.standard_normal((4, 8)), "GB": rng.standard_normal(4)}
    w = {k: v.astype(np.float16) for k, v in w.items()}
    nodes = [helper.make_node("Conv", ["x", "W", "B"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"]),
             helper.make_node("GlobalAveragePool", ["r"], ["p"]),
             helper.make_node("Flatten", ["p"], ["f"]),
             helper.make_node("Gemm", ["f", "G", "GB"], ["g"], transB=1),
             helper.make_node("Softmax", ["g"], ["y"], axis=1)]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", T.FLOAT16, [2, 3, 8, 8])],
                          [helper.make_tensor_value_info("y", T.FLOAT16, [2, 4])],
                          [numpy_helper.from_array(v, k) for k, v in w.items()])
    src = str(tmp_path / "f16.onnx")
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), src)
    r = atc(f"--model={src}", "--framework=5", f"--output={tmp_path / 'f16'}",
            "--soc_version=Ascend910B3")
    assert r.returncode == 0, r.stdout
    info = atc("--mode=6", f"--om={tmp_path / 'f16.om'}").stdout
    assert "name[x], dtype[DT_FLOAT16]" in info and "name[y], dtype[DT_FLOAT16]" in info, info
    x = rng.standard_normal((2, 3, 8, 8)).astype(np.float16)
    om = OmModel(str(tmp_path / "f16.om"))
    try:
        y = om.run([x])[0]
    finally:
        om.close()
    assert y.dtype == np.float16 and y.shape == (2, 4)
    f = {k: torch.from_numpy(v.astype(np.float32)) for k, v in w.items()}
    with torch.no_grad():
        c = torch.nn.functional.conv2d(torch.from_numpy(x.astype(np.float32)), f["W"], f["B"],
                                       padding=1)
        want = torch.softmax(torch.relu(c).mean((2, 3)) @ f["G"].T + f["GB"], 1).numpy()
    np.testing.assert_allclose(y.astype(np.float32), want, rtol=1e-2, atol=1e-3)


def test_dynamic_quantization_follows_the_onnx_specification(acl_session, tmp_path):
    """DynamicQuantizeLinear + MatMulInteger (what onnxruntime's quantize_dynamic writes),
    against a numpy transcription of the ONNX specification: scale = (max(0, max x) -
    min(0, min x)) / 255, zero point and quantized values rounded half to even and saturated,
    integer products accumulated exactly in int32. OpenCANN matches it bit for bit. (x86
    8-bit dot products without VNNI add pairs of u8 x s8 products in saturating 16-bit
    arithmetic, which OpenVINO documents as the "saturation issue"; a runtime using them
    differs from the specification where pair sums pass 32767, as here.)"""
    import onnx
    from onnx import TensorProto as T, helper, numpy_helper
    from acl_helpers import OmModel
    rng = np.random.default_rng(7)
    wq = rng.integers(-128, 128, (64, 8)).astype(np.int8)
    ws = np.float32(0.02)
    nodes = [helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xzp"]),
             helper.make_node("MatMulInteger", ["xq", "wq", "xzp", "wzp"], ["acc"]),
             helper.make_node("Cast", ["acc"], ["accf"], to=T.FLOAT),
             helper.make_node("Mul", ["xs", "ws"], ["s"]),
             helper.make_node("Mul", ["accf", "s"], ["y"])]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", T.FLOAT, [5, 64])],
                          [helper.make_tensor_value_info("y", T.FLOAT, [5, 8])],
                          [numpy_helper.from_array(wq, "wq"),
                           numpy_helper.from_array(np.array(0, np.int8), "wzp"),
                           numpy_helper.from_array(np.array(ws), "ws")])
    src = str(tmp_path / "dq.onnx")
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), src)
    r = atc(f"--model={src}", "--framework=5", f"--output={tmp_path / 'dq'}",
            "--soc_version=Ascend910B3")
    assert r.returncode == 0, r.stdout
    # Large values, so that 16-bit pair sums would saturate: 255 * 127 * 2 > 32767.
    x = (rng.standard_normal((5, 64)) * 3).astype(np.float32)
    x[0, :] = np.abs(x[0, :]) + 2
    om = OmModel(str(tmp_path / "dq.om"))
    try:
        y = om.run([x])[0]
    finally:
        om.close()
    lo, hi = np.float32(min(0.0, x.min())), np.float32(max(0.0, x.max()))
    scale = np.float32((hi - lo) / np.float32(255))
    zp = np.clip(np.round(-lo / scale), 0, 255)  # np.round: half to even
    q = np.clip(np.round(x / scale) + zp, 0, 255).astype(np.int32)
    acc = (q - int(zp)) @ wq.astype(np.int32)
    want = acc.astype(np.float32) * (scale * ws)
    np.testing.assert_array_equal(y, want)


def test_model_stored_in_bfloat16_runs_as_the_npu_computes_it(acl_session, tmp_path):
    """bfloat16 weights, input and output (Ascend's other native 16-bit type): each op's
    result rounded to bfloat16, fp32 accumulation. Against torch computing the same steps in
    bfloat16 storage; within one bfloat16 ulp (the fp32 sums may round either side)."""
    import onnx
    from onnx import TensorProto as T, helper
    from acl_infer import InferSession
    rng = np.random.default_rng(0)

    def bf16(name, a):
        raw = torch.from_numpy(a.astype(np.float32)).to(torch.bfloat16).view(torch.int16)
        return helper.make_tensor(name, T.BFLOAT16, a.shape, raw.numpy().tobytes(), raw=True)
    W, B = rng.standard_normal((8, 6)), rng.standard_normal(6)
    g = helper.make_graph(
        [helper.make_node("MatMul", ["x", "W"], ["m"]), helper.make_node("Add", ["m", "B"], ["a"]),
         helper.make_node("Relu", ["a"], ["y"])], "g",
        [helper.make_tensor_value_info("x", T.BFLOAT16, [4, 8])],
        [helper.make_tensor_value_info("y", T.BFLOAT16, [4, 6])], [bf16("W", W), bf16("B", B)])
    src = str(tmp_path / "bf16.onnx")
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), src)
    r = atc(f"--model={src}", "--framework=5", f"--output={tmp_path / 'bf16'}",
            "--soc_version=Ascend910B3")
    assert r.returncode == 0, r.stdout
    x = torch.from_numpy(rng.standard_normal((4, 8)).astype(np.float32)).to(torch.bfloat16)
    with InferSession(0, str(tmp_path / "bf16.om")) as s:
        assert s.get_inputs()[0].dtype == np.uint16  # bfloat16 bits: numpy has no bfloat16
        (y,) = s.infer([x.view(torch.int16).numpy().view(np.uint16)])
        # float32 values are rounded to bfloat16 as torch rounds them (not cast to integers)
        (y_from_floats,) = s.infer([x.float().numpy()])
        with pytest.raises(ValueError, match="bfloat16"):
            s.infer([np.zeros((4, 8), np.int32)])
    np.testing.assert_array_equal(y_from_floats, y)
    got = torch.from_numpy(y.view(np.int16)).view(torch.bfloat16).float()

    def b(a):
        return torch.from_numpy(np.asarray(a, np.float32)).to(torch.bfloat16).float()
    m = (x.float() @ b(W)).to(torch.bfloat16).float()
    want = torch.relu((m + b(B)).to(torch.bfloat16).float())
    ulp = want.abs() * 2.0 ** -7 + 1e-30
    assert ((got - want).abs() <= ulp).all(), (got, want)
