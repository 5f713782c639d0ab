"""Tutorial 4: one small CNN, with one set of weights, in the three other forms atc reads.

Without Caffe, TensorFlow or MindSpore installed, the files are written with the frameworks'
own protobuf schemas (OpenCANN installs them under share/opencann/proto):
  small_cnn.caffemodel  the weights for small_cnn.prototxt (Caffe, --framework=0)
  small_cnn.pb          a frozen TensorFlow GraphDef, NHWC (--framework=3)
  small_cnn.air         a MindSpore AIR graph: GE operators (--framework=1)
  input.npy, torch_prob.npy   a sample input (NCHW) and PyTorch's answer for it"""
import importlib
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

PROTO = os.path.join(os.environ["ASCEND_TOOLKIT_HOME"], "share", "opencann", "proto")


def compiled(proto):
    """The Python module protoc makes from one of the installed .proto files."""
    out = tempfile.mkdtemp()
    subprocess.run(["protoc", f"--proto_path={PROTO}", f"--python_out={out}", proto], check=True)
    sys.path.insert(0, out)
    return importlib.import_module(proto.replace(".proto", "_pb2"))


def set_attr(attr, value):
    """TensorFlow's AttrValue and GE's AttrDef share the fields b, i, s and list.i."""
    if isinstance(value, str):
        attr.s = value.encode()
    elif isinstance(value, bool):
        attr.b = value
    elif isinstance(value, int):
        attr.i = value
    elif isinstance(value, list) and all(isinstance(v, int) for v in value):
        attr.list.i.extend(value)
    else:
        raise TypeError(f"no attribute field for {value!r}")


torch.manual_seed(0)
net = torch.nn.Sequential(
    torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
    torch.nn.Conv2d(8, 16, 3, padding=1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1),
    torch.nn.Flatten(), torch.nn.Linear(16, 10), torch.nn.Softmax(dim=1)).eval()
w1, b1 = net[0].weight.detach().numpy(), net[0].bias.detach().numpy()
w2, b2 = net[3].weight.detach().numpy(), net[3].bias.detach().numpy()
fc, fcb = net[7].weight.detach().numpy(), net[7].bias.detach().numpy()
x = np.random.default_rng(0).standard_normal((1, 3, 32, 32)).astype(np.float32)
with torch.no_grad():
    np.save("torch_prob.npy", net(torch.from_numpy(x)).numpy())
np.save("input.npy", x)
np.save("input_nhwc.npy", np.ascontiguousarray(x.transpose(0, 2, 3, 1)))

# Caffe: the weights travel as blobs of layers named as in the prototxt.
caffe = compiled("caffe.proto")
weights = caffe.NetParameter(name="small_cnn")
for name, blobs in [("conv1", [w1, b1]), ("conv2", [w2, b2]), ("fc", [fc, fcb])]:
    layer = weights.layer.add(name=name, type="InnerProduct" if name == "fc" else "Convolution")
    for arr in blobs:
        blob = layer.blobs.add()
        blob.shape.dim.extend(arr.shape)
        blob.data.extend(arr.ravel().tolist())
with open("small_cnn.caffemodel", "wb") as f:
    f.write(weights.SerializeToString())

# TensorFlow: NHWC activations, HWIO filters, weights frozen into Const nodes.
tf = compiled("tf_graph.proto")
graph = tf.GraphDef()


def tf_node(name, op, inputs=(), **attrs):
    node = graph.node.add(name=name, op=op, input=list(inputs))
    for key, value in attrs.items():
        set_attr(node.attr[key], value)
    return name


def tf_const(name, arr):
    arr = np.ascontiguousarray(arr)
    node = graph.node.add(name=name, op="Const")
    dtype = tf.DT_FLOAT if arr.dtype == np.float32 else tf.DT_INT32
    node.attr["dtype"].type = dtype
    tensor = node.attr["value"].tensor
    tensor.dtype = dtype
    tensor.tensor_shape.dim.extend([tf.TensorShapeProto.Dim(size=d) for d in arr.shape])
    tensor.tensor_content = arr.tobytes()
    return name


placeholder = graph.node.add(name="x", op="Placeholder")
placeholder.attr["dtype"].type = tf.DT_FLOAT
placeholder.attr["shape"].shape.dim.extend([tf.TensorShapeProto.Dim(size=d) for d in (1, 32, 32, 3)])
h = tf_node("conv1", "Conv2D", ["x", tf_const("w1", w1.transpose(2, 3, 1, 0))],
            strides=[1, 1, 1, 1], padding="SAME", data_format="NHWC")
h = tf_node("relu1", "Relu", [tf_node("bias1", "BiasAdd", [h, tf_const("b1", b1)])])
h = tf_node("pool1", "MaxPool", [h], ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding="VALID")
h = tf_node("conv2", "Conv2D", [h, tf_const("w2", w2.transpose(2, 3, 1, 0))],
            strides=[1, 1, 1, 1], padding="SAME", data_format="NHWC")
h = tf_node("relu2", "Relu", [tf_node("bias2", "BiasAdd", [h, tf_const("b2", b2)])])
h = tf_node("gap", "Mean", [h, tf_const("axes", np.array([1, 2], np.int32))], keep_dims=False)
h = tf_node("fc", "MatMul", [h, tf_const("fcw", fc.T)])
tf_node("prob", "Softmax", [tf_node("fcb", "BiasAdd", [h, tf_const("fcbv", fcb)])])
with open("small_cnn.pb", "wb") as f:
    f.write(graph.SerializeToString())

# MindSpore AIR: a GE graph of GE operator types, NCHW, as MindSpore's export writes it.
ge = compiled("ge_ir.proto")
model = ge.ModelDef(name="small_cnn")
g = model.graph.add(name="main")
GE_FLOAT, GE_INT32 = 1, 7


def ge_op(name, type_, inputs=(), **attrs):
    op = g.op.add(name=name, type=type_, input=[f"{i}:0" for i in inputs])
    for key, value in attrs.items():
        set_attr(op.attr[key], value)
    return name


def ge_const(name, arr):
    arr = np.ascontiguousarray(arr)
    op = g.op.add(name=name, type="Const")
    tensor = op.attr["value"].t
    tensor.desc.dtype = GE_FLOAT if arr.dtype == np.float32 else GE_INT32
    tensor.desc.shape.dim.extend(arr.shape)
    tensor.desc.layout = "NCHW"
    tensor.data = arr.tobytes()
    return name


data = g.op.add(name="x", type="Data")
data.attr["index"].i = 0
desc = data.output_desc.add(dtype=GE_FLOAT, layout="NCHW")
desc.shape.dim.extend([1, 3, 32, 32])
conv = dict(strides=[1, 1, 1, 1], pads=[1, 1, 1, 1], dilations=[1, 1, 1, 1], groups=1,
            data_format="NCHW")
h = ge_op("conv1", "Conv2D", ["x", ge_const("w1", w1), ge_const("b1", b1)], **conv)
h = ge_op("pool1", "MaxPool", [ge_op("relu1", "Relu", [h])], ksize=[1, 1, 2, 2],
          strides=[1, 1, 2, 2], padding="VALID", data_format="NCHW")
h = ge_op("conv2", "Conv2D", [h, ge_const("w2", w2), ge_const("b2", b2)], **conv)
h = ge_op("gap", "ReduceMeanD", [ge_op("relu2", "Relu", [h])], axes=[2, 3], keep_dims=False)
h = ge_op("fc", "MatMulV2", [h, ge_const("fcw", fc), ge_const("fcb", fcb)],
          transpose_x1=False, transpose_x2=True)
ge_op("prob", "SoftmaxV2", [h], axes=[-1])
g.op.add(name="out", type="NetOutput", input=["prob:0"])
with open("small_cnn.air", "wb") as f:
    f.write(model.SerializeToString())
print("wrote small_cnn.caffemodel, small_cnn.pb and small_cnn.air")
