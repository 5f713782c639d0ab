"""Dynamic AIPP (aipp_mode: dynamic): the application sets the parameters at run time with
aclmdlCreateAIPP, the aclmdlSetAIPP* setters and aclmdlSetInputAIPP, per image of the batch,
as CANN's dynamic-AIPP samples do. Checked against the numpy formulas of test_aipp."""
import numpy as np
import pytest

from acl_helpers import (ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEMCPY_DEVICE_TO_HOST,
                         ACL_MEMCPY_HOST_TO_DEVICE, check)
from test_aipp import JPEG, build, normalise, yuv_to_rgb

ACL_DYNAMIC_AIPP_NAME = "ascend_dynamic_aipp_data"
ACL_YUV420SP_U8, ACL_RGB888_U8 = 1, 3
ACL_DATA_WITH_DYNAMIC_AIPP, ACL_DYNAMIC_AIPP_NODE = 2, 3


def dynamic_cfg(max_size, rank=0):
    return (f"aipp_op {{\n  aipp_mode: dynamic\n  related_input_rank: {rank}\n"
            f"  max_src_image_size: {max_size}\n}}\n")


class App:
    """A pyACL application feeding one dynamic-AIPP model."""

    def __init__(self, acl, om):
        self.acl = acl
        self.mid, ret = acl.mdl.load_from_file(om)
        check(ret, "load")
        self.desc = acl.mdl.create_desc()
        check(acl.mdl.get_desc(self.desc, self.mid), "get_desc")
        self.aipp_index, ret = acl.mdl.get_input_index_by_name(self.desc, ACL_DYNAMIC_AIPP_NAME)
        check(ret, "get_input_index_by_name")

    def run(self, image_bytes, aipp=None, by_input_index=False):
        """Returns (output or None, ret of set_input_aipp, ret of execute)."""
        acl = self.acl
        ds, out_ds, dev = acl.mdl.create_dataset(), acl.mdl.create_dataset(), []
        try:
            for i in range(acl.mdl.get_num_inputs(self.desc)):
                size = acl.mdl.get_input_size_by_index(self.desc, i)
                ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
                check(ret, "malloc")
                dev.append(ptr)
                host = np.zeros(size, np.uint8)
                if i != self.aipp_index:
                    host[:image_bytes.size] = image_bytes.ravel()
                check(acl.rt.memcpy(ptr, size, acl.util.numpy_to_ptr(host), size,
                                    ACL_MEMCPY_HOST_TO_DEVICE), "h2d")
                acl.mdl.add_dataset_buffer(ds, acl.create_data_buffer(ptr, size))
            size = acl.mdl.get_output_size_by_index(self.desc, 0)
            optr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
            dev.append(optr)
            acl.mdl.add_dataset_buffer(out_ds, acl.create_data_buffer(optr, size))
            set_ret = 0
            if aipp is not None:
                set_ret = (acl.mdl.set_aipp_by_input_index(self.mid, ds, 0, aipp)
                           if by_input_index else
                           acl.mdl.set_input_aipp(self.mid, ds, self.aipp_index, aipp))
                if set_ret != 0:
                    return None, set_ret, None
            ret = acl.mdl.execute(self.mid, ds, out_ds)
            if ret != 0:
                return None, set_ret, ret
            dims, _ = acl.mdl.get_output_dims(self.desc, 0)
            out = np.empty(dims["dims"], np.float32)
            check(acl.rt.memcpy(acl.util.numpy_to_ptr(out), size, optr, size,
                                ACL_MEMCPY_DEVICE_TO_HOST), "d2h")
            return out, set_ret, ret
        finally:
            for d in (ds, out_ds):
                for i in range(acl.mdl.get_dataset_num_buffers(d)):
                    acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(d, i))
                acl.mdl.destroy_dataset(d)
            for p in dev:
                acl.rt.free(p)

    def close(self):
        self.acl.mdl.destroy_desc(self.desc)
        self.acl.mdl.unload(self.mid)


def test_rgb_batch_with_per_image_crop_padding_and_normalisation(acl_session, tmp_path):
    acl = acl_session
    h, w, sh, sw = 8, 10, 12, 16  # model input 8x10; source images 16x12
    r, om = build(tmp_path, (2, 3, h, w), dynamic_cfg(2 * sh * sw * 3 + 100), name="dyn")
    assert r.returncode == 0, r.stdout
    app = App(acl, om)
    try:
        # The model: image input 0 with dynamic AIPP attached to the parameter input.
        kind, attached, ret = acl.mdl.get_aipp_type(app.mid, 0)
        assert ret == 0 and kind == ACL_DATA_WITH_DYNAMIC_AIPP and attached == app.aipp_index
        kind, _, ret = acl.mdl.get_aipp_type(app.mid, app.aipp_index)
        assert ret == 0 and kind == ACL_DYNAMIC_AIPP_NODE
        size, ret = acl.mdl.get_aipp_data_size(2)
        assert ret == 0 and size == acl.mdl.get_input_size_by_index(app.desc, app.aipp_index)
        assert acl.mdl.get_input_size_by_index(app.desc, 0) == 2 * sh * sw * 3 + 100
        assert acl.mdl.get_first_aipp_info(app.mid, 0)[1] == 100038  # not static
        imgs = np.random.RandomState(5).randint(0, 256, (2, sh, sw, 3)).astype(np.uint8)
        aipp = acl.mdl.create_aipp(2)
        assert acl.mdl.set_aipp_input_format(aipp, ACL_RGB888_U8) == 0
        assert acl.mdl.set_aipp_src_image_size(aipp, sw, sh) == 0
        assert acl.mdl.set_aipp_csc_params(aipp, 0, *([0] * 15)) == 0
        assert acl.mdl.set_aipp_rbuv_swap_switch(aipp, 1) == 0  # RGB -> BGR
        # Image 0: a 10x8 crop at (3, 2). Image 1: an 8x6 crop at (0, 5) padded by 1.
        assert acl.mdl.set_aipp_crop_params(aipp, 1, 3, 2, 10, 8, 0) == 0
        assert acl.mdl.set_aipp_crop_params(aipp, 1, 0, 5, 8, 6, 1) == 0
        assert acl.mdl.set_aipp_padding_params(aipp, 1, 1, 1, 1, 1, 1) == 0
        assert acl.mdl.set_aipp_dtc_pixel_mean(aipp, 10, 20, 30, 0, 0) == 0
        assert acl.mdl.set_aipp_dtc_pixel_min(aipp, 0.5, 0.25, 0.1, 0, 1) == 0
        assert acl.mdl.set_aipp_pixel_var_reci(aipp, 0.0171, 0.0175, 0.0174, 1, 0) == 0
        got, set_ret, ret = app.run(imgs, aipp)
        assert set_ret == 0 and ret == 0, acl.get_recent_err_msg()
        bgr = imgs[..., ::-1]
        want0 = normalise(bgr[0, 2:10, 3:13], [10, 20, 30], [0, 0, 0], [0.0171, 0.0175, 0.0174])
        want1 = np.zeros((3, h, w), np.float32)  # padding value 0
        want1[:, 1:7, 1:9] = normalise(bgr[1, 5:11, 0:8], [0, 0, 0], [0.5, 0.25, 0.1], [1, 1, 1])
        np.testing.assert_array_equal(got[0], want0)
        np.testing.assert_array_equal(got[1], want1)
        # The same through aclmdlSetAIPPByInputIndex (given the image input).
        again, set_ret, ret = app.run(imgs, aipp, by_input_index=True)
        assert set_ret == 0 and ret == 0
        np.testing.assert_array_equal(again, got)
        acl.mdl.destroy_aipp(aipp)
    finally:
        app.close()


def test_yuv420sp_with_the_jpeg_csc_at_run_time(acl_session, tmp_path):
    acl = acl_session
    h, w = 8, 12
    r, om = build(tmp_path, (1, 3, h, w), dynamic_cfg(h * w * 3), name="dynyuv")
    assert r.returncode == 0, r.stdout
    app = App(acl, om)
    try:
        rs = np.random.RandomState(7)
        y = rs.randint(0, 256, (h, w)).astype(np.uint8)
        uv = rs.randint(0, 256, (h // 2, w)).astype(np.uint8)
        aipp = acl.mdl.create_aipp(1)
        assert acl.mdl.set_aipp_input_format(aipp, ACL_YUV420SP_U8) == 0
        assert acl.mdl.set_aipp_src_image_size(aipp, w, h) == 0
        m = [v for row in JPEG for v in row]
        assert acl.mdl.set_aipp_csc_params(aipp, 1, *m, 0, 0, 0, 0, 128, 128) == 0
        assert acl.mdl.set_aipp_dtc_pixel_mean(aipp, 104, 117, 123, 0, 0) == 0
        got, set_ret, ret = app.run(np.concatenate([y, uv]), aipp)
        assert set_ret == 0 and ret == 0, acl.get_recent_err_msg()
        u = np.repeat(np.repeat(uv[:, 0::2], 2, 0), 2, 1)
        v = np.repeat(np.repeat(uv[:, 1::2], 2, 0), 2, 1)
        want = normalise(yuv_to_rgb(y, u, v, JPEG, [0, 128, 128]), [104, 117, 123], [0] * 3,
                         [1] * 3)
        np.testing.assert_array_equal(got[0], want)
        acl.mdl.destroy_aipp(aipp)
    finally:
        app.close()


def test_wrong_parameters_are_refused_before_execution(acl_session, tmp_path):
    acl = acl_session
    r, om = build(tmp_path, (2, 3, 8, 10), dynamic_cfg(2 * 8 * 10 * 3), name="dynbad")
    assert r.returncode == 0, r.stdout
    app = App(acl, om)
    try:
        imgs = np.zeros((2, 8, 10, 3), np.uint8)
        # Never set: the parameter input holds zeros and execution says what is missing.
        out, _, ret = app.run(imgs)
        assert out is None and ret != 0 and "aclmdlSetInputAIPP" in acl.get_recent_err_msg()

        def make(batch=2, src=(10, 8), crop=None):
            a = acl.mdl.create_aipp(batch)
            acl.mdl.set_aipp_input_format(a, ACL_RGB888_U8)
            acl.mdl.set_aipp_src_image_size(a, *src)
            for b in range(batch if crop else 0):
                acl.mdl.set_aipp_crop_params(a, 1, *crop, b)
            return a

        cases = [
            (make(batch=1), "images"),                       # batch differs from the model's
            (make(src=(12, 8)), "after crop and padding"),   # output size differs
            (make(src=(20, 16), crop=(0, 0, 10, 8)), "max_src_image_size"),  # too many bytes
            (make(src=(12, 10), crop=(4, 4, 10, 8)), "outside"),  # crop outside the image
        ]
        for aipp, why in cases:
            out, set_ret, _ = app.run(imgs, aipp)
            assert set_ret == 100000 and why in acl.get_recent_err_msg(), (
                why, acl.get_recent_err_msg())
            acl.mdl.destroy_aipp(aipp)
        a = make()
        assert acl.mdl.set_aipp_scf_params(a, 1, 10, 8, 5, 4, 0) == 200006  # no resizing
        assert acl.mdl.set_input_aipp(app.mid, 0, 0, a) != 0  # image input, not parameters
        acl.mdl.destroy_aipp(a)
    finally:
        app.close()


@pytest.mark.parametrize("text,why", [
    ("aipp_op {\n  aipp_mode: dynamic\n}\n", "max_src_image_size is required"),
    ("aipp_op {\n  aipp_mode: dynamic\n  max_src_image_size: 100\n  input_format: RGB888_U8\n}\n",
     "static AIPP field"),
    ("aipp_op {\n  aipp_mode: static\n  input_format: RGB888_U8\n  max_src_image_size: 100\n}\n",
     "only for aipp_mode: dynamic"),
    ("aipp_op {\n  aipp_mode: dynamic\n  max_src_image_size: 100\n}\n"
     "aipp_op {\n  related_input_rank: 1\n  input_format: RGB888_U8\n}\n", "static and dynamic"),
])
def test_malformed_dynamic_configs_are_refused(tmp_path, text, why):
    r, om = build(tmp_path, (1, 3, 8, 10), text, name="dynmal")
    assert r.returncode == 1 and "E10001" in r.stdout and why in r.stdout, r.stdout


def test_c_application_with_dynamic_aipp(tmp_path):
    import os
    import subprocess
    from conftest import BUILD
    n, h, w, sh, sw = 3, 6, 8, 12, 14
    r, om = build(tmp_path, (n, 3, h, w), dynamic_cfg(n * sh * sw * 3), name="dync")
    assert r.returncode == 0, r.stdout
    imgs = np.random.RandomState(9).randint(0, 256, (n, sh, sw, 3)).astype(np.uint8)
    (tmp_path / "imgs.bin").write_bytes(imgs.tobytes())
    r = subprocess.run([os.path.join(BUILD, "tests", "oc_acl_dynamic_aipp"), om,
                        str(tmp_path / "imgs.bin"), str(sw), str(sh), str(tmp_path / "y.bin")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    got = np.fromfile(tmp_path / "y.bin", np.float32).reshape(n, 3, h, w)
    for b in range(n):  # crop at (b, 2b), mean 10b, var_reci 0.5
        crop = imgs[b, 2 * b:2 * b + h, b:b + w]
        np.testing.assert_array_equal(got[b], normalise(crop, [10 * b] * 3, [0] * 3, [0.5] * 3))
