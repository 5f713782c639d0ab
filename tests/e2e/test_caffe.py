"""atc --framework=0: Caffe nets written from torch modules (same weights) convert and match
torch; V1 and V2 formats; malformed nets and weights get their codes."""
import json
import os

import numpy as np
import pytest
import torch
import torch.nn as nn

from acl_helpers import OmModel
from caffe_nets import NetWriter, bn_scale, caffe_pb2, conv, randomize_bn, t
from conftest import atc

SOC = "--soc_version=Ascend910B3"


@pytest.fixture(scope="module")
def pb(tmp_path_factory):
    return caffe_pb2(str(tmp_path_factory.mktemp("caffe_proto")))


def convert(prototxt, caffemodel, out, *extra):
    return atc(f"--model={prototxt}", f"--weight={caffemodel}", "--framework=0",
               f"--output={out}", SOC, *extra)


def run_om(path, x):
    m = OmModel(path)
    try:
        return m.run([x])
    finally:
        m.close()


def check(acl_session, tmp_path, writer, module, x, tol=2e-5):
    proto, weights = writer.save(str(tmp_path / "net"))
    r = convert(proto, weights, tmp_path / "net")
    assert r.returncode == 0, r.stdout + r.stderr
    got = run_om(str(tmp_path / "net.om"), x)
    with torch.no_grad():
        want = module(torch.from_numpy(x)).numpy()
    assert got[0].shape == want.shape, (got[0].shape, want.shape)
    np.testing.assert_allclose(got[0], want, rtol=tol, atol=tol)


class Vgg(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.c2 = nn.Conv2d(8, 16, 3, padding=1, stride=1)
        self.fc = nn.Linear(16 * 5 * 5, 10)

    def forward(self, x):
        x = torch.relu(self.bn1(self.c1(x)))
        x = nn.functional.max_pool2d(x, 2, 2, ceil_mode=True)
        x = torch.relu(self.c2(x))
        x = nn.functional.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=True)
        return torch.softmax(self.fc(torch.flatten(x, 1)), 1)


def test_vgg_style_cnn(acl_session, tmp_path, pb):
    gen = torch.Generator().manual_seed(1)
    torch.manual_seed(1)
    m = Vgg().eval()
    randomize_bn(m, gen)
    w = NetWriter(pb, "vgg", [2, 3, 15, 15])
    conv(w, "conv1", "data", "conv1", m.c1)
    bn_scale(w, "conv1", "conv1", m.bn1)
    w.layer("relu1", "ReLU", ["conv1"], ["conv1"])
    w.layer("pool1", "Pooling", ["conv1"], ["pool1"],
            pooling_param=dict(pool=0, kernel_size=2, stride=2))
    conv(w, "conv2", "pool1", "conv2", m.c2)
    w.layer("relu2", "ReLU", ["conv2"], ["conv2"])
    w.layer("pool2", "Pooling", ["conv2"], ["pool2"],
            pooling_param=dict(pool=1, kernel_size=3, stride=2, pad=1))
    w.layer("fc", "InnerProduct", ["pool2"], ["fc"], [t(m.fc.weight), t(m.fc.bias)],
            inner_product_param=dict(num_output=10))
    w.layer("drop", "Dropout", ["fc"], ["fc"], dropout_param=dict(dropout_ratio=0.5))
    w.layer("prob", "Softmax", ["fc"], ["prob"])
    x = np.random.RandomState(0).randn(2, 3, 15, 15).astype(np.float32)
    check(acl_session, tmp_path, w, m, x)
    # Nodes keep their layers' names, so CANN's commands name them: the classification
    # samples' --out_nodes=prob:0, and an inner layer's output.
    proto, weights = str(tmp_path / "net.prototxt"), str(tmp_path / "net.caffemodel")
    r = convert(proto, weights, tmp_path / "named", "--out_nodes=prob:0")
    assert r.returncode == 0, r.stdout
    np.testing.assert_allclose(run_om(str(tmp_path / "named.om"), x)[0],
                               run_om(str(tmp_path / "net.om"), x)[0], rtol=0, atol=0)
    r = convert(proto, weights, tmp_path / "inner", "--out_nodes=pool1:0;fc:0")
    assert r.returncode == 0, r.stdout
    with torch.no_grad():
        y = torch.relu(m.bn1(m.c1(torch.from_numpy(x))))
        pool1 = nn.functional.max_pool2d(y, 2, 2, ceil_mode=True).numpy()
    got = run_om(str(tmp_path / "inner.om"), x)
    assert [g.shape for g in got] == [pool1.shape, (2, 10)]
    np.testing.assert_allclose(got[0], pool1, rtol=2e-5, atol=2e-5)
    js = tmp_path / "graph.json"
    assert atc("--mode=1", f"--om={proto}", "--framework=0", f"--weight={weights}",
               f"--json={js}").returncode == 0
    names = {op["name"] for g in json.loads(js.read_text())["graph"] for op in g["op"]}
    assert {"conv1", "relu1", "pool1", "conv2", "relu2", "pool2", "fc", "prob"} <= names, names


class ResBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(8, 8, 3, padding=1, bias=False)
        self.bna = nn.BatchNorm2d(8)
        self.b = nn.Conv2d(8, 8, 3, padding=1, bias=False)
        self.bnb = nn.BatchNorm2d(8)
        self.prelu = nn.PReLU(8)

    def forward(self, x):
        y = torch.relu(self.bna(self.a(x)))
        y = self.bnb(self.b(y))
        return self.prelu(0.5 * x + 2.0 * y)


def test_resnet_block_with_split_eltwise_prelu(acl_session, tmp_path, pb):
    gen = torch.Generator().manual_seed(2)
    torch.manual_seed(2)
    m = ResBlock().eval()
    randomize_bn(m, gen)
    with torch.no_grad():
        m.prelu.weight.copy_(torch.rand(8, generator=gen))
    w = NetWriter(pb, "res", [1, 8, 9, 9])
    w.layer("split", "Split", ["data"], ["x1", "x2"])
    conv(w, "a", "x1", "a", m.a)
    bn_scale(w, "a", "a", m.bna)
    w.layer("relu_a", "ReLU", ["a"], ["a"])
    conv(w, "b", "a", "b", m.b)
    bn_scale(w, "b", "b", m.bnb)
    w.layer("sum", "Eltwise", ["x2", "b"], ["sum"],
            eltwise_param=dict(operation=1, coeff=[0.5, 2.0]))
    w.layer("prelu", "PReLU", ["sum"], ["out"], [t(m.prelu.weight)])
    x = np.random.RandomState(1).randn(1, 8, 9, 9).astype(np.float32)
    check(acl_session, tmp_path, w, m, x)


class Mobile(nn.Module):
    def __init__(self):
        super().__init__()
        self.dw = nn.Conv2d(6, 6, 3, padding=2, dilation=2, groups=6)
        self.pw = nn.Conv2d(6, 12, 1)
        self.up = nn.ConvTranspose2d(12, 4, 4, stride=2, padding=1)
        self.lrn = nn.LocalResponseNorm(3, alpha=1e-3, beta=0.75, k=2.0)

    def forward(self, x):
        y = torch.sigmoid(self.dw(x))
        y = torch.tanh(self.pw(y))
        a, b = y[:, :5], y[:, 5:]
        y = torch.cat([torch.maximum(a, torch.zeros_like(a)) * 3, b.abs()], 1)
        y = self.up(y)
        y = self.lrn((0.5 * y + 1.0) ** 2)
        return y.permute(0, 2, 3, 1).flatten(1)


def test_mobilenet_block_deconv_slice_concat_power_lrn_permute(acl_session, tmp_path, pb):
    torch.manual_seed(3)
    m = Mobile().eval()
    w = NetWriter(pb, "mobile", [1, 6, 8, 8])
    conv(w, "dw", "data", "dw", m.dw)
    w.layer("sig", "Sigmoid", ["dw"], ["dw"])
    conv(w, "pw", "dw", "pw", m.pw)
    w.layer("tanh", "TanH", ["pw"], ["pw"])
    w.layer("slice", "Slice", ["pw"], ["a", "b"], slice_param=dict(axis=1, slice_point=[5]))
    w.layer("relu", "ReLU", ["a"], ["a"])
    w.layer("x3", "Power", ["a"], ["a3"], power_param=dict(scale=3.0))
    w.layer("abs", "AbsVal", ["b"], ["b"])
    w.layer("cat", "Concat", ["a3", "b"], ["cat"])
    conv(w, "up", "cat", "up", m.up)
    w.layer("pow", "Power", ["up"], ["pow"], power_param=dict(power=2.0, scale=0.5, shift=1.0))
    w.layer("lrn", "LRN", ["pow"], ["lrn"], lrn_param=dict(local_size=3, alpha=1e-3, beta=0.75,
                                                            k=2.0))
    w.layer("perm", "Permute", ["lrn"], ["perm"], permute_param=dict(order=[0, 2, 3, 1]))
    w.layer("flat", "Flatten", ["perm"], ["flat"])
    x = np.random.RandomState(2).randn(1, 6, 8, 8).astype(np.float32)
    check(acl_session, tmp_path, w, m, x, tol=1e-4)


class Mlp(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(12, 20)
        self.b = nn.Linear(20, 5)

    def forward(self, x):
        return torch.softmax(self.b(torch.relu(self.a(x.flatten(1)))), 1)


def test_mlp_in_the_v1_format(acl_session, tmp_path, pb):
    torch.manual_seed(4)
    m = Mlp().eval()
    w = NetWriter(pb, "mlp", [3, 1, 3, 4], v1=True)
    w.layer("ip1", "INNER_PRODUCT", ["data"], ["ip1"], [t(m.a.weight), t(m.a.bias)],
            inner_product_param=dict(num_output=20))
    w.layer("relu1", "RELU", ["ip1"], ["ip1"])
    w.layer("ip2", "INNER_PRODUCT", ["ip1"], ["ip2"], [t(m.b.weight), t(m.b.bias)],
            inner_product_param=dict(num_output=5))
    w.layer("prob", "SOFTMAX", ["ip2"], ["prob"])
    x = np.random.RandomState(3).randn(3, 1, 3, 4).astype(np.float32)
    check(acl_session, tmp_path, w, m, x)


# ---------------------------------------------------------------- what must be refused
def small_net(pb, **conv_overrides):
    w = NetWriter(pb, "small", [1, 3, 8, 8])
    weight = np.ones((4, 3, 3, 3), np.float32)
    params = dict(num_output=4, kernel_size=[3], bias_term=False)
    params.update(conv_overrides)
    w.layer("conv", "Convolution", ["data"], ["conv"], [weight], convolution_param=params)
    w.layer("relu", "ReLU", ["conv"], ["conv"])
    return w


def refused(tmp_path, proto, weights, code, words=()):
    r = convert(proto, weights, tmp_path / "bad")
    log = r.stdout + r.stderr
    assert r.returncode == 1, log
    assert code in log, log
    for word in words:
        assert word in log, log
    assert not (tmp_path / "bad.om").exists()


def test_refusals(tmp_path, pb):
    proto, weights = small_net(pb).save(str(tmp_path / "good"))
    r = convert(proto, weights, tmp_path / "good")
    assert r.returncode == 0, r.stdout
    # Text that is not a prototxt, with the line named.
    bad = tmp_path / "bad.prototxt"
    bad.write_text('name: "x"\nlayer { name: "a" type: "ReLU" bottom: "data" top: }\n')
    refused(tmp_path, str(bad), weights, "E19005", ["line 2"])
    # A truncated .caffemodel.
    cut = tmp_path / "cut.caffemodel"
    cut.write_bytes(open(weights, "rb").read()[:50])
    refused(tmp_path, proto, str(cut), "E19005", ["caffemodel"])
    # Weights missing for a layer.
    empty = tmp_path / "empty.caffemodel"
    empty.write_bytes(b"")
    refused(tmp_path, proto, str(empty), "E19005", ["[conv]", "weight blobs"])
    # The prototxt and the caffemodel disagree on the shape.
    proto2, _ = small_net(pb, num_output=5).save(str(tmp_path / "five"))
    refused(tmp_path, proto2, weights, "E19005", ["[conv]"])
    # A layer type OpenCANN has no parser for.
    w = small_net(pb)
    w.layer("odd", "ROIPooling", ["conv"], ["odd"])
    p3, w3 = w.save(str(tmp_path / "roi"))
    refused(tmp_path, p3, w3, "E19010", ["odd", "ROIPooling"])
    # A blob nobody produces.
    w = small_net(pb)
    w.layer("lost", "ReLU", ["ghost"], ["lost"])
    p4, w4 = w.save(str(tmp_path / "ghost"))
    refused(tmp_path, p4, w4, "E19005", ["ghost"])
    # No --weight.
    r = atc(f"--model={proto}", "--framework=0", f"--output={tmp_path / 'x'}", SOC)
    assert r.returncode == 1 and "E10008" in r.stdout, r.stdout
    # A --weight that is not there.
    refused(tmp_path, proto, str(tmp_path / "none.caffemodel"), "E10001", ["--weight"])


def test_precheck_lists_every_op(tmp_path, pb):
    """--mode=3 reports each op of the source, supported or not and why (Caffe and ONNX)."""
    import json

    import onnx
    from onnx import TensorProto, helper
    w = small_net(pb)
    w.layer("odd", "ROIPooling", ["conv"], ["odd"])
    proto, weights = w.save(str(tmp_path / "roi"))
    report = tmp_path / "caffe_check.json"
    r = atc("--mode=3", f"--model={proto}", f"--weight={weights}", "--framework=0", SOC,
            f"--check_report={report}")
    assert r.returncode == 1 and "1 not supported" in r.stdout, r.stdout
    j = json.loads(report.read_text())
    assert j["result"] == "failed" and j["summary"] == {"ops": 4, "supported": 3,
                                                        "unsupported": 1}
    assert [(o["name"], o["supported"]) for o in j["ops"]] == [
        ("data", True), ("conv", True), ("relu", True), ("odd", False)]
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["r"]),
                           helper.make_node("Frobnicate", ["r"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    src = str(tmp_path / "odd.onnx")
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), src)
    report = tmp_path / "onnx_check.json"
    r = atc("--mode=3", f"--model={src}", "--framework=5", SOC, f"--check_report={report}")
    j = json.loads(report.read_text())
    assert r.returncode == 1 and j["summary"]["unsupported"] == 1, r.stdout
    assert [o["type"] for o in j["ops"] if not o["supported"]] == ["Frobnicate"]


def test_mode1_dumps_source_models_as_ge_json(tmp_path, pb):
    import json
    proto, weights = small_net(pb).save(str(tmp_path / "small"))
    out = tmp_path / "small.json"
    r = atc("--mode=1", f"--om={proto}", f"--weight={weights}", "--framework=0",
            f"--json={out}")
    assert r.returncode == 0, r.stdout
    ops = [op["type"] for g in json.loads(out.read_text())["graph"] for op in g["op"]]
    assert ops.count("Conv") == 1 and ops.count("Relu") == 1 and "Data" in ops, ops
