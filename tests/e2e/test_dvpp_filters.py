"""VPC's histogram, colour remapping, pyramid and batch crop-resize-make-border calls through
pyACL, against numpy: np.bincount for the histograms, table lookup for the remapping, a
numpy transcription of OpenCV's pyrDown (5x5 binomial, BORDER_REFLECT_101, (s + 128) >> 8)
and np.pad after the resize transcriptions of test_dvpp.py. The Ascend 310 and 310P rules run
in a child process with OCANN_SOC."""
import ctypes
import json
import os
import subprocess
import textwrap

import numpy as np
import pytest

from conftest import BUILD, PY
from test_dvpp import INVALID, NV12, RGB888, UNSUPPORTED, align, dvpp, nearest, nv12_image  # noqa: F401

YUV400 = 0


def table(ptr, n, ctype):
    return np.ctypeslib.as_array((ctype * n).from_address(ptr)).copy()


def nv12_picture(d, w, h, seed):
    y, uv = nv12_image(w, h, seed)
    buf = d.buffer(np.concatenate([y.ravel(), uv.ravel()]))
    return y, uv, d.pic(buf, w * h * 3 // 2, NV12, w, h, w, h)


def test_calc_hist_counts_and_accumulates(dvpp):
    m = dvpp.m
    w, h = 64, 48
    y, uv, pic = nv12_picture(dvpp, w, h, 3)
    hist = m.dvpp_create_hist()
    assert m.dvpp_get_hist_dims(hist) == 3
    for _ in range(2):  # CANN's histogram adds up until acldvppClearHist
        assert m.dvpp_vpc_calc_hist_async(dvpp.chan, pic, hist, 0, dvpp.stream) == 0
    assert dvpp.acl.rt.synchronize_stream(dvpp.stream) == 0
    assert m.dvpp_get_hist_ret_code(hist) == 0
    for dim, plane in enumerate((y, uv[:, 0::2], uv[:, 1::2])):
        ptr, n, ret = m.dvpp_get_hist_data(hist, dim)
        assert ret == 0 and n == 256
        np.testing.assert_array_equal(table(ptr, n, ctypes.c_uint32),
                                      2 * np.bincount(plane.ravel(), minlength=256))
    assert m.dvpp_clear_hist(hist) == 0
    assert table(m.dvpp_get_hist_data(hist, 0)[0], 256, ctypes.c_uint32).sum() == 0
    assert m.dvpp_get_hist_data(hist, 3)[-1] == INVALID
    assert m.dvpp_destroy_hist(hist) == 0
    assert m.dvpp_get_hist_data(hist, 0)[-1] == INVALID  # a stale handle
    assert m.dvpp_clear_hist(hist) == INVALID


def test_calc_hist_rgb_components(dvpp):
    m = dvpp.m
    w, h = 40, 30
    rgb = np.random.default_rng(4).integers(0, 256, (h, w, 3), dtype=np.uint8)
    pic = dvpp.pic(dvpp.buffer(rgb.ravel()), rgb.nbytes, RGB888, w, h, w * 3, h)
    hist = m.dvpp_create_hist()
    assert m.dvpp_vpc_calc_hist_async(dvpp.chan, pic, hist, 0, dvpp.stream) == 0
    for dim in range(3):
        ptr, n, _ = m.dvpp_get_hist_data(hist, dim)
        np.testing.assert_array_equal(table(ptr, n, ctypes.c_uint32),
                                      np.bincount(rgb[..., dim].ravel(), minlength=256))
    m.dvpp_destroy_hist(hist)


def test_equalize_hist_maps_through_the_table(dvpp):
    """The application's table (here OpenCV's equalizeHist table for the luma, an inversion
    for U and the identity for V) applied to every component value."""
    m = dvpp.m
    w, h = 64, 48
    y, uv, pin = nv12_picture(dvpp, w, h, 5)
    out = dvpp.buffer(size=w * h * 3 // 2)
    pout = dvpp.pic(out, w * h * 3 // 2, NV12, w, h, w, h)
    cdf = np.cumsum(np.bincount(y.ravel(), minlength=256))
    cdf_min = cdf[cdf > 0][0]
    tables = [np.clip(np.round((cdf - cdf_min) * 255 / (cdf[-1] - cdf_min)), 0, 255).astype(np.uint8),
              (255 - np.arange(256)).astype(np.uint8), np.arange(256, dtype=np.uint8)]
    lut = m.dvpp_create_lut_map()
    assert m.dvpp_get_lut_map_dims(lut) == 3
    for dim, t in enumerate(tables):
        ptr, n, ret = m.dvpp_get_lut_map_data(lut, dim)
        assert ret == 0 and n == 256
        ctypes.memmove(ptr, t.ctypes.data, 256)
    assert m.dvpp_vpc_equalize_hist_async(dvpp.chan, pin, pout, lut, dvpp.stream) == 0
    assert dvpp.acl.rt.synchronize_stream(dvpp.stream) == 0
    got = dvpp.read(out, w * h * 3 // 2)
    np.testing.assert_array_equal(got[:w * h].reshape(h, w), tables[0][y])
    got_uv = got[w * h:].reshape(h // 2, w)
    np.testing.assert_array_equal(got_uv[:, 0::2], tables[1][uv[:, 0::2]])
    np.testing.assert_array_equal(got_uv[:, 1::2], uv[:, 1::2])
    # The output must be the input's format and size.
    small = dvpp.pic(out, w * h * 3 // 2, NV12, w // 2, h // 2, w // 2, h // 2)
    assert m.dvpp_vpc_equalize_hist_async(dvpp.chan, pin, small, lut, dvpp.stream) == INVALID
    assert "input's format and size" in dvpp.acl.get_recent_err_msg()
    assert m.dvpp_get_lut_map_data(lut, 7)[-1] == INVALID
    assert m.dvpp_destroy_lut_map(lut) == 0
    assert m.dvpp_vpc_equalize_hist_async(dvpp.chan, pin, pout, lut, dvpp.stream) == INVALID


@pytest.mark.parametrize("kind,np_mode", [(0, "constant"), (1, "edge")])
def test_batch_crop_resize_make_border(dvpp, kind, np_mode):
    m = dvpp.m
    w, h = 64, 48
    src = m.dvpp_create_batch_pic_desc(1)
    dst = m.dvpp_create_batch_pic_desc(2)
    y, uv = nv12_image(w, h, 6)
    buf = dvpp.buffer(np.concatenate([y.ravel(), uv.ravel()]))
    p = m.dvpp_get_pic_desc(src, 0)
    for key, val in (("data", buf), ("size", w * h * 3 // 2), ("format", NV12), ("width", w),
                     ("height", h), ("width_stride", w), ("height_stride", h)):
        assert getattr(m, "dvpp_set_pic_desc_" + key)(p, val) == 0
    ow, oh, top, bottom, left, right = 48, 32, 2, 4, 6, 10
    outs = []
    for k in range(2):
        o = dvpp.buffer(size=ow * oh * 3 // 2)
        outs.append(o)
        p = m.dvpp_get_pic_desc(dst, k)
        for key, val in (("data", o), ("size", ow * oh * 3 // 2), ("format", NV12), ("width", ow),
                         ("height", oh), ("width_stride", ow), ("height_stride", oh)):
            assert getattr(m, "dvpp_set_pic_desc_" + key)(p, val) == 0
    regions = [(0, 39, 0, 31), (10, 59, 6, 41)]
    crops = [m.dvpp_create_roi_config(*r) for r in regions]
    borders = []
    for _ in regions:
        cfg = m.dvpp_create_border_config()
        for setter, v in (("top", top), ("bottom", bottom), ("left", left), ("right", right)):
            assert getattr(m, "dvpp_set_border_config_" + setter)(cfg, v) == 0
        m.dvpp_set_border_config_border_type(cfg, kind)
        m.dvpp_set_border_config_value(cfg, 0, 16)
        borders.append(cfg)
    rc = m.dvpp_create_resize_config()
    m.dvpp_set_resize_config_interpolation(rc, 2)
    assert m.dvpp_vpc_batch_crop_resize_make_border_async(dvpp.chan, src, [2], dst, crops,
                                                          borders, rc, dvpp.stream) == 0
    iw, ih = ow - left - right, oh - top - bottom
    for k, (l, r, t, b) in enumerate(regions):
        got = dvpp.read(outs[k], ow * oh).reshape(oh, ow)
        inner = nearest(y[t:b + 1, l:r + 1], iw, ih)
        kw = {"constant_values": 16} if np_mode == "constant" else {}
        np.testing.assert_array_equal(got, np.pad(inner, ((top, bottom), (left, right)), np_mode, **kw))
    # REFLECT is MakeBorder's only; a list shorter than roi_nums counts is refused.
    m.dvpp_set_border_config_border_type(borders[0], 2)
    assert m.dvpp_vpc_batch_crop_resize_make_border_async(dvpp.chan, src, [2], dst, crops,
                                                          borders, rc, dvpp.stream) == INVALID
    assert "BORDER_CONSTANT or BORDER_REPLICATE" in dvpp.acl.get_recent_err_msg()
    assert m.dvpp_vpc_batch_crop_resize_make_border_async(dvpp.chan, src, [2], dst, crops[:1],
                                                          borders, rc, dvpp.stream) == INVALID
    assert m.dvpp_vpc_batch_crop_async(dvpp.chan, src, [2], 1, dst, crops[:1], dvpp.stream) == INVALID
    for c in crops:
        m.dvpp_destroy_roi_config(c)
    for c in borders:
        m.dvpp_destroy_border_config(c)
    m.dvpp_destroy_resize_config(rc)
    m.dvpp_destroy_batch_pic_desc(src)
    m.dvpp_destroy_batch_pic_desc(dst)


def pyr_down(img, ow, oh):
    k = np.array([1, 4, 6, 4, 1], np.int64)
    h, w = img.shape
    p = np.pad(img.astype(np.int64), 2, mode="reflect")  # numpy's reflect = BORDER_REFLECT_101
    v = sum(k[i] * p[i:i + h, :] for i in range(5))
    full = sum(k[i] * v[:, i:i + w] for i in range(5))
    return ((full + 128) >> 8)[::2, ::2][:oh, :ow]


CHIP_SCRIPT = textwrap.dedent("""
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
    def put(arr):
        ptr, _ = m.dvpp_malloc(arr.nbytes)
        acl.rt.memcpy(ptr, arr.nbytes, acl.util.numpy_to_ptr(arr), arr.nbytes, 1)
        return ptr
    for w, h, ow, oh in json.loads(sys.argv[1]):
        ws, ows = max(32, (w + 15) // 16 * 16), max(32, (ow + 15) // 16 * 16)
        img = np.random.default_rng(w).integers(0, 256, (h, ws), dtype=np.uint8)
        dst, _ = m.dvpp_malloc(ows * oh)
        ret = m.dvpp_vpc_pyr_down_async(ch, pic(put(img), ws * h, 0, w, h, ws, h),
                                        pic(dst, ows * oh, 0, ow, oh, ows, oh), 0, 0)
        got = np.empty(ows * oh, np.uint8)
        acl.rt.memcpy(acl.util.numpy_to_ptr(got), got.nbytes, dst, got.nbytes, 2)
        out[f"{w}x{h}>{ow}x{oh}"] = [ret, acl.get_recent_err_msg() if ret else "",
                           got.reshape(oh, ows)[:, :ow].tolist()]
    src = put(np.zeros(64 * 48 * 3 // 2, np.uint8))
    out["calc_hist"] = m.dvpp_vpc_calc_hist_async(ch, pic(src, 64 * 48 * 3 // 2, 1, 64, 48, 64, 48),
                                                  m.dvpp_create_hist(), 0, 0)
    print(json.dumps(out))
""")


@pytest.mark.parametrize("soc", ["Ascend310", "Ascend310P3"])
def test_pyr_down_on_310p_and_the_chips_without(soc, tmp_path):
    script = tmp_path / "chip.py"
    script.write_text(CHIP_SCRIPT)
    cases = [(64, 48, 32, 24), (41, 25, 21, 13), (41, 25, 20, 12), (64, 48, 30, 24), (30, 11, 15, 6)]
    env = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"), OCANN_SOC=soc)
    r = subprocess.run([PY, str(script), json.dumps(cases)], capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    if soc == "Ascend310":
        assert all(out[f"{w}x{h}>{ow}x{oh}"][0] == UNSUPPORTED for w, h, ow, oh in cases)
        assert out["calc_hist"] == UNSUPPORTED
        return
    assert out["calc_hist"] == 0
    for w, h, ow, oh in cases[:3]:
        ret, msg, got = out[f"{w}x{h}>{ow}x{oh}"]
        assert ret == 0, msg
        img = np.random.default_rng(w).integers(0, 256, (h, max(32, align(w, 16))), dtype=np.uint8)[:, :w]
        np.testing.assert_array_equal(np.array(got), pyr_down(img, ow, oh))
    assert out["64x48>30x24"][0] == INVALID and "half the input" in out["64x48>30x24"][1]
    assert out["30x11>15x6"][0] == INVALID and "20x12 to 2048x2048" in out["30x11>15x6"][1]
