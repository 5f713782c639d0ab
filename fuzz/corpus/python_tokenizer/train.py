import torch
import torch.nn as nn


class Net(nn.Module):
    """A net."""

    def forward(self, x):
        return x.cuda() * 2


model = Net().to("cuda")
torch.cuda.synchronize()
s = f"{model!r:>10}" + r"\d" + b"x".decode()
