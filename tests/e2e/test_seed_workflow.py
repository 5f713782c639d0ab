"""The seed's section 2 run unchanged: export, the atc command, the Python snippet, msame."""
import os
import shutil
import textwrap

import numpy as np

from conftest import BUILD, PY, export_model, run, tool

SEED_ATC = ["--model=resnet50.onnx", "--framework=5", "--output=resnet50_910B3",
            "--soc_version=Ascend910B3", '--input_shape=input:1,3,224,224', "--input_format=NCHW"]


def seed_dir(tmp_path):
    onnx_path, _, _ = export_model("resnet50", 11)
    shutil.copy(onnx_path, tmp_path / "resnet50.onnx")
    return tmp_path


def test_seed_atc_command_and_python_snippet(tmp_path):
    d = seed_dir(tmp_path)
    # The seed's command, as a shell would pass it (the quotes around --input_shape go).
    r = run([tool("atc"), *SEED_ATC], cwd=d)
    assert r.returncode == 0, r.stdout
    assert r.stdout.splitlines()[0] == "ATC start working now, please wait for a moment."
    assert "ATC run success, welcome to the next use." in r.stdout
    assert (d / "resnet50_910B3.om").stat().st_size > 90_000_000
    # Section 2.4's snippet, unchanged.
    snippet = textwrap.dedent('''
        import acl

        # 1. 初始化 ACL
        acl.init()

        # 2. 加载 OM 模型
        model_id, model_desc = acl.mdl.load_from_file("resnet50_910B3.om")

        # 3. 创建输入/输出 dataset
        input_dataset = acl.mdl.create_dataset()
        output_dataset = acl.mdl.create_dataset()

        # 4. 执行推理
        acl.mdl.execute(model_id, input_dataset, output_dataset)

        # 5. 清理
        acl.mdl.unload(model_id)
        acl.finalize()
        ''')
    (d / "seed.py").write_text(snippet)
    env = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"))
    r = run([PY, "seed.py"], cwd=d, env=env)
    assert r.returncode == 0, r.stderr


def test_pyacl_conventions(acl_session, tmp_path):
    acl = acl_session
    d = seed_dir(tmp_path)
    assert run([tool("atc"), *SEED_ATC], cwd=d).returncode == 0
    model_id, ret = acl.mdl.load_from_file(str(d / "resnet50_910B3.om"))
    assert ret == 0 and model_id > 0
    ds_in, ds_out = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    # Empty datasets: an error code, not an exception.
    assert acl.mdl.execute(model_id, ds_in, ds_out) == 100000
    assert "input" in acl.get_recent_err_msg()
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, model_id) == 0
    assert acl.mdl.get_num_inputs(desc) == 1
    assert acl.mdl.get_input_size_by_index(desc, 0) == 3 * 224 * 224 * 4
    dims, ret = acl.mdl.get_input_dims(desc, 0)
    assert ret == 0 and dims == {"name": "input", "dimCount": 4, "dims": [1, 3, 224, 224]}
    assert acl.mdl.get_input_name_by_index(desc, 0) == "input"
    assert acl.mdl.get_input_data_type(desc, 0) == 0      # ACL_FLOAT
    assert acl.mdl.get_input_format(desc, 0) == 0         # ACL_FORMAT_NCHW
    assert acl.mdl.get_output_dims(desc, 0)[0]["dims"] == [1, 1000]
    work, weight, ret = acl.mdl.query_size(str(d / "resnet50_910B3.om"))
    assert ret == 0 and weight > 90_000_000 and work > 0
    # Host buffers where the model needs device memory are refused, as on an NPU.
    host = np.zeros((1, 3, 224, 224), np.float32)
    buf = acl.create_data_buffer(acl.util.numpy_to_ptr(host), host.nbytes)
    acl.mdl.add_dataset_buffer(ds_in, buf)
    out = np.zeros((1, 1000), np.float32)
    obuf = acl.create_data_buffer(acl.util.numpy_to_ptr(out), out.nbytes)
    acl.mdl.add_dataset_buffer(ds_out, obuf)
    assert acl.mdl.execute(model_id, ds_in, ds_out) == 100000
    assert "device memory" in acl.get_recent_err_msg()
    for b in (buf, obuf):
        assert acl.destroy_data_buffer(b) == 0
    assert acl.mdl.destroy_dataset(ds_in) == 0 and acl.mdl.destroy_dataset(ds_out) == 0
    assert acl.mdl.destroy_desc(desc) == 0
    assert acl.mdl.unload(model_id) == 0
    assert acl.mdl.unload(model_id) == 100011  # ACL_ERROR_INVALID_MODEL_ID
    # util helpers
    data = b"\x01\x02\x03\x04"
    assert acl.util.ptr_to_bytes(acl.util.bytes_to_ptr(data), 4) == data
    arr = np.arange(6, dtype=np.float32)
    view = acl.util.ptr_to_numpy(acl.util.numpy_to_ptr(arr), (2, 3), 11)  # NPY_FLOAT
    assert view.shape == (2, 3) and view[1, 2] == 5


def test_msame_reports_averages_and_writes_outputs(tmp_path):
    d = seed_dir(tmp_path)
    assert run([tool("atc"), *SEED_ATC], cwd=d).returncode == 0
    r = run([tool("msame"), "--model", "resnet50_910B3.om", "--loop", "20"], cwd=d)
    assert r.returncode == 0, r.stdout
    lines = r.stdout.splitlines()
    for expected in ["[INFO] acl init success", "[INFO] open device 0 success",
                     "[INFO] load model resnet50_910B3.om success", "[INFO] create model output success"]:
        assert expected in lines
    assert sum(1 for l in lines if l.startswith("Inference time: ")) == 20
    assert any(l.startswith("Inference average time: ") for l in lines)
    assert any(l.startswith("Inference average time without first time: ") for l in lines)
    # --input .bin, --output with TXT and BIN
    _, x, ref = export_model("resnet50", 11)
    x.tofile(d / "input.bin")
    for fmt in ("BIN", "TXT"):
        out = d / f"out_{fmt}"
        r = run([tool("msame"), "--model", "resnet50_910B3.om", "--input", "input.bin",
                 "--output", str(out), "--outfmt", fmt], cwd=d)
        assert r.returncode == 0, r.stdout
        stamp = os.listdir(out)
        assert len(stamp) == 1
        f = out / stamp[0] / f"resnet50_910B3_output_0.{fmt.lower()}"
        y = np.fromfile(f, np.float32) if fmt == "BIN" else np.loadtxt(f, dtype=np.float32)
        y = y.reshape(ref.shape)
        assert np.abs(y - ref).max() / np.abs(ref).max() < 1e-4
    # a wrong-sized input file is reported, not run
    np.zeros(10, np.float32).tofile(d / "bad.bin")
    r = run([tool("msame"), "--model", "resnet50_910B3.om", "--input", "bad.bin"], cwd=d)
    assert r.returncode != 0 and "bytes" in r.stdout


def test_c_application(tmp_path):
    """examples/c_classify (plain C, acl/acl.h, libascendcl.so) classifies like PyTorch."""
    d = seed_dir(tmp_path)
    assert run([tool("atc"), *SEED_ATC], cwd=d).returncode == 0
    _, x, ref = export_model("resnet50", 11)
    x.tofile(d / "input.bin")
    r = run([os.path.join(BUILD, "bin", "c_classify"), "resnet50_910B3.om", "input.bin"], cwd=d)
    assert r.returncode == 0, r.stdout + r.stderr
    top = [int(t.split(":")[0]) for t in r.stdout.split("top-5:")[1].split()]
    assert top == list(np.argsort(-ref[0])[:5])


def test_python_app(tmp_path):
    """examples/python_app classifies like PyTorch, low-level and InferSession paths agree."""
    from conftest import SOURCE
    d = seed_dir(tmp_path)
    assert run([tool("atc"), *SEED_ATC], cwd=d).returncode == 0
    _, x, ref = export_model("resnet50", 11)
    np.save(d / "x.npy", x)
    env = dict(os.environ, PYTHONPATH=os.path.join(BUILD, "python"))
    r = run([PY, os.path.join(SOURCE, "examples", "python_app", "classify.py"), "resnet50_910B3.om",
             "x.npy"], cwd=d, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    top = int(r.stdout.split("class ")[1].split()[0])
    assert top == int(np.argmax(ref))
