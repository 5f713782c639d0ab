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
    # The cost JSON is written only where asked, never into the working folder by default.
    env = {k: v for k, v in os.environ.items() if k != "OCANN_ASCENDC_REPORT_DIR"}
    r = subprocess.run([str(app / "add_custom_cpu")], cwd=str(tmp_path), env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "PASS: 0 of 16384" in r.stdout and "[SUCCESS] add_custom: 8 blocks" in r.stdout
    assert "bound by MTE2" in r.stdout
    assert not list(tmp_path.glob("*_cost.json"))
    reports = tmp_path / "reports"
    reports.mkdir()
    env["OCANN_ASCENDC_REPORT_DIR"] = str(reports)
    r = subprocess.run([str(app / "add_custom_cpu")], cwd=str(tmp_path), env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (reports / "add_custom_cost.json").exists()
    # The NPU-style host program: ascendc_library + ACLRT_LAUNCH_KERNEL on a stream.
    r = run([str(app / "add_custom_acl")], cwd=str(tmp_path))
    assert r.returncode == 0 and "PASS: 0 of 16384" in r.stdout, r.stdout + r.stderr


FAULTY = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void overflow(GM_ADDR x) {
  GlobalTensor<float> g;
  g.SetGlobalBuffer((__gm__ float*)x, 64);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 1024);
  DataCopy(b.Get<float>(), g, 256);  // 1 KiB from a 256-byte buffer
}
"""

MAIN = r"""
#include <cstdio>
#include <cstring>
#include "acl/acl.h"
#include "aclrtlaunch_overflow.h"
int main() {
  aclInit(nullptr); aclrtSetDevice(0);
  aclrtStream s; aclrtCreateStream(&s);
  void* d; aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST);
  int launched = ACLRT_LAUNCH_KERNEL(overflow)(2, s, d);
  int synced = aclrtSynchronizeStream(s);
  std::printf("launch %d sync %d\n%s\n", launched, synced, aclGetRecentErrMsg());
  aclrtFree(d); aclrtDestroyStream(s); aclrtResetDevice(0); aclFinalize();
  return 0;
}
"""


def test_faulting_kernel_on_a_stream(tmp_path):
    prefix = tmp_path / "prefix"
    assert run(["cmake", "--install", BUILD, "--prefix", str(prefix)]).returncode == 0
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cpp").write_text(FAULTY)
    (src / "main.cpp").write_text(MAIN)
    (src / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\nproject(f CXX)\nset(CMAKE_CXX_STANDARD 17)\n"
        "find_package(OpenCANN REQUIRED)\nascendc_library(k STATIC k.cpp)\n"
        "add_executable(main main.cpp)\ntarget_link_libraries(main PRIVATE k)\n")
    b = tmp_path / "b"
    r = run(["cmake", "-S", str(src), "-B", str(b), f"-DCMAKE_PREFIX_PATH={prefix}"])
    assert r.returncode == 0, r.stdout + r.stderr
    r = run(["cmake", "--build", str(b)])
    assert r.returncode == 0, r.stdout + r.stderr
    r = run([str(b / "main")])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "launch 0 sync 507015" in r.stdout  # ACL_ERROR_RT_AICORE_EXCEPTION at synchronize
    assert "[kernel overflow][block 0] DataCopy(GM->local): source GlobalTensor of 256 bytes" in r.stdout


BY_VALUE = r"""
#include "kernel_operator.h"
#include "tiling.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y, ScaleTiling tiling,
                                                   uint32_t offset) {
  GlobalTensor<float> gx, gy;
  gx.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * tiling.perBlock, tiling.perBlock);
  gy.SetGlobalBuffer((__gm__ float*)y + GetBlockIdx() * tiling.perBlock, tiling.perBlock);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, tiling.perBlock * sizeof(float));
  LocalTensor<float> t = b.Get<float>();
  DataCopy(t, gx, tiling.perBlock);
  Muls(t, t, tiling.scale, tiling.perBlock);
  Adds(t, t, static_cast<float>(offset), tiling.perBlock);
  DataCopy(gy, t, tiling.perBlock);
}
"""

TILING_H = "#pragma once\nstruct ScaleTiling { unsigned perBlock; float scale; };\n"

BY_VALUE_MAIN = r"""
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "tiling.h"
#include "aclrtlaunch_scale_custom.h"
int main() {
  aclInit(nullptr); aclrtSetDevice(0);
  aclrtStream s; aclrtCreateStream(&s);
  const int n = 4 * 64;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = float(i);
  void *dx, *dy;
  aclrtMalloc(&dx, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&dy, n * 4, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE);
  ScaleTiling t{64, 2.0f};
  int launched = ACLRT_LAUNCH_KERNEL(scale_custom)(4, s, dx, dy, t, 3u);
  t.scale = 100.0f;  // the launch copied the struct: this does not reach the kernel
  int synced = aclrtSynchronizeStream(s);
  aclrtMemcpy(y.data(), n * 4, dy, n * 4, ACL_MEMCPY_DEVICE_TO_HOST);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += y[i] != 2.0f * i + 3.0f;
  // A host pointer where the kernel wants device memory: refused, with the reason printed.
  int refused = ACLRT_LAUNCH_KERNEL(scale_custom)(4, s, x.data(), dy, t, 0u);
  std::printf("launch %d sync %d bad %d refused %d\n", launched, synced, bad, refused);
  aclrtFree(dx); aclrtFree(dy); aclrtDestroyStream(s); aclrtResetDevice(0); aclFinalize();
  return 0;
}
"""


def test_launch_with_a_struct_and_a_scalar_by_value(tmp_path):
    prefix = tmp_path / "prefix"
    assert run(["cmake", "--install", BUILD, "--prefix", str(prefix)]).returncode == 0
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cpp").write_text(BY_VALUE)
    (src / "tiling.h").write_text(TILING_H)
    (src / "main.cpp").write_text(BY_VALUE_MAIN)
    (src / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.20)\nproject(v CXX)\nset(CMAKE_CXX_STANDARD 17)\n"
        "find_package(OpenCANN REQUIRED)\nascendc_library(k STATIC k.cpp)\n"
        "target_include_directories(k PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})\n"
        "add_executable(main main.cpp)\ntarget_link_libraries(main PRIVATE k)\n")
    b = tmp_path / "b"
    r = run(["cmake", "-S", str(src), "-B", str(b), f"-DCMAKE_PREFIX_PATH={prefix}"])
    assert r.returncode == 0, r.stdout + r.stderr
    r = run(["cmake", "--build", str(b)])
    assert r.returncode == 0, r.stdout + r.stderr
    r = run([str(b / "main")])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "launch 0 sync 0 bad 0 refused 100000" in r.stdout, r.stdout + r.stderr
    assert "ACLRT_LAUNCH_KERNEL(scale_custom): argument 0 is a pointer to memory that is not " \
           "device memory" in r.stderr, r.stderr
