"""AscendCL runtime objects and loading with caller-owned memory."""
import numpy as np

from conftest import atc
from make_onnx import mlp_reference, tiny_mlp


def make_om(tmp_path, batch=1):
    m = tiny_mlp(tmp_path / "mlp.onnx", batch=batch)
    assert atc(f"--model={m}", "--framework=5", f"--output={tmp_path / 'mlp'}",
               "--soc_version=Ascend910B3").returncode == 0
    return str(tmp_path / "mlp.om")


def run_model(acl, model_id, x):
    ds_in, ds_out = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    dev_in, _ = acl.rt.malloc(x.nbytes, 0)
    dev_out, _ = acl.rt.malloc(x.shape[0] * 12, 0)
    acl.rt.memcpy(dev_in, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, 1)
    acl.mdl.add_dataset_buffer(ds_in, acl.create_data_buffer(dev_in, x.nbytes))
    acl.mdl.add_dataset_buffer(ds_out, acl.create_data_buffer(dev_out, x.shape[0] * 12))
    ret = acl.mdl.execute(model_id, ds_in, ds_out)
    y = np.zeros((x.shape[0], 3), np.float32)
    acl.rt.memcpy(acl.util.numpy_to_ptr(y), y.nbytes, dev_out, y.nbytes, 2)
    for ds in (ds_in, ds_out):
        acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(ds, 0))
        acl.mdl.destroy_dataset(ds)
    acl.rt.free(dev_in)
    acl.rt.free(dev_out)
    return ret, y


def test_load_with_caller_memory(acl_session, tmp_path):
    acl = acl_session
    om = make_om(tmp_path, batch=2)
    work, weight, ret = acl.mdl.query_size(om)
    assert ret == 0 and weight >= 12 * 4 + 3 * 4
    work_ptr, _ = acl.rt.malloc(max(work, 1), 0)
    weight_ptr, _ = acl.rt.malloc(weight, 0)
    # too little work memory, host memory, and the right amounts
    if work > 1:
        assert acl.mdl.load_from_file_with_mem(om, work_ptr, 1, weight_ptr, weight)[1] != 0
    host = np.zeros(weight, np.uint8)
    assert acl.mdl.load_from_file_with_mem(om, work_ptr, work, acl.util.numpy_to_ptr(host),
                                           weight)[1] == 100000
    model_id, ret = acl.mdl.load_from_file_with_mem(om, work_ptr, max(work, 1), weight_ptr, weight)
    assert ret == 0, acl.get_recent_err_msg()
    x = np.array([[1, 2, 3, 4], [-1, 0.5, 2, -3]], np.float32)
    ret, y = run_model(acl, model_id, x)
    assert ret == 0
    np.testing.assert_allclose(y, mlp_reference(x), rtol=1e-6)
    assert acl.mdl.unload(model_id) == 0
    acl.rt.free(work_ptr)
    acl.rt.free(weight_ptr)


# aclmdlConfigAttr / load types, as acl_mdl.h numbers them.
PATH_PTR, MEM_ADDR_PTR, MEM_SIZET, LOAD_TYPE, PRIORITY = 2, 3, 4, 1, 0
WEIGHT_ADDR_PTR, WEIGHT_SIZET, WORKSPACE_ADDR_PTR, WORKSPACE_SIZET = 5, 6, 7, 8
INPUTQ_NUM = 9
FROM_FILE, FROM_FILE_WITH_MEM, FROM_MEM, FROM_MEM_WITH_MEM, FROM_FILE_WITH_Q = 1, 2, 3, 4, 5


def test_load_with_config(acl_session, tmp_path):
    """ais_bench's newest backend loads through a configuration handle: each load type runs
    the model as the matching load call does; what OpenCANN lacks is refused by name."""
    acl = acl_session
    om = make_om(tmp_path, batch=2)
    x = np.array([[1, 2, 3, 4], [-1, 0.5, 2, -3]], np.float32)
    data = np.fromfile(om, np.uint8)
    work, weight, _ = acl.mdl.query_size(om)
    work_ptr, _ = acl.rt.malloc(max(work, 1), 0)
    weight_ptr, _ = acl.rt.malloc(weight, 0)
    setups = {
        FROM_FILE: [(PATH_PTR, om)],
        FROM_FILE_WITH_MEM: [(PATH_PTR, om), (WORKSPACE_ADDR_PTR, work_ptr),
                             (WORKSPACE_SIZET, max(work, 1)), (WEIGHT_ADDR_PTR, weight_ptr),
                             (WEIGHT_SIZET, weight)],
        FROM_MEM: [(MEM_ADDR_PTR, acl.util.numpy_to_ptr(data)), (MEM_SIZET, data.nbytes)],
        FROM_MEM_WITH_MEM: [(MEM_ADDR_PTR, acl.util.numpy_to_ptr(data)),
                            (MEM_SIZET, data.nbytes)],
    }
    for load_type, options in setups.items():
        h = acl.mdl.create_config_handle()
        assert h != 0
        assert acl.mdl.set_config_opt(h, LOAD_TYPE, load_type) == 0
        assert acl.mdl.set_config_opt(h, PRIORITY, 3) == 0
        for attr, value in options:
            assert acl.mdl.set_config_opt(h, attr, value) == 0, (load_type, attr)
        model_id, ret = acl.mdl.load_with_config(h)
        assert ret == 0, (load_type, acl.get_recent_err_msg())
        assert acl.mdl.destroy_config_handle(h) == 0
        ret, y = run_model(acl, model_id, x)
        assert ret == 0
        np.testing.assert_allclose(y, mlp_reference(x), rtol=1e-6)
        assert acl.mdl.unload(model_id) == 0
    h = acl.mdl.create_config_handle()
    # A missing option is named; a bad priority, load type or option is refused.
    assert acl.mdl.load_with_config(h)[1] == 100000
    assert acl.mdl.set_config_opt(h, LOAD_TYPE, FROM_FILE) == 0
    assert acl.mdl.load_with_config(h)[1] == 100000
    assert "ACL_MDL_PATH_PTR" in acl.get_recent_err_msg()
    assert acl.mdl.set_config_opt(h, PRIORITY, 8) == 100000
    assert acl.mdl.set_config_opt(h, LOAD_TYPE, 7) == 100000
    assert acl.mdl.set_config_opt(h, INPUTQ_NUM, 1) == 200001
    assert acl.mdl.set_config_opt(h, 13, 1) == 200001  # WORKSPACE_MEM_OPTIMIZE: no counterpart
    assert acl.mdl.set_config_opt(h, LOAD_TYPE, FROM_FILE_WITH_Q) == 0
    assert acl.mdl.set_config_opt(h, PATH_PTR, om) == 0
    assert acl.mdl.load_with_config(h)[1] == 200001
    assert acl.mdl.destroy_config_handle(h) == 0
    assert acl.mdl.destroy_config_handle(h) == 100000  # twice
    acl.rt.free(work_ptr)
    acl.rt.free(weight_ptr)


def test_contexts_streams_events(acl_session, tmp_path):
    acl = acl_session
    ctx, ret = acl.rt.create_context(0)
    assert ret == 0 and ctx != 0
    cur, ret = acl.rt.get_context()
    assert ret == 0 and cur == ctx
    assert acl.rt.create_context(5)[1] == 107001
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    start, _ = acl.rt.create_event()
    end, _ = acl.rt.create_event()
    assert acl.rt.record_event(start, stream) == 0
    model_id, ret = acl.mdl.load_from_file(make_om(tmp_path))
    x = np.array([[1, 2, 3, 4]], np.float32)
    ret, y = run_model(acl, model_id, x)
    assert ret == 0
    assert acl.rt.record_event(end, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    ms, ret = acl.rt.event_elapsed_time(start, end)
    assert ret == 0 and ms >= 0
    assert acl.rt.get_run_mode() == (1, 0)  # ACL_HOST
    assert acl.rt.get_device_count() == (1, 0)
    assert acl.rt.get_device() == (0, 0)
    for e in (start, end):
        assert acl.rt.destroy_event(e) == 0
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.destroy_stream(stream) == 100000
    assert acl.rt.destroy_context(ctx) == 0
    assert acl.mdl.unload(model_id) == 0
