"""pyACL never crashes on a bad handle: every function swept with made-up, stale and null
handles and absurd sizes (in a child process, so a crash fails the test with the function's
name), the double-destroy cases of cleanup code, and the calls CANN's async Python samples
make (acl.util.start_thread with a process_report loop)."""
import os
import subprocess
import sys
import threading

import numpy as np

from conftest import atc
from make_onnx import mlp_reference, tiny_mlp

ACL_ERROR_INVALID_PARAM = 100000
HERE = os.path.dirname(os.path.abspath(__file__))


def run_child(code):
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=300)


def test_every_function_survives_bad_handles_and_sizes():
    r = subprocess.run([sys.executable, os.path.join(HERE, "pyacl_sweep_child.py")],
                       capture_output=True, text=True, timeout=600)
    last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    assert r.returncode == 0, f"crashed (rc {r.returncode}) at: {last}\n{r.stderr[-2000:]}"
    calls = int(last.split()[1])
    assert last.endswith("calls returned") and calls > 900, last


def test_double_destroy_and_bogus_handles_return_invalid_param(acl_session, tmp_path):
    acl = acl_session
    ds = acl.mdl.create_dataset()
    assert acl.mdl.destroy_dataset(ds) == 0
    assert acl.mdl.destroy_dataset(ds) == ACL_ERROR_INVALID_PARAM
    assert "not a live aclmdlDataset" in acl.get_recent_err_msg()
    buf = acl.create_data_buffer(0, 0)
    assert acl.destroy_data_buffer(buf) == 0
    assert acl.destroy_data_buffer(buf) == ACL_ERROR_INVALID_PARAM
    assert acl.destroy_data_buffer(424242) == ACL_ERROR_INVALID_PARAM
    assert acl.mdl.get_num_inputs(424242) == 0
    assert "parameter [modelDesc] is not a live aclmdlDesc" in acl.get_recent_err_msg()
    m = tiny_mlp(tmp_path / "mlp.onnx", batch=4)
    assert atc(f"--model={m}", "--framework=5", f"--output={tmp_path / 'mlp'}",
               "--soc_version=Ascend910B3").returncode == 0
    model_id, ret = acl.mdl.load_from_file(str(tmp_path / "mlp.om"))
    assert ret == 0
    assert acl.mdl.get_desc(5, model_id) == ACL_ERROR_INVALID_PARAM
    assert acl.mdl.execute(model_id, 8, 16) == ACL_ERROR_INVALID_PARAM
    # A dataset whose buffer was destroyed is refused at execution, not dereferenced.
    dev, _ = acl.rt.malloc(64, 0)
    ds_in, ds_out = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    b = acl.create_data_buffer(dev, 64)
    acl.mdl.add_dataset_buffer(ds_in, b)
    acl.destroy_data_buffer(b)
    assert acl.mdl.execute(model_id, ds_in, ds_out) == ACL_ERROR_INVALID_PARAM
    assert "not a live aclDataBuffer" in acl.get_recent_err_msg()
    for d in (ds_in, ds_out):
        assert acl.mdl.destroy_dataset(d) == 0
    assert acl.rt.free(dev) == 0
    # Raw pointers the module reads: ValueError, not a segfault.
    for bogus in (0, 8, 424242):
        try:
            acl.util.ptr_to_numpy(bogus, (4,), 11)
            raise AssertionError("no error")
        except ValueError as e:
            assert "not mapped memory" in str(e) or "pointer is 0" in str(e)
    assert acl.rt.memcpy(424242, 16, 424242, 16, 0) == ACL_ERROR_INVALID_PARAM
    assert acl.mdl.unload(model_id) == 0


def test_runtime_extras(acl_session):
    acl = acl_session
    assert acl.get_soc_name() == "Ascend910B3"
    # aclGetDeviceCapability answers from the SoC table: 910B3 has 20 AI cores, 40 vector
    # cores and 192 MiB of L2; unknown figures and devices are refused.
    assert acl.get_device_capability(0, 0) == (20, 0)
    assert acl.get_device_capability(0, 1) == (40, 0)
    assert acl.get_device_capability(0, 2) == (192 << 20, 0)
    assert acl.get_device_capability(0, 7)[1] == ACL_ERROR_INVALID_PARAM
    assert acl.get_device_capability(3, 0)[1] == 107001  # ACL_ERROR_RT_INVALID_DEVICEID
    free0, total, ret = acl.rt.get_mem_info(1)  # ACL_HBM_MEM
    assert ret == 0 and total == 64 << 30 and 0 < free0 <= total
    dev, _ = acl.rt.malloc(64 << 20, 0)
    free1, _, _ = acl.rt.get_mem_info(0)
    assert free1 <= free0 - (64 << 20) or free0 < total  # bounded by what the host has
    stream, _ = acl.rt.create_stream()
    host = np.zeros(256, np.uint8)
    assert acl.rt.memset_async(dev, 256, 0x5A, 256, stream) == 0
    assert acl.rt.memcpy_async(acl.util.numpy_to_ptr(host), 256, dev, 256, 2, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0
    assert (host == 0x5A).all()
    assert acl.rt.memset_async(dev, 16, 0, 32, stream) == ACL_ERROR_INVALID_PARAM
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.rt.free(dev) == 0


def test_run_mode_needs_no_init():
    r = run_child("import acl; print(acl.rt.get_run_mode())")
    assert r.returncode == 0 and r.stdout.strip() == "(1, 0)", r.stdout + r.stderr


def test_async_sample_with_start_thread(acl_session, tmp_path):
    """CANN's async pyACL sample: a native report thread from acl.util.start_thread that sets
    the context and loops on process_report until a flag drops."""
    acl = acl_session
    m = tiny_mlp(tmp_path / "mlp.onnx", batch=4)
    assert atc(f"--model={m}", "--framework=5", f"--output={tmp_path / 'mlp'}",
               "--soc_version=Ascend910B3").returncode == 0
    model_id, ret = acl.mdl.load_from_file(str(tmp_path / "mlp.om"))
    assert ret == 0
    context, ret = acl.rt.get_context()
    assert ret == 0
    stream, _ = acl.rt.create_stream()
    run_flag = [True]
    seen = []

    def process_callback(args_list):
        ctx, flag = args_list
        assert acl.rt.set_context(ctx) == 0
        while flag[0]:
            acl.rt.process_report(100)

    thread_id, ret = acl.util.start_thread(process_callback, [context, run_flag])
    assert ret == 0 and thread_id != threading.get_ident()
    assert acl.rt.subscribe_report(thread_id, stream) == 0
    outs = []
    for k in range(4):
        x = np.random.RandomState(k).randn(4, 4).astype(np.float32)
        y = np.zeros((4, 3), np.float32)
        dev_in, _ = acl.rt.malloc(x.nbytes, 0)
        dev_out, _ = acl.rt.malloc(y.nbytes, 0)
        ds_in, ds_out = acl.mdl.create_dataset(), acl.mdl.create_dataset()
        acl.mdl.add_dataset_buffer(ds_in, acl.create_data_buffer(dev_in, x.nbytes))
        acl.mdl.add_dataset_buffer(ds_out, acl.create_data_buffer(dev_out, y.nbytes))
        assert acl.rt.memcpy_async(dev_in, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, 1,
                                   stream) == 0
        assert acl.mdl.execute_async(model_id, ds_in, ds_out, stream) == 0
        assert acl.rt.memcpy_async(acl.util.numpy_to_ptr(y), y.nbytes, dev_out, y.nbytes, 2,
                                   stream) == 0
        assert acl.rt.launch_callback(lambda d: seen.append(d), k, 1, stream) == 0
        outs.append((x, y, dev_in, dev_out, ds_in, ds_out))
    assert acl.rt.synchronize_stream(stream) == 0
    assert seen == [0, 1, 2, 3]
    for x, y, *_ in outs:
        np.testing.assert_allclose(y, mlp_reference(x), rtol=1e-6)
    assert acl.rt.unsubscribe_report(thread_id, stream) == 0
    run_flag[0] = False
    assert acl.util.stop_thread(thread_id) == 0
    assert acl.util.stop_thread(thread_id) == ACL_ERROR_INVALID_PARAM
    for _, _, dev_in, dev_out, ds_in, ds_out in outs:
        # Released while nothing is queued any more; destroy order as a sample's cleanup.
        for ds in (ds_in, ds_out):
            acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(ds, 0))
            assert acl.mdl.destroy_dataset(ds) == 0
        acl.rt.free(dev_in)
        acl.rt.free(dev_out)
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.mdl.unload(model_id) == 0
