"""Tutorial 3, deployment: the dynamic-batch model on batches of 1, 2 and 4, and the AIPP model
on a uint8 image, each against PyTorch. Run: python3 deploy_check.py"""
import numpy as np
import torch
import torchvision
from acl_infer import InferSession

backbone = torchvision.models.resnet18(weights=None).eval()
backbone.load_state_dict(torch.load("resnet18_weights.pt"))
rng = np.random.default_rng(1)


def cosine(a, b):
    a, b = a.ravel().astype(np.float64), b.ravel().astype(np.float64)
    return a @ b / (np.linalg.norm(a) * np.linalg.norm(b))


# Dynamic batch: one .om, three gears; InferSession picks the gear from the input's shape.
with InferSession(0, "resnet18_dyn.om") as session:
    print("inputs:", session.get_inputs())
    for batch in (1, 2, 4):
        x = rng.standard_normal((batch, 3, 224, 224)).astype(np.float32)
        got = session.infer([x])[0]
        with torch.no_grad():
            want = backbone(torch.from_numpy(x)).numpy()
        err = np.abs(got - want).max()
        print(f"batch {batch}: output {got.shape}, max abs error vs PyTorch {err:.2e}")
        assert got.shape == (batch, 1000) and err < 1e-3

# AIPP: the application hands over the camera's uint8 RGB pixels; the model normalises them.
image = rng.integers(0, 256, size=(1, 224, 224, 3), dtype=np.uint8)
with InferSession(0, "resnet18_aipp.om") as session:
    print("AIPP model input:", session.get_inputs()[0])
    got = session.infer([image])[0]
mean = np.array([124, 116, 104], np.float32)
var_reci = np.array([0.0171, 0.0175, 0.0174], np.float32)
normalised = ((image.astype(np.float32) - mean) * var_reci).transpose(0, 3, 1, 2)
with torch.no_grad():
    want = backbone(torch.from_numpy(np.ascontiguousarray(normalised))).numpy()
c = cosine(got, want)
print(f"AIPP model vs PyTorch on the normalised image: cosine {c:.6f} "
      f"(AIPP rounds its output to fp16, as the NPU does)")
assert c > 0.9999 and got.argmax() == want.argmax()
print("deployment checks passed")
