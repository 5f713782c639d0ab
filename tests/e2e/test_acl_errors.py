"""AscendCL misuse returns CANN's codes and never crashes the process."""
import os
import subprocess
import textwrap

import numpy as np

from conftest import BUILD, PY, atc
from make_onnx import mlp_reference, tiny_mlp

ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_UNINITIALIZE = 100001
ACL_ERROR_REPEAT_INITIALIZE = 100002
ACL_ERROR_INVALID_MODEL_ID = 100011
ACL_ERROR_PARSE_MODEL = 100013
ACL_ERROR_READ_MODEL_FAILURE = 100014
ACL_ERROR_REPEAT_FINALIZE = 100037
ACL_ERROR_RT_PARAM_INVALID = 107000
ACL_ERROR_RT_INVALID_DEVICEID = 107001


def run_py(code, tmp_path):
    script = tmp_path / "case.py"
    script.write_text(textwrap.dedent(code))
    env = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python") + ":" + os.path.dirname(__file__))
    return subprocess.run([PY, str(script)], capture_output=True, text=True, env=env, timeout=300)


def test_calls_before_init_and_repeat_init(tmp_path):
    r = run_py(f"""
        import acl
        ptr, ret = acl.rt.malloc(16, 0)
        assert ret == {ACL_ERROR_UNINITIALIZE}
        mid, ret = acl.mdl.load_from_file("x.om")
        assert ret == {ACL_ERROR_UNINITIALIZE}
        assert acl.finalize() == {ACL_ERROR_UNINITIALIZE}
        assert acl.init() == 0
        assert acl.init() == {ACL_ERROR_REPEAT_INITIALIZE}
        assert acl.rt.set_device(3) == {ACL_ERROR_RT_INVALID_DEVICEID}
        assert acl.finalize() == 0
        assert acl.finalize() == {ACL_ERROR_REPEAT_FINALIZE}
        print("ok")
        """, tmp_path)
    assert r.returncode == 0 and "ok" in r.stdout, r.stdout + r.stderr


def test_runtime_without_acl_init_initialises_implicitly(tmp_path):
    # CANN's own samples (asc-devkit's quickstart and most basic-API examples) call
    # aclrtSetDevice without aclInit, and its runtime accepts that: so does OpenCANN, saying so.
    (tmp_path / "cfg.json").write_text('{"num_threads": 1}')
    r = run_py(f"""
        import acl
        assert acl.rt.set_device(0) == 0
        ptr, ret = acl.rt.malloc(64, 0)
        assert ret == 0
        assert acl.rt.free(ptr) == 0
        # A configuration now would come too late: refused, not ignored.
        assert acl.init("{tmp_path / 'cfg.json'}") == {ACL_ERROR_REPEAT_INITIALIZE}
        assert acl.init() == 0   # nothing to apply: the explicit aclInit is taken
        assert acl.init() == {ACL_ERROR_REPEAT_INITIALIZE}
        assert acl.rt.reset_device(0) == 0
        assert acl.finalize() == 0
        # After aclFinalize the runtime is not brought back implicitly.
        assert acl.rt.set_device(0) == {ACL_ERROR_UNINITIALIZE}
        print("ok")
        """, tmp_path)
    assert r.returncode == 0 and "ok" in r.stdout, r.stdout + r.stderr
    assert r.stderr.count("aclInit has not been called: initialised with the defaults") == 1, r.stderr


def test_init_config_file(tmp_path):
    (tmp_path / "good.json").write_text('{"num_threads": 1}')
    (tmp_path / "bad.json").write_text("{not json")
    r = run_py(f"""
        import acl
        assert acl.init("{tmp_path / 'missing.json'}") == 100003
        assert acl.init("{tmp_path / 'bad.json'}") == 100006
        assert acl.init("{tmp_path / 'good.json'}") == 0
        print("ok")
        """, tmp_path)
    assert r.returncode == 0 and "ok" in r.stdout, r.stdout + r.stderr


def test_model_errors(acl_session, tmp_path):
    acl = acl_session
    m = tiny_mlp(tmp_path / "mlp.onnx")
    assert atc(f"--model={m}", "--framework=5", f"--output={tmp_path / 'mlp'}",
               "--soc_version=Ascend910B3").returncode == 0
    om = (tmp_path / "mlp.om").read_bytes()
    _, ret = acl.mdl.load_from_file(str(tmp_path / "missing.om"))
    assert ret == ACL_ERROR_READ_MODEL_FAILURE
    (tmp_path / "trunc.om").write_bytes(om[: len(om) // 2])
    _, ret = acl.mdl.load_from_file(str(tmp_path / "trunc.om"))
    assert ret == ACL_ERROR_PARSE_MODEL
    assert "truncated" in acl.get_recent_err_msg()
    corrupt = bytearray(om)
    corrupt[-20] ^= 0xFF
    (tmp_path / "corrupt.om").write_bytes(bytes(corrupt))
    _, ret = acl.mdl.load_from_file(str(tmp_path / "corrupt.om"))
    assert ret == ACL_ERROR_PARSE_MODEL
    assert "checksum" in acl.get_recent_err_msg()
    (tmp_path / "onnx_as_om.om").write_bytes((tmp_path / "mlp.onnx").read_bytes())
    _, ret = acl.mdl.load_from_file(str(tmp_path / "onnx_as_om.om"))
    assert ret == ACL_ERROR_PARSE_MODEL
    # load from memory works like from a file
    blob = np.frombuffer(om, dtype=np.uint8).copy()
    mid, ret = acl.mdl.load_from_mem(acl.util.numpy_to_ptr(blob), blob.nbytes)
    assert ret == 0
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, 987654) == ACL_ERROR_INVALID_MODEL_ID
    assert acl.mdl.get_desc(desc, mid) == 0
    assert acl.mdl.get_input_size_by_index(desc, 5) == 0
    assert acl.mdl.get_input_dims(desc, 5)[1] == ACL_ERROR_INVALID_PARAM
    assert acl.mdl.get_input_index_by_name(desc, "x") == (0, 0)
    assert acl.mdl.get_input_index_by_name(desc, "nope")[1] == ACL_ERROR_INVALID_PARAM
    # wrong buffer sizes at execute
    ds_in, ds_out = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    small, _ = acl.rt.malloc(8, 0)
    out, _ = acl.rt.malloc(12, 0)
    acl.mdl.add_dataset_buffer(ds_in, acl.create_data_buffer(small, 8))
    acl.mdl.add_dataset_buffer(ds_out, acl.create_data_buffer(out, 12))
    assert acl.mdl.execute(mid, ds_in, ds_out) == ACL_ERROR_INVALID_PARAM
    assert "bytes" in acl.get_recent_err_msg()
    assert acl.mdl.execute(424242, ds_in, ds_out) == ACL_ERROR_INVALID_MODEL_ID
    # correct sizes run and match numpy
    good, _ = acl.rt.malloc(16, 0)
    x = np.array([[1, -2, 3, 0.5]], np.float32)
    assert acl.rt.memcpy(good, 16, acl.util.numpy_to_ptr(x), 16, 1) == 0
    acl.update_data_buffer(acl.mdl.get_dataset_buffer(ds_in, 0), good, 16)
    assert acl.mdl.execute(mid, ds_in, ds_out) == 0
    y = np.zeros((1, 3), np.float32)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(y), 12, out, 12, 2) == 0
    np.testing.assert_allclose(y, mlp_reference(x), rtol=1e-6)
    for p in (small, out, good):
        assert acl.rt.free(p) == 0
    assert acl.rt.free(good) == ACL_ERROR_INVALID_PARAM  # double free
    assert acl.mdl.unload(mid) == 0


def test_memory_misuse(acl_session):
    acl = acl_session
    host = np.zeros(16, np.uint8)
    hp = acl.util.numpy_to_ptr(host)
    dev, ret = acl.rt.malloc(16, 0)
    assert ret == 0
    assert acl.rt.malloc(0, 0)[1] == ACL_ERROR_INVALID_PARAM
    # A kind that contradicts the pointers is copied by the pointers, as CANN's runtime does
    # (its documentation calls kind reserved; Ascend's acllite and memcpy samples rely on it).
    host[:] = np.arange(16, dtype=np.uint8)
    assert acl.rt.memcpy(dev, 16, hp, 16, 2) == 0                           # "D2H" into device
    host[:] = 0
    assert acl.rt.memcpy(hp, 16, dev, 16, 1) == 0                           # "H2D" into host
    assert (host == np.arange(16)).all()
    gone, _ = acl.rt.malloc(16, 0)
    assert acl.rt.free(gone) == 0
    assert acl.rt.memcpy(hp, 16, gone, 16, 2) == ACL_ERROR_RT_PARAM_INVALID  # freed: not read
    assert acl.rt.memcpy(dev, 8, hp, 16, 1) == ACL_ERROR_INVALID_PARAM     # count > destMax
    assert acl.rt.memcpy(dev, 64, hp, 64, 1) == ACL_ERROR_RT_PARAM_INVALID  # past allocation
    assert acl.rt.memcpy(0, 16, hp, 16, 1) == ACL_ERROR_INVALID_PARAM       # null
    assert acl.rt.free(hp) == ACL_ERROR_INVALID_PARAM                       # foreign pointer
    assert acl.rt.memset(dev, 16, 7, 16) == 0
    assert acl.rt.memcpy(hp, 16, dev, 16, 2) == 0 and host[15] == 7
    assert acl.rt.free(dev) == 0
    hostp, ret = acl.rt.malloc_host(32)
    assert ret == 0 and acl.rt.free_host(hostp) == 0 and acl.rt.free_host(hostp) == ACL_ERROR_INVALID_PARAM


def test_fresh_device_memory_reads_zero(tmp_path):
    # CANN's samples compare outputs a kernel never writes with zeros: fresh device memory
    # reads as zero, as a newly mapped NPU allocation does in practice.
    r = run_py("""
        import acl
        import numpy as np
        assert acl.init() == 0
        assert acl.rt.set_device(0) == 0
        host = np.full(1000, 7, np.int32)
        dev, ret = acl.rt.malloc(host.nbytes, 0)
        assert ret == 0
        assert acl.rt.memcpy(acl.util.numpy_to_ptr(host), host.nbytes, dev, host.nbytes, 2) == 0
        assert (host == 0).all(), host[:8]
        print("ok")
        """, tmp_path)
    assert r.returncode == 0 and "ok" in r.stdout, r.stdout + r.stderr
