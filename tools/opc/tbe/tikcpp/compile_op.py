"""compile_op: compiles one operator binary for OpenCANN's Ascend C emulation.

CANN compiles the kernel source with the NPU compiler into <kernel_name>.o (device code) and
describes it in <kernel_name>.json. Here the kernel source is compiled by ccec into a shared
object (still named <kernel_name>.o, as the package layout expects) that registers the kernel
for the parameter types of this binary when the runtime loads it; the .json describes it with
the fields the package scripts and the runtime read. The tiling data struct the kernel reads
is the one the installed package's op_host library declares, as CANN takes it from there.
"""
import ctypes
import glob
import hashlib
import json
import os
import subprocess
import sys
import tempfile

from tbe.common import context

_GE_TYPES = {
    "float32": "DT_FLOAT", "float": "DT_FLOAT", "float16": "DT_FLOAT16", "bfloat16": "DT_BF16", "bf16": "DT_BF16",
    "double": "DT_DOUBLE", "float64": "DT_DOUBLE", "int8": "DT_INT8", "uint8": "DT_UINT8", "int16": "DT_INT16",
    "uint16": "DT_UINT16", "int32": "DT_INT32", "uint32": "DT_UINT32", "int64": "DT_INT64", "uint64": "DT_UINT64",
    "bool": "DT_BOOL", "complex64": "DT_COMPLEX64", "complex128": "DT_COMPLEX128",
}


class AscendCLogLevel:
    LOG_DEBUG = 0
    LOG_INFO = 1
    LOG_WARNING = 2
    LOG_ERROR = 3


class CommonUtility:
    @staticmethod
    def print_compile_log(kernel_name, msg, level=AscendCLogLevel.LOG_INFO):
        if level >= AscendCLogLevel.LOG_WARNING:
            tag = "ERROR" if level >= AscendCLogLevel.LOG_ERROR else "WARNING"
            print("[%s] %s %s" % (tag, kernel_name, msg), file=sys.stderr)

    @staticmethod
    def is_c310():
        return False


class OpInfo:
    def __init__(self, kernel_name=None, op_type=None, inputs=None, outputs=None, attrs=None, impl_mode=None,
                 origin_inputs=None, origin_outputs=None, param_type_dynamic=False, mc2_ctx=None,
                 param_type_list=None, init_value_list=None, output_shape_depend_on_compute=None, **_kw):
        self.kernel_name = kernel_name
        self.op_type = op_type
        self.inputs = inputs or []
        self.outputs = outputs or []
        self.attrs = attrs or []
        self.impl_mode = impl_mode
        self.origin_inputs = origin_inputs
        self.origin_outputs = origin_outputs


def get_code_channel(src, kernel_name, op_type, options=None, *_args, **_kw):
    """Which kernel kind the source is (0: Ascend C); the emulation compiles every kind alike."""
    return 0


def check_op_cap(cap_name, op_type, inputs, outputs, attrs=None, *_args):
    """check_supported / op_select_format: every listed type combination is supported."""
    result = json.dumps({"ret_code": 0, "reason": ""})
    return result if cap_name == "check_supported" else result.encode("utf-8")


def generalize_op_params(op_type, inputs, outputs, attrs=None, generalize_config=None, *_args):
    """Dynamic shapes: the tensors generalised to unknown rank (-2), as the binaries are built."""
    def general(t):
        if isinstance(t, dict):
            t = dict(t)
            t["shape"] = [-2]
            t["ori_shape"] = [-2]
            t.pop("range", None)
        return t
    return json.dumps([general(t) for t in list(inputs) + list(outputs)] + list(attrs or []))


def replay_op(*_args, **_kw):
    """Replay binaries (NPU instruction replay) do not exist here; the caller compiles instead."""
    return False, "replay is not supported by OpenCANN (the kernel is compiled for the emulation)"


def _lib_dir():
    return context.get("lib_dir") or os.environ.get("OCANN_OPC_LIB_DIR", "")


def _vendor_dirs():
    """The installed packages, in CANN's search order (ASCEND_CUSTOM_OPP_PATH, then vendors)."""
    dirs = [d for d in os.environ.get("ASCEND_CUSTOM_OPP_PATH", "").split(":") if d]
    opp = os.environ.get("ASCEND_OPP_PATH", "")
    if opp:
        vendors = os.path.join(opp, "vendors")
        order = []
        try:
            with open(os.path.join(vendors, "config.ini")) as f:
                for line in f:
                    if line.startswith("load_priority="):
                        order += [v for v in line.strip().split("=", 1)[1].split(",") if v]
        except OSError:
            pass
        if os.path.isdir(vendors):
            order += sorted(v for v in os.listdir(vendors) if v not in order)
        dirs += [os.path.join(vendors, v) for v in order]
    return dirs


def _tiling_header(op_type):
    """The header declaring op_type's tiling data, from the installed op_host libraries."""
    libdir = _lib_dir()
    try:
        reg = ctypes.CDLL(os.path.join(libdir, "libopregister.so") if libdir else "libopregister.so",
                          mode=ctypes.RTLD_GLOBAL)
    except OSError as e:
        CommonUtility.print_compile_log(op_type, "cannot load libopregister: %s" % e, AscendCLogLevel.LOG_WARNING)
        return None, None
    reg.OcTilingDataHeaderOf.restype = ctypes.c_char_p
    reg.OcTilingDataHeaderOf.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)]
    name = ctypes.c_char_p()
    found = reg.OcTilingDataHeaderOf(op_type.encode(), ctypes.byref(name))
    if found:
        return found.decode(), name.value.decode()
    for vendor in _vendor_dirs():
        # The installed layout (op_tiling/lib/linux/<arch>/), and the liboptiling.so link the
        # newer template's ascendc_compile_kernel.py puts beside a build's own library.
        libs = glob.glob(os.path.join(vendor, "op_impl/ai_core/tbe/op_tiling/lib/linux/*/*.so"))
        libs += glob.glob(os.path.join(vendor, "op_impl/ai_core/tbe/op_tiling/*.so"))
        libs += glob.glob(os.path.join(vendor, "op_impl/lib/*.so"))
        for lib in sorted(libs):
            try:
                ctypes.CDLL(lib, mode=ctypes.RTLD_LOCAL)
            except OSError:
                continue
            found = reg.OcTilingDataHeaderOf(op_type.encode(), ctypes.byref(name))
            if found:
                return found.decode(), name.value.decode()
    return None, None


def _header_beside(src, op_type):
    """A header next to the kernel that registers op_type's tiling data (packages built before
    their op_host library was installed)."""
    import re
    pattern = re.compile(r"REGISTER_TILING_DATA_CLASS\(\s*%s\s*," % re.escape(op_type))
    for path in sorted(glob.glob(os.path.join(os.path.dirname(src), "*.h"))):
        try:
            with open(path, errors="replace") as f:
                if pattern.search(f.read()):
                    return path
        except OSError:
            pass
    return None


def _filter_options(options):
    """The wrapper's options as ccec takes them: -x cce is the wrapper's language already."""
    out, skip = [], False
    for i, opt in enumerate(options):
        if skip:
            skip = False
            continue
        if opt == "-x" and i + 1 < len(options) and options[i + 1] == "cce":
            skip = True
            continue
        if opt.startswith("-I") and not os.path.isdir(opt[2:]):
            continue
        out.append(opt)
    return out


def _param_entries(kind):
    """The binary's inputs or outputs from the parameter file, flattened (dynamic lists)."""
    param = context.get("param") or {}
    entries = []
    for item in (param.get("op_list") or [{}])[0].get(kind, []):
        if isinstance(item, list):
            entries.extend(item)
        else:
            entries.append(item)
    return entries


def _tensor_types(tensors):
    types = []
    for t in tensors:
        dtype = (t or {}).get("dtype")
        if dtype is None:
            types.append("ge::DT_UNDEFINED")
            continue
        ge_name = _GE_TYPES.get(str(dtype).lower())
        if ge_name is None:
            raise RuntimeError("data type %s is not supported by OpenCANN's opc" % dtype)
        types.append("ge::" + ge_name)
    return types


def _support_info(inputs, outputs, attrs, impl_mode, kernel_name):
    def desc(t, index):
        if not t:
            return None
        return {"name": t.get("name", ""), "index": t.get("index", index), "dtype": t.get("dtype"),
                "format": t.get("format", "ND"), "paramType": t.get("paramType", t.get("param_type", "required")),
                "shape": [-2]}
    static_key = hashlib.sha256(json.dumps([inputs, outputs, attrs], sort_keys=True, default=str).encode())
    return {
        "implMode": impl_mode or "",
        "int64Mode": False,
        "simplifiedKeyMode": 0,
        "optionalInputMode": "gen_placeholder",
        "deterministic": "ignore",
        "opMode": "dynamic",
        "inputs": [desc(t, i) for i, t in enumerate(inputs)],
        "outputs": [desc(t, i) for i, t in enumerate(outputs)],
        "attrs": [{"name": a.get("name"), "dtype": a.get("dtype"), "value": a.get("value")} for a in attrs or []],
        "staticKey": static_key.hexdigest()[:40] + "," + kernel_name,
    }


def _emulated(soc):
    """Whether OpenCANN's Ascend C emulation models the chip (its platform file has sizes)."""
    from tbe.common.platform import _platform_ini
    import configparser
    ini = _platform_ini(soc)
    if ini is None:
        return False
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(ini)
    return parser.has_option("AICoreSpec", "ub_size")


def compile_op(src, origin_func_name, op_info, options=None, code_channel=0, op_compile_option="{}", *_args,
               **_kw):
    kernel_name = op_info.kernel_name or context.get("kernel_name")
    op_type = op_info.op_type
    out_dir = context.get("output")
    soc = context.get("soc_version")
    compile_soc, emulated = soc, _emulated(soc)
    if not emulated:
        # A package built for several compute units (ascend310p;ascend910b) gets a binary for
        # each; one for a chip the emulation does not model is compiled (its source checked)
        # but no emulated chip loads it.
        compile_soc = "Ascend910B3"
        CommonUtility.print_compile_log(
            kernel_name, "%s is not emulated by OpenCANN: the binary is compiled with Atlas A2 semantics to "
            "check the kernel, and no emulated chip runs it" % soc, AscendCLogLevel.LOG_WARNING)
    if not os.path.isfile(src):
        raise RuntimeError("compile_op: the kernel source %s does not exist" % src)
    inputs = _param_entries("inputs") or list(op_info.inputs)
    outputs = _param_entries("outputs") or list(op_info.outputs)
    # A header beside the kernel that registers the op's tiling data is what the kernel was
    # written against; otherwise the one the installed op_host library recorded.
    header, struct_name = _header_beside(src, op_type), None
    if not header:
        header, struct_name = _tiling_header(op_type)
        if header and not os.path.isfile(header):
            raise RuntimeError("compile_op: %s's tiling data is declared in %s (recorded by its installed "
                               "op_host library), which no longer exists" % (op_type, header))
    if not header:
        CommonUtility.print_compile_log(
            kernel_name, "no tiling data is registered for %s (install the package before compiling its "
            "binaries, as the template's build.sh does); the kernel is compiled without it" % op_type,
            AscendCLogLevel.LOG_WARNING)
    types = _tensor_types(inputs) + _tensor_types(outputs)
    num_args = len(inputs) + len(outputs) + 2  # + workspace and tiling
    os.makedirs(out_dir, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="opc_") as tmp:
        wrapper = os.path.join(tmp, kernel_name + "_wrapper.cpp")
        with open(wrapper, "w", errors="surrogateescape") as f:
            f.write("// opc: %s's kernel %s compiled for OpenCANN's Ascend C emulation as binary %s.\n"
                    % (op_type, origin_func_name, kernel_name))
            f.write("#include <cmath>\n#include <cstdint>\n#include <cstdio>\n#include <cstdlib>\n"
                    "#include <cstring>\n\n#include \"kernel_operator.h\"\n#include \"register/op_def_registry.h\"\n\n")
            f.write("// Kernels name the registered tiling struct without optiling::, as CANN's may.\n"
                    "namespace optiling {}\nusing namespace optiling;  // NOLINT\n\n")
            # The kernel's function under a private name, so a kernel named like a C library
            # function (asinh, exp) cannot clash with its declaration. The source is copied in
            # (not included) so that ccec rewrites the <<<>>> launches of its host stubs.
            with open(src, errors="surrogateescape") as kernel:
                text = kernel.read()
            f.write("#define %s oc_opc_kernel\n#line 1 \"%s\"\n" % (origin_func_name, src))
            f.write(text)
            f.write("\n#undef %s\n\n" % origin_func_name)
            f.write("static ::ops::KernelRegisterer g_oc_opc_kernel(\"%s\", \"%s\", reinterpret_cast<void*>(&oc_opc_kernel),\n"
                    "    %d, std::vector<ge::DataType>{%s});\n" % (op_type, kernel_name, num_args, ", ".join(types)))
        obj = os.path.join(out_dir, kernel_name + ".o")
        ccec = context.get("ccec") or "ccec"
        # CANN compiles an operator's kernel for the device only (--cce-aicore-only): the host
        # launch stubs kernels keep under #ifndef __CCE_KT_TEST__ or ASCENDC_CPU_DEBUG are not
        # built, so the macros that leave them out are defined (as msopgen's projects compile
        # kernels, linking the emulation).
        cmd = [ccec, "-xcce", wrapper, "-shared", "-fPIC", "-O2", "-o", obj + ".tmp",
               "--cce-soc-version=" + compile_soc, "-D__CCE_KT_TEST__=1", "-DASCENDC_CPU_DEBUG=1",
               "-lopregister"]
        # Quoted includes of the kernel resolve from its own folder, as they would in place.
        cmd[3:3] = ["-iquote", os.path.dirname(os.path.realpath(src))]
        if header:
            cmd[3:3] = ["-include", header]
        cmd += _filter_options(list(options or []))
        if os.environ.get("OCANN_OPC_VERBOSE"):
            print(" ".join(cmd))
        rc = subprocess.call(cmd)
        if rc != 0:
            if os.path.exists(obj + ".tmp"):
                os.remove(obj + ".tmp")
            raise RuntimeError("compile_op: ccec failed (%d) compiling %s for %s" % (rc, src, kernel_name))
        os.replace(obj + ".tmp", obj)
    with open(obj, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    attrs = op_info.attrs or ((context.get("param") or {}).get("op_list") or [{}])[0].get("attrs", [])
    desc = {
        "binFileName": kernel_name,
        "binFileSuffix": ".o",
        "blockDim": -1,
        "coreType": "AiCore",
        "kernelName": kernel_name,
        "magic": "OPENCANN_ASCENDC_EMULATION",
        "opType": op_type,
        "originFuncName": origin_func_name,
        "socVersion": soc,
        "emulated": emulated,
        "tilingDataStruct": struct_name or "",
        "sha256": digest,
        "workspace": {"num": 1, "size": [-1], "type": [0]},
        "supportInfo": _support_info(inputs, outputs, attrs, op_info.impl_mode or context.get("impl_mode"),
                                     kernel_name),
    }
    tmp_json = os.path.join(out_dir, kernel_name + ".json.tmp")
    with open(tmp_json, "w") as f:
        json.dump(desc, f, indent=2)
        f.write("\n")
    os.replace(tmp_json, os.path.join(out_dir, kernel_name + ".json"))
