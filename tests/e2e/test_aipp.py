"""Static AIPP (--insert_op_conf) against a numpy implementation of CANN's formulas: the
model input becomes the uint8 image and the model sees swaps -> crop -> colour conversion
-> normalisation -> padding, bit-exact for the integer stages and fp16-rounded after
normalisation."""
import os
import subprocess

import numpy as np
import pytest
import torch

from acl_helpers import OmModel
from conftest import BUILD, atc


class Scale(torch.nn.Module):
    def forward(self, x):
        return x * 1.0  # the model's output is what AIPP fed it


def build(tmp_path, shape, cfg_text, name="m", extra=()):
    src = str(tmp_path / f"{name}.onnx")
    torch.onnx.export(Scale(), torch.zeros(*shape), src, input_names=["x"], output_names=["y"],
                      opset_version=13)
    cfg = tmp_path / f"{name}.cfg"
    cfg.write_text(cfg_text)
    r = atc(f"--model={src}", "--framework=5", f"--output={tmp_path / name}",
            "--soc_version=Ascend910B3", f"--insert_op_conf={cfg}", *extra)
    return r, str(tmp_path / f"{name}.om")


def f16(a):
    return np.asarray(a, np.float32).astype(np.float16).astype(np.float32)


def normalise(img, mean, mn, var):
    """img: H x W x C ints -> C x H x W, (x - mean - min) * var_reci, fp16 result."""
    out = []
    for c in range(img.shape[2]):
        v = (img[:, :, c].astype(np.float32) - np.float32(mean[c]) - f16(mn[c])) * f16(var[c])
        out.append(f16(v))
    return np.stack(out)


def yuv_to_rgb(y, u, v, m, bias):
    yuv = np.stack([y, u, v], -1).astype(np.int64) - np.array(bias, np.int64)
    out = (yuv @ np.array(m, np.int64).T) >> 8
    return np.clip(out, 0, 255)


JPEG = [[256, 0, 359], [256, -88, -183], [256, 454, 0]]  # BT.601 full range, YUV -> RGB


def matrix_lines(m):
    return "".join(f"  matrix_r{i}c{j}: {m[i][j]}\n" for i in range(3) for j in range(3))


def run(om, data):
    m = OmModel(om)
    try:
        return m.run([data])[0]
    finally:
        m.close()


def test_rgb888_crop_padding_normalisation(acl_session, tmp_path):
    cfg = """aipp_op {
  aipp_mode: static
  input_format: RGB888_U8
  src_image_size_w: 14
  src_image_size_h: 12
  crop: true
  load_start_pos_w: 3
  load_start_pos_h: 2
  crop_size_w: 8
  crop_size_h: 6
  padding: true
  left_padding_size: 1
  right_padding_size: 1
  top_padding_size: 1
  bottom_padding_size: 1
  padding_value: 0.5
  rbuv_swap_switch: true
  mean_chn_0: 120
  mean_chn_1: 110
  mean_chn_2: 100
  min_chn_0: 0.5
  var_reci_chn_0: 0.0171
  var_reci_chn_1: 0.0175
  var_reci_chn_2: 0.0174
}
"""
    r, om = build(tmp_path, (1, 3, 8, 10), cfg)
    assert r.returncode == 0, r.stdout
    img = np.random.RandomState(0).randint(0, 256, (1, 12, 14, 3)).astype(np.uint8)
    got = run(om, img).reshape(3, 8, 10)
    crop = img[0, 2:8, 3:11, ::-1]  # rbuv_swap on RGB: R and B swapped
    want = np.full((3, 8, 10), 0.5, np.float32)
    want[:, 1:7, 1:9] = normalise(crop, [120, 110, 100], [0.5, 0, 0], [0.0171, 0.0175, 0.0174])
    np.testing.assert_array_equal(got, want)
    # The model input is the uint8 image.
    mid, _ = acl_session.mdl.load_from_file(om)
    desc = acl_session.mdl.create_desc()
    acl_session.mdl.get_desc(desc, mid)
    assert acl_session.mdl.get_input_data_type(desc, 0) == 4  # ACL_UINT8
    assert acl_session.mdl.get_input_size_by_index(desc, 0) == 12 * 14 * 3
    assert acl_session.mdl.get_input_format(desc, 0) == 1  # ACL_FORMAT_NHWC
    kind, attached, ret = acl_session.mdl.get_aipp_type(mid, 0)
    assert ret == 0 and kind == 1 and attached == 0xFFFFFFFF  # ACL_DATA_WITH_STATIC_AIPP
    info, ret = acl_session.mdl.get_first_aipp_info(mid, 0)
    assert ret == 0, ret
    assert info["input_format"] == 3 and info["src_image_size_w"] == 14  # ACL_RGB888_U8
    assert (info["load_start_pos_w"], info["load_start_pos_h"]) == (3, 2)
    assert (info["crop_size_w"], info["crop_size_h"]) == (8, 6) and info["crop_switch"] == 1
    assert (info["left_padding_size"], info["right_padding_size"]) == (1, 1)
    assert info["mean_chn"][:3] == [120, 110, 100] and info["src_size"] == 12 * 14 * 3
    acl_session.mdl.destroy_desc(desc)
    acl_session.mdl.unload(mid)


@pytest.mark.parametrize("swap", [False, True])
def test_yuv420sp_to_rgb_with_the_jpeg_preset(acl_session, tmp_path, swap):
    h, w = 8, 12
    cfg = ("aipp_op {\n  aipp_mode: static\n  input_format: YUV420SP_U8\n"
           f"  src_image_size_w: {w}\n  src_image_size_h: {h}\n  csc_switch: true\n"
           f"  rbuv_swap_switch: {'true' if swap else 'false'}\n" + matrix_lines(JPEG) +
           "  input_bias_0: 0\n  input_bias_1: 128\n  input_bias_2: 128\n"
           "  mean_chn_0: 104\n  mean_chn_1: 117\n  mean_chn_2: 123\n}\n")
    r, om = build(tmp_path, (1, 3, h, w), cfg, name=f"nv{int(swap)}")
    assert r.returncode == 0, r.stdout
    rs = np.random.RandomState(1)
    y = rs.randint(0, 256, (h, w)).astype(np.uint8)
    uv = rs.randint(0, 256, (h // 2, w)).astype(np.uint8)
    data = np.concatenate([y, uv]).reshape(1, h * 3 // 2, w, 1)
    got = run(om, data).reshape(3, h, w)
    u = np.repeat(np.repeat(uv[:, 0::2], 2, 0), 2, 1)
    v = np.repeat(np.repeat(uv[:, 1::2], 2, 0), 2, 1)
    if swap:  # NV21: V first
        u, v = v, u
    rgb = yuv_to_rgb(y, u, v, JPEG, [0, 128, 128])
    want = normalise(rgb, [104, 117, 123], [0, 0, 0], [1, 1, 1])
    np.testing.assert_array_equal(got, want)


def test_xrgb_with_ax_swap_and_yuv400(acl_session, tmp_path):
    cfg = ("aipp_op {\n  aipp_mode: static\n  input_format: XRGB8888_U8\n"
           "  ax_swap_switch: true\n  var_reci_chn_0: 0.5\n}\n")
    r, om = build(tmp_path, (1, 3, 4, 6), cfg, name="xrgb")
    assert r.returncode == 0, r.stdout
    img = np.random.RandomState(2).randint(0, 256, (1, 4, 6, 4)).astype(np.uint8)
    got = run(om, img).reshape(3, 4, 6)
    want = normalise(img[0, :, :, 0:3], [0, 0, 0], [0, 0, 0], [0.5, 1, 1])  # RGBX with the swap
    np.testing.assert_array_equal(got, want)
    cfg = "aipp_op {\n  aipp_mode: static\n  input_format: YUV400_U8\n  mean_chn_0: 128\n}\n"
    r, om = build(tmp_path, (1, 1, 4, 6), cfg, name="gray")
    assert r.returncode == 0, r.stdout
    img = np.random.RandomState(3).randint(0, 256, (1, 4, 6, 1)).astype(np.uint8)
    got = run(om, img).reshape(1, 4, 6)
    np.testing.assert_array_equal(got, normalise(img[0], [128], [0], [1]))


BAD = [
    ("aipp_op {\n  aipp_mode: static\n  input_format: RGB888_U8\n  colour: 3\n}\n", "colour"),
    ("aipp_op {\n  input_format: RGB888_U8\n  src_image_size_w: 10\n  src_image_size_h: 8\n"
     "  crop: true\n  load_start_pos_w: 4\n  crop_size_w: 8\n  crop_size_h: 8\n}\n", "outside"),
    ("aipp_op {\n  input_format: YUV420SP_U8\n  src_image_size_w: 10\n  src_image_size_h: 9\n"
     "  crop: true\n  crop_size_w: 10\n  crop_size_h: 8\n}\n", "even"),
    ("aipp_op {\n  input_format: RGB888_U8\n  padding: true\n  left_padding_size: 40\n}\n",
     "outside [0, 32]"),
    ("aipp_op {\n  input_format: RGB888_U8\n  src_image_size_w: 5\n}\n", "the model's input"),
    ("aipp_op {\n  input_format: RGB888_U8\n", "not closed"),
]


@pytest.mark.parametrize("text,why", BAD)
def test_malformed_configs_are_refused(tmp_path, text, why):
    r, om = build(tmp_path, (1, 3, 8, 10), text, name="bad")
    assert r.returncode == 1 and "E10001" in r.stdout and "--insert_op_conf" in r.stdout, r.stdout
    assert why in r.stdout, r.stdout
    assert not os.path.exists(om)


def test_aipp_with_dynamic_dims_is_refused(tmp_path):
    cfg = "aipp_op {\n  input_format: RGB888_U8\n}\n"
    r, _ = build(tmp_path, (1, 3, 8, 10), cfg, name="dd",
                 extra=("--input_format=ND", "--input_shape=x:-1,3,8,10", "--dynamic_dims=1;2"))
    assert r.returncode == 1 and "E10001" in r.stdout, r.stdout


class Classifier(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.c2 = torch.nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.fc = torch.nn.Linear(32, 20)

    def forward(self, x):
        x = torch.relu(self.c2(torch.relu(self.c1(x))))
        return self.fc(x.mean(dim=(2, 3)))


def test_classifier_with_aipp_gives_the_top5_of_numpy_preprocessing(acl_session, tmp_path):
    torch.manual_seed(0)
    model = Classifier().eval()  # noqa: the plain model has no AIPP
    src = str(tmp_path / "cls.onnx")
    torch.onnx.export(model, torch.zeros(1, 3, 32, 32), src, input_names=["x"],
                      output_names=["y"], opset_version=13)
    cfg = tmp_path / "aipp.cfg"
    cfg.write_text("aipp_op {\n  aipp_mode: static\n  input_format: RGB888_U8\n"
                   "  mean_chn_0: 124\n  mean_chn_1: 116\n  mean_chn_2: 104\n"
                   "  var_reci_chn_0: 0.0171\n  var_reci_chn_1: 0.0175\n"
                   "  var_reci_chn_2: 0.0174\n}\n")
    for name, extra in (("plain", []), ("aipp", [f"--insert_op_conf={cfg}"])):
        r = atc(f"--model={src}", "--framework=5", f"--output={tmp_path / name}",
                "--soc_version=Ascend910B3", *extra)
        assert r.returncode == 0, r.stdout
    # The compare tool says it does not compare AIPP models, rather than failing obscurely.
    r = subprocess.run([os.path.join(BUILD, "bin", "ocann-compare"), "-m", src, "-om",
                        str(tmp_path / "aipp.om")], capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "AIPP" in r.stderr, r.stdout + r.stderr
    mid, _ = acl_session.mdl.load_from_file(str(tmp_path / "plain.om"))
    kind, _, ret = acl_session.mdl.get_aipp_type(mid, 0)
    assert ret == 0 and kind == 0  # ACL_DATA_WITHOUT_AIPP
    assert acl_session.mdl.get_first_aipp_info(mid, 0)[1] == 100038  # ACL_ERROR_NOT_STATIC_AIPP
    acl_session.mdl.unload(mid)
    for seed in range(3):
        img = np.random.RandomState(seed).randint(0, 256, (32, 32, 3)).astype(np.uint8)
        pre = ((img.astype(np.float32) - np.array([124, 116, 104], np.float32)) *
               np.array([0.0171, 0.0175, 0.0174], np.float32)).transpose(2, 0, 1)[None]
        ref = run(str(tmp_path / "plain.om"), np.ascontiguousarray(pre)).ravel()
        got = run(str(tmp_path / "aipp.om"), img[None]).ravel()
        assert list(np.argsort(-got)[:5]) == list(np.argsort(-ref)[:5])
        torch_out = model(torch.from_numpy(pre)).detach().numpy().ravel()
        assert list(np.argsort(-torch_out)[:5]) == list(np.argsort(-ref)[:5])
        # A C application (examples/c_classify) feeding the raw image bytes agrees.
        (tmp_path / "img.bin").write_bytes(img.tobytes())
        r = subprocess.run([os.path.join(BUILD, "bin", "c_classify"), str(tmp_path / "aipp.om"),
                            str(tmp_path / "img.bin")], capture_output=True, text=True,
                           timeout=300)
        assert r.returncode == 0, r.stdout + r.stderr
        top = [int(t.split(":")[0]) for t in r.stdout.split("top-5:")[1].split()]
        assert top == list(np.argsort(-ref)[:5]), r.stdout


# Colour-conversion presets of the reference (YUV -> RGB rows, input bias); BGR output swaps
# rows 0 and 2.
PRESETS = {
    "jpeg": (JPEG, [0, 128, 128]),
    "bt601_narrow": ([[298, 0, 409], [298, -100, -208], [298, 516, 0]], [16, 128, 128]),
    "bt709_narrow": ([[298, 0, 459], [298, -55, -136], [298, 541, 0]], [16, 128, 128]),
    "bt709_wide": ([[256, 0, 403], [256, -48, -120], [256, 475, 0]], [0, 128, 128]),
}


def planes(fmt, img, h, w):
    """The Y, U, V (or R, G, B) planes numpy reads from the stored image."""
    rep = lambda a: np.repeat(a, 2, 1)  # noqa: E731 - one chroma sample per two pixels
    if fmt == "YUV422SP_U8":
        y, uv = img[:h * w].reshape(h, w), img[h * w:].reshape(h, w)
        return y, rep(uv[:, 0::2]), rep(uv[:, 1::2])
    if fmt == "YUYV_U8":
        row = img.reshape(h, w * 2)
        return row[:, 0::2], rep(row[:, 1::4]), rep(row[:, 3::4])
    px = img.reshape(h, w, 4)
    return px[..., 1], px[..., 2], px[..., 3]  # XRGB / ARGB / AYUV: the pad byte first


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("bgr", [False, True])
def test_every_csc_preset_on_yuv420sp(acl_session, tmp_path, preset, bgr):
    h, w = 6, 8
    m, bias = PRESETS[preset]
    m = [m[2], m[1], m[0]] if bgr else m
    cfg = ("aipp_op {\n  input_format: YUV420SP_U8\n  csc_switch: true\n" + matrix_lines(m) +
           "".join(f"  input_bias_{i}: {b}\n" for i, b in enumerate(bias)) + "}\n")
    r, om = build(tmp_path, (1, 3, h, w), cfg, name=f"p{preset}{int(bgr)}")
    assert r.returncode == 0, r.stdout
    rs = np.random.RandomState(11)
    y = rs.randint(0, 256, (h, w)).astype(np.uint8)
    uv = rs.randint(0, 256, (h // 2, w)).astype(np.uint8)
    got = run(om, np.concatenate([y, uv]).reshape(1, h * 3 // 2, w, 1)).reshape(3, h, w)
    u = np.repeat(np.repeat(uv[:, 0::2], 2, 0), 2, 1)
    v = np.repeat(np.repeat(uv[:, 1::2], 2, 0), 2, 1)
    want = normalise(yuv_to_rgb(y, u, v, m, bias), [0] * 3, [0] * 3, [1] * 3)
    np.testing.assert_array_equal(got, want)


def test_rgb_to_yuv_conversion_with_output_bias(acl_session, tmp_path):
    # BT.601 RGB -> YUV: ((sum M in) >> 8) + output_bias, saturated.
    m = [[66, 129, 25], [-38, -74, 112], [112, -94, -18]]
    ob = [16, 128, 128]
    cfg = ("aipp_op {\n  input_format: RGB888_U8\n  csc_switch: true\n" + matrix_lines(m) +
           "".join(f"  output_bias_{i}: {b}\n" for i, b in enumerate(ob)) + "}\n")
    r, om = build(tmp_path, (1, 3, 4, 6), cfg, name="rgb2yuv")
    assert r.returncode == 0, r.stdout
    img = np.random.RandomState(12).randint(0, 256, (1, 4, 6, 3)).astype(np.uint8)
    got = run(om, img).reshape(3, 4, 6)
    yuv = np.clip(((img[0].astype(np.int64) @ np.array(m).T) >> 8) + np.array(ob), 0, 255)
    np.testing.assert_array_equal(got, normalise(yuv, [0] * 3, [0] * 3, [1] * 3))


@pytest.mark.parametrize("fmt,stored", [("YUV422SP_U8", None), ("YUYV_U8", None),
                                        ("AYUV444_U8", 4), ("ARGB8888_U8", 4),
                                        ("XRGB8888_U8", 4)])
def test_every_input_format_against_numpy(acl_session, tmp_path, fmt, stored):
    h, w = 4, 6
    yuv = fmt.startswith(("YUV", "YUYV", "AYUV"))
    m, bias = PRESETS["bt601_narrow"]
    cfg = f"aipp_op {{\n  input_format: {fmt}\n  mean_chn_1: 3\n  min_chn_2: 0.5\n"
    if yuv:
        cfg += "  csc_switch: true\n" + matrix_lines(m) + "".join(
            f"  input_bias_{i}: {b}\n" for i, b in enumerate(bias))
    cfg += "}\n"
    r, om = build(tmp_path, (1, 3, h, w), cfg, name=fmt.lower())
    assert r.returncode == 0, r.stdout
    nbytes = {"YUV422SP_U8": h * w * 2, "YUYV_U8": h * w * 2}.get(fmt, h * w * 4)
    img = np.random.RandomState(13).randint(0, 256, nbytes).astype(np.uint8)
    shape = (1, h, w, 2) if fmt in ("YUV422SP_U8", "YUYV_U8") else (1, h, w, 4)
    got = run(om, img.reshape(shape)).reshape(3, h, w)
    a, b, c = planes(fmt, img, h, w)
    pix = yuv_to_rgb(a, b, c, m, bias) if yuv else np.stack([a, b, c], -1)
    np.testing.assert_array_equal(got, normalise(pix, [0, 3, 0], [0, 0, 0.5], [1] * 3))


def test_rgb_to_gray_for_a_one_channel_model(acl_session, tmp_path):
    # CANN's DeRain sample: RGB888 converted to YUV (BT.601) and only Y fed to a gray model.
    m = [[77, 150, 29], [-43, -85, 128], [128, -107, -21]]
    cfg = ("aipp_op {\n  aipp_mode: static\n  input_format: RGB888_U8\n  csc_switch: true\n"
           + matrix_lines(m) + "  output_bias_0: 0\n  output_bias_1: 128\n  output_bias_2: 128\n"
           "  var_reci_chn_0: 0.00392156862745098\n}\n")
    r, om = build(tmp_path, (1, 1, 6, 10), cfg)
    assert r.returncode == 0, r.stdout + r.stderr
    img = np.random.default_rng(8).integers(0, 256, (1, 6, 10, 3), dtype=np.uint8)
    y = np.clip((img.astype(np.int64) @ np.array(m[0], np.int64)) >> 8, 0, 255)
    want = f16(y.astype(np.float32) * f16(0.00392156862745098))[:, None]
    np.testing.assert_array_equal(run(om, img), want)
