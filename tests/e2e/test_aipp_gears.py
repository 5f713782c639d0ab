"""AIPP with dynamic batch, with dynamic image size and on NHWC inputs, as CANN's samples
combine them: the model input becomes the uint8 NHWC image of each gear, buffers are sized
for the largest gear, and the model sees exactly what static AIPP gives for that gear (a
numpy implementation of CANN's formulas is the reference)."""
import numpy as np
import pytest
import torch

from acl_helpers import check
from conftest import atc
from test_acl_dynamic import DYNAMIC_NAME, Session
from test_aipp import normalise
from test_tensorflow import G, tf  # noqa: F401 (tf is a fixture)

MEAN, MIN, VAR = (10, 20, 30), (0.5, 1.5, 2.0), (0.25, 0.5, 0.125)
CFG = f"""aipp_op {{
  aipp_mode: static
  input_format: RGB888_U8
  mean_chn_0: {MEAN[0]}
  mean_chn_1: {MEAN[1]}
  mean_chn_2: {MEAN[2]}
  min_chn_0: {MIN[0]}
  min_chn_1: {MIN[1]}
  min_chn_2: {MIN[2]}
  var_reci_chn_0: {VAR[0]}
  var_reci_chn_1: {VAR[1]}
  var_reci_chn_2: {VAR[2]}
}}
"""


class Scale(torch.nn.Module):
    def forward(self, x):
        return x * 1.0  # the output is what AIPP fed the model


def export(tmp_path, shape, nhwc=False):
    src = str(tmp_path / "m.onnx")
    axes = {0: "n", 1: "h", 2: "w"} if nhwc else {0: "n", 2: "h", 3: "w"}
    torch.onnx.export(Scale(), torch.zeros(*shape), src, input_names=["x"], output_names=["y"],
                      dynamic_axes={"x": axes, "y": axes}, opset_version=13)
    cfg = tmp_path / "aipp.cfg"
    cfg.write_text(CFG)
    return src, str(cfg)


def convert(src, cfg, out, *flags):
    r = atc(f"--model={src}", "--framework=5", f"--output={out}", "--soc_version=Ascend310P3",
            f"--insert_op_conf={cfg}", *flags)
    return r, out + ".om"


def expected(images):
    return np.stack([normalise(im, MEAN, MIN, VAR) for im in images])


def test_static_aipp_with_dynamic_batch(acl_session, tmp_path):
    acl = acl_session
    src, cfg = export(tmp_path, (1, 3, 6, 8))
    r, om = convert(src, cfg, str(tmp_path / "b"), "--input_shape=x:-1,3,6,8",
                    "--dynamic_batch_size=1,2,4")
    assert r.returncode == 0, r.stdout + r.stderr
    s = Session(acl, om)
    try:
        dims, ret = acl.mdl.get_input_dims(s.desc, 0)
        assert ret == 0 and dims["dims"] == [-1, 6, 8, 3]  # the NHWC uint8 image
        assert acl.mdl.get_input_data_type(s.desc, 0) == 4  # ACL_UINT8
        assert acl.mdl.get_input_size_by_index(s.desc, 0) == 4 * 6 * 8 * 3
        idx, ret = acl.mdl.get_input_index_by_name(s.desc, DYNAMIC_NAME)
        assert ret == 0
        rng = np.random.default_rng(3)
        for b in (2, 4, 1):
            images = rng.integers(0, 256, (b, 6, 8, 3), dtype=np.uint8)
            s.put(0, images)
            assert acl.mdl.set_dynamic_batch_size(s.id, s.in_ds, idx, b) == 0
            check(acl.mdl.execute(s.id, s.in_ds, s.out_ds), "execute")
            got = s.get(0, (b, 3, 6, 8))
            np.testing.assert_array_equal(got, expected(images))
    finally:
        s.close()


def test_static_aipp_with_dynamic_image_size(acl_session, tmp_path):
    acl = acl_session
    src, cfg = export(tmp_path, (1, 3, 6, 8))
    r, om = convert(src, cfg, str(tmp_path / "hw"), "--input_shape=x:1,3,-1,-1",
                    "--dynamic_image_size=6,8;10,4")
    assert r.returncode == 0, r.stdout + r.stderr
    s = Session(acl, om)
    try:
        dims, ret = acl.mdl.get_input_dims(s.desc, 0)
        assert ret == 0 and dims["dims"] == [1, -1, -1, 3]
        assert acl.mdl.get_input_size_by_index(s.desc, 0) == 6 * 8 * 3  # the larger gear
        hw, ret = acl.mdl.get_dynamic_hw(s.desc, -1)
        assert ret == 0 and hw["hw"] == [[6, 8], [10, 4]]
        idx, _ = acl.mdl.get_input_index_by_name(s.desc, DYNAMIC_NAME)
        rng = np.random.default_rng(4)
        for h, w in ((10, 4), (6, 8)):
            images = rng.integers(0, 256, (1, h, w, 3), dtype=np.uint8)
            s.put(0, images)
            assert acl.mdl.set_dynamic_hw_size(s.id, s.in_ds, idx, h, w) == 0
            check(acl.mdl.execute(s.id, s.in_ds, s.out_ds), "execute")
            np.testing.assert_array_equal(s.get(0, (1, 3, h, w)), expected(images))
    finally:
        s.close()


def test_aipp_crop_refused_with_dynamic_image_size(tmp_path):
    src, _ = export(tmp_path, (1, 3, 6, 8))
    cfg = tmp_path / "crop.cfg"
    cfg.write_text("aipp_op {\n aipp_mode: static\n input_format: RGB888_U8\n crop: true\n"
                   " src_image_size_w: 8\n src_image_size_h: 6\n crop_size_w: 4\n"
                   " crop_size_h: 4\n}\n")
    r, om = convert(src, str(cfg), str(tmp_path / "c"), "--input_shape=x:1,3,-1,-1",
                    "--dynamic_image_size=4,4;6,8")
    assert r.returncode != 0
    assert "dynamic_image_size" in r.stdout + r.stderr
    assert "crop" in r.stdout + r.stderr


def test_aipp_still_refused_with_dynamic_dims(tmp_path):
    src, cfg = export(tmp_path, (1, 3, 6, 8))
    r, _ = convert(src, cfg, str(tmp_path / "d"), "--input_format=ND",
                   "--input_shape=x:-1,3,6,8", "--dynamic_dims=1;2")
    assert r.returncode != 0 and "E10001" in r.stdout + r.stderr


@pytest.mark.parametrize("gears", [False, True])
def test_static_aipp_on_a_tensorflow_nhwc_input(acl_session, tmp_path, tf, gears):
    # A TensorFlow model: the input is N x H x W x C, and AIPP's result is laid out so.
    acl = acl_session
    g = G(tf)
    x = g.placeholder("x", [-1, 6, 8, 3])
    g.node("y", "Mul", [x, g.const("one", np.ones((1,), np.float32))], T=("type", tf.DT_FLOAT))
    pb = g.save(str(tmp_path / "m.pb"))
    cfg = tmp_path / "aipp.cfg"
    cfg.write_text(CFG)
    flags = (["--input_shape=x:-1,6,8,3", "--dynamic_batch_size=1,2"] if gears
             else ["--input_shape=x:2,6,8,3"])
    r = atc(f"--model={pb}", "--framework=3", f"--output={tmp_path / 'nhwc'}",
            "--soc_version=Ascend310P3", f"--insert_op_conf={cfg}", *flags)
    assert r.returncode == 0, r.stdout + r.stderr
    s = Session(acl, str(tmp_path / "nhwc.om"))
    try:
        dims, _ = acl.mdl.get_input_dims(s.desc, 0)
        assert dims["dims"] == ([-1, 6, 8, 3] if gears else [2, 6, 8, 3])
        images = np.random.default_rng(5).integers(0, 256, (2, 6, 8, 3), dtype=np.uint8)
        s.put(0, images)
        if gears:
            idx, _ = acl.mdl.get_input_index_by_name(s.desc, DYNAMIC_NAME)
            assert acl.mdl.set_dynamic_batch_size(s.id, s.in_ds, idx, 2) == 0
        check(acl.mdl.execute(s.id, s.in_ds, s.out_ds), "execute")
        want = expected(images).transpose(0, 2, 3, 1)
        np.testing.assert_array_equal(s.get(0, (2, 6, 8, 3)), want)
    finally:
        s.close()


def test_yuv420sp_aipp_with_dynamic_image_size_through_infer_session(tmp_path):
    """A YUV420SP image holds H * 3/2 rows: InferSession picks the gear from the luma height,
    and each gear's result is the one a static model of that size gives."""
    from acl_infer import InferSession
    from test_aipp import JPEG, matrix_lines
    cfg = tmp_path / "yuv.cfg"
    cfg.write_text("aipp_op {\n  aipp_mode: static\n  input_format: YUV420SP_U8\n"
                   "  csc_switch: true\n" + matrix_lines(JPEG) +
                   "  input_bias_0: 0\n  input_bias_1: 128\n  input_bias_2: 128\n}\n")
    src, _ = export(tmp_path, (1, 3, 6, 8))
    r, dyn = convert(src, str(cfg), str(tmp_path / "dyn"), "--input_shape=x:1,3,-1,-1",
                     "--dynamic_image_size=6,8;10,4")
    assert r.returncode == 0, r.stdout + r.stderr
    rng = np.random.default_rng(7)
    with InferSession(0, dyn) as s:
        for h, w in ((10, 4), (6, 8)):
            r, static = convert(src, str(cfg), str(tmp_path / f"s{h}"), f"--input_shape=x:1,3,{h},{w}")
            assert r.returncode == 0, r.stdout + r.stderr
            image = rng.integers(0, 256, (1, h * 3 // 2, w, 1), dtype=np.uint8)
            (got,) = s.infer([image])
            with InferSession(0, static) as one:
                (want,) = one.infer([image])
            assert got.shape == (1, 3, h, w)
            np.testing.assert_array_equal(got, want)
        with pytest.raises(ValueError, match="YUV420SP"):
            s.infer([np.zeros((1, 7, 4, 1), np.uint8)])
