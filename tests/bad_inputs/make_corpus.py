"""Writes the bad-input corpus: files no reader may crash on, each with the code it must give.

    /usr/bin/python3 tests/bad_inputs/make_corpus.py --build build

Every case lands under tests/bad_inputs/<reader>/ and in cases.json with the tool that reads
it and the code expected (CANN's E-code for atc, the AscendCL code for a load, the exit status
for msopgen and gpu2npu). run_corpus.py runs them. The files are committed so that the corpus
stays fixed while the code changes; rerun this script only to add cases.

The .om cases are built from real atc output and edited with the GE ModelDef schema
(src/om/ge_ir.proto, compiled with protoc into a temporary folder); after an edit the SHA-256
is recomputed, so the loader's own checks, not the checksum, must refuse them.
"""
import argparse
import hashlib
import importlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
F, I64 = TensorProto.FLOAT, TensorProto.INT64
CASES = []


def case(path, tool, code, why, **extra):
    CASES.append(dict(file=path, tool=tool, code=code, why=why, **extra))


def write(rel, data):
    path = os.path.join(HERE, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)
    return rel


# ---------------------------------------------------------------- ONNX → atc
def vi(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


def model(nodes, inputs, outputs, inits=(), opset=17, **kw):
    g = helper.make_graph(nodes, "bad", inputs, outputs, list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], **kw)


def const(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def mlp():
    w = const("w", np.ones((4, 3), np.float32))
    return model([helper.make_node("MatMul", ["x", "w"], ["m"]),
                  helper.make_node("Relu", ["m"], ["y"])],
                 [vi("x", F, [2, 4])], [vi("y", F, None)], [w])


def chain():
    """MatMul -> Softmax -> Neg: three kernels no pass fuses, two activations live at once."""
    w = const("w", np.ones((4, 3), np.float32))
    return model([helper.make_node("MatMul", ["x", "w"], ["m"]),
                  helper.make_node("Softmax", ["m"], ["s"], axis=-1),
                  helper.make_node("Neg", ["s"], ["y"])],
                 [vi("x", F, [2, 4])], [vi("y", F, None)], [w])


def one_node(op, inputs, shapes, inits=(), dtype=F, opset=17, **attrs):
    """A graph of one node: data inputs of `shapes` (None: an initializer of that name)."""
    graph_inputs = [vi(n, dtype, s) for n, s in zip(inputs, shapes) if s is not None]
    return model([helper.make_node(op, list(inputs), ["y"], **attrs)], graph_inputs,
                 [vi("y", dtype, None)], inits, opset=opset)


def onnx_case(name, m_or_bytes, code, why):
    data = m_or_bytes if isinstance(m_or_bytes, bytes) else m_or_bytes.SerializeToString()
    case(write(f"onnx/{name}.onnx", data), "atc", code, why)


def onnx_cases():
    good = mlp().SerializeToString()
    onnx_case("empty_file", b"", "E19005", "zero-length file")
    for cut in (1, 7, 16, 33, len(good) // 2, len(good) - 9, len(good) - 1):
        onnx_case(f"truncated_{cut}", good[:cut], "E19005", f"valid model cut at byte {cut}")
    rng = np.random.RandomState(13)
    onnx_case("random_bytes", rng.bytes(2048), "E19005", "2 KiB of noise")
    onnx_case("text_file", b"this is not a model\n" * 20, "E19005", "plain text")
    onnx_case("om_as_onnx", b"IMOD" + bytes(252), "E19005", "an .om header given as ONNX")
    # Bit flips that break the protobuf framing (in the first bytes: tags and lengths).
    for pos in (0, 2, 5, 9):
        b = bytearray(good)
        b[pos] ^= 0x80
        onnx_case(f"bitflip_{pos}", bytes(b), "E19005", f"high bit of byte {pos} flipped")
    huge_len = b"\x3a\xff\xff\xff\xff\x0f" + good  # graph field claiming a 4 GiB length
    onnx_case("huge_declared_length", huge_len, "E19005", "a field claims 4 GiB")

    m = mlp()
    m.ClearField("graph")
    onnx_case("no_graph", m, "E19005", "ModelProto without a graph")
    m = mlp()
    del m.graph.output[:]
    onnx_case("no_outputs", m, "E19005", "graph without outputs")
    m = mlp()
    del m.opset_import[:]
    onnx_case("no_opset_import", m, "E19005", "no opset_import")
    onnx_case("opset_999", model(mlp().graph.node, mlp().graph.input, mlp().graph.output,
                                 mlp().graph.initializer, opset=999), "E19010",
              "default-domain opset 999")
    m = mlp()
    m.ir_version = 0
    onnx_case("ir_version_0", m, "E19005", "ir_version 0")

    onnx_case("unknown_op", one_node("FrobnicateTensor", ["x"], [[2]]), "EZ3003",
              "an op ONNX does not have")
    m = one_node("Relu", ["x"], [[2]])
    m.graph.node[0].domain = "com.example.evil"
    onnx_case("unknown_domain", m, "EZ3003", "an op in a domain nobody registered")

    # Topology.
    onnx_case("cycle", model([helper.make_node("Relu", ["b"], ["a"]),
                              helper.make_node("Relu", ["a"], ["b"]),
                              helper.make_node("Add", ["x", "b"], ["y"])],
                             [vi("x", F, [2])], [vi("y", F, None)]), "E19005", "a -> b -> a")
    onnx_case("self_loop", model([helper.make_node("Add", ["x", "y"], ["y"])],
                                 [vi("x", F, [2])], [vi("y", F, None)]), "E19005",
              "a node that reads its own output")
    onnx_case("dangling_input", model([helper.make_node("Add", ["x", "ghost"], ["y"])],
                                      [vi("x", F, [2])], [vi("y", F, None)]), "E19005",
              "input nobody produces")
    onnx_case("output_not_produced", model([helper.make_node("Relu", ["x"], ["r"])],
                                           [vi("x", F, [2])], [vi("y", F, None)]), "E19005",
              "graph output nobody produces")
    onnx_case("two_producers", model([helper.make_node("Relu", ["x"], ["y"]),
                                      helper.make_node("Neg", ["x"], ["y"])],
                                     [vi("x", F, [2])], [vi("y", F, None)]), "E19005",
              "two nodes write one value")
    onnx_case("duplicate_inputs", model([helper.make_node("Relu", ["x"], ["y"])],
                                        [vi("x", F, [2]), vi("x", F, [3])],
                                        [vi("y", F, None)]), "E19005",
              "two graph inputs with one name")
    onnx_case("empty_input_name", model([helper.make_node("Relu", [""], ["y"])],
                                        [vi("", F, [2])], [vi("y", F, None)]), "E19005",
              "a graph input named ''")

    # Arity.
    onnx_case("arity_add_1", one_node("Add", ["x"], [[2]]), "E19005", "Add with one input")
    onnx_case("arity_relu_3", one_node("Relu", ["x", "a", "b"], [[2], [2], [2]]), "E19005",
              "Relu with three inputs")
    onnx_case("arity_conv_0", model([helper.make_node("Conv", [], ["y"])], [],
                                    [vi("y", F, None)]), "E19005", "Conv without inputs")
    onnx_case("arity_matmul_3", one_node("MatMul", ["a", "b", "c"], [[2, 2]] * 3), "E19005",
              "MatMul with three inputs")
    m = one_node("Split", ["x"], [[4]], axis=0)
    del m.graph.node[0].output[:]
    onnx_case("arity_split_no_outputs", m, "E19005", "Split without outputs")
    m = one_node("Relu", ["x"], [[2]])
    m.graph.node[0].output.extend(["z1", "z2"])
    onnx_case("arity_relu_3_outputs", m, "E19005", "Relu with three outputs")

    # Types.
    onnx_case("dtype_matmul_mixed", model([helper.make_node("MatMul", ["a", "b"], ["y"])],
                                          [vi("a", F, [2, 2]), vi("b", TensorProto.INT32, [2, 2])],
                                          [vi("y", F, None)]), "E19005",
              "MatMul of float32 and int32")
    onnx_case("dtype_add_mixed", model([helper.make_node("Add", ["a", "b"], ["y"])],
                                       [vi("a", F, [2]), vi("b", I64, [2])],
                                       [vi("y", F, None)]), "E19005", "float32 + int64")
    onnx_case("dtype_undefined", one_node("Relu", ["x"], [[2]], dtype=TensorProto.UNDEFINED),
              "E19005", "an input of elem_type 0")
    m = one_node("Relu", ["x"], [[2]])
    m.graph.input[0].type.tensor_type.elem_type = 99
    onnx_case("dtype_99", m, "E19005", "elem_type 99")
    onnx_case("dtype_string_math", one_node("Sqrt", ["x"], [[2]], dtype=TensorProto.STRING),
              "E19005", "Sqrt of strings")
    onnx_case("cast_to_99", one_node("Cast", ["x"], [[2]], to=99), "E19005", "Cast to type 99")

    # Dimensions.
    onnx_case("dim_negative", one_node("Relu", ["x"], [[-5, 2]]), "E19005",
              "a dim of -5 in the model")
    onnx_case("dim_2e62", one_node("Relu", ["x"], [[1 << 62, 4]]), "E10001",
              "a dim of 2^62 (more than 2^64 elements)")
    onnx_case("dim_product_overflow", one_node("Relu", ["x"], [[1 << 31, 1 << 31, 1 << 31]]),
              "E10001", "dims whose product overflows int64")
    onnx_case("dim_over_bound", one_node("Relu", ["x"], [[1 << 40, 1 << 4]]), "E10001",
              "16 Ti elements: over OCANN_MAX_TENSOR_BYTES")
    onnx_case("rank_40", one_node("Relu", ["x"], [[1] * 40]), "E19005",
              "an input of rank 40")

    # Weights that do not match their declaration.
    def bad_weight(name, mutate, why, code="E19005"):
        m = mlp()
        mutate(m.graph.initializer[0])
        onnx_case(name, m, code, why)
    bad_weight("weights_short_raw", lambda t: setattr(t, "raw_data", t.raw_data[:20]),
               "raw_data shorter than the dims")
    bad_weight("weights_long_raw", lambda t: setattr(t, "raw_data", t.raw_data + b"\0" * 64),
               "raw_data longer than the dims")

    def typed_short(t):
        t.ClearField("raw_data")
        t.float_data.extend([1.0, 2.0, 3.0])
    bad_weight("weights_short_typed", typed_short, "float_data with 3 of 12 values")

    def neg_dims(t):
        t.dims[0] = -4
    bad_weight("weights_negative_dim", neg_dims, "an initializer dim of -4")

    def huge_dims(t):
        t.dims[:] = [1 << 40, 1 << 40]
    bad_weight("weights_huge_dims", huge_dims, "initializer dims 2^40 x 2^40 over 48 bytes")

    def external(path):
        def f(t):
            t.ClearField("raw_data")
            t.data_location = TensorProto.EXTERNAL
            t.external_data.add(key="location", value=path)
        return f
    bad_weight("weights_external_missing", external("no_such_weights.bin"),
               "external data file that does not exist", "E10001")
    bad_weight("weights_external_traversal", external("../../../../etc/passwd"),
               "external data path out of the model's folder")
    bad_weight("weights_external_absolute", external("/etc/passwd"),
               "external data at an absolute path")

    def wrong_type(t):
        t.data_type = 99
    bad_weight("weights_dtype_99", wrong_type, "initializer of data_type 99")

    # Shapes that contradict each other.
    onnx_case("matmul_mismatch", model([helper.make_node("MatMul", ["a", "b"], ["y"])],
                                       [vi("a", F, [2, 3]), vi("b", F, [4, 5])],
                                       [vi("y", F, None)]), "E19005", "[2,3] x [4,5]")
    onnx_case("conv_channels", one_node("Conv", ["x", "w"], [[1, 3, 8, 8], None],
                                        [const("w", np.ones((2, 4, 3, 3), np.float32))]),
              "E19005", "3 input channels, weight wants 4")
    onnx_case("conv_rank", one_node("Conv", ["x", "w"], [[1, 3, 8], None],
                                    [const("w", np.ones((2, 3, 3, 3), np.float32))]),
              "E19005", "X rank 3, W rank 4")
    onnx_case("conv_stride_0", one_node("Conv", ["x", "w"], [[1, 1, 8, 8], None],
                                        [const("w", np.ones((1, 1, 3, 3), np.float32))],
                                        strides=[0, 1]), "E19005", "stride 0")
    onnx_case("conv_group_0", one_node("Conv", ["x", "w"], [[1, 2, 8, 8], None],
                                       [const("w", np.ones((2, 1, 3, 3), np.float32))],
                                       group=0), "E19005", "group 0")
    onnx_case("conv_kernel_too_big", one_node("Conv", ["x", "w"], [[1, 1, 2, 2], None],
                                              [const("w", np.ones((1, 1, 5, 5), np.float32))]),
              "E19005", "5x5 kernel over a 2x2 input")
    onnx_case("conv_pads_length", one_node("Conv", ["x", "w"], [[1, 1, 8, 8], None],
                                           [const("w", np.ones((1, 1, 3, 3), np.float32))],
                                           pads=[1, 1, 1]), "E19005", "three pads for 2-D")
    onnx_case("pool_dilation_negative", one_node("MaxPool", ["x"], [[1, 1, 8, 8]],
                                                 kernel_shape=[2, 2], dilations=[-1, 1]),
              "E19005", "a negative dilation")
    onnx_case("reshape_mismatch", one_node("Reshape", ["x", "s"], [[2, 3], None],
                                           [const("s", np.array([4, 4], np.int64))]),
              "E19005", "6 elements reshaped to 16")
    onnx_case("reshape_two_minus_one", one_node("Reshape", ["x", "s"], [[2, 3], None],
                                                [const("s", np.array([-1, -1], np.int64))]),
              "E19005", "two -1 in a Reshape spec")
    onnx_case("concat_ranks", model([helper.make_node("Concat", ["a", "b"], ["y"], axis=0)],
                                    [vi("a", F, [2, 2]), vi("b", F, [2])],
                                    [vi("y", F, None)]), "E19005", "Concat of rank 2 and rank 1")
    onnx_case("gather_axis", one_node("Gather", ["x", "i"], [[2, 2], None],
                                      [const("i", np.array([0], np.int64))], axis=5),
              "E19005", "Gather axis 5 of rank 2")
    onnx_case("gather_index_out_of_range", one_node("Gather", ["x", "i"], [[2, 2], None],
                                                    [const("i", np.array([7], np.int64))]),
              "E19005", "a constant index past the axis")
    onnx_case("softmax_axis", one_node("Softmax", ["x"], [[2, 3]], axis=4), "E19005",
              "Softmax axis 4 of rank 2")
    onnx_case("flatten_axis", one_node("Flatten", ["x"], [[2, 3]], axis=9), "E19005",
              "Flatten axis 9")
    onnx_case("transpose_perm_repeat", one_node("Transpose", ["x"], [[2, 3]], perm=[0, 0]),
              "E19005", "perm repeats an axis")
    onnx_case("transpose_perm_length", one_node("Transpose", ["x"], [[2, 3]], perm=[0, 1, 2]),
              "E19005", "perm longer than the rank")
    onnx_case("squeeze_not_one", one_node("Squeeze", ["x", "a"], [[2, 3], None],
                                          [const("a", np.array([0], np.int64))]), "E19005",
              "squeezing a dim of 2")
    onnx_case("unsqueeze_duplicate", one_node("Unsqueeze", ["x", "a"], [[2, 3], None],
                                              [const("a", np.array([0, 0], np.int64))]),
              "E19005", "Unsqueeze axes repeat")
    onnx_case("split_sizes", one_node("Split", ["x", "s"], [[6], None],
                                      [const("s", np.array([2, 2], np.int64))], axis=0),
              "E19005", "split sizes sum to 4 of 6")
    onnx_case("slice_step_0", one_node("Slice", ["x", "b", "e", "a", "st"],
                                       [[6], None, None, None, None],
                                       [const("b", np.array([0], np.int64)),
                                        const("e", np.array([4], np.int64)),
                                        const("a", np.array([0], np.int64)),
                                        const("st", np.array([0], np.int64))]),
              "E19005", "a Slice step of 0")
    onnx_case("topk_negative_k", one_node("TopK", ["x", "k"], [[6], None],
                                          [const("k", np.array([-2], np.int64))]), "E19005",
              "K of -2")
    onnx_case("topk_k_too_big", one_node("TopK", ["x", "k"], [[6], None],
                                         [const("k", np.array([9], np.int64))]), "E19005",
              "K of 9 over 6 values")
    onnx_case("pad_length", one_node("Pad", ["x", "p"], [[2, 2], None],
                                     [const("p", np.array([1, 1, 1], np.int64))]), "E19005",
              "three pads for rank 2")
    onnx_case("tile_repeats_negative", one_node("Tile", ["x", "r"], [[2, 2], None],
                                                [const("r", np.array([-1, 2], np.int64))]),
              "E19005", "a negative repeat")
    onnx_case("tile_repeats_length", one_node("Tile", ["x", "r"], [[2, 2], None],
                                              [const("r", np.array([2], np.int64))]),
              "E19005", "one repeat for rank 2")
    onnx_case("expand_incompatible", one_node("Expand", ["x", "s"], [[3], None],
                                              [const("s", np.array([4], np.int64))]),
              "E19005", "expand 3 to 4")
    onnx_case("constant_of_shape_negative", one_node("ConstantOfShape", ["s"], [None],
                                                     [const("s", np.array([-3], np.int64))]),
              "E19005", "ConstantOfShape [-3]")
    onnx_case("constant_of_shape_huge",
              one_node("ConstantOfShape", ["s"], [None],
                       [const("s", np.array([1 << 30, 1 << 30], np.int64))]), "E19005",
              "ConstantOfShape of 2^60 elements")
    onnx_case("reduce_axis", one_node("ReduceSum", ["x", "a"], [[2, 3], None],
                                      [const("a", np.array([3], np.int64))]), "E19005",
              "ReduceSum axis 3 of rank 2")
    onnx_case("resize_scales_count", one_node("Resize", ["x", "", "s"], [[1, 1, 4, 4], None, None],
                                              [const("s", np.array([2.0], np.float32))],
                                              mode="nearest"), "E19005",
              "one scale for rank 4")
    onnx_case("onehot_depth_negative",
              model([helper.make_node("OneHot", ["i", "d", "v"], ["y"])],
                    [vi("i", I64, [3])], [vi("y", F, None)],
                    [const("d", np.array([-4], np.int64)), const("v", np.array([0, 1], np.float32))]),
              "E19005", "OneHot depth -4")
    onnx_case("einsum_bad_equation", model([helper.make_node("Einsum", ["a", "b"], ["y"],
                                                             equation="ij,jk->iq")],
                                           [vi("a", F, [2, 2]), vi("b", F, [2, 2])],
                                           [vi("y", F, None)]), "E19005",
              "an output label no input has")
    onnx_case("batchnorm_scale_length",
              one_node("BatchNormalization", ["x", "s", "b", "m", "v"], [[1, 3, 2, 2]] + [None] * 4,
                       [const(n, np.ones(2, np.float32)) for n in "sbmv"]), "E19005",
              "two scales for three channels")
    onnx_case("gemm_mismatch", model([helper.make_node("Gemm", ["a", "b"], ["y"], transB=1)],
                                     [vi("a", F, [2, 3]), vi("b", F, [4, 5])],
                                     [vi("y", F, None)]), "E19005", "Gemm K mismatch")

    # Attributes of the wrong kind.
    m = one_node("Conv", ["x", "w"], [[1, 1, 8, 8], None],
                 [const("w", np.ones((1, 1, 3, 3), np.float32))])
    m.graph.node[0].attribute.extend([helper.make_attribute("strides", 1.5)])
    onnx_case("attr_strides_float", m, "E19005", "strides given as a float")
    m = one_node("Softmax", ["x"], [[2, 3]])
    m.graph.node[0].attribute.extend([helper.make_attribute("axis", "one")])
    onnx_case("attr_axis_string", m, "E19005", "axis given as a string")
    m = one_node("Softmax", ["x"], [[2, 3]])
    a = m.graph.node[0].attribute.add()
    a.name = "axis"
    onnx_case("attr_untyped", m, "E19005", "an attribute with no type and no value")
    m = one_node("Softmax", ["x"], [[2, 3]], axis=1)
    m.graph.node[0].attribute.extend([helper.make_attribute("axis", 0)])
    onnx_case("attr_duplicate", m, "E19005", "axis given twice")

    # Subgraphs.
    def if_of_depth(depth):
        leaf = helper.make_graph([helper.make_node("Neg", ["x"], ["o"])], "leaf", [],
                                 [vi("o", F, None)])
        then_g = leaf
        for d in range(depth):
            node = helper.make_node("If", ["c"], ["o"], then_branch=then_g, else_branch=leaf)
            then_g = helper.make_graph([node], f"level{d}", [], [vi("o", F, None)])
        return model(list(then_g.node), [vi("c", TensorProto.BOOL, []), vi("x", F, [2])],
                     [vi("o", F, None)])
    onnx_case("if_depth_120", if_of_depth(120), "E19005", "If nested 120 deep")
    onnx_case("if_outer_missing",
              model([helper.make_node(
                  "If", ["c"], ["y"],
                  then_branch=helper.make_graph([helper.make_node("Neg", ["ghost"], ["o"])],
                                                "t", [], [vi("o", F, None)]),
                  else_branch=helper.make_graph([helper.make_node("Neg", ["x"], ["o"])],
                                                "e", [], [vi("o", F, None)]))],
                  [vi("c", TensorProto.BOOL, []), vi("x", F, [2])], [vi("y", F, None)]),
              "E19005", "a branch reads a value nobody has")
    onnx_case("if_branch_missing",
              model([helper.make_node(
                  "If", ["c"], ["y"],
                  then_branch=helper.make_graph([helper.make_node("Neg", ["x"], ["o"])],
                                                "t", [], [vi("o", F, None)]))],
                  [vi("c", TensorProto.BOOL, []), vi("x", F, [2])], [vi("y", F, None)]),
              "E19005", "If without else_branch")
    onnx_case("if_branch_outputs",
              model([helper.make_node(
                  "If", ["c"], ["y"],
                  then_branch=helper.make_graph([helper.make_node("Neg", ["x"], ["o"])],
                                                "t", [], [vi("o", F, None)]),
                  else_branch=helper.make_graph([helper.make_node("Split", ["x"], ["o", "p"],
                                                                  axis=0, num_outputs=2)],
                                                "e", [], [vi("o", F, None), vi("p", F, None)]))],
                  [vi("c", TensorProto.BOOL, []), vi("x", F, [2])], [vi("y", F, None)],
                  opset=18),
              "E19005", "branches with one and two outputs")
    onnx_case("loop_body_arity",
              model([helper.make_node(
                  "Loop", ["n", "", "v"], ["y"],
                  body=helper.make_graph([helper.make_node("Identity", ["v_in"], ["v_out"])],
                                         "body", [vi("v_in", F, [2])],
                                         [vi("v_out", F, None)]))],
                  [vi("n", I64, []), vi("v", F, [2])], [vi("y", F, None)]),
              "E19005", "a Loop body without iteration and condition inputs")
    # Bodies: what the loader refuses in them atc refuses itself, with the op's own code.
    def if_model(then_nodes, then_outputs):
        return model([helper.make_node(
            "If", ["c"], ["y"],
            then_branch=helper.make_graph(then_nodes, "t", [], then_outputs),
            else_branch=helper.make_graph([helper.make_node("Neg", ["x"], ["o"])],
                                          "e", [], [vi("o", F, None)]))],
            [vi("c", TensorProto.BOOL, []), vi("x", F, [2])], [vi("y", F, None)])
    onnx_case("if_branch_unknown_op",
              if_model([helper.make_node("relu", ["x"], ["o"])], [vi("o", F, None)]),
              "EZ3003", "a branch node of an op type nobody registered (lower-case relu)")
    onnx_case("if_branch_arity",
              if_model([helper.make_node("Neg", ["x", "x"], ["o"])], [vi("o", F, None)]),
              "E19005", "a branch Neg with two inputs")
    onnx_case("if_branch_output_unnamed",
              if_model([helper.make_node("Neg", ["x"], ["o"])], [vi("", F, None)]),
              "E19005", "a branch output with no name")
    onnx_case("scan_body_output_uncomputed",
              model([helper.make_node(
                  "Scan", ["init", "xs"], ["total", "ys"], num_scan_inputs=1,
                  body=helper.make_graph([], "body", [vi("sum", F, [2]), vi("x_t", F, [2])],
                                         [vi("sum_out", F, [2]), vi("y_t", F, [2])]))],
                  [vi("init", F, [2]), vi("xs", F, [3, 2])],
                  [vi("total", F, [2]), vi("ys", F, [3, 2])]),
              "E19005", "a Scan body whose outputs nothing computes")
    onnx_case("body_value_complex",
              if_model([helper.make_node("Neg", ["x"], ["o"])],
                       [vi("o", TensorProto.COMPLEX64, None)]),
              "E19010", "a branch output of type complex64")


# ---------------------------------------------------------------- .om → msame, atc --mode=1
HEADER = 256


def load_ge_proto(tmp):
    subprocess.run(["protoc", f"--proto_path={os.path.join(ROOT, 'src', 'om')}",
                    f"--python_out={tmp}", "ge_ir.proto"], check=True)
    sys.path.insert(0, tmp)
    return importlib.import_module("ge_ir_pb2")


def split_om(data):
    count = struct.unpack_from("<I", data, HEADER)[0]
    table = HEADER + 8
    parts = []
    for i in range(count):
        t, off, size = struct.unpack_from("<QQQ", data, table + 24 * i)
        parts.append([t, off, size])
    return parts, table + 24 * count


def join_om(header, parts_bytes, types, recompute=True, order=None):
    """Rebuild an .om from partition blobs with a fresh table (and checksum). `order` is the
    order the blobs lie in the body (the writer puts the weights first, so that they keep
    their 512-byte alignment in the file); the table keeps the given order."""
    order = order if order is not None else list(range(len(parts_bytes)))
    offsets, body = {}, b""
    for i in order:
        offsets[i] = len(body)
        body += parts_bytes[i]
    table = struct.pack("<II", len(parts_bytes), 0)
    for i, (t, blob) in enumerate(zip(types, parts_bytes)):
        table += struct.pack("<QQQ", t, offsets[i], len(blob))
    rest = table + body
    h = bytearray(header)
    if recompute:
        h[12:12 + 64] = hashlib.sha256(rest).digest() + bytes(32)
        h[194] = 0  # checksum kind: SHA-256 of the body
        struct.pack_into("<I", h, 76, len(rest) & 0xFFFFFFFF)
        struct.pack_into("<Q", h, 184, len(rest))
    return bytes(h) + rest


def om_parts(data):
    parts, start = split_om(data)
    blobs = [data[start + off:start + off + size] for _, off, size in parts]
    order = sorted(range(len(parts)), key=lambda i: parts[i][1])
    return data[:HEADER], blobs, [t for t, _, _ in parts], order


def om_case(name, data, msame_code, why, atc_code=None):
    rel = write(f"om/{name}.om", data)
    case(rel, "msame", str(msame_code), why)
    if atc_code:
        case(rel, "atc_json", atc_code, why)


def om_cases(atc, pb):
    tmp = tempfile.mkdtemp()
    try:
        def compile_om(m, name, *flags):
            path = os.path.join(tmp, name + ".onnx")
            onnx.save(m, path)
            stem = os.path.join(tmp, name)
            r = subprocess.run([atc, f"--model={path}", "--framework=5", f"--output={stem}",
                                "--soc_version=Ascend910B3", *flags], capture_output=True,
                               text=True)
            if r.returncode != 0:
                raise RuntimeError(r.stdout + r.stderr)
            with open(stem + ".om", "rb") as fh:
                return fh.read()

        good = compile_om(chain(), "chain")
        dyn = compile_om(mlp(), "dyn", "--input_shape=x:-1,4", "--dynamic_batch_size=1,2,4")
        hw_model = one_node("Relu", ["x"], [[1, 1, -1, -1]])
        dyn_hw = compile_om(hw_model, "dynhw", "--input_shape=x:1,1,-1,-1",
                            "--dynamic_image_size=4,4;8,8")
        cond = model([helper.make_node(
            "If", ["c"], ["y"],
            then_branch=helper.make_graph([helper.make_node("Neg", ["x"], ["o"])], "t", [],
                                          [vi("o", F, [2])]),
            else_branch=helper.make_graph([helper.make_node("Abs", ["x"], ["o"])], "e", [],
                                          [vi("o", F, [2])]))],
            [vi("c", TensorProto.BOOL, []), vi("x", F, [2])], [vi("y", F, None)])
        if_om = compile_om(cond, "if")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    P = "100013"  # ACL_ERROR_PARSE_MODEL
    om_case("empty_file", b"", P, "zero-length file", "E19005")
    om_case("one_byte", b"I", P, "one byte", "E19005")
    om_case("short_header", good[:200], P, "a header cut at 200 bytes", "E19005")
    om_case("header_only", good[:HEADER], P, "a header and nothing after it", "E19005")
    for cut in (HEADER + 4, HEADER + 40, len(good) // 2, len(good) - 1):
        om_case(f"truncated_{cut}", good[:cut], P, f"cut at byte {cut}", "E19005")
    om_case("random_bytes", np.random.RandomState(5).bytes(4096), P, "noise", "E19005")
    om_case("onnx_as_om", mlp().SerializeToString(), P, "an ONNX file named .om", "E19005")
    for pos in (HEADER + 3, HEADER + 30, len(good) // 3, len(good) - 5):
        b = bytearray(good)
        b[pos] ^= 0x10
        om_case(f"bitflip_{pos}", bytes(b), P, f"a bit flipped at byte {pos} (checksum)",
                "E19005")

    def header_edit(name, why, edit, code=P, recompute=False, atc_code="E19005"):
        h, blobs, types, order = om_parts(good)
        h = bytearray(h)
        edit(h)
        data = join_om(bytes(h), blobs, types, recompute, order)
        om_case(name, data, code, why, atc_code)

    header_edit("bad_magic", "magic IMOD changed", lambda h: h.__setitem__(0, 0x58))
    header_edit("headsize_wrong", "headsize 128",
                lambda h: struct.pack_into("<I", h, 4, 128))
    header_edit("checksum_off", "is_checksum = 1 (a file may not switch the check off)",
                lambda h: h.__setitem__(81, 1))
    header_edit("encrypted", "is_encrypt = 1", lambda h: h.__setitem__(80, 1), code="200006",
                atc_code="E19010")
    header_edit("length_too_long", "length says 1 MiB more than the file",
                lambda h: struct.pack_into("<I", h, 76, struct.unpack_from("<I", h, 76)[0]
                                           + (1 << 20)))
    header_edit("model_length_huge", "model_length 2^63",
                lambda h: struct.pack_into("<Q", h, 184, 1 << 63))
    header_edit("checksum_zeroed", "checksum bytes all zero",
                lambda h: h.__setitem__(slice(12, 76), bytes(64)))

    def table_edit(name, why, parts_fn, count=None):
        h = good[:HEADER]
        parts, start = split_om(good)
        parts = parts_fn([list(p) for p in parts])
        n = len(parts) if count is None else count
        table = struct.pack("<II", n, 0) + b"".join(struct.pack("<QQQ", *p) for p in parts)
        rest = table + good[start:]
        hb = bytearray(h)
        hb[12:76] = hashlib.sha256(rest).digest() + bytes(32)
        hb[194] = 0  # checksum kind: SHA-256 of the body
        struct.pack_into("<I", hb, 76, len(rest) & 0xFFFFFFFF)
        struct.pack_into("<Q", hb, 184, len(rest))
        om_case(name, bytes(hb) + rest, P, why, "E19005")

    table_edit("partitions_zero", "a table of no partitions", lambda p: [], count=0)
    table_edit("partitions_million", "a table claiming 10^6 partitions", lambda p: p,
               count=1000000)
    table_edit("partition_past_end", "a partition offset past the file",
               lambda p: [p[0], [p[1][0], 1 << 40, p[1][2]]])
    table_edit("partition_size_wraps", "offset + size wraps around 2^64",
               lambda p: [p[0], [p[1][0], 16, (1 << 64) - 8]])
    table_edit("no_modeldef", "no ModelDef partition", lambda p: [p[0], p[0]])
    table_edit("two_modeldefs", "two ModelDef partitions", lambda p: [p[0], p[1], p[1]])
    table_edit("unknown_partition_type", "partition type 77",
               lambda p: [p[0], p[1], [77, 0, 0]])

    # atc --mode=1 is for looking inside a model, a broken one too: it dumps every ModelDef
    # that parses, so only the container and protobuf cases are its bad inputs.
    def model_edit(name, why, edit, code=P, base=None, atc_code=None):
        h, blobs, types, order = om_parts(base or good)
        md_index = types.index(0)
        md = pb.ModelDef()
        md.ParseFromString(blobs[md_index])
        edit(md)
        blobs[md_index] = md.SerializeToString()
        om_case(name, join_om(h, blobs, types, order=order), code, why, atc_code)

    def rebuild(name, why, blob_fn, code=P):
        h, blobs, types, order = om_parts(good)
        md_index = types.index(0)
        blobs[md_index] = blob_fn(blobs[md_index])
        om_case(name, join_om(h, blobs, types, order=order), code, why, "E19005")

    rebuild("modeldef_garbage", "ModelDef bytes are noise",
            lambda b: np.random.RandomState(9).bytes(len(b)))
    rebuild("modeldef_empty", "an empty ModelDef", lambda b: b"")
    rebuild("modeldef_truncated", "ModelDef cut in half", lambda b: b[:len(b) // 2])

    def op(md, type_):
        return next(o for o in md.graph[0].op if o.type == type_)

    model_edit("no_graphs", "a ModelDef without graphs", lambda md: md.ClearField("graph"),
               atc_code="E19005")
    model_edit("no_ops", "a graph without ops", lambda md: md.graph[0].ClearField("op"))
    model_edit("unknown_op", "op type FrobnicateTensor",
               lambda md: setattr(op(md, "Softmax"), "type", "FrobnicateTensor"))
    model_edit("dangling_edge", "an op reads ghost:0",
               lambda md: op(md, "Softmax").input.__setitem__(0, "ghost:0"))

    def cycle(md):
        mm, smax = op(md, "MatMul"), op(md, "Softmax")
        mm.input[0] = smax.name + ":0"
        mm.attr["_oc_inputs"].list.s[0] = smax.attr["_oc_outputs"].list.s[0]
    model_edit("cycle", "MatMul reads Softmax's output, Softmax reads MatMul's", cycle)

    def arity(md):
        mm = op(md, "MatMul")
        del mm.input[1:]
        del mm.input_desc[1:]
        del mm.attr["_oc_inputs"].list.s[1:]
    model_edit("wrong_arity", "MatMul with one input", arity)

    def desc_shape(md):
        d = op(md, "MatMul").output_desc[0].shape
        d.dim[:] = [2, 5]
    model_edit("desc_shape_mismatch", "MatMul's output described as [2,5], it computes [2,3]",
               desc_shape)

    def desc_dtype(md):
        op(md, "Softmax").output_desc[0].dtype = 99
    model_edit("desc_dtype_99", "an output of GE dtype 99", desc_dtype)

    def neg_dim(md):
        op(md, "Data").output_desc[0].shape.dim[:] = [-7, 4]
    model_edit("desc_negative_dim", "an input described as [-7,4]", neg_dim)

    def huge_dim(md):
        op(md, "Data").output_desc[0].shape.dim[:] = [1 << 62, 4]
    model_edit("desc_huge_dim", "an input of 2^64 elements", huge_dim)

    def rank_40(md):
        op(md, "Data").output_desc[0].shape.dim[:] = [1] * 40
    model_edit("desc_rank_40", "an input of rank 40", rank_40)

    def weight_offset(md):
        op(md, "Const").attr["value"].t.desc.data_offset = 1 << 40
    model_edit("weight_offset_past_end", "a constant 1 TiB into a small weights partition",
               weight_offset)

    def weight_misaligned(md):
        op(md, "Const").attr["value"].t.desc.data_offset = 3
    model_edit("weight_misaligned", "a float constant at offset 3", weight_misaligned)

    def weight_size(md):
        t = op(md, "Const").attr["value"].t
        t.desc.shape.dim[:] = [400, 300]
        op(md, "Const").output_desc[0].shape.dim[:] = [400, 300]
    model_edit("weight_shape_too_big", "a constant described as 400x300 over 48 bytes",
               weight_size)

    def mem(md, fn):
        for o in md.graph[0].op:
            if o.type in ("MatMul", "Softmax"):
                fn(o.output_desc[0].attr["_oc_mem_offset"])

    model_edit("mem_offset_past_arena", "an activation 1 GiB into its arena",
               lambda md: mem(md, lambda a: setattr(a, "i", 1 << 30)))
    model_edit("mem_offset_negative", "an activation at offset -64",
               lambda md: mem(md, lambda a: setattr(a, "i", -64)))
    model_edit("mem_offset_misaligned", "an activation at offset 3",
               lambda md: mem(md, lambda a: setattr(a, "i", 3)))

    def arena(value):
        def f(md):
            md.graph[0].attr["_oc_arena_size"].i = value
        return f
    model_edit("arena_zero", "an arena of 0 bytes under planned values", arena(0))
    model_edit("arena_huge", "an arena of 2^62 bytes", arena(1 << 62))
    model_edit("arena_negative", "an arena of -1 bytes", arena(-1))

    def overlap(md):
        # The MatMul output and the Relu output live at once at the Relu: same offset is
        # allowed only for in-place ops; put them one element apart to overlap partially.
        o = [x for x in md.graph[0].op if x.type in ("MatMul", "Softmax")]
        a = o[0].output_desc[0].attr["_oc_mem_offset"].i
        o[1].output_desc[0].attr["_oc_mem_offset"].i = a + 4
    model_edit("mem_overlap", "two live activations overlapping by all but 4 bytes", overlap)

    def gear(values):
        def f(md):
            g = md.graph[1].attr["_oc_gear"].list
            del g.i[:]
            g.i.extend(values)
        return f
    model_edit("gear_too_long", "a batch gear of three values", gear([1, 2, 3]), base=dyn)
    model_edit("gear_negative", "a batch gear of -2", gear([-2]), base=dyn)
    model_edit("gear_empty", "a gear graph without a gear", gear([]), base=dyn)
    model_edit("gear_duplicate", "two graphs with the gear 1", gear([1]), base=dyn)
    model_edit("gear_hw_one_value", "an image-size gear of one value", gear([8]), base=dyn_hw)

    def dyn_dims(md):
        data = next(o for o in md.graph[0].op if o.type == "Data")
        d = data.output_desc[0].attr["_oc_dynamic_dims"].list
        del d.i[:]
        d.i.extend([-1])
    model_edit("dynamic_dims_rank", "dynamic dims of rank 1 for a rank-2 input", dyn_dims,
               base=dyn)

    def subgraph_arity(md):
        node = next(o for o in md.graph[0].op if o.type == "If")
        branch = node.attr["then_branch"].g
        neg = next(o for o in branch.op if o.type == "Neg")
        del neg.attr["_oc_inputs"].list.s[:]
        del neg.input[:]
    model_edit("subgraph_arity", "a branch's Neg without inputs", subgraph_arity, base=if_om)

    def subgraph_missing(md):
        node = next(o for o in md.graph[0].op if o.type == "If")
        del node.attr["else_branch"]
    model_edit("subgraph_missing", "If without its else branch", subgraph_missing, base=if_om)

    def subgraph_depth(md):
        node = next(o for o in md.graph[0].op if o.type == "If")
        g = pb.GraphDef()
        g.CopyFrom(node.attr["then_branch"].g)
        for _ in range(150):
            outer = pb.GraphDef()
            o = outer.op.add()
            o.CopyFrom(node)
            o.attr["then_branch"].g.CopyFrom(g)  # the else branch stays a leaf
            g = outer
        node.attr["then_branch"].g.CopyFrom(g)
    model_edit("subgraph_depth_150", "If nested 150 deep", subgraph_depth, base=if_om)

    def attr_wrong_type(md):
        # MatMul has no attributes; Relu neither: give the Data op's index a string.
        data = next(o for o in md.graph[0].op if o.type == "Data")
        data.attr["index"].ClearField("i")
        data.attr["index"].s = b"zero"
    model_edit("attr_wrong_type", "the Data op's index is a string", attr_wrong_type)

    def index_out_of_range(md):
        data = next(o for o in md.graph[0].op if o.type == "Data")
        data.attr["index"].i = 5
    model_edit("input_index_out_of_range", "the only Data op says index 5", index_out_of_range)


# ---------------------------------------------------------------- Caffe → atc --framework=0
def caffe_cases():
    sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
    from caffe_nets import NetWriter, caffe_pb2
    from google.protobuf import text_format
    pb = caffe_pb2(tempfile.mkdtemp())
    rng = np.random.RandomState(3)

    def base(**conv):
        w = NetWriter(pb, "c", [1, 3, 8, 8])
        params = dict(num_output=4, kernel_size=[3], bias_term=False)
        params.update(conv)
        w.layer("conv", "Convolution", ["data"], ["conv"], [rng.randn(4, 3, 3, 3)],
                convolution_param=params)
        w.layer("relu", "ReLU", ["conv"], ["conv"])
        return w

    def pair(name, w, code, why, text=None, weights=None):
        t = text if text is not None else text_format.MessageToString(w.net).encode()
        b = weights if weights is not None else w.weights.SerializeToString()
        proto = write(f"caffe/{name}.prototxt", t)
        model = write(f"caffe/{name}.caffemodel", b)
        case(proto, "atc_caffe", code, why, weight=model)

    good = base()
    good_text = text_format.MessageToString(good.net).encode()
    good_bytes = good.weights.SerializeToString()
    pair("empty_prototxt", good, "E19005", "an empty prototxt", text=b"")
    pair("not_prototxt", good, "E19005", "text that is no prototxt", text=b"layer { name: ")
    pair("binary_prototxt", good, "E19005", "noise as the prototxt", text=rng.bytes(512))
    pair("caffemodel_noise", good, "E19005", "noise as the .caffemodel", weights=rng.bytes(512))
    pair("caffemodel_cut", good, "E19005", "a .caffemodel cut short",
         weights=good_bytes[:len(good_bytes) // 2])
    pair("caffemodel_empty", good, "E19005", "no weights for the convolution", weights=b"")
    pair("deep_nesting", good, "E19005", "a prototxt nested 100000 deep",
         text=b"layer {" * 100000)
    w = base(num_output=5)
    pair("num_output_mismatch", w, "E19005", "num_output 5 over 4 filters", weights=good_bytes)
    w = base(kernel_size=[0])
    pair("kernel_zero", w, "E19005", "a kernel of 0")
    w = base(group=3)
    pair("group_mismatch", w, "E19005", "group 3 for 4 filters")
    w = base(kernel_size=[3, 3, 3])
    pair("conv_3d", w, "E19010", "a 3-D kernel")
    w = base()
    w.layer("odd", "ROIPooling", ["conv"], ["odd"])
    pair("unknown_layer", w, "E19010", "a layer type no parser has")
    w = base()
    w.layer("late", "ReLU", ["later"], ["late"])
    w.layer("later", "ReLU", ["conv"], ["later"])
    pair("reads_later_blob", w, "E19005", "a layer reads a blob a later layer makes")
    w = base()
    w.layer("relu", "ReLU", ["conv"], ["conv2"])
    pair("duplicate_layer_names", w, "E19005", "two layers named relu")
    w = NetWriter(pb, "neg", [1, -3, 8, 8])
    w.layer("relu", "ReLU", ["data"], ["r"])
    pair("negative_input_dim", w, "E19005", "an input dim of -3")
    w = NetWriter(pb, "huge", [1 << 40, 1 << 30, 1, 1])
    w.layer("relu", "ReLU", ["data"], ["r"])
    pair("huge_input", w, "E10001", "an input of 2^70 elements")
    w = base()
    w.layer("s", "Slice", ["conv"], ["a", "b"], slice_param=dict(axis=1, slice_point=[9]))
    pair("slice_point_past_axis", w, "E19005", "a slice point past the channels")
    w = base()
    w.layer("e", "Eltwise", ["conv", "conv"], ["e"], eltwise_param=dict(coeff=[1, 2, 3]))
    pair("eltwise_coeff_count", w, "E19005", "three coefficients for two bottoms")
    w = base()
    w.layer("ip", "InnerProduct", ["conv"], ["ip"], [rng.randn(7)],
            inner_product_param=dict(num_output=3))
    pair("inner_product_size", w, "E19005", "7 weights for 3 outputs")
    w = base()
    w.layer("bn", "BatchNorm", ["conv"], ["conv"], [rng.randn(4), rng.randn(3), [1.0]])
    pair("batchnorm_blobs", w, "E19005", "4 means and 3 variances")
    w = NetWriter(pb, "blob", [1, 3, 8, 8])
    l = w.layer("conv", "Convolution", ["data"], ["conv"], [rng.randn(4, 3, 3, 3)],
                convolution_param=dict(num_output=4, kernel_size=[3], bias_term=False))
    w.weights.layer[0].blobs[0].shape.dim[0] = 1 << 40
    pair("blob_shape_lies", w, "E19005", "a blob whose shape claims 2^40 filters")
    w = base()
    w.layer("l", "LRN", ["conv"], ["l"], lrn_param=dict(norm_region=1))
    pair("lrn_within_channel", w, "E19010", "LRN WITHIN_CHANNEL")
    w = NetWriter(pb, "prior", [1, 1, 1 << 15, 1 << 15])
    w.layer("p", "PriorBox", ["data", "data"], ["p"], prior_box_param=dict(min_size=[2.0]))
    pair("priorbox_too_many", w, "E19005", "a PriorBox of 2^32 box values")
    w = base()
    w.layer("p", "PriorBox", ["conv", "data"], ["p"],
            prior_box_param=dict(min_size=[float("nan")]))
    pair("priorbox_nan_size", w, "E19005", "a PriorBox min_size of NaN")
    w = base()
    w.layer("p", "PriorBox", ["conv", "data"], ["p"],
            prior_box_param=dict(min_size=[2.0], aspect_ratio=[0.0]))
    pair("priorbox_zero_ratio", w, "E19005", "a PriorBox aspect ratio of 0")
    w = base()
    w.layer("p", "PriorBox", ["conv", "data"], ["p"], prior_box_param=dict(min_size=[2.0]))
    w.layer("f", "Flatten", ["conv"], ["f"])
    w.layer("d", "DetectionOutput", ["f", "f", "p"], ["d"],
            detection_output_param=dict(num_classes=2, nms_param=dict(eta=0.0)))
    pair("detection_eta_zero", w, "E19005", "DetectionOutput with eta 0")
    w = base()
    w.layer("p", "PriorBox", ["conv", "data"], ["p"], prior_box_param=dict(min_size=[2.0]))
    w.layer("f", "Flatten", ["conv"], ["f"])
    w.layer("d", "DetectionOutput", ["f", "f", "p"], ["d"],
            detection_output_param=dict(num_classes=7))
    pair("detection_sizes", w, "E19005", "DetectionOutput conf of the wrong size")
    w = base()
    w.layer("u", "Upsample", ["conv"], ["u"], upsample_param=dict(scale=-2))
    pair("upsample_negative", w, "E19005", "an Upsample scale of -2")
    w = base()
    w.layer("i", "Interp", ["conv"], ["i"], interp_param=dict(height=-4, width=3))
    pair("interp_negative", w, "E19005", "an Interp height of -4")


# ---------------------------------------------------------------- TensorFlow → atc --framework=3
def tf_cases():
    tmp = tempfile.mkdtemp()
    subprocess.run(["protoc", f"--proto_path={os.path.join(ROOT, 'src', 'frontend', 'tensorflow')}",
                    f"--python_out={tmp}", "tf_graph.proto"], check=True)
    sys.path.insert(0, tmp)
    pb = importlib.import_module("tf_graph_pb2")

    def graph():
        g = pb.GraphDef()
        x = g.node.add(name="x", op="Placeholder")
        x.attr["dtype"].type = pb.DT_FLOAT
        x.attr["shape"].shape.dim.extend([pb.TensorShapeProto.Dim(size=d) for d in (1, 4)])
        return g

    def const(g, name, arr, dtype=None):
        n = g.node.add(name=name, op="Const")
        t = n.attr["value"].tensor
        t.dtype = dtype or (pb.DT_FLOAT if arr.dtype == np.float32 else pb.DT_INT32)
        t.tensor_shape.dim.extend([pb.TensorShapeProto.Dim(size=d) for d in arr.shape])
        t.tensor_content = arr.tobytes()
        return n

    def tf_case(name, data, code, why):
        case(write(f"tensorflow/{name}.pb", data if isinstance(data, bytes) else
                   data.SerializeToString()), "atc_tf", code, why)

    good = graph()
    good.node.add(name="y", op="Relu", input=["x"])
    good_bytes = good.SerializeToString()
    tf_case("empty_file", b"", "E19005", "zero-length file")
    tf_case("noise", np.random.RandomState(4).bytes(1024), "E19005", "noise")
    tf_case("truncated", good_bytes[:len(good_bytes) // 2], "E19005", "a GraphDef cut in half")
    g = graph()
    g.node.add(name="y", op="FrobnicateV7", input=["x"])
    tf_case("unknown_op", g, "E19010", "an op no parser has")
    g = graph()
    g.node.add(name="a", op="Relu", input=["b"])
    g.node.add(name="b", op="Relu", input=["a"])
    tf_case("cycle", g, "E19005", "a -> b -> a")
    g = graph()
    g.node.add(name="y", op="Relu", input=["ghost"])
    tf_case("dangling_input", g, "E19005", "an input no node makes")
    g = graph()
    g.node.add(name="x", op="Relu", input=[])
    tf_case("duplicate_names", g, "E19005", "two nodes named x")
    g = graph()
    n = const(g, "c", np.ones(4, np.float32))
    n.attr["value"].tensor.tensor_content = b"\0" * 5
    g.node.add(name="y", op="AddV2", input=["x", "c"])
    tf_case("const_content_size", g, "E19005", "5 bytes for 4 floats")
    g = graph()
    n = const(g, "c", np.ones(4, np.float32))
    n.attr["value"].tensor.tensor_shape.dim[0].size = 1 << 40
    n.attr["value"].tensor.ClearField("tensor_content")
    g.node.add(name="y", op="AddV2", input=["x", "c"])
    tf_case("const_huge_shape", g, "E19005", "a constant of 2^40 elements without data")
    g = graph()
    g.node[0].attr["shape"].shape.dim[1].size = -5
    g.node.add(name="y", op="Relu", input=["x"])
    tf_case("placeholder_dim", g, "E19005", "a placeholder dim of -5")
    g = graph()
    g.node[0].attr["dtype"].type = pb.DT_STRING
    g.node.add(name="y", op="Relu", input=["x"])
    tf_case("placeholder_string", g, "E19010", "a string placeholder")
    g = graph()
    const(g, "b", np.array([0, 0], np.int32))
    const(g, "e", np.array([1, 2], np.int32))
    const(g, "s", np.array([1, 0], np.int32))
    g.node.add(name="y", op="StridedSlice", input=["x", "b", "e", "s"])
    tf_case("strided_slice_stride_0", g, "E19005", "a stride of 0")
    g = graph()
    g.node.add(name="y", op="ConcatV2", input=["x", "x", "x"])
    tf_case("concat_axis_not_const", g, "E19010", "a ConcatV2 axis that is not a constant")
    g = graph()
    const(g, "w", np.ones((3, 3, 4, 2), np.float32))
    n = g.node.add(name="y", op="Conv2D", input=["x", "w"])
    n.attr["strides"].list.i.extend([1, 1, 1])
    n.attr["padding"].s = b"SAME"
    tf_case("conv_strides_length", g, "E19005", "three strides for a 4-D conv")
    g = graph()
    n = g.node.add(name="y", op="FusedBatchNormV3", input=["x", "x", "x", "x", "x"])
    tf_case("batchnorm_not_const", g, "E19010", "statistics that are not constants")
    g = graph()
    tf_case("no_compute", g, "E19005", "a graph of one placeholder")


# ---------------------------------------------------------------- AIR → atc --framework=1
def air_cases(pb):
    def model():
        m = pb.ModelDef(name="air")
        g = m.graph.add(name="main")
        d = g.op.add(name="x", type="Data")
        d.attr["index"].i = 0
        desc = d.output_desc.add(dtype=1, layout="NCHW")
        desc.shape.dim.extend([1, 3, 4, 4])
        return m, g

    def const_float(g, name, dims, data):
        c = g.op.add(name=name, type="Const")
        c.attr["value"].t.desc.dtype = 1  # DT_FLOAT
        c.attr["value"].t.desc.shape.dim.extend(dims)
        c.attr["value"].t.data = data
        return c

    def air_case(name, data, code, why):
        case(write(f"air/{name}.air", data if isinstance(data, bytes) else
                   data.SerializeToString()), "atc_air", code, why)

    m, g = model()
    g.op.add(name="r", type="Relu", input=["x:0"])
    g.op.add(name="out", type="NetOutput", input=["r:0"])
    good = m.SerializeToString()
    air_case("empty_file", b"", "E19005", "zero-length file")
    air_case("noise", np.random.RandomState(8).bytes(700), "E19005", "noise")
    air_case("truncated", good[:len(good) // 2], "E19005", "a ModelDef cut in half")
    m, g = model()
    g.op.add(name="r", type="FrobnicateGE", input=["x:0"])
    g.op.add(name="out", type="NetOutput", input=["r:0"])
    air_case("unknown_op", m, "E19010", "a GE operator no parser has")
    m, g = model()
    g.op.add(name="r", type="Relu", input=["ghost:0"])
    g.op.add(name="out", type="NetOutput", input=["r:0"])
    air_case("dangling_edge", m, "E19005", "an edge from an op that does not exist")
    m, g = model()
    g.op.add(name="r", type="Relu", input=["x:0"])
    air_case("no_netoutput", m, "E19005", "no NetOutput")
    m, g = model()
    const_float(g, "w", [2, 3, 1, 1], b"\0" * 7)
    g.op.add(name="conv", type="Conv2D", input=["x:0", "w:0"])
    g.op.add(name="out", type="NetOutput", input=["conv:0"])
    air_case("const_size", m, "E19005", "7 bytes for 6 floats")
    m, g = model()
    const_float(g, "w", [2, 3, 1, 1], b"\0" * 24)
    conv = g.op.add(name="conv", type="Conv2D", input=["x:0", "w:0"])
    conv.attr["pads"].list.i.extend([0, 0, 0, 0])
    g.op.add(name="out", type="NetOutput", input=["conv:0"])
    air_case("conv_no_strides", m, "E19005", "Conv2D without its required strides")
    m, g = model()
    const_float(g, "w", [1, 5, 3, 3], b"\0" * 180)
    dw = g.op.add(name="dw", type="DepthwiseConv2D", input=["x:0", "w:0"])
    dw.attr["strides"].list.i.extend([1, 1, 0, 1])
    dw.attr["pads"].list.i.extend([0, 0, 0, 0])
    dw.attr["data_format"].s = b"NCHW"
    g.op.add(name="out", type="NetOutput", input=["dw:0"])
    air_case("depthwise_zero_stride", m, "E19005", "DepthwiseConv2D with a stride of 0")
    m, g = model()
    p = g.op.add(name="p", type="PadD", input=["x:0"])
    for row in ([0, 0], [0, 0], [1, -1], [0, 0]):
        p.attr["paddings"].list_list_int.list_list_i.add(list_i=row)
    g.op.add(name="out", type="NetOutput", input=["p:0"])
    air_case("pad_negative", m, "E19005", "PadD with a negative padding")
    m, g = model()
    g.op.add(name="ln", type="LayerNorm", input=["x:0", "x:0", "x:0"]).attr[
        "begin_norm_axis"].i = 9
    g.op.add(name="out", type="NetOutput", input=["ln:0"])
    air_case("layernorm_axis", m, "E19005", "LayerNorm begin_norm_axis 9 on rank 4")
    m, g = model()
    m.graph.add(name="second")
    air_case("two_graphs", m, "E19005", "two graphs")
    m, g = model()
    g.op[0].output_desc[0].shape.dim[1] = -9
    g.op.add(name="out", type="NetOutput", input=["x:0"])
    air_case("data_dim", m, "E19005", "a Data dim of -9")


# ---------------------------------------------------------------- atc flags
def flag_cases():
    flags = {
        "unknown_flag": (["--frobnicate=1"], "E10001"),
        "no_model": (["--framework=5", "--output=o", "--soc_version=Ascend910B3"], "E10004"),
        "framework_9": (["--model=m.onnx", "--framework=9", "--output=o",
                         "--soc_version=Ascend910B3"], "E10007"),
        "framework_word": (["--model=m.onnx", "--framework=onnx", "--output=o",
                            "--soc_version=Ascend910B3"], "E10007"),
        "soc_unknown": (["--model=m.onnx", "--framework=5", "--output=o",
                         "--soc_version=Ascend9999"], "E10001"),
        "mode_7": (["--mode=7", "--model=m.onnx"], "E10001"),
        "input_shape_garbage": (["--model=m.onnx", "--framework=5", "--output=o",
                                 "--soc_version=Ascend910B3", "--input_shape=x:a,b"], "E10002"),
        "input_shape_no_colon": (["--model=m.onnx", "--framework=5", "--output=o",
                                  "--soc_version=Ascend910B3", "--input_shape=x"], "E10002"),
        "input_shape_overflow": (["--model=m.onnx", "--framework=5", "--output=o",
                                  "--soc_version=Ascend910B3",
                                  "--input_shape=x:99999999999999999999999,4"], "E10002"),
        "dynamic_batch_empty": (["--model=m.onnx", "--framework=5", "--output=o",
                                 "--soc_version=Ascend910B3", "--input_shape=x:-1,4",
                                 "--dynamic_batch_size="], "E10001"),
        "dynamic_batch_negative": (["--model=m.onnx", "--framework=5", "--output=o",
                                    "--soc_version=Ascend910B3", "--input_shape=x:-1,4",
                                    "--dynamic_batch_size=1,-2"], "E10001"),
        "dynamic_batch_without_shape": (["--model=m.onnx", "--framework=5", "--output=o",
                                         "--soc_version=Ascend910B3",
                                         "--dynamic_batch_size=1,2"], "E10001"),
        "precision_mode_bogus": (["--model=m.onnx", "--framework=5", "--output=o",
                                  "--soc_version=Ascend910B3", "--precision_mode=fp3"],
                                 "E10001"),
        "log_bogus": (["--model=m.onnx", "--framework=5", "--output=o",
                       "--soc_version=Ascend910B3", "--log=loud"], "E10010"),
        "out_nodes_garbage": (["--model=m.onnx", "--framework=5", "--output=o",
                               "--soc_version=Ascend910B3", "--out_nodes=::;;"], "E10001"),
        "mode1_no_om": (["--mode=1", "--json=a.json"], "E10004"),
        "mode1_no_json": (["--mode=1", "--om=a.om"], "E10004"),
        "input_format_bogus": (["--model=m.onnx", "--framework=5", "--output=o",
                                "--soc_version=Ascend910B3", "--input_format=NCWH"], "E10001"),
        "nul_in_value": (["--model=m.onnx", "--framework=5", "--output=o\x01",
                          "--soc_version=Ascend910B3", "--log=\x7f"], "E10010"),
        "insert_op_conf_missing": (["--model=m.onnx", "--framework=5", "--output=o",
                                    "--soc_version=Ascend910B3",
                                    "--insert_op_conf=no_such.cfg"], "E10001"),
    }
    for name, (args, code) in flags.items():
        rel = write(f"atc_flags/{name}.args", "\n".join(args).encode() + b"\n")
        case(rel, "atc_flags", code, " ".join(args)[:80])


# ---------------------------------------------------------------- op.json → msopgen
def op_json_cases():
    good = {"op": "AddCustom", "language": "cpp",
            "input_desc": [{"name": "x", "param_type": "required", "format": ["ND"],
                            "type": ["float"]}],
            "output_desc": [{"name": "z", "param_type": "required", "format": ["ND"],
                             "type": ["float"]}]}

    def js(name, value, why):
        data = value if isinstance(value, bytes) else json.dumps(value).encode()
        case(write(f"op_json/{name}.json", data), "msopgen", "1", why)

    def with_(**kw):
        d = json.loads(json.dumps(good))
        for k, v in kw.items():
            if v is None:
                d.pop(k, None)
            else:
                d[k] = v
        return [d]

    js("empty_file", b"", "zero-length file")
    js("not_json", b"{op: AddCustom", "not JSON")
    js("truncated", json.dumps([good]).encode()[:40], "JSON cut short")
    js("top_level_number", 5, "a number, not a list of ops")
    js("empty_list", [], "no ops")
    js("no_op_name", with_(op=None), "an op without a name")
    js("op_name_path", with_(op="../../evil"), "an op name that walks out of the project")
    js("op_name_empty", with_(op=""), "an empty op name")
    js("op_name_digit", with_(op="1Add"), "an op name that is no C++ identifier")
    js("input_desc_not_list", with_(input_desc="x"), "input_desc a string")
    js("no_outputs", with_(input_desc=[], output_desc=[]), "an op without inputs or outputs")
    js("bad_type", with_(input_desc=[{"name": "x", "param_type": "required",
                                      "format": ["ND"], "type": ["float99"]}]),
       "a dtype nobody has")
    js("bad_param_type", with_(input_desc=[{"name": "x", "param_type": "sometimes",
                                            "format": ["ND"], "type": ["float"]}]),
       "param_type 'sometimes'")
    js("duplicate_names", with_(input_desc=[{"name": "x", "param_type": "required",
                                             "format": ["ND"], "type": ["float"]}] * 2),
       "two inputs both named x (an output may share an input's name: in place)")
    js("type_format_count", with_(input_desc=[{"name": "x", "param_type": "required",
                                               "format": ["ND", "NCHW"], "type": ["float"]}]),
       "two formats for one type")
    js("deep_nesting", b"[" * 100000 + b"]" * 100000, "JSON nested 100000 deep")
    js("attr_bad_type", with_(attr=[{"name": "a", "param_type": "optional", "type": "matrix",
                                     "default_value": "1"}]), "an attribute of type 'matrix'")
    js("attr_bad_default", with_(attr=[{"name": "a", "param_type": "optional", "type": "int",
                                        "default_value": "one"}]), "int default 'one'")
    js("duplicate_ops", [good, good], "the same op twice")
    js("invalid_utf8", b'[{"op": "Add\xff\xfe"}]', "invalid UTF-8 in a name")


# ---------------------------------------------------------------- Python sources → gpu2npu
def gpu2npu_cases():
    # gpu2npu reads a project: unreadable files are skipped with a warning; a path with
    # nothing it can read is an error (exit 2), and never a verdict over no code.
    def src(name, data, code, why):
        case(write(f"gpu2npu/{name}", data), "gpu2npu", code, why)

    src("binary.py", b"\x00\xff\xfe\x00def (" * 50, "2", "a binary file named .py")
    src("empty.py", b"", "0", "an empty source file: no findings")
    src("unterminated_string.py", b"import torch\nx = '''never closed\n" + b"a" * 5000,
        "2", "a string that never ends: skipped, so nothing to analyse")
    src("deep_parens.py", b"import torch\nx = " + b"(" * 50000 + b")" * 50000 + b"\n", "0",
        "brackets nested 50000 deep")
    src("invalid_utf8.py", b"import torch\nx = torch.ones(2).cuda()  # \xff\xfe\n", "1",
        "invalid UTF-8 in a comment, a CUDA call to find")
    src("nul_bytes.py", b"import torch\x00\x00\nprint(1)\n", "2", "NUL bytes in source")
    src("long_line.py", b"import torch\nx = " + b"1 + " * 50000 + b"1\n", "0",
        "one 200 KB line")
    src("fstring_nesting.py", b"x = f'{f\"{f'{1}'}\"}'\n" * 100, "0", "nested f-strings")
    src("bad.ipynb", b'{"cells": 5}', "2", "a notebook whose cells is a number")
    src("not_json.ipynb", b"{\"cells\": [", "2", "a notebook cut short")
    src("cell_source_number.ipynb", json.dumps(
        {"cells": [{"cell_type": "code", "source": 7}], "nbformat": 4}).encode(), "2",
        "a cell whose source is a number")
    src("deep.ipynb", b"[" * 100000 + b"]" * 100000, "2", "JSON nested 100000 deep")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    a = ap.parse_args()
    for sub in ("onnx", "om", "caffe", "tensorflow", "air", "atc_flags", "op_json", "gpu2npu"):
        shutil.rmtree(os.path.join(HERE, sub), ignore_errors=True)
    tmp = tempfile.mkdtemp()
    try:
        pb = load_ge_proto(tmp)
        onnx_cases()
        om_cases(os.path.join(a.build, "bin", "atc"), pb)
        air_cases(pb)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    caffe_cases()
    tf_cases()
    flag_cases()
    op_json_cases()
    gpu2npu_cases()
    with open(os.path.join(HERE, "cases.json"), "w") as fh:
        json.dump(CASES, fh, indent=1)
        fh.write("\n")
    files = len({c["file"] for c in CASES})
    print(f"{files} files, {len(CASES)} cases")


if __name__ == "__main__":
    main()
