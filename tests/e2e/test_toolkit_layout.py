"""make install lays the prefix out as CANN's toolkit: an application with a CANN sample's own
CMakeLists (DDK_PATH, NPU_HOST_LIB) builds against it unchanged and runs after
`source set_env.sh`, and so do the tools and `import acl`."""
import os
import subprocess

import numpy as np

from make_onnx import mlp_reference, tiny_mlp

# The CMakeLists pattern of CANN's C++ samples (acl_resnet50 and the others).
SAMPLE_CMAKE = r"""
cmake_minimum_required(VERSION 3.5.1)
project(sample_mlp)
add_definitions(-DENABLE_DVPP_INTERFACE)
set(CMAKE_CXX_FLAGS_DEBUG "-fPIC -O0 -g -Wall")
set(CMAKE_CXX_FLAGS_RELEASE "-fPIC -O2 -Wall")
if (NOT DEFINED ENV{DDK_PATH})
    set(INC_PATH "/usr/local/Ascend")
else ()
    set(INC_PATH $ENV{DDK_PATH})
endif()
if(EXISTS ${INC_PATH}/runtime/include)
    set(ACL_NAME runtime)
else()
    set(ACL_NAME acllib)
endif()
if (NOT DEFINED ENV{NPU_HOST_LIB})
    set(LIB_PATH "/usr/local/Ascend/${ACL_NAME}/lib64/stub/")
else ()
    set(LIB_PATH $ENV{NPU_HOST_LIB})
endif()
include_directories(${INC_PATH}/${ACL_NAME}/include/)
link_directories(${LIB_PATH})
add_executable(main main.cpp)
target_link_libraries(main ascendcl stdc++)
"""

SAMPLE_MAIN = r"""
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#define CHECK(x) do { aclError e = (x); if (e != ACL_SUCCESS) { \
  std::printf("[ERROR] %s: %d %s\n", #x, e, aclGetRecentErrMsg()); return 1; } } while (0)
int main(int argc, char** argv) {
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtRunMode mode;
  CHECK(aclrtGetRunMode(&mode));
  uint32_t id = 0;
  CHECK(aclmdlLoadFromFile(argv[1], &id));
  std::vector<float> x(4 * 4), y(4 * 3);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(int(i % 7) - 3) / 2;
  void *din = nullptr, *dout = nullptr;
  CHECK(aclrtMalloc(&din, x.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dout, y.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(din, x.size() * 4, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
  aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
  aclDataBuffer *bin = aclCreateDataBuffer(din, x.size() * 4);
  aclDataBuffer *bout = aclCreateDataBuffer(dout, y.size() * 4);
  aclmdlAddDatasetBuffer(in, bin);
  aclmdlAddDatasetBuffer(out, bout);
  CHECK(aclmdlExecute(id, in, out));
  CHECK(aclrtMemcpy(y.data(), y.size() * 4, dout, y.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));
  FILE* f = std::fopen(argv[2], "wb");
  std::fwrite(y.data(), 4, y.size(), f);
  std::fclose(f);
  size_t free_mem = 0, total = 0;
  CHECK(aclrtGetMemInfo(ACL_HBM_MEM, &free_mem, &total));
  std::printf("soc %s run mode %d total %zu\n", aclrtGetSocName(), int(mode), total);
  aclDestroyDataBuffer(bin);
  aclDestroyDataBuffer(bout);
  aclmdlDestroyDataset(in);
  aclmdlDestroyDataset(out);
  aclrtFree(din);
  aclrtFree(dout);
  CHECK(aclmdlUnload(id));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return 0;
}
"""


def bash(script, cwd=None):
    env = {k: v for k, v in os.environ.items()
           if k not in ("LD_LIBRARY_PATH", "PYTHONPATH", "DDK_PATH", "NPU_HOST_LIB")}
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=900)


def test_layout_and_set_env(prefix):
    for path in ["runtime/include/acl/acl.h", "runtime/lib64/stub/libascendcl.so",
                 "runtime/lib64/libascendcl.so", "lib64/libascendcl.so", "bin/atc",
                 "python/site-packages", "opp/vendors", "set_env.sh",
                 "x86_64-linux/runtime/include/acl/acl_mdl.h",
                 "compiler/include/acl/acl_op_compiler.h",
                 "tools/tikicpulib/lib/cmake/tikicpulib/tikicpulibConfig.cmake"]:
        assert (prefix / path).exists(), path
    r = bash(f"source {prefix}/set_env.sh && env")
    assert r.returncode == 0, r.stderr
    env = dict(line.split("=", 1) for line in r.stdout.splitlines() if "=" in line)
    assert env["ASCEND_TOOLKIT_HOME"] == str(prefix) == env["ASCEND_HOME_PATH"]
    assert env["ASCEND_OPP_PATH"] == f"{prefix}/opp"
    assert env["LD_LIBRARY_PATH"].startswith(f"{prefix}/lib64")
    assert env["PYTHONPATH"].startswith(f"{prefix}/python/site-packages")
    assert env["PATH"].startswith(f"{prefix}/bin")


def test_cann_sample_cmakelists_builds_and_runs_from_set_env(prefix, tmp_path):
    src = tmp_path / "sample"
    (src / "src").mkdir(parents=True)
    (src / "src" / "CMakeLists.txt").write_text(SAMPLE_CMAKE)
    (src / "src" / "main.cpp").write_text(SAMPLE_MAIN)
    m = tiny_mlp(tmp_path / "mlp.onnx", batch=4)
    script = f"""set -e
source {prefix}/set_env.sh
export DDK_PATH={prefix}
export NPU_HOST_LIB=$DDK_PATH/runtime/lib64/stub
atc --model={m} --framework=5 --output={tmp_path}/mlp --soc_version=Ascend910B3 >/dev/null
mkdir -p build && cd build && cmake ../src >/dev/null && make >/dev/null
./main {tmp_path}/mlp.om {tmp_path}/y.bin
/usr/bin/python3 -c "import acl; print('acl', acl.get_soc_name(), acl.rt.get_run_mode())"
"""
    r = bash(script, cwd=src)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "soc Ascend910B3 run mode 1 total 68719476736" in r.stdout
    assert "acl Ascend910B3 (1, 0)" in r.stdout
    x = (np.array([int(i % 7) - 3 for i in range(16)], np.float32) / 2).reshape(4, 4)
    y = np.fromfile(tmp_path / "y.bin", np.float32).reshape(4, 3)
    np.testing.assert_allclose(y, mlp_reference(x), rtol=1e-6)


ASYNC_APP = r"""
import sys
import numpy as np
import acl

om, x_path, y_path = sys.argv[1:4]
assert acl.init() == 0 and acl.rt.set_device(0) == 0
context, _ = acl.rt.get_context()
model_id, ret = acl.mdl.load_from_file(om)
assert ret == 0, acl.get_recent_err_msg()
stream, _ = acl.rt.create_stream()
flag = [True]

def process_callback(args_list):
    ctx, run = args_list
    acl.rt.set_context(ctx)
    while run[0]:
        acl.rt.process_report(100)

tid, ret = acl.util.start_thread(process_callback, [context, flag])
assert ret == 0 and acl.rt.subscribe_report(tid, stream) == 0
x = np.load(x_path)
y = np.zeros((4, 3), np.float32)
din, _ = acl.rt.malloc(x.nbytes, 0)
dout, _ = acl.rt.malloc(y.nbytes, 0)
ds_in, ds_out = acl.mdl.create_dataset(), acl.mdl.create_dataset()
acl.mdl.add_dataset_buffer(ds_in, acl.create_data_buffer(din, x.nbytes))
acl.mdl.add_dataset_buffer(ds_out, acl.create_data_buffer(dout, y.nbytes))
done = []
acl.rt.memcpy_async(din, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, 1, stream)
acl.mdl.execute_async(model_id, ds_in, ds_out, stream)
acl.rt.memcpy_async(acl.util.numpy_to_ptr(y), y.nbytes, dout, y.nbytes, 2, stream)
acl.rt.launch_callback(lambda d: done.append(d), "ok", 1, stream)
assert acl.rt.synchronize_stream(stream) == 0 and done == ["ok"]
acl.rt.unsubscribe_report(tid, stream)
flag[0] = False
acl.util.stop_thread(tid)
np.save(y_path, y)
for ds in (ds_in, ds_out):
    acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(ds, 0))
    acl.mdl.destroy_dataset(ds)
acl.rt.free(din)
acl.rt.free(dout)
acl.rt.destroy_stream(stream)
acl.mdl.unload(model_id)
acl.rt.reset_device(0)
acl.finalize()
print("async done")
"""


def test_pyacl_async_sample_from_set_env(prefix, tmp_path):
    m = tiny_mlp(tmp_path / "mlp.onnx", batch=4)
    x = np.random.default_rng(5).standard_normal((4, 4)).astype(np.float32)
    np.save(tmp_path / "x.npy", x)
    (tmp_path / "app.py").write_text(ASYNC_APP)
    r = bash(f"""set -e
source {prefix}/set_env.sh
atc --model={m} --framework=5 --output={tmp_path}/mlp --soc_version=Ascend910B3 >/dev/null
/usr/bin/python3 {tmp_path}/app.py {tmp_path}/mlp.om {tmp_path}/x.npy {tmp_path}/y.npy
""")
    assert r.returncode == 0 and "async done" in r.stdout, r.stdout + r.stderr
    np.testing.assert_allclose(np.load(tmp_path / "y.npy"), mlp_reference(x), rtol=1e-6)


def test_stub_libraries_link_without_the_real_ones(prefix, tmp_path):
    """CANN's samples link against runtime/lib64/stub before any environment is set: the
    stubs stand alone (no dependencies to find), carry the real sonames, and the program then
    runs on the real libraries. DVPP's memory pair comes from -lacl_dvpp as ais_bench links it."""
    stub = prefix / "runtime" / "lib64" / "stub"
    for lib in ("libascendcl.so", "libacl_dvpp.so", "libruntime.so"):
        d = subprocess.run(["readelf", "-d", str(stub / lib)], capture_output=True,
                           text=True).stdout
        assert "NEEDED" not in d and "(SONAME)" in d, (lib, d)
    src = tmp_path / "sample"
    (src / "src").mkdir(parents=True)
    (src / "src" / "CMakeLists.txt").write_text(
        SAMPLE_CMAKE.replace("target_link_libraries(main ascendcl stdc++)",
                             "target_link_libraries(main ascendcl acl_dvpp stdc++)"))
    (src / "src" / "main.cpp").write_text(
        SAMPLE_MAIN.replace("#include <cstdio>", "#include <cstdio>\n#include \"acl/ops/acl_dvpp.h\"")
        .replace("  CHECK(aclmdlUnload(id));",
                 "  void* dvpp = nullptr;\n  CHECK(acldvppMalloc(&dvpp, 1000));\n"
                 "  CHECK(acldvppFree(dvpp));\n  CHECK(aclmdlUnload(id));"))
    m = tiny_mlp(tmp_path / "mlp.onnx", batch=4)
    script = f"""set -e
export DDK_PATH={prefix}
export NPU_HOST_LIB=$DDK_PATH/runtime/lib64/stub
{prefix}/bin/atc --model={m} --framework=5 --output={tmp_path}/mlp --soc_version=Ascend910B3 \
    >/dev/null
mkdir -p build && cd build && cmake ../src >/dev/null && make >/dev/null
readelf -d main | grep NEEDED
source {prefix}/set_env.sh
./main {tmp_path}/mlp.om {tmp_path}/y.bin
"""
    r = bash(script, cwd=src)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "libascendcl.so.0" in r.stdout and "libacl_dvpp.so.0" in r.stdout
    assert "soc Ascend910B3" in r.stdout


def test_soc_detection_as_llm_apps_do_it(prefix):
    """rtGetSocVersion from libruntime.so through ctypes, then Short_SoC_version from the
    platform file, as qwen-ascend-llm chooses atc's --soc_version."""
    code = f"""
import ctypes, os
lib = ctypes.CDLL("libruntime.so")
buf = ctypes.create_string_buffer(512)
lib.rtGetSocVersion.restype = ctypes.c_uint64
assert lib.rtGetSocVersion(buf, ctypes.c_uint32(512)) == 0
soc = buf.value.decode()
small = ctypes.create_string_buffer(4)
assert lib.rtGetSocVersion(small, ctypes.c_uint32(4)) != 0
ini = os.path.join(os.environ["ASCEND_HOME_PATH"], "compiler", "data", "platform_config",
                   soc + ".ini")
short = [l.split("=", 1)[1].strip() for l in open(ini) if l.startswith("Short_SoC_version=")]
print(soc, short[0])
"""
    r = bash(f"source {prefix}/set_env.sh && OCANN_SOC=Ascend310P3 /usr/bin/python3 -c '{code}'")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.split() == ["Ascend310P3", "Ascend310P"]
    for soc in ("Ascend910B1", "Ascend910B3", "Ascend310B1", "Ascend910A", "Ascend310"):
        text = (prefix / "x86_64-linux" / "data" / "platform_config" / f"{soc}.ini").read_text()
        assert f"SoC_version={soc}" in text and "[SoCInfo]" in text and "ai_core_cnt=" in text
