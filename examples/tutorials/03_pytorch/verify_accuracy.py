"""Runs .om models through AscendCL (acl_infer.InferSession) on the sample image and compares
each with PyTorch's logits. Run: python3 verify_accuracy.py MODEL.om [MODEL.om ...]"""
import sys

import numpy as np
from acl_infer import InferSession

image = np.load("image.npy")
reference = np.load("torch_logits.npy").ravel().astype(np.float64)

print(f"{'model':<34}{'cosine':>10}{'max abs err':>14}{'top-1':>8}")
for path in sys.argv[1:]:
    with InferSession(0, path) as session:
        logits = session.infer([image])[0].ravel().astype(np.float64)
    if not np.all(np.isfinite(logits)):
        print(f"{path:<34}{'NaN/Inf':>10}{'-':>14}{'-':>8}")
        continue
    cosine = logits @ reference / (np.linalg.norm(logits) * np.linalg.norm(reference))
    same_top1 = "same" if logits.argmax() == reference.argmax() else "DIFF"
    print(f"{path:<34}{cosine:>10.6f}{np.abs(logits - reference).max():>14.3g}{same_top1:>8}")
