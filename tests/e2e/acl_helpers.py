"""Running an .om through pyACL the way CANN's Python samples do: device buffers,
host-to-device copies, datasets, execute, device-to-host copies."""
import numpy as np

import acl

ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2

# aclDataType -> numpy
ACL_TO_NUMPY = {0: np.float32, 1: np.float16, 2: np.int8, 3: np.int32, 4: np.uint8, 6: np.int16,
                7: np.uint16, 8: np.uint32, 9: np.int64, 10: np.uint64, 11: np.float64, 12: np.bool_}


def check(ret, what):
    if ret != 0:
        raise RuntimeError(f"{what} failed with {ret}: {acl.get_recent_err_msg()}")


class OmModel:
    """Loads an .om and runs it with numpy inputs (device memory, as on an NPU)."""

    def __init__(self, path):
        self.model_id, ret = acl.mdl.load_from_file(path)
        check(ret, "load_from_file")
        self.desc = acl.mdl.create_desc()
        check(acl.mdl.get_desc(self.desc, self.model_id), "get_desc")
        self.n_in = acl.mdl.get_num_inputs(self.desc)
        self.n_out = acl.mdl.get_num_outputs(self.desc)

    def run(self, inputs):
        in_ds, out_ds = acl.mdl.create_dataset(), acl.mdl.create_dataset()
        dev = []
        try:
            for i, arr in enumerate(inputs):
                arr = np.ascontiguousarray(arr)
                size = acl.mdl.get_input_size_by_index(self.desc, i)
                assert arr.nbytes == size, (arr.nbytes, size)
                ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
                check(ret, "malloc")
                dev.append(ptr)
                check(acl.rt.memcpy(ptr, size, acl.util.numpy_to_ptr(arr), size,
                                    ACL_MEMCPY_HOST_TO_DEVICE), "memcpy h2d")
                _, ret = acl.mdl.add_dataset_buffer(in_ds, acl.create_data_buffer(ptr, size))
                check(ret, "add_dataset_buffer")
            outs = []
            for i in range(self.n_out):
                size = acl.mdl.get_output_size_by_index(self.desc, i)
                ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
                check(ret, "malloc")
                dev.append(ptr)
                outs.append((ptr, size))
                _, ret = acl.mdl.add_dataset_buffer(out_ds, acl.create_data_buffer(ptr, size))
                check(ret, "add_dataset_buffer")
            check(acl.mdl.execute(self.model_id, in_ds, out_ds), "execute")
            results = []
            for i, (ptr, size) in enumerate(outs):
                dims, ret = acl.mdl.get_output_dims(self.desc, i)
                check(ret, "get_output_dims")
                dtype = ACL_TO_NUMPY[acl.mdl.get_output_data_type(self.desc, i)]
                host = np.empty(dims["dims"], dtype=dtype)
                check(acl.rt.memcpy(acl.util.numpy_to_ptr(host), size, ptr, size,
                                    ACL_MEMCPY_DEVICE_TO_HOST), "memcpy d2h")
                results.append(host)
            return results
        finally:
            for ds in (in_ds, out_ds):
                for i in range(acl.mdl.get_dataset_num_buffers(ds)):
                    acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(ds, i))
                acl.mdl.destroy_dataset(ds)
            for p in dev:
                acl.rt.free(p)

    def close(self):
        acl.mdl.destroy_desc(self.desc)
        check(acl.mdl.unload(self.model_id), "unload")
