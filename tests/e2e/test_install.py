"""make install: headers, libascendcl.so, tools, Python module and a CMake package that an
application finds with find_package(OpenCANN)."""
import glob
import os
import subprocess

from conftest import PY, build_example, configure_and_build, run
from make_onnx import tiny_mlp


def build_project(tmp_path, prefix, files, cmake_lists):
    """Writes `files` and a CMakeLists.txt into tmp_path/src and builds it against the
    installed package; returns the build folder."""
    src = tmp_path / "src"
    src.mkdir()
    for name, text in files.items():
        (src / name).write_text(text)
    (src / "CMakeLists.txt").write_text(cmake_lists)
    return configure_and_build(src, tmp_path / "b", prefix)


def test_install_and_build_against_package(tmp_path, prefix):
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
    app = build_example("c_classify", tmp_path / "app", prefix)
    r = run([str(app / "c_classify"), str(tmp_path / "mlp.om")])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "top-5:" in r.stdout


def test_ascendc_kernel_builds_against_installed_package(tmp_path, prefix):
    assert (prefix / "include" / "kernel_operator.h").exists()
    assert (prefix / "include" / "tikicpulib.h").exists()
    app = build_example("ascendc_add", tmp_path / "kernel", prefix)
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


def test_faulting_kernel_on_a_stream(tmp_path, prefix):
    b = build_project(
        tmp_path, prefix, {"k.cpp": FAULTY, "main.cpp": MAIN},
        "cmake_minimum_required(VERSION 3.20)\nproject(f CXX)\nset(CMAKE_CXX_STANDARD 17)\n"
        "find_package(OpenCANN REQUIRED)\nascendc_library(k STATIC k.cpp)\n"
        "add_executable(main main.cpp)\ntarget_link_libraries(main PRIVATE k)\n")
    r = run([str(b / "main")])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "launch 0 sync 507015" in r.stdout  # ACL_ERROR_RT_AICORE_EXCEPTION at synchronize
    assert "[kernel overflow][block 0] DataCopy(GM->local): source GlobalTensor: bytes 0..1024 " \
           "of a 256-byte SetGlobalBuffer are accessed, 768 bytes past its end" in r.stdout


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
  SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
  WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
  Muls(t, t, tiling.scale, tiling.perBlock);
  Adds(t, t, static_cast<float>(offset), tiling.perBlock);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
  WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
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


def test_launch_with_a_struct_and_a_scalar_by_value(tmp_path, prefix):
    b = build_project(
        tmp_path, prefix, {"k.cpp": BY_VALUE, "tiling.h": TILING_H, "main.cpp": BY_VALUE_MAIN},
        "cmake_minimum_required(VERSION 3.20)\nproject(v CXX)\nset(CMAKE_CXX_STANDARD 17)\n"
        "find_package(OpenCANN REQUIRED)\nascendc_library(k STATIC k.cpp)\n"
        "target_include_directories(k PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})\n"
        "add_executable(main main.cpp)\ntarget_link_libraries(main PRIVATE k)\n")
    r = run([str(b / "main")])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "launch 0 sync 0 bad 0 refused 100000" in r.stdout, r.stdout + r.stderr
    assert "ACLRT_LAUNCH_KERNEL(scale_custom): argument 0 is a pointer to memory that is not " \
           "device memory" in r.stderr, r.stderr


CPU_LIB_CMAKE = r"""
if(NOT DEFINED ENV{CMAKE_PREFIX_PATH})
  set(CMAKE_PREFIX_PATH ${ASCEND_CANN_PACKAGE_PATH}/tools/tikicpulib/lib/cmake)
endif()
find_package(tikicpulib REQUIRED)
add_library(ascendc_kernels_${RUN_MODE} SHARED ${KERNEL_FILES})
target_link_libraries(ascendc_kernels_${RUN_MODE} PUBLIC tikicpulib::${SOC_VERSION})
target_compile_definitions(ascendc_kernels_${RUN_MODE} PRIVATE ASCENDC_CPU_DEBUG)
target_compile_options(ascendc_kernels_${RUN_MODE} PRIVATE -g -O0 -std=c++17)
"""

CPU_PROJECT = r"""
cmake_minimum_required(VERSION 3.16)
project(Ascend_c)
set(RUN_MODE "cpu" CACHE STRING "cpu/sim/npu")
set(SOC_VERSION "Ascend910B3" CACHE STRING "system on chip type")
set(ASCEND_CANN_PACKAGE_PATH "/usr/local/Ascend/ascend-toolkit/latest" CACHE PATH "ASCEND CANN package")
file(GLOB KERNEL_FILES ${CMAKE_CURRENT_SOURCE_DIR}/add_custom.cpp)
include(${CMAKE_CURRENT_SOURCE_DIR}/cmake/cpu_lib.cmake)
add_executable(ascendc_kernels_bbit ${CMAKE_CURRENT_SOURCE_DIR}/main.cpp)
target_compile_options(ascendc_kernels_bbit PRIVATE -O2 -std=c++17)
# The host libraries by bare name, as CANN's CPU-debug projects link them.
target_link_libraries(ascendc_kernels_bbit PRIVATE ascendc_kernels_${RUN_MODE} ascendcl tiling_api
                      register platform ascendalog unified_dlog dl)
"""

CPU_KERNEL = r"""
#include "kernel_operator.h"
constexpr int32_t TOTAL = 8 * 2048, BLOCKS = 8, TILE = 256;
class KernelAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    const int32_t per = TOTAL / BLOCKS;
    xGm.SetGlobalBuffer((__gm__ half*)x + per * AscendC::GetBlockIdx(), per);
    yGm.SetGlobalBuffer((__gm__ half*)y + per * AscendC::GetBlockIdx(), per);
    zGm.SetGlobalBuffer((__gm__ half*)z + per * AscendC::GetBlockIdx(), per);
    pipe.InitBuffer(inX, 2, TILE * sizeof(half));
    pipe.InitBuffer(inY, 2, TILE * sizeof(half));
    pipe.InitBuffer(outZ, 2, TILE * sizeof(half));
  }
  __aicore__ inline void Process() {
    for (int32_t i = 0; i < TOTAL / BLOCKS / TILE; ++i) {
      AscendC::LocalTensor<half> x = inX.AllocTensor<half>(), y = inY.AllocTensor<half>();
      AscendC::DataCopy(x, xGm[i * TILE], TILE);
      AscendC::DataCopy(y, yGm[i * TILE], TILE);
      inX.EnQue(x);
      inY.EnQue(y);
      x = inX.DeQue<half>();
      y = inY.DeQue<half>();
      AscendC::LocalTensor<half> z = outZ.AllocTensor<half>();
      AscendC::Add(z, x, y, TILE);
      outZ.EnQue<half>(z);
      inX.FreeTensor(x);
      inY.FreeTensor(y);
      z = outZ.DeQue<half>();
      AscendC::DataCopy(zGm[i * TILE], z, TILE);
      outZ.FreeTensor(z);
    }
  }
 private:
  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, 2> inX, inY;
  AscendC::TQue<AscendC::QuePosition::VECOUT, 2> outZ;
  AscendC::GlobalTensor<half> xGm, yGm, zGm;
};
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
  KernelAdd op;
  op.Init(x, y, z);
  op.Process();
}
// The NPU launch shim, compiled only by the NPU toolchain: tikicpulib defines __CCE_KT_TEST__.
#ifndef __CCE_KT_TEST__
extern "C" void add_custom_do(uint32_t blockDim, void* stream, uint8_t* x, uint8_t* y, uint8_t* z) {
  add_custom<<<blockDim, nullptr, stream>>>(x, y, z);
}
#endif
"""

CPU_MAIN = r"""
#include <cstdio>
#ifdef ASCENDC_CPU_DEBUG
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z);
#endif
int main() {
  const size_t n = 8 * 2048, bytes = n * sizeof(uint16_t);
  uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
  uint8_t* y = (uint8_t*)AscendC::GmAlloc(bytes);
  uint8_t* z = (uint8_t*)AscendC::GmAlloc(bytes);
  for (size_t i = 0; i < n; ++i) {
    ((half*)x)[i] = half(float(i % 100));
    ((half*)y)[i] = half(1.5f);
  }
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  ICPU_RUN_KF(add_custom, 8, x, y, z);
  int bad = 0;
  for (size_t i = 0; i < n; ++i) bad += float(((half*)z)[i]) != float(i % 100) + 1.5f;
  std::printf("bad %d\n", bad);
  AscendC::GmFree(x);
  AscendC::GmFree(y);
  AscendC::GmFree(z);
  return bad != 0;
}
"""


def test_cann_cpu_debug_project_finds_tikicpulib(tmp_path, prefix):
    assert (prefix / "tools" / "tikicpulib" / "lib" / "cmake" / "tikicpulib" /
            "tikicpulibConfig.cmake").exists()
    src = tmp_path / "src"
    (src / "cmake").mkdir(parents=True)
    (src / "cmake" / "cpu_lib.cmake").write_text(CPU_LIB_CMAKE)
    (src / "CMakeLists.txt").write_text(CPU_PROJECT)
    (src / "add_custom.cpp").write_text(CPU_KERNEL)
    (src / "main.cpp").write_text(CPU_MAIN)
    env = {k: v for k, v in os.environ.items() if k not in ("CMAKE_PREFIX_PATH", "OCANN_SOC")}

    def build(soc):
        b = tmp_path / f"build_{soc}"
        r = subprocess.run(["cmake", "-S", str(src), "-B", str(b),
                            f"-DASCEND_CANN_PACKAGE_PATH={prefix}", f"-DSOC_VERSION={soc}"],
                           env=env, capture_output=True, text=True, timeout=300)
        assert r.returncode == 0, r.stdout + r.stderr
        return b, subprocess.run(["cmake", "--build", str(b)], env=env, capture_output=True,
                                 text=True, timeout=600)

    # ascend910B2: the spelling older projects' CMake modules build from "ascend${SOC}".
    b, r = build("ascend910B2")
    assert r.returncode == 0, r.stdout + r.stderr
    r = subprocess.run([str(b / "ascendc_kernels_bbit")], env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0 and "bad 0" in r.stdout, r.stdout + r.stderr
    # The target's chip is the one modelled.
    assert "on Ascend910B2" in r.stdout and "[SUCCESS] add_custom: 8 blocks" in r.stdout
    # A chip the emulation does not model configures, then fails to compile with the reason.
    _, r = build("Ascend310P3")
    assert r.returncode != 0 and "emulation models Ascend910B1-B4" in r.stdout + r.stderr
    # The targets are global: found in one folder, linked in a sibling one.
    sib = tmp_path / "siblings"
    (sib / "a").mkdir(parents=True)
    (sib / "b").mkdir()
    (sib / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.16)\nproject(s CXX)\n"
        f"set(CMAKE_PREFIX_PATH {prefix}/tools/tikicpulib/lib/cmake)\n"
        "add_subdirectory(a)\nadd_subdirectory(b)\n")
    (sib / "a" / "CMakeLists.txt").write_text("find_package(tikicpulib REQUIRED)\n")
    (sib / "b" / "CMakeLists.txt").write_text(
        "add_library(k STATIC k.cpp)\ntarget_link_libraries(k PUBLIC tikicpulib::Ascend910B1)\n")
    (sib / "b" / "k.cpp").write_text('#include "kernel_operator.h"\nint k() { return 0; }\n')
    r = subprocess.run(["cmake", "-S", str(sib), "-B", str(sib / "build")], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    # Found again in the sibling (hipudding/ascendc_threshold's kernel_test does): the global
    # targets are reused, not redefined.
    (sib / "b" / "CMakeLists.txt").write_text(
        "find_package(tikicpulib REQUIRED)\nfind_package(OpenCANN REQUIRED)\n"
        "add_library(k STATIC k.cpp)\ntarget_link_libraries(k PUBLIC tikicpulib::Ascend910B1)\n")
    r = subprocess.run(["cmake", "-S", str(sib), "-B", str(sib / "build2")], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


OP_COMPILER_MAIN = r"""
#include <stdio.h>
#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "aclnn/acl_meta.h"
int main(void) {
  aclInit(NULL);
  int set = aclSetCompileopt(ACL_OP_JIT_COMPILE, "disable");
  int64_t dims[1] = {4};
  aclTensor* t = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, NULL);
  int compile = aclopCompile("Add", 0, NULL, 0, NULL, NULL, ACL_ENGINE_SYS, ACL_COMPILE_SYS, NULL);
  printf("set %d tensor %d compile %d\n", set, t != NULL, compile);
  aclDestroyTensor(t);
  aclFinalize();
  return 0;
}
"""


def test_aclnn_application_links_acl_op_compiler_and_nnopbase(tmp_path, prefix):
    """An aclnn application's link line (-lacl_op_compiler -lnnopbase, as CANN's) works."""
    src = tmp_path / "main.cpp"
    src.write_text(OP_COMPILER_MAIN)
    exe = tmp_path / "main"
    r = run(["g++", str(src), "-o", str(exe), f"-I{prefix / 'include'}", f"-L{prefix / 'lib'}",
             "-lacl_op_compiler", "-lnnopbase", f"-Wl,-rpath,{prefix / 'lib'}"])
    assert r.returncode == 0, r.stdout + r.stderr
    r = run([str(exe)])
    assert r.returncode == 0 and "set 0 tensor 1 compile 100000" in r.stdout, r.stdout + r.stderr


TIK2_KERNEL = r"""
#include "kernel_operator.h"
using namespace tik2;
extern "C" __global__ __aicore__ void negate_custom(GM_ADDR x, GM_ADDR y) {
  GlobalTensor<half> gx, gy;
  gx.SetGlobalBuffer((__gm__ half*)ParamOffset<half>(x, 256), 256);
  gy.SetGlobalBuffer((__gm__ half*)ParamOffset<half>(y, 256), 256);
  TPipe pipe;
  TQue<QuePosition::VECIN, 1> in;
  TQue<QuePosition::VECOUT, 1> out;
  pipe.InitBuffer(in, 1, 512);
  pipe.InitBuffer(out, 1, 512);
  LocalTensor<half> a = in.AllocTensor<half>();
  DataCopy(a, gx, 256);
  in.EnQue(a);
  a = in.DeQue<half>();
  LocalTensor<half> b = out.AllocTensor<half>();
  Muls(b, a, (half)-1.0, 256);
  out.EnQue(b);
  in.FreeTensor(a);
  b = out.DeQue<half>();
  DataCopy(gy, b, 256);
  out.FreeTensor(b);
}
"""

TIK2_MAIN = r"""
#include <cstdio>
#include "tikicpulib.h"
#include "acl/acl_base.h"
extern "C" __global__ __aicore__ void negate_custom(GM_ADDR x, GM_ADDR y);
int main() {
  uint8_t* x = (uint8_t*)tik2::GmAlloc(4 * 256 * 2);
  uint8_t* y = (uint8_t*)tik2::GmAlloc(4 * 256 * 2);
  for (int i = 0; i < 1024; ++i) ((uint16_t*)x)[i] = aclFloatToFloat16(float(i % 50));
  ICPU_RUN_KF(negate_custom, 4, x, y);
  int bad = 0;
  for (int i = 0; i < 1024; ++i) bad += aclFloat16ToFloat(((uint16_t*)y)[i]) != -float(i % 50);
  std::printf("bad %d size %zu\n", bad, aclDataTypeSize(ACL_FLOAT16));
  tik2::GmFree(x);
  tik2::GmFree(y);
  return bad != 0;
}
"""


def test_tik2_era_cpu_debug_program_without_ascendcl(tmp_path, prefix):
    """The first Ascend C releases' style: namespace tik2, ParamOffset, __CCE_KT_TEST__, and
    acl's half conversions from the CPU-debug library alone."""
    (tmp_path / "k.cpp").write_text(TIK2_KERNEL)
    (tmp_path / "main.cpp").write_text(TIK2_MAIN)
    exe = tmp_path / "neg"
    r = run(["g++", "-std=c++17", "-D__CCE_KT_TEST__", f"-I{prefix / 'include'}",
             str(tmp_path / "k.cpp"), str(tmp_path / "main.cpp"), "-o", str(exe),
             f"-L{prefix / 'lib'}", "-lascendc_emu", f"-Wl,-rpath,{prefix / 'lib'}"])
    assert r.returncode == 0, r.stdout + r.stderr
    r = run([str(exe)])
    assert r.returncode == 0 and "bad 0 size 2" in r.stdout, r.stdout + r.stderr
    assert "[SUCCESS] negate_custom: 4 blocks" in r.stdout
