#!/usr/bin/env python3
"""Exports the reference models used by the end-to-end tests.

Each model gets random weights from torch.manual_seed(0), is exported with
torch.onnx.export, and a reference input/output pair computed by PyTorch is
saved next to it (.npy) so tests compare OpenCANN against PyTorch itself.
"""
import argparse
import os
import sys

import numpy as np
import torch
import torch.nn as nn


class TokenEncoder(nn.Module):
    """A BERT-base-like encoder: token + position embeddings, 12 post-LN layers."""

    def __init__(self, vocab=30522, d=768, heads=12, layers=12, seq=128):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(seq, d)
        self.norm = nn.LayerNorm(d)
        layer = nn.TransformerEncoderLayer(d, heads, dim_feedforward=4 * d,
                                           activation="gelu", batch_first=True,
                                           dropout=0.1)
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.register_buffer("positions", torch.arange(seq).unsqueeze(0))

    def forward(self, ids):
        x = self.tok(ids) + self.pos(self.positions[:, : ids.shape[1]])
        return self.encoder(self.norm(x))


def build(name):
    import torchvision.models as tvm
    if name == "bert_encoder":
        return TokenEncoder(), ("input_ids",), lambda: torch.randint(0, 30522, (1, 128))
    model = getattr(tvm, name)()
    if name.startswith("vit"):
        # torchvision zero-initialises the ViT head, which would make every output 0
        # and the comparison meaningless.
        nn.init.normal_(model.heads.head.weight, std=0.02)
        nn.init.normal_(model.heads.head.bias, std=0.02)
    return model, ("input",), lambda: torch.randn(1, 3, 224, 224)


def export(name, out_dir, opset):
    torch.manual_seed(0)
    model, input_names, make_input = build(name)
    model.eval()
    x = make_input()
    path = os.path.join(out_dir, f"{name}.onnx")
    with torch.no_grad():
        y = model(x)
    # Exported with grad enabled: torch 1.13's fused attention fast path (taken under
    # no_grad in eval mode) has no ONNX symbolic, the plain path does.
    torch.onnx.export(model, x, path, input_names=list(input_names),
                      output_names=["output"], opset_version=opset)
    np.save(os.path.join(out_dir, f"{name}.input.npy"), x.numpy())
    np.save(os.path.join(out_dir, f"{name}.output.npy"), y.numpy())
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="+")
    ap.add_argument("--out", default=".")
    ap.add_argument("--opset", type=int, default=11)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for m in args.models:
        print(export(m, args.out, args.opset), flush=True)


if __name__ == "__main__":
    sys.exit(main())
