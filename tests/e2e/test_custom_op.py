"""Custom operators: msopgen projects built against an installed OpenCANN, installed as
packages, converted by atc and run through AscendCL with the kernel in the Ascend C
emulation; and every kind of bad input along the way."""
import json
import os
import subprocess

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from conftest import BUILD, PY, SOURCE, run


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    root = tmp_path_factory.mktemp("prefix")
    r = run(["cmake", "--install", BUILD, "--prefix", str(root)])
    assert r.returncode == 0, r.stdout + r.stderr
    return root


def env_with(opp_paths=(), **extra):
    env = dict(os.environ)
    env["ASCEND_CUSTOM_OPP_PATH"] = ":".join(str(p) for p in opp_paths)
    env["PYTHONPATH"] = os.path.join(BUILD, "python")
    env.update(extra)
    return env


def atc(model, out, env, soc="Ascend910B3"):
    return subprocess.run([os.path.join(BUILD, "bin", "atc"), f"--model={model}", "--framework=5",
                           f"--output={out}", f"--soc_version={soc}"],
                          capture_output=True, text=True, env=env, timeout=300)


def msopgen(*args):
    return run([os.path.join(BUILD, "bin", "msopgen"), *args])


def save_model(path, nodes, inputs, outputs, inits=()):
    g = helper.make_graph(nodes, "custom_model", inputs, outputs, list(inits))
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13),
                                                  helper.make_opsetid("custom", 1)]), str(path))
    return str(path)


def infer(om, arrays, env):
    script = ("import sys, numpy as np\nfrom acl_infer import InferSession\n"
              "ins = [np.load(p) for p in sys.argv[2:-1]]\n"
              "with InferSession(0, sys.argv[1]) as s:\n    outs = s.infer(ins)\n"
              "np.save(sys.argv[-1], outs[0])\n")
    paths = []
    for i, a in enumerate(arrays):
        paths.append(os.path.join(os.path.dirname(om), f"in{i}.npy"))
        np.save(paths[-1], a)
    out = os.path.join(os.path.dirname(om), "out.npy")
    r = subprocess.run([PY, "-c", script, om, *paths, out], capture_output=True, text=True,
                       env=env, timeout=300)
    return r, (np.load(out) if r.returncode == 0 else None)


def test_seed_custom_relu_example_end_to_end(prefix, tmp_path):
    """examples/custom_relu/run.sh: msopgen -> kernel -> package -> ONNX (torch custom
    symbolic) -> atc -> AscendCL from Python, matching torch.relu."""
    r = subprocess.run([os.path.join(SOURCE, "examples", "custom_relu", "run.sh"), str(tmp_path)],
                       capture_output=True, text=True, timeout=900,
                       env=dict(os.environ, OPENCANN_ROOT=str(prefix)))
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    assert "max relative error" in r.stdout
    err = float(r.stdout.rsplit("max relative error", 1)[1].split()[0])
    assert err < 1e-5


OPS = [
    {"op": "AddCustom",
     "input_desc": [{"name": "x", "param_type": "required", "format": ["ND", "ND"],
                     "type": ["fp16", "float"]},
                    {"name": "y", "param_type": "required", "format": ["ND", "ND"],
                     "type": ["fp16", "float"]}],
     "output_desc": [{"name": "z", "param_type": "required", "format": ["ND", "ND"],
                      "type": ["fp16", "float"]}],
     "attr": [{"name": "alpha", "param_type": "optional", "type": "float",
               "default_value": "1.0"}]},
    {"op": "BadKernel",
     "input_desc": [{"name": "x", "type": ["float"]}],
     "output_desc": [{"name": "y", "type": ["float"]}]},
    # List attributes: aclnnListAttrs takes them as aclIntArray / aclFloatArray.
    {"op": "ListAttrs",
     "input_desc": [{"name": "x", "type": ["float"]}],
     "output_desc": [{"name": "y", "type": ["float"]}],
     "attr": [{"name": "axes", "param_type": "required", "type": "listInt"},
              {"name": "weights", "param_type": "optional", "type": "listFloat",
               "default_value": "{1.0}"}]},
    # An optional input aclnn callers may pass as NULL.
    {"op": "OptInput",
     "input_desc": [{"name": "x", "type": ["float"]},
                    {"name": "bias", "param_type": "optional", "type": ["float"]}],
     "output_desc": [{"name": "y", "type": ["float"]}]},
    {"op": "CrashKernel",
     "input_desc": [{"name": "x", "type": ["float"]}],
     "output_desc": [{"name": "y", "type": ["float"]}]},
    # Named like a C library function (its kernel is expm1), types and formats written
    # without lists, as CANN's msopgen accepts them.
    {"op": "Expm1",
     "input_desc": [{"name": "x", "type": "float32", "format": "ND"}],
     "output_desc": [{"name": "y", "type": "float32", "format": "ND"}]},
]

# A kernel that writes through a wild pointer: the NPU would raise an AI Core exception.
CRASH_KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void crash_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR t) {
  volatile uintptr_t address = 64;
  *reinterpret_cast<volatile float*>(address) = 1.0f;
}
"""

# A kernel that breaks the rules: 256 KiB of UB on a 192 KiB core.
BAD_KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void bad_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR t) {
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> q;
  pipe.InitBuffer(q, 1, 256 * 1024);
}
"""


@pytest.fixture(scope="module")
def package(prefix, tmp_path_factory):
    work = tmp_path_factory.mktemp("oppwork")
    spec = work / "ops.json"
    spec.write_text(json.dumps(OPS))
    r = msopgen("gen", "-i", str(spec), "-c", "ai_core-Ascend910B3", "-lan", "cpp",
                "-out", str(work / "proj"), "-v", "acme")
    assert r.returncode == 0, r.stdout + r.stderr
    proj = work / "proj"
    for f in ["CMakeLists.txt", "CMakePresets.json", "build.sh", "README.md",
              "op_host/add_custom.cpp", "op_host/add_custom_tiling.h",
              "op_kernel/add_custom.cpp", "op_kernel/add_custom_entry.cpp"]:
        assert (proj / f).exists(), f
    (proj / "op_kernel" / "bad_kernel.cpp").write_text(BAD_KERNEL)
    (proj / "op_kernel" / "crash_kernel.cpp").write_text(CRASH_KERNEL)
    r = subprocess.run([str(proj / "build.sh")], capture_output=True, text=True, timeout=900,
                       env=dict(os.environ, OPENCANN_ROOT=str(prefix)))
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    installer = proj / "build_out" / "custom_opp_linux_x86_64.run"
    r = run([str(installer), f"--install-path={work / 'opp'}"])
    assert r.returncode == 0, r.stdout + r.stderr
    vendor = work / "opp" / "vendors" / "acme"
    assert (vendor / "op_impl" / "lib" / "libcust_kernel_expm1_0.so").exists()
    env_line = (vendor / "bin" / "set_env.bash").read_text()
    assert f"ASCEND_CUSTOM_OPP_PATH={vendor}" in env_line
    return vendor


def test_generated_skeleton_builds_and_runs_for_each_type(package, tmp_path):
    """The kernel msopgen writes compiles and runs: it copies input x to output z, for the
    fp16 and the float combination (one kernel library each)."""
    env = env_with([package])
    for onnx_type, np_type in ((TensorProto.FLOAT, np.float32), (TensorProto.FLOAT16, np.float16)):
        d = tmp_path / str(onnx_type)
        d.mkdir()
        m = save_model(d / "m.onnx",
                       [helper.make_node("AddCustom", ["x", "y"], ["z"], domain="custom", alpha=2.0)],
                       [helper.make_tensor_value_info("x", onnx_type, [5, 999]),
                        helper.make_tensor_value_info("y", onnx_type, [5, 999])],
                       [helper.make_tensor_value_info("z", onnx_type, [5, 999])])
        r = atc(m, d / "m", env)
        assert r.returncode == 0, r.stdout
        x = np.random.default_rng(0).standard_normal((5, 999)).astype(np_type)
        r, z = infer(str(d / "m.om"), [x, x], env)
        assert r.returncode == 0, r.stderr[-3000:]
        np.testing.assert_array_equal(z, x)


def test_custom_op_between_device_steps_on_the_guarded_backend(package, tmp_path):
    """A package op between two steps on a device the host cannot read (the guarded
    backend, whose memory faults on any host access): AscendCL's buffers and the Relu and
    Sigmoid live there, the package kernel runs in the emulation on host copies the runtime
    makes, and the answer is numpy's."""
    m = save_model(tmp_path / "m.onnx",
                   [helper.make_node("Relu", ["x"], ["r"]),
                    helper.make_node("AddCustom", ["r", "y"], ["a"], domain="custom", alpha=2.0),
                    helper.make_node("Sigmoid", ["a"], ["z"])],
                   [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 300]),
                    helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 300])],
                   [helper.make_tensor_value_info("z", TensorProto.FLOAT, [4, 300])])
    env = env_with([package])
    r = atc(m, tmp_path / "m", env)
    assert r.returncode == 0, r.stdout
    x = np.random.default_rng(1).standard_normal((4, 300)).astype(np.float32)
    r, z = infer(str(tmp_path / "m.om"), [x, x], env_with([package], OCANN_BACKENDS="guarded,cpu"))
    assert r.returncode == 0, r.stderr[-3000:]
    np.testing.assert_allclose(z, 1 / (1 + np.exp(-np.maximum(x, 0))), rtol=1e-6, atol=1e-7)


def test_package_installed_into_the_toolkit_needs_no_env_of_its_own(prefix, package, tmp_path):
    """After `source set_env.sh`, the package's .run installs into $ASCEND_OPP_PATH/vendors by
    default, and atc and AscendCL find it there without the package's own set_env.bash."""
    installer = package.parents[2] / "proj" / "build_out" / "custom_opp_linux_x86_64.run"
    toolkit = tmp_path / "toolkit"
    r = run(["cmake", "--install", BUILD, "--prefix", str(toolkit)])
    assert r.returncode == 0, r.stdout + r.stderr
    m = save_model(tmp_path / "m.onnx",
                   [helper.make_node("AddCustom", ["x", "y"], ["z"], domain="custom", alpha=2.0)],
                   [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 64]),
                    helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 64])],
                   [helper.make_tensor_value_info("z", TensorProto.FLOAT, [4, 64])])
    x = np.random.default_rng(1).standard_normal((4, 64)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    script = f"""set -e
source {toolkit}/set_env.sh
unset ASCEND_CUSTOM_OPP_PATH
{installer}
atc --model={m} --framework=5 --output={tmp_path}/m --soc_version=Ascend910B3 >/dev/null
/usr/bin/python3 - <<'PY'
import numpy as np
from acl_infer import InferSession
x = np.load("{tmp_path}/x.npy")
with InferSession(0, "{tmp_path}/m.om") as s:
    np.save("{tmp_path}/z.npy", s.infer([x, x])[0])
PY
"""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ASCEND_CUSTOM_OPP_PATH")}
    r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert (toolkit / "opp" / "vendors" / "acme" / "op_impl").is_dir()
    np.testing.assert_array_equal(np.load(tmp_path / "z.npy"), x)


def test_soc_version_reaches_the_tiling_and_the_launch(package, tmp_path):
    """atc's --soc_version is the chip the package's tiling sees (PlatformAscendC from the
    context's platform info) and the one the emulated launch models: the generated tiling
    uses one block per vector core, 48 on Ascend910B1 and 40 on Ascend910B3."""
    env = env_with([package], OCANN_ASCENDC_REPORT="1")
    x = np.random.default_rng(1).standard_normal((64, 4096)).astype(np.float32)
    for soc, blocks in (("Ascend910B1", 48), ("Ascend910B3", 40)):
        d = tmp_path / soc
        d.mkdir()
        m = save_model(d / "m.onnx",
                       [helper.make_node("AddCustom", ["x", "y"], ["z"], domain="custom")],
                       [helper.make_tensor_value_info("x", TensorProto.FLOAT, [64, 4096]),
                        helper.make_tensor_value_info("y", TensorProto.FLOAT, [64, 4096])],
                       [helper.make_tensor_value_info("z", TensorProto.FLOAT, [64, 4096])])
        r = atc(m, d / "m", env, soc=soc)
        assert r.returncode == 0, r.stdout
        r, z = infer(str(d / "m.om"), [x, x], env)
        assert r.returncode == 0, r.stderr[-3000:]
        np.testing.assert_array_equal(z, x)
        assert f"{blocks} blocks on {soc}" in r.stdout, r.stdout[-2000:]


def test_faulting_kernel_is_contained_and_reported(package, tmp_path):
    env = env_with([package])
    m = save_model(tmp_path / "bad.onnx",
                   [helper.make_node("BadKernel", ["x"], ["y"], domain="custom")],
                   [helper.make_tensor_value_info("x", TensorProto.FLOAT, [64])],
                   [helper.make_tensor_value_info("y", TensorProto.FLOAT, [64])])
    r = atc(m, tmp_path / "bad", env)
    assert r.returncode == 0, r.stdout
    r, _ = infer(str(tmp_path / "bad.om"), [np.zeros(64, np.float32)], env)
    assert r.returncode != 0
    assert "507011" in r.stderr  # ACL_ERROR_RT_MODEL_EXECUTE, raised as AclError
    assert "[kernel bad_kernel_0][block 0] TPipe::InitBuffer: UB capacity exceeded" in r.stderr


def test_crashing_kernel_is_contained(package, tmp_path):
    env = env_with([package])
    m = save_model(tmp_path / "crash.onnx",
                   [helper.make_node("CrashKernel", ["x"], ["y"], domain="custom")],
                   [helper.make_tensor_value_info("x", TensorProto.FLOAT, [64])],
                   [helper.make_tensor_value_info("y", TensorProto.FLOAT, [64])])
    assert atc(m, tmp_path / "crash", env).returncode == 0
    r, _ = infer(str(tmp_path / "crash.om"), [np.zeros(64, np.float32)], env)
    assert r.returncode != 0 and "Segmentation" not in r.stderr
    assert "507011" in r.stderr and "the kernel crashed: SIGSEGV" in r.stderr


def test_models_misusing_custom_ops_fail_in_atc(package, tmp_path):
    env = env_with([package])
    info = helper.make_tensor_value_info
    cases = {
        # One input where the op needs two.
        "arity": [helper.make_node("AddCustom", ["x"], ["z"], domain="custom")],
        # int32 is not among the package's types.
        "dtype": [helper.make_node("Cast", ["x"], ["i"], to=TensorProto.INT32),
                  helper.make_node("AddCustom", ["i", "i"], ["z"], domain="custom")],
        # float and fp16 mixed: no kernel combination has that.
        "combo": [helper.make_node("Cast", ["x"], ["h"], to=TensorProto.FLOAT16),
                  helper.make_node("AddCustom", ["x", "h"], ["z"], domain="custom")],
    }
    want = {"arity": "AddCustom", "dtype": "has type int32; the package supports float16, float32",
            "combo": "no kernel for the types"}
    for name, nodes in cases.items():
        m = save_model(tmp_path / f"{name}.onnx", nodes, [info("x", TensorProto.FLOAT, [8])],
                       [info("z", TensorProto.FLOAT, [8])])
        r = atc(m, tmp_path / name, env)
        assert r.returncode != 0, name
        assert want[name] in r.stdout, (name, r.stdout)
        assert not (tmp_path / f"{name}.om").exists()
    # Without the package the op is unknown: CANN's EZ3003.
    m = save_model(tmp_path / "none.onnx",
                   [helper.make_node("AddCustom", ["x", "x"], ["z"], domain="custom")],
                   [info("x", TensorProto.FLOAT, [8])], [info("z", TensorProto.FLOAT, [8])])
    r = atc(m, tmp_path / "none", env_with([]))
    assert r.returncode != 0 and "AddCustom" in r.stdout


def build_lib(src, out, prefix):
    r = run(["g++", "-std=c++17", "-shared", "-fPIC", f"-I{prefix}/include", str(src), "-o", str(out),
             f"-L{prefix}/lib", "-lopregister", f"-Wl,-rpath,{prefix}/lib"])
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("case", ["not_elf", "missing_symbol", "arg_count", "no_kernel"])
def test_broken_packages_are_reported(prefix, tmp_path, case):
    vendor = tmp_path / "vendors" / "broken"
    lib = vendor / "op_impl" / "lib"
    lib.mkdir(parents=True)
    opdef = """#include "register/op_def_registry.h"
static ge::graphStatus Infer(gert::InferShapeContext* c) {
  *c->GetOutputShape(0) = *c->GetInputShape(0); return ge::GRAPH_SUCCESS; }
namespace ops {
class Bad : public OpDef { public: explicit Bad(const char* n) : OpDef(n) {
  Input("x").DataType({ge::DT_FLOAT}); Output("y").DataType({ge::DT_FLOAT});
  SetInferShape(Infer); } };
OP_ADD(Bad);
}
"""
    if case == "not_elf":
        (lib / "libcust_op_bad.so").write_text("not a library")
        want = "cannot be loaded"
    elif case == "missing_symbol":
        src = tmp_path / "m.cpp"
        src.write_text('extern "C" void oc_symbol_nobody_defines();\n'
                       'extern "C" void f() { oc_symbol_nobody_defines(); }\n')
        build_lib(src, lib / "libcust_op_bad.so", prefix)
        want = "oc_symbol_nobody_defines"
    elif case == "arg_count":
        src = tmp_path / "a.cpp"
        src.write_text(opdef + 'extern "C" void bad(uint8_t*, uint8_t*, uint8_t*) {}\n'
                       "OC_KERNEL_ADD(Bad, bad, 3);\n")
        build_lib(src, lib / "libcust_op_bad.so", prefix)
        want = "takes 3 GM arguments, the OpDef has 1 inputs and 1 outputs"
    else:
        src = tmp_path / "n.cpp"
        src.write_text(opdef)
        build_lib(src, lib / "libcust_op_bad.so", prefix)
        want = "no kernel is registered for the op"
    m = save_model(tmp_path / "m.onnx", [helper.make_node("Relu", ["x"], ["y"])],
                   [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])],
                   [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])])
    r = atc(m, tmp_path / "m", env_with([vendor]))
    assert r.returncode != 0
    assert want in r.stdout and "libcust_op_bad.so" in r.stdout, r.stdout
    assert not (tmp_path / "m.om").exists()
    # An application that does not use the op still runs: aclInit warns and goes on.
    r = subprocess.run([PY, "-c", "import acl; print(acl.init())"], capture_output=True,
                       text=True, env=env_with([vendor]), timeout=60)
    assert r.stdout.strip() == "0" and want in r.stderr


@pytest.mark.parametrize("spec,field", [
    ("not json", "is not valid JSON"),
    ('[{"input_desc": [], "output_desc": []}]', "[0].op: is missing"),
    ('[{"op": "add_custom", "output_desc": []}]', "[0].op: \"add_custom\" must be a CamelCase"),
    ('[{"op": "A", "output_desc": [{"name": "y", "type": ["half4"]}]}]',
     "[0].output_desc[0].type[0]: \"half4\" is not a data type"),
    ('[{"op": "A", "input_desc": [{"name": "x", "type": ["float", "fp16"]}],'
     ' "output_desc": [{"name": "y", "type": ["float"]}]}]', "each column of the type lists"),
    ('[{"op": "A", "input_desc": [{"name": "x", "type": ["float"]}]}]',
     "[0].output_desc: is missing"),
    ('[{"op": "A", "output_desc": [{"name": "y", "type": ["float"]}],'
     ' "attr": [{"name": "k", "type": "float"}]}]', "an optional attribute needs a default value"),
    ('[{"op": "A", "output_desc": [{"name": "y", "type": ["float"], "param_type": "dynamic"}]}]',
     "must be required or optional"),
])
def test_msopgen_rejects_bad_op_json(tmp_path, spec, field):
    f = tmp_path / "op.json"
    f.write_text(spec)
    r = msopgen("gen", "-i", str(f), "-c", "ai_core-Ascend910B3", "-lan", "cpp",
                "-out", str(tmp_path / "out"))
    assert r.returncode != 0
    assert str(f) in r.stderr and field in r.stderr, r.stderr
    assert not (tmp_path / "out").exists()


def test_msopgen_command_line_errors(tmp_path):
    f = tmp_path / "op.json"
    f.write_text(json.dumps([OPS[1]]))
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("x")
    for args, msg in [
        (["-c", "ai_core-Ascend999"], "unknown SoC"),
        (["-c", "vector_core"], "must be ai_core-<soc_version>"),
        (["-lan", "py"], "only cpp"),
        (["-x", "1"], "unknown option"),
    ]:
        base = {"-i": str(f), "-c": "ai_core-Ascend910B3", "-out": str(tmp_path / "o")}
        flat = []
        for k, v in base.items():
            if k not in args:
                flat += [k, v]
        r = msopgen("gen", *flat, *args)
        assert r.returncode != 0 and msg in r.stderr, (args, r.stderr)
    r = msopgen("gen", "-i", str(f), "-c", "ai_core-Ascend910B3", "-out", str(tmp_path / "full"))
    assert r.returncode != 0 and "already holds files" in r.stderr
    assert msopgen("frobnicate").returncode != 0


ACLNN_APP = r"""
#include <stdio.h>
#include <string.h>
#include "acl/acl.h"
#include "aclnn_add_custom.h"
#define CHECK(x) do { int r_ = (x); if (r_) { printf("FAIL %s -> %d %s\n", #x, r_, aclGetRecentErrMsg()); return 1; } } while (0)
#define EXPECT(x, code) do { int r_ = (x); if (r_ != (code)) { printf("FAIL %s -> %d, want %d\n", #x, r_, code); return 1; } } while (0)
int main(void) {
  float host[400], out[400];
  int64_t shape[2] = {4, 100}, wrong[2] = {2, 200};
  void *dx, *dy, *dz, *ws = NULL;
  aclrtStream stream;
  uint64_t size = 0;
  aclOpExecutor *ex = NULL;
  for (int i = 0; i < 400; ++i) host[i] = 0.5f * i - 7;
  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  CHECK(aclrtCreateStream(&stream));
  CHECK(aclrtMalloc(&dx, 1600, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dy, 1600, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dz, 1600, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(dx, 1600, host, 1600, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(dy, 1600, host, 1600, ACL_MEMCPY_HOST_TO_DEVICE));
  aclTensor *x = aclCreateTensor(shape, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 2, dx);
  aclTensor *y = aclCreateTensor(shape, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 2, dy);
  aclTensor *z = aclCreateTensor(shape, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 2, dz);
  aclTensor *bad = aclCreateTensor(shape, 2, ACL_FLOAT16, NULL, 0, ACL_FORMAT_ND, shape, 2, dz);
  aclTensor *other = aclCreateTensor(wrong, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, wrong, 2, dz);
  aclTensor *onhost = aclCreateTensor(shape, 2, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 2, host);
  EXPECT(aclnnAddCustomGetWorkspaceSize(x, y, 2.0, bad, &size, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT(aclnnAddCustomGetWorkspaceSize(x, NULL, 2.0, z, &size, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT(aclnnAddCustomGetWorkspaceSize(onhost, y, 2.0, z, &size, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT(aclnnAddCustom(NULL, 0, NULL, stream), ACLNN_ERR_PARAM_NULLPTR);
  /* An output shape the op's InferShape disagrees with is the caller's choice, as in CANN. */
  CHECK(aclnnAddCustomGetWorkspaceSize(x, y, 2.0, other, &size, &ex));
  CHECK(aclnnAddCustom(NULL, 0, ex, stream));
  CHECK(aclnnAddCustomGetWorkspaceSize(x, y, 2.0, z, &size, &ex));
  if (size) CHECK(aclrtMalloc(&ws, size, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclnnAddCustom(ws, size, ex, stream));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtMemcpy(out, 1600, dz, 1600, ACL_MEMCPY_DEVICE_TO_HOST));
  for (int i = 0; i < 400; ++i)
    if (out[i] != host[i]) { printf("FAIL z[%d] = %g, want %g\n", i, out[i], host[i]); return 1; }
  aclDestroyTensor(x); aclDestroyTensor(y); aclDestroyTensor(z); aclDestroyTensor(bad); aclDestroyTensor(onhost);
  aclDestroyTensor(other);
  aclrtFree(dx); aclrtFree(dy); aclrtFree(dz);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  printf("aclnn ok\n");
  return 0;
}
"""


def test_generated_aclnn_two_stage_api(prefix, package, tmp_path):
    """The package's aclnn<Op>GetWorkspaceSize / aclnn<Op> from a C program on a stream."""
    src = tmp_path / "app.c"
    src.write_text(ACLNN_APP)
    api = package / "op_api"
    r = run(["gcc", str(src), f"-I{prefix}/include", f"-I{api}/include", "-o", str(tmp_path / "app"),
             f"-L{api}/lib", f"-L{prefix}/lib", "-lcust_opapi", "-lascendcl",
             f"-Wl,-rpath,{api}/lib:{prefix}/lib"])
    assert r.returncode == 0, r.stderr
    r = subprocess.run([str(tmp_path / "app")], capture_output=True, text=True, timeout=120,
                       env=env_with([package]))
    assert r.returncode == 0 and "aclnn ok" in r.stdout, r.stdout + r.stderr
    assert r.stderr.count("the op's InferShape gives [4,100]; the tensor's shape is used") == 1


ACLNN_FAULT_APP = r"""
#include <stdio.h>
#include "acl/acl.h"
#include "aclnn_bad_kernel.h"
int main(void) {
  int64_t shape[1] = {64};
  void *dx, *dy;
  aclrtStream stream;
  uint64_t size = 0;
  aclOpExecutor *ex = NULL;
  aclInit(NULL);
  aclrtSetDevice(0);
  aclrtCreateStream(&stream);
  aclrtMalloc(&dx, 256, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&dy, 256, ACL_MEM_MALLOC_HUGE_FIRST);
  aclTensor *x = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1, dx);
  aclTensor *y = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1, dy);
  int prep = aclnnBadKernelGetWorkspaceSize(x, y, &size, &ex);
  int launch = aclnnBadKernel(NULL, size, ex, stream);
  int sync = aclrtSynchronizeStream(stream);
  printf("prep=%d launch=%d sync=%d\n", prep, launch, sync);
  return 0;
}
"""


ACLNN_LIST_APP = r"""
#include <stdio.h>
#include "acl/acl.h"
#include "aclnn_list_attrs.h"
int main(void) {
  int64_t shape[1] = {64}, axes_v[2] = {0, -1};
  float weights_v[3] = {0.5f, 1.5f, 2.0f};
  void *dx, *dy;
  aclrtStream stream;
  uint64_t size = 0;
  aclOpExecutor *ex = NULL;
  aclInit(NULL);
  aclrtSetDevice(0);
  aclrtCreateStream(&stream);
  aclrtMalloc(&dx, 256, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&dy, 256, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemset(dx, 256, 0, 256);
  aclTensor *x = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1, dx);
  aclTensor *y = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1, dy);
  aclIntArray *axes = aclCreateIntArray(axes_v, 2);
  aclFloatArray *weights = aclCreateFloatArray(weights_v, 3);
  int prep = aclnnListAttrsGetWorkspaceSize(x, axes, weights, y, &size, &ex);
  int run = aclnnListAttrs(NULL, size, ex, stream);
  int sync = aclrtSynchronizeStream(stream);
  aclOpExecutor *ex2 = NULL;
  int opt_null = aclnnListAttrsGetWorkspaceSize(x, axes, NULL, y, &size, &ex2);  /* default */
  int destroy = aclDestroyIntArray(axes);
  int again = aclDestroyIntArray(axes);                    /* destroyed already */
  int stale = aclnnListAttrsGetWorkspaceSize(x, axes, weights, y, &size, &ex);
  int null_list = aclnnListAttrsGetWorkspaceSize(x, NULL, weights, y, &size, &ex);
  int bad_create = aclCreateIntArray(NULL, 3) == NULL;
  aclDestroyFloatArray(weights);
  printf("prep=%d run=%d sync=%d opt_null=%d destroy=%d again=%d stale=%d null=%d bad_create=%d\n",
         prep, run, sync, opt_null, destroy, again, stale, null_list, bad_create);
  return 0;
}
"""


def test_aclnn_list_attributes(prefix, package, tmp_path):
    """List attributes through aclnn: aclIntArray / aclFloatArray in, a destroyed or null one
    refused with CANN's codes."""
    header = (package / "op_api" / "include" / "aclnn_list_attrs.h").read_text()
    assert "const aclIntArray *axes" in header and "const aclFloatArray *weights" in header
    src = tmp_path / "lists.c"
    src.write_text(ACLNN_LIST_APP)
    api = package / "op_api"
    r = run(["gcc", str(src), f"-I{prefix}/include", f"-I{api}/include", "-o",
             str(tmp_path / "lists"), f"-L{api}/lib", f"-L{prefix}/lib", "-lcust_opapi",
             "-lascendcl", f"-Wl,-rpath,{api}/lib:{prefix}/lib"])
    assert r.returncode == 0, r.stderr
    r = subprocess.run([str(tmp_path / "lists")], capture_output=True, text=True, timeout=120,
                       env=env_with([package]))
    # A null optional list takes its default; a null required one is refused.
    assert ("prep=0 run=0 sync=0 opt_null=0 destroy=0 again=161002 stale=161002 null=161001 "
            "bad_create=1" in r.stdout), r.stdout + r.stderr


ACLNN_OPTIONAL_APP = r"""
#include <stdio.h>
#include "acl/acl.h"
#include "aclnn_opt_input.h"
int main(void) {
  int64_t shape[1] = {64};
  float host[64], out[64];
  void *dx, *dy;
  aclrtStream stream;
  uint64_t size = 0;
  aclOpExecutor *ex = NULL;
  for (int i = 0; i < 64; ++i) host[i] = 0.25f * i;
  aclInit(NULL);
  aclrtSetDevice(0);
  aclrtCreateStream(&stream);
  aclrtMalloc(&dx, 256, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&dy, 256, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpy(dx, 256, host, 256, ACL_MEMCPY_HOST_TO_DEVICE);
  aclTensor *x = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1, dx);
  aclTensor *y = aclCreateTensor(shape, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, shape, 1, dy);
  int prep = aclnnOptInputGetWorkspaceSize(x, NULL, y, &size, &ex); /* bias left out */
  int run = aclnnOptInput(NULL, size, ex, stream);
  int sync = aclrtSynchronizeStream(stream);
  aclrtMemcpy(out, 256, dy, 256, ACL_MEMCPY_DEVICE_TO_HOST);
  int same = 1;
  for (int i = 0; i < 64; ++i) same &= out[i] == host[i];  /* the skeleton copies x */
  int required = aclnnOptInputGetWorkspaceSize(NULL, NULL, y, &size, &ex);
  printf("prep=%d run=%d sync=%d same=%d required=%d\n", prep, run, sync, same, required);
  return 0;
}
"""


def test_aclnn_optional_input_left_out(prefix, package, tmp_path):
    """An optional input passed as NULL is left out (the kernel gets a null address); a null
    required input is 161001."""
    src = tmp_path / "opt.c"
    src.write_text(ACLNN_OPTIONAL_APP)
    api = package / "op_api"
    r = run(["gcc", str(src), f"-I{prefix}/include", f"-I{api}/include", "-o",
             str(tmp_path / "opt"), f"-L{api}/lib", f"-L{prefix}/lib", "-lcust_opapi",
             "-lascendcl", f"-Wl,-rpath,{api}/lib:{prefix}/lib"])
    assert r.returncode == 0, r.stderr
    r = subprocess.run([str(tmp_path / "opt")], capture_output=True, text=True, timeout=120,
                       env=env_with([package]))
    assert "prep=0 run=0 sync=0 same=1 required=161001" in r.stdout, r.stdout + r.stderr


def test_aclnn_kernel_fault_is_an_aicore_exception_with_its_reason(prefix, package, tmp_path):
    """A package kernel that breaks the hardware's rules, called through aclnn on a stream:
    aclrtSynchronizeStream returns 507015 and the reason is on stderr without any switch."""
    src = tmp_path / "fault.c"
    src.write_text(ACLNN_FAULT_APP)
    api = package / "op_api"
    r = run(["gcc", str(src), f"-I{prefix}/include", f"-I{api}/include", "-o",
             str(tmp_path / "fault"), f"-L{api}/lib", f"-L{prefix}/lib", "-lcust_opapi",
             "-lascendcl", f"-Wl,-rpath,{api}/lib:{prefix}/lib"])
    assert r.returncode == 0, r.stderr
    env = {k: v for k, v in env_with([package]).items() if k != "OCANN_ASCENDC_REPORT"}
    r = subprocess.run([str(tmp_path / "fault")], capture_output=True, text=True, timeout=120,
                       env=env)
    assert "prep=0 launch=0 sync=507015" in r.stdout, r.stdout + r.stderr
    assert "TPipe::InitBuffer: UB capacity exceeded" in r.stderr, r.stderr


def test_msopgen_compile_builds_the_package(prefix, tmp_path):
    """The seed's step 3: msopgen compile -i <project> builds the package msopgen gen's
    project describes, against the installation msopgen runs from."""
    spec = tmp_path / "op.json"
    spec.write_text(json.dumps([OPS[0]]))
    tool = str(prefix / "bin" / "msopgen")
    r = run([tool, "gen", "-i", str(spec), "-c", "ai_core-Ascend910B3", "-lan", "cpp",
             "-out", str(tmp_path / "proj")])
    assert r.returncode == 0, r.stdout + r.stderr
    r = run([tool, "compile", "-i", str(tmp_path / "proj")])
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    package = tmp_path / "proj" / "build_out" / "custom_opp_linux_x86_64.run"
    assert package.exists() and f"into {package}" in r.stdout
    # What it cannot build is refused, naming what to do.
    tbe = tmp_path / "tbe_op"
    (tbe / "tbe" / "impl").mkdir(parents=True)
    (tbe / "tbe" / "impl" / "conv2_d.py").write_text("# a TBE DSL operator\n")
    r = run([tool, "compile", "-i", str(tbe)])
    assert r.returncode != 0 and "TBE (Python DSL/TIK)" in r.stderr, r.stderr
    cann = tmp_path / "cann_template"
    for sub in ("op_host", "op_kernel", "cmake"):
        (cann / sub).mkdir(parents=True)
    (cann / "cmake" / "func.cmake").write_text("function(opbuild)\nendfunction()\n")
    # CANN's own template builds through its build.sh (tests/e2e/test_op_template.py builds
    # one step by step); a template project without it is refused.
    r = run([tool, "compile", "-i", str(cann)])
    assert r.returncode != 0 and "build.sh or CMakeLists.txt is missing" in r.stderr, r.stderr
    r = run([tool, "compile", "-i", str(tmp_path / "missing")])
    assert r.returncode != 0 and "no such project folder" in r.stderr


def test_package_built_with_the_old_string_abi(prefix, tmp_path):
    """CANN's templates build op_host code with -std=c++11 -D_GLIBCXX_USE_CXX11_ABI=0: the
    registry's types are C++11 and carry no std::string, so such a package registers the
    same op (names, string attribute default, in-place output) and its kernel runs."""
    op = {"op": "ScaleCustom",
          "input_desc": [{"name": "x", "type": ["float"]}],
          "output_desc": [{"name": "y", "type": ["float"]}],
          "attr": [{"name": "mode", "type": "string", "value": "fast"}]}
    spec = tmp_path / "op.json"
    spec.write_text(json.dumps([op]))
    r = msopgen("gen", "-i", str(spec), "-c", "ai_core-Ascend910B3", "-lan", "cpp",
                "-out", str(tmp_path / "proj"), "-v", "oldabi")
    assert r.returncode == 0, r.stdout + r.stderr
    proj = tmp_path / "proj"
    # The op definition compiles as C++11, as CANN's op_build compiles it.
    r = run(["g++", "-std=c++11", "-D_GLIBCXX_USE_CXX11_ABI=0", "-fsyntax-only",
             f"-I{prefix}/include", f"-I{proj}/op_host", str(proj / "op_host" / "scale_custom.cpp")])
    assert r.returncode == 0, r.stderr
    env = dict(os.environ, OPENCANN_ROOT=str(prefix), CXXFLAGS="-D_GLIBCXX_USE_CXX11_ABI=0")
    r = subprocess.run([str(proj / "build.sh")], capture_output=True, text=True, timeout=900,
                       env=env)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    # Every library of the package was built with the old ABI.
    assert "-D_GLIBCXX_USE_CXX11_ABI=0" in (proj / "build" / "CMakeCache.txt").read_text()
    r = run([str(proj / "build_out" / "custom_opp_linux_x86_64.run"),
             f"--install-path={tmp_path / 'opp'}"])
    assert r.returncode == 0, r.stdout + r.stderr
    vendor = tmp_path / "opp" / "vendors" / "oldabi"
    m = save_model(tmp_path / "m.onnx",
                   [helper.make_node("ScaleCustom", ["x"], ["y"], domain="custom")],
                   [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 300])],
                   [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 300])])
    env = env_with([vendor])
    r = atc(m, tmp_path / "m", env)
    assert r.returncode == 0, r.stdout + r.stderr
    x = np.random.default_rng(3).standard_normal((4, 300)).astype(np.float32)
    r, y = infer(str(tmp_path / "m.om"), [x], env)
    assert r.returncode == 0, r.stderr[-3000:]
    np.testing.assert_array_equal(y, x)  # the generated skeleton copies x to y


def test_kernel_sees_the_tiling_header_the_sources_register(prefix, tmp_path):
    """A project that keeps its tiling struct in op_kernel/ (its op_host includes
    ../op_kernel/<op>_tiling.h): the kernel is compiled with the header that registers the
    op's tiling data, not the generated op_host one."""
    spec = tmp_path / "op.json"
    spec.write_text(json.dumps([{"op": "TileCustom", "input_desc": [{"name": "x", "type": ["float"]}],
                                 "output_desc": [{"name": "y", "type": ["float"]}]}]))
    r = msopgen("gen", "-i", str(spec), "-c", "ai_core-Ascend910B3", "-lan", "cpp",
                "-out", str(tmp_path / "proj"))
    assert r.returncode == 0, r.stdout + r.stderr
    proj = tmp_path / "proj"
    header = (proj / "op_host" / "tile_custom_tiling.h").read_text()
    (proj / "op_kernel" / "tile_custom_tiling.h").write_text(
        header.replace("TileCustomTilingData", "KernelSideTiling"))
    host = (proj / "op_host" / "tile_custom.cpp").read_text()
    (proj / "op_host" / "tile_custom.cpp").write_text(
        host.replace('"tile_custom_tiling.h"', '"../op_kernel/tile_custom_tiling.h"')
            .replace("TileCustomTilingData", "KernelSideTiling"))
    kernel = (proj / "op_kernel" / "tile_custom.cpp").read_text()
    (proj / "op_kernel" / "tile_custom.cpp").write_text(
        kernel + "\n[[maybe_unused]] static KernelSideTiling oc_named_struct;  // unqualified, as CANN kernels name it\n")
    r = subprocess.run([str(proj / "build.sh")], capture_output=True, text=True, timeout=900,
                       env=dict(os.environ, OPENCANN_ROOT=str(prefix)))
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
