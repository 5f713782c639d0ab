#!/usr/bin/env python3
"""The model battery: torchvision models (classification, segmentation, video) and small
transformer encoders and a decoder-only LM written here, each exported with random weights
(fixed seeds, nothing downloaded) at two opsets and with a dynamic batch axis, converted with
atc, run through pyACL and compared with torch.

    /usr/bin/python3 tests/models/battery.py --build build [--subset quick] [--only NAME...]
        [--table docs/models.md] [--json results.json] [--work DIR]

Each case passes when every output's max |ours - torch| / max |torch| is below 1e-4 and
(static shapes) atc leaves no step prepared at run time unless the model's shapes depend on
input values. A model that torch cannot export is listed with the reason, not failed.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback

import numpy as np
import torch

TOL = 1e-4
SOURCE = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


# ---- models written here --------------------------------------------------------------

class Encoder(torch.nn.Module):
    """A pre-LN transformer encoder with an attention mask input and learned positions."""

    def __init__(self, vocab=1000, d=64, heads=4, layers=2, seq=16):
        super().__init__()
        self.tok = torch.nn.Embedding(vocab, d)
        self.pos = torch.nn.Parameter(torch.randn(1, seq, d) * 0.02)
        layer = torch.nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0,
                                                 batch_first=True, norm_first=True)
        self.enc = torch.nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)

    def forward(self, ids, mask):
        x = self.tok(ids) + self.pos[:, :ids.shape[1]]
        return self.enc(x, src_key_padding_mask=mask == 0)


def rotary(x, pos):
    half = x.shape[-1] // 2
    freq = 1.0 / (10000 ** (torch.arange(half, dtype=torch.float32) / half))
    ang = pos[:, None].float() * freq[None, :]
    cos, sin = torch.cos(ang), torch.sin(ang)
    a, b = x[..., :half], x[..., half:]
    return torch.cat([a * cos - b * sin, a * sin + b * cos], -1)


class DecoderLM(torch.nn.Module):
    """A decoder-only LM step with rotary positions and a KV cache as inputs and outputs."""

    def __init__(self, vocab=500, d=64, heads=4, layers=2):
        super().__init__()
        self.h, self.dh, self.layers = heads, d // heads, layers
        self.emb = torch.nn.Embedding(vocab, d)
        self.qkv = torch.nn.ModuleList(torch.nn.Linear(d, 3 * d) for _ in range(layers))
        self.out = torch.nn.ModuleList(torch.nn.Linear(d, d) for _ in range(layers))
        self.mlp = torch.nn.ModuleList(torch.nn.Sequential(
            torch.nn.Linear(d, 4 * d), torch.nn.GELU(), torch.nn.Linear(4 * d, d))
            for _ in range(layers))
        self.n1 = torch.nn.ModuleList(torch.nn.LayerNorm(d) for _ in range(layers))
        self.n2 = torch.nn.ModuleList(torch.nn.LayerNorm(d) for _ in range(layers))
        self.head = torch.nn.Linear(d, vocab)

    def forward(self, ids, past_k, past_v):
        b, t = ids.shape
        past = past_k.shape[3]
        pos = torch.arange(past, past + t)
        x = self.emb(ids)
        ks, vs = [], []
        for i in range(self.layers):
            q, k, v = self.qkv[i](self.n1[i](x)).split(x.shape[-1], -1)
            q = rotary(q.view(b, t, self.h, self.dh).transpose(1, 2), pos)
            k = rotary(k.view(b, t, self.h, self.dh).transpose(1, 2), pos)
            v = v.view(b, t, self.h, self.dh).transpose(1, 2)
            k = torch.cat([past_k[i], k], 2)
            v = torch.cat([past_v[i], v], 2)
            ks.append(k)
            vs.append(v)
            att = q @ k.transpose(-1, -2) / self.dh ** 0.5
            # Causal: query i (at past + i) sees keys up to past + i.
            causal = torch.arange(past + t)[None, :] > (past + torch.arange(t))[:, None]
            att = att.masked_fill(causal, -1e9).softmax(-1)
            y = (att @ v).transpose(1, 2).reshape(b, t, -1)
            x = x + self.out[i](y)
            x = x + self.mlp[i](self.n2[i](x))
        return self.head(x), torch.stack(ks), torch.stack(vs)


# ---- the battery ------------------------------------------------------------------------

def tv(name, size=224, **kw):
    def make():
        import torchvision.models as m
        return getattr(m, name)(weights=None, **kw)
    return make, [("x", lambda b: torch.randn(b, 3, size, size))]


def tv_video(name, frames=8, size=64):
    def make():
        import torchvision.models.video as m
        return getattr(m, name)(weights=None)
    return make, [("x", lambda b: torch.randn(b, 3, frames, size, size))]


def tv_seg(name):
    def make():
        import torchvision.models.segmentation as m
        return Unwrap(getattr(m, name)(weights=None, weights_backbone=None))
    return make, [("x", lambda b: torch.randn(b, 3, 96, 96))]


class Unwrap(torch.nn.Module):
    """Segmentation models return a dict: the main output."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x):
        return self.m(x)["out"]


class Flow(torch.nn.Module):
    """RAFT with a fixed number of refinement steps: the last flow estimate."""

    def __init__(self, m, updates=4):
        super().__init__()
        self.m, self.updates = m, updates

    def forward(self, a, b):
        return self.m(a, b, num_flow_updates=self.updates)[-1]


def raft(name):
    def make():
        import torchvision.models.optical_flow as m
        return Flow(getattr(m, name)(weights=None))
    return make, [("a", lambda b: torch.randn(b, 3, 128, 128)),
                  ("b", lambda b: torch.randn(b, 3, 128, 128))]


class Detector(torch.nn.Module):
    """A torchvision detector on one image: boxes, scores, labels (then masks or keypoints
    where the model has them) after its own post-processing (score threshold, NMS, top
    detections)."""

    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x):
        d = self.m([x])[0]
        rest = [k for k in ("masks", "keypoints", "keypoints_scores") if k in d]
        return tuple([d["boxes"], d["scores"], d["labels"]] + [d[k] for k in rest])


def calibrate_heads(det, image):
    """Random weights make a detector's head activations grow layer by layer until every
    score saturates at 1.0 and every box clips to the image border, and then ties decide
    which boxes survive. One pass rescales each convolution and linear layer after the
    backbone so that its output has unit spread on this image (data-dependent init in the
    manner of LSUV), and gives the class layers distinct biases."""
    done = set()

    def rescale(mod, _inp, out):
        # A head shared by the pyramid levels is rescaled on its first call only.
        if mod in done:
            return out
        done.add(mod)
        # The weights' part only: a bias is the layer's prior (RetinaNet's foreground one).
        bias = 0 if mod.bias is None else \
            (mod.bias if isinstance(mod, torch.nn.Linear) else mod.bias.view(1, -1, 1, 1))
        s = float((out - bias).std()) / target.get(mod, 1.0)
        if not (s > 0 and s < float("inf")):
            return out
        mod.weight.mul_(1.0 / s)
        return (out - bias) / s + bias
    # Box regressions a tenth of that, as trained detectors' are: deltas of unit spread make
    # boxes exponentials of noise, and float rounding then moves them by more than 1e-4.
    target = {}
    for n, mod in det.named_modules():
        if n.endswith("bbox_pred") or n.endswith("bbox_reg") or \
                re.search(r"regression_head\.module_list\.\d+(\.1)?$", n):
            target[mod] = 0.1
    hooks = []
    for n, mod in det.named_modules():
        if n.startswith("backbone.body") or n.startswith("backbone.features"):
            continue
        if isinstance(mod, (torch.nn.Conv2d, torch.nn.Linear, torch.nn.ConvTranspose2d)):
            hooks.append(mod.register_forward_hook(rescale))
    with torch.no_grad():
        det([image])
    for h in hooks:
        h.remove()
    # The final class layers (not the convolutions before them) get distinct biases, on top
    # of their prior (RetinaNet and FCOS start near a 1 % foreground probability).
    g = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for n, mod in det.named_modules():
            final = n.endswith("cls_logits") or n.endswith("cls_score") or \
                re.search(r"classification_head\.module_list\.\d+(\.1)?$", n)
            if final and isinstance(mod, (torch.nn.Conv2d, torch.nn.Linear)) and \
                    mod.bias is not None:
                mod.bias.add_(torch.randn(mod.bias.shape, generator=g) * 2.0)


def detection(name, size=320, **kw):
    def make():
        import torchvision.models.detection as m
        det = getattr(m, name)(weights=None, weights_backbone=None, **kw).eval()
        # The backbone's batch norms take the statistics of random images (momentum 1, one
        # train-mode pass), then the heads are calibrated on one image.
        for mod in det.modules():
            if isinstance(mod, torch.nn.modules.batchnorm._BatchNorm):
                mod.momentum = 1.0
        det.backbone.train()
        with torch.no_grad():
            # As the detector feeds its backbone: resized and normalised images.
            images, _ = det.transform([smooth_image(size) for _ in range(4)])
            det.backbone(images.tensors)
        det.backbone.eval()
        torch.manual_seed(2)
        calibrate_heads(det, smooth_image(size))
        return Detector(det.eval())
    # A smooth image, as photographs are: on white noise a box moved by float rounding samples
    # very different features, and R-CNN heads then differ from torch by more than 1e-4 (ONNX
    # Runtime's too).
    return make, [("x", lambda b: smooth_image(size))]


def smooth_image(size):
    small = torch.rand(1, 3, size // 16, size // 16)
    return torch.nn.functional.interpolate(small, size=(size, size), mode="bilinear",
                                           align_corners=False)[0]


def encoder():
    return (lambda: Encoder(),
            [("ids", lambda b: torch.randint(0, 1000, (b, 16))),
             ("mask", lambda b: torch.cat([torch.ones(b, 12, dtype=torch.int64),
                                           torch.zeros(b, 4, dtype=torch.int64)], 1))])


def decoder():
    return (lambda: DecoderLM(),
            [("ids", lambda b: torch.randint(0, 500, (b, 4))),
             ("past_k", lambda b: torch.randn(2, b, 4, 6, 16)),
             ("past_v", lambda b: torch.randn(2, b, 4, 6, 16))])


CLASSIFICATION = [
    "resnet18", "resnet50", "resnext50_32x4d", "wide_resnet50_2", "vgg11", "vgg16_bn",
    "densenet121", "googlenet", "inception_v3", "mobilenet_v2", "mobilenet_v3_small",
    "mobilenet_v3_large", "mnasnet0_5", "shufflenet_v2_x1_0", "squeezenet1_1",
    "efficientnet_b0", "efficientnet_v2_s", "regnet_y_400mf", "regnet_x_400mf",
    "convnext_tiny", "vit_b_16", "swin_t", "maxvit_t", "alexnet",
]
SIZES = {"inception_v3": 299, "googlenet": 224}
# googlenet's own init_weights gives features that ReLU kills: its output would not depend
# on the input (the battery checks that), so it keeps the layers' default init.
KWARGS = {"googlenet": {"aux_logits": False, "init_weights": False},
          "inception_v3": {"aux_logits": False, "init_weights": True}}


DETECTORS = ("ssdlite320_mobilenet_v3_large", "ssd300_vgg16", "fasterrcnn_mobilenet_v3_large_320_fpn",
             "retinanet_resnet50_fpn", "fcos_resnet50_fpn", "maskrcnn_resnet50_fpn",
             "keypointrcnn_resnet50_fpn")
# The resnet50-FPN detectors resize to 800 pixels by default: 320 keeps the battery quick.
DETECTION_KWARGS = {n: {"min_size": 320, "max_size": 320} for n in DETECTORS if "resnet50" in n}


def cases():
    out = {}
    for n in CLASSIFICATION:
        out[n] = tv(n, SIZES.get(n, 224), **KWARGS.get(n, {}))
    for n in ("fcn_resnet50", "deeplabv3_resnet50", "deeplabv3_mobilenet_v3_large",
              "lraspp_mobilenet_v3_large"):
        out[n] = tv_seg(n)
    for n in ("r3d_18", "mc3_18", "r2plus1d_18"):
        out[n] = tv_video(n)
    out["s3d"] = tv_video("s3d", 16, 224)  # its last pooling needs 16 frames of 224 x 224
    for n in DETECTORS:
        out[n] = detection(n, **DETECTION_KWARGS.get(n, {}))
    out["raft_small"] = raft("raft_small")
    out["raft_large"] = raft("raft_large")
    out["transformer_encoder"] = encoder()
    out["decoder_lm_kv_cache"] = decoder()
    return out


# Opsets other than 13 and 17 where the model needs them (grid_sample: 16).
OPSETS = {"raft_small": (16, 17), "raft_large": (16, 17)}
# torch 1.13 exports torchvision's RoIAlign (aligned=False) as RoiAlign without
# coordinate_transformation_mode, whose default became half_pixel in opset 16: from 16 on the
# file means aligned=True, so the R-CNN detectors are exported at 13 and 15, where it means
# what torch computes. (ONNX Runtime computes the opset-17 file as atc does.)
for _rcnn in ("fasterrcnn_mobilenet_v3_large_320_fpn", "maskrcnn_resnet50_fpn",
              "keypointrcnn_resnet50_fpn"):
    OPSETS[_rcnn] = (13, 15)
# No dynamic-batch variant, with the reason.
NO_DYNAMIC = {
    "raft_small": "torch 1.13 exports a Sqrt of an int64 shape value for a dynamic batch: "
                  "invalid ONNX that ONNX Runtime refuses too (atc: E19005 naming /m/Sqrt)",
}
NO_DYNAMIC["raft_large"] = NO_DYNAMIC["raft_small"]
for _det in DETECTORS:
    NO_DYNAMIC[_det] = "torchvision detectors take a list of images, not a batch axis"

QUICK = ["resnet18", "mobilenet_v3_small", "swin_t", "transformer_encoder",
         "decoder_lm_kv_cache"]
# Left out, with the reason (Debian's torch 1.13 / torchvision 0.14): nothing at present.
NOT_IN_BATTERY = {}
# Models that float32 itself cannot pin down to the tolerance, measured by hand.
CONDITIONING_NOTES = {
    "maskrcnn_resnet50_fpn":
        "on this input torch's own float32 result is 1.1e-4 from its float64 result and ONNX "
        "Runtime's is 1.8e-4 from torch's (masks pasted at box edges and R-CNN scores move with "
        "the rounding of the proposals): the model is ill-conditioned at the tolerance, so "
        "its cases fail the 1e-4 criterion at 2.3e-4 without a known defect in OpenCANN",
}
# Why a model is exported at other opsets than 13 and 17.
OPSET_NOTES = {
    "R-CNN detectors (fasterrcnn, maskrcnn, keypointrcnn)":
        "exported at opsets 13 and 15: torch 1.13 writes torchvision's RoIAlign (aligned=False) "
        "without coordinate_transformation_mode, whose default became half_pixel in opset 16, "
        "so its opset-16+ files mean aligned=True and differ from torch (ONNX Runtime computes "
        "those files as atc does)",
    "raft_small, raft_large": "exported at opsets 16 and 17: grid_sample needs opset 16",
}


class DegenerateReference(Exception):
    pass


def export(make, inputs, path, opset, dynamic):
    torch.manual_seed(0)
    model = make().eval()
    # Some inits zero a layer (ViT's classification head): its output would not depend on
    # the input. Such layers get small random weights instead.
    with torch.no_grad():
        for mod in model.modules():
            w = getattr(mod, "weight", None)
            if isinstance(mod, (torch.nn.Linear, torch.nn.Conv2d)) and w is not None and \
                    not torch.any(w):
                torch.nn.init.normal_(w, std=0.02)
    torch.manual_seed(1)
    feeds = [f(2 if dynamic else 1) for _, f in inputs]
    names = [n for n, _ in inputs]
    with torch.no_grad():
        want = model(*feeds)
        other = model(*[f(2 if dynamic else 1) for _, f in inputs])
    want = [want] if torch.is_tensor(want) else list(want)
    other = [other] if torch.is_tensor(other) else list(other)
    # A reference that does not depend on the input would pass anything. Random weights can
    # make activations vanish (deeplabv3 on a dilated mobilenet_v3): the batch norms then get
    # the statistics of a random batch (one train-mode pass, momentum 1), once.
    if all(torch.equal(a, b) for a, b in zip(want, other)):
        bns = [m for m in model.modules() if isinstance(m, torch.nn.modules.batchnorm._BatchNorm)]
        if not bns:
            raise DegenerateReference("torch gives the same outputs for two different inputs")
        for bn in bns:
            bn.momentum = 1.0
        model.train()
        with torch.no_grad():
            model(*[f(4) for _, f in inputs])
        model.eval()
        with torch.no_grad():
            want = model(*feeds)
            other = model(*[f(2 if dynamic else 1) for _, f in inputs])
        want = [want] if torch.is_tensor(want) else list(want)
        other = [other] if torch.is_tensor(other) else list(other)
        if all(torch.equal(a, b) for a, b in zip(want, other)):
            raise DegenerateReference("torch gives the same outputs for two different inputs")
    axes = None
    if dynamic:
        axes = {n: {0: "batch"} for n in names if not n.startswith("past")}
        axes.update({n: {1: "batch"} for n in names if n.startswith("past")})
    torch.onnx.export(model, tuple(feeds), path, input_names=names,
                      output_names=[f"out{i}" for i in range(len(want))],
                      opset_version=opset, dynamic_axes=axes)
    return [f.numpy() for f in feeds], [w.numpy() for w in want]


def atc(build, onnx_path, om_stem, feeds, names, dynamic):
    cmd = [os.path.join(build, "bin", "atc"), f"--model={onnx_path}", "--framework=5",
           f"--output={om_stem}", "--soc_version=Ascend910B3", "--log=info"]
    if dynamic:
        shapes = []
        for n, f in zip(names, feeds):
            dims = list(f.shape)
            dims[1 if n.startswith("past") else 0] = -1
            shapes.append(f"{n}:" + ",".join(map(str, dims)))
        cmd.append("--input_shape=" + ";".join(shapes))
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    log = r.stdout + r.stderr
    m = re.search(r"(\d+) of (\d+) steps are prepared at run time", log)
    runtime = int(m.group(1)) if m else -1
    reasons = re.findall(r"run-time prepared: (.*)", log)
    return r.returncode, log, runtime, reasons


def run_om(build, om, feeds):
    sys.path.insert(0, os.path.join(build, "python"))
    from acl_infer import InferSession
    with InferSession(0, om) as s:
        return [np.asarray(o) for o in s.infer(feeds)]


def match_detections(got, want, tol):
    """Pairs our detections with torch's: the same label, scores within tolerance, the
    closest box. Scores that agree within tolerance may come in either order, and a detection
    whose score ties the last one kept (within tolerance) may be swapped with its neighbour
    beyond the cut. Returns (got, want) reordered pairwise, or None when they do not pair."""
    n = len(want[1])
    if len(got[1]) != n:
        return None
    scale = max(float(np.abs(want[1]).max()) if n else 0.0, 1e-12)
    box_scale = max(float(np.abs(want[0]).max()) if n else 0.0, 1e-12)
    cut = float(want[1].min()) if n else 0.0
    free = list(range(n))
    pairs, unmatched_want = [], []
    for i in range(n):
        best, best_cost = None, None
        for j in free:
            if got[2][j] != want[2][i] or abs(float(got[1][j]) - float(want[1][i])) > tol * scale:
                continue
            cost = float(np.abs(got[0][j].astype(np.float64) - want[0][i]).max()) / box_scale
            if best is None or cost < best_cost:
                best, best_cost = j, cost
        if best is None:
            unmatched_want.append(i)
        else:
            free.remove(best)
            pairs.append((best, i))
    # What is left must sit at the cut on both sides.
    left_got = free
    if len(unmatched_want) != len(left_got) or any(
            abs(float(want[1][i]) - cut) > tol * scale for i in unmatched_want) or any(
            abs(float(got[1][j]) - cut) > tol * scale for j in left_got):
        return None
    gi = [p[0] for p in pairs]
    wi = [p[1] for p in pairs]
    return [o[gi] for o in got], [o[wi] for o in want]


def compare_outputs(name, got, want):
    """The largest relative error over the outputs (inf when they do not line up);
    detections are paired first."""
    if len(got) != len(want):
        return float("inf")
    if name in DETECTORS and len(got) >= 3:
        # Paired at ten times the tolerance, so that a pair off by more than TOL is measured
        # (and fails) rather than left unpaired.
        matched = match_detections(got, want, 10 * TOL)
        if matched is None:
            return float("inf")
        got, want = matched
    errs = [rel_err(g, w) for g, w in zip(got, want)]
    return max(errs) if errs else float("inf")


def ort_outputs(path, feeds, names):
    """The model's outputs under ONNX Runtime (Python module or onnxruntime-node), or None
    where neither is installed."""
    sys.path.insert(0, os.path.join(SOURCE, "python"))
    import ocann_ort_reference as ref
    feeds = dict(zip(names, feeds))
    try:
        try:
            import onnxruntime  # noqa: F401
            out = ref.run_python_ort(path, feeds)
        except ImportError:
            module = ref.node_module()
            if not module:
                return None
            with tempfile.TemporaryDirectory() as work:
                out = ref.run_node_ort(path, feeds, module, work)
    except (SystemExit, Exception):
        return None
    return [np.asarray(out[f"out{i}"]) for i in range(len(out))]


def rel_err(got, want):
    if got.shape != want.shape:
        return float("inf")
    scale = max(float(np.abs(want).max()), 1e-12)
    return float(np.abs(got.astype(np.float64) - want).max()) / scale


def run_case(build, work, name, make, inputs, opset, dynamic):
    tag = f"{name}_o{opset}{'_dyn' if dynamic else ''}"
    row = {"model": name, "opset": opset, "dynamic": dynamic}
    path = os.path.join(work, tag + ".onnx")
    t0 = time.time()
    try:
        feeds, want = export(make, inputs, path, opset, dynamic)
    except DegenerateReference as e:
        row.update(status="FAIL (reference)", reason=str(e))
        return row
    except Exception as e:  # torch cannot export it: listed with the reason
        row.update(status="not exported", reason=f"{type(e).__name__}: {str(e)[:200]}")
        return row
    rc, log, runtime, reasons = atc(build, path, os.path.join(work, tag), feeds,
                                    [n for n, _ in inputs], dynamic)
    row["runtime_prepared"] = runtime
    if rc != 0:
        err = [line for line in log.splitlines() if re.match(r"E[A-Z0-9]\d{4}", line)]
        row.update(status="FAIL (atc)", reason=(err or log.splitlines()[-1:])[0][:300])
        return row
    try:
        got = run_om(build, os.path.join(work, tag + ".om"), feeds)
    except Exception as e:
        row.update(status="FAIL (run)", reason=str(e)[:300])
        return row
    err = compare_outputs(name, got, want)
    row["max_rel_err"] = err
    row["seconds"] = round(time.time() - t0, 1)
    if not dynamic and runtime > 0:
        row["reason"] = "; ".join(reasons[:3])
    row["status"] = "pass" if err < TOL else "FAIL (accuracy)"
    if err == float("inf"):
        row["reason"] = "the outputs do not pair with torch's"
    if err >= TOL:
        # Is the model itself that sensitive? ONNX Runtime on the same file, where it is here.
        ort = ort_outputs(path, feeds, [n for n, _ in inputs])
        if ort is not None:
            ort_err = compare_outputs(name, ort, want)
            row["ort_rel_err"] = ort_err
            note = f"ONNX Runtime on the same file: {ort_err:.1e} from torch"
            row["reason"] = note if not row.get("reason") else note + "; " + row["reason"]
    for f in os.listdir(work):  # keep the folder small: big models are hundreds of MB
        if f.startswith(tag):
            os.remove(os.path.join(work, f))
    return row


def table(rows):
    lines = ["| model | opset | batch | result | max rel. error | run-time prepared steps | note |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        err = r.get("max_rel_err")
        lines.append("| {} | {} | {} | {} | {} | {} | {} |".format(
            r["model"], r["opset"], "dynamic" if r["dynamic"] else "1", r["status"],
            f"{err:.1e}" if isinstance(err, float) else "", r.get("runtime_prepared", ""),
            r.get("reason", "").replace("|", "/")))
    return "\n".join(lines)


def write_markdown(path, rows):
    passed = sum(r["status"] == "pass" for r in rows)
    with open(path, "w") as f:
        f.write("# Model battery\n\nGenerated by `make models` (`tests/models/battery.py`): "
                "random weights with fixed seeds (nothing downloaded), each model exported at "
                "opsets 13 and 17 and with a dynamic batch axis, converted with atc, run through "
                "pyACL and compared with torch (max |ours − torch| / max |torch| < 1e-4). "
                "\"run-time prepared steps\" counts the nodes atc leaves to the runtime "
                "(`--log=info`): static shapes need none unless their shapes depend on values "
                "(a detector's NonZero, NMS and TopK on its scores). With a dynamic batch, a "
                "step whose shapes hold the batch symbol is prepared once the batch is known; "
                "the symbol itself flows through Shape and the shape arithmetic, so the other "
                "dims, the paddings and the reshape targets are known at compile time.\n\n")
        f.write(f"{passed} of {len(rows)} cases pass.\n\n" + table(rows) + "\n\n")
        for k, v in NO_DYNAMIC.items():
            f.write(f"- {k} has no dynamic-batch case: {v}\n")
        if CONDITIONING_NOTES:
            f.write("\nConditioning:\n\n")
            for k, v in CONDITIONING_NOTES.items():
                f.write(f"- {k}: {v}\n")
        f.write("\nOther opsets:\n\n")
        for k, v in OPSET_NOTES.items():
            f.write(f"- {k}: {v}\n")
        f.write("\nDetectors run on one smooth random image (photographs are smooth; on white "
                "noise float rounding moves boxes by more than the tolerance, for ONNX Runtime "
                "too). Their random heads are calibrated first: each layer after the backbone "
                "is scaled to unit output spread (box regressions to 0.1) and the class layers "
                "get distinct biases, so scores do not saturate or tie. Detections are paired "
                "with torch's by label, score (within tolerance) and closest box; a pair whose "
                "score ties the last one kept may be swapped with its neighbour beyond the "
                "cut.\n")
        if NOT_IN_BATTERY:
            f.write("\nNot in the battery yet:\n\n")
            for k, v in NOT_IN_BATTERY.items():
                f.write(f"- {k}: {v}\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--subset", choices=["quick", "all"], default="all")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--opsets", default="13,17")
    ap.add_argument("--no-dynamic", action="store_true")
    ap.add_argument("--table")
    ap.add_argument("--json")
    ap.add_argument("--work")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    all_cases = cases()
    tried_only = set()
    names = a.only or (QUICK if a.subset == "quick" else
                       [n for n in all_cases if n not in tried_only])
    work = a.work or tempfile.mkdtemp(prefix="ocann_battery_")
    os.makedirs(work, exist_ok=True)
    rows = []
    for name in names:
        make, inputs = all_cases[name]
        opsets = OPSETS.get(name, [int(o) for o in a.opsets.split(",")])
        variants = [(o, False) for o in opsets]
        if not a.no_dynamic and name not in NO_DYNAMIC:
            variants.append((opsets[-1], True))
        for opset, dynamic in variants:
            try:
                row = run_case(build, work, name, make, inputs, opset, dynamic)
            except Exception:
                row = {"model": name, "opset": opset, "dynamic": dynamic,
                       "status": "FAIL (battery)", "reason": traceback.format_exc()[-300:]}
            rows.append(row)
            print(json.dumps(row), flush=True)
    text = table(rows)
    if a.table:
        write_markdown(a.table, rows)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    print(text)
    bad = [r for r in rows if r["status"].startswith("FAIL")]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
