"""python3 -m acl_infer: ais_bench's command line on OpenCANN's InferSession.

The flags, defaults, console lines and output layout are ais_bench's (its README and
argument parser), so scripts written for `python3 -m ais_bench` run with this module name:

    python3 -m acl_infer --model m.om --input in_dir_or_files --output out [--outfmt NPY]
        [--loop N] [--batchsize B] [--dymBatch B | --dymHW H,W | --dymDims name:d,..;..
         | --dymShape name:d,..;.. [--outputSize bytes,..] | --dymShape_range name:a~b,..]

Outputs: <output>/<date or --output_dirname>/<input stem>_<k>.<bin|npy|txt> per inference,
beside them <same folder name>_summary.json; the console prints the performance summary
in ais_bench's words. What OpenCANN cannot do is refused naming the flag (multi-device
lists, the trtexec backend, energy measurement, device-tensor run modes).
"""
import argparse
import itertools
import json
import os
import sys
import time

import numpy as np

from acl_infer import AclError, InferSession


def _bool(text):
    v = str(text).strip().lower()
    if v in ("1", "true", "yes"):
        return True
    if v in ("0", "false", "no"):
        return False
    raise argparse.ArgumentTypeError(f"expected true/false or 1/0, not {text!r}")


def _positive(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, not {text!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, not {v}")
    return v


def _parser():
    ap = argparse.ArgumentParser(prog="python3 -m acl_infer",
                                 description="ais_bench's inference command on OpenCANN")
    add = ap.add_argument
    add("--model", "-m", required=True, help="the .om model")
    add("--input", "-i", default=None,
        help="comma list of .bin/.npy files or folders, one per model input; none: pure inference")
    add("--output", "-o", default=None, help="folder for the outputs (none: not saved)")
    add("--output_dirname", default=None, help="sub-folder name instead of the date")
    add("--outfmt", default="BIN", choices=["NPY", "BIN", "TXT"])
    add("--loop", "-l", type=_positive, default=1)
    add("--debug", type=_bool, default=False)
    add("--device", "-d", default="0")
    add("--dymBatch", type=int, default=0)
    add("--dymHW", default=None, help='"H,W"')
    add("--dymDims", default=None, help='"name:d0,d1;name2:..."')
    add("--dymShape", "--dym-shape", dest="dymShape", default=None, help='"name:d0,d1;..."')
    add("--outputSize", default=None, help="bytes per output of a dynamic-shape model")
    add("--auto_set_dymshape_mode", type=_bool, default=False)
    add("--auto_set_dymdims_mode", type=_bool, default=False)
    add("--batchsize", type=int, default=None, help="batch for the throughput line")
    add("--pure_data_type", default="zero", choices=["zero", "random"])
    add("--profiler", type=_bool, default=False)
    add("--dump", type=_bool, default=False)
    add("--acl_json_path", default=None)
    add("--output_batchsize_axis", type=int, default=0)
    add("--run_mode", default="array", choices=["array", "files", "tensor", "full"])
    add("--display_all_summary", type=_bool, default=False)
    add("--warmup_count", "--warmup-count", dest="warmup_count", type=int, default=1)
    add("--dymShape_range", default=None, help='"name:1,3~4,224;..." or a .info file')
    # Flags of later ais_bench versions that need what OpenCANN lacks: refused if used.
    add("--energy_consumption", type=_bool, default=False)
    add("--backend", default=None)
    add("--aipp_config", default=None)
    add("--threads", type=int, default=1)
    add("--pipeline", type=_bool, default=False)
    add("--profiler_rename", type=_bool, default=True)
    add("--dump_npy", type=_bool, default=False)
    add("--divide_input", type=_bool, default=False)
    add("--npu_id", type=int, default=0)
    add("--perf", type=_bool, default=False)
    return ap


class Refused(Exception):
    pass


def _shape_map(text, flag):
    """"name:1,3,224,224;name2:1,3" -> {name: [dims]}."""
    out = {}
    for part in filter(None, text.split(";")):
        name, sep, dims = part.rpartition(":")
        if not sep or not name:
            raise Refused(f"--{flag} [{text}]: each entry is name:d0,d1,...")
        try:
            out[name] = [int(d) for d in dims.split(",")]
        except ValueError:
            raise Refused(f"--{flag} [{text}]: dims of [{name}] are not integers") from None
    return out


def _range_shapes(text):
    """--dymShape_range: every combination of "a~b" ranges and "a-b" lists per input."""
    if os.path.isfile(text):
        with open(text) as f:
            lines = [ln.strip() for ln in f if ln.strip()]
        return [s for ln in lines for s in _range_shapes(ln)]
    per_input = []
    for part in filter(None, text.split(";")):
        name, _, dims = part.rpartition(":")
        choices = []
        for d in dims.split(","):
            if "~" in d:  # a~b or a~b~step
                try:
                    lo, hi, *step = (int(x) for x in d.split("~"))
                except ValueError:
                    raise Refused(f"--dymShape_range [{text}]: [{d}] is not a~b or a~b~step") \
                        from None
                if len(step) > 1 or (step and step[0] < 1):
                    raise Refused(f"--dymShape_range [{text}]: [{d}] is not a~b or a~b~step")
                choices.append(list(range(lo, hi + 1, step[0] if step else 1)))
            elif "-" in d[1:]:
                choices.append([int(x) for x in d.split("-")])
            else:
                choices.append([int(d)])
        per_input.append([(name, list(c)) for c in itertools.product(*choices)])
    return [dict(combo) for combo in itertools.product(*per_input)]


def _input_files(spec):
    """Per model input, its files; a folder gives its .bin/.npy files in name order."""
    lists = []
    for item in spec.split(","):
        if os.path.isdir(item):
            files = sorted(os.path.join(item, f) for f in os.listdir(item)
                           if f.endswith((".bin", ".npy")))
            if not files:
                raise Refused(f"--input: folder [{item}] holds no .bin or .npy file")
            lists.append(files)
        elif os.path.isfile(item):
            lists.append([item])
        else:
            raise Refused(f"--input: [{item}] is neither a file nor a folder")
    counts = {len(x) for x in lists}
    if len(counts) > 1:
        raise Refused(f"--input: the inputs have different numbers of files {sorted(counts)}")
    return lists


def _load(path, dtype, shape):
    if path.endswith(".npy"):
        return np.load(path).astype(dtype, copy=False)
    data = np.fromfile(path, dtype=dtype)
    if shape is not None and all(d >= 0 for d in shape):
        if data.size != int(np.prod(shape)):
            raise Refused(f"--input: [{path}] holds {data.size} {np.dtype(dtype)} values, the "
                          f"input needs shape {shape} ({int(np.prod(shape))} values)")
        return data.reshape(shape)
    return data


def _run_shapes(session, args):
    """The shape each input runs at: the model's, completed by the dynamic flags."""
    infos = session.get_inputs()
    shapes = [list(t.shape) for t in infos]
    if args.dymBatch:
        shapes = [[args.dymBatch if d < 0 and k == 0 else d for k, d in enumerate(s)]
                  for s in shapes]
    if args.dymHW:
        try:
            h, w = (int(x) for x in args.dymHW.split(","))
        except ValueError:
            raise Refused(f"--dymHW [{args.dymHW}] is not H,W") from None
        for k, s in enumerate(shapes):
            neg = [j for j, d in enumerate(s) if d < 0]
            if len(neg) == 2:
                s[neg[0]], s[neg[1]] = session.stored_rows(k, h), w
    for flag in ("dymDims", "dymShape"):
        text = getattr(args, flag)
        if text:
            given = _shape_map(text, flag)
            unknown = sorted(set(given) - {t.name for t in infos})
            if unknown:
                raise Refused(f"--{flag}: the model has no input {unknown}; its inputs are "
                              f"{[t.name for t in infos]}")
            shapes = [given.get(t.name, s) for t, s in zip(infos, shapes)]
    return shapes


def _feeds(session, args, shapes, files, index):
    infos = session.get_inputs()
    if files is None:
        rng = np.random.default_rng(index)
        out = []
        for t, s in zip(infos, shapes):
            s = [1 if d < 0 else d for d in s]
            if args.pure_data_type != "random":
                out.append(np.zeros(s, t.dtype))
            elif np.issubdtype(t.dtype, np.floating):
                out.append(rng.random(s).astype(t.dtype))
            elif t.dtype == np.bool_:
                out.append(rng.integers(0, 2, s).astype(np.bool_))
            else:  # integers: values the type holds, at most 0..255 (ais_bench's byte range)
                info = np.iinfo(t.dtype)
                out.append(rng.integers(max(info.min, 0), min(info.max, 255), s,
                                        endpoint=True).astype(t.dtype))
        return out
    return [_load(f[index], t.dtype, s) for f, t, s in zip(files, infos, shapes)]


def _save(arrays, folder, stem, fmt):
    names = []
    for k, a in enumerate(arrays):
        path = os.path.join(folder, f"{stem}_{k}.{fmt.lower()}")
        if fmt == "NPY":
            np.save(path, a)
        elif fmt == "BIN":
            a.tofile(path)
        else:
            np.savetxt(path, a.reshape(-1, a.shape[-1]) if a.ndim > 1 else a.reshape(1, -1),
                       fmt="%.6g" if np.issubdtype(a.dtype, np.floating) else "%d")
        names.append(path)
    return names


def _stats(times):
    t = np.array(times) if times else np.zeros(1)
    return {"min": float(t.min()), "max": float(t.max()), "mean": float(t.mean()),
            "median": float(np.median(t)), "percentile(99%)": float(np.percentile(t, 99)),
            "count": len(times)}


def _refuse_unsupported(args):
    if "," in str(args.device):
        raise Refused(f"--device [{args.device}]: OpenCANN emulates one NPU (device 0); "
                      f"multi-device runs are not supported")
    if args.energy_consumption:
        raise Refused("--energy_consumption: there is no NPU whose power could be read")
    if args.backend:
        raise Refused(f"--backend [{args.backend}]: only the AscendCL backend exists here")
    if args.run_mode not in ("array", "files"):
        raise Refused(f"--run_mode [{args.run_mode}]: OpenCANN's InferSession keeps host "
                      f"arrays; the device-tensor modes are not supported")
    if args.aipp_config or args.threads != 1 or args.pipeline or args.divide_input:
        raise Refused("--aipp_config, --threads, --pipeline and --divide_input are not "
                      "supported by OpenCANN's acl_infer")
    if args.dump_npy:
        raise Refused("--dump_npy: OpenCANN's dump writes CANN's dump files (read them with "
                      "ocann-dump); converting them to .npy here is not supported")
    if args.output_batchsize_axis != 0:
        raise Refused(f"--output_batchsize_axis {args.output_batchsize_axis}: acl_infer does not "
                      f"split or merge outputs by batch (--batchsize only labels throughput)")
    if (args.auto_set_dymshape_mode or args.auto_set_dymdims_mode) and (
            not args.input or any(not f.endswith(".npy") for lst in _input_files(args.input)
                                  for f in lst)):
        raise Refused("--auto_set_dymshape_mode / --auto_set_dymdims_mode take the shapes from "
                      ".npy inputs: give --input with .npy files (as ais_bench requires)")
    if args.profiler and args.dump:
        raise Refused("--profiler and --dump cannot be used together (as in ais_bench)")
    if sum(bool(x) for x in (args.dymBatch, args.dymHW, args.dymDims, args.dymShape,
                             args.dymShape_range)) > 1:
        raise Refused("give one of --dymBatch, --dymHW, --dymDims, --dymShape, --dymShape_range")


def _acl_json(args, out_root):
    """--profiler / --dump: aclInit's configuration, written under the output folder."""
    if args.acl_json_path:
        return args.acl_json_path
    if not (args.profiler or args.dump):
        return None
    if not out_root:
        raise Refused("--profiler and --dump need --output (their data goes there)")
    os.makedirs(out_root, exist_ok=True)
    cfg = ({"profiler": {"switch": "on", "output": os.path.join(out_root, "profiler")}}
           if args.profiler else
           {"dump": {"dump_path": os.path.join(out_root, "dump"), "dump_mode": "all",
                     "dump_list": [{"model_name": os.path.splitext(os.path.basename(
                         args.model))[0]}]}})
    path = os.path.join(out_root, "acl.json")
    with open(path, "w") as f:
        json.dump(cfg, f)
    return path


def main(argv=None):
    args = _parser().parse_args(argv)
    try:
        _refuse_unsupported(args)
        return _run(args, argv if argv is not None else sys.argv[1:])
    except Refused as e:
        print(f"[ERROR] {e}", file=sys.stderr)
        return 1
    except (AclError, ValueError) as e:  # the runtime's refusal, with its code and message
        print(f"[ERROR] {e}", file=sys.stderr)
        return 1


def _run(args, argv):
    out_root = args.output
    acl_json = _acl_json(args, out_root)
    output_size = None
    if args.outputSize:
        try:
            output_size = [int(x) for x in args.outputSize.split(",")]
        except ValueError:
            raise Refused(f"--outputSize [{args.outputSize}] is not a list of byte counts") \
                from None
    session = InferSession(int(args.device), args.model, acl_json_path=acl_json,
                           debug=args.debug,
                           dynamic_output_bytes=max(output_size) if output_size else 64 << 20)
    try:
        files = _input_files(args.input) if args.input else None
        if files is not None and len(files) != len(session.get_inputs()):
            raise Refused(f"--input gives {len(files)} inputs, the model has "
                          f"{len(session.get_inputs())} "
                          f"{[t.name for t in session.get_inputs()]}")
        folder = None
        if out_root:
            folder = os.path.join(out_root, args.output_dirname or
                                  time.strftime("%Y_%m_%d-%H_%M_%S"))
            os.makedirs(folder, exist_ok=True)
        if not args.dymShape_range:
            summary = _bench(session, args, files, folder, output_size, None)
            if folder:
                summary["args"] = list(argv)
                with open(folder.rstrip("/") + "_summary.json", "w") as f:
                    json.dump(summary, f, indent=2)
            return 0
        # As ais_bench: each shape is a run of its own (warm-up, loop, summary), then the
        # shapes ranked by throughput.
        results = []
        for combo in _range_shapes(args.dymShape_range):
            text = ";".join(f"{k}:{','.join(map(str, v))}" for k, v in combo.items())
            print(f"[INFO] dymShape: {text}")
            try:
                summary = _bench(session, args, files, folder, output_size, combo)
                results.append({"dymshape": text, "result": "OK",
                                "throughput": summary["throughput"]})
            except (AclError, ValueError, Refused) as e:
                print(f"[ERROR] dymShape {text}: {e}", file=sys.stderr)
                results.append({"dymshape": text, "result": "FAILED", "throughput": 0.0})
        ok = [r["throughput"] for r in results if r["result"] == "OK"]
        print("[INFO] -----------------dyshape_range Performance Summary------------------")
        print(f"[INFO] run_count:{len(results)} success_count:{len(ok)} "
              f"avg_throughput:{float(np.mean(ok)) if ok else 0.0}")
        for i, r in enumerate(sorted(results, key=lambda r: r["throughput"], reverse=True)):
            print(f"[INFO] {i} dymshape:{r['dymshape']}  result:{r['result']} "
                  f"throughput:{r['throughput']}")
        print("[INFO] ------------------------------------------------------")
        if folder:
            with open(folder.rstrip("/") + "_summary.json", "w") as f:
                json.dump({"args": list(argv), "dymShape_range": results}, f, indent=2)
        return 0 if ok else 1
    finally:
        session.free_resource()
        session.finalize()


def _batch_for_throughput(session, args, shape_override):
    """ais_bench's get_batchsize: --dymBatch, else the first input's dim 0 in --dymDims /
    --dymShape (or this range shape), else the model's; --batchsize overrides."""
    if args.batchsize:
        return args.batchsize
    if args.dymBatch:
        return args.dymBatch
    infos = session.get_inputs()
    if not infos:
        return 1
    given = shape_override or _shape_map(args.dymDims or args.dymShape or "", "dymShape")
    dims = given.get(infos[0].name) or infos[0].shape
    return dims[0] if dims and dims[0] > 0 else 1


def _bench(session, args, files, folder, output_size, shape_override):
    """One run: warm-up, every input file (or one pure-data inference) --loop times, the
    outputs saved, the performance summary printed; returns the summary."""
    count = len(files[0]) if files else 1
    filesinfo = {}
    shapes = _run_shapes(session, args)
    if shape_override:
        shapes = [shape_override.get(t.name, s) for t, s in zip(session.get_inputs(), shapes)]
    for n in range(count):
        feeds = _feeds(session, args, shapes, files, n)
        if n == 0:
            for _ in range(args.warmup_count):
                session.infer(feeds)
            session._times_ms.clear()
            session._h2d_ms.clear()
            session._d2h_ms.clear()
        for _ in range(args.loop):
            outputs = session.infer(feeds)
        if output_size:
            for k, o in enumerate(outputs):
                limit = output_size[min(k, len(output_size) - 1)]
                if o.nbytes > limit:
                    raise Refused(f"output {k} has {o.nbytes} bytes, more than --outputSize "
                                  f"gives ({limit})")
        stem = "pure_infer_data" if files is None else \
            os.path.splitext(os.path.basename(files[0][n]))[0]
        if shape_override:
            stem = "_".join(f"{k}-" + "_".join(map(str, v)) for k, v in shape_override.items())
        outs = _save(outputs, folder, stem, args.outfmt) if folder else []
        filesinfo[n] = {"infiles": [f[n] for f in files] if files else [], "outfiles": outs}
    compute = _stats(session._times_ms)
    batch = _batch_for_throughput(session, args, shape_override)
    throughput = 1000.0 * batch / compute["mean"] if compute["mean"] > 0 else 0.0
    print("[INFO] -----------------Performance Summary------------------")
    lines = [("H2D_latency", _stats(session._h2d_ms))] if args.display_all_summary else []
    lines.append(("NPU_compute_time", compute))
    if args.display_all_summary:
        lines.append(("D2H_latency", _stats(session._d2h_ms)))
    for name, st in lines:
        print(f"[INFO] {name} (ms): min = {st['min']}, max = {st['max']}, mean = {st['mean']}, "
              f"median = {st['median']}, percentile(99%) = {st['percentile(99%)']}")
    print(f"[INFO] throughput 1000*batchsize.mean({batch})/NPU_compute_time.mean"
          f"({compute['mean']}): {throughput}")
    print("[INFO] ------------------------------------------------------")
    print("[INFO] (OpenCANN: times are of the CPU emulation, not of an NPU)")
    return {"filesinfo": filesinfo, "NPU_compute_time": compute,
            "H2D_latency": _stats(session._h2d_ms), "D2H_latency": _stats(session._d2h_ms),
            "npu_compute_time_list": list(session._times_ms), "throughput": throughput,
            "pid": os.getpid()}


if __name__ == "__main__":
    raise SystemExit(main())
