"""Streams, async execution, events and report callbacks, in the style of CANN's samples."""
import threading
import time

import numpy as np

from conftest import atc
from make_onnx import mlp_reference, tiny_mlp

ACL_CALLBACK_NO_BLOCK, ACL_CALLBACK_BLOCK = 0, 1
ACL_ERROR_REPEAT_SUBSCRIBE = 100033
ACL_ERROR_STREAM_NOT_SUBSCRIBE = 100034
ACL_ERROR_THREAD_NOT_SUBSCRIBE = 100035
ACL_ERROR_WAIT_CALLBACK_TIMEOUT = 100036


def prepare(acl, tmp_path, batch=4):
    m = tiny_mlp(tmp_path / "mlp.onnx", batch=batch)
    assert atc(f"--model={m}", "--framework=5", f"--output={tmp_path / 'mlp'}",
               "--soc_version=Ascend910B3").returncode == 0
    model_id, ret = acl.mdl.load_from_file(str(tmp_path / "mlp.om"))
    assert ret == 0
    return model_id


def make_io(acl, x, out_bytes):
    dev_in, _ = acl.rt.malloc(x.nbytes, 0)
    dev_out, _ = acl.rt.malloc(out_bytes, 0)
    ds_in, ds_out = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    acl.mdl.add_dataset_buffer(ds_in, acl.create_data_buffer(dev_in, x.nbytes))
    acl.mdl.add_dataset_buffer(ds_out, acl.create_data_buffer(dev_out, out_bytes))
    return dev_in, dev_out, ds_in, ds_out


def test_async_execute_with_callback_thread(acl_session, tmp_path):
    acl = acl_session
    model_id = prepare(acl, tmp_path)
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    stop = threading.Event()
    processed = []

    def report_loop():  # as CANN's samples: loop until told to stop
        while not stop.is_set():
            ret = acl.rt.process_report(100)
            if ret == ACL_ERROR_THREAD_NOT_SUBSCRIBE:  # not subscribed yet
                time.sleep(0.001)

    worker = threading.Thread(target=report_loop)
    worker.start()
    assert acl.rt.subscribe_report(worker.ident, stream) == 0
    assert acl.rt.subscribe_report(worker.ident, stream) == ACL_ERROR_REPEAT_SUBSCRIBE
    runs = []
    for k in range(6):
        x = np.random.RandomState(k).randn(4, 4).astype(np.float32)
        host_out = np.zeros((4, 3), np.float32)
        dev_in, dev_out, ds_in, ds_out = make_io(acl, x, host_out.nbytes)
        assert acl.rt.memcpy_async(dev_in, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, 1, stream) == 0
        assert acl.mdl.execute_async(model_id, ds_in, ds_out, stream) == 0
        assert acl.rt.memcpy_async(acl.util.numpy_to_ptr(host_out), host_out.nbytes, dev_out,
                                   host_out.nbytes, 2, stream) == 0
        block = ACL_CALLBACK_BLOCK if k % 2 else ACL_CALLBACK_NO_BLOCK
        assert acl.rt.launch_callback(lambda d: processed.append(d), k, block, stream) == 0
        runs.append((x, host_out, dev_in, dev_out, ds_in, ds_out))
    assert acl.rt.synchronize_stream(stream) == 0
    deadline = time.time() + 10
    while len(processed) < 6 and time.time() < deadline:
        time.sleep(0.01)
    assert processed == list(range(6))  # in stream order
    for x, host_out, *_ in runs:
        np.testing.assert_allclose(host_out, mlp_reference(x), rtol=1e-6)
    assert acl.rt.unsubscribe_report(worker.ident, stream) == 0
    stop.set()
    worker.join()
    for _, _, dev_in, dev_out, ds_in, ds_out in runs:
        for ds in (ds_in, ds_out):
            acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(ds, 0))
            acl.mdl.destroy_dataset(ds)
        acl.rt.free(dev_in)
        acl.rt.free(dev_out)
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.mdl.unload(model_id) == 0


def test_callback_errors_and_events(acl_session, tmp_path):
    acl = acl_session
    stream, _ = acl.rt.create_stream()
    assert acl.rt.launch_callback(lambda d: None, None, 0, stream) == ACL_ERROR_STREAM_NOT_SUBSCRIBE
    assert acl.rt.process_report(10) == ACL_ERROR_THREAD_NOT_SUBSCRIBE
    assert acl.rt.unsubscribe_report(threading.get_ident(), stream) == ACL_ERROR_STREAM_NOT_SUBSCRIBE
    # The calling thread subscribes itself: an empty queue times out.
    assert acl.rt.subscribe_report(threading.get_ident(), stream) == 0
    assert acl.rt.process_report(20) == ACL_ERROR_WAIT_CALLBACK_TIMEOUT
    got = []
    assert acl.rt.launch_callback(lambda d: got.append(d), "hello", 0, stream) == 0
    assert acl.rt.process_report(5000) == 0 and got == ["hello"]
    assert acl.rt.unsubscribe_report(threading.get_ident(), stream) == 0
    # Events recorded on a stream complete in order and measure the work between them.
    model_id = prepare(acl, tmp_path)
    x = np.ones((4, 4), np.float32)
    dev_in, dev_out, ds_in, ds_out = make_io(acl, x, 48)
    acl.rt.memcpy(dev_in, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, 1)
    start, _ = acl.rt.create_event()
    end, _ = acl.rt.create_event()
    assert acl.rt.record_event(start, stream) == 0
    for _ in range(20):
        assert acl.mdl.execute_async(model_id, ds_in, ds_out, stream) == 0
    assert acl.rt.record_event(end, stream) == 0
    assert acl.rt.synchronize_event(end) == 0
    ms, ret = acl.rt.event_elapsed_time(start, end)
    assert ret == 0 and ms >= 0
    # An asynchronous failure (a too-small output buffer) surfaces at synchronization.
    small, _ = acl.rt.malloc(4, 0)
    acl.update_data_buffer(acl.mdl.get_dataset_buffer(ds_out, 0), small, 4)
    assert acl.mdl.execute_async(model_id, ds_in, ds_out, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 100000
    assert "bytes" in acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(stream) == 0  # the error was reported once
    assert acl.mdl.execute_async(999, ds_in, ds_out, stream) == 100011
    for e in (start, end):
        acl.rt.destroy_event(e)
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.mdl.unload(model_id) == 0


def test_streams_run_concurrently_and_in_order(acl_session):
    acl = acl_session
    streams = [acl.rt.create_stream()[0] for _ in range(3)]
    threads = threading.get_ident()
    for s in streams:
        assert acl.rt.subscribe_report(threads, s) == 0
    order = []
    for i, s in enumerate(streams):
        for k in range(5):
            acl.rt.launch_callback(lambda d: order.append(d), (i, k), 0, s)
    while len(order) < 15:
        assert acl.rt.process_report(5000) == 0
    for i in range(3):
        assert [k for (j, k) in order if j == i] == list(range(5))
    for s in streams:
        acl.rt.unsubscribe_report(threads, s)
        assert acl.rt.destroy_stream(s) == 0


def test_contexts_are_per_thread(acl_session):
    acl = acl_session
    ctx, ret = acl.rt.get_context()  # the main thread set the device: its default context
    assert ret == 0 and ctx != 0
    results = {}

    def other():
        results["get"] = acl.rt.get_context()[1]
        results["stream"] = acl.rt.create_stream()[1]
        results["set"] = acl.rt.set_context(ctx)
        stream, ret = acl.rt.create_stream()
        results["stream_after"] = ret
        if ret == 0:
            acl.rt.destroy_stream(stream)
        results["bad"] = acl.rt.set_context(12345)

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert results == {"get": 107002, "stream": 107002, "set": 0, "stream_after": 0, "bad": 100000}
