"""CANN's operator-project template, step by step, as its cmake/func.cmake drives it: the
op_host library compiled with the template's command, op_build on it (aclnn sources, op_proto,
aic-<unit>-ops-info.ini), the package laid out as the template installs it, opc compiling the
kernel through a Python operator wrapper for each type combination, and the package's aclnn
API run against numpy. The wrapper and the project are this test's own, written to the
interfaces CANN documents (the template's scripts are not redistributed)."""
import json
import os
import shutil
import subprocess

import numpy as np
import pytest

from conftest import BUILD, run

TILING_H = r"""
#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleAddCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
  TILING_DATA_FIELD_DEF(float, alpha);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleAddCustom, ScaleAddCustomTilingData)
}  // namespace optiling
"""

HOST_CPP = r"""
#include "scale_add_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  ScaleAddCustomTilingData tiling;
  const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
  const float* alpha = context->GetAttrs()->GetAttrPointer<float>(0);
  context->SetBlockDim(8);
  tiling.set_totalLength(total);
  tiling.set_tileLength(128);
  tiling.set_alpha(*alpha);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  size_t* workspace = context->GetWorkspaceSizes(1);
  workspace[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context) {
  *context->GetOutputShape(0) = *context->GetInputShape(0);
  return GRAPH_SUCCESS;
}
static graphStatus InferDataType(gert::InferDataTypeContext* context) {
  context->SetOutputDataType(0, context->GetInputDataType(0));
  return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class ScaleAddCustom : public OpDef {
 public:
  explicit ScaleAddCustom(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Attr("alpha").AttrType(OPTIONAL).Float(2.0);
    this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig(UNIT);
  }
};
OP_ADD(ScaleAddCustom);
}  // namespace ops
"""

KERNEL_CPP = r"""
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class KernelScaleAdd {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile, float alpha) {
    blockLen_ = total / GetBlockNum();
    tile_ = tile;
    alpha_ = alpha;
    xGm_.SetGlobalBuffer((__gm__ T*)x + blockLen_ * GetBlockIdx(), blockLen_);
    yGm_.SetGlobalBuffer((__gm__ T*)y + blockLen_ * GetBlockIdx(), blockLen_);
    zGm_.SetGlobalBuffer((__gm__ T*)z + blockLen_ * GetBlockIdx(), blockLen_);
    pipe_.InitBuffer(inX_, 2, tile_ * sizeof(T));
    pipe_.InitBuffer(inY_, 2, tile_ * sizeof(T));
    pipe_.InitBuffer(out_, 2, tile_ * sizeof(T));
  }
  __aicore__ inline void Process() {
    for (uint32_t i = 0; i < blockLen_ / tile_; ++i) {
      LocalTensor<T> x = inX_.AllocTensor<T>();
      LocalTensor<T> y = inY_.AllocTensor<T>();
      DataCopy(x, xGm_[i * tile_], tile_);
      DataCopy(y, yGm_[i * tile_], tile_);
      inX_.EnQue(x);
      inY_.EnQue(y);
      x = inX_.DeQue<T>();
      y = inY_.DeQue<T>();
      LocalTensor<T> z = out_.AllocTensor<T>();
      Muls(z, x, static_cast<T>(alpha_), tile_);
      Add(z, z, y, tile_);
      out_.EnQue(z);
      inX_.FreeTensor(x);
      inY_.FreeTensor(y);
      z = out_.DeQue<T>();
      DataCopy(zGm_[i * tile_], z, tile_);
      out_.FreeTensor(z);
    }
  }

 private:
  TPipe pipe_;
  TQue<QuePosition::VECIN, 2> inX_, inY_;
  TQue<QuePosition::VECOUT, 2> out_;
  GlobalTensor<T> xGm_, yGm_, zGm_;
  uint32_t blockLen_ = 0, tile_ = 0;
  float alpha_ = 0;
};

extern "C" __global__ __aicore__ void scale_add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                       GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  KernelScaleAdd<DTYPE_X> op;
  op.Init(x, y, z, t.totalLength, t.tileLength, t.alpha);
  op.Process();
}
"""

# An operator wrapper as the template's generator writes one: it imports CANN's compile API
# and hands the kernel source and its type macros to compile_op.
WRAPPER_PY = r'''
import os
from tbe.common.platform import get_soc_spec
from tbe.common.utils import para_check
from tbe.tikcpp import compile_op, get_code_channel, OpInfo
from tbe.common.buildcfg import get_current_build_config
from impl.util.platform_adapter import tbe_register

CTYPES = {"float16": "half", "float32": "float"}


@tbe_register.register_operator("ScaleAddCustom")
@para_check.check_op_params(para_check.REQUIRED_INPUT, para_check.REQUIRED_INPUT, para_check.REQUIRED_OUTPUT,
                            para_check.OPTION_ATTR_FLOAT, para_check.KERNEL_NAME)
def scale_add_custom(x, y, z, alpha=2.0, kernel_name="scale_add_custom", impl_mode=""):
    if get_current_build_config("enable_op_prebuild"):
        return
    options = ["-x", "cce"]
    for t in (x, y, z):
        name = t["param_name"].upper()
        options += ["-DDTYPE_%s=%s" % (name, CTYPES[t["dtype"]]), "-DFORMAT_%s=FORMAT_%s" % (name, t["format"])]
    assert get_soc_spec("SHORT_SOC_VERSION") in ("Ascend910B", "Ascend310P"), get_soc_spec("SHORT_SOC_VERSION")
    src = os.path.join(os.path.dirname(os.path.realpath(__file__)), "scale_add_custom.cpp")
    info = OpInfo(kernel_name=kernel_name, op_type="ScaleAddCustom", inputs=[x, y], outputs=[z],
                  attrs=[{"name": "alpha", "dtype": "float", "value": alpha}], impl_mode=impl_mode)
    compile_op(src, "scale_add_custom", info, options, get_code_channel(src, kernel_name, "ScaleAddCustom"), "{}")
'''

APP_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include "acl/acl.h"
#include "aclnn_scale_add_custom.h"
/* app <acl dtype> <elements> <elem bytes> <x.bin> <y.bin> <z.bin> */
static void *load(const char *path, size_t n) {
  void *p = malloc(n);
  FILE *f = fopen(path, "rb");
  if (!f || fread(p, 1, n, f) != n) { fprintf(stderr, "cannot read %s\n", path); exit(2); }
  fclose(f);
  return p;
}
int main(int argc, char **argv) {
  int dtype = atoi(argv[1]);
  int64_t n = atoll(argv[2]);
  size_t bytes = (size_t)n * (size_t)atoi(argv[3]);
  int64_t shape[1] = {n};
  void *hx = load(argv[4], bytes), *hy = load(argv[5], bytes), *hz = malloc(bytes);
  void *dx, *dy, *dz;
  aclrtStream stream;
  uint64_t ws = 0;
  aclOpExecutor *ex = NULL;
  if (aclInit(NULL) || aclrtSetDevice(0) || aclrtCreateStream(&stream)) return 3;
  aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpy(dx, bytes, hx, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(dy, bytes, hy, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclTensor *x = aclCreateTensor(shape, 1, (aclDataType)dtype, NULL, 0, ACL_FORMAT_ND, shape, 1, dx);
  aclTensor *y = aclCreateTensor(shape, 1, (aclDataType)dtype, NULL, 0, ACL_FORMAT_ND, shape, 1, dy);
  aclTensor *z = aclCreateTensor(shape, 1, (aclDataType)dtype, NULL, 0, ACL_FORMAT_ND, shape, 1, dz);
  int prep = aclnnScaleAddCustomGetWorkspaceSize(x, y, 0.5, z, &ws, &ex);
  int launch = prep ? -1 : aclnnScaleAddCustom(NULL, ws, ex, stream);
  int sync = aclrtSynchronizeStream(stream);
  printf("prep=%d launch=%d sync=%d\n", prep, launch, sync);
  if (prep || launch || sync) return 1;
  aclrtMemcpy(hz, bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  FILE *f = fopen(argv[6], "wb");
  fwrite(hz, 1, bytes, f);
  fclose(f);
  return 0;
}
"""


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    root = tmp_path_factory.mktemp("prefix")
    r = run(["cmake", "--install", BUILD, "--prefix", str(root)])
    assert r.returncode == 0, r.stdout + r.stderr
    return root


def make_project(root, unit):
    (root / "op_host").mkdir(parents=True)
    (root / "op_kernel").mkdir()
    (root / "op_host" / "scale_add_custom_tiling.h").write_text(TILING_H)
    (root / "op_host" / "scale_add_custom.cpp").write_text(HOST_CPP.replace("UNIT", '"%s"' % unit))
    (root / "op_kernel" / "scale_add_custom.cpp").write_text(KERNEL_CPP)


def host_library(prefix, root, out, extra=()):
    """The op_host sources compiled as the template's opbuild() and cust_optiling compile them."""
    return run(["g++", "-g", "-fPIC", "-shared", "-std=c++11", str(root / "op_host" / "scale_add_custom.cpp"),
                "-D_GLIBCXX_USE_CXX11_ABI=0", "-I", f"{prefix}/include", "-L", f"{prefix}/lib64", *extra,
                "-lexe_graph", "-lregister", "-ltiling_api", "-o", str(out)])


@pytest.fixture(scope="module")
def template_package(prefix, tmp_path_factory):
    """The package of a template project for ascend910b, binaries compiled by opc."""
    root = tmp_path_factory.mktemp("scale_add")
    make_project(root, "ascend910b")
    autogen = root / "build_out" / "autogen"
    autogen.mkdir(parents=True)
    r = host_library(prefix, root, autogen / "libascend_all_ops.so")
    assert r.returncode == 0, r.stderr
    r = run([f"{prefix}/toolkit/tools/opbuild/op_build", str(autogen / "libascend_all_ops.so"), str(autogen)])
    assert r.returncode == 0, r.stdout + r.stderr

    vendor = root / "installed" / "vendors" / "customize"
    tiling = vendor / "op_impl/ai_core/tbe/op_tiling/lib/linux/x86_64"
    tiling.mkdir(parents=True)
    r = host_library(prefix, root, tiling / "libcust_opmaster_rt2.0.so",
                     ["-Wl,--whole-archive", "-lrt2_registry", "-Wl,--no-whole-archive"])
    assert r.returncode == 0, r.stderr
    api = vendor / "op_api"
    (api / "lib").mkdir(parents=True)
    (api / "include").mkdir()
    shutil.copy(autogen / "aclnn_scale_add_custom.h", api / "include")
    r = run(["g++", "-fPIC", "-shared", "-D_GLIBCXX_USE_CXX11_ABI=0", str(autogen / "aclnn_scale_add_custom.cpp"),
             f"-I{prefix}/include", f"-L{prefix}/lib64", "-lascendcl", "-lnnopbase",
             "-o", str(api / "lib" / "libcust_opapi.so")])
    assert r.returncode == 0, r.stderr

    src = root / "build_out" / "binary" / "src"
    src.mkdir(parents=True)
    shutil.copy(root / "op_kernel" / "scale_add_custom.cpp", src)
    (src / "ScaleAddCustom.py").write_text(WRAPPER_PY)
    out = vendor / "op_impl/ai_core/tbe/kernel/ascend910b/scale_add_custom"
    env = dict(os.environ, ASCEND_CUSTOM_OPP_PATH=str(vendor))
    for i, dtype in enumerate(["float16", "float32"]):
        tensor = {"dtype": dtype, "format": "ND", "paramType": "required", "shape": [-2]}
        param = {"op_type": "ScaleAddCustom",
                 "op_list": [{"bin_filename": f"ScaleAddCustom_{i}",
                              "inputs": [dict(tensor, name="x", index=0), dict(tensor, name="y", index=1)],
                              "outputs": [dict(tensor, name="z", index=0)],
                              "attrs": [{"name": "alpha", "dtype": "float", "value": 0.0}]}]}
        (src / f"param_{i}.json").write_text(json.dumps(param))
        r = subprocess.run([f"{prefix}/bin/opc", str(src / "ScaleAddCustom.py"), "--main_func=scale_add_custom",
                            f"--input_param={src}/param_{i}.json", "--soc_version=Ascend910B3", f"--output={out}",
                            '--impl_mode=""', "--simplified_key_mode=0", "--op_mode=dynamic"],
                           capture_output=True, text=True, env=env, timeout=600)
        assert r.returncode == 0, r.stdout + r.stderr
    return {"root": root, "autogen": autogen, "vendor": vendor, "out": out, "src": src}


def test_op_build_writes_the_templates_sources(template_package):
    autogen = template_package["autogen"]
    ini = (autogen / "aic-ascend910b-ops-info.ini").read_text().splitlines()
    assert ini[0] == "[ScaleAddCustom]"
    for line in ["input0.name=x", "input0.dtype=float16,float32", "input0.format=ND,ND",
                 "input0.paramType=required", "input1.name=y", "output0.name=z",
                 "output0.dtype=float16,float32", "attr.list=alpha", "attr_alpha.type=float",
                 "attr_alpha.paramType=optional", "attr_alpha.defaultValue=2.0",
                 "opFile.value=scale_add_custom", "opInterface.value=scale_add_custom"]:
        assert line in ini, line
    header = (autogen / "aclnn_scale_add_custom.h").read_text()
    assert "aclnnScaleAddCustomGetWorkspaceSize" in header and "double alpha" in header
    assert (autogen / "op_proto.h").exists() and (autogen / "op_proto.cc").exists()


def test_opc_writes_the_binary_and_its_description(template_package):
    out = template_package["out"]
    desc = json.loads((out / "ScaleAddCustom_0.json").read_text())
    assert desc["binFileName"] == "ScaleAddCustom_0" and desc["binFileSuffix"] == ".o"
    assert desc["magic"] == "OPENCANN_ASCENDC_EMULATION"
    assert desc["tilingDataStruct"] == "ScaleAddCustomTilingData"  # from the installed op_host library
    info = desc["supportInfo"]
    assert [t["dtype"] for t in info["inputs"]] == ["float16", "float16"]
    assert info["outputs"][0]["dtype"] == "float16" and "staticKey" in info
    # The .o is the kernel for the emulation: a shared object.
    assert (out / "ScaleAddCustom_0.o").read_bytes()[:4] == b"\x7fELF"


@pytest.mark.parametrize("dtype,acl,size", [("float16", 1, 2), ("float32", 0, 4)])
def test_template_package_runs_through_aclnn(prefix, template_package, tmp_path, dtype, acl, size):
    api = template_package["vendor"] / "op_api"
    r = run(["gcc", "-x", "c", "-", f"-I{prefix}/include", f"-I{api}/include", "-o", str(tmp_path / "app"),
             f"-L{api}/lib", f"-L{prefix}/lib", "-lcust_opapi", "-lascendcl", f"-Wl,-rpath,{api}/lib:{prefix}/lib"],
            input=APP_C)
    assert r.returncode == 0, r.stderr
    rng = np.random.default_rng(7)
    n = 8 * 128 * 3
    x = rng.standard_normal(n).astype(dtype)
    y = rng.standard_normal(n).astype(dtype)
    x.tofile(tmp_path / "x.bin")
    y.tofile(tmp_path / "y.bin")
    env = dict(os.environ, ASCEND_CUSTOM_OPP_PATH=str(template_package["vendor"]))
    r = subprocess.run([str(tmp_path / "app"), str(acl), str(n), str(size), str(tmp_path / "x.bin"),
                        str(tmp_path / "y.bin"), str(tmp_path / "z.bin")],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0 and "prep=0 launch=0 sync=0" in r.stdout, r.stdout + r.stderr
    z = np.fromfile(tmp_path / "z.bin", dtype=dtype)
    expect = (x.astype(np.float32) * 0.5 + y.astype(np.float32)).astype(dtype)
    np.testing.assert_allclose(z.astype(np.float32), expect.astype(np.float32),
                               rtol=2e-3 if dtype == "float16" else 1e-6, atol=1e-3 if dtype == "float16" else 1e-6)


def test_package_without_binaries_for_the_chip_says_so(prefix, template_package, tmp_path):
    """The same package with its binaries for ascend310b only: the emulated 910B3 has none."""
    vendor = tmp_path / "customize"
    shutil.copytree(template_package["vendor"], vendor, symlinks=True)
    kernel = vendor / "op_impl/ai_core/tbe/kernel"
    (kernel / "ascend910b").rename(kernel / "ascend310b")
    api = vendor / "op_api"
    r = run(["gcc", "-x", "c", "-", f"-I{prefix}/include", f"-I{api}/include", "-o", str(tmp_path / "app"),
             f"-L{api}/lib", f"-L{prefix}/lib", "-lcust_opapi", "-lascendcl", f"-Wl,-rpath,{api}/lib:{prefix}/lib"],
            input=APP_C)
    assert r.returncode == 0, r.stderr
    np.zeros(1024, np.float32).tofile(tmp_path / "x.bin")
    r = subprocess.run([str(tmp_path / "app"), "0", "1024", "4", str(tmp_path / "x.bin"), str(tmp_path / "x.bin"),
                        str(tmp_path / "z.bin")], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, ASCEND_CUSTOM_OPP_PATH=str(vendor)))
    assert r.returncode == 1
    assert "kernel binaries for ascend310b, none for ascend910b" in r.stderr, r.stdout + r.stderr


@pytest.mark.parametrize("args,message", [
    (["--main_func=scale_add_custom", "--soc_version=Ascend910B3", "--output=OUT", "--input_param=PARAM",
      "--frobnicate=1"], "--frobnicate: an option OpenCANN's opc does not know"),
    (["--main_func=scale_add_custom", "--soc_version=Ascend999", "--output=OUT", "--input_param=PARAM"],
     "--soc_version=Ascend999: not a chip OpenCANN describes"),
    (["--main_func=no_such", "--soc_version=Ascend910B3", "--output=OUT", "--input_param=PARAM"],
     "has no function no_such"),
    (["--main_func=scale_add_custom", "--soc_version=Ascend910B3", "--output=OUT"], "--input_param is required"),
    (["--main_func=scale_add_custom", "--soc_version=Ascend910B3", "--output=OUT", "--input_param=GARBAGE"],
     "not a parameter file with op_type and op_list"),
])
def test_opc_refuses_bad_invocations(prefix, template_package, tmp_path, args, message):
    src = template_package["src"]
    (tmp_path / "garbage.json").write_text("{not json")
    args = [a.replace("OUT", str(tmp_path / "out")).replace("PARAM", str(src / "param_0.json"))
            .replace("GARBAGE", str(tmp_path / "garbage.json")) for a in args]
    r = run([f"{prefix}/bin/opc", str(src / "ScaleAddCustom.py"), *args])
    assert r.returncode == 1
    assert message in r.stderr, r.stderr
    assert not (tmp_path / "out" / "ScaleAddCustom_0.o").exists()


def test_opc_for_a_chip_the_emulation_does_not_model(prefix, template_package, tmp_path):
    """A package for ascend310p;ascend910b gets a 310P binary too: compiled (the kernel is
    checked), marked as not emulated, with one warning line; no emulated chip loads it."""
    src = template_package["src"]
    r = run([f"{prefix}/bin/opc", str(src / "ScaleAddCustom.py"), "--main_func=scale_add_custom",
             f"--input_param={src}/param_1.json", "--soc_version=Ascend310P3", f"--output={tmp_path}"],
            env=dict(os.environ, ASCEND_CUSTOM_OPP_PATH=str(template_package["vendor"])))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stderr.count("Ascend310P3 is not emulated by OpenCANN") == 1, r.stderr
    desc = json.loads((tmp_path / "ScaleAddCustom_1.json").read_text())
    assert desc["socVersion"] == "Ascend310P3" and desc["emulated"] is False


ASC_TOP = """cmake_minimum_required(VERSION 3.16.0)
project(opp)
find_package(ASC REQUIRED)
npu_op_package(scale TYPE RUN CONFIG INSTALL_PATH ${CMAKE_BINARY_DIR}/)
add_subdirectory(op_host)
add_subdirectory(op_kernel)
"""
ASC_HOST = """aux_source_directory(${CMAKE_CURRENT_SOURCE_DIR} ops_srcs)
npu_op_code_gen(SRC ${ops_srcs} PACKAGE scale OUT_DIR ${ASCEND_AUTOGEN_PATH})
file(GLOB aclnn_src ${ASCEND_AUTOGEN_PATH}/aclnn_*.cpp)
npu_op_library(cust_opapi ACLNN ${aclnn_src})
npu_op_library(cust_op_proto GRAPH ${ops_srcs} ${ASCEND_AUTOGEN_PATH}/op_proto.cc)
npu_op_library(cust_optiling TILING ${ops_srcs})
npu_op_package_add(scale LIBRARY cust_optiling cust_opapi cust_op_proto)
"""
ASC_KERNEL = """npu_op_kernel_sources(ascendc_kernels KERNEL_DIR ./)
npu_op_kernel_library(ascendc_kernels SRC_BASE ${CMAKE_CURRENT_SOURCE_DIR}/ TILING_LIBRARY cust_optiling)
npu_op_package_add(scale LIBRARY ascendc_kernels)
"""


def test_asc_package_template_builds_installs_and_runs(prefix, tmp_path):
    """find_package(ASC)'s operator-package functions (npu_op_package, npu_op_code_gen,
    npu_op_library, npu_op_kernel_library, npu_op_package_add): binary + package targets, the
    .run installed, the op run through aclnn."""
    root = tmp_path / "proj"
    make_project(root, "ascend910b")
    (root / "CMakeLists.txt").write_text(ASC_TOP)
    (root / "op_host" / "CMakeLists.txt").write_text(ASC_HOST)
    (root / "op_kernel" / "CMakeLists.txt").write_text(ASC_KERNEL)
    build = root / "build_out"
    r = run(["cmake", "-S", str(root), "-B", str(build), f"-DCMAKE_PREFIX_PATH={prefix}",
             "-DASCEND_COMPUTE_UNIT=ascend910b"])
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    for target in ("binary", "package"):
        r = run(["cmake", "--build", str(build), "--target", target, "-j2"])
        assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    package = next(build.glob("custom_opp_*.run"))
    r = run(["bash", str(package), f"--install-path={tmp_path / 'opp'}"])
    assert r.returncode == 0, r.stdout + r.stderr
    vendor = tmp_path / "opp" / "vendors" / "scale"
    assert (tmp_path / "opp" / "vendors" / "config.ini").read_text().startswith("load_priority=scale")
    assert len(list((vendor / "op_impl/ai_core/tbe/kernel/ascend910b/scale_add_custom").glob("*.o"))) == 2
    api = vendor / "op_api"
    r = run(["gcc", "-x", "c", "-", f"-I{prefix}/include", f"-I{api}/include", "-o", str(tmp_path / "app"),
             f"-L{api}/lib", f"-L{prefix}/lib", "-lcust_opapi", "-lascendcl", f"-Wl,-rpath,{api}/lib:{prefix}/lib"],
            input=APP_C)
    assert r.returncode == 0, r.stderr
    n = 8 * 128
    x = np.arange(n, dtype=np.float32) / 7
    y = np.ones(n, np.float32)
    x.tofile(tmp_path / "x.bin")
    y.tofile(tmp_path / "y.bin")
    r = subprocess.run([str(tmp_path / "app"), "0", str(n), "4", str(tmp_path / "x.bin"), str(tmp_path / "y.bin"),
                        str(tmp_path / "z.bin")], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, ASCEND_CUSTOM_OPP_PATH=str(vendor)))
    assert r.returncode == 0, r.stdout + r.stderr
    np.testing.assert_allclose(np.fromfile(tmp_path / "z.bin", np.float32), x * 0.5 + y, rtol=1e-6)


SINGLE_OP_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
/* app <model dir or "online"> <n>: z = x * 0.5 + y in float16 through a single operator */
int main(int argc, char **argv) {
  int online = strcmp(argv[1], "online") == 0;
  int64_t n = atoll(argv[2]), dims[1] = {n};
  size_t bytes = (size_t)n * 2;
  uint16_t *hx = malloc(bytes), *hy = malloc(bytes), *hz = malloc(bytes);
  for (int64_t i = 0; i < n; ++i) { hx[i] = 0x3C00; hy[i] = 0x4000; }   /* 1.0, 2.0 */
  void *dx, *dy, *dz;
  aclrtStream stream;
  if (aclInit(NULL) || aclrtSetDevice(0) || aclrtCreateStream(&stream)) return 3;
  if (!online && aclopSetModelDir(argv[1])) return 4;
  aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpy(dx, bytes, hx, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(dy, bytes, hy, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclTensorDesc *in[2], *out[1];
  in[0] = aclCreateTensorDesc(ACL_FLOAT16, 1, dims, ACL_FORMAT_ND);
  in[1] = aclCreateTensorDesc(ACL_FLOAT16, 1, dims, ACL_FORMAT_ND);
  out[0] = aclCreateTensorDesc(ACL_FLOAT16, 1, dims, ACL_FORMAT_ND);
  aclDataBuffer *ib[2] = {aclCreateDataBuffer(dx, bytes), aclCreateDataBuffer(dy, bytes)};
  aclDataBuffer *ob[1] = {aclCreateDataBuffer(dz, bytes)};
  aclopAttr *attr = aclopCreateAttr();
  aclopSetAttrFloat(attr, "alpha", 0.5f);
  int rc = online ? aclopCompileAndExecuteV2("ScaleAddCustom", 2, in, ib, 1, out, ob, attr, ACL_ENGINE_SYS,
                                             ACL_COMPILE_SYS, NULL, stream)
                  : aclopExecuteV2("ScaleAddCustom", 2, in, ib, 1, out, ob, attr, stream);
  int sync = aclrtSynchronizeStream(stream);
  aclrtMemcpy(hz, bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  int bad = 0;
  for (int64_t i = 0; i < n; ++i) bad += hz[i] != 0x4100;   /* 2.5 */
  printf("rc=%d sync=%d bad=%d\n", rc, sync, bad);
  return 0;
}
"""


def test_package_op_as_a_single_operator(prefix, template_package, tmp_path):
    """atc --singleop compiles a package op (float16 stays float16 for its kernel), and
    aclopExecuteV2 runs the .om; aclopCompileAndExecuteV2 compiles and runs it online."""
    spec = [{"op": "ScaleAddCustom",
             "input_desc": [{"name": "x", "format": "ND", "shape": [-1], "shape_range": [[1, -1]], "type": "float16"},
                            {"name": "y", "format": "ND", "shape": [-1], "shape_range": [[1, -1]], "type": "float16"}],
             "output_desc": [{"name": "z", "format": "ND", "shape": [-1], "shape_range": [[1, -1]], "type": "float16"}],
             "attr": [{"name": "alpha", "type": "float", "value": 0.5}]}]
    (tmp_path / "op.json").write_text(json.dumps(spec))
    env = dict(os.environ, ASCEND_CUSTOM_OPP_PATH=str(template_package["vendor"]))
    r = subprocess.run([f"{prefix}/bin/atc", f"--singleop={tmp_path}/op.json", f"--output={tmp_path}/models",
                        "--soc_version=Ascend910B3"], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    r = run(["gcc", "-x", "c", "-", f"-I{prefix}/include", "-o", str(tmp_path / "app"), f"-L{prefix}/lib",
             "-lacl_op_compiler", "-lascendcl", f"-Wl,-rpath,{prefix}/lib"], input=SINGLE_OP_C)
    assert r.returncode == 0, r.stderr
    for mode in (str(tmp_path / "models"), "online"):
        r = subprocess.run([str(tmp_path / "app"), mode, "4096"], capture_output=True, text=True, env=env,
                           timeout=600)
        assert "rc=0 sync=0 bad=0" in r.stdout, mode + "\n" + r.stdout + r.stderr


ONNX_PLUGIN = r"""
#include <string>
#include "graph/operator.h"
#include "register/register.h"
namespace domi {
// Maps ONNX Add onto ScaleAddCustom with alpha 3; the node's attributes arrive as JSON.
Status ParseAdd(const ge::Operator& src, ge::Operator& dst) {
  ge::AscendString json;
  if (src.GetAttr("attribute", json) != ge::GRAPH_SUCCESS) return FAILED;
  if (std::string(json.GetString()).find("\"attribute\"") == std::string::npos) return FAILED;
  dst.SetAttr("alpha", 3.0f);
  return SUCCESS;
}
REGISTER_CUSTOM_OP("ScaleAddCustom")
    .FrameworkType(ONNX)
    .OriginOpType({ge::AscendString("ai.onnx::13::Add")})
    .ParseParamsByOperatorFn(ParseAdd)
    .ImplyType(ImplyType::TVM);
}  // namespace domi
"""


def test_onnx_framework_plugin_maps_a_node_onto_the_package_op(prefix, template_package, tmp_path):
    """A package's ONNX plugin (REGISTER_CUSTOM_OP ... FrameworkType(ONNX)) maps an ONNX node
    onto the package op in atc, with the attributes its parse function writes."""
    import onnx
    from onnx import TensorProto, helper
    vendor = tmp_path / "customize"
    shutil.copytree(template_package["vendor"], vendor, symlinks=True)
    (vendor / "framework" / "onnx").mkdir(parents=True)
    r = run(["g++", "-std=c++11", "-D_GLIBCXX_USE_CXX11_ABI=0", "-fPIC", "-shared", "-x", "c++", "-",
             f"-I{prefix}/include", f"-L{prefix}/lib", "-lgraph", "-o",
             str(vendor / "framework" / "onnx" / "libcust_onnx_parsers.so")], input=ONNX_PLUGIN)
    assert r.returncode == 0, r.stderr
    n = 1024
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [n])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [n])
    z = helper.make_tensor_value_info("z", TensorProto.FLOAT, [n])
    graph = helper.make_graph([helper.make_node("Add", ["x", "y"], ["z"], name="add")], "g", [x, y], [z])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(tmp_path / "m.onnx"))
    env = dict(os.environ, ASCEND_CUSTOM_OPP_PATH=str(vendor), PYTHONPATH=f"{prefix}/lib/python3/dist-packages")
    r = subprocess.run([f"{prefix}/bin/atc", f"--model={tmp_path}/m.onnx", "--framework=5",
                        f"--output={tmp_path}/m", "--soc_version=Ascend910B3"],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    xs = np.arange(n, dtype=np.float32) / 8
    ys = np.ones(n, np.float32)
    np.save(tmp_path / "x.npy", xs)
    np.save(tmp_path / "y.npy", ys)
    script = ("import sys, numpy as np\nfrom acl_infer import InferSession\n"
              "with InferSession(0, sys.argv[1]) as s:\n"
              "    out = s.infer([np.load(sys.argv[2]), np.load(sys.argv[3])])\n"
              "np.save(sys.argv[4], out[0])\n")
    r = subprocess.run(["/usr/bin/python3", "-c", script, f"{tmp_path}/m.om", f"{tmp_path}/x.npy",
                        f"{tmp_path}/y.npy", f"{tmp_path}/z.npy"], capture_output=True, text=True, env=env,
                       timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    np.testing.assert_allclose(np.load(tmp_path / "z.npy"), xs * 3 + ys, rtol=1e-6)


def test_op_build_refuses_a_library_that_cannot_load(prefix, tmp_path):
    (tmp_path / "lib.so").write_text("not a library")
    r = run([f"{prefix}/toolkit/tools/opbuild/op_build", str(tmp_path / "lib.so"), str(tmp_path)])
    assert r.returncode == 1 and "cannot load" in r.stderr
    assert not list(tmp_path.glob("*.ini"))
