import torch
import torch.nn as nn
import torchvision

from dcn import _ext


class DeformConv2d(nn.Module):
    def __init__(self, cin, cout, k=3):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(cout, cin, k, k) * 0.01)
        self.offset = nn.Conv2d(cin, 2 * k * k, k, padding=1)

    def forward(self, x):
        return _ext.forward(x, self.weight, self.offset(x), 1, 1)


backbone = torchvision.models.resnet50()
head = DeformConv2d(2048, 256).cuda()
opt = torch.optim.SGD(head.parameters(), lr=0.01)
feats = torch.randn(2, 2048, 16, 16).cuda()
head(feats).mean().backward()
opt.step()
