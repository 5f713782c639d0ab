import torch
import torch.nn as nn

from kernels import softmax


class Block(nn.Module):
    def __init__(self, dim=512):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        return softmax(q @ k.transpose(-1, -2)) @ v


model = Block().cuda()
out = model(torch.randn(8, 128, 512, device="cuda"))
