"""Single-operator mode: atc --singleop compiles an op list into one .om per op (named as CANN
names them), and a C++ application runs Add and MatMul with aclopExecuteV2 and a GEMM with
aclblasGemmEx, against numpy; pyACL's acl.op does the same; mismatches and bad JSON are refused."""
import json
import os
import subprocess

import numpy as np
import pytest

from conftest import BUILD, SOURCE, atc, run

OPS = [
    {"op": "Add",
     "input_desc": [{"format": "ND", "shape": [8, 16], "type": "float"},
                    {"format": "ND", "shape": [8, 16], "type": "float"}],
     "output_desc": [{"format": "ND", "shape": [8, 16], "type": "float"}]},
    {"op": "MatMul",
     "input_desc": [{"format": "ND", "shape": [4, 8], "type": "float16"},
                    {"format": "ND", "shape": [16, 8], "type": "float16"}],
     "output_desc": [{"format": "ND", "shape": [4, 16], "type": "float16"}],
     "attr": [{"name": "transpose_x1", "type": "bool", "value": False},
              {"name": "transpose_x2", "type": "bool", "value": True}]},
    {"op": "GEMM",
     "input_desc": [{"format": "ND", "shape": [8, 4], "type": "float16"},
                    {"format": "ND", "shape": [8, 16], "type": "float16"},
                    {"format": "ND", "shape": [4, 16], "type": "float"},
                    {"format": "ND", "shape": [], "type": "float"},
                    {"format": "ND", "shape": [], "type": "float"}],
     "output_desc": [{"format": "ND", "shape": [4, 16], "type": "float"}],
     "attr": [{"name": "transpose_a", "type": "bool", "value": True},
              {"name": "transpose_b", "type": "bool", "value": False}]},
]

APP = r"""
#include <cstdio>
#include <string>
#include <vector>
#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"
#define CHECK(x) do { aclError e = (x); if (e != ACL_SUCCESS) { \
  std::printf("[ERROR] %s: %d %s\n", #x, e, aclGetRecentErrMsg()); return 1; } } while (0)
static void* Dev(const void* host, size_t n) {
  void* p = nullptr;
  aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpy(p, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE);
  return p;
}
static std::vector<char> Read(const char* path, size_t n) {
  std::vector<char> v(n);
  FILE* f = std::fopen(path, "rb");
  size_t got = std::fread(v.data(), 1, n, f);
  std::fclose(f);
  (void)got;
  return v;
}
static void Write(const char* path, void* dev, size_t n) {
  std::vector<char> v(n);
  aclrtMemcpy(v.data(), n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST);
  FILE* f = std::fopen(path, "wb");
  std::fwrite(v.data(), 1, n, f);
  std::fclose(f);
}
int main(int argc, char** argv) {
  const char* dir = argv[1];
  std::string d(argv[2]);
  CHECK(aclInit(argc > 3 ? argv[3] : nullptr));
  CHECK(aclrtSetDevice(0));
  CHECK(aclopSetModelDir(dir));
  aclrtStream stream;
  CHECK(aclrtCreateStream(&stream));
  // Add: float [8,16] + [8,16], on the stream.
  int64_t ad[2] = {8, 16};
  aclTensorDesc* add[3];
  for (auto& t : add) t = aclCreateTensorDesc(ACL_FLOAT, 2, ad, ACL_FORMAT_ND);
  auto x = Read((d + "/x.bin").c_str(), 512), y = Read((d + "/y.bin").c_str(), 512);
  void *dx = Dev(x.data(), 512), *dy = Dev(y.data(), 512), *dz = Dev(x.data(), 512);
  aclDataBuffer* in[2] = {aclCreateDataBuffer(dx, 512), aclCreateDataBuffer(dy, 512)};
  aclDataBuffer* out[1] = {aclCreateDataBuffer(dz, 512)};
  CHECK(aclopExecuteV2("Add", 2, add, in, 1, add + 2, out, nullptr, stream));
  CHECK(aclrtSynchronizeStream(stream));
  Write((d + "/add.bin").c_str(), dz, 512);
  // MatMul: half [4,8] x [16,8]^T with its attributes, synchronously.
  int64_t a1[2] = {4, 8}, b1[2] = {16, 8}, c1[2] = {4, 16};
  aclTensorDesc* mm[3] = {aclCreateTensorDesc(ACL_FLOAT16, 2, a1, ACL_FORMAT_ND),
                          aclCreateTensorDesc(ACL_FLOAT16, 2, b1, ACL_FORMAT_ND),
                          aclCreateTensorDesc(ACL_FLOAT16, 2, c1, ACL_FORMAT_ND)};
  aclopAttr* attr = aclopCreateAttr();
  CHECK(aclopSetAttrBool(attr, "transpose_x1", 0));
  CHECK(aclopSetAttrBool(attr, "transpose_x2", 1));
  auto ma = Read((d + "/ma.bin").c_str(), 64), mb = Read((d + "/mb.bin").c_str(), 256);
  void *dma = Dev(ma.data(), 64), *dmb = Dev(mb.data(), 256), *dmc = nullptr;
  aclrtMalloc(&dmc, 128, ACL_MEM_MALLOC_HUGE_FIRST);
  aclDataBuffer* min[2] = {aclCreateDataBuffer(dma, 64), aclCreateDataBuffer(dmb, 256)};
  aclDataBuffer* mout[1] = {aclCreateDataBuffer(dmc, 128)};
  CHECK(aclopExecuteV2("MatMul", 2, mm, min, 1, mm + 2, mout, attr, nullptr));
  Write((d + "/mm.bin").c_str(), dmc, 128);
  // The same call without the attributes matches no model.
  aclError e = aclopExecuteV2("MatMul", 2, mm, min, 1, mm + 2, mout, nullptr, nullptr);
  std::printf("no attrs: %d\n", e);
  // GEMM through aclblasGemmEx: C = 2 * A^T B + 0.5 * C, A and B half, C float.
  auto ga = Read((d + "/ga.bin").c_str(), 64), gb = Read((d + "/gb.bin").c_str(), 256);
  auto gc = Read((d + "/gc.bin").c_str(), 256);
  float alpha = 2.0f, beta = 0.5f;
  void *dga = Dev(ga.data(), 64), *dgb = Dev(gb.data(), 256), *dgc = Dev(gc.data(), 256);
  void *dal = Dev(&alpha, 4), *dbe = Dev(&beta, 4);
  CHECK(aclblasGemmEx(ACL_TRANS_T, ACL_TRANS_N, ACL_TRANS_N, 4, 16, 8, dal, dga, 4, ACL_FLOAT16,
                      dgb, 16, ACL_FLOAT16, dbe, dgc, 16, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION,
                      stream));
  CHECK(aclrtSynchronizeStream(stream));
  Write((d + "/gemm.bin").c_str(), dgc, 256);
  e = aclblasGemmEx(ACL_TRANS_T, ACL_TRANS_N, ACL_TRANS_N, 4, 16, 8, dal, dga, 5, ACL_FLOAT16,
                    dgb, 16, ACL_FLOAT16, dbe, dgc, 16, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION,
                    stream);
  std::printf("strided: %d\n", e);
  // Leading dimensions of -1, as CANN's documentation asks: the same dense matrices.
  void* dgc2 = Dev(gc.data(), 256);
  CHECK(aclblasGemmEx(ACL_TRANS_T, ACL_TRANS_N, ACL_TRANS_N, 4, 16, 8, dal, dga, -1, ACL_FLOAT16,
                      dgb, -1, ACL_FLOAT16, dbe, dgc2, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION,
                      stream));
  CHECK(aclrtSynchronizeStream(stream));
  Write((d + "/gemm_ld.bin").c_str(), dgc2, 256);
  aclopHandle* h = nullptr;
  CHECK(aclblasCreateHandleForGemmEx(ACL_TRANS_T, ACL_TRANS_N, ACL_TRANS_N, 4, 16, 8, ACL_FLOAT16,
                                     ACL_FLOAT16, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, &h));
  aclopDestroyHandle(h);
  std::printf("gemv: %d\n", aclblasHgemv(ACL_TRANS_N, 4, 4, nullptr, nullptr, 4, nullptr, 1,
                                         nullptr, nullptr, 1, ACL_COMPUTE_HIGH_PRECISION, stream));
  aclopDestroyAttr(attr);
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  std::printf("done\n");
  return 0;
}
"""


@pytest.fixture(scope="module")
def op_models(tmp_path_factory):
    work = tmp_path_factory.mktemp("singleop")
    (work / "ops.json").write_text(json.dumps(OPS))
    r = atc(f"--singleop={work / 'ops.json'}", f"--output={work / 'op_models'}",
            "--soc_version=Ascend910B3")
    assert r.returncode == 0, r.stdout + r.stderr
    return work


def test_atc_names_each_op_model_as_cann(op_models):
    names = sorted(os.listdir(op_models / "op_models"))
    assert names == ["0_Add_0_2_8_16_0_2_8_16_0_2_8_16.om",
                     "1_MatMul_1_2_4_8_1_2_16_8_1_2_4_16.om",
                     "2_GEMM_1_2_8_4_1_2_8_16_0_2_4_16_0_2_0_2_0_2_4_16.om"]


def test_cpp_application_runs_add_matmul_and_gemm(op_models, tmp_path):
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal((2, 8, 16)).astype(np.float32)
    ma = rng.standard_normal((4, 8)).astype(np.float16)
    mb = rng.standard_normal((16, 8)).astype(np.float16)
    ga = rng.standard_normal((8, 4)).astype(np.float16)
    gb = rng.standard_normal((8, 16)).astype(np.float16)
    gc = rng.standard_normal((4, 16)).astype(np.float32)
    for name, arr in dict(x=x, y=y, ma=ma, mb=mb, ga=ga, gb=gb, gc=gc).items():
        arr.tofile(tmp_path / f"{name}.bin")
    (tmp_path / "main.cpp").write_text(APP)
    exe = tmp_path / "app"
    r = run(["g++", "-std=c++17", str(tmp_path / "main.cpp"), "-o", str(exe),
             f"-I{SOURCE}/include", f"-L{BUILD}/lib", "-lascendcl", f"-Wl,-rpath,{BUILD}/lib"])
    assert r.returncode == 0, r.stderr
    r = run([str(exe), str(op_models / "op_models"), str(tmp_path)])
    assert r.returncode == 0 and "done" in r.stdout, r.stdout + r.stderr
    assert "no attrs: 100024" in r.stdout  # ACL_ERROR_OP_NOT_FOUND
    assert "strided: 200006" in r.stdout   # lda != row length: refused, not misread
    assert "gemv: 200001" in r.stdout
    np.testing.assert_array_equal(np.fromfile(tmp_path / "add.bin", np.float32).reshape(8, 16),
                                  x + y)
    mm = ma.astype(np.float32) @ mb.astype(np.float32).T
    np.testing.assert_allclose(np.fromfile(tmp_path / "mm.bin", np.float16).reshape(4, 16), mm,
                               rtol=2e-3, atol=2e-3)
    want = 2 * (ga.astype(np.float32).T @ gb.astype(np.float32)) + 0.5 * gc
    np.testing.assert_array_equal(np.fromfile(tmp_path / "gemm_ld.bin", np.float32),
                                  np.fromfile(tmp_path / "gemm.bin", np.float32))
    np.testing.assert_allclose(np.fromfile(tmp_path / "gemm.bin", np.float32).reshape(4, 16), want,
                               rtol=1e-5, atol=1e-5)


def test_dump_op_switch_dumps_single_op_executions(op_models, tmp_path):
    rng = np.random.default_rng(4)
    for name, shape, dt in (("x", (8, 16), np.float32), ("y", (8, 16), np.float32),
                            ("ma", (4, 8), np.float16), ("mb", (16, 8), np.float16),
                            ("ga", (8, 4), np.float16), ("gb", (8, 16), np.float16),
                            ("gc", (4, 16), np.float32)):
        rng.standard_normal(shape).astype(dt).tofile(tmp_path / f"{name}.bin")
    (tmp_path / "main.cpp").write_text(APP)
    exe = tmp_path / "app"
    r = run(["g++", "-std=c++17", str(tmp_path / "main.cpp"), "-o", str(exe),
             f"-I{SOURCE}/include", f"-L{BUILD}/lib", "-lascendcl", f"-Wl,-rpath,{BUILD}/lib"])
    assert r.returncode == 0, r.stderr
    dump = tmp_path / "dump"
    (tmp_path / "acl.json").write_text(json.dumps(
        {"dump": {"dump_path": str(dump), "dump_op_switch": "on"}}))
    r = run([str(exe), str(op_models / "op_models"), str(tmp_path), str(tmp_path / "acl.json")])
    assert r.returncode == 0 and "done" in r.stdout, r.stdout + r.stderr
    dumped = [os.path.relpath(os.path.join(d, f), dump) for d, _, fs in os.walk(dump) for f in fs]
    for op in ("Add", "MatMul", "GEMM"):
        assert any(op in p for p in dumped), (op, dumped)


def test_pyacl_op_execute_v2(acl_session, op_models):
    acl = acl_session
    assert acl.op.set_model_dir(str(op_models / "op_models")) == 0
    x = np.arange(128, dtype=np.float32).reshape(8, 16)
    y = np.ones((8, 16), np.float32)
    z = np.zeros((8, 16), np.float32)
    descs = [acl.create_tensor_desc(0, [8, 16], 2) for _ in range(3)]
    devs, bufs = [], []
    for arr in (x, y, z):
        p, _ = acl.rt.malloc(arr.nbytes, 0)
        acl.rt.memcpy(p, arr.nbytes, acl.util.numpy_to_ptr(arr), arr.nbytes, 1)
        devs.append(p)
        bufs.append(acl.create_data_buffer(p, arr.nbytes))
    attr = acl.op.create_attr()
    assert acl.op.execute_v2("Add", descs[:2], bufs[:2], descs[2:], bufs[2:], attr, 0) == 0
    acl.rt.memcpy(acl.util.numpy_to_ptr(z), z.nbytes, devs[2], z.nbytes, 2)
    np.testing.assert_array_equal(z, x + y)
    assert acl.op.execute_v2("Sub", descs[:2], bufs[:2], descs[2:], bufs[2:], attr, 0) == 100024
    acl.op.destroy_attr(attr)
    for d in descs:
        acl.destroy_tensor_desc(d)
    for b, p in zip(bufs, devs):
        acl.destroy_data_buffer(b)
        acl.rt.free(p)


@pytest.mark.parametrize("ops,message", [
    ("not json", "must hold a JSON list"),
    ([{"input_desc": []}], "needs \"op\""),
    ([{"op": "Add", "input_desc": [{"shape": [2], "type": "float"}]}], "needs \"output_desc\""),
    ([{"op": "Add", "input_desc": [{"shape": [2], "type": "complex"}],
       "output_desc": [{"shape": [2], "type": "float"}]}], "has type [complex]"),
    ([{"op": "Add", "input_desc": [{"shape": [2], "type": "float", "format": "NC1HWC0"}],
       "output_desc": [{"shape": [2], "type": "float"}]}], "has format [NC1HWC0]"),
    ([{"op": "NoSuchOp", "input_desc": [{"shape": [2], "type": "float"}],
       "output_desc": [{"shape": [2], "type": "float"}]}], "E19010"),
    ([{"op": "Relu", "input_desc": [{"shape": [2], "type": "float"}],
       "output_desc": [{"shape": [2], "type": "float"}],
       "attr": [{"name": "x", "type": "int", "value": "three"}]}], "is not a int"),
])
def test_bad_single_op_json_is_refused(tmp_path, ops, message):
    path = tmp_path / "ops.json"
    path.write_text(ops if isinstance(ops, str) else json.dumps(ops))
    r = atc(f"--singleop={path}", f"--output={tmp_path / 'out'}", "--soc_version=Ascend910B3")
    assert r.returncode != 0 and message in r.stdout, r.stdout
    assert not (tmp_path / "out").exists() or not os.listdir(tmp_path / "out")
    r = atc(f"--singleop={path}", f"--output={tmp_path / 'out'}", "--soc_version=Ascend910B3",
            "--framework=5")
    assert r.returncode != 0 and "does not apply with --singleop" in r.stdout


def test_argmax_v2_with_its_dimension_given_at_execution(acl_session, tmp_path):
    # CANN's ArgMaxV2 sample: the axis is an input of the op, fed with the data.
    acl = acl_session
    ops = [{"op": "ArgMaxV2",
            "input_desc": [{"format": "ND", "shape": [3, 5], "type": "float16"},
                           {"format": "ND", "shape": [1], "type": "int32"}],
            "output_desc": [{"format": "ND", "shape": [3], "type": "int32"}],
            "attr": [{"name": "dtype", "type": "data_type", "value": "DT_INT32"}]}]
    # GE's names are read as GE spells them, DT_BF16 included.
    cast = [{"op": "Cast", "input_desc": [{"format": "ND", "shape": [4], "type": "float"}],
             "output_desc": [{"format": "ND", "shape": [4], "type": "bfloat16"}],
             "attr": [{"name": "dst_type", "type": "data_type", "value": "DT_BF16"}]}]
    (tmp_path / "cast.json").write_text(json.dumps(cast))
    r = atc(f"--singleop={tmp_path / 'cast.json'}", f"--output={tmp_path / 'cast'}",
            "--soc_version=Ascend910B3")
    assert r.returncode == 0, r.stdout + r.stderr
    (tmp_path / "argmax.json").write_text(json.dumps(ops))
    r = atc(f"--singleop={tmp_path / 'argmax.json'}", f"--output={tmp_path / 'ops'}",
            "--soc_version=Ascend310P3")
    assert r.returncode == 0, r.stdout + r.stderr
    assert acl.op.set_model_dir(str(tmp_path / "ops")) == 0
    x = np.random.default_rng(6).standard_normal((3, 5)).astype(np.float16)
    y = np.zeros(3, np.int32)
    for axis in (1, -1):
        dim = np.array([axis], np.int32)
        descs = [acl.create_tensor_desc(1, [3, 5], 2), acl.create_tensor_desc(3, [1], 2),
                 acl.create_tensor_desc(3, [3], 2)]
        devs, bufs = [], []
        for arr in (x, dim, y):
            p, _ = acl.rt.malloc(arr.nbytes, 0)
            acl.rt.memcpy(p, arr.nbytes, acl.util.numpy_to_ptr(arr), arr.nbytes, 1)
            devs.append(p)
            bufs.append(acl.create_data_buffer(p, arr.nbytes))
        attr = acl.op.create_attr()
        assert acl.op.set_attr_data_type(attr, "dtype", 3) == 0
        assert acl.op.execute_v2("ArgMaxV2", descs[:2], bufs[:2], descs[2:], bufs[2:], attr,
                                 0) == 0, acl.get_recent_err_msg()
        acl.rt.memcpy(acl.util.numpy_to_ptr(y), y.nbytes, devs[2], y.nbytes, 2)
        np.testing.assert_array_equal(y, np.argmax(x, axis=1))
        acl.op.destroy_attr(attr)
        for d in descs:
            acl.destroy_tensor_desc(d)
        for b, p in zip(bufs, devs):
            acl.destroy_data_buffer(b)
            acl.rt.free(p)
    # CANN's vpc_resnet50 sample: the dimension is a constant of its description
    # (aclSetTensorConst) and its data buffer is empty.
    dim = np.array([1], np.int32)
    descs = [acl.create_tensor_desc(1, [3, 5], 2), acl.create_tensor_desc(3, [1], 2),
             acl.create_tensor_desc(3, [3], 2)]
    assert acl.set_tensor_const(descs[1], acl.util.numpy_to_ptr(dim), 3) == 100000  # length
    assert acl.set_tensor_const(descs[1], acl.util.numpy_to_ptr(dim), 4) == 0
    dim[0] = 7  # the description keeps its own copy
    px, _ = acl.rt.malloc(x.nbytes, 0)
    acl.rt.memcpy(px, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, 1)
    py_, _ = acl.rt.malloc(y.nbytes, 0)
    bufs = [acl.create_data_buffer(px, x.nbytes), acl.create_data_buffer(0, 0),
            acl.create_data_buffer(py_, y.nbytes)]
    attr = acl.op.create_attr()
    assert acl.op.set_attr_data_type(attr, "dtype", 3) == 0
    y[:] = -1
    assert acl.op.execute_v2("ArgMaxV2", descs[:2], bufs[:2], descs[2:], bufs[2:], attr,
                             0) == 0, acl.get_recent_err_msg()
    acl.rt.memcpy(acl.util.numpy_to_ptr(y), y.nbytes, py_, y.nbytes, 2)
    np.testing.assert_array_equal(y, np.argmax(x, axis=1))
    acl.op.destroy_attr(attr)
    for d in descs:
        acl.destroy_tensor_desc(d)
    for b in bufs:
        acl.destroy_data_buffer(b)
    acl.rt.free(px)
    acl.rt.free(py_)


COMPILE_APP = r"""
#include <stdio.h>
#include <string.h>
#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
int main(int argc, char** argv) {
  aclInit(NULL); aclrtSetDevice(0);
  aclrtStream s; aclrtCreateStream(&s);
  int64_t as[2] = {2, 3}, bs[2] = {3, 4}, ys[2] = {2, 4};
  /* CANN's way to leave an optional input (MatMul's bias) out. */
  const aclTensorDesc* in[3] = {aclCreateTensorDesc(ACL_FLOAT, 2, as, ACL_FORMAT_ND),
                                aclCreateTensorDesc(ACL_FLOAT, 2, bs, ACL_FORMAT_ND),
                                aclCreateTensorDesc(ACL_DT_UNDEFINED, 0, NULL, ACL_FORMAT_UNDEFINED)};
  const aclTensorDesc* out[1] = {aclCreateTensorDesc(ACL_FLOAT, 2, ys, ACL_FORMAT_ND)};
  float a[6] = {1, 2, 3, 4, 5, 6}, b[12], y[8];
  for (int i = 0; i < 12; ++i) b[i] = (float)(i - 5);
  void *da, *db, *dy;
  aclrtMalloc(&da, sizeof a, 0); aclrtMalloc(&db, sizeof b, 0); aclrtMalloc(&dy, sizeof y, 0);
  aclrtMemcpy(da, sizeof a, a, sizeof a, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(db, sizeof b, b, sizeof b, ACL_MEMCPY_HOST_TO_DEVICE);
  const aclDataBuffer* ib[3] = {aclCreateDataBuffer(da, sizeof a), aclCreateDataBuffer(db, sizeof b),
                                aclCreateDataBuffer(NULL, 0)};
  aclDataBuffer* ob[1] = {aclCreateDataBuffer(dy, sizeof y)};
  aclopAttr* attr = aclopCreateAttr();
  aclopSetAttrBool(attr, "transpose_x1", 0);
  aclopSetAttrBool(attr, "transpose_x2", 0);
  aclError r = aclopCompileAndExecute("MatMul", 3, in, ib, 1, out, ob, attr, ACL_ENGINE_SYS,
                                      ACL_COMPILE_SYS, NULL, s);
  printf("ret %d\n", (int)r);
  if (r == 0) {
    aclrtSynchronizeStream(s);
    aclrtMemcpy(y, sizeof y, dy, sizeof y, ACL_MEMCPY_DEVICE_TO_HOST);
    for (int i = 0; i < 8; ++i) printf("%g ", y[i]);
    printf("\n");
  }
  /* An omitted input before a given one cannot be expressed. */
  const aclTensorDesc* middle[3] = {in[0], in[2], in[1]};
  printf("middle %d\n", (int)aclopCompile("MatMul", 3, middle, 1, out, attr, ACL_ENGINE_SYS,
                                          ACL_COMPILE_SYS, NULL));
  const aclDataBuffer* middle_buf[3] = {ib[0], ib[2], ib[1]};
  printf("exec_middle %d\n", (int)aclopExecute("MatMul", 3, middle, middle_buf, 1, out, ob,
                                               attr, s));
  /* A handle made with the omitted description runs with the buffers the app described. */
  aclopHandle* h = NULL;
  aclError hr = aclopCreateHandle("MatMul", 3, in, 1, out, attr, &h);
  aclrtMemset(dy, sizeof y, 0, sizeof y);
  if (hr == 0) hr = aclopExecWithHandle(h, 3, ib, 1, ob, s);
  aclrtSynchronizeStream(s);
  aclrtMemcpy(y, sizeof y, dy, sizeof y, ACL_MEMCPY_DEVICE_TO_HOST);
  printf("handle %d %g\n", (int)hr, y[7]);
  return 0;
}
"""


def test_compile_and_execute_with_an_omitted_optional_input(tmp_path):
    (tmp_path / "main.c").write_text(COMPILE_APP)
    exe = tmp_path / "app"
    r = run(["gcc", str(tmp_path / "main.c"), "-o", str(exe), f"-I{SOURCE}/include",
             f"-L{BUILD}/lib", "-lascendcl", "-lacl_op_compiler", f"-Wl,-rpath,{BUILD}/lib"])
    assert r.returncode == 0, r.stderr
    r = run([str(exe)], cwd=tmp_path)
    assert r.returncode == 0 and "ret 0" in r.stdout, r.stdout + r.stderr
    want = np.arange(1, 7, dtype=np.float32).reshape(2, 3) @ (
        np.arange(12, dtype=np.float32) - 5).reshape(3, 4)
    got = np.array([float(v) for v in r.stdout.split("\n")[1].split()]).reshape(2, 4)
    np.testing.assert_allclose(got, want)
    assert "middle 200006" in r.stdout  # ACL_ERROR_FEATURE_UNSUPPORTED
    assert "exec_middle 200006" in r.stdout  # the same rule when executing
    assert f"handle 0 {want[1, 3]:g}" in r.stdout, r.stdout


def test_model_dir_passes_over_whole_models(acl_session, op_models, tmp_path):
    import shutil
    mixed = tmp_path / "mixed"
    shutil.copytree(op_models / "op_models", mixed)
    src = tmp_path / "relu.onnx"
    import onnx
    from onnx import TensorProto as T, helper
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", T.FLOAT, [2])],
                          [helper.make_tensor_value_info("y", T.FLOAT, [2])])
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), str(src))
    r = atc(f"--model={src}", "--framework=5", f"--output={mixed / 'whole'}",
            "--soc_version=Ascend910B3")
    assert r.returncode == 0, r.stdout
    assert acl_session.op.set_model_dir(str(mixed)) == 0


def test_cast_as_cann_samples_compile_it(acl_session, tmp_path):
    """CANN's vpc_resnet50 op_list.json: Cast with dst_type as an int (GE's C++ DataType,
    1 = float16) and truncate=false, run by aclopCast (pyACL acl.op.cast)."""
    acl = acl_session
    ops = [{"op": "Cast", "input_desc": [{"format": "ND", "shape": [8], "type": "float"}],
            "output_desc": [{"format": "ND", "shape": [8], "type": "float16"}],
            "attr": [{"name": "truncate", "type": "bool", "value": False},
                     {"name": "dst_type", "type": "int", "value": 1}]}]
    (tmp_path / "cast.json").write_text(json.dumps(ops))
    r = atc(f"--singleop={tmp_path / 'cast.json'}", f"--output={tmp_path / 'ops'}",
            "--soc_version=Ascend310")
    assert r.returncode == 0, r.stdout + r.stderr
    assert acl.op.set_model_dir(str(tmp_path / "ops")) == 0
    x = np.linspace(-3, 3, 8).astype(np.float32)
    y = np.zeros(8, np.float16)
    px, _ = acl.rt.malloc(x.nbytes, 0)
    py_, _ = acl.rt.malloc(y.nbytes, 0)
    acl.rt.memcpy(px, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, 1)
    a, b = acl.create_tensor_desc(0, [8], 2), acl.create_tensor_desc(1, [8], 2)
    ba, bb = acl.create_data_buffer(px, x.nbytes), acl.create_data_buffer(py_, y.nbytes)
    assert acl.op.cast(a, ba, b, bb, 0, 0) == 0, acl.get_recent_err_msg()
    acl.rt.memcpy(acl.util.numpy_to_ptr(y), y.nbytes, py_, y.nbytes, 2)
    np.testing.assert_array_equal(y, x.astype(np.float16))
    for d in (a, b):
        acl.destroy_tensor_desc(d)
    for buf, p in ((ba, px), (bb, py_)):
        acl.destroy_data_buffer(buf)
        acl.rt.free(p)
