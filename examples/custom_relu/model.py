"""A PyTorch model that uses CustomReLU, exported to ONNX with a custom symbolic
(custom::CustomReLU), and the same model with torch.relu as the reference.

usage: model.py export OUT.onnx | check MODEL.om"""
import sys

import numpy as np
import torch


class CustomReLUFunction(torch.autograd.Function):
    """torch.relu in PyTorch; a custom::CustomReLU node in the exported ONNX graph."""

    @staticmethod
    def forward(ctx, x):
        return torch.relu(x)

    @staticmethod
    def symbolic(g, x):
        return g.op("custom::CustomReLU", x).setType(x.type())


class Net(torch.nn.Module):
    def __init__(self, custom):
        super().__init__()
        self.custom = custom
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.fc = torch.nn.Linear(8 * 16 * 16, 10)

    def forward(self, x):
        y = self.conv(x)
        y = CustomReLUFunction.apply(y) if self.custom else torch.relu(y)
        return self.fc(torch.flatten(y, 1))


def model(custom):
    torch.manual_seed(0)
    return Net(custom).eval()


def main():
    if sys.argv[1] == "export":
        torch.onnx.export(model(True), torch.randn(2, 3, 16, 16), sys.argv[2],
                          input_names=["x"], output_names=["y"], opset_version=13,
                          custom_opsets={"custom": 1})
        print(f"exported {sys.argv[2]} with a custom::CustomReLU node")
        return 0
    from acl_infer import InferSession
    x = np.random.default_rng(1).standard_normal((2, 3, 16, 16)).astype(np.float32)
    with torch.no_grad():
        want = model(False)(torch.from_numpy(x)).numpy()
    with InferSession(0, sys.argv[2]) as session:
        (got,) = session.infer([x])
    err = float(np.abs(got - want).max() / np.abs(want).max())
    print(f"OpenCANN (CustomReLU kernel) vs PyTorch (torch.relu): max relative error {err:.2e}")
    return 0 if err < 1e-5 else 1


if __name__ == "__main__":
    sys.exit(main())
