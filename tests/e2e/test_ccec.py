"""ccec / bisheng: Ascend C sources written for the NPU (<<<>>> launches, AscendCL host code)
built for the CPU emulation, alone or through a CCE-language CMake project, under both C++
string ABIs; its refusals; and libc_sec, the secure C library CANN code links."""
import os
import subprocess

import numpy as np
import pytest

from conftest import SOURCE, run

FIXTURES = os.path.join(SOURCE, "tests", "e2e", "ccec")


def env_of(prefix):
    env = dict(os.environ)
    env["ASCEND_HOME_PATH"] = str(prefix)
    env["PATH"] = f"{prefix}/bin:" + env.get("PATH", "")
    return env


def write_inputs(d, n):
    rng = np.random.default_rng(7)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    x.tofile(d / "x.bin")
    y.tofile(d / "y.bin")
    return x, y


def check_output(d, x, y, scale, r):
    assert r.returncode == 0 and "scale_add ran" in r.stdout, r.stdout + r.stderr
    z = np.fromfile(d / "z.bin", np.float32)
    # Muls then Add, each rounded to float as the vector unit does.
    np.testing.assert_array_equal(z, (x * np.float32(scale)).astype(np.float32) + y)
    # The second launch passed a host pointer: refused at the launch, with the reason.
    assert "argument 0 is a pointer to memory that is not device memory" in r.stderr


@pytest.mark.parametrize("abi", ["1", "0"])
def test_ccec_builds_an_npu_program(tmp_path, prefix, abi):
    # CANN's templates set -D_GLIBCXX_USE_CXX11_ABI=0: the kernel links either way.
    ccec = str(prefix / "x86_64-linux" / "ccec_compiler" / "bin" / "ccec")
    exe = tmp_path / "scale_add_npu"
    r = run([ccec, f"-D_GLIBCXX_USE_CXX11_ABI={abi}", "-xcce",
             os.path.join(FIXTURES, "scale_add.cpp"), "-x", "c++",
             os.path.join(FIXTURES, "main.cpp"), "--cce-soc-version=Ascend910B1",
             "--cce-soc-core-type=VecCore", "-O2", "-std=c++17", "-lascendcl", "-lruntime",
             "-o", str(exe)], env=env_of(prefix))
    assert r.returncode == 0, r.stdout + r.stderr
    x, y = write_inputs(tmp_path, 4096)
    check_output(tmp_path, x, y, 0.5, run([str(exe), str(tmp_path), "4096", "0.5"]))


def test_bisheng_compiles_and_links_separately_with_dependencies(tmp_path, prefix):
    bisheng = str(prefix / "bin" / "bisheng")
    kernel = tmp_path / "k.o"
    r = run([bisheng, "-xcce", "-c", os.path.join(FIXTURES, "scale_add.cpp"), "-MD", "-MT",
             "k.o", "-MF", str(tmp_path / "k.o.d"), "-o", str(kernel)])
    assert r.returncode == 0, r.stdout + r.stderr
    # The dependency file names the source the user wrote and its headers.
    deps = (tmp_path / "k.o.d").read_text()
    assert os.path.join(FIXTURES, "scale_add.cpp") in deps and "scale_add_tiling.h" in deps
    r = run([bisheng, "-c", os.path.join(FIXTURES, "main.cpp"), "-o", str(tmp_path / "m.o"),
             f"-I{prefix}/include"])
    assert r.returncode == 0, r.stdout + r.stderr
    exe = tmp_path / "prog"
    r = run([bisheng, str(kernel), str(tmp_path / "m.o"), "--cce-fatobj-link", "-o", str(exe)])
    assert r.returncode == 0, r.stdout + r.stderr
    x, y = write_inputs(tmp_path, 2048)
    check_output(tmp_path, x, y, -3.0, run([str(exe), str(tmp_path), "2048", "-3"]))


def test_cce_language_cmake_project(tmp_path, prefix):
    env = env_of(prefix)
    build = tmp_path / "build"
    r = run(["cmake", "-S", os.path.join(FIXTURES, "project"), "-B", str(build)], env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    r = run(["cmake", "--build", str(build)], env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Linking CCE executable" in r.stdout
    x, y = write_inputs(tmp_path, 1024)
    check_output(tmp_path, x, y, 2.0,
                 run([str(build / "scale_add_npu"), str(tmp_path), "1024", "2"]))


def test_find_package_asc_project(tmp_path, prefix):
    """CANN's newer projects: find_package(ASC) (found from <prefix>/bin on PATH, as set_env.sh
    leaves it), project(... LANGUAGES ASC CXX) and one .asc file with kernel and host code."""
    env = env_of(prefix)
    build = tmp_path / "build"
    r = run(["cmake", "-S", os.path.join(FIXTURES, "asc_project"), "-B", str(build)], env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    r = run(["cmake", "--build", str(build)], env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Linking ASC executable" in r.stdout
    x, y = write_inputs(tmp_path, 1024)
    check_output(tmp_path, x, y, 3.0,
                 run([str(build / "scale_add_asc"), str(tmp_path), "1024", "3"]))
    # The operator-package side of the package is refused with a message, and so is SIMT.
    for body, words in (("npu_op_package(p TYPE RUN)\n", "npu_op_package"),
                        ("set(CMAKE_ASC_ENABLE_SIMT ON)\nproject(s LANGUAGES ASC)\n"
                         "add_executable(s k.asc)\n", "SIMT")):
        bad = tmp_path / ("bad_" + words)
        bad.mkdir()
        (bad / "k.asc").write_text("int main(int argc, char** argv) { return 0; }\n")
        (bad / "CMakeLists.txt").write_text(
            "cmake_minimum_required(VERSION 3.16)\nfind_package(ASC REQUIRED)\n" + body)
        r = run(["cmake", "-S", str(bad), "-B", str(bad / "build")], env=env)
        if r.returncode == 0:
            r = run(["cmake", "--build", str(bad / "build")], env=env)
        assert r.returncode != 0 and words in r.stdout + r.stderr, r.stdout + r.stderr


def test_kernel_launch_project_in_npu_mode(tmp_path, prefix):
    """CANN's samples in npu mode: npu_lib.cmake includes the toolkit's ascendc.cmake; the
    kernel library (with a <<<>>> launch in its source) installs to <prefix>/lib as CANN's."""
    build, out = tmp_path / "build", tmp_path / "out"
    r = run(["cmake", "-S", os.path.join(FIXTURES, "npu_lib_project"), "-B", str(build),
             f"-DASCEND_CANN_PACKAGE_PATH={prefix}", f"-DCMAKE_INSTALL_PREFIX={out}"])
    assert r.returncode == 0, r.stdout + r.stderr
    r = run(["cmake", "--build", str(build)])
    assert r.returncode == 0, r.stdout + r.stderr
    r = run(["cmake", "--install", str(build)])
    assert r.returncode == 0, r.stdout + r.stderr
    assert (out / "lib" / "libkernels.so").exists()
    x, y = write_inputs(tmp_path, 2048)
    # As the samples run it: set_env.sh puts the toolkit on LD_LIBRARY_PATH, run.sh out/lib.
    env = dict(os.environ, LD_LIBRARY_PATH=f"{out}/lib:{prefix}/lib64")
    check_output(tmp_path, x, y, 1.5,
                 run([str(out / "bin" / "scale_add_bbit"), str(tmp_path), "2048", "1.5"], env=env))
    # ascendc_fatbin_library asks for NPU binaries: refused with a message.
    bad = tmp_path / "fatbin"
    bad.mkdir()
    (bad / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.16)\nproject(f)\n"
        f"include({prefix}/compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake)\n"
        "ascendc_fatbin_library(k a.cpp)\n")
    r = run(["cmake", "-S", str(bad), "-B", str(bad / "build")])
    assert r.returncode != 0 and "NPU machine code" in " ".join((r.stdout + r.stderr).split())


PADDING_KERNEL = r"""
#include <cstdio>
#include <cstdlib>
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;
// Reads n floats through a view of an aclrtMalloc'ed 8-byte buffer: up to 16 stay inside
// the 64 bytes the NPU lays out for it (rounded to 32, plus 32).
__global__ __aicore__ void pad_read(GM_ADDR x, GM_ADDR y, uint32_t n) {
  GlobalTensor<float> gx, gy;
  gx.SetGlobalBuffer((__gm__ float*)x, n);
  gy.SetGlobalBuffer((__gm__ float*)y, n);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 128);
  LocalTensor<float> t = b.Get<float>();
  DataCopy(t, gx, n);
  PipeBarrier<PIPE_ALL>();
  DataCopy(gy, t, n);
}
int main(int argc, char** argv) {
  aclInit(nullptr);
  aclrtSetDevice(0);
  aclrtStream s;
  aclrtCreateStream(&s);
  void *x, *y;
  aclrtMalloc(&x, 8, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&y, 128, ACL_MEM_MALLOC_HUGE_FIRST);
  pad_read<<<1, nullptr, s>>>((uint8_t*)x, (uint8_t*)y, (uint32_t)atoi(argv[1]));
  std::printf("sync=%d\n", (int)aclrtSynchronizeStream(s));
  return 0;
}
"""


def test_a_kernel_may_read_the_padding_aclrtmalloc_lays_out(tmp_path, prefix):
    src = tmp_path / "pad_read.cpp"
    src.write_text(PADDING_KERNEL)
    exe = tmp_path / "pad_read"
    r = run([str(prefix / "bin" / "ccec"), "-xcce", str(src), "-o", str(exe)],
            env=env_of(prefix))
    assert r.returncode == 0, r.stdout + r.stderr
    r = run([str(exe), "16"], env=env_of(prefix))
    assert "sync=0" in r.stdout, r.stdout + r.stderr
    r = run([str(exe), "24"], env=env_of(prefix))  # 96 bytes: past the padding
    assert "sync=507015" in r.stdout, r.stdout + r.stderr
    assert "runs past the end of its allocation of 8 bytes" in r.stderr, r.stderr


CUBE_MARK_KERNEL = r"""
#include <cstdio>
#include "acl/acl.h"
#include "kernel_operator.h"
using namespace AscendC;
// A kernel marked __cube__ runs on the cube cores only: each block records its core type.
__global__ __cube__ void which_core(GM_ADDR out) {
  GlobalTensor<int32_t> g;
  g.SetGlobalBuffer((__gm__ int32_t*)out, 64);
  g.SetValue(ASCEND_IS_AIC ? GetBlockIdx() : 32 + GetBlockIdx(), ASCEND_IS_AIC ? 1 : 2);
}
int main() {
  aclInit(nullptr);
  aclrtSetDevice(0);
  aclrtStream s;
  aclrtCreateStream(&s);
  void* d;
  aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemset(d, 256, 0, 256);
  which_core<<<2, nullptr, s>>>((uint8_t*)d);
  int rc = aclrtSynchronizeStream(s);
  int h[64];
  aclrtMemcpy(h, 256, d, 256, ACL_MEMCPY_DEVICE_TO_HOST);
  int aic = 0, aiv = 0;
  for (int i = 0; i < 64; ++i) aic += h[i] == 1, aiv += h[i] == 2;
  std::printf("sync=%d aic=%d aiv=%d\n", rc, aic, aiv);
  return 0;
}
"""


def test_a_cube_marked_kernel_runs_on_cube_cores_only(tmp_path, prefix):
    src = tmp_path / "which.asc"
    src.write_text(CUBE_MARK_KERNEL)
    exe = tmp_path / "which"
    r = run([str(prefix / "bin" / "bisheng"), str(src), "--npu-arch=dav-2201", "-o", str(exe)],
            env=env_of(prefix))
    assert r.returncode == 0, r.stdout + r.stderr
    r = run([str(exe)], env=env_of(prefix))
    assert "sync=0 aic=2 aiv=0" in r.stdout, r.stdout + r.stderr


def test_ccec_refusals_and_warnings(tmp_path, prefix):
    ccec = str(prefix / "bin" / "ccec")
    src = os.path.join(FIXTURES, "scale_add.cpp")
    cases = [(["-S"], "NPU machine code"), (["--cce-aicore-only"], "NPU machine code"),
             (["--cce-aicore-arch=dav-m200"], "not modelled"),
             (["--cce-soc-version=Ascend310P3"], "not modelled"),
             (["--cce-no-such-option"], "does not know")]
    for flags, why in cases:
        r = run([ccec, "-xcce", "-c", src, "-o", str(tmp_path / "k.o")] + flags)
        assert r.returncode != 0 and why in r.stderr, (flags, r.stderr)
        assert not (tmp_path / "k.o").exists()
    # An unmatched <<< is reported with the file and line, before the host compiler runs.
    bad = tmp_path / "bad.cpp"
    bad.write_text("int a;\nvoid f(void* s) { k<<<1, nullptr, s(a); }\n")
    r = run([ccec, "-xcce", "-c", str(bad), "-o", str(tmp_path / "bad.o")])
    assert r.returncode != 0 and f"{bad}:2: <<< without its >>>" in r.stderr, r.stderr
    # Code-generation options are recorded with one warning line each.
    r = run([ccec, "-xcce", "-c", src, "-o", str(tmp_path / "k.o"), "-mllvm",
             "-cce-aicore-record-overflow=true", f"--cce-auto-sync-log={tmp_path}/sync.log"])
    assert r.returncode == 0, r.stderr
    assert "[WARNING] ccec: -mllvm -cce-aicore-record-overflow=true" in r.stderr
    assert "no synchronisation inserted" in (tmp_path / "sync.log").read_text()


def test_libc_sec_from_c(tmp_path, prefix):
    exe = tmp_path / "securec_check"
    r = run(["gcc", "-std=c11", os.path.join(FIXTURES, "securec_check.c"), f"-I{prefix}/include",
             f"-L{prefix}/lib64", "-lc_sec", f"-Wl,-rpath,{prefix}/lib64", "-o", str(exe)])
    assert r.returncode == 0, r.stdout + r.stderr
    r = run([str(exe)])
    assert r.returncode == 0 and "all checks passed" in r.stdout, r.stdout
