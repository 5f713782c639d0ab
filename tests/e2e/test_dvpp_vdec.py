"""VDEC as CANN's video samples drive it: an H.264 / H.265 Annex-B stream sent one access unit
at a time, each send's callback on a report thread looping acl.rt.process_report, NV12 frames
out; checked against FFmpeg's own decoding of the file (the `ffmpeg` command). A damaged
access unit fails its own callback and decoding carries on."""
import shutil
import subprocess
import threading

import numpy as np
import pytest

from test_dvpp import NV12, align

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="needs the ffmpeg command")

H265, H264_MAIN = 0, 2


def encode(tmp_path, codec, w, h, frames):
    path = tmp_path / f"clip.{codec}"
    params = ["-x264-params", "aud=1:bframes=0"] if codec == "h264" else \
        ["-x265-params", "aud=1:bframes=0:log-level=error"]
    r = subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                        f"testsrc=size={w}x{h}:rate=10", "-frames:v", str(frames),
                        "-pix_fmt", "yuv420p", "-c:v", "libx264" if codec == "h264" else "libx265",
                        *params, "-f", "h264" if codec == "h264" else "hevc", str(path)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"ffmpeg cannot encode {codec}: {r.stderr[-300:]}")
    data = path.read_bytes()
    ref = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-f", "rawvideo",
                          "-pix_fmt", "yuv420p", "-"], capture_output=True, check=True).stdout
    return data, np.frombuffer(ref, np.uint8).reshape(frames, h * w * 3 // 2)


def access_units(data, codec):
    """Splits an Annex-B stream before each access unit delimiter (H.264 type 9, H.265 35)."""
    starts = []
    i = 0
    while True:
        i = data.find(b"\x00\x00\x01", i)
        if i < 0:
            break
        nal = data[i + 3]
        kind = nal & 0x1F if codec == "h264" else (nal >> 1) & 0x3F
        if kind == (9 if codec == "h264" else 35):
            starts.append(i - 1 if i > 0 and data[i - 1] == 0 else i)
        i += 3
    starts.append(len(data))
    return [data[a:b] for a, b in zip(starts, starts[1:]) if b > a]


class Reporter:
    """The report thread CANN's samples start: it sets the context and processes reports."""

    def __init__(self, acl):
        self.acl, self.stop, self.tid = acl, False, None
        context, _ = acl.rt.get_context()
        ready = threading.Event()

        def loop():
            acl.rt.set_context(context)
            self.tid = threading.get_ident()
            ready.set()
            while not self.stop:
                acl.rt.process_report(20)
        self.thread = threading.Thread(target=loop)
        self.thread.start()
        ready.wait()

    def close(self):
        self.stop = True
        self.thread.join()


@pytest.mark.parametrize("codec,geometry", [("h264", True), ("h265", True), ("h264", False)])
def test_vdec_decodes_like_ffmpeg(acl_session, tmp_path, codec, geometry):
    """geometry False: the output descriptions get only data, size and format, as acllite
    gives them; VDEC fills in the frame's size and the strides it wrote with."""
    acl = acl_session
    m = acl.media
    w, h, n = 64, 48, 6
    data, ref = encode(tmp_path, codec, w, h, n)
    units = access_units(data, codec)
    assert len(units) == n
    reporter = Reporter(acl)
    done = []

    def callback(stream_desc, pic_desc, user):
        done.append((user, m.dvpp_get_pic_desc_ret_code(pic_desc), pic_desc))

    v = m.vdec_create_channel_desc()
    assert m.vdec_set_channel_desc_channel_id(v, 3) == 0
    assert m.vdec_set_channel_desc_thread_id(v, reporter.tid) == 0
    assert m.vdec_set_channel_desc_callback(v, callback) == 0
    assert m.vdec_set_channel_desc_entype(v, H264_MAIN if codec == "h264" else H265) == 0
    assert m.vdec_set_channel_desc_out_pic_format(v, NV12) == 0
    assert m.vdec_create_channel(v) == 0
    ws, hs = align(w, 16), align(h, 2)
    size = ws * hs * 3 // 2
    outs, ins, keep = [], [], []
    for k, unit in enumerate(units):
        if k == 3:  # a damaged unit: only its first bytes
            unit = unit[:12]
        buf, ret = m.dvpp_malloc(len(unit))
        arr = np.frombuffer(unit, np.uint8)
        acl.rt.memcpy(buf, len(unit), acl.util.numpy_to_ptr(arr), len(unit), 1)
        sd = m.dvpp_create_stream_desc()
        m.dvpp_set_stream_desc_data(sd, buf)
        m.dvpp_set_stream_desc_size(sd, len(unit))
        out, _ = m.dvpp_malloc(size)
        pd = m.dvpp_create_pic_desc()
        fields = (("data", out), ("size", size), ("format", NV12), ("width", w),
                  ("height", h), ("width_stride", ws), ("height_stride", hs))
        for key, val in fields if geometry else fields[:3]:
            getattr(m, "dvpp_set_pic_desc_" + key)(pd, val)
        assert m.vdec_send_frame(v, sd, pd, 0, k) == 0
        outs.append((out, pd))
        ins.append((buf, sd))
    # End of stream, then a new stream on the same channel (its first unit again).
    eos = m.dvpp_create_stream_desc()
    assert m.dvpp_set_stream_desc_eos(eos, 1) == 0
    assert m.vdec_send_frame(v, eos, 0, 0, None) == 0
    again, _ = m.dvpp_malloc(size)
    pd = m.dvpp_create_pic_desc()
    for key, val in (("data", again), ("size", size), ("format", NV12)):
        getattr(m, "dvpp_set_pic_desc_" + key)(pd, val)
    assert m.vdec_send_frame(v, ins[0][1], pd, 0, n) == 0
    outs.append((again, pd))
    assert m.vdec_destroy_channel(v) == 0  # drains; the callbacks have run when it returns
    reporter.close()
    assert sorted(u for u, _, _ in done) == list(range(n + 1))
    codes = {u: c for u, c, _ in done}
    assert codes[3] != 0  # the damaged unit
    for k, (out, pd) in enumerate(outs):
        if codes[k] != 0:
            continue
        assert (m.dvpp_get_pic_desc_width(pd), m.dvpp_get_pic_desc_height(pd),
                m.dvpp_get_pic_desc_width_stride(pd), m.dvpp_get_pic_desc_height_stride(pd)) \
            == (w, h, ws, hs)
        got = np.empty(size, np.uint8)
        acl.rt.memcpy(acl.util.numpy_to_ptr(got), size, out, size, 2)
        y = got[:ws * hs].reshape(hs, ws)[:h, :w]
        uv = got[ws * hs:].reshape(hs // 2, ws)[:h // 2, :w]
        want = ref[k % n]
        # Frames before the damage are FFmpeg's exactly; after it, concealment may differ.
        if k < 3 or k == n:
            np.testing.assert_array_equal(y, want[:w * h].reshape(h, w))
            u = want[w * h:w * h + w * h // 4].reshape(h // 2, w // 2)
            np.testing.assert_array_equal(uv[:, 0::2], u)
    assert sum(1 for c in codes.values() if c == 0) >= 3
    for out, pd in outs:
        assert m.dvpp_destroy_pic_desc(pd) == 0 and m.dvpp_free(out) == 0
    for buf, sd in ins:
        assert m.dvpp_destroy_stream_desc(sd) == 0 and m.dvpp_free(buf) == 0
    assert m.dvpp_destroy_stream_desc(eos) == 0
    assert m.vdec_destroy_channel_desc(v) == 0


def test_vdec_refuses_what_it_cannot(acl_session):
    m = acl_session.media
    v = m.vdec_create_channel_desc()
    assert m.vdec_set_channel_desc_channel_id(v, 999) == 100000  # 256 channels at most
    assert m.vdec_set_channel_desc_out_pic_format(v, 12) == 200006  # RGB out: not in OpenCANN
    assert m.vdec_set_channel_desc_out_mode(v, 2) == 100000
    assert m.vdec_create_channel(v) == 100000  # no callback
    assert m.vdec_destroy_channel(v) == 100000  # never created
    assert m.vdec_destroy_channel_desc(v) == 0
    assert m.vdec_destroy_channel_desc(v) == 100000


def test_vdec_channel_ids_are_not_shared(acl_session):
    """Two live VDEC channels cannot have one channel id; the id is free again once
    destroyed."""
    m = acl_session.media
    reporter = Reporter(acl_session)
    descs = []
    for _ in range(2):
        v = m.vdec_create_channel_desc()
        assert m.vdec_set_channel_desc_channel_id(v, 7) == 0
        assert m.vdec_set_channel_desc_thread_id(v, reporter.tid) == 0
        assert m.vdec_set_channel_desc_callback(v, lambda *a: None) == 0
        descs.append(v)
    assert m.vdec_create_channel(descs[0]) == 0
    assert m.vdec_create_channel(descs[1]) == 100000
    assert "channel id 7 is in use" in acl_session.get_recent_err_msg()
    assert m.vdec_destroy_channel(descs[0]) == 0
    assert m.vdec_create_channel(descs[1]) == 0
    assert m.vdec_destroy_channel(descs[1]) == 0
    for v in descs:
        assert m.vdec_destroy_channel_desc(v) == 0
    reporter.close()


def test_video_analysis_example(prefix, tmp_path):
    """examples/video_analysis: VDEC -> VPC -> a trained digits classifier, frame by frame, in
    Python (acl.media) and in C (hi_dvpp.h, built against the install) on the same clip."""
    import os
    from conftest import BUILD, PY, SOURCE, build_example
    r = subprocess.run([PY, os.path.join(SOURCE, "examples", "video_analysis", "analyze.py"),
                        "--build", BUILD, "--frames", "40", "--save", str(tmp_path / "clip")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "frames: 40, classified: 40" in r.stdout and "frames/s" in r.stdout
    python_line = next(line for line in r.stdout.splitlines() if line.startswith("frames:"))
    b = build_example("video_analysis", tmp_path / "build", prefix)
    clip = tmp_path / "clip"
    env = dict(os.environ, OCANN_SOC="Ascend310P3")
    r = subprocess.run([str(b / "video_analysis"), str(clip / "digits16.om"),
                        str(clip / "digits.h264"), str(clip / "labels.txt")],
                       capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert python_line in r.stdout  # the same frames right as the Python pipeline
    env["OCANN_SOC"] = "Ascend310"  # no hi_dvpp.h there: refused at hi_mpi_sys_init
    r = subprocess.run([str(b / "video_analysis"), str(clip / "digits16.om"),
                        str(clip / "digits.h264"), str(clip / "labels.txt")],
                       capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 1 and "hi_mpi_sys_init() failed: 0xa0028008" in r.stderr


VENC_SCRIPT = """
import sys, threading, numpy as np, acl
acl.init(); acl.rt.set_device(0)
m = acl.media
ctx, _ = acl.rt.get_context()
w, h, n = 160, 128, 5
stop, ready, units = False, threading.Event(), []
def loop():
    acl.rt.set_context(ctx)
    loop.tid = threading.get_ident()
    ready.set()
    while not stop:
        acl.rt.process_report(10)
t = threading.Thread(target=loop); t.start(); ready.wait()
def on_unit(pic, stream_desc, k):
    size = m.dvpp_get_stream_desc_size(stream_desc)
    data = np.empty(size, np.uint8)
    acl.rt.memcpy(acl.util.numpy_to_ptr(data), size, m.dvpp_get_stream_desc_data(stream_desc), size, 2)
    units.append((k, data.tobytes()))
v = m.venc_create_channel_desc()
for key, val in (("thread_id", loop.tid), ("entype", int(sys.argv[2])), ("pic_format", 1),
                 ("pic_width", w), ("pic_height", h), ("key_frame_interval", 16)):
    assert getattr(m, "venc_set_channel_desc_" + key)(v, val) == 0, key
assert m.venc_set_channel_desc_callback(v, on_unit) == 0
if sys.argv[3] == "ring":  # the application's stream buffer, used as a ring
    ring, _ = m.dvpp_malloc(1 << 20)
    assert m.venc_set_channel_desc_buf_addr(v, ring) == 0
    assert m.venc_set_channel_desc_buf_size(v, 1 << 20) == 0
ret = m.venc_create_channel(v)
if ret != 0:
    print("CREATE", ret); stop = True; t.join(); sys.exit(0)
frames = []
size = w * h * 3 // 2
buf, _ = m.dvpp_malloc(size)
pic = m.dvpp_create_pic_desc()
for key, val in (("data", buf), ("size", size), ("format", 1), ("width", w), ("height", h),
                 ("width_stride", w), ("height_stride", h)):
    getattr(m, "dvpp_set_pic_desc_" + key)(pic, val)
cfg = m.venc_create_frame_config()
for k in range(n):
    if k == 3:  # end of a stream; the channel then encodes a new one (its own IDR first)
        assert m.venc_set_frame_config_eos(cfg, 1) == 0
        assert m.venc_send_frame(v, 0, 0, cfg, None) == 0
        assert m.venc_set_frame_config_eos(cfg, 0) == 0
    yy, xx = np.mgrid[0:h, 0:w]
    y = ((xx * 2 + yy + k * 9) % 256).astype(np.uint8)
    frame = np.concatenate([y.ravel(), np.full(w * h // 2, 128, np.uint8)])
    frames.append(y)
    acl.rt.memcpy(buf, size, acl.util.numpy_to_ptr(frame), size, 1)
    assert m.venc_send_frame(v, pic, 0, cfg, k) == 0
assert m.venc_set_frame_config_eos(cfg, 1) == 0
assert m.venc_send_frame(v, 0, 0, cfg, None) == 0
assert m.venc_destroy_channel(v) == 0
stop = True; t.join()
np.save(sys.argv[1] + ".frames.npy", np.stack(frames))
open(sys.argv[1], "wb").write(b"".join(d for _, d in sorted(units)))
print("UNITS", len(units))
"""


@pytest.mark.parametrize("codec,entype,buffer", [("h264", 2, "own"), ("hevc", 0, "own"),
                                                 ("h264", 2, "ring")])
def test_venc_encodes_what_ffmpeg_decodes(tmp_path, codec, entype, buffer):
    """Five frames in two streams (an EOS after the third): ffmpeg decodes them all."""
    import os
    from conftest import BUILD, PY
    script = tmp_path / "venc.py"
    script.write_text(VENC_SCRIPT)
    out = tmp_path / f"clip.{codec}"
    env = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"), OCANN_SOC="Ascend310P3")
    r = subprocess.run([PY, str(script), str(out), str(entype), buffer], capture_output=True,
                       text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "UNITS 5" in r.stdout, r.stdout
    dec = subprocess.run(["ffmpeg", "-v", "error", "-f", codec, "-i", str(out), "-f", "rawvideo",
                          "-pix_fmt", "gray", "-"], capture_output=True, check=True).stdout
    got = np.frombuffer(dec, np.uint8).reshape(-1, 128, 160)
    want = np.load(str(out) + ".frames.npy")
    assert got.shape[0] == 5
    psnr = 10 * np.log10(255 ** 2 / np.mean((got.astype(float) - want) ** 2))
    assert psnr > 25, psnr  # a lossy encoder on a pattern with sharp wrap-around edges
    # The default chip (Ascend910B3) has no VENC: refused, naming the chip.
    env["OCANN_SOC"] = "Ascend910B3"
    r = subprocess.run([PY, str(script), str(out), str(entype), buffer], capture_output=True,
                       text=True, env=env, timeout=300)
    assert "CREATE 200006" in r.stdout, r.stdout + r.stderr
