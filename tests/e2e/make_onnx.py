"""Small ONNX models built with onnx.helper for CLI and error tests."""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(model, path):
    onnx.save(model, str(path))
    return str(path)


def tiny_mlp(path, batch=1, dynamic=False):
    """x[batch,4] -> MatMul -> Add -> Relu -> y[batch,3]"""
    w = numpy_helper.from_array(np.arange(12, dtype=np.float32).reshape(4, 3) / 10, "w")
    b = numpy_helper.from_array(np.array([0.5, -0.5, 0.0], np.float32), "b")
    dim = "N" if dynamic else batch
    g = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["m"]), helper.make_node("Add", ["m", "b"], ["a"]),
         helper.make_node("Relu", ["a"], ["y"])],
        "tiny_mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [dim, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [dim, 3])],
        [w, b])
    return save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)


def unsupported_op(path):
    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"]),
         helper.make_node("FancyOp", ["r"], ["y"], name="my_fancy_node", domain="com.example")],
        "bad",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    return save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13),
                                                    helper.make_opsetid("com.example", 1)]), path)


def mlp_reference(x):
    w = np.arange(12, dtype=np.float32).reshape(4, 3) / 10
    return np.maximum(x @ w + np.array([0.5, -0.5, 0.0], np.float32), 0)


def small_cnn(path):
    """x[1,3,16,16] -> Conv(8) -> Relu -> Conv(8, residual Add) -> Relu -> GAP -> Flatten -> Gemm(5)"""
    rng = np.random.RandomState(0)
    inits = [numpy_helper.from_array(rng.randn(8, 3, 3, 3).astype(np.float32) * 0.3, "w1"),
             numpy_helper.from_array(rng.randn(8).astype(np.float32) * 0.1, "b1"),
             numpy_helper.from_array(rng.randn(8, 8, 3, 3).astype(np.float32) * 0.2, "w2"),
             numpy_helper.from_array(rng.randn(5, 8).astype(np.float32), "fc"),
             numpy_helper.from_array(rng.randn(5).astype(np.float32), "fcb")]
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"]),
             helper.make_node("Conv", ["r1", "w2"], ["c2"], pads=[1, 1, 1, 1]),
             helper.make_node("Add", ["c2", "r1"], ["s"]),
             helper.make_node("Relu", ["s"], ["r2"]),
             helper.make_node("GlobalAveragePool", ["r2"], ["g"]),
             helper.make_node("Flatten", ["g"], ["f"]),
             helper.make_node("Gemm", ["f", "fc", "fcb"], ["y"], transB=1)]
    g = helper.make_graph(nodes, "small_cnn",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 5])], inits)
    return save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)
