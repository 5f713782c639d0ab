"""Writes Caffe nets (.prototxt + .caffemodel) equivalent to small torch modules, with the
torch module's weights, through OpenCANN's own caffe.proto compiled with protoc."""
import importlib
import os
import subprocess
import sys

import numpy as np
import torch
from google.protobuf import text_format

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO_DIR = os.path.join(HERE, "..", "..", "src", "frontend", "caffe")


def caffe_pb2(out_dir):
    subprocess.run(["protoc", f"--proto_path={PROTO_DIR}", f"--python_out={out_dir}",
                    "caffe.proto"], check=True)
    sys.path.insert(0, out_dir)
    return importlib.import_module("caffe_pb2")


class NetWriter:
    """Layers appended in order; blobs kept apart for the .caffemodel."""

    def __init__(self, pb, name, input_shape, v1=False):
        self.pb, self.v1 = pb, v1
        self.net = pb.NetParameter(name=name)
        self.weights = pb.NetParameter(name=name)
        if v1:
            self.net.input.append("data")
            self.net.input_dim.extend(input_shape)
        else:
            layer = self.net.layer.add(name="data", type="Input", top=["data"])
            layer.input_param.shape.add(dim=input_shape)

    def layer(self, name, type_, bottom, top, blobs=(), **params):
        if self.v1:
            l = self.net.layers.add(name=name, type=getattr(self.pb.V1LayerParameter, type_),
                                    bottom=bottom, top=top)
            w = self.weights.layers.add(name=name, type=l.type)
        else:
            l = self.net.layer.add(name=name, type=type_, bottom=bottom, top=top)
            w = self.weights.layer.add(name=name, type=type_)
        for key, value in params.items():
            field = getattr(l, key)
            field.MergeFrom(type(field)(**value))
        for b in blobs:
            arr = np.asarray(b, np.float32)
            blob = w.blobs.add()
            blob.shape.dim.extend(arr.shape)
            blob.data.extend(arr.ravel().tolist())
        return l

    def save(self, stem):
        with open(stem + ".prototxt", "w") as f:
            f.write(text_format.MessageToString(self.net))
        with open(stem + ".caffemodel", "wb") as f:
            f.write(self.weights.SerializeToString())
        return stem + ".prototxt", stem + ".caffemodel"


def t(x):
    return x.detach().numpy()


def conv(w, name, bottom, top, m):
    p = dict(num_output=m.out_channels, kernel_size=[m.kernel_size[0]], stride=[m.stride[0]],
             pad=[m.padding[0]], group=m.groups, bias_term=m.bias is not None)
    if m.dilation[0] != 1:
        p["dilation"] = [m.dilation[0]]
    blobs = [t(m.weight)] + ([t(m.bias)] if m.bias is not None else [])
    kind = "Deconvolution" if isinstance(m, torch.nn.ConvTranspose2d) else "Convolution"
    w.layer(name, kind, [bottom], [top], blobs, convolution_param=p)


def bn_scale(w, name, blob, bn):
    """torch BatchNorm2d as Caffe's BatchNorm (statistics times a scale factor) + Scale."""
    factor = 2.0
    w.layer(name + "_bn", "BatchNorm", [blob], [blob],
            [t(bn.running_mean) * factor, t(bn.running_var) * factor, [factor]],
            batch_norm_param=dict(eps=bn.eps))
    w.layer(name + "_scale", "Scale", [blob], [blob], [t(bn.weight), t(bn.bias)],
            scale_param=dict(bias_term=True))


def randomize_bn(m, gen):
    for bn in m.modules():
        if isinstance(bn, torch.nn.BatchNorm2d):
            bn.running_mean.copy_(torch.randn(bn.num_features, generator=gen) * 0.1)
            bn.running_var.copy_(torch.rand(bn.num_features, generator=gen) + 0.5)
            bn.weight.data.copy_(torch.rand(bn.num_features, generator=gen) + 0.5)
            bn.bias.data.copy_(torch.randn(bn.num_features, generator=gen) * 0.1)
