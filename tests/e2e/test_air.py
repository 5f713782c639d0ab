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
from conftest import atc

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
            a = o.attr[k]
            if isinstance(v, bool):
                a.b = v
            elif isinstance(v, int):
                a.i = v
            elif isinstance(v, str):
                a.s = v.encode()
            elif isinstance(v, list):
                a.list.i.extend(v)
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
