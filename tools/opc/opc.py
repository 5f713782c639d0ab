#!/usr/bin/env python3
"""opc: CANN's single-operator compiler, for OpenCANN's Ascend C emulation.

    opc <op>.py --main_func=<function> --input_param=<param>.json --soc_version=<SoC>
        --output=<folder> [--impl_mode=...] [--simplified_key_mode=0] [--op_mode=dynamic]

Imports the operator's Python wrapper (the op_impl/.../dynamic/<op>.py a package template
generates), calls <function> with the tensors and attributes of the parameter file's first
op_list entry, and leaves <bin_filename>.o (the kernel compiled for the emulation, a shared
object) and <bin_filename>.json in --output. Options that only shape NPU machine code are
accepted and recorded; anything else unknown is refused.
"""
import importlib.util
import inspect
import json
import os
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
for candidate in (os.path.join(HERE, "..", "lib", "python3", "dist-packages"), os.path.join(HERE, "..", "python")):
    if os.path.isdir(os.path.join(candidate, "tbe")):
        sys.path.insert(0, os.path.realpath(candidate))
        break

# Options of CANN's opc that select NPU code generation, debugging aids or caches: recorded.
RECORDED = {"--simplified_key_mode", "--op_mode", "--core_type", "--log", "--op_debug_config", "--debug_dir",
            "--op_bank_path", "--mdl_bank_path", "--optional_input_mode", "--dynamic_param_mode",
            "--op_precision_mode", "--deterministic", "--op_debug_level", "--enable_superkernel",
            "--tiling_key", "--op_super_kernel_options", "--kernel-template-input"}
# --tiling_key limits CANN's compile to some tiling keys; the emulation's binary holds them all.
USAGE = ("usage: opc <op>.py --main_func=<function> --input_param=<param>.json --soc_version=<SoC> "
         "--output=<folder> [--impl_mode=high_performance|high_precision]")


def fail(msg):
    print("[ERROR] opc: " + msg, file=sys.stderr)
    sys.exit(1)


def parse(argv):
    opts, positional = {}, []
    for a in argv:
        if a in ("-h", "--help"):
            print(__doc__.strip())
            sys.exit(0)
        if a.startswith("--"):
            key, eq, value = a.partition("=")
            if not eq:
                fail("%s: give the option as %s=<value>" % (a, a))
            if key in ("--main_func", "--input_param", "--soc_version", "--output", "--impl_mode") or key in RECORDED:
                opts[key] = value
            else:
                fail("%s: an option OpenCANN's opc does not know (%s)" % (key, USAGE))
        else:
            positional.append(a)
    if len(positional) != 1:
        fail("give one operator file (.py); " + USAGE)
    for key in ("--main_func", "--input_param", "--soc_version", "--output"):
        if not opts.get(key):
            fail("%s is required; %s" % (key, USAGE))
    if opts.get("--op_mode", "dynamic") not in ("dynamic", "static"):
        fail("--op_mode=%s: the mode is dynamic or static" % opts["--op_mode"])
    impl = opts.get("--impl_mode", "").strip('"')
    for mode in [m for m in impl.split(",") if m]:
        if mode not in ("high_performance", "high_precision", "optional", "super_performance"):
            fail("--impl_mode=%s: the mode is high_performance or high_precision" % impl)
    opts["--impl_mode"] = impl.split(",")[0] if impl else ""
    return positional[0], opts


def tensor_arg(entry, param_name):
    if entry is None:
        return None
    if isinstance(entry, list):
        return [tensor_arg(e, param_name) for e in entry]
    t = dict(entry)
    t.setdefault("format", "ND")
    t.setdefault("ori_format", t["format"])
    t.setdefault("shape", [-2])
    t.setdefault("ori_shape", t["shape"])
    t["param_name"] = param_name
    t["param_type"] = t.get("paramType", "required")
    return t


def main():
    py_file, opts = parse(sys.argv[1:])
    if not os.path.isfile(py_file):
        fail("%s: no such operator file" % py_file)
    try:
        with open(opts["--input_param"]) as f:
            param = json.load(f)
        op = param["op_list"][0]
        op_type = param["op_type"]
    except (OSError, ValueError, KeyError, IndexError, TypeError) as e:
        fail("%s: not a parameter file with op_type and op_list (%s)" % (opts["--input_param"], e))
    soc = opts["--soc_version"]
    from tbe.common import context
    from tbe.common.platform import _platform_ini
    if _platform_ini(soc) is None:
        fail("--soc_version=%s: not a chip OpenCANN describes (data/platform_config)" % soc)
    context.set_value("soc_version", soc)
    context.set_value("output", os.path.realpath(opts["--output"]))
    context.set_value("impl_mode", opts["--impl_mode"])
    context.set_value("param", param)
    context.set_value("lib_dir", os.path.realpath(os.path.join(HERE, "..", "lib")))
    context.set_value("ccec", os.path.join(HERE, "ccec"))
    bin_name = op.get("bin_filename") or op_type
    context.set_value("kernel_name", bin_name)

    sys.path.insert(0, os.path.dirname(os.path.realpath(py_file)))
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(py_file))[0], py_file)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # the wrapper's own import errors name what it needed
        fail("%s cannot be imported: %s: %s" % (py_file, type(e).__name__, e))
    func = getattr(module, opts["--main_func"], None)
    if func is None:
        fail("%s has no function %s" % (py_file, opts["--main_func"]))

    names = [n for n in inspect.signature(func).parameters if n not in ("kernel_name", "impl_mode")]
    inputs, outputs = op.get("inputs", []), op.get("outputs", [])
    if len(inputs) + len(outputs) > len(names):
        fail("%s takes %d parameters, the parameter file lists %d inputs and %d outputs"
             % (opts["--main_func"], len(names), len(inputs), len(outputs)))
    args = [tensor_arg(t, names[i]) for i, t in enumerate(inputs)]
    args += [tensor_arg(t, names[len(inputs) + i]) for i, t in enumerate(outputs)]
    kwargs = {}
    for attr in op.get("attrs", []) or []:
        if attr.get("name") in names:
            kwargs[attr["name"]] = attr.get("value")
    params = inspect.signature(func).parameters
    if "kernel_name" in params:
        kwargs["kernel_name"] = bin_name
    if "impl_mode" in params:
        kwargs["impl_mode"] = opts["--impl_mode"]
    try:
        func(*args, **kwargs)
    except Exception as e:
        fail("%s(%s) failed: %s: %s" % (opts["--main_func"], op_type, type(e).__name__, e))
    out = context.get("output")
    for suffix in (".o", ".json"):
        if not os.path.isfile(os.path.join(out, bin_name + suffix)):
            fail("%s did not produce %s%s" % (opts["--main_func"], bin_name, suffix))
    print("opc: %s -> %s/%s.o" % (op_type, out, bin_name))


if __name__ == "__main__":
    main()
