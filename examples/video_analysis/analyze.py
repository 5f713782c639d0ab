#!/usr/bin/env python3
"""The source material's video-analysis pipeline ("DVPP 硬件解码 + AI Core 推理"), end to end:

1. train a small CNN on scikit-learn's handwritten digits, shown at 16x16, and convert it
   with atc;
2. make an H.264 clip whose frames are test digits (64x64, with the `ffmpeg` command);
3. decode the clip with DVPP's VDEC (one access unit per send, callbacks on a report thread);
4. resize each frame with VPC to the model's 16x16 (grey: YUV_400);
5. classify each frame with the .om through AscendCL and print the accuracy and the frames
   per second of the whole pipeline.

    /usr/bin/python3 examples/video_analysis/analyze.py [--build build] [--frames 120]
        [--save DIR]   # also keep the .om, the clip and the labels for analyze.c
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
NV12, YUV400, H264_MAIN = 1, 0, 2
SIDE, MODEL_SIDE = 64, 16


def train_model(workdir, build):
    """A digits CNN on 16x16 (bilinear 2x of the 8x8 set), exported and converted."""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split
    torch.manual_seed(0)
    digits = load_digits()
    x = torch.tensor(digits.images, dtype=torch.float32)[:, None] / 16.0
    x = F.interpolate(x, size=(MODEL_SIDE, MODEL_SIDE), mode="bilinear", align_corners=False)
    y = torch.tensor(digits.target)
    x_tr, x_te, y_tr, y_te = train_test_split(x, y, test_size=0.25, random_state=0)
    model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                          nn.Flatten(), nn.Linear(32 * 4 * 4, 10))
    opt = torch.optim.Adam(model.parameters(), 3e-3)
    for _ in range(15):
        for i in range(0, len(x_tr), 64):
            opt.zero_grad()
            F.cross_entropy(model(x_tr[i:i + 64]), y_tr[i:i + 64]).backward()
            opt.step()
    model.eval()
    onnx_path = os.path.join(workdir, "digits16.onnx")
    torch.onnx.export(model, torch.zeros(1, 1, MODEL_SIDE, MODEL_SIDE), onnx_path,
                      input_names=["image"], output_names=["logits"], opset_version=13)
    om = os.path.join(workdir, "digits16")
    r = subprocess.run([os.path.join(build, "bin", "atc"), f"--model={onnx_path}", "--framework=5",
                        f"--output={om}", "--soc_version=Ascend310P3"], capture_output=True,
                       text=True)
    if r.returncode != 0:
        sys.exit(r.stdout + r.stderr)
    return om + ".om", x_te.numpy(), y_te.numpy()


def make_clip(workdir, images, labels, frames):
    """An H.264 stream (Annex-B, an access unit delimiter before each frame) of test digits."""
    raw = bytearray()
    for k in range(frames):
        digit = images[k % len(images)][0]
        big = np.kron(digit, np.ones((SIDE // MODEL_SIDE, SIDE // MODEL_SIDE), np.float32))
        luma = np.clip(big * 255, 0, 255).astype(np.uint8)
        raw += luma.tobytes() + bytes([128]) * (SIDE * SIDE // 2)  # yuv420p: grey chroma
    path = os.path.join(workdir, "digits.h264")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuv420p",
                    "-s", f"{SIDE}x{SIDE}", "-r", "25", "-i", "-", "-c:v", "libx264", "-qp", "4",
                    "-x264-params", "aud=1:bframes=0", "-f", "h264", path],
                   input=bytes(raw), check=True)
    data = open(path, "rb").read()
    units, i, starts = [], 0, []
    while (i := data.find(b"\x00\x00\x01\x09", i)) >= 0:  # access unit delimiters
        starts.append(i - 1 if i and data[i - 1] == 0 else i)
        i += 4
    starts.append(len(data))
    units = [data[a:b] for a, b in zip(starts, starts[1:])]
    return units, [int(labels[k % len(labels)]) for k in range(frames)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--frames", type=int, default=120)
    ap.add_argument("--save", help="a folder for digits16.om, digits.h264 and labels.txt")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    sys.path.insert(0, os.path.join(build, "python"))
    import acl
    from acl_infer import InferSession

    work = tempfile.mkdtemp(prefix="video_analysis_")
    print("== 1. train and convert the classifier", flush=True)
    om, images, labels = train_model(work, build)
    print("== 2. encode the clip", flush=True)
    units, truth = make_clip(work, images, labels, args.frames)
    if args.save:
        os.makedirs(args.save, exist_ok=True)
        shutil.copy(om, os.path.join(args.save, "digits16.om"))
        with open(os.path.join(args.save, "digits.h264"), "wb") as f:
            f.write(b"".join(units))
        with open(os.path.join(args.save, "labels.txt"), "w") as f:
            f.write("".join(f"{t}\n" for t in truth))

    session = InferSession(0, om)  # aclInit, the device and the model
    m = acl.media
    context, _ = acl.rt.get_context()
    stream, _ = acl.rt.create_stream()
    vpc = m.dvpp_create_channel_desc()
    m.dvpp_create_channel(vpc)
    resize = m.dvpp_create_resize_config()
    m.dvpp_set_resize_config_interpolation(resize, 1)
    # VPC's width stride is at least 32 bytes (a rule the NPU enforces; OpenCANN says so).
    small_stride = 32
    small_size = small_stride * MODEL_SIDE
    small, _ = m.dvpp_malloc(small_size)
    small_pic = m.dvpp_create_pic_desc()
    for key, value in (("data", small), ("size", small_size), ("format", YUV400),
                       ("width", MODEL_SIDE), ("height", MODEL_SIDE),
                       ("width_stride", small_stride), ("height_stride", MODEL_SIDE)):
        getattr(m, "dvpp_set_pic_desc_" + key)(small_pic, value)

    predictions = {}
    frame_size = SIDE * SIDE * 3 // 2
    stop = False

    def on_frame(stream_desc, pic, k):
        """VDEC's callback (on the report thread): VPC resize, then the classifier."""
        if m.dvpp_get_pic_desc_ret_code(pic) != 0:
            predictions[k] = -1
            return
        assert m.dvpp_vpc_resize_async(vpc, pic, small_pic, resize, stream) == 0
        assert acl.rt.synchronize_stream(stream) == 0
        luma = np.empty(small_size, np.uint8)
        acl.rt.memcpy(acl.util.numpy_to_ptr(luma), small_size, small, small_size, 2)
        x = luma.reshape(MODEL_SIDE, small_stride)[:, :MODEL_SIDE][None, None]
        x = x.astype(np.float32) / 255.0
        (logits,) = session.infer([x])
        predictions[k] = int(logits.argmax())

    def report_loop(ready):
        acl.rt.set_context(context)
        report_loop.tid = threading.get_ident()
        ready.set()
        while not stop:
            acl.rt.process_report(10)

    ready = threading.Event()
    reporter = threading.Thread(target=report_loop, args=(ready,))
    reporter.start()
    ready.wait()

    print(f"== 3-5. VDEC -> VPC -> classifier on {len(units)} frames", flush=True)
    vdec = m.vdec_create_channel_desc()
    m.vdec_set_channel_desc_channel_id(vdec, 0)
    m.vdec_set_channel_desc_thread_id(vdec, report_loop.tid)
    m.vdec_set_channel_desc_callback(vdec, on_frame)
    m.vdec_set_channel_desc_entype(vdec, H264_MAIN)
    m.vdec_set_channel_desc_out_pic_format(vdec, NV12)
    assert m.vdec_create_channel(vdec) == 0
    buffers = []
    start = time.perf_counter()
    for k, unit in enumerate(units):
        data, _ = m.dvpp_malloc(len(unit))
        arr = np.frombuffer(unit, np.uint8)
        acl.rt.memcpy(data, len(unit), acl.util.numpy_to_ptr(arr), len(unit), 1)
        sd = m.dvpp_create_stream_desc()
        m.dvpp_set_stream_desc_data(sd, data)
        m.dvpp_set_stream_desc_size(sd, len(unit))
        out, _ = m.dvpp_malloc(frame_size)
        pic = m.dvpp_create_pic_desc()
        for key, value in (("data", out), ("size", frame_size), ("format", NV12), ("width", SIDE),
                           ("height", SIDE), ("width_stride", SIDE), ("height_stride", SIDE)):
            getattr(m, "dvpp_set_pic_desc_" + key)(pic, value)
        assert m.vdec_send_frame(vdec, sd, pic, 0, k) == 0
        buffers.append((data, sd, out, pic))
    assert m.vdec_destroy_channel(vdec) == 0  # drains: every callback has run
    elapsed = time.perf_counter() - start
    stop = True
    reporter.join()

    right = sum(predictions.get(k) == t for k, t in enumerate(truth))
    print(f"frames: {len(truth)}, classified: {len(predictions)}, right: {right} "
          f"({100.0 * right / len(truth):.1f} %)")
    print(f"pipeline: {len(truth) / elapsed:.1f} frames/s (VDEC + VPC + inference on the CPU "
          f"emulation; an NPU's rate differs)")
    for data, sd, out, pic in buffers:
        m.dvpp_destroy_pic_desc(pic)
        m.dvpp_free(out)
        m.dvpp_destroy_stream_desc(sd)
        m.dvpp_free(data)
    m.vdec_destroy_channel_desc(vdec)
    m.dvpp_destroy_pic_desc(small_pic)
    m.dvpp_free(small)
    m.dvpp_destroy_resize_config(resize)
    m.dvpp_destroy_channel(vpc)
    m.dvpp_destroy_channel_desc(vpc)
    acl.rt.destroy_stream(stream)
    session.free_resource()
    return 0 if right >= 0.9 * len(truth) else 1


if __name__ == "__main__":
    raise SystemExit(main())
