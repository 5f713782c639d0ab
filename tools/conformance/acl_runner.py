"""Executes an .om with numpy inputs through pyACL (device buffers, as on an NPU)."""
import numpy as np

ACL_TO_NUMPY = {0: np.float32, 1: np.float16, 2: np.int8, 3: np.int32, 4: np.uint8, 6: np.int16,
                7: np.uint16, 8: np.uint32, 9: np.int64, 10: np.uint64, 11: np.float64, 12: np.bool_,
                27: np.uint16}


def _check(acl, ret, what):
    if ret != 0:
        raise RuntimeError(f"{what} failed ({ret}): {acl.get_recent_err_msg()}")


def run_om(acl, om, inputs, output_bytes=None):
    """output_bytes: buffer sizes for outputs whose size is only known at run time."""
    _check(acl, acl.init(), "aclInit")
    _check(acl, acl.rt.set_device(0), "aclrtSetDevice")
    model_id, ret = acl.mdl.load_from_file(om)
    _check(acl, ret, "aclmdlLoadFromFile")
    desc = acl.mdl.create_desc()
    _check(acl, acl.mdl.get_desc(desc, model_id), "aclmdlGetDesc")
    n_in, n_out = acl.mdl.get_num_inputs(desc), acl.mdl.get_num_outputs(desc)
    if n_in != len(inputs):
        raise RuntimeError(f"model has {n_in} inputs, test data {len(inputs)}")
    ds_in, ds_out = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    keep = []
    for i, arr in enumerate(inputs):
        arr = np.ascontiguousarray(arr)
        size = acl.mdl.get_input_size_by_index(desc, i)
        if arr.nbytes != size:
            raise RuntimeError(f"input {i} has {arr.nbytes} bytes, model expects {size}")
        ptr, ret = acl.rt.malloc(max(size, 1), 0)
        _check(acl, ret, "aclrtMalloc")
        if size:
            _check(acl, acl.rt.memcpy(ptr, size, acl.util.numpy_to_ptr(arr), size, 1), "memcpy")
        keep.append(arr)
        acl.mdl.add_dataset_buffer(ds_in, acl.create_data_buffer(ptr, size))
    outs = []
    for i in range(n_out):
        size = acl.mdl.get_output_size_by_index(desc, i)
        if size == 0 and output_bytes:
            size = output_bytes[i]
        ptr, ret = acl.rt.malloc(max(size, 1), 0)
        _check(acl, ret, "aclrtMalloc")
        outs.append((ptr, size))
        acl.mdl.add_dataset_buffer(ds_out, acl.create_data_buffer(ptr, size))
    _check(acl, acl.mdl.execute(model_id, ds_in, ds_out), "aclmdlExecute")
    results = []
    for i, (ptr, size) in enumerate(outs):
        dims, ret = acl.mdl.get_cur_output_dims(desc, i)
        _check(acl, ret, "get_output_dims")
        t = acl.mdl.get_output_data_type(desc, i)
        if t not in ACL_TO_NUMPY:
            raise RuntimeError(f"output {i} has unsupported ACL data type {t}")
        host = np.empty(dims["dims"], dtype=ACL_TO_NUMPY[t])
        # bfloat16 travels as its 16-bit pattern (ONNX's numpy helper does the same)
        if host.nbytes:
            _check(acl, acl.rt.memcpy(acl.util.numpy_to_ptr(host), host.nbytes, ptr, host.nbytes, 2),
                   "memcpy")
        results.append(host)
    return results
