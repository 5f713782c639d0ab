"""Runs the three converted models through AscendCL and compares each with PyTorch.
Run: python3 check_models.py"""
import numpy as np
from acl_infer import InferSession

want = np.load("torch_prob.npy")
for om, inp in [("caffe_cnn.om", "input.npy"), ("tf_cnn.om", "input_nhwc.npy"),
                ("air_cnn.om", "input.npy")]:
    with InferSession(0, om) as session:
        got = session.infer([np.load(inp)])[0].reshape(want.shape)
        shape = session.get_inputs()[0].shape
    err = np.abs(got - want).max()
    print(f"{om:<14} input {shape}  max abs error vs PyTorch {err:.1e}")
    assert err < 1e-5, om
print("all three frameworks agree with PyTorch")
