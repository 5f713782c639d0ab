#!/usr/bin/env python3
"""Classify images with an .om model through AscendCL, two ways:
the low-level pyACL calls (as CANN's Python samples do) and the InferSession helper.

usage: classify.py MODEL.om INPUT.npy [--topk 5]
INPUT.npy holds a batch shaped like the model's first input (float32, NCHW).
"""
import argparse
import sys

import numpy as np

import acl
from acl_infer import InferSession

ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST = 0, 1, 2


def check(ret, what):
    if ret != 0:
        sys.exit(f"{what} failed: {ret} {acl.get_recent_err_msg()}")


def classify_low_level(model_path, x):
    """The sample-style path: every AscendCL object made and released by hand."""
    check(acl.init(), "acl.init")
    check(acl.rt.set_device(0), "set_device")
    context, ret = acl.rt.create_context(0)
    check(ret, "create_context")
    model_id, ret = acl.mdl.load_from_file(model_path)
    check(ret, "load_from_file")
    desc = acl.mdl.create_desc()
    check(acl.mdl.get_desc(desc, model_id), "get_desc")
    in_size = acl.mdl.get_input_size_by_index(desc, 0)
    out_size = acl.mdl.get_output_size_by_index(desc, 0)
    dev_in, ret = acl.rt.malloc(in_size, ACL_MEM_MALLOC_HUGE_FIRST)
    check(ret, "malloc")
    dev_out, ret = acl.rt.malloc(out_size, ACL_MEM_MALLOC_HUGE_FIRST)
    check(ret, "malloc")
    check(acl.rt.memcpy(dev_in, in_size, acl.util.numpy_to_ptr(x), x.nbytes, ACL_MEMCPY_HOST_TO_DEVICE),
          "memcpy")
    inputs, outputs = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    in_buf, out_buf = acl.create_data_buffer(dev_in, in_size), acl.create_data_buffer(dev_out, out_size)
    acl.mdl.add_dataset_buffer(inputs, in_buf)
    acl.mdl.add_dataset_buffer(outputs, out_buf)
    check(acl.mdl.execute(model_id, inputs, outputs), "execute")
    dims, _ = acl.mdl.get_output_dims(desc, 0)
    y = np.empty(dims["dims"], np.float32)
    check(acl.rt.memcpy(acl.util.numpy_to_ptr(y), out_size, dev_out, out_size, ACL_MEMCPY_DEVICE_TO_HOST),
          "memcpy")
    for b in (in_buf, out_buf):
        acl.destroy_data_buffer(b)
    acl.mdl.destroy_dataset(inputs)
    acl.mdl.destroy_dataset(outputs)
    acl.rt.free(dev_in)
    acl.rt.free(dev_out)
    acl.mdl.destroy_desc(desc)
    check(acl.mdl.unload(model_id), "unload")
    acl.rt.destroy_context(context)
    acl.rt.reset_device(0)
    check(acl.finalize(), "finalize")
    return y


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("input")
    ap.add_argument("--topk", type=int, default=5)
    args = ap.parse_args()
    x = np.ascontiguousarray(np.load(args.input), dtype=np.float32)
    y_low = classify_low_level(args.model, x)
    with InferSession(0, args.model) as session:
        (y,) = session.infer([x])
    assert np.array_equal(y, y_low), "the two paths disagree"
    for b, row in enumerate(y.reshape(y.shape[0], -1)):
        top = np.argsort(-row)[: args.topk]
        print(f"image {b}: " + ", ".join(f"class {c} ({row[c]:.4f})" for c in top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
