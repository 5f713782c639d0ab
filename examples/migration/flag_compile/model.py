import torch
import torch.nn as nn
import torch.nn.functional as F


class GPT(nn.Module):
    def __init__(self, block_size=1024, vocab=50304, dim=768):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(block_size, dim)
        self.layer = nn.TransformerEncoderLayer(dim, 12, batch_first=True, norm_first=True)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx, targets):
        pos = torch.arange(idx.size(1), device=idx.device)
        x = self.layer(self.emb(idx) + self.pos(pos))
        return F.cross_entropy(self.head(x).flatten(0, 1), targets.flatten())
