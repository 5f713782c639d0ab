"""Real exports: nodes stored out of order convert (ONNX Runtime runs them), a true cycle is
refused naming its nodes, and shape chains over unknown dims stay unknown instead of 0."""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from acl_helpers import OmModel
from conftest import atc, run, tool


def const(name, value, dtype=np.int64):
    return helper.make_node("Constant", [], [name],
                            value=numpy_helper.from_array(np.array(value, dtype)))


def save(tmp_path, name, nodes, inputs, outputs):
    g = helper.make_graph(nodes, "g", inputs, outputs)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    path = str(tmp_path / f"{name}.onnx")
    onnx.save(m, path)
    return path


def convert(tmp_path, path, name, *flags):
    return atc(f"--model={path}", "--framework=5", f"--output={tmp_path / name}",
               "--soc_version=Ascend910B3", *flags)


def window_model():
    """A swin-like padding computed with Mod on constants, a Reshape whose target has a 0
    ("copy this dim") built by Concat of casts, and a Flatten at the end."""
    nodes = [
        const("w", 7), const("side", 10), helper.make_node("Mod", ["side", "w"], ["r"]),
        helper.make_node("Sub", ["w", "r"], ["p0"]), helper.make_node("Mod", ["p0", "w"], ["p"]),
        const("zero1", [0]), const("ax", [0]), helper.make_node("Unsqueeze", ["p", "ax"], ["pu"]),
        helper.make_node("Concat", ["zero1", "zero1", "zero1", "zero1", "zero1", "zero1", "zero1",
                                    "pu"], ["pads"], axis=0),
        helper.make_node("Pad", ["x", "pads"], ["xp"]),
        const("zf", [0.0], np.float32), helper.make_node("Cast", ["zf"], ["z"], to=7),
        const("m1", [-1]), helper.make_node("Concat", ["z", "m1"], ["shape"], axis=0),
        helper.make_node("Reshape", ["xp", "shape"], ["rs"]),
        helper.make_node("Flatten", ["rs"], ["y"], axis=1),
    ]
    return nodes


def test_unsorted_nodes_convert_and_compute_the_same(acl_session, tmp_path):
    x = np.random.RandomState(0).randn(2, 3, 4, 10).astype(np.float32)
    io = ([helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4, 10])],
          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    nodes = window_model()
    sorted_path = save(tmp_path, "sorted", nodes, *io)
    shuffled = [nodes[i] for i in np.random.RandomState(1).permutation(len(nodes))]
    unsorted_path = save(tmp_path, "unsorted", shuffled, *io)
    for name, path in (("sorted", sorted_path), ("unsorted", unsorted_path)):
        r = convert(tmp_path, path, name, "--log=info")
        assert r.returncode == 0, r.stdout
        assert "0 of" in r.stdout + r.stderr and "prepared at run time" in r.stdout + r.stderr
    # Padding 10 up to a multiple of 7 gives 14; Reshape [0, -1] keeps the batch.
    want = np.pad(x, [(0, 0)] * 3 + [(0, 4)]).reshape(2, -1)
    for name in ("sorted", "unsorted"):
        m = OmModel(str(tmp_path / f"{name}.om"))
        got = m.run([x])[0]
        m.close()
        np.testing.assert_array_equal(got, want)


def test_dynamic_batch_keeps_unknown_dims_unknown(acl_session, tmp_path):
    io = ([helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3, 4, 10])],
          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    path = save(tmp_path, "dyn", window_model(), *io)
    r = convert(tmp_path, path, "dyn", "--input_shape=x:-1,3,4,10")
    assert r.returncode == 0, r.stdout
    from acl_infer import InferSession
    with InferSession(0, str(tmp_path / "dyn.om")) as s:
        for n in (1, 3):
            x = np.random.RandomState(n).randn(n, 3, 4, 10).astype(np.float32)
            got = s.infer([x])[0]
            np.testing.assert_array_equal(got, np.pad(x, [(0, 0)] * 3 + [(0, 4)]).reshape(n, -1))


def test_a_cycle_is_refused_naming_its_nodes(tmp_path):
    nodes = [helper.make_node("Relu", ["b"], ["a"], name="first"),
             helper.make_node("Add", ["a", "x"], ["b"], name="second"),
             helper.make_node("Identity", ["a"], ["y"], name="out")]
    path = save(tmp_path, "cycle", nodes,
                [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
                [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    r = convert(tmp_path, path, "cycle")
    assert r.returncode == 1 and "cycle" in r.stdout, r.stdout
    assert "first (Relu)" in r.stdout and "second (Add)" in r.stdout, r.stdout
    assert "E19999" not in r.stdout


def test_dynamic_quantization_path_is_exact(acl_session, tmp_path):
    """DynamicQuantizeLinear + MatMulInteger + ConvInteger on integer outputs equal a numpy
    implementation of the ONNX formulas bit for bit (ties round to even, as ONNX Runtime)."""
    rs = np.random.RandomState(3)
    w_mm = rs.randint(-128, 128, (16, 8)).astype(np.int8)
    w_cv = rs.randint(0, 256, (4, 2, 3, 3)).astype(np.uint8)
    nodes = [helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"]),
             helper.make_node("MatMulInteger", ["xq", "wm", "xz", "wmz"], ["mm"]),
             helper.make_node("DynamicQuantizeLinear", ["img"], ["iq", "is", "iz"]),
             helper.make_node("ConvInteger", ["iq", "wc", "iz", "wcz"], ["cv"], pads=[1, 1, 1, 1])]
    inits = [numpy_helper.from_array(w_mm, "wm"), numpy_helper.from_array(np.array(5, np.int8), "wmz"),
             numpy_helper.from_array(w_cv, "wc"), numpy_helper.from_array(np.array(7, np.uint8), "wcz")]
    g = helper.make_graph(nodes, "q", [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 16]),
        helper.make_tensor_value_info("img", TensorProto.FLOAT, [1, 2, 6, 6])], [
        helper.make_tensor_value_info("mm", TensorProto.INT32, [4, 8]),
        helper.make_tensor_value_info("cv", TensorProto.INT32, [1, 4, 6, 6]),
        helper.make_tensor_value_info("xq", TensorProto.UINT8, [4, 16])], inits)
    path = str(tmp_path / "q.onnx")
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)
    r = convert(tmp_path, path, "q")
    assert r.returncode == 0, r.stdout
    x = (rs.randn(4, 16) * 3).astype(np.float32)
    x[0, :5] = [-2.55, 0.5, 1.5, 2.5, 2.55]  # scale 0.02: exact ties at 0.01 steps
    img = (rs.randn(1, 2, 6, 6) * 2).astype(np.float32)

    def dql(v):
        lo, hi = min(0.0, float(v.min())), max(0.0, float(v.max()))
        scale = np.float32((hi - lo) / 255.0)
        zp = np.clip(np.rint(np.float32(0) - np.float32(lo) / scale), 0, 255)
        return np.clip(np.rint(v / scale) + zp, 0, 255).astype(np.int64), int(zp)

    xq, xz = dql(x)
    want_mm = (xq - xz) @ (w_mm.astype(np.int64) - 5)
    iq, iz = dql(img)
    p = np.pad(iq - iz, [(0, 0), (0, 0), (1, 1), (1, 1)])
    wc = w_cv.astype(np.int64) - 7
    want_cv = np.zeros((1, 4, 6, 6), np.int64)
    for i in range(6):
        for j in range(6):
            want_cv[0, :, i, j] = np.tensordot(wc, p[0, :, i:i + 3, j:j + 3], axes=([1, 2, 3], [0, 1, 2]))
    m = OmModel(str(tmp_path / "q.om"))
    mm, cv, got_xq = m.run([x, img])
    m.close()
    np.testing.assert_array_equal(got_xq, xq)
    np.testing.assert_array_equal(mm, want_mm)
    np.testing.assert_array_equal(cv, want_cv)


def test_qlinear_requantisation_rounds_as_onnx_runtime(acl_session, tmp_path):
    """QLinearConv and QLinearMatMul requantise as ONNX Runtime does (float32 multiplier
    x_scale * w_scale / y_scale, float32 product, round half to even, then the zero point):
    equal to that numpy formula on every element (checked against ONNX Runtime 1.30 too)."""
    rs = np.random.RandomState(4)
    w = rs.randint(-100, 100, (4, 3, 3, 3)).astype(np.int8)
    wm = rs.randint(0, 255, (12, 5)).astype(np.uint8)
    bias = rs.randint(-500, 500, 4).astype(np.int32)
    f = lambda v: np.array(v, np.float32)  # noqa: E731
    inits = [numpy_helper.from_array(a, n) for a, n in [
        (f(0.05), "xs"), (np.array(128, np.uint8), "xz"), (w, "w"), (f(0.01), "ws"),
        (np.array(0, np.int8), "wz"), (f(0.07), "ys"), (np.array(100, np.uint8), "yz"),
        (bias, "b"), (wm, "wm"), (f(0.02), "wms"), (np.array(120, np.uint8), "wmz"),
        (f(0.3), "ms"), (np.array(7, np.uint8), "mz")]]
    nodes = [helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
             helper.make_node("QLinearConv", ["xq", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"],
                              ["yq"], pads=[1, 1, 1, 1]),
             helper.make_node("QuantizeLinear", ["m", "xs", "xz"], ["mq"]),
             helper.make_node("QLinearMatMul", ["mq", "xs", "xz", "wm", "wms", "wmz", "ms", "mz"],
                              ["mmq"])]
    g = helper.make_graph(nodes, "ql", [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8]),
        helper.make_tensor_value_info("m", TensorProto.FLOAT, [3, 12])], [
        helper.make_tensor_value_info("yq", TensorProto.UINT8, [1, 4, 8, 8]),
        helper.make_tensor_value_info("mmq", TensorProto.UINT8, [3, 5])], inits)
    path = str(tmp_path / "ql.onnx")
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), path)
    assert convert(tmp_path, path, "ql").returncode == 0
    x = (rs.randn(1, 3, 8, 8) * 3).astype(np.float32)
    m = (rs.randn(3, 12) * 3).astype(np.float32)
    om = OmModel(str(tmp_path / "ql.om"))
    yq, mmq = om.run([x, m])
    om.close()

    def quant(v):
        return np.clip(np.rint(v / f(0.05)) + 128, 0, 255).astype(np.int64)

    def requant(acc, mult, zp):
        return np.clip(np.rint(acc.astype(np.float32) * mult) + zp, 0, 255)

    p = np.pad(quant(x) - 128, [(0, 0), (0, 0), (1, 1), (1, 1)])
    acc = np.zeros((1, 4, 8, 8), np.int64)
    for i in range(8):
        for j in range(8):
            acc[0, :, i, j] = np.tensordot(w.astype(np.int64), p[0, :, i:i + 3, j:j + 3],
                                           axes=([1, 2, 3], [0, 1, 2]))
    acc += bias[None, :, None, None]
    np.testing.assert_array_equal(yq, requant(acc, (f(0.05) * f(0.01)) / f(0.07), 100))
    acc_m = (quant(m) - 128) @ (wm.astype(np.int64) - 120)
    np.testing.assert_array_equal(mmq, requant(acc_m, (f(0.05) * f(0.02)) / f(0.3), 7))


def roi_align_model(tmp_path, name, opset, **attrs):
    node = helper.make_node("RoiAlign", ["x", "rois", "idx"], ["y"], output_height=3,
                            output_width=3, sampling_ratio=2, spatial_scale=0.5, **attrs)
    g = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 8, 8]),
         helper.make_tensor_value_info("rois", TensorProto.FLOAT, [3, 4]),
         helper.make_tensor_value_info("idx", TensorProto.INT64, [3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 2, 3, 3])])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    path = str(tmp_path / f"{name}.onnx")
    onnx.save(m, path)
    return path


def test_roi_align_follows_its_opset(acl_session, tmp_path):
    """RoiAlign-10 has no half-pixel shift (torchvision's aligned=False); from opset 16 the
    default coordinate_transformation_mode is half_pixel (aligned=True). torch 1.13 exports
    aligned=False without the attribute, so its opset-16+ files mean aligned=True."""
    import torch
    from torchvision.ops import roi_align
    rng = np.random.RandomState(3)
    x = rng.randn(1, 2, 8, 8).astype(np.float32)
    rois = np.array([[1.0, 2.2, 9.7, 13.1], [0.0, 0.0, 15.0, 15.0], [4.4, 3.3, 6.6, 12.0]],
                    np.float32)
    idx = np.zeros(3, np.int64)

    def torch_ref(aligned):
        boxes = torch.cat([torch.zeros(3, 1), torch.from_numpy(rois)], 1)
        return roi_align(torch.from_numpy(x), boxes, (3, 3), spatial_scale=0.5,
                         sampling_ratio=2, aligned=aligned).numpy()

    cases = [("o13", 13, {}, False), ("o15", 15, {}, False), ("o16", 16, {}, True),
             ("o16_out", 16, {"coordinate_transformation_mode": "output_half_pixel"}, False),
             ("o17_half", 17, {"coordinate_transformation_mode": "half_pixel"}, True)]
    for name, opset, attrs, aligned in cases:
        path = roi_align_model(tmp_path, name, opset, **attrs)
        r = convert(tmp_path, path, name)
        assert r.returncode == 0, r.stdout + r.stderr
        got = OmModel(str(tmp_path / f"{name}.om")).run([x, rois, idx])[0]
        np.testing.assert_allclose(got, torch_ref(aligned), rtol=1e-5, atol=1e-5, err_msg=name)
    # A mode RoiAlign does not have is refused at atc, naming the node.
    path = roi_align_model(tmp_path, "bad", 17, mode="median")
    r = convert(tmp_path, path, "bad")
    assert r.returncode != 0
    assert "mode must be avg or max" in r.stdout + r.stderr
    assert not (tmp_path / "bad.om").exists()


def test_batch_symbol_keeps_window_shapes_known(acl_session, tmp_path):
    """Shape(x)[1] of an x whose batch is dynamic is a constant: a window partition's
    padding and reshapes are known but for the batch, and --log=info says which steps wait
    for the batch. The model still computes what numpy does for two batch sizes."""
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]), const("i1", [1]), const("i0", [0]),
        const("e1", [1]),
        helper.make_node("Gather", ["s", "i1"], ["h"]), const("w", [4]),
        helper.make_node("Mod", ["h", "w"], ["r"]), helper.make_node("Sub", ["w", "r"], ["p0"]),
        helper.make_node("Mod", ["p0", "w"], ["p"]), const("z1", [0]),
        helper.make_node("Concat", ["z1", "z1", "z1", "z1", "p", "z1"], ["pads"], axis=0),
        helper.make_node("Pad", ["x", "pads"], ["xp"]),
        helper.make_node("Shape", ["xp"], ["sp"]),
        helper.make_node("Slice", ["sp", "i0", "e1"], ["n"]), const("rest", [-1, 4, 3]),
        helper.make_node("Concat", ["n", "rest"], ["target"], axis=0),
        helper.make_node("Reshape", ["xp", "target"], ["win"]),
        helper.make_node("ReduceMean", ["win"], ["y"], axes=[2], keepdims=0),
    ]
    io = ([helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 10, 3])],
          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
    path = save(tmp_path, "win", nodes, *io)
    r = convert(tmp_path, path, "win", "--input_shape=x:-1,10,3")
    assert r.returncode == 0, r.stdout + r.stderr
    # The padding folded and the window reshape is known but for the batch: the model's
    # output is described as [-1, 3, 3] (12 rows padded from 10, windows of 4, 3 channels).
    desc = acl_session.mdl.create_desc()
    model_id, ret = acl_session.mdl.load_from_file(str(tmp_path / "win.om"))
    assert ret == 0
    assert acl_session.mdl.get_desc(desc, model_id) == 0
    dims, ret = acl_session.mdl.get_output_dims(desc, 0)
    assert ret == 0
    assert list(dims["dims"]) == [-1, 3, 3]
    acl_session.mdl.unload(model_id)
    acl_session.mdl.destroy_desc(desc)
    from acl_infer import InferSession
    with InferSession(0, str(tmp_path / "win.om")) as s:
        for n in (1, 3):
            x = np.random.RandomState(n).randn(n, 10, 3).astype(np.float32)
            xp = np.pad(x, ((0, 0), (0, 2), (0, 0)))
            want = xp.reshape(n, -1, 4, 3).mean(axis=2)
            np.testing.assert_allclose(s.infer([x])[0], want, rtol=1e-5, atol=1e-6)


def untyped(name):
    """A value_info with a name and no type: what ONNX allows for subgraph outputs."""
    vi = onnx.ValueInfoProto()
    vi.name = name
    return vi


def test_nested_if_branches_with_untyped_outputs(acl_session, tmp_path):
    """A voice-activity model's shape: If inside If, branch outputs declared without types.
    The types come from what the branches compute; both paths match numpy."""
    one = numpy_helper.from_array(np.ones(3, np.float32), "one")
    two = numpy_helper.from_array(np.full(3, 2, np.float32), "two")
    inner_then = helper.make_graph([helper.make_node("Add", ["x", "one"], ["a"])], "it", [],
                                   [untyped("a")])
    inner_else = helper.make_graph([helper.make_node("Sub", ["x", "one"], ["b"])], "ie", [],
                                   [untyped("b")])
    outer_then = helper.make_graph(
        [helper.make_node("If", ["c2"], ["t"], then_branch=inner_then, else_branch=inner_else)],
        "ot", [], [untyped("t")])
    outer_else = helper.make_graph([helper.make_node("Mul", ["x", "two"], ["e"])], "oe", [],
                                   [untyped("e")])
    g = helper.make_graph(
        [helper.make_node("If", ["c1"], ["y"], then_branch=outer_then, else_branch=outer_else)],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3]),
         helper.make_tensor_value_info("c1", TensorProto.BOOL, []),
         helper.make_tensor_value_info("c2", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])], [one, two])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    path = str(tmp_path / "vad.onnx")
    onnx.save(m, path)
    r = convert(tmp_path, path, "vad")
    assert r.returncode == 0, r.stdout
    x = np.array([1.5, -2.0, 4.0], np.float32)
    x.tofile(tmp_path / "x.bin")
    for k, (c1, c2, want) in enumerate(((True, True, x + 1), (True, False, x - 1),
                                        (False, True, 2 * x))):
        np.array(c1).tofile(tmp_path / "c1.bin")
        np.array(c2).tofile(tmp_path / "c2.bin")
        inputs = ",".join(str(tmp_path / f) for f in ("x.bin", "c1.bin", "c2.bin"))
        out = tmp_path / f"o{k}"
        # The If's result is sized when it runs: msame is told its size.
        r = run([tool("msame"), f"--model={tmp_path / 'vad.om'}", f"--input={inputs}",
                 f"--output={out}", "--outfmt=BIN", "--outputSize=12"])
        assert r.returncode == 0, r.stdout + r.stderr
        y = list(out.rglob("*.bin"))
        np.testing.assert_array_equal(np.fromfile(y[0], np.float32), want)
