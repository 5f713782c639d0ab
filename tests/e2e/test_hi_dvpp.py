"""hi_dvpp.h (libacl_dvpp_mpi) as CANN's 7_dvpp samples use it, through tests/c/hi_dvpp_tool.c:
VPC against numpy transcriptions of OpenCV's rules, JPEG decoding (through VDEC) and PNG
decoding against Pillow, H.264/H.265 decoding against FFmpeg, on the 310P's and the 910B's
rules. The rule violations are tests/c/hi_dvpp_rules.c (ctest hi_dvpp_rules_*)."""
import io
import os
import shutil
import subprocess

import numpy as np
import pytest
from PIL import Image

from conftest import BUILD
from test_dvpp import bilinear, jpeg_bytes, nearest
from test_dvpp_filters import pyr_down

TOOL = os.path.join(BUILD, "tests", "oc_hi_dvpp_tool")
NV12, NV21, YUV400, RGB888, BGR888, ARGB8888, BGRA8888, UNKNOWN = 1, 2, 0, 12, 13, 14, 17, 10000


def run(*args, soc="Ascend310P3"):
    env = dict(os.environ, OCANN_SOC=soc)
    r = subprocess.run([TOOL, *map(str, args)], capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stderr + r.stdout
    return r.stdout


def nv12(w, h, seed=0):
    rng = np.random.default_rng(seed)
    # Smooth plus noise: resizing differences show, yet values stay in range.
    yy, xx = np.mgrid[0:h, 0:w]
    y = ((xx * 3 + yy * 2) % 256 + rng.integers(0, 16, (h, w))).clip(0, 255).astype(np.uint8)
    uv = rng.integers(16, 240, (h // 2, w), dtype=np.uint8)
    return y, uv


def write(tmp_path, name, *planes):
    path = tmp_path / name
    path.write_bytes(b"".join(p.tobytes() for p in planes))
    return path


def read_nv12(path, w, h):
    b = np.fromfile(path, np.uint8)
    return b[:w * h].reshape(h, w), b[w * h:w * h * 3 // 2].reshape(h // 2, w)


@pytest.mark.parametrize("soc", ["Ascend310P3", "Ascend910B3"])
@pytest.mark.parametrize("interp,ref", [(0, bilinear), (1, nearest)])
def test_resize(tmp_path, soc, interp, ref):
    y, uv = nv12(96, 64)
    src = write(tmp_path, "in.yuv", y, uv)
    run("vpc", "resize", src, 96, 64, NV12, tmp_path / "out", 40, 30, NV12, interp, soc=soc)
    gy, guv = read_nv12(tmp_path / "out", 40, 30)
    assert np.abs(gy.astype(int) - ref(y, 40, 30)).max() <= 1
    for c in (0, 1):
        want = ref(uv[:, c::2], 20, 15)
        assert np.abs(guv[:, c::2].astype(int) - want).max() <= 1


def test_crop_resize_and_batch_paste(tmp_path):
    y, uv = nv12(128, 96, 1)
    src = write(tmp_path, "in.yuv", y, uv)
    run("vpc", "crop_resize", src, 128, 96, NV12, tmp_path / "cr", 48, 32, NV12, 16, 8, 64, 40, 0)
    gy, _ = read_nv12(tmp_path / "cr", 48, 32)
    assert np.abs(gy.astype(int) - bilinear(y[8:48, 16:80], 48, 32)).max() <= 1
    # 64x40 at (16, 8) resized to 48x30, pasted at (16, 10) of a zeroed 96x64 picture.
    run("vpc", "paste", src, 128, 96, NV12, tmp_path / "p", 96, 64, NV12, 16, 8, 64, 40, 48, 30,
        16, 10)
    gy, _ = read_nv12(tmp_path / "p", 96, 64)
    want = np.zeros((64, 96))
    want[10:40, 16:64] = bilinear(y[8:48, 16:80], 48, 30)
    assert np.abs(gy.astype(int) - want).max() <= 1


@pytest.mark.parametrize("out_fmt,order,alpha", [(RGB888, "RGB", None), (BGR888, "BGR", None),
                                                 (ARGB8888, "ARGB", 200),
                                                 (BGRA8888, "BGRA", 255)])
def test_convert_nv12_to_rgb(tmp_path, out_fmt, order, alpha):
    w, h = 64, 48
    y, uv = nv12(w, h, 2)
    src = write(tmp_path, "in.yuv", y, uv)
    run("vpc", "convert", src, w, h, NV12, tmp_path / "o", w, h, out_fmt, alpha or 0)
    got = np.fromfile(tmp_path / "o", np.uint8).reshape(h, w, len(order))
    u = np.repeat(np.repeat(uv[:, 0::2], 2, 0), 2, 1).astype(float) - 128
    v = np.repeat(np.repeat(uv[:, 1::2], 2, 0), 2, 1).astype(float) - 128
    yf = y.astype(float)
    # BT.601 full range (HI_CSC_MATRIX_BT601_WIDE).
    rgb = {"R": yf + 1.402 * v, "G": yf - 0.344136 * u - 0.714136 * v, "B": yf + 1.772 * u}
    for i, c in enumerate(order):
        if c == "A":
            assert (got[..., i] == (alpha or 0)).all()
        else:
            assert np.abs(got[..., i].astype(int) - np.clip(np.round(rgb[c]), 0, 255)).max() <= 1


@pytest.mark.parametrize("kind,mode", [(0, "constant"), (1, "edge"), (2, "symmetric"),
                                       (3, "reflect")])
def test_copy_make_border(tmp_path, kind, mode):
    y, uv = nv12(64, 48, 3)
    src = write(tmp_path, "in.yuv", y, uv)
    run("vpc", "border", src, 64, 48, NV12, tmp_path / "o", 72, 56, NV12, 2, 6, 4, 4, kind,
        30, 60, 90)
    gy, guv = read_nv12(tmp_path / "o", 72, 56)
    kw = {"constant_values": 30} if mode == "constant" else {}
    np.testing.assert_array_equal(gy, np.pad(y, ((2, 6), (4, 4)), mode=mode, **kw))


def test_pyrdown_two_levels(tmp_path):
    y, _ = nv12(100, 60, 4)
    src = write(tmp_path, "in.yuv", y)
    run("vpc", "pyrdown", src, 100, 60, YUV400, tmp_path / "o", 50, 30, YUV400)
    first = np.fromfile(tmp_path / "o", np.uint8).reshape(30, 50)
    np.testing.assert_array_equal(first, pyr_down(y, 50, 30))
    second = np.fromfile(str(tmp_path / "o") + ".level1", np.uint8).reshape(15, 25)
    np.testing.assert_array_equal(second, pyr_down(first, 25, 15))


def test_histogram_and_remap(tmp_path):
    y, uv = nv12(64, 48, 5)
    src = write(tmp_path, "in.yuv", y, uv)
    run("vpc", "hist", src, 64, 48, NV12, tmp_path / "h", 64, 48, NV12)
    hist = np.fromfile(tmp_path / "h", np.uint32).reshape(3, 256)
    np.testing.assert_array_equal(hist[0], np.bincount(y.ravel(), minlength=256))
    np.testing.assert_array_equal(hist[1], np.bincount(uv[:, 0::2].ravel(), minlength=256))
    np.testing.assert_array_equal(hist[2], np.bincount(uv[:, 1::2].ravel(), minlength=256))
    run("vpc", "equalize", src, 64, 48, NV12, tmp_path / "e", 64, 48, NV12)
    gy, guv = read_nv12(tmp_path / "e", 64, 48)
    np.testing.assert_array_equal(gy, 255 - y)
    np.testing.assert_array_equal(guv[:, 0::2], uv[:, 0::2] // 2)
    np.testing.assert_array_equal(guv[:, 1::2], uv[:, 1::2])


@pytest.mark.parametrize("subsampling,fmt,want_fmt", [(2, NV12, NV12), (2, UNKNOWN, NV21),
                                                      (0, UNKNOWN, 6)])
def test_jpegd_through_vdec(tmp_path, subsampling, fmt, want_fmt):
    w, h = 150, 100
    data = jpeg_bytes(w, h, subsampling=subsampling)
    (tmp_path / "in.jpg").write_bytes(data)
    out = run("jpegd", tmp_path / "in.jpg", fmt, tmp_path / "o")
    gw, gh, ws, hs, got_fmt = map(int, out.split())
    assert (gw, gh, got_fmt) == (w, h, want_fmt)
    assert ws % 64 == 0 and hs % 16 == 0  # 310P: JPEGD writes 64x16-aligned strides
    raw = np.fromfile(tmp_path / "o", np.uint8)
    img = Image.open(io.BytesIO(data))
    img.draft("YCbCr", img.size)
    ref = np.asarray(img)
    np.testing.assert_array_equal(raw[:ws * hs].reshape(hs, ws)[:h, :w], ref[..., 0])


@pytest.mark.parametrize("mode,fmt,want_fmt,channels", [("RGB", UNKNOWN, RGB888, 3),
                                                        ("RGBA", UNKNOWN, 16, 4),
                                                        ("L", RGB888, RGB888, 3)])
def test_pngd(tmp_path, mode, fmt, want_fmt, channels):
    rng = np.random.default_rng(6)
    img = Image.fromarray(rng.integers(0, 256, (70, 90, len(mode)), dtype=np.uint8).squeeze())
    buf = io.BytesIO()
    img.convert(mode).save(buf, "PNG")
    (tmp_path / "in.png").write_bytes(buf.getvalue())
    out = run("pngd", tmp_path / "in.png", fmt, tmp_path / "o")
    gw, gh, ws, hs, got_fmt = map(int, out.split())
    assert (gw, gh, got_fmt) == (90, 70, want_fmt)
    raw = np.fromfile(tmp_path / "o", np.uint8)[:ws * hs].reshape(hs, ws)
    got = raw[:70, :90 * channels].reshape(70, 90, channels)
    want = np.asarray(img.convert(mode).convert("RGBA" if channels == 4 else "RGB"))
    np.testing.assert_array_equal(got, want)


@pytest.mark.skipif(not shutil.which("ffmpeg"), reason="needs ffmpeg to make the streams")
@pytest.mark.parametrize("codec,payload", [("libx264", 96), ("libx265", 265)])
@pytest.mark.parametrize("soc", ["Ascend310P3", "Ascend910B3"])
def test_vdec_video_matches_ffmpeg(tmp_path, codec, payload, soc):
    w, h, n = 176, 144, 12
    stream = tmp_path / ("in.h264" if payload == 96 else "in.h265")
    extra = ["-x265-params", "log-level=none:bframes=0"] if payload == 265 else ["-bf", "0"]
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    f"testsrc2=size={w}x{h}:rate=25", "-frames:v", str(n), "-c:v", codec,
                    "-pix_fmt", "yuv420p", *extra, "-f", "h264" if payload == 96 else "hevc",
                    str(stream)], check=True)
    out = run("vdec", stream, payload, w, h, NV12, tmp_path / "o", soc=soc)
    assert out.split() == ["frames", str(n), "failed", "0", "left", "0"]
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", str(stream), "-f", "rawvideo",
                    "-pix_fmt", "nv12", str(tmp_path / "ref")], check=True)
    np.testing.assert_array_equal(np.fromfile(tmp_path / "o", np.uint8),
                                  np.fromfile(tmp_path / "ref", np.uint8))


@pytest.mark.parametrize("quality,min_psnr", [(90, 35), (30, 28)])
def test_jpege_through_venc(tmp_path, quality, min_psnr):
    w, h = 160, 96
    y, uv = nv12(w, h, 7)
    y = np.asarray(Image.fromarray(y).filter(__import__("PIL.ImageFilter").ImageFilter.SMOOTH))
    src = write(tmp_path, "in.yuv", y, uv)
    assert run("venc", src, 26, w, h, 1, tmp_path / "o", quality).split() == ["streams", "1"]
    img = Image.open(tmp_path / "o.0")
    assert img.format == "JPEG" and img.size == (w, h)
    img.draft("YCbCr", img.size)
    got = np.asarray(img)[..., 0].astype(float)
    psnr = 10 * np.log10(255 ** 2 / ((got - y) ** 2).mean())
    assert psnr > min_psnr


@pytest.mark.skipif(not shutil.which("ffmpeg"), reason="needs ffmpeg to decode the streams")
@pytest.mark.parametrize("payload,codec", [(96, "h264"), (265, "hevc")])
def test_venc_video_decodes_with_ffmpeg(tmp_path, payload, codec):
    w, h, n = 160, 128, 8
    frames = []
    for i in range(n):
        y, uv = nv12(w, h, 0)
        frames.append(np.roll(y, 2 * i, axis=1).tobytes() + uv.tobytes())
    src = tmp_path / "in.yuv"
    src.write_bytes(b"".join(frames))
    assert run("venc", src, payload, w, h, n, tmp_path / "o").split() == ["streams", str(n)]
    probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-show_entries",
                            "stream=codec_name,width,height,nb_read_frames", "-of", "csv=p=0",
                            str(tmp_path / "o")], capture_output=True, text=True, check=True)
    assert probe.stdout.strip() == f"{codec},{w},{h},{n}"
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-i", str(tmp_path / "o"), "-f",
                    "rawvideo", "-pix_fmt", "nv12", str(tmp_path / "dec")], check=True)
    got = np.fromfile(tmp_path / "dec", np.uint8).astype(float)
    want = np.frombuffer(b"".join(frames), np.uint8).astype(float)
    assert 10 * np.log10(255 ** 2 / ((got - want) ** 2).mean()) > 30
