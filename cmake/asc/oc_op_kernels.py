#!/usr/bin/env python3
"""Compiles the kernels of an operator package on CANN's find_package(ASC) template
(npu_op_kernel_library): for every op of aic-<unit>-ops-info.ini and every type combination
it lists, one binary through opc's compile_op, for OpenCANN's Ascend C emulation.

    oc_op_kernels.py --prefix <OpenCANN> --ini <aic-<unit>-ops-info.ini> --unit <unit>
        --kernel-dir <dir> --tiling-lib <libcust_opmaster.so> --out <kernel folder>
        [--options <op>=<compile options>;...]

Binaries land in <out>/<unit>/<op file>/<OpType>_<hash>.o/.json, as the template installs
them. The tiling struct comes from the op_host library given (as CANN's ascendc_compile_kernel
links it where compile_op looks: an ASCEND_CUSTOM_OPP_PATH of its own).
"""
import argparse
import hashlib
import json
import os
import sys
import tempfile

# The chip each compute unit's binaries are compiled for (CANN's templates map them so).
UNIT_SOC = {"ascend910b": "Ascend910B1", "ascend310b": "Ascend310B1", "ascend310p": "Ascend310P3",
            "ascend910": "Ascend910A", "ascend910c": "Ascend910C1"}
CTYPES = {"float32": ("float", "DT_FLOAT"), "float16": ("half", "DT_FLOAT16"), "bfloat16": ("bfloat16_t", "DT_BF16"),
          "int8": ("int8_t", "DT_INT8"), "uint8": ("uint8_t", "DT_UINT8"), "int16": ("int16_t", "DT_INT16"),
          "uint16": ("uint16_t", "DT_UINT16"), "int32": ("int32_t", "DT_INT32"), "uint32": ("uint32_t", "DT_UINT32"),
          "int64": ("int64_t", "DT_INT64"), "uint64": ("uint64_t", "DT_UINT64"), "bool": ("bool", "DT_BOOL"),
          "double": ("double", "DT_DOUBLE"), "complex64": ("uint64_t", "DT_COMPLEX64")}


def read_ini(path):
    """The ops of an ops-info ini: {op: {key: value}} in file order."""
    ops, current = {}, None
    with open(path) as f:
        for raw in f:
            line = raw.strip()
            if line.startswith("[") and line.endswith("]"):
                current = ops.setdefault(line[1:-1], {})
            elif current is not None and "=" in line:
                key, value = line.split("=", 1)
                current[key] = value
    return ops


def params(desc, kind):
    out, i = [], 0
    while "%s%d.name" % (kind, i) in desc:
        p = "%s%d." % (kind, i)
        out.append({"name": desc[p + "name"], "dtypes": desc[p + "dtype"].split(","),
                    "formats": desc.get(p + "format", "").split(","),
                    "paramType": desc.get(p + "paramType", "required")})
        i += 1
    return out


def compile_op_binaries(args, op_type, desc, context, compile_op, OpInfo):
    inputs, outputs = params(desc, "input"), params(desc, "output")
    op_file = desc.get("opFile.value", op_type)
    func = desc.get("opInterface.value", op_file)
    src = os.path.join(args.kernel_dir, op_file + ".cpp")
    if not os.path.isfile(src):
        raise RuntimeError("%s: kernel source %s does not exist" % (op_type, src))
    combos = len((inputs or outputs)[0]["dtypes"])
    out_dir = os.path.join(args.out, args.unit, op_file)
    extra = [o for o in (args.options.get(op_type, "") + " " + args.options.get("ALL", "")).split() if o]
    for i in range(combos):
        ins = [{"name": p["name"], "index": n, "dtype": p["dtypes"][i], "format": (p["formats"] + ["ND"] * combos)[i] or "ND",
                "paramType": p["paramType"], "shape": [-2]} for n, p in enumerate(inputs)]
        outs = [{"name": p["name"], "index": n, "dtype": p["dtypes"][i], "format": (p["formats"] + ["ND"] * combos)[i] or "ND",
                 "paramType": p["paramType"], "shape": [-2]} for n, p in enumerate(outputs)]
        param = {"op_type": op_type, "op_list": [{"bin_filename": "", "inputs": ins, "outputs": outs}]}
        key = hashlib.md5(json.dumps(param, sort_keys=True).encode()).hexdigest()
        bin_name = "%s_%s" % (op_type, key)
        param["op_list"][0]["bin_filename"] = bin_name
        options = []
        names = set()
        for t in ins:
            names.add(t["name"].upper())
        for t, is_out in [(t, False) for t in ins] + [(t, True) for t in outs]:
            name = t["name"].upper() + ("_REF" if is_out and t["name"].upper() in names else "")
            ctype, ge = CTYPES.get(t["dtype"], (None, None))
            if ctype is None:
                raise RuntimeError("%s: data type %s is not supported by OpenCANN" % (op_type, t["dtype"]))
            options += ["-DDTYPE_%s=%s" % (name, ctype), "-DORIG_DTYPE_%s=%s" % (name, ge),
                        "-DFORMAT_%s=FORMAT_%s" % (name, t["format"])]
        context.set_value("param", param)
        context.set_value("output", out_dir)
        context.set_value("kernel_name", bin_name)
        print("[%s] Generating %s ..." % (args.unit, bin_name), flush=True)
        compile_op(src, func, OpInfo(kernel_name=bin_name, op_type=op_type, inputs=ins, outputs=outs),
                   options + extra, 0, "{}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prefix", required=True)
    parser.add_argument("--ini", required=True)
    parser.add_argument("--unit", required=True)
    parser.add_argument("--kernel-dir", required=True)
    parser.add_argument("--tiling-lib", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--options", default="")
    args = parser.parse_args()
    args.options = dict(item.split("=", 1) for item in args.options.split(";") if "=" in item)
    if args.unit not in UNIT_SOC:
        sys.exit("[ERROR] npu_op_kernel_library: compute unit %s is not one OpenCANN knows (%s)"
                 % (args.unit, ", ".join(sorted(UNIT_SOC))))
    if not os.path.isfile(args.ini):
        sys.exit("[ERROR] npu_op_kernel_library: %s does not exist (no op of the package names %s in "
                 "AddConfig)" % (args.ini, args.unit))
    sys.path.insert(0, os.path.join(args.prefix, "lib", "python3", "dist-packages"))
    from tbe.common import context
    from tbe.tikcpp import OpInfo, compile_op
    context.set_value("soc_version", UNIT_SOC[args.unit])
    context.set_value("lib_dir", os.path.join(args.prefix, "lib"))
    context.set_value("ccec", os.path.join(args.prefix, "bin", "ccec"))
    with tempfile.TemporaryDirectory(prefix="oc_op_kernels_") as tmp:
        tiling = os.path.join(tmp, "customize", "op_impl", "ai_core", "tbe", "op_tiling")
        os.makedirs(tiling)
        os.symlink(os.path.realpath(args.tiling_lib), os.path.join(tiling, "liboptiling.so"))
        os.environ["ASCEND_CUSTOM_OPP_PATH"] = os.path.join(tmp, "customize")
        try:
            for op_type, desc in read_ini(args.ini).items():
                compile_op_binaries(args, op_type, desc, context, compile_op, OpInfo)
        except RuntimeError as e:
            sys.exit("[ERROR] npu_op_kernel_library: %s" % e)


if __name__ == "__main__":
    main()
