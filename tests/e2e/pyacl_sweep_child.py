"""Child of test_pyacl_handles.py: calls every function of the acl module with made-up,
stale and null handles and absurd sizes. Prints each call before making it, so a crash names
the function; exits 0 when every call returned (a code, a tuple or a Python exception)."""
import re
import sys

import acl

BOGUS = 424242
HUGE = 1 << 62
# Calls that would wait on their argument: given a short timeout instead.
TIMEOUTS = {"process_report": 1, "synchronize_stream_with_timeout": 1}


def params(fn):
    doc = (fn.__doc__ or "").splitlines()
    m = re.match(r"\w+\((.*)\) ->", doc[0]) if doc else None
    if not m or not m.group(1).strip():
        return []
    out = []
    for p in m.group(1).split(", "):
        name, _, typ = p.partition(": ")
        out.append((name.strip(), typ.split(" = ")[0].strip()))
    return out


def value(name, typ, bad):
    if name in ("timeout", "timeout_ms"):
        return 1
    if typ.startswith("str"):
        return "/nonexistent/model.om"
    if typ.startswith("list") or typ.startswith("List"):
        return [bad, bad]
    if typ.startswith("dict") or typ.startswith("Dict"):
        return {"dims": [bad], "name": "x"}
    if typ in ("object", "numpy.ndarray", "buffer", "bytes"):
        return None
    if typ == "float":
        return 1.0
    return bad


def main():
    acl.init()
    acl.rt.set_device(0)
    # A stale handle of each kind: created, then destroyed.
    stale = []
    b = acl.create_data_buffer(0, 0)
    acl.destroy_data_buffer(b)
    stale.append(b)
    d = acl.mdl.create_dataset()
    acl.mdl.destroy_dataset(d)
    stale.append(d)
    m = acl.mdl.create_desc()
    acl.mdl.destroy_desc(m)
    stale.append(m)
    s, _ = acl.rt.create_stream()
    acl.rt.destroy_stream(s)
    stale.append(s)
    skip = {"finalize", "init", "reset_device", "set_device", "start_thread"}
    calls = 0
    for modname, mod in (("acl", acl), ("acl.rt", acl.rt), ("acl.mdl", acl.mdl),
                         ("acl.util", acl.util), ("acl.op", getattr(acl, "op", None))):
        if mod is None:
            continue
        for name in sorted(dir(mod)):
            fn = getattr(mod, name)
            if name.startswith("_") or not callable(fn) or name in skip or isinstance(fn, type):
                continue
            ps = params(fn)
            for bad in [0, BOGUS, HUGE, -1] + stale:
                args = [TIMEOUTS.get(name, value(n, t, bad)) if n in ("timeout", "timeout_ms")
                        else value(n, t, bad) for n, t in ps]
                if name in TIMEOUTS and args:
                    args[-1] = TIMEOUTS[name]
                print(f"{modname}.{name}{tuple(args)}", flush=True)
                try:
                    fn(*args)
                except Exception:  # a Python exception is an answer, not a crash
                    pass
                calls += 1
    # Live objects of every kind, with absurd sizes and indices next to them.
    dev, _ = acl.rt.malloc(4096)
    host, _ = acl.rt.malloc_host(4096)
    live = {
        "data_buffer": acl.create_data_buffer(dev, 4096),
        "dataset": acl.mdl.create_dataset(),
        "model_desc": acl.mdl.create_desc(),
        "stream": acl.rt.create_stream()[0],
        "event": acl.rt.create_event()[0],
        "aipp_set": acl.mdl.create_aipp(1),
        "desc": acl.create_tensor_desc(0, [2, 3], 2),
    }
    acl.mdl.add_dataset_buffer(live["dataset"], live["data_buffer"])

    def pick(name, typ):
        for key, h in live.items():
            if key in name or name in key:
                return h
        if name in ("ptr", "dst", "src", "dev_ptr", "data", "input", "output"):
            return dev
        if name in ("host_ptr",):
            return host
        if any(w in name for w in ("size", "count", "index", "max", "len", "num", "batch")):
            return HUGE
        return value(name, typ, 1)

    for modname, mod in (("acl", acl), ("acl.rt", acl.rt), ("acl.mdl", acl.mdl),
                         ("acl.util", acl.util)):
        for name in sorted(dir(mod)):
            fn = getattr(mod, name)
            if (name.startswith("_") or not callable(fn) or isinstance(fn, type) or
                    name in skip or name.startswith("destroy") or name in ("free", "free_host")):
                continue
            args = [pick(n, t) for n, t in params(fn)]
            if name in TIMEOUTS and args:
                args[-1] = TIMEOUTS[name]
            print(f"{modname}.{name}{tuple(args)} [live]", flush=True)
            try:
                fn(*args)
            except Exception:
                pass
            calls += 1
    acl.rt.synchronize_stream(live["stream"])
    acl.rt.reset_device(0)
    acl.finalize()
    print(f"sweep: {calls} calls returned", flush=True)


if __name__ == "__main__":
    sys.exit(main())
