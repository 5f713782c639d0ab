"""Nothing is accepted for nothing: every flag atc knows (the list is read from its source)
either shows its effect on the .om or the run, or is refused with E10001 naming it and
saying OpenCANN does not support it."""
import json
import os
import re

import pytest
import torch

from conftest import SOURCE, atc


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)

    def forward(self, x):
        return torch.relu(self.conv(x)).flatten(1)


def known_flags():
    text = open(os.path.join(SOURCE, "src", "cli", "atc_flags.cpp")).read()
    block = re.search(r"kKnownFlags = \{(.*?)\};", text, re.S).group(1)
    return set(re.findall(r'"([a-z0-9_]+)"', block))


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    d = tmp_path_factory.mktemp("flags")
    torch.manual_seed(0)
    src = str(d / "net.onnx")
    torch.onnx.export(Net().eval(), torch.randn(1, 3, 8, 8), src, input_names=["x"],
                      output_names=["y"], opset_version=13,
                      dynamic_axes={"x": {0: "n"}, "y": {0: "n"}})
    return src


def build(model, tmp_path, *flags, name="m"):
    out = tmp_path / name
    r = atc(f"--model={model}", "--framework=5", f"--output={out}", "--soc_version=Ascend910B3",
            "--input_shape=x:1,3,8,8", *flags)
    return r, str(out) + ".om"


def as_json(tmp_path, om):
    js = tmp_path / "m.json"
    r = atc("--mode=1", f"--om={om}", f"--json={js}")
    assert r.returncode == 0, r.stdout
    return json.loads(js.read_text())


def op_types(model_json):
    return [op["type"] for g in model_json["graph"] for op in g["op"]]


def refused(r, flag):
    return (r.returncode == 1 and "E10001" in r.stdout and f"--{flag}" in r.stdout
            and "does not support" in r.stdout)


# flag -> (value that is refused, value that is accepted or None)
REFUSED = {
    "is_input_adjust_hw_layout": ("true", "false"),
    "is_output_adjust_hw_layout": ("true", "false"),
    "op_debug_level": ("1", "0"),
    "save_original_model": ("true", "false"),
    "dump_mode": ("1", "0"),
    "host_env_os": ("windows", "linux"),
    "host_env_cpu": ("riscv64", "aarch64"),
}


def test_refused_flags_name_themselves(model, tmp_path):
    for flag, (bad, good) in REFUSED.items():
        r, om = build(model, tmp_path, f"--{flag}={bad}")
        assert refused(r, flag), (flag, r.stdout)
        assert not os.path.exists(om)
        if good is not None:
            r, om = build(model, tmp_path, f"--{flag}={good}")
            assert r.returncode == 0, (flag, r.stdout)
            os.remove(om)


# The NPU's implementation and memory choices: accepted with CANN's values, recorded in the
# .om, and a warning where the NPU's numbers would differ from OpenCANN's.
RECORDED = {
    "op_select_implmode": (["high_precision", "high_performance", "high_precision_for_all",
                            "high_performance_for_all"], {"high_performance",
                                                          "high_performance_for_all"}),
    "enable_small_channel": (["0", "1"], set()),
    "buffer_optimize": (["l2_optimize", "l1_optimize", "off_optimize"], set()),
    "allow_hf32": (["true", "false"], {"true"}),
}


def npu_options(tmp_path, om):
    attrs = as_json(tmp_path, om)["attr"]
    entry = next((a for a in attrs if a["key"] == "npu_options"), None)
    return entry["value"]["s"] if entry else None


def test_npu_tuning_flags_are_recorded_and_announced(model, tmp_path):
    for flag, (values, changing) in RECORDED.items():
        for value in values:
            r, om = build(model, tmp_path, f"--{flag}={value}")
            assert r.returncode == 0, (flag, value, r.stdout)
            assert npu_options(tmp_path, om) == f"{flag}={value}"
            assert f"{flag}[{value}]" in atc("--mode=6", f"--om={om}").stdout
            warned = [l for l in r.stdout.splitlines()
                      if l.startswith("[WARNING]") and f"--{flag}={value}" in l]
            assert len(warned) == (1 if value in changing else 0), (flag, value, r.stdout)
            if warned:
                assert "does not emulate" in warned[0]
            os.remove(om)
        r, om = build(model, tmp_path, f"--{flag}=fastest")
        assert r.returncode == 1 and "E10001" in r.stdout and f"--{flag}" in r.stdout
        assert values[0] in r.stdout and not os.path.exists(om)
    # Several together, in the order atc documents them.
    r, om = build(model, tmp_path, "--enable_small_channel=1", "--buffer_optimize=off_optimize",
                  "--op_select_implmode=high_performance", "--optypelist_for_implmode=Conv")
    assert r.returncode == 0, r.stdout
    assert npu_options(tmp_path, om) == ("op_select_implmode=high_performance;"
                                         "enable_small_channel=1;buffer_optimize=off_optimize;"
                                         "optypelist_for_implmode=Conv")
    r, _ = build(model, tmp_path, "--op_select_implmode=high_precision_for_all",
                 "--optypelist_for_implmode=Conv")
    assert r.returncode == 1 and "--optypelist_for_implmode" in r.stdout
    # Without the flags nothing is recorded.
    r, om = build(model, tmp_path)
    assert npu_options(tmp_path, om) is None


def test_op_precision_mode_file(model, tmp_path):
    ini = tmp_path / "op_precision.ini"
    ini.write_text("# per-op modes\n[ByOpType]\nConv2D=high_precision\nSoftmaxV2 = high_performance"
                   "\n\n[ByNodeName]\n/conv/Conv=support_out_of_bound_index\nno_such=keep_fp16\n")
    r, om = build(model, tmp_path, f"--op_precision_mode={ini}")
    assert r.returncode == 0, r.stdout
    assert npu_options(tmp_path, om) == (
        "op_precision_mode=ByOpType:Conv2D=high_precision,ByOpType:SoftmaxV2=high_performance,"
        "ByNodeName:/conv/Conv=support_out_of_bound_index,ByNodeName:no_such=keep_fp16")
    assert "[WARNING] --op_precision_mode: the model has no node named [no_such]" in r.stdout
    warned = [l for l in r.stdout.splitlines() if "SoftmaxV2=high_performance" in l]
    assert len(warned) == 1 and "no_such=keep_fp16" in warned[0], r.stdout
    os.remove(om)
    for text, why in [("[ByOpName]\nConv2D=high_precision\n", "[ByOpType] and [ByNodeName]"),
                      ("Conv2D=fast\n", "the mode must be one of"),
                      ("Conv2D\n", "is not \"name=mode\""),
                      ("# nothing\n", "sets no operator's mode")]:
        ini.write_text(text)
        r, om = build(model, tmp_path, f"--op_precision_mode={ini}")
        assert r.returncode == 1 and "E10001" in r.stdout and why in r.stdout, (text, r.stdout)
        assert not os.path.exists(om)
    r, _ = build(model, tmp_path, f"--op_precision_mode={tmp_path / 'missing.ini'}")
    assert r.returncode == 1 and "cannot be read" in r.stdout


def test_implemented_flags_show_their_effect(model, tmp_path):
    r, om = build(model, tmp_path)
    assert r.returncode == 0, r.stdout
    base = as_json(tmp_path, om)
    assert "Relu" not in op_types(base)  # fused into the convolution
    # --fusion_switch_file, both forms; an unknown pass is a warning naming the known ones.
    sw = tmp_path / "switch.cfg"
    sw.write_text("FuseConvActivation:off\n")
    r, om = build(model, tmp_path, f"--fusion_switch_file={sw}")
    assert r.returncode == 0 and "Relu" in op_types(as_json(tmp_path, om)), r.stdout
    sw.write_text(json.dumps({"Switch": {"GraphFusion": {"ALL": "off"},
                                         "UBFusion": {"NoSuchPass": "off"}}}))
    r, om = build(model, tmp_path, f"--fusion_switch_file={sw}")
    assert r.returncode == 0 and "Relu" in op_types(as_json(tmp_path, om)), r.stdout
    assert "NoSuchPass" in r.stdout and "FuseConvActivation" in r.stdout
    # --precision_mode / _v2 / --keep_dtype / --modify_mixlist: dtypes on the ops.
    r, om = build(model, tmp_path, "--precision_mode=force_fp16")
    assert r.returncode == 0 and "RoundTo" in op_types(as_json(tmp_path, om))
    r, om = build(model, tmp_path, "--precision_mode_v2=origin")
    assert r.returncode == 0 and "RoundTo" not in op_types(as_json(tmp_path, om))
    # A node name the model lacks is a warning, not silence; the name of a node fused into
    # another (the Relu) keeps the fused node.
    keep = tmp_path / "keep.cfg"
    keep.write_text("/Relu\n/Flatten\nno_such_node\n")
    r, om = build(model, tmp_path, "--precision_mode=force_fp16", f"--keep_dtype={keep}")
    assert r.returncode == 0 and "RoundTo" not in op_types(as_json(tmp_path, om)), r.stdout
    assert "[WARNING] --keep_dtype: the model has no node named [no_such_node]" in r.stdout
    keep.write_text("OpType::Conv\nOpType::Flatten\n")
    r, om = build(model, tmp_path, "--precision_mode=force_fp16", f"--keep_dtype={keep}")
    assert r.returncode == 0 and "RoundTo" not in op_types(as_json(tmp_path, om)), r.stdout
    mix = tmp_path / "mix.json"
    mix.write_text('{"white-list": {"to-remove": ["Conv"]}}')
    r, om = build(model, tmp_path, "--precision_mode=allow_mix_precision",
                  f"--modify_mixlist={mix}")
    assert r.returncode == 0 and "RoundTo" not in op_types(as_json(tmp_path, om)), r.stdout
    # --customize_dtypes: the conv in fp16 without any mode.
    cust = tmp_path / "dtypes.cfg"
    cust.write_text("OpType::Conv:InputDtype:float16,float16,float16,OutputDtype:float16\n")
    r, om = build(model, tmp_path, f"--customize_dtypes={cust}")
    assert r.returncode == 0 and "RoundTo" in op_types(as_json(tmp_path, om)), r.stdout
    # --disable_reuse_memory: every value its own memory (not smaller than with reuse).
    r, om = build(model, tmp_path, "--disable_reuse_memory=1")
    assert r.returncode == 0
    # --input_format: recorded; NHWC on an ONNX model is refused.
    r, om = build(model, tmp_path, "--input_format=ND")
    assert r.returncode == 0
    r6 = atc("--mode=6", f"--om={om}")
    assert "format[ND]" in r6.stdout, r6.stdout
    r, _ = build(model, tmp_path, "--input_format=NHWC")
    assert r.returncode == 1 and "E10001" in r.stdout and "NCHW, ND or NCDHW" in r.stdout
    # --log=info: the pass log and the dtype table.
    r, om = build(model, tmp_path, "--log=info", "--precision_mode=force_fp16")
    assert "pass" in r.stdout + r.stderr and "dtype" in r.stdout + r.stderr
    # A gear option: the .om gets the gear input.
    r = atc(f"--model={model}", "--framework=5", f"--output={tmp_path / 'g'}",
            "--soc_version=Ascend910B3", "--input_shape=x:-1,3,8,8", "--dynamic_batch_size=1,2")
    assert r.returncode == 0 and "ascend_mbatch_shape_data" in atc(
        "--mode=6", f"--om={tmp_path / 'g.om'}").stdout
    # --mode=3 writes its report where --check_report says.
    rep = tmp_path / "report.json"
    r = atc("--mode=3", f"--model={model}", "--framework=5", "--soc_version=Ascend910B3",
            "--input_shape=x:1,3,8,8", f"--check_report={rep}")
    assert r.returncode == 0 and json.loads(rep.read_text())["result"] == "success"


def test_flags_of_another_mode_or_framework_are_refused(model, tmp_path):
    r, om = build(model, tmp_path, f"--json={tmp_path / 'x.json'}")
    assert r.returncode == 1 and "E10001" in r.stdout and "--json" in r.stdout
    r, om = build(model, tmp_path, f"--check_report={tmp_path / 'x.json'}")
    assert r.returncode == 1 and "--check_report" in r.stdout
    r, om = build(model, tmp_path, "--weight=w.caffemodel")
    assert r.returncode == 1 and "--weight" in r.stdout and "Caffe" in r.stdout
    r, om = build(model, tmp_path, "--optypelist_for_implmode=Conv")
    assert r.returncode == 1 and "--optypelist_for_implmode" in r.stdout
    r, om = build(model, tmp_path, "--op_select_implmode=high_precision",
                  "--optypelist_for_implmode=Conv")
    assert r.returncode == 0, r.stdout


def run_om(acl, om, arrays):
    from acl_helpers import OmModel
    m = OmModel(om)
    try:
        return m.run(arrays)
    finally:
        m.close()


def test_model_io_flags(acl_session, model, tmp_path):
    import numpy as np
    x = np.random.RandomState(0).randn(1, 3, 8, 8).astype(np.float32)
    r, om = build(model, tmp_path, name="plain")
    assert r.returncode == 0, r.stdout
    (want,) = run_om(acl_session, om, [x])
    names = [op["name"] for g in as_json(tmp_path, om)["graph"] for op in g["op"]]
    conv = next(n for n in names if "Conv" in n)
    # --out_nodes: the convolution's output instead of the model's (4 x 8 x 8 values).
    r, om = build(model, tmp_path, f"--out_nodes={conv}:0", name="outn")
    assert r.returncode == 0, r.stdout
    (feat,) = run_om(acl_session, om, [x])
    assert feat.size == 4 * 8 * 8
    np.testing.assert_allclose(np.maximum(feat.ravel(), 0), want.ravel(), rtol=1e-5, atol=1e-6)
    r, _ = build(model, tmp_path, "--out_nodes=nope:0", name="bad")
    assert r.returncode == 1 and "E10016" in r.stdout and "--out_nodes" in r.stdout
    r, _ = build(model, tmp_path, f"--out_nodes={conv}:7", name="bad")
    assert r.returncode == 1 and "E10001" in r.stdout
    # --input_fp16_nodes: the input is FLOAT16 in the model and takes fp16 data.
    r, om = build(model, tmp_path, "--input_fp16_nodes=x", name="in16")
    assert r.returncode == 0, r.stdout
    mid, ret = acl_session.mdl.load_from_file(om)
    desc = acl_session.mdl.create_desc()
    acl_session.mdl.get_desc(desc, mid)
    assert acl_session.mdl.get_input_data_type(desc, 0) == 1  # ACL_FLOAT16
    assert acl_session.mdl.get_input_size_by_index(desc, 0) == x.size * 2
    acl_session.mdl.destroy_desc(desc)
    acl_session.mdl.unload(mid)
    (y16in,) = run_om(acl_session, om, [x.astype(np.float16)])
    np.testing.assert_allclose(y16in, want, rtol=1e-2, atol=1e-2)
    r, _ = build(model, tmp_path, "--input_fp16_nodes=nope", name="bad")
    assert r.returncode == 1 and "E10016" in r.stdout
    # --output_type: FP16 outputs, both forms; UINT8 is refused.
    for spec in ("FP16", "/Flatten:0:FP16"):
        r, om = build(model, tmp_path, f"--output_type={spec}", name="out16")
        assert r.returncode == 0, (spec, r.stdout)
        (y,) = run_om(acl_session, om, [x])
        assert y.dtype == np.float16 or y.nbytes == want.nbytes // 2, spec
        y = np.frombuffer(y.tobytes(), np.float16).reshape(want.shape)
        np.testing.assert_allclose(y.astype(np.float32), want, rtol=2e-3, atol=2e-3)
    r, _ = build(model, tmp_path, "--output_type=UINT8", name="bad")
    assert r.returncode == 1 and "E10001" in r.stdout and "does not support" in r.stdout


def test_every_known_flag_is_covered():
    covered = set(REFUSED) | set(RECORDED) | {"op_precision_mode", "out_nodes", "input_fp16_nodes", "output_type", "insert_op_conf",
                              "customize_dtypes",
        # built and checked above or in the other atc tests
        "mode", "model", "weight", "framework", "output", "soc_version", "input_shape",
        "input_format", "precision_mode", "precision_mode_v2", "keep_dtype", "modify_mixlist",
        "fusion_switch_file", "optypelist_for_implmode", "log", "disable_reuse_memory", "om",
        "json", "check_report", "dynamic_batch_size", "dynamic_image_size", "dynamic_dims",
        "help", "h", "singleop"}  # singleop: tests/e2e/test_single_op.py
    assert known_flags() == covered, known_flags() ^ covered


class Classifier(torch.nn.Module):
    """Conv, pool, flatten by the batch the input has, linear: batch-agnostic."""

    def __init__(self, hard_batch=None):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.fc = torch.nn.Linear(4 * 4 * 4, 5)
        self.hard_batch = hard_batch

    def forward(self, x):
        y = torch.nn.functional.max_pool2d(torch.relu(self.conv(x)), 2)
        y = y.reshape(self.hard_batch, -1) if self.hard_batch else torch.flatten(y, 1)
        return torch.softmax(self.fc(y), 1)


def test_input_shape_sets_a_dim_the_model_fixes(acl_session, tmp_path):
    """ModelZoo's ResNet-50 guide exports at batch 16 and converts at 64: --input_shape may
    set any static dim; the graph is inferred again, and a node that cannot take the new shape
    is refused by name."""
    import numpy as np
    torch.manual_seed(0)
    net = Classifier().eval()
    src = str(tmp_path / "fixed.onnx")
    torch.onnx.export(net, torch.randn(2, 3, 8, 8), src, input_names=["x"], output_names=["y"],
                      opset_version=13)
    out = tmp_path / "b5"
    r = atc(f"--model={src}", "--framework=5", f"--output={out}", "--soc_version=Ascend910B3",
            "--input_shape=x:5,3,8,8")
    assert r.returncode == 0, r.stdout
    x = np.random.RandomState(1).randn(5, 3, 8, 8).astype(np.float32)
    got = run_om(acl_session, str(out) + ".om", [x])[0]
    with torch.no_grad():
        want = net(torch.from_numpy(x)).numpy()
    assert got.shape == (5, 5)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    # The batch made dynamic over the fixed one, with gears.
    r = atc(f"--model={src}", "--framework=5", f"--output={tmp_path / 'gears'}",
            "--soc_version=Ascend910B3", "--input_shape=x:-1,3,8,8", "--dynamic_batch_size=1,4")
    assert r.returncode == 0, r.stdout
    # A model that bakes the batch into a Reshape cannot take another: refused, naming it.
    hard = Classifier(hard_batch=2).eval()
    hard.load_state_dict(net.state_dict())
    src = str(tmp_path / "hard.onnx")
    torch.onnx.export(hard, torch.randn(2, 3, 8, 8), src, input_names=["x"], output_names=["y"],
                      opset_version=13)
    r = atc(f"--model={src}", "--framework=5", f"--output={tmp_path / 'hard'}",
            "--soc_version=Ascend910B3", "--input_shape=x:5,3,8,8")
    assert r.returncode == 1 and "E10001" in r.stdout and "[--input_shape]" in r.stdout
    assert "x: [2,3,8,8] -> [5,3,8,8]" in r.stdout and "node [" in r.stdout, r.stdout
    assert not os.path.exists(tmp_path / "hard.om")
