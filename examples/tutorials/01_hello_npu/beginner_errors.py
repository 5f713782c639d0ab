"""The errors a beginner meets first, made on purpose, with what each code means.

Every AscendCL call answers with a code; acl.get_recent_err_msg() adds OpenCANN's sentence
about the last failure on this thread. Run: python3 beginner_errors.py"""
import os
import tempfile

import numpy as np
import acl

MEANING = {
    100000: ("ACL_ERROR_INVALID_PARAM", "an argument is wrong: a null, stale or foreign pointer, "
             "or a size that does not fit"),
    100001: ("ACL_ERROR_UNINITIALIZE", "AscendCL is not initialised: call acl.init() first"),
    100002: ("ACL_ERROR_REPEAT_INITIALIZE", "acl.init() was already called in this process"),
    100013: ("ACL_ERROR_PARSE_MODEL", "the file is not an offline model (.om) atc wrote, "
             "or it was damaged"),
    100014: ("ACL_ERROR_READ_MODEL_FAILURE", "the model file is missing or cannot be read: "
             "check the path (relative paths start from the working directory)"),
    100037: ("ACL_ERROR_REPEAT_FINALIZE", "acl.finalize() was already called"),
    107000: ("ACL_ERROR_RT_PARAM_INVALID", "the runtime refused an argument: here the copy "
             "runs past the end of the device allocation"),
    107001: ("ACL_ERROR_RT_INVALID_DEVICEID", "no such device: the emulation has device 0"),
    107002: ("ACL_ERROR_RT_CONTEXT_NULL", "this thread has no context: call "
             "acl.rt.set_device() (or create and set a context) first"),
}

seen = []


def expect(what, ret, code):
    """Records one deliberate mistake; fails loudly if the code is not the documented one."""
    ret = ret[-1] if isinstance(ret, tuple) else ret
    msg = acl.get_recent_err_msg() if ret != 0 else ""
    assert ret == code, f"{what}: expected {code}, got {ret} ({msg})"
    name, meaning = MEANING[code]
    seen.append((what, code, name, meaning, msg))


# (acl.rt.set_device before acl.init() initialises with the defaults, as CANN's runtime does;
# other runtime calls still need acl.init() first.)
expect("acl.rt.malloc() before acl.init()", acl.rt.malloc(64, 0), 100001)
assert acl.init() == 0
expect("acl.init() a second time", acl.init(), 100002)
expect("acl.rt.create_stream() before any device is set", acl.rt.create_stream(), 107002)
expect("acl.rt.set_device(1) on a one-device machine", acl.rt.set_device(1), 107001)
assert acl.rt.set_device(0) == 0

host = np.zeros(256, np.float32)
dev, ret = acl.rt.malloc(host.nbytes // 2, 0)  # half the size the copy needs
assert ret == 0
expect("acl.rt.memcpy(device <- host) of 1024 bytes into a 512-byte allocation",
       acl.rt.memcpy(dev, host.nbytes, acl.util.numpy_to_ptr(host), host.nbytes, 1), 107000)
assert acl.rt.free(dev) == 0
expect("acl.rt.free() of memory already freed", acl.rt.free(dev), 100000)

expect("acl.mdl.load_from_file() of a path that does not exist",
       acl.mdl.load_from_file("/no/such/model.om"), 100014)
with tempfile.TemporaryDirectory() as tmp:
    fake = os.path.join(tmp, "model.om")
    with open(fake, "wb") as f:
        f.write(b"this is an ONNX file renamed, not an offline model" * 20)
    expect("acl.mdl.load_from_file() of a file that is not an .om",
           acl.mdl.load_from_file(fake), 100013)

assert acl.rt.reset_device(0) == 0
assert acl.finalize() == 0
expect("acl.finalize() a second time", acl.finalize(), 100037)

for what, code, name, meaning, msg in seen:
    print(f"{code} {name}\n    you did: {what}\n    it means: {meaning}\n    OpenCANN says: {msg}")
print(f"{len(seen)} beginner errors shown, each with its documented code")
