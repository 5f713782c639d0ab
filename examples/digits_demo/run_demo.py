#!/usr/bin/env python3
"""make demo: the seed's pipeline on a real trained model.

1. train a small CNN on scikit-learn's handwritten digits (8x8 images, on the CPU)
2. export it to ONNX with torch.onnx.export, as in the seed's section 2.2
3. convert it with atc (--framework=5 --soc_version=Ascend910B3), as in section 2.2
4. run the test set through AscendCL (pyACL), as in section 2.4
5. print PyTorch's and OpenCANN's test accuracy side by side
"""
import argparse
import os
import subprocess
import sys
import time

import numpy as np
import torch
import torch.nn as nn
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))


class DigitsCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.MaxPool2d(2))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(32 * 4 * 4, 64), nn.ReLU(),
                                        nn.Dropout(0.2), nn.Linear(64, 10))

    def forward(self, x):
        return self.classifier(self.features(x))


def step(msg):
    print(f"\n== {msg}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", default=os.path.join(ROOT, "demo_out"))
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--precision_mode", default="",
                    help="atc --precision_mode (e.g. allow_mix_precision_bf16): the accuracy "
                         "must stay PyTorch's; single predictions may move")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    sys.path.insert(0, os.path.join(build, "python"))
    sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
    import acl
    from acl_helpers import OmModel
    os.makedirs(args.out, exist_ok=True)

    step("1. train a CNN on the digits data set (scikit-learn, 1797 8x8 images)")
    torch.manual_seed(0)
    digits = load_digits()
    x = (digits.images / 16.0).astype(np.float32)[:, None]  # N,1,8,8 in [0,1]
    y = digits.target.astype(np.int64)
    x_tr, x_te, y_tr, y_te = train_test_split(x, y, test_size=0.25, random_state=0, stratify=y)
    model = DigitsCNN()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    xt, yt = torch.from_numpy(x_tr), torch.from_numpy(y_tr)
    t0 = time.time()
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(xt))
        for i in range(0, len(xt), 64):
            idx = perm[i:i + 64]
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(xt[idx]), yt[idx])
            loss.backward()
            opt.step()
    print(f"trained {args.epochs} epochs on {len(x_tr)} images in {time.time() - t0:.1f}s, "
          f"last loss {loss.item():.4f}")
    model.eval()
    with torch.no_grad():
        torch_logits = model(torch.from_numpy(x_te)).numpy()
    torch_acc = float((torch_logits.argmax(1) == y_te).mean())

    step("2. export to ONNX (torch.onnx.export, opset 11)")
    onnx_path = os.path.join(args.out, "digits.onnx")
    torch.onnx.export(model, torch.randn(1, 1, 8, 8), onnx_path, input_names=["input"],
                      output_names=["output"], opset_version=11)
    print(onnx_path)

    step("3. convert with atc")
    om_base = os.path.join(args.out, "digits_910B3")
    cmd = [os.path.join(build, "bin", "atc"), f"--model={onnx_path}", "--framework=5",
           f"--output={om_base}", "--soc_version=Ascend910B3", "--input_shape=input:1,1,8,8",
           "--input_format=NCHW"]
    if args.precision_mode:
        cmd.append(f"--precision_mode={args.precision_mode}")
    print(" ".join(cmd[0:1]).replace(build + "/bin/", "") + " " + " ".join(cmd[1:]))
    r = subprocess.run(cmd, capture_output=True, text=True)
    print(r.stdout.strip())
    if r.returncode != 0:
        return 1
    info = subprocess.run([os.path.join(build, "bin", "atc"), "--mode=6", f"--om={om_base}.om"],
                          capture_output=True, text=True)
    print("\n".join(l for l in info.stdout.splitlines() if "info:" in l))

    step("4. run the test set through AscendCL (pyACL)")
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    om = OmModel(om_base + ".om")
    t0 = time.time()
    acl_logits = np.concatenate([om.run([x_te[i:i + 1]])[0] for i in range(len(x_te))])
    elapsed = time.time() - t0
    om.close()
    acl.rt.reset_device(0)
    acl.finalize()
    acl_acc = float((acl_logits.argmax(1) == y_te).mean())
    agree = int((acl_logits.argmax(1) == torch_logits.argmax(1)).sum())
    print(f"{len(x_te)} images, {1000 * elapsed / len(x_te):.3f} ms per image (batch 1, "
          f"including host/device copies)")

    step("5. results")
    print(f"{'':24}{'PyTorch':>10}{'OpenCANN':>10}")
    print(f"{'test accuracy':24}{torch_acc:>10.4f}{acl_acc:>10.4f}")
    print(f"predictions that agree: {agree}/{len(x_te)}")
    print(f"max |logit difference|: {np.abs(acl_logits - torch_logits).max():.2e}")
    if args.precision_mode:
        # Reduced precision moves logits; the accuracy must not move.
        ok = abs(acl_acc - torch_acc) < 1e-9 and torch_acc > 0.9
        print(f"demo OK: {args.precision_mode} keeps PyTorch's accuracy" if ok else "demo FAILED")
        return 0 if ok else 1
    ok = agree == len(x_te) and abs(acl_acc - torch_acc) < 1e-9 and torch_acc > 0.9
    print("demo OK: the .om model agrees with PyTorch" if ok else "demo FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
