"""ONNX Runtime as ocann-compare's reference (ocann-compare --reference onnxruntime).

    python3 ocann_ort_reference.py MODEL.onnx OUT_DIR IN0.npy [IN1.npy ...]

Exposes every float tensor the model computes as an output, runs it once under ONNX
Runtime (CPU, graph optimisations off so no value is fused away) and writes OUT_DIR/index.json
({"tensors": [{"name", "op", "op_type", "file"}...]}) with one .npy per tensor. ONNX Runtime
is the Python `onnxruntime` module when installed, else `onnxruntime-node` through Node.js
(ORT_NODE_MODULE, or the copy ../shared/peers/ort-bench installs under ~/.cache/ort-peer).
Exit status 3 when neither is there, 1 on any other failure, with the reason on stderr.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, shape_inference

FLOAT_TYPES = {TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.DOUBLE}

# A tiny Node.js runner: raw little-endian inputs in, raw outputs out, described in JSON.
NODE_RUNNER = r"""
const fs = require('fs');
const ort = require(process.env.ORT_NODE_MODULE);
const spec = JSON.parse(fs.readFileSync(process.argv[2]));
const arrays = {float32: Float32Array, float64: Float64Array, int64: BigInt64Array,
                int32: Int32Array, uint8: Uint8Array, int8: Int8Array, bool: Uint8Array,
                float16: Uint16Array};
(async () => {
  const s = await ort.InferenceSession.create(spec.model, {graphOptimizationLevel: 'disabled',
                                                           intraOpNumThreads: 1});
  const feeds = {};
  for (const i of spec.inputs) {
    const b = fs.readFileSync(i.file);
    const A = arrays[i.dtype];
    const data = new A(b.buffer, b.byteOffset, b.byteLength / A.BYTES_PER_ELEMENT);
    feeds[i.name] = new ort.Tensor(i.dtype, data, i.shape);
  }
  const out = await s.run(feeds);
  const written = [];
  let k = 0;
  for (const name of Object.keys(out)) {
    const t = out[name];
    const file = `${spec.out}/raw_${k++}.bin`;
    fs.writeFileSync(file, Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
    written.push({name, dtype: t.type, shape: t.dims, file});
  }
  fs.writeFileSync(`${spec.out}/raw.json`, JSON.stringify(written));
})().catch(e => { console.error(e.message); process.exit(1); });
"""


def fail(msg, code=1):
    print(f"ocann_ort_reference: {msg}", file=sys.stderr)
    sys.exit(code)


def node_module():
    path = os.environ.get("ORT_NODE_MODULE") or os.path.expanduser(
        os.path.join(os.environ.get("ORT_PEER_DIR", "~/.cache/ort-peer"), "node_modules",
                     "onnxruntime-node"))
    if shutil.which("node") and os.path.isfile(os.path.join(path, "package.json")):
        return path
    return None


def expose_everything(model):
    """The model with every float value a node computes added to its outputs."""
    inferred = shape_inference.infer_shapes(model)
    types = {v.name: v for v in list(inferred.graph.value_info) + list(inferred.graph.output)}
    have = {o.name for o in model.graph.output}
    producers = {}
    for node in model.graph.node:
        for out in node.output:
            if not out:
                continue
            producers[out] = node
            v = types.get(out)
            if out in have or v is None or v.type.tensor_type.elem_type not in FLOAT_TYPES:
                continue
            model.graph.output.append(helper.make_value_info(out, v.type))
            have.add(out)
    return model, producers


def run_python_ort(path, feeds):
    import onnxruntime
    opts = onnxruntime.SessionOptions()
    opts.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_DISABLE_ALL
    s = onnxruntime.InferenceSession(path, opts, providers=["CPUExecutionProvider"])
    names = [o.name for o in s.get_outputs()]
    return dict(zip(names, s.run(names, feeds)))


def run_node_ort(path, feeds, module, work):
    spec = {"model": path, "out": work, "inputs": []}
    for i, (name, arr) in enumerate(feeds.items()):
        f = os.path.join(work, f"in_{i}.bin")
        np.ascontiguousarray(arr).tofile(f)
        spec["inputs"].append({"name": name, "dtype": str(arr.dtype), "shape": list(arr.shape),
                               "file": f})
    with open(os.path.join(work, "spec.json"), "w") as f:
        json.dump(spec, f)
    with open(os.path.join(work, "run.js"), "w") as f:
        f.write(NODE_RUNNER)
    r = subprocess.run(["node", os.path.join(work, "run.js"), os.path.join(work, "spec.json")],
                       capture_output=True, text=True, env=dict(os.environ, ORT_NODE_MODULE=module),
                       timeout=1800)
    if r.returncode != 0:
        fail("onnxruntime-node failed: " + r.stderr.strip())
    with open(os.path.join(work, "raw.json")) as f:
        written = json.load(f)
    out = {}
    for w in written:
        dtype = {"float16": np.float16}.get(w["dtype"], w["dtype"])
        out[w["name"]] = np.fromfile(w["file"], dtype=dtype).reshape(w["shape"])
    return out


def main(argv):
    if len(argv) < 3:
        fail("usage: ocann_ort_reference.py MODEL.onnx OUT_DIR IN0.npy [IN1.npy ...]", 2)
    model_path, out_dir, input_files = argv[0], argv[1], argv[2:]
    try:
        import onnxruntime  # noqa: F401
        engine = "python"
    except ImportError:
        engine = "node" if node_module() else None
    if engine is None:
        fail("ONNX Runtime is not available: install the Python module onnxruntime, or "
             "onnxruntime-node for Node.js (set ORT_NODE_MODULE to its folder)", 3)
    try:
        model = onnx.load(model_path)
    except Exception as e:  # a malformed file is a clear error, not a traceback
        fail(f"cannot read {model_path}: {e}")
    model, producers = expose_everything(model)
    inputs = [i for i in model.graph.input
              if i.name not in {t.name for t in model.graph.initializer}]
    if len(inputs) != len(input_files):
        fail(f"the model has {len(inputs)} inputs, {len(input_files)} files given")
    feeds = {i.name: np.load(f) for i, f in zip(inputs, input_files)}
    os.makedirs(out_dir, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        exposed = os.path.join(work, "exposed.onnx")
        onnx.save(model, exposed)
        if engine == "python":
            results = run_python_ort(exposed, feeds)
        else:
            results = run_node_ort(exposed, feeds, node_module(), work)
    index = []
    for k, (name, arr) in enumerate(results.items()):
        node = producers.get(name)
        file = f"t{k}.npy"
        np.save(os.path.join(out_dir, file), np.asarray(arr))
        index.append({"name": name, "op": node.name if node else "",
                      "op_type": node.op_type if node else "", "file": file})
    with open(os.path.join(out_dir, "index.json"), "w") as f:
        json.dump({"engine": "onnxruntime (" + engine + ")", "tensors": index}, f)


if __name__ == "__main__":
    main(sys.argv[1:])
