"""InferSession: run an .om model on numpy arrays without the low-level pyACL calls.

    from acl_infer import InferSession
    session = InferSession(0, "resnet50_910B3.om")
    (logits,) = session.infer([image])          # list of ndarrays in, list out
    print(session.summary())                    # latency statistics of the infer calls

Modelled on ais_bench's InferSession. Device memory, datasets and copies are managed here;
outputs whose shape is only known at run time come back with their actual shape. Dynamic
models work with arrays of the shape to run: for models with gears the gear is chosen from
the arrays' shapes (batch, H/W or the dynamic dims); fully dynamic models get the shapes as
tensor descriptions.
"""
import time
import warnings

import numpy as np

import acl

# numpy has no bfloat16 (ACL_BF16, 27): such tensors travel as their raw 16-bit patterns in
# uint16 arrays (torch: t.view(torch.int16).numpy(); back: torch.from_numpy(a).view(torch.bfloat16)).
_ACL_TO_NUMPY = {0: np.float32, 1: np.float16, 2: np.int8, 3: np.int32, 4: np.uint8, 6: np.int16,
                 7: np.uint16, 8: np.uint32, 9: np.int64, 10: np.uint64, 11: np.float64, 12: np.bool_,
                 27: np.uint16}
_ACL_BF16 = 27
_H2D, _D2H = 1, 2
_initialised = 0  # live sessions
_we_initialised = False  # this module called aclInit (and so calls aclFinalize)
_DYNAMIC_NAME = "ascend_mbatch_shape_data"
_FORMAT_NHWC = 1
_STATIC_AIPP, _AIPP_YUV420SP_U8 = 1, 1


class AclError(RuntimeError):
    def __init__(self, what, code):
        super().__init__(f"{what} failed with {code}: {acl.get_recent_err_msg()}")
        self.code = code


def _check(ret, what):
    if ret != 0:
        raise AclError(what, ret)


def _to_bfloat16_bits(arr):
    """float arrays as bfloat16 bit patterns (round to nearest even, NaN kept a NaN)."""
    f = np.ascontiguousarray(arr, dtype=np.float32)
    u = f.view(np.uint32).astype(np.uint64)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return np.where(np.isnan(f), np.uint16(0x7FC0), rounded)


class TensorInfo:
    def __init__(self, name, shape, dtype, size, acl_dtype=None):
        self.name, self.shape, self.dtype, self.size = name, shape, dtype, size
        self.acl_dtype = acl_dtype

    def __repr__(self):
        return f"TensorInfo(name={self.name!r}, shape={self.shape}, dtype={self.dtype.__name__})"


class InferSession:
    """ais_bench's signature: InferSession(device_id, model_path, acl_json_path=None,
    debug=False, loop=1). acl_json_path is aclInit's configuration (dump, profiler) when this
    session initialises pyACL; loop runs each infer() that many times (the last outputs are
    returned, every run is timed); dynamic_output_bytes sizes the buffers of outputs whose
    size is known only at run time (ais_bench's custom_sizes / --outputSize)."""

    def __init__(self, device_id, model_path, acl_json_path=None, debug=False, loop=1,
                 dynamic_output_bytes=64 << 20):
        global _initialised, _we_initialised
        if not isinstance(dynamic_output_bytes, int) or dynamic_output_bytes < 1:
            raise ValueError(f"dynamic_output_bytes must be a positive int, "
                             f"not {dynamic_output_bytes!r}")
        if not isinstance(loop, int) or loop < 1:
            raise ValueError(f"loop must be an int >= 1, not {loop!r}")
        self.loop, self.debug = loop, bool(debug)
        if _initialised == 0:
            ret = acl.init(acl_json_path or "")
            if ret == 100002 and acl_json_path:
                warnings.warn(f"pyACL was initialised by the application already: "
                              f"{acl_json_path} is not applied", stacklevel=2)
            if ret not in (0, 100002):  # already initialised by the application is fine
                _check(ret, f"aclInit({acl_json_path or ''})")
            _we_initialised = ret == 0
        elif acl_json_path:
            warnings.warn(f"pyACL is initialised already: {acl_json_path} is not applied",
                          stacklevel=2)
        _initialised += 1
        self.device_id = device_id
        _check(acl.rt.set_device(device_id), "aclrtSetDevice")
        self.model_id, ret = acl.mdl.load_from_file(model_path)
        _check(ret, f"aclmdlLoadFromFile({model_path})")
        self.desc = acl.mdl.create_desc()
        _check(acl.mdl.get_desc(self.desc, self.model_id), "aclmdlGetDesc")
        self._dynamic_output_bytes = dynamic_output_bytes
        all_inputs = [self._info(i, True) for i in range(acl.mdl.get_num_inputs(self.desc))]
        # A model with gears has the extra gear input: the session fills it.
        self._gear_index = next((i for i, t in enumerate(all_inputs) if t.name == _DYNAMIC_NAME), None)
        self._gear_mode = None
        if self._gear_index is not None:
            batch, _ = acl.mdl.get_dynamic_batch(self.desc)
            hw, _ = acl.mdl.get_dynamic_hw(self.desc, -1)
            self._gear_mode = "batch" if batch["batchCount"] else "hw" if hw["hwCount"] else "dims"
        self._data_index = [i for i in range(len(all_inputs)) if i != self._gear_index]
        # Static AIPP on YUV420SP images: the stored image is H * 3/2 rows of W bytes.
        self._yuv420_rows = set()
        for i in self._data_index:
            kind, _, ret = acl.mdl.get_aipp_type(self.model_id, i)
            if ret == 0 and kind == _STATIC_AIPP:
                info, ret = acl.mdl.get_first_aipp_info(self.model_id, i)
                if ret == 0 and info.get("input_format") == _AIPP_YUV420SP_U8:
                    self._yuv420_rows.add(i)
        self._all_inputs = all_inputs
        # The shapes arrays are checked against: CANN reports a YUV420SP image as [N, H, W, C]
        # (aclmdlGetInputDims), while its buffer holds H * 3/2 rows.
        self._stored_shape = [list(t.shape) for t in all_inputs]
        for i in self._yuv420_rows:
            shape = self._stored_shape[i]
            if len(shape) == 4 and shape[1] > 0:
                shape[1] = shape[1] * 3 // 2
        self._inputs = [all_inputs[i] for i in self._data_index]
        self._outputs = [self._info(i, False) for i in range(acl.mdl.get_num_outputs(self.desc))]
        self._in_size = [t.size for t in all_inputs]
        self._in_dev = [self._malloc(t.size) for t in all_inputs]
        self._out_size = [t.size or dynamic_output_bytes for t in self._outputs]
        self._out_dev = [self._malloc(n) for n in self._out_size]
        self._in_ds, self._out_ds = acl.mdl.create_dataset(), acl.mdl.create_dataset()
        for ptr, t in zip(self._in_dev, all_inputs):
            acl.mdl.add_dataset_buffer(self._in_ds, acl.create_data_buffer(ptr, t.size))
        for ptr, t in zip(self._out_dev, self._outputs):
            acl.mdl.add_dataset_buffer(self._out_ds, acl.create_data_buffer(ptr, t.size or dynamic_output_bytes))
        self._times_ms, self._h2d_ms, self._d2h_ms = [], [], []
        self._closed = self._finalized = False
        if self.debug:
            print(f"[DEBUG] {model_path}: model id {self.model_id}, inputs {self._inputs}, "
                  f"outputs {self._outputs}" + (f", gears by {self._gear_mode}"
                                                if self._gear_mode else ""))

    def _info(self, i, is_input):
        get_dims = acl.mdl.get_input_dims if is_input else acl.mdl.get_output_dims
        dims, ret = get_dims(self.desc, i)
        _check(ret, "get dims")
        dtype = (acl.mdl.get_input_data_type if is_input else acl.mdl.get_output_data_type)(self.desc, i)
        size = (acl.mdl.get_input_size_by_index if is_input else acl.mdl.get_output_size_by_index)(self.desc, i)
        return TensorInfo(dims["name"], list(dims["dims"]), _ACL_TO_NUMPY[dtype], size, dtype)

    @staticmethod
    def _malloc(size):
        ptr, ret = acl.rt.malloc(max(size, 1), 0)
        _check(ret, "aclrtMalloc")
        return ptr

    def get_inputs(self):
        return list(self._inputs)

    def get_outputs(self):
        return list(self._outputs)

    def stored_rows(self, k, height):
        """The rows data input k holds for an image `height` high: H * 3/2 for a YUV420SP
        image that static AIPP reads, else H."""
        return height * 3 // 2 if self._data_index[k] in self._yuv420_rows else height

    def default_shapes(self):
        """A runnable shape per input: the first gear, or 1 for fully dynamic dims."""
        shapes = [list(t.shape) for t in self._inputs]
        if self._gear_mode == "batch":
            first = acl.mdl.get_dynamic_batch(self.desc)[0]["batch"][0]
            shapes = [[first if k == 0 and d < 0 else d for k, d in enumerate(s)] for s in shapes]
        elif self._gear_mode == "hw":
            h, w = acl.mdl.get_dynamic_hw(self.desc, -1)[0]["hw"][0]
            for s, i in zip(shapes, self._data_index):
                if any(d < 0 for d in s):
                    nhwc = acl.mdl.get_input_format(self.desc, i) == _FORMAT_NHWC
                    s[1 if nhwc else 2], s[2 if nhwc else 3] = h, w
        elif self._gear_mode == "dims":
            count, _ = acl.mdl.get_input_dynamic_gear_count(self.desc, -1)
            flat = acl.mdl.get_input_dynamic_dims(self.desc, -1, count)[0][0]["dims"]
            k = 0
            for s in shapes:
                s[:] = flat[k:k + len(s)]
                k += len(s)
        return [[1 if d < 0 else d for d in s] for s in shapes]

    def _place(self, i, arr):
        """Copies one input to its device buffer, growing it for fully dynamic inputs."""
        info = self._all_inputs[i]
        dynamic = any(d < 0 for d in info.shape)
        if not dynamic and arr.nbytes != info.size:
            raise ValueError(f"input {info.name!r} needs shape {info.shape} "
                             f"({info.size} bytes), got {arr.shape}")
        stored = self._stored_shape[i]
        if len(arr.shape) != len(stored) or any(
                d >= 0 and d != a for d, a in zip(stored, arr.shape)):
            raise ValueError(f"input {info.name!r} has shape {stored}, got {arr.shape}")
        if arr.nbytes > self._in_size[i]:
            if self._gear_index is not None:
                raise ValueError(f"input {info.name!r}: shape {arr.shape} is larger than the "
                                 f"model's largest gear")
            acl.rt.free(self._in_dev[i])
            self._in_dev[i] = self._malloc(arr.nbytes)
            self._in_size[i] = arr.nbytes
            _check(acl.update_data_buffer(acl.mdl.get_dataset_buffer(self._in_ds, i),
                                          self._in_dev[i], arr.nbytes), "aclUpdateDataBuffer")
        if arr.nbytes:
            _check(acl.rt.memcpy(self._in_dev[i], self._in_size[i], acl.util.numpy_to_ptr(arr),
                                 arr.nbytes, _H2D), "memcpy")
        if dynamic and self._gear_index is None:
            desc = acl.create_tensor_desc(acl.mdl.get_input_data_type(self.desc, i),
                                          list(arr.shape), acl.mdl.get_input_format(self.desc, i))
            ret = acl.mdl.set_dataset_tensor_desc(self._in_ds, desc, i)
            acl.destroy_tensor_desc(desc)
            _check(ret, "aclmdlSetDatasetTensorDesc")

    def _set_gear(self, arrays):
        """Chooses the compiled gear that matches the arrays' shapes."""
        first = next(((a, i) for a, i in zip(arrays, self._data_index)
                      if any(d < 0 for d in self._all_inputs[i].shape)), None)
        if first is None:
            return
        arr, i = first
        if self._gear_mode == "batch":
            ret = acl.mdl.set_dynamic_batch_size(self.model_id, self._in_ds, self._gear_index,
                                                 arr.shape[0])
        elif self._gear_mode == "hw":
            nhwc = acl.mdl.get_input_format(self.desc, i) == _FORMAT_NHWC
            h, w = (arr.shape[1], arr.shape[2]) if nhwc else (arr.shape[2], arr.shape[3])
            if i in self._yuv420_rows:  # the image's rows: luma, then half as many of chroma
                if h % 3:
                    raise ValueError(f"input {self._all_inputs[i].name!r} is a YUV420SP image "
                                     f"(H * 3/2 rows); {h} rows is not one")
                h = h * 2 // 3
            ret = acl.mdl.set_dynamic_hw_size(self.model_id, self._in_ds, self._gear_index, h, w)
        else:
            dims = [int(d) for a in arrays for d in a.shape]
            ret = acl.mdl.set_input_dynamic_dims(self.model_id, self._in_ds, self._gear_index,
                                                 {"name": "", "dimCount": len(dims), "dims": dims})
        _check(ret, f"set gear for shapes {[a.shape for a in arrays]}")

    def _feeds_to_list(self, feeds):
        """A list of arrays in input order from a list/tuple, a dict by input name, or one array
        (for a one-input model)."""
        names = [info.name for info in self._inputs]
        if isinstance(feeds, np.ndarray):
            if len(self._inputs) != 1:
                raise ValueError(f"infer() got one array, but the model has {len(self._inputs)} "
                                 f"inputs {names}: pass a list in that order or a dict by name")
            return [feeds]
        if isinstance(feeds, dict):
            unknown = sorted(set(feeds) - set(names))
            missing = [n for n in names if n not in feeds]
            if unknown or missing:
                raise ValueError(f"infer() inputs by name: the model's are {names}"
                                 + (f"; unknown {unknown}" if unknown else "")
                                 + (f"; missing {missing}" if missing else ""))
            return [feeds[n] for n in names]
        if isinstance(feeds, (list, tuple)):
            if len(feeds) != len(self._inputs):
                raise ValueError(f"the model has {len(self._inputs)} inputs {names}, got "
                                 f"{len(feeds)} arrays")
            return list(feeds)
        raise TypeError(f"infer() takes a list of arrays, a dict by input name or one array, "
                        f"not {type(feeds).__name__}")

    _MODES = {"static": None, "dymbatch": "batch", "dymhw": "hw", "dymdims": "dims",
              "dymshape": "shape"}

    def _check_mode(self, mode):
        if mode not in self._MODES:
            raise ValueError(f"mode {mode!r}: ais_bench's modes are {sorted(self._MODES)}")
        want = self._MODES[mode]
        have = self._gear_mode or ("shape" if any(
            d < 0 for t in self._inputs for d in t.shape) else None)
        # static runs any model at the shapes given; the others must name the model's kind.
        if want is not None and want != have:
            raise ValueError(f"mode {mode!r} does not fit this model (it has "
                             f"{have + ' gears' if have in ('batch', 'hw', 'dims') else 'dynamic shapes' if have else 'static shapes'})")

    def infer(self, feeds, mode="static", custom_sizes=None, out_array=True):
        """Runs the model; feeds: a list of arrays (input order), a dict {input name: array},
        or one array for a one-input model. Returns a list of arrays. An array of another
        dtype than the input's is converted, with a warning when values may change.
        mode and custom_sizes are ais_bench's: the mode must fit the model, and outputs of
        dynamic-shape models must fit custom_sizes bytes (an int, or a list per output)."""
        if not out_array:
            raise ValueError("out_array=False (device tensors) is not supported by OpenCANN's "
                             "InferSession: outputs come back as numpy arrays")
        self._check_mode(mode)
        if custom_sizes is not None:
            self._size_outputs(custom_sizes)
        results = self._infer_once(feeds)
        for _ in range(self.loop - 1):
            results = self._infer_once(feeds)
        return results

    def _size_outputs(self, custom_sizes):
        """ais_bench's custom_sizes: the bytes each output of unknown size may take (an int
        for all, or a list per output); their device buffers are made that size."""
        sizes = list(custom_sizes) if isinstance(custom_sizes, (list, tuple)) else \
            [custom_sizes] * len(self._outputs)
        if len(sizes) < len(self._outputs) or any(
                not isinstance(n, int) or n < 1 for n in sizes[:len(self._outputs)]):
            raise ValueError(f"custom_sizes {custom_sizes!r}: a positive int, or one per output "
                             f"({len(self._outputs)})")
        for k, (info, n) in enumerate(zip(self._outputs, sizes)):
            if info.size or n == self._out_size[k]:
                continue  # known-size outputs keep their buffers
            acl.rt.free(self._out_dev[k])
            self._out_dev[k] = self._malloc(n)
            self._out_size[k] = n
            _check(acl.update_data_buffer(acl.mdl.get_dataset_buffer(self._out_ds, k),
                                          self._out_dev[k], n), "aclUpdateDataBuffer")

    def _infer_once(self, feeds):
        if self._closed:
            raise RuntimeError("the session is closed (free_resource() was called); create a "
                               "new InferSession")
        feeds = self._feeds_to_list(feeds)
        arrays = []
        for arr, info in zip(feeds, self._inputs):
            arr = np.asarray(arr)
            if info.acl_dtype == _ACL_BF16:  # float values become bfloat16 bit patterns
                if np.issubdtype(arr.dtype, np.floating):
                    arrays.append(_to_bfloat16_bits(arr))
                    continue
                if arr.dtype not in (np.uint16, np.int16):
                    raise ValueError(f"input {info.name!r} is bfloat16: pass floats or their "
                                     f"16-bit patterns as uint16/int16, not {arr.dtype}")
                arrays.append(np.ascontiguousarray(arr).view(np.uint16))
                continue
            if arr.dtype != info.dtype and not np.can_cast(arr.dtype, info.dtype, "safe"):
                warnings.warn(f"input {info.name!r}: {arr.dtype} converted to {np.dtype(info.dtype)} "
                              f"(values may change)", stacklevel=2)
            arrays.append(np.ascontiguousarray(arr, dtype=info.dtype))
        copy_start = time.perf_counter()
        for arr, i in zip(arrays, self._data_index):
            self._place(i, arr)
        self._h2d_ms.append((time.perf_counter() - copy_start) * 1000)
        if self._gear_index is not None:
            self._set_gear(arrays)
        start = time.perf_counter()
        _check(acl.mdl.execute(self.model_id, self._in_ds, self._out_ds), "aclmdlExecute")
        self._times_ms.append((time.perf_counter() - start) * 1000)
        results = []
        copy_start = time.perf_counter()
        for i, (info, ptr) in enumerate(zip(self._outputs, self._out_dev)):
            # The shape this execution produced, from the output dataset's description.
            desc = acl.mdl.get_dataset_tensor_desc(self._out_ds, i)
            if desc:
                shape = [acl.get_tensor_desc_dim_v2(desc, k)[0]
                         for k in range(acl.get_tensor_desc_num_dims(desc))]
            else:
                dims, ret = acl.mdl.get_cur_output_dims(self.desc, i)
                _check(ret, "aclmdlGetCurOutputDims")
                shape = dims["dims"]
            host = np.empty(shape, dtype=info.dtype)
            if host.nbytes:
                _check(acl.rt.memcpy(acl.util.numpy_to_ptr(host), host.nbytes, ptr, host.nbytes, _D2H), "memcpy")
            results.append(host)
        self._d2h_ms.append((time.perf_counter() - copy_start) * 1000)
        if self.debug:
            print(f"[DEBUG] infer: inputs {[a.shape for a in arrays]}, outputs "
                  f"{[r.shape for r in results]}, execute {self._times_ms[-1]:.3f} ms")
        return results

    def run(self, feeds, out_array=True):
        """ais_bench's low-level run: one execution of the feeds as given."""
        return self.infer(feeds, out_array=out_array)

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

    def finalize(self):
        """ais_bench's finalize: frees the session, releases its device and, with the last
        session of a process that this module initialised, finalizes pyACL (which writes the
        profiler's files)."""
        global _initialised, _we_initialised
        self.free_resource()
        if self._finalized:
            return
        self._finalized = True
        acl.rt.reset_device(self.device_id)
        _initialised -= 1
        if _initialised == 0 and _we_initialised:
            _we_initialised = False
            acl.finalize()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.free_resource()


def _main(argv=None):
    """python3 -m acl_infer: ais_bench's command line (acl_infer_cli.py)."""
    import acl_infer_cli
    return acl_infer_cli.main(argv)


if __name__ == "__main__":
    raise SystemExit(_main())
