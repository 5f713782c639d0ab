"""Eight threads executing one loaded model concurrently match single-threaded results."""
import threading

import numpy as np

from conftest import atc
from make_onnx import small_cnn


def test_eight_threads_one_model(acl_session, tmp_path):
    acl = acl_session
    m = small_cnn(tmp_path / "cnn.onnx")
    assert atc(f"--model={m}", "--framework=5", f"--output={tmp_path / 'cnn'}",
               "--soc_version=Ascend910B3").returncode == 0
    model_id, ret = acl.mdl.load_from_file(str(tmp_path / "cnn.om"))
    assert ret == 0
    inputs = [np.random.RandomState(i).randn(1, 3, 16, 16).astype(np.float32) for i in range(8)]

    def run_once(x, dev):
        dev_in, dev_out, ds_in, ds_out = dev
        acl.rt.memcpy(dev_in, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, 1)
        assert acl.mdl.execute(model_id, ds_in, ds_out) == 0
        y = np.zeros((1, 5), np.float32)
        acl.rt.memcpy(acl.util.numpy_to_ptr(y), y.nbytes, dev_out, y.nbytes, 2)
        return y

    def buffers():
        dev_in, _ = acl.rt.malloc(3 * 16 * 16 * 4, 0)
        dev_out, _ = acl.rt.malloc(20, 0)
        ds_in, ds_out = acl.mdl.create_dataset(), acl.mdl.create_dataset()
        acl.mdl.add_dataset_buffer(ds_in, acl.create_data_buffer(dev_in, 3 * 16 * 16 * 4))
        acl.mdl.add_dataset_buffer(ds_out, acl.create_data_buffer(dev_out, 20))
        return dev_in, dev_out, ds_in, ds_out

    single = buffers()
    expected = [run_once(x, single) for x in inputs]
    mismatches, done = [], []

    context, ret = acl.rt.get_context()
    assert ret == 0

    def worker(t):
        try:
            # A new thread has no context until it sets one, as on CANN.
            assert acl.rt.set_context(context) == 0
            dev = buffers()
            for k in range(125):  # 8 x 125 = 1000 executions
                i = (t + k) % len(inputs)
                y = run_once(inputs[i], dev)
                if not np.array_equal(y, expected[i]):
                    mismatches.append((t, k))
                done.append(1)
        except Exception as e:  # a failure in a thread must fail the test
            mismatches.append((t, repr(e)))

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not mismatches
    assert len(done) == 1000
    assert acl.mdl.unload(model_id) == 0
