"""InferSession: run an .om model on numpy arrays without the low-level pyACL calls.

    from acl_infer import InferSession
    session = InferSession(0, "resnet50_910B3.om")
    (logits,) = session.infer([image])          # list of ndarrays in, list out
    print(session.summary())                    # latency statistics of the infer calls

Modelled on ais_bench's InferSession. Device memory, datasets and copies are managed here;
outputs whose shape is only known at run time come back with their actual shape.
"""
import time

import numpy as np

import acl

_ACL_TO_NUMPY = {0: np.float32, 1: np.float16, 2: np.int8, 3: np.int32, 4: np.uint8, 6: np.int16,
                 7: np.uint16, 8: np.uint32, 9: np.int64, 10: np.uint64, 11: np.float64, 12: np.bool_}
_H2D, _D2H = 1, 2
_initialised = 0


class AclError(RuntimeError):
    def __init__(self, what, code):
        super().__init__(f"{what} failed with {code}: {acl.get_recent_err_msg()}")
        self.code = code


def _check(ret, what):
    if ret != 0:
        raise AclError(what, ret)


class TensorInfo:
    def __init__(self, name, shape, dtype, size):
        self.name, self.shape, self.dtype, self.size = name, shape, dtype, size

    def __repr__(self):
        return f"TensorInfo(name={self.name!r}, shape={self.shape}, dtype={self.dtype.__name__})"


class InferSession:
    def __init__(self, device_id, model_path, dynamic_output_bytes=64 << 20):
        global _initialised
        if _initialised == 0:
            ret = acl.init()
            if ret not in (0, 100002):  # already initialised by the application is fine
                _check(ret, "aclInit")
        _initialised += 1
        self.device_id = device_id
        _check(acl.rt.set_device(device_id), "aclrtSetDevice")
        self.model_id, ret = acl.mdl.load_from_file(model_path)
        _check(ret, f"aclmdlLoadFromFile({model_path})")
        self.desc = acl.mdl.create_desc()
        _check(acl.mdl.get_desc(self.desc, self.model_id), "aclmdlGetDesc")
        self._dynamic_output_bytes = dynamic_output_bytes
        self._inputs = [self._info(i, True) for i in range(acl.mdl.get_num_inputs(self.desc))]
        self._outputs = [self._info(i, False) for i in range(acl.mdl.get_num_outputs(self.desc))]
        self._in_dev = [self._malloc(t.size) for t in self._inputs]
        self._out_dev = [self._malloc(t.size or dynamic_output_bytes) for t in self._outputs]
        self._in_ds, self._out_ds = acl.mdl.create_dataset(), acl.mdl.create_dataset()
        for ptr, t in zip(self._in_dev, self._inputs):
            acl.mdl.add_dataset_buffer(self._in_ds, acl.create_data_buffer(ptr, t.size))
        for ptr, t in zip(self._out_dev, self._outputs):
            acl.mdl.add_dataset_buffer(self._out_ds, acl.create_data_buffer(ptr, t.size or dynamic_output_bytes))
        self._times_ms = []
        self._closed = False

    def _info(self, i, is_input):
        get_dims = acl.mdl.get_input_dims if is_input else acl.mdl.get_output_dims
        dims, ret = get_dims(self.desc, i)
        _check(ret, "get dims")
        dtype = (acl.mdl.get_input_data_type if is_input else acl.mdl.get_output_data_type)(self.desc, i)
        size = (acl.mdl.get_input_size_by_index if is_input else acl.mdl.get_output_size_by_index)(self.desc, i)
        return TensorInfo(dims["name"], list(dims["dims"]), _ACL_TO_NUMPY[dtype], size)

    @staticmethod
    def _malloc(size):
        ptr, ret = acl.rt.malloc(max(size, 1), 0)
        _check(ret, "aclrtMalloc")
        return ptr

    def get_inputs(self):
        return list(self._inputs)

    def get_outputs(self):
        return list(self._outputs)

    def infer(self, feeds):
        """Runs the model on a list of arrays (one per input); returns a list of arrays."""
        if len(feeds) != len(self._inputs):
            raise ValueError(f"the model has {len(self._inputs)} inputs, got {len(feeds)} arrays")
        keep = []
        for arr, info, ptr in zip(feeds, self._inputs, self._in_dev):
            arr = np.ascontiguousarray(arr, dtype=info.dtype)
            if arr.nbytes != info.size:
                raise ValueError(f"input {info.name!r} needs shape {info.shape} "
                                 f"({info.size} bytes), got {arr.shape}")
            keep.append(arr)
            _check(acl.rt.memcpy(ptr, info.size, acl.util.numpy_to_ptr(arr), arr.nbytes, _H2D), "memcpy")
        start = time.perf_counter()
        _check(acl.mdl.execute(self.model_id, self._in_ds, self._out_ds), "aclmdlExecute")
        self._times_ms.append((time.perf_counter() - start) * 1000)
        results = []
        for i, (info, ptr) in enumerate(zip(self._outputs, self._out_dev)):
            dims, ret = acl.mdl.get_cur_output_dims(self.desc, i)
            _check(ret, "aclmdlGetCurOutputDims")
            host = np.empty(dims["dims"], dtype=info.dtype)
            if host.nbytes:
                _check(acl.rt.memcpy(acl.util.numpy_to_ptr(host), host.nbytes, ptr, host.nbytes, _D2H), "memcpy")
            results.append(host)
        return results

    def summary(self):
        """Latency statistics of the infer() calls so far (model execution only), in ms."""
        t = np.array(self._times_ms)
        if t.size == 0:
            return {"count": 0}
        return {"count": int(t.size), "min": float(t.min()), "max": float(t.max()),
                "mean": float(t.mean()), "median": float(np.median(t)),
                "p99": float(np.percentile(t, 99)), "throughput": float(1000.0 / t.mean())}

    def free_resource(self):
        global _initialised
        if self._closed:
            return
        self._closed = True
        for ds in (self._in_ds, self._out_ds):
            for i in range(acl.mdl.get_dataset_num_buffers(ds)):
                acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(ds, i))
            acl.mdl.destroy_dataset(ds)
        for ptr in self._in_dev + self._out_dev:
            acl.rt.free(ptr)
        acl.mdl.destroy_desc(self.desc)
        acl.mdl.unload(self.model_id)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free_resource()


def _main(argv=None):
    """python3 -m acl_infer --model m.om [--loop N] [--device 0] [--input a.npy,b.npy]:
    an ais_bench-style performance run (inputs random unless given)."""
    import argparse
    ap = argparse.ArgumentParser(prog="python3 -m acl_infer", description=_main.__doc__)
    ap.add_argument("--model", required=True)
    ap.add_argument("--loop", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--device", type=int, default=0)
    ap.add_argument("--input", default="", help="comma-separated .npy files, one per input")
    args = ap.parse_args(argv)
    with InferSession(args.device, args.model) as session:
        infos = session.get_inputs()
        if args.input:
            feeds = [np.load(p) for p in args.input.split(",")]
        else:
            rng = np.random.RandomState(0)
            feeds = [(rng.rand(*i.shape) if np.issubdtype(i.dtype, np.floating)
                      else np.zeros(i.shape)).astype(i.dtype) for i in infos]
        for _ in range(args.warmup):
            session.infer(feeds)
        session._times_ms.clear()
        for _ in range(args.loop):
            session.infer(feeds)
        s = session.summary()
        batch = infos[0].shape[0] if infos and infos[0].shape else 1
        print(f"[INFO] model {args.model}: {s['count']} runs, batch {batch}")
        print(f"[INFO] latency ms: min {s['min']:.3f}, max {s['max']:.3f}, mean {s['mean']:.3f}, "
              f"median {s['median']:.3f}, p99 {s['p99']:.3f}")
        print(f"[INFO] throughput: {1000.0 * batch / s['mean']:.2f} samples/s "
              f"(1000 x batch / mean ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
