"""An npu-smi-style summary of the emulated device, asked through AscendCL.

On a machine with an NPU, `npu-smi info` reads the driver; AscendCL answers the same
questions for an application: which SoC, how many cores, how much memory."""
import acl

ACL_HBM_MEM = 1
AI_CORE_NUM, VECTOR_CORE_NUM, L2_SIZE = 0, 1, 2

assert acl.init() == 0
count, ret = acl.rt.get_device_count()
assert ret == 0


def row(text):
    print(f"| {text:<68} |")


line = "+" + "-" * 70 + "+"
print(line)
row(f"OpenCANN npu_info: {count} device(s), emulated on the host CPU")
print(line)
for dev in range(count):
    assert acl.rt.set_device(dev) == 0
    soc = acl.get_soc_name()
    free, total, ret = acl.rt.get_mem_info(ACL_HBM_MEM)
    aic, ret_aic = acl.get_device_capability(dev, AI_CORE_NUM)
    aiv, ret_aiv = acl.get_device_capability(dev, VECTOR_CORE_NUM)
    assert ret == 0 and ret_aic == 0 and ret_aiv == 0, acl.get_recent_err_msg()
    l2, ret_l2 = acl.get_device_capability(dev, L2_SIZE)
    l2_text = f"{l2 >> 20} MiB" if ret_l2 == 0 else "unknown"
    row(f"NPU {dev}  {soc}  AI cores {aic}  vector cores {aiv}  L2 {l2_text}")
    # The emulated HBM is the host's memory: "free" never exceeds what the host has left.
    row(f"       HBM {total >> 30} GiB, {free >> 30} GiB free")
    assert acl.rt.reset_device(dev) == 0
print(line)
assert acl.finalize() == 0
