"""make install: headers, libascendcl.so, tools, Python module and a CMake package that an
application finds with find_package(OpenCANN)."""
import glob
import os
import subprocess

from conftest import BUILD, PY, SOURCE, atc, run
from make_onnx import tiny_mlp


def test_install_and_build_against_package(tmp_path):
    prefix = tmp_path / "prefix"
    r = run(["cmake", "--install", BUILD, "--prefix", str(prefix)])
    assert r.returncode == 0, r.stdout + r.stderr
    assert (prefix / "include" / "acl" / "acl.h").exists()
    assert (prefix / "include" / "acl" / "error_codes" / "rt_error_codes.h").exists()
    assert (prefix / "bin" / "atc").exists() and (prefix / "bin" / "msame").exists()
    libs = glob.glob(str(prefix / "lib*" / "**" / "libascendcl.so"), recursive=True)
    assert libs, os.listdir(prefix)
    configs = glob.glob(str(prefix / "**" / "OpenCANNConfig.cmake"), recursive=True)
    assert configs
    # The installed tools run from the prefix (RPATH), the Python module imports.
    m = tiny_mlp(tmp_path / "mlp.onnx")
    r = run([str(prefix / "bin" / "atc"), f"--model={m}", "--framework=5",
             f"--output={tmp_path / 'mlp'}", "--soc_version=Ascend910B3"])
    assert r.returncode == 0, r.stdout
    mods = glob.glob(str(prefix / "**" / "dist-packages" / "acl*.so"), recursive=True)
    assert mods
    env = dict(os.environ, PYTHONPATH=os.path.dirname(mods[0]))
    r = subprocess.run([PY, "-c", "import acl; print(acl.init())"], capture_output=True, text=True,
                       env=env)
    assert r.returncode == 0 and r.stdout.strip() == "0", r.stderr
    # An application configured against the installed package only.
    app = tmp_path / "app"
    r = run(["cmake", "-S", os.path.join(SOURCE, "examples", "c_classify"), "-B", str(app),
             f"-DCMAKE_PREFIX_PATH={prefix}"])
    assert r.returncode == 0, r.stdout + r.stderr
    r = run(["cmake", "--build", str(app)])
    assert r.returncode == 0, r.stdout + r.stderr
    r = run([str(app / "c_classify"), str(tmp_path / "mlp.om")])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "top-5:" in r.stdout


def test_ascendc_kernel_builds_against_installed_package(tmp_path):
    prefix = tmp_path / "prefix"
    r = run(["cmake", "--install", BUILD, "--prefix", str(prefix)])
    assert r.returncode == 0, r.stdout + r.stderr
    assert (prefix / "include" / "kernel_operator.h").exists()
    assert (prefix / "include" / "tikicpulib.h").exists()
    app = tmp_path / "kernel"
    r = run(["cmake", "-S", os.path.join(SOURCE, "examples", "ascendc_add"), "-B", str(app),
             f"-DCMAKE_PREFIX_PATH={prefix}"])
    assert r.returncode == 0, r.stdout + r.stderr
    r = run(["cmake", "--build", str(app)])
    assert r.returncode == 0, r.stdout + r.stderr
    r = run([str(app / "add_custom_cpu")], cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "PASS: 0 of 16384" in r.stdout and "[SUCCESS] add_custom: 8 blocks" in r.stdout
    assert "bound by MTE2" in r.stdout
    assert (tmp_path / "add_custom_cost.json").exists()
