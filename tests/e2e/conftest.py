"""Shared fixtures: where the build is, model export (cached per build), atc runs."""
import os
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("OC_SOURCE_DIR", os.path.abspath(os.path.join(HERE, "..", "..")))
BUILD = os.environ.get("OC_BUILD_DIR", os.path.join(SOURCE, "build"))
sys.path.insert(0, os.path.join(BUILD, "python"))
sys.path.insert(0, HERE)
MODELS = os.path.join(BUILD, "test_models")
PY = "/usr/bin/python3"


def tool(name):
    return os.path.join(BUILD, "bin", name)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=900, **kw)


def export_model(name, opset):
    """Exports a reference model once per build folder (torch is slow to export)."""
    out = os.path.join(MODELS, f"o{opset}")
    path = os.path.join(out, f"{name}.onnx")
    if not os.path.exists(os.path.join(out, f"{name}.output.npy")):
        os.makedirs(out, exist_ok=True)
        r = run([PY, os.path.join(SOURCE, "tests", "models", "export_models.py"), name,
                 "--out", out, "--opset", str(opset)])
        assert r.returncode == 0, r.stderr[-3000:]
    return path, np.load(os.path.join(out, f"{name}.input.npy")), \
        np.load(os.path.join(out, f"{name}.output.npy"))


def atc(*args, cwd=None):
    return run([tool("atc"), *args], cwd=cwd)


@pytest.fixture(scope="session")
def _acl_process():
    import acl
    assert acl.init() == 0
    assert acl.rt.set_device(0) == 0
    yield acl
    acl.rt.reset_device(0)
    acl.finalize()


@pytest.fixture
def acl_session(_acl_process):
    """pyACL, initialised once per run, with device 0's context current on the test's thread
    (as CANN requires for runtime calls): a test that switched or destroyed contexts leaves
    the next one a clean start. Threads a test starts set a context themselves."""
    acl = _acl_process
    assert acl.rt.set_device(0) == 0
    yield acl
    acl.rt.reset_device(0)


def set_attr(a, v):
    """Sets an attribute message from a Python value: bool, int, float, str or a list of
    ints, in the fields b, i, f, s and list.i that GE's AttrDef and TensorFlow's AttrValue
    both use. Anything else is refused, so a fixture never drops an attribute silently."""
    if isinstance(v, bool):
        a.b = v
    elif isinstance(v, int):
        a.i = v
    elif isinstance(v, float):
        a.f = v
    elif isinstance(v, str):
        a.s = v.encode()
    elif isinstance(v, list) and all(isinstance(x, int) for x in v):
        a.list.i.extend(v)
    else:
        raise TypeError(f"no attribute field for {v!r}")


@pytest.fixture(scope="session")
def prefix(tmp_path_factory):
    """One `cmake --install` of the build for the whole run: the tests only read from it."""
    where = tmp_path_factory.mktemp("install") / "prefix"
    r = run(["cmake", "--install", BUILD, "--prefix", str(where)])
    assert r.returncode == 0, r.stdout + r.stderr
    return where


def configure_and_build(src, build, prefix):
    """Configures the CMake project `src` against the installed package and builds it."""
    r = run(["cmake", "-S", str(src), "-B", str(build), f"-DCMAKE_PREFIX_PATH={prefix}"])
    assert r.returncode == 0, r.stdout + r.stderr
    r = run(["cmake", "--build", str(build)])
    assert r.returncode == 0, r.stdout + r.stderr
    return build


def build_example(name, build, prefix):
    """Builds examples/<name> into `build` against the installed package."""
    return configure_and_build(os.path.join(SOURCE, "examples", name), build, prefix)
