"""DVPP through pyACL's acl.media as CANN's samples use it: JPEG decoding against Pillow's
libjpeg, VPC resize / crop-and-paste against a numpy transcription of OpenCV's bilinear and
nearest rules, and the chips' rules (strides, DVPP memory, regions, ratios) refused with
CANN's codes. The runtime's chip is the default Ascend910B3; the 310/310P rules run in a child
process with OCANN_SOC."""
import io
import json
import os
import subprocess
import textwrap

import numpy as np
import pytest
from PIL import Image

from conftest import BUILD, PY

NV12, NV21, YUV400, RGB888, BGR888, UNKNOWN = 1, 2, 0, 12, 13, 10000
INVALID, UNSUPPORTED, BAD_JPEG = 100000, 200006, 148052


def jpeg_bytes(w, h, seed=0, mode="RGB", sharp=False, **kw):
    rng = np.random.default_rng(seed)
    # A smooth picture with edges: JPEG keeps it close, so the references are meaningful.
    yy, xx = np.mgrid[0:h, 0:w]
    base = np.stack([(xx * 255 // max(w - 1, 1)), (yy * 255 // max(h - 1, 1)),
                     ((xx + yy) * 255 // (w + h))], -1).astype(np.uint8)
    if sharp:
        base[h // 3:h // 2, w // 4:w // 2] = rng.integers(0, 255, 3)
    img = Image.fromarray(base if mode == "RGB" else base[..., 0], mode)
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=92, **kw)
    return buf.getvalue()


class Dvpp:
    """A channel, device buffers from acldvppMalloc, pictures in and out."""

    def __init__(self, acl):
        self.acl, self.m = acl, acl.media
        self.chan = self.m.dvpp_create_channel_desc()
        assert self.m.dvpp_create_channel(self.chan) == 0
        self.stream, ret = acl.rt.create_stream()
        assert ret == 0
        self.buffers, self.descs = [], []

    def buffer(self, data=None, size=None):
        size = size if size is not None else len(data)
        ptr, ret = self.m.dvpp_malloc(size)
        assert ret == 0
        self.buffers.append(ptr)
        if data is not None:
            arr = np.frombuffer(data, np.uint8) if isinstance(data, bytes) else data
            assert self.acl.rt.memcpy(ptr, size, self.acl.util.numpy_to_ptr(arr), arr.nbytes, 1) == 0
        return ptr

    def pic(self, ptr, size, fmt, w, h, ws, hs):
        p = self.m.dvpp_create_pic_desc()
        self.descs.append(p)
        for setter, v in (("data", ptr), ("size", size), ("format", fmt), ("width", w),
                          ("height", h), ("width_stride", ws), ("height_stride", hs)):
            assert getattr(self.m, "dvpp_set_pic_desc_" + setter)(p, v) == 0
        return p

    def read(self, ptr, size):
        out = np.empty(size, np.uint8)
        assert self.acl.rt.memcpy(self.acl.util.numpy_to_ptr(out), size, ptr, size, 2) == 0
        return out

    def close(self):
        for p in self.descs:
            self.m.dvpp_destroy_pic_desc(p)
        for b in self.buffers:
            self.m.dvpp_free(b)
        self.m.dvpp_destroy_channel(self.chan)
        self.m.dvpp_destroy_channel_desc(self.chan)
        self.acl.rt.destroy_stream(self.stream)


@pytest.fixture
def dvpp(acl_session):
    d = Dvpp(acl_session)
    yield d
    d.close()


def nv12_planes(buf, w, h, ws, hs, swap=False):
    y = buf[:ws * hs].reshape(hs, ws)[:h, :w]
    uv = buf[ws * hs:ws * hs * 3 // 2].reshape(hs // 2, ws)[:(h + 1) // 2, :((w + 1) // 2) * 2]
    u, v = uv[:, 0::2], uv[:, 1::2]
    return (y, v, u) if swap else (y, u, v)


def align(v, a):
    return (v + a - 1) // a * a


@pytest.mark.parametrize("w,h,subsampling", [(96, 64, 2), (101, 67, 2), (80, 48, 0)])
def test_jpeg_decode_matches_libjpeg(dvpp, w, h, subsampling):
    m = dvpp.m
    data = jpeg_bytes(w, h, subsampling=subsampling)
    src = dvpp.buffer(data)
    iw, ih, comps, ret = m.dvpp_jpeg_get_image_info(src, len(data))
    assert (iw, ih, comps, ret) == (w, h, 3, 0)
    *_, fmt, ret = m.dvpp_jpeg_get_image_info_v2(src, len(data))
    assert ret == 0 and fmt == {2: 2, 0: 0}[subsampling]  # ACL_JPEG_CSS_420 / 444
    ws, hs = align(w, 64), align(h, 16)  # 910B: JPEGD writes 64x16-aligned strides
    size, ret = m.dvpp_jpeg_predict_dec_size(src, len(data), NV12)
    assert ret == 0 and size == ws * hs * 3 // 2
    out = dvpp.buffer(size=size)
    pic = dvpp.pic(out, size, NV12, w, h, ws, hs)
    assert m.dvpp_jpeg_decode_async(dvpp.chan, src, len(data), pic, dvpp.stream) == 0
    assert dvpp.acl.rt.synchronize_stream(dvpp.stream) == 0
    assert m.dvpp_get_pic_desc_ret_code(pic) == 0
    assert (m.dvpp_get_pic_desc_width(pic), m.dvpp_get_pic_desc_height(pic)) == (w, h)
    y, u, v = nv12_planes(dvpp.read(out, size), w, h, ws, hs)
    img = Image.open(io.BytesIO(data))
    img.draft("YCbCr", img.size)  # libjpeg's own YCbCr output: the luma is exact
    ref = np.asarray(img).astype(np.int32)
    np.testing.assert_array_equal(y, ref[..., 0])
    # Chroma: 4:2:0 samples (libjpeg's smooth upsampling, averaged back, is within 3).
    pad = np.pad(ref, ((0, h % 2), (0, w % 2), (0, 0)), mode="edge")
    blocks = pad.reshape(pad.shape[0] // 2, 2, pad.shape[1] // 2, 2, 3).mean((1, 3))
    assert np.abs(u - blocks[..., 1]).max() <= 3 and np.abs(v - blocks[..., 2]).max() <= 3


@pytest.mark.parametrize("subsampling,fmt,factor,sx", [(0, 6, 3, 1), (1, 4, 2, 2)])
def test_jpeg_decode_keeps_the_source_sampling(dvpp, subsampling, fmt, factor, sx):
    """PIXEL_FORMAT_UNKNOWN: 4:4:4 and 4:2:2 sources decode to YVU444SP / YVU422SP."""
    m = dvpp.m
    w, h = 96, 64
    data = jpeg_bytes(w, h, subsampling=subsampling)
    src = dvpp.buffer(data)
    ws, hs = align(w, 64), align(h, 16)  # 910B: JPEGD writes 64x16-aligned strides
    size, ret = m.dvpp_jpeg_predict_dec_size(src, len(data), UNKNOWN)
    assert ret == 0 and size == ws * hs * factor
    out = dvpp.buffer(size=size)
    pic = dvpp.pic(out, size, UNKNOWN, w, h, ws, hs)
    assert m.dvpp_jpeg_decode_async(dvpp.chan, src, len(data), pic, dvpp.stream) == 0
    assert dvpp.acl.rt.synchronize_stream(dvpp.stream) == 0
    assert m.dvpp_get_pic_desc_format(pic) == fmt
    raw = dvpp.read(out, size).astype(np.int32)
    img = Image.open(io.BytesIO(data))
    img.draft("YCbCr", img.size)
    ref = np.asarray(img).astype(np.int32)
    np.testing.assert_array_equal(raw[:ws * hs].reshape(hs, ws)[:h, :w], ref[..., 0])
    rows = raw[ws * hs:].reshape(hs, ws * 2 // sx)[:h, :w * 2 // sx]
    vu = rows.reshape(h, w // sx, 2)  # V first
    cb = ref[..., 1].reshape(h, w // sx, sx).mean(2)
    cr = ref[..., 2].reshape(h, w // sx, sx).mean(2)
    assert np.abs(vu[..., 0] - cr).max() <= 3 and np.abs(vu[..., 1] - cb).max() <= 3


def test_bad_jpegs_are_errors(dvpp):
    m = dvpp.m
    good = jpeg_bytes(64, 48)
    garbage = dvpp.buffer(b"\xff\xd8" + bytes(200))
    assert m.dvpp_jpeg_get_image_info(garbage, 202)[-1] == BAD_JPEG
    progressive = jpeg_bytes(64, 48, progressive=True)
    p = dvpp.buffer(progressive)
    assert m.dvpp_jpeg_predict_dec_size(p, len(progressive), NV12)[1] == UNSUPPORTED
    out = dvpp.buffer(size=64 * 48 * 2)
    pic = dvpp.pic(out, 64 * 48 * 2, NV12, 64, 48, 64, 48)
    assert m.dvpp_jpeg_decode_async(dvpp.chan, p, len(progressive), pic, dvpp.stream) == UNSUPPORTED
    # Truncated: an error, never a picture made up of padding.
    n = len(good) - 60  # inside the entropy-coded data
    cut = dvpp.buffer(good[:n])
    assert m.dvpp_jpeg_decode_async(dvpp.chan, cut, n, pic, dvpp.stream) == INVALID
    assert "truncated" in dvpp.acl.get_recent_err_msg()
    head = dvpp.buffer(good[:40])  # inside the headers
    assert m.dvpp_jpeg_decode_async(dvpp.chan, head, 40, pic, dvpp.stream) == INVALID
    # PIXEL_FORMAT_UNKNOWN means the source's own sampling (4:4:4 here, 3 bytes a pixel):
    # a buffer sized for 2 is too small.
    full = jpeg_bytes(64, 48, subsampling=0)
    f = dvpp.buffer(full)
    assert m.dvpp_jpeg_predict_dec_size(f, len(full), UNKNOWN) == (64 * 48 * 3, 0)
    assert m.dvpp_jpeg_decode_async(dvpp.chan, f, len(full),
                                    dvpp.pic(out, 64 * 48 * 2, UNKNOWN, 64, 48, 64, 48),
                                    dvpp.stream) == INVALID
    small = jpeg_bytes(16, 16)
    s = dvpp.buffer(small)
    assert m.dvpp_jpeg_decode_async(dvpp.chan, s, len(small), pic, dvpp.stream) == INVALID
    assert "32x32 to 8192x8192" in dvpp.acl.get_recent_err_msg()


def bilinear(src, dw, dh):
    """OpenCV's INTER_LINEAR (half-pixel centres) in float64, one channel."""
    sh, sw = src.shape
    def taps(s, d):
        x = (np.arange(d) + 0.5) * s / d - 0.5
        x = np.maximum(x, 0)
        i0 = np.floor(x).astype(int)
        w = x - i0
        last = i0 >= s - 1
        i0[last], w[last] = s - 1, 0
        return i0, np.minimum(i0 + 1, s - 1), w
    x0, x1, wx = taps(sw, dw)
    y0, y1, wy = taps(sh, dh)
    s = src.astype(np.float64)
    top = s[y0][:, x0] * (1 - wx) + s[y0][:, x1] * wx
    bot = s[y1][:, x0] * (1 - wx) + s[y1][:, x1] * wx
    return np.clip(np.round(top * (1 - wy)[:, None] + bot * wy[:, None]), 0, 255)


def nearest(src, dw, dh):
    sh, sw = src.shape
    xs = np.minimum(np.floor(np.arange(dw) * sw / dw).astype(int), sw - 1)
    ys = np.minimum(np.floor(np.arange(dh) * sh / dh).astype(int), sh - 1)
    return src[ys][:, xs]


def nv12_image(w, h, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 256, (h, w), dtype=np.uint8)
    uv = rng.integers(0, 256, (h // 2, w), dtype=np.uint8)
    return y, uv


@pytest.mark.parametrize("interp", [1, 2])
def test_resize_nv12_follows_opencv(dvpp, interp):
    m = dvpp.m
    w, h, ow, oh = 64, 48, 40, 30
    y, uv = nv12_image(w, h, 1)
    src = dvpp.buffer(np.concatenate([y.ravel(), uv.ravel()]))
    out_size = ow * oh * 3 // 2
    out = dvpp.buffer(size=out_size)
    pin = dvpp.pic(src, w * h * 3 // 2, NV12, w, h, w, h)
    pout = dvpp.pic(out, out_size, NV21, ow, oh, ow, oh)
    rc = m.dvpp_create_resize_config()
    assert m.dvpp_set_resize_config_interpolation(rc, interp) == 0
    assert m.dvpp_vpc_resize_async(dvpp.chan, pin, pout, rc, dvpp.stream) == 0
    assert dvpp.acl.rt.synchronize_stream(dvpp.stream) == 0
    m.dvpp_destroy_resize_config(rc)
    gy, gu, gv = nv12_planes(dvpp.read(out, out_size), ow, oh, ow, oh, swap=True)
    ref = bilinear if interp == 1 else nearest
    assert np.abs(gy.astype(int) - ref(y, ow, oh)).max() <= (1 if interp == 1 else 0)
    for got, plane in ((gu, uv[:, 0::2]), (gv, uv[:, 1::2])):
        assert np.abs(got.astype(int) - ref(plane, ow // 2, oh // 2)).max() <= (1 if interp == 1 else 0)


def test_crop_and_paste_leaves_the_rest(dvpp):
    m = dvpp.m
    w, h = 64, 48
    y, uv = nv12_image(w, h, 2)
    src = dvpp.buffer(np.concatenate([y.ravel(), uv.ravel()]))
    ow, oh = 96, 64
    size = ow * oh * 3 // 2
    canvas = np.full(size, 7, np.uint8)
    out = dvpp.buffer(canvas)
    pin = dvpp.pic(src, w * h * 3 // 2, NV12, w, h, w, h)
    pout = dvpp.pic(out, size, NV12, ow, oh, ow, oh)
    crop = m.dvpp_create_roi_config(8, 39, 4, 27)     # 32 x 24
    paste = m.dvpp_create_roi_config(16, 47, 10, 33)  # 32 x 24 at (16, 10): no scaling
    assert m.dvpp_vpc_crop_and_paste_async(dvpp.chan, pin, pout, crop, paste, dvpp.stream) == 0
    assert dvpp.acl.rt.synchronize_stream(dvpp.stream) == 0
    got_y, got_u, _ = nv12_planes(dvpp.read(out, size), ow, oh, ow, oh)
    np.testing.assert_array_equal(got_y[10:34, 16:48], y[4:28, 8:40])
    np.testing.assert_array_equal(got_u[5:17, 8:24], uv[2:14, 8:40][:, 0::2])
    mask = np.ones_like(got_y, bool)
    mask[10:34, 16:48] = False
    assert (got_y[mask] == 7).all()
    m.dvpp_destroy_roi_config(crop)
    m.dvpp_destroy_roi_config(paste)


def test_rgb_resize_and_conversion_to_yuv(dvpp):
    m = dvpp.m
    rgb = np.random.default_rng(3).integers(0, 256, (24, 32, 3), dtype=np.uint8)
    src = dvpp.buffer(rgb.ravel())
    pin = dvpp.pic(src, rgb.nbytes, RGB888, 32, 24, 96, 24)
    out = dvpp.buffer(size=32 * 24 * 3)
    pout = dvpp.pic(out, 32 * 24 * 3, BGR888, 32, 24, 96, 24)
    assert m.dvpp_vpc_convert_color_async(dvpp.chan, pin, pout, dvpp.stream) == 0
    np.testing.assert_array_equal(dvpp.read(out, rgb.nbytes).reshape(24, 32, 3), rgb[..., ::-1])
    gray = dvpp.buffer(size=32 * 24 * 3 // 2)
    pg = dvpp.pic(gray, 32 * 24 * 3 // 2, NV12, 32, 24, 32, 24)
    assert m.dvpp_vpc_convert_color_async(dvpp.chan, pin, pg, dvpp.stream) == 0
    y = dvpp.read(gray, 32 * 24)[:32 * 24].reshape(24, 32)
    want = np.round(rgb @ np.array([0.299, 0.587, 0.114]))
    assert np.abs(y - want).max() <= 1


def test_rules_are_refused_with_the_rule_named(dvpp):
    m, acl = dvpp.m, dvpp.acl
    w, h = 64, 48
    src = dvpp.buffer(size=w * h * 3 // 2)
    out = dvpp.buffer(size=w * h * 3 // 2)
    pin = dvpp.pic(src, w * h * 3 // 2, NV12, w, h, w, h)
    rc = m.dvpp_create_resize_config()
    # Odd height for 4:2:0.
    bad = dvpp.pic(out, w * h * 3 // 2, NV12, w, 47, w, 48)
    assert m.dvpp_vpc_resize_async(dvpp.chan, pin, bad, rc, dvpp.stream) == INVALID
    assert "even width and height" in acl.get_recent_err_msg()
    # A buffer smaller than the strides need.
    small = dvpp.pic(out, 100, NV12, w, h, w, h)
    assert m.dvpp_vpc_resize_async(dvpp.chan, pin, small, rc, dvpp.stream) == INVALID
    assert "the strides need 4608" in acl.get_recent_err_msg()
    # Scaling beyond 16x.
    tiny = dvpp.buffer(size=32 * 6 * 3 // 2)
    ptiny = dvpp.pic(tiny, 32 * 6 * 3 // 2, NV12, 10, 6, 32, 6)
    big = dvpp.buffer(size=4096 * 96 * 3 // 2)
    pbig = dvpp.pic(big, 4096 * 96 * 3 // 2, NV12, 4096, 96, 4096, 96)
    assert m.dvpp_vpc_resize_async(dvpp.chan, ptiny, pbig, rc, dvpp.stream) == INVALID
    assert "1/32 to 16" in acl.get_recent_err_msg()
    # A crop outside the picture; a stale description.
    crop = m.dvpp_create_roi_config(0, 63, 0, 63)
    assert m.dvpp_vpc_crop_async(dvpp.chan, pin, bad, crop, dvpp.stream) == INVALID
    m.dvpp_destroy_roi_config(crop)
    assert m.dvpp_vpc_crop_async(dvpp.chan, pin, pin, crop, dvpp.stream) == INVALID
    assert m.dvpp_set_resize_config_interpolation(rc, 3) == INVALID  # 910B: 0-2
    m.dvpp_destroy_resize_config(rc)
    # Host memory is not device memory, even on 910B where aclrtMalloc's is taken.
    rc = m.dvpp_create_resize_config()
    host = np.zeros(w * h * 3 // 2, np.uint8)
    phost = dvpp.pic(acl.util.numpy_to_ptr(host), host.nbytes, NV12, w, h, w, h)
    assert m.dvpp_vpc_resize_async(dvpp.chan, phost, pin, rc, dvpp.stream) == INVALID
    assert "not inside device memory" in acl.get_recent_err_msg()
    dev, _ = acl.rt.malloc(w * h * 3 // 2, 0)
    pdev = dvpp.pic(dev, w * h * 3 // 2, NV12, w, h, w, h)
    assert m.dvpp_vpc_resize_async(dvpp.chan, pdev, pin, rc, dvpp.stream) == 0
    acl.rt.free(dev)
    m.dvpp_destroy_resize_config(rc)
    # acldvppFree of aclrtMalloc memory.
    p, _ = acl.rt.malloc(64, 0)
    assert m.dvpp_free(p) == INVALID
    acl.rt.free(p)


OLD_CHIP_SCRIPT = textwrap.dedent("""
    import json, sys, acl, numpy as np
    acl.init(); acl.rt.set_device(0)
    m, out = acl.media, {}
    ch = m.dvpp_create_channel_desc(); m.dvpp_create_channel(ch)
    def pic(ptr, size, fmt, w, h, ws, hs):
        p = m.dvpp_create_pic_desc()
        for k, v in (("data", ptr), ("size", size), ("format", fmt), ("width", w),
                     ("height", h), ("width_stride", ws), ("height_stride", hs)):
            getattr(m, "dvpp_set_pic_desc_" + k)(p, v)
        return p
    src, _ = m.dvpp_malloc(64 * 48 * 3 // 2)
    dst, _ = m.dvpp_malloc(64 * 48 * 3)
    rc = m.dvpp_create_resize_config()
    pin = pic(src, 64 * 48 * 3 // 2, 1, 64, 48, 64, 48)
    out["ok"] = m.dvpp_vpc_resize_async(ch, pin, pic(dst, 64 * 48 * 3 // 2, 1, 32, 24, 32, 24), rc, 0)
    out["stride"] = m.dvpp_vpc_resize_async(ch, pin, pic(dst, 64 * 48 * 3 // 2, 1, 40, 24, 40, 24), rc, 0)
    out["stride_msg"] = acl.get_recent_err_msg()
    out["rgb_out"] = m.dvpp_vpc_resize_async(ch, pin, pic(dst, 64 * 48 * 3, 12, 32, 24, 96, 24), rc, 0)
    host, _ = acl.rt.malloc(64 * 48 * 3 // 2, 0)
    out["rt_memory"] = m.dvpp_vpc_resize_async(ch, pic(host, 64 * 48 * 3 // 2, 1, 64, 48, 64, 48),
                                              pic(dst, 64 * 48 * 3 // 2, 1, 32, 24, 32, 24), rc, 0)
    out["rt_memory_msg"] = acl.get_recent_err_msg()
    crop = m.dvpp_create_roi_config(1, 32, 0, 23)
    out["odd_left"] = m.dvpp_vpc_crop_async(ch, pin, pic(dst, 64 * 48 * 3 // 2, 1, 32, 24, 32, 24), crop, 0)
    out["interp3"] = m.dvpp_set_resize_config_interpolation(rc, 3)
    print(json.dumps(out))
""")


@pytest.mark.parametrize("soc", ["Ascend310", "Ascend310P3"])
def test_older_chips_rules(soc, tmp_path):
    script = tmp_path / "old.py"
    script.write_text(OLD_CHIP_SCRIPT)
    env = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"), OCANN_SOC=soc)
    r = subprocess.run([PY, str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["ok"] == 0
    assert out["stride"] == INVALID and "multiple of 16" in out["stride_msg"]
    assert out["rt_memory"] == INVALID and "acldvppMalloc" in out["rt_memory_msg"]
    if soc == "Ascend310":
        assert out["rgb_out"] == INVALID  # VPC writes only NV12/NV21 there
        assert out["odd_left"] == INVALID  # left/top even, right/bottom odd
        assert out["interp3"] == 0
    else:
        assert out["rgb_out"] == 0 and out["interp3"] == INVALID


def test_jpeg_encode_round_trip(dvpp):
    """JPEGE of a decoded picture, read back by Pillow: the luma survives at level 100, and
    the size comes back through the uint32 CANN's samples pass (bytes_to_ptr or numpy)."""
    m, acl = dvpp.m, dvpp.acl
    w, h = 96, 64
    data = jpeg_bytes(w, h)
    src = dvpp.buffer(data)
    ws, hs = align(w, 64), align(h, 16)
    size = ws * hs * 3 // 2
    yuv = dvpp.buffer(size=size)
    pic = dvpp.pic(yuv, size, NV12, w, h, ws, hs)
    assert m.dvpp_jpeg_decode_async(dvpp.chan, src, len(data), pic, dvpp.stream) == 0
    cfg = m.dvpp_create_jpege_config()
    assert m.dvpp_set_jpege_config_level(cfg, 100) == 0
    assert m.dvpp_get_jpege_config_level(cfg) == 100
    assert m.dvpp_set_jpege_config_level(cfg, 101) == INVALID
    bound, ret = m.dvpp_jpeg_predict_enc_size(pic, cfg)
    assert ret == 0 and bound >= size
    # Strides past JPEGE's (a 4 GiB bound that would wrap to 0) are refused.
    huge = dvpp.pic(yuv, 0xFFFFFFFF, NV12, 32, 32, 65536, 43690)
    assert m.dvpp_jpeg_predict_enc_size(huge, cfg)[1] == INVALID
    out = dvpp.buffer(size=bound)
    size_bytes = np.array([bound], np.uint32).tobytes()
    assert m.dvpp_jpeg_encode_async(dvpp.chan, pic, out, acl.util.bytes_to_ptr(size_bytes), cfg,
                                    dvpp.stream) == 0
    assert acl.rt.synchronize_stream(dvpp.stream) == 0
    n = int(np.frombuffer(size_bytes, np.uint32)[0])
    assert 100 < n < bound
    encoded = Image.open(io.BytesIO(dvpp.read(out, n).tobytes()))
    assert encoded.size == (w, h)
    encoded.draft("YCbCr", encoded.size)
    y_back = np.asarray(encoded)[..., 0].astype(int)
    y, _, _ = nv12_planes(dvpp.read(yuv, size), w, h, ws, hs)
    assert np.abs(y_back - y).max() <= 3
    # A buffer too small is an error, not a cut file.
    small = np.array([64], np.uint32)
    assert m.dvpp_jpeg_encode_async(dvpp.chan, pic, out, acl.util.numpy_to_ptr(small), cfg,
                                    dvpp.stream) == INVALID
    m.dvpp_destroy_jpege_config(cfg)


@pytest.mark.parametrize("mode,fmt,want_fmt", [("RGB", UNKNOWN, RGB888), ("RGBA", UNKNOWN, 16),
                                               ("L", RGB888, RGB888), ("RGBA", RGB888, RGB888)])
def test_png_decode_matches_pillow(dvpp, mode, fmt, want_fmt):
    m = dvpp.m
    w, h = 50, 40
    rgba = np.random.default_rng(9).integers(0, 256, (h, w, 4), dtype=np.uint8)
    img = Image.fromarray(rgba, "RGBA").convert(mode)
    buf = io.BytesIO()
    img.save(buf, "PNG")
    data = buf.getvalue()
    src = dvpp.buffer(data)
    iw, ih, comps, ret = m.dvpp_png_get_image_info(src, len(data))
    assert (iw, ih, comps, ret) == (w, h, {"RGB": 3, "RGBA": 4, "L": 1}[mode], 0)
    size, ret = m.dvpp_png_predict_dec_size(src, len(data), fmt)
    bpp = 3 if want_fmt == RGB888 else 4
    ws, hs = align(w, 128) * bpp, align(h, 16)
    assert ret == 0 and size == ws * hs
    out = dvpp.buffer(size=size)
    pic = dvpp.pic(out, size, fmt, w, h, ws, hs)
    assert m.dvpp_png_decode_async(dvpp.chan, src, len(data), pic, dvpp.stream) == 0
    assert m.dvpp_get_pic_desc_format(pic) == want_fmt
    got = dvpp.read(out, size).reshape(hs, ws)[:h, :w * bpp].reshape(h, w, bpp)
    want = np.asarray(img.convert("RGB" if bpp == 3 else "RGBA"))  # RGB drops the alpha
    np.testing.assert_array_equal(got, want)


def test_bad_pngs_are_errors(dvpp):
    m = dvpp.m
    pal = io.BytesIO()
    Image.new("P", (40, 40)).save(pal, "PNG")
    p = dvpp.buffer(pal.getvalue())
    assert m.dvpp_png_get_image_info(p, len(pal.getvalue()))[-1] == 100027  # FORMAT_NOT_MATCH
    good = io.BytesIO()
    Image.new("RGB", (40, 40), (1, 2, 3)).save(good, "PNG")
    data = good.getvalue()
    cut = dvpp.buffer(data[:len(data) - 20])
    out = dvpp.buffer(size=128 * 3 * 48)
    pic = dvpp.pic(out, 128 * 3 * 48, RGB888, 40, 40, 128 * 3, 48)
    assert m.dvpp_png_decode_async(dvpp.chan, cut, len(data) - 20, pic, dvpp.stream) == INVALID
    # Palette PNGs are FORMAT_NOT_MATCH for every PNG call, not only GetImageInfo.
    assert m.dvpp_png_predict_dec_size(p, len(pal.getvalue()), RGB888)[-1] == 100027
    assert m.dvpp_png_decode_async(dvpp.chan, p, len(pal.getvalue()), pic, dvpp.stream) == 100027
    # An RGB PNG with a transparent colour (tRNS) written as RGB_888: its colours, whatever
    # the buffer held before (libpng would compose onto those bytes).
    img = Image.new("RGB", (40, 40), (9, 8, 7))
    img.putpixel((3, 4), (200, 100, 50))
    trns = io.BytesIO()
    img.save(trns, "PNG", transparency=(9, 8, 7))
    t = dvpp.buffer(trns.getvalue())
    dvpp.acl.rt.memset(out, 128 * 3 * 48, 0xAB, 128 * 3 * 48)
    assert m.dvpp_png_decode_async(dvpp.chan, t, len(trns.getvalue()), pic, dvpp.stream) == 0
    got = dvpp.read(out, 128 * 3 * 48).reshape(48, 128 * 3)[:40, :120].reshape(40, 40, 3)
    np.testing.assert_array_equal(got, np.asarray(img))


def test_batch_crop_into_a_batch(dvpp):
    """Two source pictures, 2 + 1 regions, into three destination pictures: each one the
    region resized (nearest) as the single-picture call gives it."""
    m = dvpp.m
    w, h = 64, 48
    src = m.dvpp_create_batch_pic_desc(2)
    dst = m.dvpp_create_batch_pic_desc(3)
    planes = []
    for i in range(2):
        y, uv = nv12_image(w, h, 10 + i)
        planes.append(y)
        buf = dvpp.buffer(np.concatenate([y.ravel(), uv.ravel()]))
        p = m.dvpp_get_pic_desc(src, i)
        for key, val in (("data", buf), ("size", w * h * 3 // 2), ("format", NV12), ("width", w),
                         ("height", h), ("width_stride", w), ("height_stride", h)):
            assert getattr(m, "dvpp_set_pic_desc_" + key)(p, val) == 0
    outs = []
    for k in range(3):
        buf = dvpp.buffer(size=32 * 24 * 3 // 2)
        outs.append(buf)
        p = m.dvpp_get_pic_desc(dst, k)
        for key, val in (("data", buf), ("size", 32 * 24 * 3 // 2), ("format", NV12),
                         ("width", 32), ("height", 24), ("width_stride", 32), ("height_stride", 24)):
            getattr(m, "dvpp_set_pic_desc_" + key)(p, val)
    regions = [(0, 31, 0, 23), (32, 63, 24, 47), (16, 47, 12, 35)]
    crops = [m.dvpp_create_roi_config(*r) for r in regions]
    rc = m.dvpp_create_resize_config()
    m.dvpp_set_resize_config_interpolation(rc, 2)
    assert m.dvpp_vpc_batch_crop_resize_async(dvpp.chan, src, [2, 1], 2, dst, crops, rc,
                                              dvpp.stream) == 0
    for k, (r, source) in enumerate(zip(regions, [0, 0, 1])):
        l, rr, t, b = r
        got = dvpp.read(outs[k], 32 * 24)[:32 * 24].reshape(24, 32)
        np.testing.assert_array_equal(got, planes[source][t:b + 1, l:rr + 1])
    assert m.dvpp_get_pic_desc(src, 5) == 0
    assert m.dvpp_vpc_batch_crop_async(dvpp.chan, src, [2, 2], 2, dst, crops, dvpp.stream) == INVALID
    for c in crops:
        m.dvpp_destroy_roi_config(c)
    m.dvpp_destroy_resize_config(rc)
    assert m.dvpp_destroy_batch_pic_desc(src) == 0 and m.dvpp_destroy_batch_pic_desc(dst) == 0
    assert m.dvpp_destroy_batch_pic_desc(src) == INVALID


@pytest.mark.parametrize("kind,np_mode", [(0, "constant"), (1, "edge"), (2, "symmetric"),
                                          (3, "reflect")])
def test_make_border_follows_opencv(dvpp, kind, np_mode):
    """BORDER_CONSTANT, REPLICATE, REFLECT and REFLECT_101 are numpy's constant, edge,
    symmetric and reflect paddings (OpenCV's copyMakeBorder rules), on both NV12 planes."""
    m = dvpp.m
    w, h, top, bottom, left, right = 32, 24, 2, 4, 6, 10
    y, uv = nv12_image(w, h, 20)
    src = dvpp.buffer(np.concatenate([y.ravel(), uv.ravel()]))
    pin = dvpp.pic(src, w * h * 3 // 2, NV12, w, h, w, h)
    ow, oh = w + left + right, h + top + bottom
    ows = align(ow, 16)
    out = dvpp.buffer(size=ows * oh * 3 // 2)
    pout = dvpp.pic(out, ows * oh * 3 // 2, NV12, ow, oh, ows, oh)
    cfg = m.dvpp_create_border_config()
    for setter, v in (("top", top), ("bottom", bottom), ("left", left), ("right", right)):
        assert getattr(m, "dvpp_set_border_config_" + setter)(cfg, v) == 0
    assert m.dvpp_set_border_config_border_type(cfg, kind) == 0
    for i, v in enumerate((16, 100, 200)):
        assert m.dvpp_set_border_config_value(cfg, i, v) == 0
    assert m.dvpp_vpc_make_border_async(dvpp.chan, pin, pout, cfg, dvpp.stream) == 0
    got_y, got_u, got_v = nv12_planes(dvpp.read(out, ows * oh * 3 // 2), ow, oh, ows, oh)
    kw = {"constant_values": 16} if np_mode == "constant" else {}
    np.testing.assert_array_equal(got_y, np.pad(y, ((top, bottom), (left, right)), np_mode, **kw))
    kw = {"constant_values": 100} if np_mode == "constant" else {}
    np.testing.assert_array_equal(
        got_u, np.pad(uv[:, 0::2], ((top // 2, bottom // 2), (left // 2, right // 2)), np_mode, **kw))
    m.dvpp_destroy_border_config(cfg)
