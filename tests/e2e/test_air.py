"""atc --framework=1: MindSpore AIR (a GE ModelDef with GE operator types), written with
OpenCANN's ge_ir.proto in the form MindSpore's export gives (NCHW data_format, filters in
NCHW, Const data inline, "op:index" edges); torch computes the same net."""
import importlib
import json
import os
import subprocess
import sys

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from acl_helpers import OmModel
from conftest import atc, set_attr

PROTO_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "om")
SOC = "--soc_version=Ascend910B3"
GE_FLOAT, GE_INT32 = 1, 7  # ge_ir.proto DataType


@pytest.fixture(scope="module")
def ge(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("ge_proto"))
    subprocess.run(["protoc", f"--proto_path={PROTO_DIR}", f"--python_out={out}", "ge_ir.proto"],
                   check=True)
    sys.path.insert(0, out)
    return importlib.import_module("ge_ir_pb2")


class Air:
    def __init__(self, ge):
        self.ge = ge
        self.model = ge.ModelDef(name="air")
        self.g = self.model.graph.add(name="main")

    def op(self, name, type_, inputs=(), layouts=(), **attrs):
        o = self.g.op.add(name=name, type=type_, input=[f"{i}:0" for i in inputs])
        for lay in layouts:
            o.input_desc.add(layout=lay)
        for k, v in attrs.items():
            if isinstance(v, list) and v and isinstance(v[0], list):
                for row in v:
                    o.attr[k].list_list_int.list_list_i.add(list_i=row)
            else:
                set_attr(o.attr[k], v)
        return name

    def data(self, name, shape, index=0):
        o = self.g.op.add(name=name, type="Data")
        o.attr["index"].i = index
        d = o.output_desc.add(dtype=GE_FLOAT, layout="NCHW")
        d.shape.dim.extend(shape)
        return name

    def const(self, name, arr):
        arr = np.ascontiguousarray(arr)
        o = self.g.op.add(name=name, type="Const")
        t = o.attr["value"].t
        t.desc.dtype = GE_FLOAT if arr.dtype == np.float32 else GE_INT32
        t.desc.shape.dim.extend(arr.shape)
        t.desc.layout = "NCHW"
        t.data = arr.tobytes()
        return name

    def output(self, *values):
        self.g.op.add(name="out", type="NetOutput", input=[f"{v}:0" for v in values])

    def save(self, path):
        with open(path, "wb") as f:
            f.write(self.model.SerializeToString())
        return path


def test_cnn_in_mindspore_form(acl_session, tmp_path, ge):
    rng = np.random.RandomState(0)
    w = rng.randn(6, 3, 3, 3).astype(np.float32) * 0.3
    b = rng.randn(6).astype(np.float32)
    fc = rng.randn(4, 96).astype(np.float32) * 0.2
    fcb = rng.randn(4).astype(np.float32)
    m = Air(ge)
    x = m.data("x", [2, 3, 8, 8])
    c = m.op("conv", "Conv2D", [x, m.const("w", w)], layouts=["NCHW", "NCHW"],
             strides=[1, 1, 1, 1], pads=[1, 1, 1, 1], dilations=[1, 1, 1, 1], groups=1,
             data_format="NCHW")
    c = m.op("bias", "BiasAdd", [c, m.const("b", b)], data_format="NCHW")
    r = m.op("relu", "Relu", [c])
    p = m.op("pool", "MaxPool", [r], ksize=[1, 1, 2, 2], strides=[1, 1, 2, 2], padding="VALID",
             data_format="NCHW")
    f = m.op("flat", "Reshape", [p, m.const("shape", np.array([2, -1], np.int32))])
    y = m.op("fc", "MatMulV2", [f, m.const("fcw", fc), m.const("fcb", fcb)], transpose_x1=False,
             transpose_x2=True)
    s = m.op("prob", "SoftmaxV2", [y], axes=[-1])
    m.output(s)
    path = m.save(str(tmp_path / "net.air"))
    r = atc(f"--model={path}", "--framework=1", f"--output={tmp_path / 'net'}", SOC)
    assert r.returncode == 0, r.stdout + r.stderr
    xin = rng.randn(2, 3, 8, 8).astype(np.float32)
    model = OmModel(str(tmp_path / "net.om"))
    try:
        got = model.run([xin])[0]
    finally:
        model.close()
    t = torch.from_numpy
    h = F.max_pool2d(torch.relu(F.conv2d(t(xin), t(w), t(b), padding=1)), 2)
    want = torch.softmax(h.reshape(2, -1) @ t(fc).T + t(fcb), -1).numpy()
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


def test_refusals_and_precheck(tmp_path, ge):
    m = Air(ge)
    x = m.data("x", [1, 3, 4, 4])
    m.op("conv", "Conv2D", [x, m.const("w", np.ones((2, 3, 1, 1), np.float32))],
         pads=[0, 0, 0, 0], data_format="NCHW")  # no strides
    m.output("conv")
    r = atc(f"--model={m.save(str(tmp_path / 'nostride.air'))}", "--framework=1",
            f"--output={tmp_path / 'o'}", SOC)
    assert r.returncode == 1 and "E19005" in r.stdout and "[strides]" in r.stdout, r.stdout
    m = Air(ge)
    x = m.data("x", [2])
    m.op("odd", "FrobnicateGE", [x])
    m.output("odd")
    path = m.save(str(tmp_path / "odd.air"))
    r = atc(f"--model={path}", "--framework=1", f"--output={tmp_path / 'o'}", SOC)
    assert r.returncode == 1 and "E19010" in r.stdout and "FrobnicateGE" in r.stdout, r.stdout
    report = tmp_path / "check.json"
    atc("--mode=3", f"--model={path}", "--framework=1", SOC, f"--check_report={report}")
    j = json.loads(report.read_text())
    assert j["summary"] == {"ops": 3, "supported": 2, "unsupported": 1}, j
    (tmp_path / "noise.air").write_bytes(np.random.RandomState(1).bytes(256))
    r = atc(f"--model={tmp_path / 'noise.air'}", "--framework=1", f"--output={tmp_path / 'o'}",
            SOC)
    assert r.returncode == 1 and "E19005" in r.stdout, r.stdout
    assert not (tmp_path / "o.om").exists()


def run_air(tmp_path, m, *feeds):
    path = m.save(str(tmp_path / "net.air"))
    r = atc(f"--model={path}", "--framework=1", f"--output={tmp_path / 'net'}", SOC)
    assert r.returncode == 0, r.stdout + r.stderr
    model = OmModel(str(tmp_path / "net.om"))
    try:
        return model.run(list(feeds))
    finally:
        model.close()


def bn_consts(m, name, c, rng):
    """GE BatchNorm's scale, offset, mean and variance as Const ops; returns names and arrays."""
    arrays = [rng.rand(c).astype(np.float32) + 0.5, rng.randn(c).astype(np.float32) * 0.1,
              rng.randn(c).astype(np.float32) * 0.1, rng.rand(c).astype(np.float32) + 0.5]
    return [m.const(f"{name}_{k}", v) for k, v in zip(("scale", "offset", "mean", "var"),
                                                       arrays)], arrays


def torch_bn(x, arrays, eps):
    scale, offset, mean, var = (torch.from_numpy(v) for v in arrays)
    return F.batch_norm(x, mean, var, scale, offset, False, 0.0, eps)


NCHW_CONV = dict(layouts=["NCHW", "NCHW"], dilations=[1, 1, 1, 1], data_format="NCHW")


def test_resnet_block(acl_session, tmp_path, ge):
    rng = np.random.RandomState(1)
    w1 = rng.randn(8, 8, 3, 3).astype(np.float32) * 0.2
    w2 = rng.randn(8, 8, 3, 3).astype(np.float32) * 0.2
    m = Air(ge)
    x = m.data("x", [2, 8, 6, 6])
    c = m.op("conv1", "Conv2D", [x, m.const("w1", w1)], strides=[1, 1, 1, 1],
             pads=[1, 1, 1, 1], groups=1, **NCHW_CONV)
    bn1, a1 = bn_consts(m, "bn1", 8, rng)
    c = m.op("bn1", "BatchNorm", [c, *bn1], epsilon=1e-3, is_training=False, data_format="NCHW")
    c = m.op("relu1", "Relu", [c])
    c = m.op("conv2", "Conv2D", [c, m.const("w2", w2)], strides=[1, 1, 1, 1],
             pads=[1, 1, 1, 1], groups=1, **NCHW_CONV)
    bn2, a2 = bn_consts(m, "bn2", 8, rng)
    c = m.op("bn2", "BatchNorm", [c, *bn2], epsilon=1e-3, is_training=False, data_format="NCHW")
    s = m.op("add", "AddV2", [c, x])
    m.output(m.op("relu2", "Relu", [s]))
    xin = rng.randn(2, 8, 6, 6).astype(np.float32)
    (got,) = run_air(tmp_path, m, xin)
    t = torch.from_numpy
    h = torch.relu(torch_bn(F.conv2d(t(xin), t(w1), padding=1), a1, 1e-3))
    want = torch.relu(torch_bn(F.conv2d(h, t(w2), padding=1), a2, 1e-3) + t(xin)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_mobilenet_block_with_depthwise_hswish_and_grouped_conv(acl_session, tmp_path, ge):
    rng = np.random.RandomState(2)
    expand = rng.randn(12, 4, 1, 1).astype(np.float32) * 0.4
    dw = rng.randn(1, 12, 3, 3).astype(np.float32) * 0.4  # [multiplier, C, kh, kw]
    grouped = rng.randn(12, 1, 3, 3).astype(np.float32) * 0.4
    project = rng.randn(4, 12, 1, 1).astype(np.float32) * 0.4
    m = Air(ge)
    x = m.data("x", [1, 4, 9, 9])
    e = m.op("expand", "Conv2D", [x, m.const("we", expand)], strides=[1, 1, 1, 1],
             pads=[0, 0, 0, 0], groups=1, **NCHW_CONV)
    bn, a = bn_consts(m, "bn", 12, rng)
    e = m.op("bn", "BatchNorm", [e, *bn], epsilon=1e-5, is_training=False, data_format="NCHW")
    e = m.op("relu6", "Relu6", [e])
    d = m.op("dw", "DepthwiseConv2D", [e, m.const("wd", dw)], strides=[1, 1, 2, 2],
             pads=[1, 1, 1, 1], **NCHW_CONV)
    d = m.op("hswish", "HSwish", [d])
    g = m.op("grouped", "Conv2D", [d, m.const("wg", grouped)], strides=[1, 1, 1, 1],
             pads=[1, 1, 1, 1], groups=12, **NCHW_CONV)
    g = m.op("hsig", "HSigmoid", [g])
    p = m.op("project", "Conv2D", [g, m.const("wp", project)], strides=[1, 1, 1, 1],
             pads=[0, 0, 0, 0], groups=1, **NCHW_CONV)
    m.output(p)
    xin = rng.randn(1, 4, 9, 9).astype(np.float32)
    (got,) = run_air(tmp_path, m, xin)
    t = torch.from_numpy
    h = torch.clamp(torch_bn(F.conv2d(t(xin), t(expand)), a, 1e-5), 0, 6)
    h = F.hardswish(F.conv2d(h, t(dw).permute(1, 0, 2, 3), stride=2, padding=1, groups=12))
    h = F.hardsigmoid(F.conv2d(h, t(grouped), padding=1, groups=12))
    want = F.conv2d(h, t(project)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_mlp_with_gelu_layernorm_concat(acl_session, tmp_path, ge):
    rng = np.random.RandomState(3)
    w1 = rng.randn(16, 24).astype(np.float32) * 0.3
    b1 = rng.randn(24).astype(np.float32)
    gamma = rng.rand(24).astype(np.float32) + 0.5
    beta = rng.randn(24).astype(np.float32)
    w2 = rng.randn(48, 5).astype(np.float32) * 0.3
    m = Air(ge)
    x = m.data("x", [3, 16])
    h = m.op("fc1", "MatMulV2", [x, m.const("w1", w1)], transpose_x1=False, transpose_x2=False)
    h = m.op("bias1", "BiasAdd", [h, m.const("b1", b1)], data_format="NCHW")
    g = m.op("gelu", "Gelu", [h])
    ge_exact = m.op("gelu_exact", "Gelu", [h], approximate="none")
    n = m.op("ln", "LayerNorm", [g, m.const("gamma", gamma), m.const("beta", beta)],
             begin_norm_axis=-1, begin_params_axis=-1, epsilon=1e-5)
    c = m.op("cat", "ConcatD", [n, ge_exact], concat_dim=1, N=2)
    y = m.op("fc2", "MatMulV2", [c, m.const("w2", w2)], transpose_x1=False, transpose_x2=False)
    mean = m.op("mean", "ReduceMeanD", [c], axes=[1], keep_dims=True)
    m.output(m.op("prob", "SoftmaxV2", [y], axes=[-1]), mean)
    xin = rng.randn(3, 16).astype(np.float32)
    prob, mean_got = run_air(tmp_path, m, xin)
    t = torch.from_numpy
    h = t(xin) @ t(w1) + t(b1)
    n = F.layer_norm(F.gelu(h, approximate="tanh"), (24,), t(gamma), t(beta), 1e-5)
    c = torch.cat([n, F.gelu(h)], 1)
    np.testing.assert_allclose(prob, torch.softmax(c @ t(w2), -1).numpy(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(mean_got, c.mean(1, keepdim=True).numpy(), rtol=1e-4, atol=1e-5)


def test_nhwc_ops_with_hwcn_filters_and_pads(acl_session, tmp_path, ge):
    """GE's default data_format is NHWC; filters stored HWCN; PadD's list of lists."""
    rng = np.random.RandomState(4)
    w = rng.randn(3, 3, 2, 5).astype(np.float32) * 0.3  # HWCN
    dw = rng.randn(3, 3, 5, 2).astype(np.float32) * 0.3  # HWCN: [kh, kw, C, multiplier]
    m = Air(ge)
    x = m.data("x", [1, 7, 7, 2])
    p = m.op("pad", "PadD", [x], paddings=[[0, 0], [1, 2], [2, 1], [0, 0]])
    c = m.op("conv", "Conv2D", [p, m.const("w", w)], layouts=["NHWC", "HWCN"],
             strides=[1, 1, 1, 1], pads=[0, 0, 0, 0])
    d = m.op("dwconv", "DepthwiseConv2D", [c, m.const("dw", dw)], layouts=["NHWC", "HWCN"],
             strides=[1, 2, 2, 1], pads=[1, 1, 1, 1])
    m.output(m.op("pool", "AvgPool", [d], ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1],
                  padding="VALID"))
    xin = rng.randn(1, 7, 7, 2).astype(np.float32)
    (got,) = run_air(tmp_path, m, xin)
    t = torch.from_numpy
    h = F.pad(t(xin).permute(0, 3, 1, 2), (2, 1, 1, 2))
    h = F.conv2d(h, t(w).permute(3, 2, 0, 1))
    h = F.conv2d(h, t(dw).permute(2, 3, 0, 1).reshape(10, 1, 3, 3), stride=2, padding=1,
                 groups=5)
    want = F.avg_pool2d(h, 2).permute(0, 2, 3, 1).numpy()
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("build,code,words", [
    (lambda m, x: m.op("bn", "BatchNorm", [x, x, x, x, x], data_format="NCHW"), "E19010",
     "is_training"),
    (lambda m, x: m.op("cat", "ConcatD", [x, x]), "E19005", "[concat_dim]"),
    (lambda m, x: m.op("cat", "ConcatD", [x, x], concat_dim=0, N=3), "E19005", "[N]"),
    (lambda m, x: m.op("g", "Gelu", [x], approximate="fast"), "E19005", "approximate"),
    (lambda m, x: m.op("p", "PadD", [x], paddings=[[1, 2, 3]]), "E19005", "2 values"),
])
def test_more_refusals(tmp_path, ge, build, code, words):
    m = Air(ge)
    x = m.data("x", [2, 3, 4, 4])
    m.output(build(m, x))
    path = m.save(str(tmp_path / "bad.air"))
    r = atc(f"--model={path}", "--framework=1", f"--output={tmp_path / 'o'}", SOC)
    assert r.returncode == 1 and code in r.stdout and words in r.stdout, r.stdout
    assert not (tmp_path / "o.om").exists()


def test_mode1_dumps_the_air_as_ge_json(tmp_path, ge):
    m = Air(ge)
    x = m.data("x", [2, 3])
    m.output(m.op("hs", "HSwish", [x]))
    out = tmp_path / "air.json"
    r = atc("--mode=1", f"--om={m.save(str(tmp_path / 'm.air'))}", "--framework=1",
            f"--json={out}")
    assert r.returncode == 0, r.stdout
    j = json.loads(out.read_text())
    ops = [op["type"] for gr in j["graph"] for op in gr["op"]]
    assert "Data" in ops and "Clip" in ops and "Mul" in ops, ops
