"""Dynamic shapes end to end, as CANN's dynamic-batch samples use them: atc gear options,
the ascend_mbatch_shape_data input, aclmdlSetDynamic*, and fully dynamic models sized by
the dataset's tensor descriptions. PyTorch is the reference."""
import os

import numpy as np
import pytest
import torch

from acl_helpers import check
from conftest import atc, run, tool

ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_MODEL_NOT_DYNAMIC = 100019
ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID = 145013
ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID = 145012
DYNAMIC_NAME = "ascend_mbatch_shape_data"


class Net(torch.nn.Module):
    """Conv + global pool + linear: valid for any batch, height and width."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.fc = torch.nn.Linear(8, 5)

    def forward(self, x):
        y = torch.relu(self.conv(x))
        return self.fc(torch.flatten(torch.nn.functional.adaptive_avg_pool2d(y, 1), 1))


@pytest.fixture(scope="module")
def net(tmp_path_factory):
    torch.manual_seed(0)
    m = Net().eval()
    path = str(tmp_path_factory.mktemp("dyn") / "net.onnx")
    torch.onnx.export(m, torch.randn(1, 3, 16, 16), path, input_names=["x"], output_names=["y"],
                      dynamic_axes={"x": {0: "n", 2: "h", 3: "w"}, "y": {0: "n"}},
                      opset_version=13)
    return m, path


def convert(src, out, *flags):
    r = atc(f"--model={src}", "--framework=5", f"--output={out}", "--soc_version=Ascend910B3",
            *flags)
    assert r.returncode == 0, r.stdout + r.stderr
    return out + ".om"


def reference(m, x):
    with torch.no_grad():
        return m(torch.from_numpy(x)).numpy()


class Session:
    """One loaded model with device buffers of the sizes the description gives."""

    def __init__(self, acl, path):
        self.acl = acl
        self.id, ret = acl.mdl.load_from_file(path)
        check(ret, "load")
        self.desc = acl.mdl.create_desc()
        check(acl.mdl.get_desc(self.desc, self.id), "get_desc")
        self.inputs, self.outputs = [], []
        self.in_ds, self.out_ds = acl.mdl.create_dataset(), acl.mdl.create_dataset()
        for i in range(acl.mdl.get_num_inputs(self.desc)):
            self.inputs.append(self._add(self.in_ds,
                                         acl.mdl.get_input_size_by_index(self.desc, i) or 4096))
        for i in range(acl.mdl.get_num_outputs(self.desc)):
            self.outputs.append(self._add(self.out_ds,
                                          acl.mdl.get_output_size_by_index(self.desc, i) or 4096))

    def _add(self, ds, size):
        ptr, ret = self.acl.rt.malloc(size, 0)
        check(ret, "malloc")
        _, ret = self.acl.mdl.add_dataset_buffer(ds, self.acl.create_data_buffer(ptr, size))
        check(ret, "add_dataset_buffer")
        return ptr, size

    def put(self, i, arr):
        arr = np.ascontiguousarray(arr)
        ptr, size = self.inputs[i]
        check(self.acl.rt.memcpy(ptr, size, self.acl.util.numpy_to_ptr(arr), arr.nbytes, 1), "h2d")

    def get(self, i, shape):
        host = np.empty(shape, np.float32)
        ptr, size = self.outputs[i]
        check(self.acl.rt.memcpy(self.acl.util.numpy_to_ptr(host), host.nbytes, ptr, host.nbytes,
                                 2), "d2h")
        return host

    def close(self):
        for ds in (self.in_ds, self.out_ds):
            for i in range(self.acl.mdl.get_dataset_num_buffers(ds)):
                self.acl.destroy_data_buffer(self.acl.mdl.get_dataset_buffer(ds, i))
            self.acl.mdl.destroy_dataset(ds)
        for ptr, _ in self.inputs + self.outputs:
            self.acl.rt.free(ptr)
        self.acl.mdl.destroy_desc(self.desc)
        check(self.acl.mdl.unload(self.id), "unload")


def test_dynamic_batch_gears(acl_session, net, tmp_path):
    acl = acl_session
    m, src = net
    om = convert(src, str(tmp_path / "batch"), "--input_shape=x:-1,3,16,16",
                 "--dynamic_batch_size=1,2,4")
    s = Session(acl, om)
    try:
        idx, ret = acl.mdl.get_input_index_by_name(s.desc, DYNAMIC_NAME)
        assert ret == 0 and idx == 1
        dims, ret = acl.mdl.get_input_dims(s.desc, 0)
        assert dims["dims"] == [-1, 3, 16, 16]
        # Buffers are sized for the largest gear.
        assert acl.mdl.get_input_size_by_index(s.desc, 0) == 4 * 3 * 16 * 16 * 4
        assert acl.mdl.get_output_size_by_index(s.desc, 0) == 4 * 5 * 4
        batch, ret = acl.mdl.get_dynamic_batch(s.desc)
        assert ret == 0 and batch == {"batchCount": 3, "batch": [1, 2, 4]}
        hw, ret = acl.mdl.get_dynamic_hw(s.desc, -1)
        assert ret == 0 and hw["hwCount"] == 0
        # No --dynamic_dims gears: none to give, which is a success (mmdeploy asks every model).
        assert acl.mdl.get_input_dynamic_gear_count(s.desc, -1) == (0, 0)
        gears, ret = acl.mdl.get_input_dynamic_dims(s.desc, -1, 0)
        assert ret == 0 and gears == []
        # Before any gear is set: the largest gear's output shapes.
        cur, ret = acl.mdl.get_cur_output_dims(s.desc, 0)
        assert ret == 0 and cur["dims"] == [4, 5]
        rng = np.random.default_rng(1)
        for b in (4, 1, 2):
            x = rng.standard_normal((b, 3, 16, 16)).astype(np.float32)
            s.put(0, x)
            assert acl.mdl.set_dynamic_batch_size(s.id, s.in_ds, idx, b) == 0
            # The gear just set, before the execution (mmdeploy sizes its outputs so).
            cur, ret = acl.mdl.get_cur_output_dims(s.desc, 0)
            assert ret == 0 and cur["dims"] == [b, 5]
            check(acl.mdl.execute(s.id, s.in_ds, s.out_ds), "execute")
            cur, ret = acl.mdl.get_cur_output_dims(s.desc, 0)
            assert ret == 0 and cur["dims"] == [b, 5]
            np.testing.assert_allclose(s.get(0, (b, 5)), reference(m, x), rtol=1e-4, atol=1e-5)
        # Gears not compiled in, the wrong setter, the wrong index.
        assert acl.mdl.set_dynamic_batch_size(s.id, s.in_ds, idx, 3) == \
            ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID
        assert "not compiled" in acl.get_recent_err_msg()
        assert acl.mdl.set_dynamic_hw_size(s.id, s.in_ds, idx, 16, 16) == \
            ACL_ERROR_MODEL_NOT_DYNAMIC
        assert acl.mdl.set_dynamic_batch_size(s.id, s.in_ds, 0, 2) == ACL_ERROR_INVALID_PARAM
        assert acl.mdl.set_dynamic_batch_size(s.id, 0, idx, 2) == ACL_ERROR_INVALID_PARAM
        assert acl.mdl.set_dynamic_batch_size(9999, s.in_ds, idx, 2) == 100011
        # A gear value written straight into the buffer is checked at execution too.
        s.put(1, np.array([3], np.int64))
        assert acl.mdl.execute(s.id, s.in_ds, s.out_ds) == ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID
    finally:
        s.close()


def test_dynamic_image_size_gears(acl_session, net, tmp_path):
    acl = acl_session
    m, src = net
    om = convert(src, str(tmp_path / "hw"), "--input_shape=x:1,3,-1,-1",
                 "--dynamic_image_size=16,16;24,32")
    s = Session(acl, om)
    try:
        idx, _ = acl.mdl.get_input_index_by_name(s.desc, DYNAMIC_NAME)
        hw, ret = acl.mdl.get_dynamic_hw(s.desc, -1)
        # Lists, as pyACL gives them: callers test `[h, w] in hw["hw"]`.
        assert ret == 0 and hw == {"hwCount": 2, "hw": [[16, 16], [24, 32]]}
        assert [24, 32] in hw["hw"]
        assert acl.mdl.get_input_size_by_index(s.desc, 0) == 3 * 24 * 32 * 4
        for h, w in ((24, 32), (16, 16)):
            x = np.random.default_rng(h).standard_normal((1, 3, h, w)).astype(np.float32)
            s.put(0, x)
            assert acl.mdl.set_dynamic_hw_size(s.id, s.in_ds, idx, h, w) == 0
            cur, ret = acl.mdl.get_cur_output_dims(s.desc, 0)
            assert ret == 0 and cur["dims"] == [1, 5]
            check(acl.mdl.execute(s.id, s.in_ds, s.out_ds), "execute")
            np.testing.assert_allclose(s.get(0, (1, 5)), reference(m, x), rtol=1e-4, atol=1e-5)
        assert acl.mdl.set_dynamic_hw_size(s.id, s.in_ds, idx, 32, 24) == \
            ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID
        assert acl.mdl.set_dynamic_batch_size(s.id, s.in_ds, idx, 1) == ACL_ERROR_MODEL_NOT_DYNAMIC
    finally:
        s.close()


def test_dynamic_dims_gears(acl_session, net, tmp_path):
    acl = acl_session
    m, src = net
    om = convert(src, str(tmp_path / "dims"), "--input_format=ND", "--input_shape=x:-1,3,-1,16",
                 "--dynamic_dims=1,16;2,24")
    s = Session(acl, om)
    try:
        idx, _ = acl.mdl.get_input_index_by_name(s.desc, DYNAMIC_NAME)
        count, ret = acl.mdl.get_input_dynamic_gear_count(s.desc, -1)
        assert ret == 0 and count == 2
        gears, ret = acl.mdl.get_input_dynamic_dims(s.desc, -1, count)
        assert ret == 0
        assert [g["dims"] for g in gears] == [[1, 3, 16, 16], [2, 3, 24, 16]]
        _, ret = acl.mdl.get_input_dynamic_dims(s.desc, -1, 1)
        assert ret == ACL_ERROR_INVALID_PARAM
        for gear in gears:
            shape = tuple(gear["dims"])
            x = np.random.default_rng(shape[0]).standard_normal(shape).astype(np.float32)
            s.put(0, x)
            assert acl.mdl.set_input_dynamic_dims(s.id, s.in_ds, idx, gear) == 0
            check(acl.mdl.execute(s.id, s.in_ds, s.out_ds), "execute")
            np.testing.assert_allclose(s.get(0, (shape[0], 5)), reference(m, x), rtol=1e-4,
                                       atol=1e-5)
        bad = {"name": "", "dimCount": 4, "dims": [3, 3, 16, 16]}
        assert acl.mdl.set_input_dynamic_dims(s.id, s.in_ds, idx, bad) == \
            ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID
    finally:
        s.close()


def test_fully_dynamic_model_uses_tensor_descs(acl_session, net, tmp_path):
    acl = acl_session
    m, src = net
    om = convert(src, str(tmp_path / "full"), "--input_shape=x:1~4,3,-1,-1")
    s = Session(acl, om)
    try:
        dims, ret = acl.mdl.get_input_dims(s.desc, 0)
        assert ret == 0 and dims["dims"] == [-1, 3, -1, -1]
        # No gears: the setters say so.
        assert acl.mdl.set_dynamic_batch_size(s.id, s.in_ds, 0, 1) == ACL_ERROR_MODEL_NOT_DYNAMIC
        # The application sizes the buffers itself (the model cannot know them).
        acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(s.in_ds, 0))
        acl.rt.free(s.inputs[0][0])
        acl.mdl.destroy_dataset(s.in_ds)
        s.in_ds = acl.mdl.create_dataset()
        s.inputs[0] = s._add(s.in_ds, 4 * 3 * 40 * 40 * 4)
        # Without a tensor description the shape is unknown.
        assert acl.mdl.execute(s.id, s.in_ds, s.out_ds) == ACL_ERROR_INVALID_PARAM
        # Shapes repeat: kernels prepared for a shape are reused for it (and only for it).
        for shape in ((2, 3, 20, 12), (4, 3, 40, 40), (2, 3, 20, 12), (1, 3, 7, 9), (4, 3, 40, 40)):
            x = np.random.default_rng(sum(shape)).standard_normal(shape).astype(np.float32)
            s.put(0, x)
            td = acl.create_tensor_desc(0, list(shape), 0)
            assert acl.mdl.set_dataset_tensor_desc(s.in_ds, td, 0) == 0
            acl.destroy_tensor_desc(td)
            check(acl.mdl.execute(s.id, s.in_ds, s.out_ds), "execute")
            out_td = acl.mdl.get_dataset_tensor_desc(s.out_ds, 0)
            assert out_td != 0
            out_shape = [acl.get_tensor_desc_dim_v2(out_td, k)[0]
                         for k in range(acl.get_tensor_desc_num_dims(out_td))]
            assert out_shape == [shape[0], 5]
            np.testing.assert_allclose(s.get(0, (shape[0], 5)), reference(m, x), rtol=1e-4,
                                       atol=1e-5)
        # Outside the compiled range (batch 1~4), a fixed dim changed.
        for shape in ((5, 3, 8, 8), (1, 4, 8, 8), (1, 3, 8)):
            td = acl.create_tensor_desc(0, list(shape), 0)
            acl.mdl.set_dataset_tensor_desc(s.in_ds, td, 0)
            acl.destroy_tensor_desc(td)
            assert acl.mdl.execute(s.id, s.in_ds, s.out_ds) == ACL_ERROR_INVALID_PARAM, shape
        assert "does not fit" in acl.get_recent_err_msg()
    finally:
        s.close()


def test_gear_model_shares_weights(net, tmp_path):
    _, src = net
    one = os.path.getsize(convert(src, str(tmp_path / "one"), "--input_shape=x:1,3,16,16"))
    many = os.path.getsize(convert(src, str(tmp_path / "many"), "--input_shape=x:-1,3,16,16",
                                   "--dynamic_batch_size=1,2,4,8,16,32"))
    # Six graphs, one copy of the weights: far less than six models.
    assert many < 4 * one
    info = atc("--mode=6", f"--om={tmp_path / 'many'}.om").stdout
    assert "batch gears[1;2;4;8;16;32]" in info


@pytest.mark.parametrize("flags,code", [
    (["--input_shape=x:-1,3,16,16", "--dynamic_batch_size=1,2", "--dynamic_image_size=8,8;16,16"],
     "E10009"),
    (["--input_shape=x:1,3,16,16", "--dynamic_batch_size=1,2"], "E10001"),
    (["--dynamic_batch_size=1,2"], "E10001"),
    (["--input_shape=x:-1,3,16,16", "--dynamic_batch_size=4"], "E10001"),
    (["--input_shape=x:-1,3,16,16", "--dynamic_batch_size=1,x"], "E10001"),
    (["--input_shape=x:1,3,-1,-1", "--dynamic_batch_size=1,2"], "E10001"),
    (["--input_shape=x:-1,3,-1,16", "--dynamic_dims=1,16;2,24"], "E10001"),  # needs ND
    (["--input_format=ND", "--input_shape=x:-1,3,-1,16", "--dynamic_dims=1;2"], "E10001"),
    (["--input_shape=x:1~4,3,16,16", "--dynamic_batch_size=1,2"], "E10001"),
    (["--input_shape=x:4~1,3,16,16"], "E10002"),
])
def test_gear_option_errors(net, tmp_path, flags, code):
    _, src = net
    out = tmp_path / "bad"
    r = atc(f"--model={src}", "--framework=5", f"--output={out}", "--soc_version=Ascend910B3",
            *flags)
    assert r.returncode != 0
    assert code in r.stdout, r.stdout
    assert not os.path.exists(str(out) + ".om")


def test_msame_dynamic_options(net, tmp_path):
    m, src = net
    om = convert(src, str(tmp_path / "batch"), "--input_shape=x:-1,3,16,16",
                 "--dynamic_batch_size=1,2,4")
    x = np.random.default_rng(5).standard_normal((2, 3, 16, 16)).astype(np.float32)
    x.tofile(tmp_path / "x.bin")
    out = tmp_path / "out"
    r = run([tool("msame"), f"--model={om}", f"--input={tmp_path / 'x.bin'}", f"--output={out}",
             "--outfmt=BIN", "--dymBatch=2"])
    assert r.returncode == 0, r.stdout + r.stderr
    files = [os.path.join(d, f) for d, _, fs in os.walk(out) for f in fs]
    assert len(files) == 1
    y = np.fromfile(files[0], np.float32)
    np.testing.assert_allclose(y.reshape(2, 5), reference(m, x), rtol=1e-4, atol=1e-5)
    r = run([tool("msame"), f"--model={om}", f"--input={tmp_path / 'x.bin'}", "--dymBatch=3"])
    assert r.returncode != 0 and "145013" in r.stdout + r.stderr

    full = convert(src, str(tmp_path / "full"), "--input_shape=x:-1,3,-1,-1")
    out2 = tmp_path / "out2"
    r = run([tool("msame"), f"--model={full}", f"--input={tmp_path / 'x.bin'}",
             f"--output={out2}", "--outfmt=BIN", "--dymShape=x:2,3,16,16", "--outputSize=10000"])
    assert r.returncode == 0, r.stdout + r.stderr
    files = [os.path.join(d, f) for d, _, fs in os.walk(out2) for f in fs]
    y = np.fromfile(files[0], np.float32)
    np.testing.assert_allclose(y.reshape(2, 5), reference(m, x), rtol=1e-4, atol=1e-5)


def test_infer_session_with_gears_and_dynamic_models(net, tmp_path):
    from acl_infer import InferSession
    m, src = net
    gears = convert(src, str(tmp_path / "bs"), "--input_shape=x:-1,3,16,16",
                    "--dynamic_batch_size=1,2,4")
    hw = convert(src, str(tmp_path / "hw"), "--input_shape=x:1,3,-1,-1",
                 "--dynamic_image_size=16,16;8,12")
    full = convert(src, str(tmp_path / "full"), "--input_shape=x:-1,3,-1,-1")
    rng = np.random.default_rng(2)
    with InferSession(0, gears) as s:
        assert [i.name for i in s.get_inputs()] == ["x"]  # the gear input is the session's
        assert s.default_shapes() == [[1, 3, 16, 16]]
        for b in (2, 4, 1):
            x = rng.standard_normal((b, 3, 16, 16)).astype(np.float32)
            (y,) = s.infer([x])
            assert y.shape == (b, 5)
            np.testing.assert_allclose(y, reference(m, x), rtol=1e-4, atol=1e-5)
        with pytest.raises(Exception, match="145013"):
            s.infer([rng.standard_normal((3, 3, 16, 16)).astype(np.float32)])
    with InferSession(0, hw) as s:
        x = rng.standard_normal((1, 3, 8, 12)).astype(np.float32)
        np.testing.assert_allclose(s.infer([x])[0], reference(m, x), rtol=1e-4, atol=1e-5)
    with InferSession(0, full) as s:
        for shape in ((3, 3, 5, 7), (1, 3, 64, 48)):
            x = rng.standard_normal(shape).astype(np.float32)
            (y,) = s.infer([x])
            assert y.shape == (shape[0], 5)
            np.testing.assert_allclose(y, reference(m, x), rtol=1e-4, atol=1e-5)
    # ais_bench's custom_sizes sizes the buffers of outputs known only at run time.
    x = rng.standard_normal((3, 3, 5, 7)).astype(np.float32)
    with InferSession(0, full, dynamic_output_bytes=8) as s:
        with pytest.raises(Exception, match="buffer"):
            s.infer([x], mode="dymshape")
        (y,) = s.infer([x], mode="dymshape", custom_sizes=3 * 5 * 4)
        np.testing.assert_allclose(y, reference(m, x), rtol=1e-4, atol=1e-5)
        with pytest.raises(ValueError, match="custom_sizes"):
            s.infer([x], mode="dymshape", custom_sizes=[0])
    r = run(["/usr/bin/python3", "-m", "acl_infer", "--model", gears, "--loop", "5"],
            env=dict(os.environ, PYTHONPATH=os.path.dirname(tool("atc")) + "/../python"))
    assert r.returncode == 0 and "throughput" in r.stdout, r.stdout + r.stderr


def test_value_dependent_steps_are_not_cached_by_shape(acl_session, tmp_path):
    """Reshape to a shape given as an input: same input shapes, different values, different
    outputs. The run-time step must be prepared from the values every time."""
    import onnx
    from onnx import TensorProto, helper
    acl = acl_session
    g = helper.make_graph([helper.make_node("Reshape", ["x", "s"], ["y"])], "reshape_by_value",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [6]),
                           helper.make_tensor_value_info("s", TensorProto.INT64, [2])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["a", "b"])])
    src = str(tmp_path / "r.onnx")
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), src)
    s = Session(acl, convert(src, str(tmp_path / "r")))
    try:
        x = np.arange(6, dtype=np.float32)
        s.put(0, x)
        for target in ([2, 3], [3, 2], [2, 3], [1, 6]):
            s.put(1, np.array(target, np.int64))
            check(acl.mdl.execute(s.id, s.in_ds, s.out_ds), "execute")
            td = acl.mdl.get_dataset_tensor_desc(s.out_ds, 0)
            dims = [acl.get_tensor_desc_dim_v2(td, k)[0] for k in range(acl.get_tensor_desc_num_dims(td))]
            assert dims == target
            np.testing.assert_array_equal(s.get(0, tuple(target)), x.reshape(target))
    finally:
        s.close()
