"""Writes the seed corpora under fuzz/corpus/ (small, valid inputs the fuzzers mutate).

    /usr/bin/python3 fuzz/make_seeds.py --build build
"""
import argparse
import json
import os
import subprocess

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))


def model(nodes, inputs, outputs, inits=(), opset=17):
    g = helper.make_graph(nodes, "seed", inputs, outputs, list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def vi(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


def onnx_seeds():
    f = TensorProto.FLOAT
    rng = np.random.RandomState(0)
    w = numpy_helper.from_array(rng.randn(4, 3).astype(np.float32), "w")
    k = numpy_helper.from_array(rng.randn(2, 1, 3, 3).astype(np.float32), "k")
    shape = numpy_helper.from_array(np.array([0, -1], np.int64), "shape")
    yield "mlp", model([helper.make_node("MatMul", ["x", "w"], ["m"]),
                        helper.make_node("Relu", ["m"], ["y"])],
                       [vi("x", f, ["n", 4])], [vi("y", f, None)], [w])
    yield "conv", model([helper.make_node("Conv", ["x", "k"], ["c"], pads=[1, 1, 1, 1]),
                         helper.make_node("MaxPool", ["c"], ["p"], kernel_shape=[2, 2],
                                          strides=[2, 2]),
                         helper.make_node("Reshape", ["p", "shape"], ["y"])],
                        [vi("x", f, [1, 1, 8, 8])], [vi("y", f, None)], [k, shape])
    yield "shape_chain", model([helper.make_node("Shape", ["x"], ["s"]),
                                helper.make_node("Gather", ["s", "one"], ["h"]),
                                helper.make_node("Concat", ["h", "h"], ["t"], axis=0),
                                helper.make_node("Reshape", ["x", "t"], ["y"])],
                               [vi("x", f, [3, 3])], [vi("y", f, None)],
                               [numpy_helper.from_array(np.array([1], np.int64), "one")])
    then_g = helper.make_graph([helper.make_node("Neg", ["x"], ["o"])], "then", [],
                               [vi("o", f, None)])
    else_g = helper.make_graph([helper.make_node("Abs", ["x"], ["o"])], "else", [],
                               [vi("o", f, None)])
    yield "if", model([helper.make_node("If", ["c"], ["y"], then_branch=then_g,
                                        else_branch=else_g)],
                      [vi("c", TensorProto.BOOL, []), vi("x", f, [2])], [vi("y", f, None)])
    yield "softmax_topk", model([helper.make_node("Softmax", ["x"], ["s"], axis=-1),
                                 helper.make_node("TopK", ["s", "kk"], ["v", "i"])],
                                [vi("x", f, [2, 6])], [vi("v", f, None), vi("i", TensorProto.INT64, None)],
                                [numpy_helper.from_array(np.array([2], np.int64), "kk")])
    # Control flow, recurrence and constants made by nodes, for the structure-aware mutator's
    # subgraph, attribute and tensor mutations to start from.
    i64, b = TensorProto.INT64, TensorProto.BOOL
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond"], ["cond_out"]),
         helper.make_node("Add", ["v", "one_f"], ["v_out"])], "body",
        [vi("iter", i64, []), vi("cond", b, []), vi("v", f, [2])],
        [vi("cond_out", b, []), vi("v_out", f, [2])],
        [numpy_helper.from_array(np.ones(2, np.float32), "one_f")])
    yield "loop", model([helper.make_node("Loop", ["trips", "", "x"], ["y"], body=body)],
                        [vi("x", f, [2])], [vi("y", f, [2])],
                        [numpy_helper.from_array(np.array(3, np.int64), "trips")])
    scan_body = helper.make_graph(
        [helper.make_node("Add", ["sum", "x_t"], ["sum_out"]),
         helper.make_node("Identity", ["sum_out"], ["y_t"])], "scan_body",
        [vi("sum", f, [2]), vi("x_t", f, [2])], [vi("sum_out", f, [2]), vi("y_t", f, [2])])
    yield "scan", model([helper.make_node("Scan", ["init", "xs"], ["total", "ys"],
                                          body=scan_body, num_scan_inputs=1)],
                        [vi("init", f, [2]), vi("xs", f, [3, 2])],
                        [vi("total", f, [2]), vi("ys", f, [3, 2])])
    h = 2
    yield "lstm", model([helper.make_node("LSTM", ["x", "w", "r"], ["y", "y_h"], hidden_size=h)],
                        [vi("x", f, [2, 1, 3])], [vi("y", f, None), vi("y_h", f, None)],
                        [numpy_helper.from_array(rng.randn(1, 4 * h, 3).astype(np.float32), "w"),
                         numpy_helper.from_array(rng.randn(1, 4 * h, h).astype(np.float32), "r")])
    shape_t = helper.make_tensor("shape_value", i64, [2], [2, 3])
    yield "constant_nodes", model(
        [helper.make_node("Constant", [], ["s"], value=shape_t),
         helper.make_node("ConstantOfShape", ["s"], ["z"],
                          value=helper.make_tensor("v", f, [1], [0.5])),
         helper.make_node("Add", ["x", "z"], ["a"]),
         helper.make_node("Transpose", ["a"], ["t"], perm=[1, 0]),
         helper.make_node("Gather", ["t", "idx"], ["g"], axis=0),
         helper.make_node("ReduceMean", ["g"], ["y"], axes=[1], keepdims=1)],
        [vi("x", f, [2, 3])], [vi("y", f, None)],
        [numpy_helper.from_array(np.array([2, 0], np.int64), "idx")])


def caffe_seeds(out_dir):
    """Small Caffe nets, each as prototxt text, the separator line and the .caffemodel."""
    import sys
    import tempfile
    sys.path.insert(0, os.path.join(HERE, "..", "tests", "e2e"))
    from caffe_nets import NetWriter, caffe_pb2
    pb = caffe_pb2(tempfile.mkdtemp())
    rng = np.random.RandomState(0)
    nets = []
    w = NetWriter(pb, "conv", [1, 3, 8, 8])
    w.layer("conv", "Convolution", ["data"], ["conv"], [rng.randn(4, 3, 3, 3), rng.randn(4)],
            convolution_param=dict(num_output=4, kernel_size=[3], pad=[1]))
    w.layer("bn", "BatchNorm", ["conv"], ["conv"], [rng.randn(4), rng.rand(4) + 1, [1.0]])
    w.layer("scale", "Scale", ["conv"], ["conv"], [rng.randn(4), rng.randn(4)],
            scale_param=dict(bias_term=True))
    w.layer("relu", "ReLU", ["conv"], ["conv"])
    w.layer("pool", "Pooling", ["conv"], ["pool"], pooling_param=dict(kernel_size=2, stride=2))
    w.layer("ip", "InnerProduct", ["pool"], ["ip"], [rng.randn(5, 64), rng.randn(5)],
            inner_product_param=dict(num_output=5))
    w.layer("prob", "Softmax", ["ip"], ["prob"])
    nets.append(("conv", w))
    w = NetWriter(pb, "mlp", [2, 1, 2, 3], v1=True)
    w.layer("ip", "INNER_PRODUCT", ["data"], ["ip"], [rng.randn(4, 6), rng.randn(4)],
            inner_product_param=dict(num_output=4))
    w.layer("slice", "SLICE", ["ip"], ["a", "b"], slice_param=dict(slice_point=[1]))
    w.layer("sum", "ELTWISE", ["a", "a"], ["s"], eltwise_param=dict(coeff=[1, -1]))
    w.layer("cat", "CONCAT", ["s", "b"], ["cat"])
    nets.append(("mlp_v1", w))
    w = NetWriter(pb, "ssd", [1, 3, 8, 8])
    w.layer("conv", "Convolution", ["data"], ["conv"], [rng.randn(8, 3, 3, 3)],
            convolution_param=dict(num_output=8, kernel_size=[3], pad=[1], bias_term=False))
    w.layer("norm", "Normalize", ["conv"], ["conv"], [rng.rand(8)],
            norm_param=dict(across_spatial=False, channel_shared=False))
    w.layer("up", "Upsample", ["conv"], ["up"], upsample_param=dict(scale=2))
    w.layer("interp", "Interp", ["up"], ["interp"], interp_param=dict(shrink_factor=2))
    w.layer("prior", "PriorBox", ["interp", "data"], ["prior"],
            prior_box_param=dict(min_size=[2.0], aspect_ratio=[2.0], flip=False,
                                 variance=[0.1, 0.1, 0.2, 0.2]))
    w.layer("perm", "Permute", ["interp"], ["perm"], permute_param=dict(order=[0, 2, 3, 1]))
    w.layer("flat", "Flatten", ["perm"], ["flat"])
    w.layer("det", "DetectionOutput", ["flat", "flat", "prior"], ["det"],
            detection_output_param=dict(num_classes=4, nms_param=dict(top_k=10), keep_top_k=5,
                                        code_type=2))
    nets.append(("ssd", w))
    from google.protobuf import text_format
    for name, w in nets:
        with open(os.path.join(out_dir, name), "wb") as fh:
            fh.write(text_format.MessageToString(w.net).encode() + b"\n#WEIGHTS\n" +
                     w.weights.SerializeToString())


def tf_seeds(out_dir):
    """Small frozen GraphDefs written with OpenCANN's tf_graph.proto."""
    import importlib
    import sys
    import tempfile
    tmp = tempfile.mkdtemp()
    subprocess.run(["protoc", f"--proto_path={os.path.join(HERE, '..', 'src', 'frontend', 'tensorflow')}",
                    f"--python_out={tmp}", "tf_graph.proto"], check=True)
    sys.path.insert(0, tmp)
    pb = importlib.import_module("tf_graph_pb2")
    g = pb.GraphDef()

    def node(name, op, inputs=(), **attrs):
        n = g.node.add(name=name, op=op, input=list(inputs))
        for k, v in attrs.items():
            if isinstance(v, list):
                n.attr[k].list.i.extend(v)
            elif isinstance(v, str):
                n.attr[k].s = v.encode()
            elif isinstance(v, bool):
                n.attr[k].b = v
        return n

    def const(name, arr):
        n = node(name, "Const")
        t = n.attr["value"].tensor
        t.dtype = pb.DT_FLOAT if arr.dtype == np.float32 else pb.DT_INT32
        t.tensor_shape.dim.extend([pb.TensorShapeProto.Dim(size=d) for d in arr.shape])
        t.tensor_content = arr.tobytes()
    x = node("x", "Placeholder")
    x.attr["dtype"].type = pb.DT_FLOAT
    x.attr["shape"].shape.dim.extend([pb.TensorShapeProto.Dim(size=d) for d in (1, 6, 6, 3)])
    const("w", np.ones((3, 3, 3, 4), np.float32))
    node("conv", "Conv2D", ["x", "w"], strides=[1, 1, 1, 1], padding="SAME")
    node("relu", "Relu6", ["conv"])
    node("pool", "MaxPool", ["relu"], ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
    const("axes", np.array([1, 2], np.int32))
    node("mean", "Mean", ["pool", "axes"])
    const("shape", np.array([1, -1], np.int32))
    node("flat", "Reshape", ["mean", "shape"])
    node("prob", "Softmax", ["flat"])
    with open(os.path.join(out_dir, "cnn.pb"), "wb") as fh:
        fh.write(g.SerializeToString())


def air_seeds(out_dir):
    """A small AIR model (GE ModelDef, GE operator types) through OpenCANN's ge_ir.proto."""
    import importlib
    import sys
    import tempfile
    tmp = tempfile.mkdtemp()
    subprocess.run(["protoc", f"--proto_path={os.path.join(HERE, '..', 'src', 'om')}",
                    f"--python_out={tmp}", "ge_ir.proto"], check=True)
    sys.path.insert(0, tmp)
    pb = importlib.import_module("ge_ir_pb2")
    m = pb.ModelDef(name="air")
    g = m.graph.add(name="main")
    d = g.op.add(name="x", type="Data")
    d.attr["index"].i = 0
    d.output_desc.add(dtype=1, layout="NCHW").shape.dim.extend([1, 3, 6, 6])
    w = g.op.add(name="w", type="Const")
    w.attr["value"].t.desc.dtype = 1
    w.attr["value"].t.desc.shape.dim.extend([4, 3, 3, 3])
    w.attr["value"].t.data = np.ones((4, 3, 3, 3), np.float32).tobytes()
    c = g.op.add(name="conv", type="Conv2D", input=["x:0", "w:0"])
    for k, v in (("strides", [1, 1, 1, 1]), ("pads", [1, 1, 1, 1])):
        c.attr[k].list.i.extend(v)
    c.attr["data_format"].s = b"NCHW"
    g.op.add(name="relu", type="Relu", input=["conv:0"])
    p = g.op.add(name="pool", type="MaxPool", input=["relu:0"])
    for k, v in (("ksize", [1, 1, 2, 2]), ("strides", [1, 1, 2, 2])):
        p.attr[k].list.i.extend(v)
    p.attr["padding"].s = b"VALID"
    p.attr["data_format"].s = b"NCHW"
    bn_in = ["pool:0"]
    for name, val in (("s", 1.0), ("o", 0.0), ("mu", 0.1), ("var", 1.0)):
        c = g.op.add(name=name, type="Const")
        c.attr["value"].t.desc.dtype = 1
        c.attr["value"].t.desc.shape.dim.extend([4])
        c.attr["value"].t.data = np.full(4, val, np.float32).tobytes()
        bn_in.append(name + ":0")
    bn = g.op.add(name="bn", type="BatchNorm", input=bn_in)
    bn.attr["is_training"].b = False
    bn.attr["data_format"].s = b"NCHW"
    g.op.add(name="hs", type="HSwish", input=["bn:0"])
    cat = g.op.add(name="cat", type="ConcatD", input=["hs:0", "pool:0"])
    cat.attr["concat_dim"].i = 1
    g.op.add(name="out", type="NetOutput", input=["cat:0"])
    with open(os.path.join(out_dir, "cnn.air"), "wb") as fh:
        fh.write(m.SerializeToString())


def media_seeds(out_dir):
    """dvpp_media: a selector byte (0 JPEG, 1 PNG, 2 H.264, 3 H.265) and the file."""
    import io
    import shutil
    import tempfile
    from PIL import Image
    rng = np.random.default_rng(0)
    img = Image.fromarray(rng.integers(0, 256, (40, 48, 3), dtype=np.uint8))
    for name, sel, kw in (("jpeg420", 0, dict(format="JPEG", quality=80)),
                          ("jpeg444", 4, dict(format="JPEG", subsampling=0)),
                          ("png_rgb", 1, dict(format="PNG"))):
        buf = io.BytesIO()
        img.save(buf, **kw)
        with open(os.path.join(out_dir, name), "wb") as fh:
            fh.write(bytes([sel]) + buf.getvalue())
    if shutil.which("ffmpeg"):
        with tempfile.TemporaryDirectory() as tmp:
            for name, sel, codec, fmt in (("h264", 2, "libx264", "h264"), ("h265", 3, "libx265", "hevc")):
                path = os.path.join(tmp, name)
                r = subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i",
                                    "testsrc=size=32x32:rate=5", "-frames:v", "3", "-pix_fmt",
                                    "yuv420p", "-c:v", codec, "-f", fmt, path])
                if r.returncode == 0:
                    with open(path, "rb") as src, open(os.path.join(out_dir, name), "wb") as fh:
                        fh.write(bytes([sel]) + src.read())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    a = ap.parse_args()
    out = {n: os.path.join(HERE, "corpus", n) for n in
           ("onnx_import", "caffe_import", "tf_import", "air_import", "om_load", "atc_flags", "op_json", "python_tokenizer",
            "notebook", "dvpp_media")}
    for d in out.values():
        os.makedirs(d, exist_ok=True)
    caffe_seeds(out["caffe_import"])
    media_seeds(out["dvpp_media"])
    tf_seeds(out["tf_import"])
    air_seeds(out["air_import"])
    atc = os.path.join(a.build, "bin", "atc")
    for name, m in onnx_seeds():
        path = os.path.join(out["onnx_import"], name + ".onnx")
        onnx.save(m, path)
        stem = os.path.join(out["om_load"], name)
        shape = ["--input_shape=x:2,4"] if name == "mlp" else []
        r = subprocess.run([atc, f"--model={path}", "--framework=5", f"--output={stem}",
                            "--soc_version=Ascend910B3", *shape], capture_output=True, text=True)
        if r.returncode != 0:
            print("no .om seed for", name, r.stdout[-300:])
    flags = [["--model=m.onnx", "--framework=5", "--output=o", "--soc_version=Ascend910B3"],
             ["--input_shape=x:1,3,224,224;y:-1,4", "--dynamic_batch_size=1,2,4", "--log=info"],
             ["--mode=1", "--om=a.om", "--json=a.json"], ["--help"],
             ["--precision_mode=force_fp16", "--out_nodes=a:0;b:1", "--input_format=NCHW"]]
    for i, f in enumerate(flags):
        with open(os.path.join(out["atc_flags"], f"flags{i}"), "wb") as fh:
            fh.write(b"\0".join(x.encode() for x in f))
    ops = [{"op": "AddCustom", "language": "cpp",
            "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"],
                            "type": ["float", "float16"]},
                           {"name": "y", "param_type": "required", "format": ["ND"],
                            "type": ["float", "float16"]}],
            "output_desc": [{"name": "z", "param_type": "required", "format": ["ND"],
                             "type": ["float", "float16"]}],
            "attr": [{"name": "alpha", "param_type": "optional", "type": "float",
                      "default_value": "1.0"}]}]
    with open(os.path.join(out["op_json"], "add_custom.json"), "w") as fh:
        json.dump(ops, fh, indent=1)
    with open(os.path.join(out["python_tokenizer"], "train.py"), "w") as fh:
        fh.write('import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n'
                 '    """A net."""\n\n    def forward(self, x):\n        return x.cuda() * 2\n\n\n'
                 'model = Net().to("cuda")\ntorch.cuda.synchronize()\n'
                 's = f"{model!r:>10}" + r"\\d" + b"x".decode()\n')
    nb = {"cells": [{"cell_type": "code", "source": ["import torch\n", "x = torch.ones(2).cuda()\n"],
                     "metadata": {}, "outputs": [], "execution_count": 1},
                    {"cell_type": "markdown", "source": "# notes", "metadata": {}}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    with open(os.path.join(out["notebook"], "demo.ipynb"), "w") as fh:
        json.dump(nb, fh)


if __name__ == "__main__":
    main()
