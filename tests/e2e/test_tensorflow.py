"""atc --framework=3: frozen TensorFlow GraphDefs, written with OpenCANN's own tf_graph.proto
(no TensorFlow needed), in TF's NHWC layout; torch computes the same net as the reference."""
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

PROTO_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src",
                         "frontend", "tensorflow")
SOC = "--soc_version=Ascend910B3"


@pytest.fixture(scope="module")
def tf(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("tf_proto"))
    subprocess.run(["protoc", f"--proto_path={PROTO_DIR}", f"--python_out={out}",
                    "tf_graph.proto"], check=True)
    sys.path.insert(0, out)
    return importlib.import_module("tf_graph_pb2")


class G:
    """A GraphDef under construction."""

    def __init__(self, pb):
        self.pb, self.g = pb, pb.GraphDef()

    def node(self, name, op, inputs=(), **attrs):
        n = self.g.node.add(name=name, op=op, input=list(inputs))
        for k, v in attrs.items():
            if isinstance(v, tuple) and v[0] == "type":
                n.attr[k].type = v[1]
            else:
                set_attr(n.attr[k], v)
        return name

    def const(self, name, array):
        arr = np.asarray(array)
        dt = {np.float32: self.pb.DT_FLOAT, np.int32: self.pb.DT_INT32,
              np.int64: self.pb.DT_INT64}[arr.dtype.type]
        n = self.g.node.add(name=name, op="Const")
        t = n.attr["value"].tensor
        t.dtype = dt
        t.tensor_shape.dim.extend([self.pb.TensorShapeProto.Dim(size=d) for d in arr.shape])
        t.tensor_content = arr.tobytes()
        n.attr["dtype"].type = dt
        return name

    def placeholder(self, name, shape):
        n = self.g.node.add(name=name, op="Placeholder")
        n.attr["dtype"].type = self.pb.DT_FLOAT
        n.attr["shape"].shape.dim.extend([self.pb.TensorShapeProto.Dim(size=d) for d in shape])
        return name

    def save(self, path):
        with open(path, "wb") as f:
            f.write(self.g.SerializeToString())
        return path


def run_pb(tmp_path, pb_path, x):
    r = atc(f"--model={pb_path}", "--framework=3", f"--output={tmp_path / 'net'}", SOC)
    assert r.returncode == 0, r.stdout + r.stderr
    m = OmModel(str(tmp_path / "net.om"))
    try:
        return m.run([x])
    finally:
        m.close()


def same_pad(x, k, s):
    """TF SAME padding on an NCHW torch tensor: the odd pixel at the end."""
    pads = []
    for dim in (3, 2):
        size = x.shape[dim]
        out = -(-size // s)
        total = max((out - 1) * s + k - size, 0)
        pads += [total // 2, total - total // 2]
    return F.pad(x, pads)


def test_nhwc_cnn(acl_session, tmp_path, tf):
    rng = np.random.RandomState(0)
    w1 = rng.randn(3, 3, 3, 8).astype(np.float32) * 0.3   # HWIO
    b1 = rng.randn(8).astype(np.float32)
    scale, offset = rng.rand(8).astype(np.float32) + 0.5, rng.randn(8).astype(np.float32)
    mean, var = rng.randn(8).astype(np.float32) * 0.1, rng.rand(8).astype(np.float32) + 0.5
    dw = rng.randn(3, 3, 8, 2).astype(np.float32) * 0.3   # H W C M
    fc = rng.randn(16, 5).astype(np.float32) * 0.3
    fcb = rng.randn(5).astype(np.float32)
    g = G(tf)
    x = g.placeholder("x", [2, 12, 12, 3])
    c1 = g.node("conv1", "Conv2D", [x, g.const("w1", w1)], strides=[1, 1, 1, 1], padding="SAME",
                data_format="NHWC")
    c1 = g.node("bias1", "BiasAdd", [c1, g.const("b1", b1)])
    bn = g.node("bn", "FusedBatchNormV3", [c1, g.const("scale", scale), g.const("offset", offset),
                                           g.const("mean", mean), g.const("var", var)],
                epsilon=1e-3, is_training=False)
    r6 = g.node("relu6", "Relu6", [bn])
    d = g.node("dw", "DepthwiseConv2dNative", [r6, g.const("dwk", dw)], strides=[1, 2, 2, 1],
               padding="SAME")
    d = g.node("relu", "Relu", [d])
    p = g.node("pool", "MaxPool", [d], ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    p = g.node("avg", "AvgPool", [p], ksize=[1, 3, 3, 1], strides=[1, 1, 1, 1], padding="SAME")
    m = g.node("mean_hw", "Mean", [p, g.const("axes", np.array([1, 2], np.int32))],
               keep_dims=False)
    y = g.node("fc", "MatMul", [m, g.const("fcw", fc)])
    y = g.node("fcb", "BiasAdd", [y, g.const("fcbv", fcb)])
    g.node("prob", "Softmax", [y])
    xin = rng.randn(2, 12, 12, 3).astype(np.float32)
    got = run_pb(tmp_path, g.save(str(tmp_path / "cnn.pb")), xin)[0]

    t = torch.from_numpy
    h = t(xin).permute(0, 3, 1, 2)
    h = F.conv2d(same_pad(h, 3, 1), t(w1).permute(3, 2, 0, 1), t(b1))
    h = (h - t(mean)[:, None, None]) / torch.sqrt(t(var)[:, None, None] + 1e-3)
    h = h * t(scale)[:, None, None] + t(offset)[:, None, None]
    h = torch.clamp(h, 0, 6)
    dwk = t(dw).reshape(3, 3, 1, 16).permute(3, 2, 0, 1)
    h = torch.relu(F.conv2d(same_pad(h, 3, 2), dwk, stride=2, groups=8))
    h = F.max_pool2d(h, 2, 2)
    # TF's SAME average excludes the padding: divide window sums by the valid counts.
    ones = torch.ones_like(h[:, :1])
    s = F.avg_pool2d(same_pad(h, 3, 1), 3, 1, divisor_override=1)
    cnt = F.avg_pool2d(same_pad(ones, 3, 1), 3, 1, divisor_override=1)
    h = s / cnt
    h = h.mean((2, 3))
    want = torch.softmax(h @ t(fc) + t(fcb), 1).numpy()
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


def test_layernorm_mlp_with_shape_ops(acl_session, tmp_path, tf):
    rng = np.random.RandomState(1)
    w = rng.randn(6, 4).astype(np.float32)
    g = G(tf)
    x = g.placeholder("x", [3, 2, 3])
    flat = g.node("flat", "Reshape", [x, g.const("shape", np.array([3, 6], np.int32))])
    mu = g.node("mu", "Mean", [flat, g.const("ax", np.array([1], np.int32))], keep_dims=True)
    var = g.node("var", "Mean", [g.node("sqd", "SquaredDifference", [flat, mu]),
                                 g.const("ax2", np.array([1], np.int32))], keep_dims=True)
    inv = g.node("inv", "Rsqrt", [g.node("veps", "AddV2", [var, g.const("eps", np.float32(1e-5))])])
    norm = g.node("norm", "Mul", [g.node("centered", "Sub", [flat, mu]), inv])
    h = g.node("mm", "MatMul", [norm, g.const("w", w)])
    h = g.node("tanh", "Tanh", [h])
    first = g.node("first", "StridedSlice",
                   [h, g.const("b", np.array([0, 0], np.int32)), g.const("e", np.array([0, 2], np.int32)),
                    g.const("s", np.array([1, 1], np.int32))], begin_mask=1, end_mask=1)
    sq = g.node("sq", "Square", [h])
    cat = g.node("cat", "ConcatV2", [first, sq, g.const("axis", np.array(1, np.int32))])
    g.node("out", "Transpose", [cat, g.const("perm", np.array([1, 0], np.int32))])
    xin = rng.randn(3, 2, 3).astype(np.float32)
    got = run_pb(tmp_path, g.save(str(tmp_path / "mlp.pb")), xin)[0]
    f = torch.from_numpy(xin).reshape(3, 6)
    n = (f - f.mean(1, keepdim=True)) / torch.sqrt(f.var(1, unbiased=False, keepdim=True) + 1e-5)
    h = torch.tanh(n @ torch.from_numpy(w))
    want = torch.cat([h[:, :2], h * h], 1).t().numpy()
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


def test_refusals_and_precheck(tmp_path, tf):
    g = G(tf)
    x = g.placeholder("x", [1, 4])
    g.node("odd", "FrobnicateV7", [x])
    pb = g.save(str(tmp_path / "odd.pb"))
    r = atc(f"--model={pb}", "--framework=3", f"--output={tmp_path / 'o'}", SOC)
    assert r.returncode == 1 and "E19010" in r.stdout and "FrobnicateV7" in r.stdout, r.stdout
    report = tmp_path / "check.json"
    r = atc("--mode=3", f"--model={pb}", "--framework=3", SOC, f"--check_report={report}")
    j = json.loads(report.read_text())
    assert j["summary"] == {"ops": 2, "supported": 1, "unsupported": 1}, j
    (tmp_path / "noise.pb").write_bytes(np.random.RandomState(0).bytes(300))
    r = atc(f"--model={tmp_path / 'noise.pb'}", "--framework=3", f"--output={tmp_path / 'o'}", SOC)
    assert r.returncode == 1 and "E19005" in r.stdout, r.stdout
    g = G(tf)
    a = g.placeholder("a", [2])
    g.node("loop1", "Relu", ["loop2"])
    g.node("loop2", "Relu", ["loop1"])
    g.node("y", "AddV2", [a, "loop2"])
    r = atc(f"--model={g.save(str(tmp_path / 'cycle.pb'))}", "--framework=3",
            f"--output={tmp_path / 'o'}", SOC)
    assert r.returncode == 1 and "E19005" in r.stdout and "cycle" in r.stdout, r.stdout
    assert not (tmp_path / "o.om").exists()


def test_resnet_block_with_explicit_pad(acl_session, tmp_path, tf):
    """Pad + VALID stride-2 conv (how Keras writes ResNet's stem), BN, a residual AddV2, Relu,
    a SAME MaxPool, and a GlobalAveragePool-style Mean with keep_dims."""
    rng = np.random.RandomState(5)
    stem = rng.randn(3, 3, 4, 8).astype(np.float32) * 0.3
    w1 = rng.randn(3, 3, 8, 8).astype(np.float32) * 0.2
    w2 = rng.randn(3, 3, 8, 8).astype(np.float32) * 0.2
    bn = [(rng.rand(8).astype(np.float32) + 0.5, rng.randn(8).astype(np.float32) * 0.1,
           rng.randn(8).astype(np.float32) * 0.1, rng.rand(8).astype(np.float32) + 0.5)
          for _ in range(2)]
    g = G(tf)
    x = g.placeholder("x", [1, 10, 10, 4])
    p = g.node("pad", "Pad", [x, g.const("pads", np.array([[0, 0], [1, 1], [1, 1], [0, 0]],
                                                          np.int32))])
    h = g.node("stem", "Conv2D", [p, g.const("ws", stem)], strides=[1, 2, 2, 1], padding="VALID")
    h = g.node("stem_relu", "Relu", [h])
    r = h
    for i, w in enumerate((w1, w2)):
        r = g.node(f"c{i}", "Conv2D", [r, g.const(f"w{i}", w)], strides=[1, 1, 1, 1],
                   padding="SAME")
        s, o, m, v = bn[i]
        r = g.node(f"bn{i}", "FusedBatchNormV3",
                   [r, g.const(f"s{i}", s), g.const(f"o{i}", o), g.const(f"m{i}", m),
                    g.const(f"v{i}", v)], epsilon=1e-3)
        if i == 0:
            r = g.node("r0", "Relu", [r])
    h = g.node("res", "AddV2", [h, r])
    h = g.node("relu", "Relu", [h])
    h = g.node("pool", "MaxPool", [h], ksize=[1, 3, 3, 1], strides=[1, 2, 2, 1], padding="SAME")
    g.node("gap", "Mean", [h, g.const("hw", np.array([1, 2], np.int32))], keep_dims=True)
    xin = rng.randn(1, 10, 10, 4).astype(np.float32)
    got = run_pb(tmp_path, g.save(str(tmp_path / "res.pb")), xin)[0]

    t = torch.from_numpy
    hh = F.pad(t(xin).permute(0, 3, 1, 2), [1, 1, 1, 1])
    hh = torch.relu(F.conv2d(hh, t(stem).permute(3, 2, 0, 1), stride=2))
    rr = hh
    for i, w in enumerate((w1, w2)):
        rr = F.conv2d(same_pad(rr, 3, 1), t(w).permute(3, 2, 0, 1))
        s, o, m, v = (t(a)[:, None, None] for a in bn[i])
        rr = (rr - m) / torch.sqrt(v + 1e-3) * s + o
        if i == 0:
            rr = torch.relu(rr)
    hh = torch.relu(hh + rr)
    # TF SAME max pooling: 5 -> 3 needs 2 pixels, one each side, of -inf.
    hh = F.max_pool2d(F.pad(hh, [1, 1, 1, 1], value=-float("inf")), 3, 2)
    want = hh.mean((2, 3), keepdim=True).permute(0, 2, 3, 1).numpy()
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


def test_input_format_defaults_to_nhwc(tmp_path, tf):
    """As CANN's atc: a TensorFlow model's inputs are NHWC unless --input_format says otherwise
    (the .om's input description carries it); channels-last is refused for Caffe and ONNX."""
    g = G(tf)
    x = g.placeholder("x", [1, 4, 4, 3])
    g.node("y", "Relu", [x])
    pb = g.save(str(tmp_path / "relu.pb"))
    r = atc(f"--model={pb}", "--framework=3", f"--output={tmp_path / 'r'}", SOC)
    assert r.returncode == 0, r.stdout
    info = atc("--mode=1", f"--om={tmp_path / 'r.om'}", f"--json={tmp_path / 'r.json'}")
    assert info.returncode == 0, info.stdout
    data = [op for op in json.loads((tmp_path / "r.json").read_text())["graph"][0]["op"]
            if op["type"] == "Data"][0]
    assert data["output_desc"][0]["layout"] == "NHWC", data
    r = atc("--model=m.prototxt", "--weight=m.caffemodel", "--framework=0",
            f"--output={tmp_path / 'c'}", SOC, "--input_format=NHWC")
    assert r.returncode == 1 and "E10001" in r.stdout and "Caffe" in r.stdout, r.stdout


# --- the rest of the op list, one small graph each ------------------------------------------

def resize_case(op, size, torch_mode, **attrs):
    def build(g, x, xin):
        g.node("out", op, [x, g.const("size", np.array(size, np.int32))], **attrs)
        h = torch.from_numpy(xin).permute(0, 3, 1, 2)
        kw = {"align_corners": attrs.get("align_corners", False)} if torch_mode == "bilinear" else {}
        return F.interpolate(h, size=size, mode=torch_mode, **kw).permute(0, 2, 3, 1).numpy()
    return build


def elementwise(g, x, xin):
    e = g.node("elu", "Elu", [x])
    s = g.node("sig", "Sigmoid", [g.node("id", "Identity", [x])])
    hi = g.node("hi", "Maximum", [e, s])
    lo = g.node("lo", "Minimum", [e, s])
    q = g.node("q", "RealDiv", [hi, g.node("den", "Add", [g.node("abs", "Abs", [lo]),
                                                          g.const("two", np.float32(2))])])
    g.node("out", "Sub", [g.node("erf", "Erf", [q]), lo])
    t = torch.from_numpy(xin)
    e, s = F.elu(t), torch.sigmoid(t)
    hi, lo = torch.maximum(e, s), torch.minimum(e, s)
    return (torch.erf(hi / (lo.abs() + 2)) - lo).numpy()


def reductions(g, x, xin):
    s = g.node("sum", "Sum", [x, g.const("a1", np.array([3], np.int32))], keep_dims=False)
    m = g.node("max", "Max", [s, g.const("a2", np.array([1], np.int32))], keep_dims=True)
    am = g.node("argmax", "ArgMax", [s, g.const("a3", np.array(1, np.int32))],
                output_type=("type", 3))  # DT_INT32
    amf = g.node("amf", "Cast", [am], DstT=("type", 1))
    g.node("out", "AddV2", [m, g.node("amf3", "ExpandDims", [amf, g.const("ea", np.array(1, np.int32))])])
    t = torch.from_numpy(xin).sum(3)
    return (t.amax(1, keepdim=True) + t.argmax(1).float().unsqueeze(1)).numpy()


def shapes(g, x, xin):
    # [2,4,6,3] -> unstack the batch, stack on the last axis: [4,6,3,2]
    u = g.node("unpack", "Unpack", [x], num=2, axis=0)
    p = g.node("pack", "Pack", [f"{u}:1", f"{u}:0"], axis=-1, N=2)
    sl = g.node("slice", "Slice", [p, g.const("b", np.array([1, 0, 0, 0], np.int32)),
                                   g.const("sz", np.array([2, -1, 1, 2], np.int32))])
    sq = g.node("squeeze", "Squeeze", [sl], squeeze_dims=[2])           # [2,6,2]
    ga = g.node("gather", "GatherV2", [sq, g.const("idx", np.array([5, 0, 3], np.int32)),
                                       g.const("gax", np.array(1, np.int32))])  # [2,3,2]
    shp = g.node("shape", "Shape", [ga])                                 # [2,3,2] int32
    fill = g.node("fill", "Fill", [shp, g.const("v", np.float32(0.5))])
    rng = g.node("range", "Range", [g.const("r0", np.float32(0)), g.const("r1", np.float32(2)),
                                    g.const("r2", np.float32(1))])     # [0, 1]
    g.node("out", "Mul", [g.node("plus", "AddV2", [ga, fill]), rng])
    t = torch.from_numpy(xin)
    p = torch.stack([t[1], t[0]], -1)
    sq = p[1:3, :, 0:1, :].squeeze(2)
    ga = sq[:, [5, 0, 3], :]
    return ((ga + 0.5) * torch.tensor([0.0, 1.0])).numpy()


def batch_matmul(g, x, xin):
    r = g.node("r", "Reshape", [x, g.const("s", np.array([2, 4, 18], np.int32))])
    w = np.random.RandomState(9).randn(1, 5, 18).astype(np.float32)
    g.node("out", "BatchMatMulV2", [r, g.const("w", w)], adj_x=False, adj_y=True)
    return (torch.from_numpy(xin).reshape(2, 4, 18) @ torch.from_numpy(w).transpose(1, 2)).numpy()


@pytest.mark.parametrize("build", [
    resize_case("ResizeBilinear", [8, 12], "bilinear", half_pixel_centers=True),
    resize_case("ResizeBilinear", [7, 11], "bilinear", align_corners=True),
    resize_case("ResizeNearestNeighbor", [8, 12], "nearest"),
    resize_case("ResizeNearestNeighbor", [9, 13], "nearest-exact", half_pixel_centers=True),
    elementwise, reductions, shapes, batch_matmul,
], ids=["bilinear_half_pixel", "bilinear_align_corners", "nearest", "nearest_half_pixel",
        "elementwise", "reductions_argmax_cast", "unpack_pack_slice_squeeze_gather_shape_fill_range",
        "batch_matmul_adj_y"])
def test_more_ops_against_torch(acl_session, tmp_path, tf, build):
    g = G(tf)
    x = g.placeholder("x", [2, 4, 6, 3])
    xin = np.random.RandomState(8).randn(2, 4, 6, 3).astype(np.float32)
    want = build(g, x, xin)
    got = run_pb(tmp_path, g.save(str(tmp_path / "net.pb")), xin)[0]
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_unpack_num_must_match(tmp_path, tf):
    g = G(tf)
    x = g.placeholder("x", [2, 3])
    g.node("u", "Unpack", [x], num=3, axis=0)
    r = atc(f"--model={g.save(str(tmp_path / 'u.pb'))}", "--framework=3",
            f"--output={tmp_path / 'o'}", SOC)
    assert r.returncode == 1 and "E19005" in r.stdout and "[num]" in r.stdout, r.stdout


def test_mode1_dumps_the_graphdef_as_ge_json(tmp_path, tf):
    g = G(tf)
    x = g.placeholder("x", [1, 4])
    g.node("r", "Relu", [g.node("s", "Sigmoid", [x])])
    out = tmp_path / "tf.json"
    r = atc("--mode=1", f"--om={g.save(str(tmp_path / 'g.pb'))}", "--framework=3",
            f"--json={out}")
    assert r.returncode == 0, r.stdout
    ops = [op["type"] for gr in json.loads(out.read_text())["graph"] for op in gr["op"]]
    assert "Data" in ops and ops.count("Sigmoid") == 1 and ops.count("Relu") == 1, ops


def test_out_nodes_name_tensorflow_nodes(acl_session, tmp_path, tf):
    # CANN's BERT sample: --out_nodes names a TensorFlow node ("dense_1/Softmax:0").
    g = G(tf)
    x = g.placeholder("input_ids", [2, 6])
    h = g.node("dense_1/MatMul", "MatMul", [x, g.const("w", np.eye(6, 4, dtype=np.float32))],
               T=("type", tf.DT_FLOAT))
    p = g.node("dense_1/Softmax", "Softmax", [h], T=("type", tf.DT_FLOAT))
    g.node("extra", "Sigmoid", [p], T=("type", tf.DT_FLOAT))
    pb = g.save(str(tmp_path / "m.pb"))
    r = atc(f"--model={pb}", "--framework=3", f"--output={tmp_path / 'net'}", SOC,
            "--out_nodes=dense_1/Softmax:0")
    assert r.returncode == 0, r.stdout + r.stderr
    xv = np.random.default_rng(2).standard_normal((2, 6)).astype(np.float32)
    m = OmModel(str(tmp_path / "net.om"))
    try:
        (y,) = m.run([xv])
    finally:
        m.close()
    np.testing.assert_allclose(y, torch.softmax(torch.from_numpy(xv[:, :4]), 1).numpy(),
                               rtol=1e-5, atol=1e-6)
