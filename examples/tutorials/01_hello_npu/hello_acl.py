"""Hello NPU in Python (pyACL): the same steps as hello_acl.c.

pyACL returns (value, ret) pairs, or ret alone; ret 0 means success, anything else is an
AscendCL error code. acl.get_recent_err_msg() says what went wrong."""
import numpy as np
import acl

ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_DEVICE_TO_DEVICE = 1, 2, 3


def check(ret, what):
    if ret != 0:
        raise SystemExit(f"{what} failed: {ret} ({acl.get_recent_err_msg()})")


device_id = 0
check(acl.init(), "acl.init")
check(acl.rt.set_device(device_id), "acl.rt.set_device")
context, ret = acl.rt.create_context(device_id)
check(ret, "acl.rt.create_context")
stream, ret = acl.rt.create_stream()
check(ret, "acl.rt.create_stream")

x = np.arange(1024, dtype=np.float32) * 0.5
y = np.zeros_like(x)
nbytes = x.nbytes
dev_a, ret = acl.rt.malloc(nbytes, ACL_MEM_MALLOC_HUGE_FIRST)
check(ret, "acl.rt.malloc")
dev_b, ret = acl.rt.malloc(nbytes, ACL_MEM_MALLOC_HUGE_FIRST)
check(ret, "acl.rt.malloc")

check(acl.rt.memcpy(dev_a, nbytes, acl.util.numpy_to_ptr(x), nbytes,
                    ACL_MEMCPY_HOST_TO_DEVICE), "memcpy host->device")
check(acl.rt.memcpy_async(dev_b, nbytes, dev_a, nbytes, ACL_MEMCPY_DEVICE_TO_DEVICE, stream),
      "memcpy_async device->device")
check(acl.rt.synchronize_stream(stream), "synchronize_stream")
check(acl.rt.memcpy(acl.util.numpy_to_ptr(y), nbytes, dev_b, nbytes,
                    ACL_MEMCPY_DEVICE_TO_HOST), "memcpy device->host")
print("round trip:", "identical" if np.array_equal(x, y) else "DIFFERENT", f"(last value {y[-1]})")

check(acl.rt.free(dev_a), "free")
check(acl.rt.free(dev_b), "free")
check(acl.rt.destroy_stream(stream), "destroy_stream")
check(acl.rt.destroy_context(context), "destroy_context")
check(acl.rt.reset_device(device_id), "reset_device")
check(acl.finalize(), "finalize")
print("hello NPU from Python: done")
