"""atc --framework=0 on the layers of Caffe forks people still deploy: SSD's Normalize,
PriorBox and DetectionOutput (weiliu89/caffe), PSPNet's Interp, YOLOv3's Upsample. The
convolutions come from torch modules with the same weights; PriorBox and DetectionOutput are
checked against a numpy implementation written here from the SSD paper's and fork's rules."""
import numpy as np
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from acl_infer import InferSession
from caffe_nets import NetWriter, caffe_pb2, conv, t
from conftest import atc

SOC = "--soc_version=Ascend910B3"
CLASSES = 5


@pytest.fixture(scope="module")
def pb(tmp_path_factory):
    return caffe_pb2(str(tmp_path_factory.mktemp("caffe_proto")))


def convert_and_run(tmp_path, writer, feeds, name="net"):
    proto, weights = writer.save(str(tmp_path / name))
    r = atc(f"--model={proto}", f"--weight={weights}", "--framework=0",
            f"--output={tmp_path / name}", SOC)
    assert r.returncode == 0, r.stdout + r.stderr
    with InferSession(0, str(tmp_path / (name + ".om"))) as s:
        return s.infer(feeds)


# --- reference -------------------------------------------------------------------------------

def prior_boxes(fh, fw, img_h, img_w, min_sizes, max_sizes, aspect_ratios, flip, clip,
                variance, step=None, offset=0.5):
    """[1, 2, fh*fw*K*4]: per cell the (w, h) list below, then the variances."""
    ratios = [1.0]
    for r in aspect_ratios:
        if all(abs(r - q) >= 1e-6 for q in ratios):
            ratios.append(r)
            if flip:
                ratios.append(1.0 / r)
    sizes = []
    for i, m in enumerate(min_sizes):
        sizes.append((m, m))
        if max_sizes:
            s = np.sqrt(m * max_sizes[i])
            sizes.append((s, s))
        sizes += [(m * np.sqrt(r), m / np.sqrt(r)) for r in ratios if abs(r - 1) >= 1e-6]
    sizes = np.array(sizes)                                        # [K, 2]
    step_h, step_w = (img_h / fh, img_w / fw) if step is None else (step, step)
    cy = (np.arange(fh) + offset) * step_h
    cx = (np.arange(fw) + offset) * step_w
    cy, cx = np.meshgrid(cy, cx, indexing="ij")                    # [fh, fw]
    cx, cy = cx[..., None], cy[..., None]
    w, h = sizes[:, 0], sizes[:, 1]
    boxes = np.stack([(cx - w / 2) / img_w, (cy - h / 2) / img_h,
                      (cx + w / 2) / img_w, (cy + h / 2) / img_h], -1)  # [fh, fw, K, 4]
    if clip:
        boxes = np.clip(boxes, 0, 1)
    boxes = boxes.reshape(-1)
    var = np.tile(np.broadcast_to(np.asarray(variance, np.float64), (4,)), boxes.size // 4)
    return np.stack([boxes, var])[None].astype(np.float32)


def iou(a, b):
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    if iw <= 0 or ih <= 0:
        return 0.0
    inter = iw * ih
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def detection_output(loc, conf, prior, num_classes, nms_threshold, top_k, keep_top_k,
                     confidence_threshold, eta=1.0, background=0):
    """CENTER_SIZE decoding with the prior variances, shared locations, per-class greedy
    NMS (its threshold shrinking by eta after each kept box while above 0.5); rows (image,
    label, score, box) by label, then score."""
    p = prior.shape[2] // 4
    pb, var = prior[0, 0].reshape(p, 4).astype(np.float64), prior[0, 1].reshape(p, 4)
    rows = []
    for i in range(loc.shape[0]):
        d = loc[i].reshape(p, 4).astype(np.float64)
        pw, ph = pb[:, 2] - pb[:, 0], pb[:, 3] - pb[:, 1]
        cx = var[:, 0] * d[:, 0] * pw + (pb[:, 0] + pb[:, 2]) / 2
        cy = var[:, 1] * d[:, 1] * ph + (pb[:, 1] + pb[:, 3]) / 2
        w, h = np.exp(var[:, 2] * d[:, 2]) * pw, np.exp(var[:, 3] * d[:, 3]) * ph
        boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)
        scores = conf[i].reshape(p, num_classes)
        kept = []
        for c in range(num_classes):
            if c == background:
                continue
            order = [j for j in np.argsort(-scores[:, c], kind="stable")
                     if scores[j, c] > confidence_threshold]
            if top_k is not None:
                order = order[:top_k]
            chosen, threshold = [], nms_threshold
            for j in order:
                if all(iou(boxes[j], boxes[k]) <= threshold for k in chosen):
                    chosen.append(j)
                    if eta < 1 and threshold > 0.5:
                        threshold *= eta
            kept += [(c, j) for j in chosen]
        if keep_top_k > -1 and len(kept) > keep_top_k:
            kept = sorted(kept, key=lambda cj: -scores[cj[1], cj[0]])[:keep_top_k]
            kept = sorted(kept, key=lambda cj: (cj[0], -scores[cj[1], cj[0]]))
        rows += [[i, c, scores[j, c], *boxes[j]] for c, j in kept]
    return np.array(rows, np.float32).reshape(1, 1, -1, 7)


# --- the SSD head ----------------------------------------------------------------------------

class SsdHead(nn.Module):
    """Two feature maps (16x16 normalized, 8x8), a loc and a conf conv on each."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, stride=2, padding=1)
        self.c2 = nn.Conv2d(8, 16, 3, stride=2, padding=1)
        self.norm_scale = nn.Parameter(torch.rand(8) * 10 + 5)
        self.loc1 = nn.Conv2d(8, 4 * 4, 3, padding=1)
        self.conf1 = nn.Conv2d(8, 4 * CLASSES, 3, padding=1)
        self.loc2 = nn.Conv2d(16, 6 * 4, 3, padding=1)
        self.conf2 = nn.Conv2d(16, 6 * CLASSES, 3, padding=1)

    def forward(self, x):
        a = torch.relu(self.c1(x))
        an = a / torch.sqrt((a * a).sum(1, keepdim=True) + 1e-10) * self.norm_scale.view(1, -1, 1, 1)
        b = torch.relu(self.c2(a))
        flat = lambda y: y.permute(0, 2, 3, 1).flatten(1)
        loc = torch.cat([flat(self.loc1(an)), flat(self.loc2(b))], 1)
        conf = torch.cat([flat(self.conf1(an)), flat(self.conf2(b))], 1)
        conf = torch.softmax(conf.reshape(x.shape[0], -1, CLASSES), 2).flatten(1)
        return loc, conf


PRIOR1 = dict(min_size=[6.0], max_size=[12.0], aspect_ratio=[2.0], flip=True,
              variance=[0.1, 0.1, 0.2, 0.2], img_size=32, step=2.0)
PRIOR2 = dict(min_size=[12.0], max_size=[24.0], aspect_ratio=[2.0, 3.0], flip=True, clip=True,
              variance=[0.15])
DETECT = dict(num_classes=CLASSES, share_location=True, background_label_id=0,
              nms_param=dict(nms_threshold=0.45, top_k=40), code_type=2, keep_top_k=25,
              confidence_threshold=0.3)


def ssd_net(pb, m, with_detection):
    w = NetWriter(pb, "ssd", [1, 3, 32, 32])
    conv(w, "conv1", "data", "conv1", m.c1)
    w.layer("relu1", "ReLU", ["conv1"], ["conv1"])
    w.layer("norm1", "Normalize", ["conv1"], ["norm1"], [t(m.norm_scale)],
            norm_param=dict(across_spatial=False, channel_shared=False))
    conv(w, "conv2", "conv1", "conv2", m.c2)
    w.layer("relu2", "ReLU", ["conv2"], ["conv2"])
    for k, feat, prior in ((1, "norm1", PRIOR1), (2, "conv2", PRIOR2)):
        for head in ("loc", "conf"):
            name = f"{head}{k}"
            conv(w, name, feat, name, getattr(m, name))
            w.layer(name + "_perm", "Permute", [name], [name + "_perm"],
                    permute_param=dict(order=[0, 2, 3, 1]))
            w.layer(name + "_flat", "Flatten", [name + "_perm"], [name + "_flat"])
        w.layer(f"prior{k}", "PriorBox", [feat, "data"], [f"prior{k}"], prior_box_param=prior)
    w.layer("mbox_loc", "Concat", ["loc1_flat", "loc2_flat"], ["mbox_loc"])
    w.layer("mbox_conf", "Concat", ["conf1_flat", "conf2_flat"], ["mbox_conf"])
    w.layer("mbox_priorbox", "Concat", ["prior1", "prior2"], ["mbox_priorbox"],
            concat_param=dict(axis=2))
    w.layer("conf_reshape", "Reshape", ["mbox_conf"], ["conf_reshape"],
            reshape_param=dict(shape=dict(dim=[0, -1, CLASSES])))
    w.layer("conf_softmax", "Softmax", ["conf_reshape"], ["conf_softmax"],
            softmax_param=dict(axis=2))
    w.layer("conf_flat", "Flatten", ["conf_softmax"], ["conf_flat"])
    if with_detection:
        w.layer("detection_out", "DetectionOutput", ["mbox_loc", "conf_flat", "mbox_priorbox"],
                ["detection_out"], detection_output_param=DETECT)
    return w


@pytest.fixture(scope="module")
def ssd():
    torch.manual_seed(7)
    m = SsdHead().eval()
    x = np.random.RandomState(7).randn(1, 3, 32, 32).astype(np.float32)
    with torch.no_grad():
        loc, conf = (y.numpy() for y in m(torch.from_numpy(x)))
    prior = np.concatenate([
        prior_boxes(16, 16, 32, 32, [6.0], [12.0], [2.0], True, False, [0.1, 0.1, 0.2, 0.2],
                    step=2.0),
        prior_boxes(8, 8, 32, 32, [12.0], [24.0], [2.0, 3.0], True, True, [0.15])], 2)
    return m, x, loc, conf, prior


def test_ssd_head_normalize_and_priorbox_match(acl_session, tmp_path, pb, ssd):
    m, x, loc, conf, prior = ssd
    outs = convert_and_run(tmp_path, ssd_net(pb, m, False), [x])
    by_size = {o.size: o for o in outs}
    assert len(by_size) == 3, [o.shape for o in outs]
    np.testing.assert_allclose(by_size[loc.size].reshape(loc.shape), loc, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(by_size[conf.size].reshape(conf.shape), conf, rtol=1e-4, atol=1e-5)
    got_prior = by_size[prior.size]
    assert got_prior.shape == prior.shape == (1, 2, (16 * 16 * 4 + 8 * 8 * 6) * 4)
    np.testing.assert_allclose(got_prior, prior, rtol=0, atol=1e-6)


@pytest.mark.parametrize("nms_threshold,top_k,keep_top_k,eta,rows", [
    (0.45, 40, 25, 1.0, 25),    # keep_top_k cuts across classes
    (0.3, None, -1, 1.0, 347),  # every box NMS keeps
    (0.8, 100, -1, 0.9, 314),   # adaptive NMS (384 without eta)
])
def test_ssd_detection_output_matches_the_reference(acl_session, tmp_path, pb, ssd,
                                                    nms_threshold, top_k, keep_top_k, eta, rows):
    m, x, loc, conf, prior = ssd
    w = ssd_net(pb, m, False)
    nms = dict(nms_threshold=nms_threshold, eta=eta, **({} if top_k is None else dict(top_k=top_k)))
    w.layer("detection_out", "DetectionOutput", ["mbox_loc", "conf_flat", "mbox_priorbox"],
            ["detection_out"],
            detection_output_param=dict(DETECT, nms_param=nms, keep_top_k=keep_top_k))
    (got,) = convert_and_run(tmp_path, w, [x])
    want = detection_output(loc, conf, prior, CLASSES, nms_threshold, top_k, keep_top_k, 0.3,
                            eta)
    # The reference's row count pins the case down: NMS and the cuts must all matter.
    assert want.shape[2] == rows
    assert len(set(want[0, 0, :, 1])) > 1, "the test should keep several classes"
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_array_equal(got[0, 0, :, :2], want[0, 0, :, :2])
    np.testing.assert_allclose(got[0, 0, :, 2:], want[0, 0, :, 2:], rtol=1e-4, atol=1e-4)


def test_detection_output_with_nothing_above_threshold(acl_session, tmp_path, pb, ssd):
    m, x, _, _, _ = ssd
    w = ssd_net(pb, m, False)
    w.layer("detection_out", "DetectionOutput", ["mbox_loc", "conf_flat", "mbox_priorbox"],
            ["detection_out"], detection_output_param=dict(DETECT, confidence_threshold=0.999))
    (got,) = convert_and_run(tmp_path, w, [x])
    # Caffe's answer when nothing is found: one row of -1 per image, the image index kept.
    np.testing.assert_array_equal(got, [[[[0, -1, -1, -1, -1, -1, -1]]]])


def test_cann_ssd_detection_output_layer(acl_session, tmp_path, pb, ssd):
    """CANN's SSDDetectionOutput layer (its caffe.proto's ssddetectionoutput_param, as CANN's
    VGG_SSD samples use it): the same boxes, as a count per image (int32 [N, 8]) and a
    [N, keep_top_k, 8] table padded with zeros."""
    m, x, loc, conf, prior = ssd
    w = ssd_net(pb, m, False)
    w.layer("detection_out", "SSDDetectionOutput", ["mbox_loc", "conf_flat", "mbox_priorbox"],
            ["out_boxnum", "y"],
            ssddetectionoutput_param=dict(num_classes=CLASSES, iou_threshold=0.45, top_k=40,
                                          keep_top_k=30, confidence_threshold=0.3, code_type=2))
    count, table = convert_and_run(tmp_path, w, [x])
    want = detection_output(loc, conf, prior, CLASSES, 0.45, 40, 30, 0.3, 1.0)[0, 0]
    assert count.dtype == np.int32 and count.shape == (1, 8) and table.shape == (1, 30, 8)
    assert count[0, 0] == len(want) == 30 and not count[0, 1:].any()
    np.testing.assert_array_equal(table[0, :, :2], want[:, :2])
    np.testing.assert_allclose(table[0, :, 2:7], want[:, 2:], rtol=1e-4, atol=1e-4)
    assert not table[0, :, 7].any()


# --- resizing layers -------------------------------------------------------------------------

@pytest.mark.parametrize("param,size", [(dict(zoom_factor=2), (15, 19)),
                                        (dict(shrink_factor=2), (4, 5)),
                                        (dict(height=11, width=6), (11, 6)),
                                        (dict(zoom_factor=3, shrink_factor=2), (10, 13))])
def test_interp_is_bilinear_with_corners_aligned(acl_session, tmp_path, pb, param, size):
    torch.manual_seed(5)
    c = nn.Conv2d(3, 4, 1)
    w = NetWriter(pb, "interp", [2, 3, 8, 10])
    conv(w, "conv", "data", "conv", c)
    w.layer("interp", "Interp", ["conv"], ["interp"], interp_param=param)
    x = np.random.RandomState(5).randn(2, 3, 8, 10).astype(np.float32)
    (got,) = convert_and_run(tmp_path, w, [x])
    with torch.no_grad():
        want = F.interpolate(c(torch.from_numpy(x)), size=size, mode="bilinear",
                             align_corners=True).numpy()
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_upsample_is_nearest_by_scale(acl_session, tmp_path, pb):
    w = NetWriter(pb, "up", [1, 2, 3, 4])
    w.layer("up", "Upsample", ["data"], ["up"], upsample_param=dict(scale=2))
    w.layer("up3", "Upsample", ["up"], ["up3"], upsample_param=dict(scale_h=3, scale_w=1))
    x = np.random.RandomState(6).randn(1, 2, 3, 4).astype(np.float32)
    (got,) = convert_and_run(tmp_path, w, [x])
    want = np.repeat(np.repeat(x, 2, 2), 2, 3).repeat(3, 2)
    np.testing.assert_array_equal(got, want)


# --- refusals --------------------------------------------------------------------------------

@pytest.mark.parametrize("layer,bottoms,params,code,words", [
    ("PriorBox", ["data", "data"], dict(prior_box_param=dict(max_size=[4.0])), "E19005",
     "needs min_size"),
    ("PriorBox", ["data", "data"], dict(prior_box_param=dict(min_size=[4.0], max_size=[2.0])),
     "E19005", "max_size must exceed min_size"),
    ("PriorBox", ["data", "data"],
     dict(prior_box_param=dict(min_size=[4.0], variance=[0.1, 0.2])), "E19005",
     "1 or 4 variance"),
    ("PriorBox", ["data"], dict(prior_box_param=dict(min_size=[4.0])), "E19005",
     "feature map and the image"),
    ("DetectionOutput", ["data", "data", "data"], dict(), "E19005", "needs num_classes"),
    ("DetectionOutput", ["data", "data"], dict(detection_output_param=dict(num_classes=2)),
     "E19010", "bottoms other than loc, conf and prior"),
    ("Upsample", ["data", "data"], dict(), "E19010", "max-unpooling"),
    ("Upsample", ["data"], dict(upsample_param=dict(upsample_h=8, upsample_w=8)), "E19010",
     "SegNet"),
    ("Interp", ["data"], dict(interp_param=dict(zoom_factor=2, pad_beg=-1)), "E19010",
     "pad_beg"),
    ("Interp", ["data"], dict(), "E19005", "needs height and width"),
])
def test_fork_layer_refusals(tmp_path, pb, layer, bottoms, params, code, words):
    w = NetWriter(pb, "bad", [1, 2, 4, 4])
    w.layer("l", layer, bottoms, ["out"], **params)
    proto, weights = w.save(str(tmp_path / "bad"))
    r = atc(f"--model={proto}", f"--weight={weights}", "--framework=0",
            f"--output={tmp_path / 'bad'}", SOC)
    assert r.returncode != 0
    assert code in r.stdout + r.stderr and words in r.stdout + r.stderr, r.stdout + r.stderr
    assert not (tmp_path / "bad.om").exists()


def test_detection_output_shapes_are_checked(tmp_path, pb):
    """conf that does not hold num_classes scores per prior is a clear compile error."""
    w = NetWriter(pb, "bad", [1, 3, 8, 8])
    w.layer("prior", "PriorBox", ["data", "data"], ["prior"],
            prior_box_param=dict(min_size=[2.0]))
    w.layer("flat", "Flatten", ["data"], ["flat"])
    w.layer("det", "DetectionOutput", ["flat", "flat", "prior"], ["det"],
            detection_output_param=dict(num_classes=3))
    proto, weights = w.save(str(tmp_path / "bad"))
    r = atc(f"--model={proto}", f"--weight={weights}", "--framework=0",
            f"--output={tmp_path / 'bad'}", SOC)
    assert r.returncode != 0
    assert "priors" in r.stdout + r.stderr, r.stdout + r.stderr


# --- CANN's YOLOv3 layers --------------------------------------------------------------------

def yolo_reference(heads, info, biases, classes, softmax, obj_t, score_t, iou_t, pre, post):
    """Darknet's YOLOv3 inference post-processing in numpy, for one image: heads [(raw head
    [B*(5+C), H, W])], info (net H, net W, image H, image W); returns rows (x1, y1, x2, y2,
    score, label) best first."""
    net_h, net_w, img_h, img_w = info
    if net_w / img_w < net_h / img_h:
        new_w, new_h = net_w, img_h * net_w / img_w
    else:
        new_w, new_h = img_w * net_h / img_h, net_h
    sig = lambda v: 1 / (1 + np.exp(-v))
    cand = {c: [] for c in range(classes)}
    for head, bias in zip(heads, biases):
        h, w = head.shape[1:]
        boxes = len(bias) // 2
        for b in range(boxes):
            p = head[b * (5 + classes):(b + 1) * (5 + classes)].astype(np.float64)
            cls = p[5:]
            cls = np.exp(cls - cls.max(0)) / np.exp(cls - cls.max(0)).sum(0) if softmax else sig(cls)
            for r in range(h):
                for col in range(w):
                    obj = sig(p[4, r, col])
                    if obj <= obj_t:
                        continue
                    x = (col + sig(p[0, r, col])) / w
                    y = (r + sig(p[1, r, col])) / h
                    bw = np.exp(p[2, r, col]) * bias[2 * b] / net_w
                    bh = np.exp(p[3, r, col]) * bias[2 * b + 1] / net_h
                    x = (x - (net_w - new_w) / 2 / net_w) / (new_w / net_w)
                    y = (y - (net_h - new_h) / 2 / net_h) / (new_h / net_h)
                    bw, bh = bw * net_w / new_w, bh * net_h / new_h
                    box = [(x - bw / 2) * img_w, (y - bh / 2) * img_h, (x + bw / 2) * img_w,
                           (y + bh / 2) * img_h]
                    for c in range(classes):
                        if obj * cls[c, r, col] > score_t:
                            cand[c].append(box + [obj * cls[c, r, col], c])
    kept = []
    for c in range(classes):
        rows = sorted(cand[c], key=lambda v: -v[4])[:pre]
        mine = []
        for d in rows:
            if all(iou(d[:4], k[:4]) <= iou_t for k in mine):
                mine.append(d)
        kept += mine
    return np.array(sorted(kept, key=lambda v: -v[4])[:post]).reshape(-1, 6)


def test_cann_yolov3_layers(acl_session, tmp_path, pb):
    """CANN's Yolo and YoloV3DetectionOutput layers (its YOLOv3 samples' prototxt): three heads
    decoded, letterboxed to the image size of img_info, per-class NMS; box_out holds x1, y1,
    x2, y2, score, label of the K boxes back to back, box_out_num K first."""
    torch.manual_seed(3)
    C, B = 2, 3
    convs = [nn.Conv2d(3, B * (5 + C), 1, stride=s) for s in (8, 4, 2)]
    w = NetWriter(pb, "yolo", [1, 3, 32, 32])
    layer = w.net.layer.add(name="img_info", type="Input", top=["img_info"])
    layer.input_param.shape.add(dim=[1, 4])
    biases = [[40, 50, 60, 70, 80, 90], [12, 16, 20, 24, 28, 32], [4, 5, 6, 7, 8, 9]]
    for i, m in enumerate(convs, 1):
        conv(w, f"head{i}", "data", f"head{i}", m)
        w.layer(f"yolo{i}", "Yolo", [f"head{i}"], [f"yolo{i}_coords", f"yolo{i}_obj",
                                                  f"yolo{i}_classes"],
                yolo_param=dict(boxes=B, coords=4, classes=C, yolo_version="V3", softmax=True))
    params = dict(boxes=B, classes=C, relative=True, obj_threshold=0.3, score_threshold=0.2,
                  iou_threshold=0.45, pre_nms_topn=20, post_nms_topn=16,
                  biases_high=biases[0], biases_mid=biases[1], biases_low=biases[2])
    w.layer("detection_out3", "YoloV3DetectionOutput",
            [f"yolo{i}_{k}" for k in ("coords", "obj", "classes") for i in (1, 2, 3)] +
            ["img_info"], ["box_out", "box_out_num"], yolov3_detection_output_param=params)
    x = np.random.RandomState(5).randn(1, 3, 32, 32).astype(np.float32)
    info = np.array([[32, 32, 48, 64]], np.float32)  # net H, W; image H, W (letterboxed)
    box_out, count = convert_and_run(tmp_path, w, [x, info])
    assert box_out.shape == (1, 6 * 16) and count.shape == (1, 8) and count.dtype == np.int32
    with torch.no_grad():
        heads = [m(torch.from_numpy(x))[0].numpy() for m in convs]
    want = yolo_reference(heads, info[0], biases, C, True, 0.3, 0.2, 0.45, 20, 16)
    k = count[0, 0]
    assert k == len(want) and 2 < k <= 16, (k, len(want))
    got = box_out[0, :6 * k].reshape(6, k).T
    np.testing.assert_array_equal(got[:, 5], want[:, 5])
    np.testing.assert_allclose(got[:, :5], want[:, :5], rtol=1e-4, atol=1e-3)
    assert not box_out[0, 6 * k:].any() and not count[0, 1:].any()
    # pre_nms_topn outside 1..1024 is refused at conversion, not run with a huge buffer.
    layer = next(lyr for lyr in w.net.layer if lyr.name == "detection_out3")
    layer.yolov3_detection_output_param.pre_nms_topn = -1
    proto, weights = w.save(str(tmp_path / "bad_topn"))
    r = atc(f"--model={proto}", f"--weight={weights}", "--framework=0",
            f"--output={tmp_path / 'bad_topn'}", SOC)
    assert r.returncode != 0 and "pre_nms_topn" in r.stdout + r.stderr, r.stdout + r.stderr
