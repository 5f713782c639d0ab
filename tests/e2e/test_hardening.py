"""Sizes no machine holds are refused by name, before anything allocates: at atc (input
shapes, shapes computed from them, CPU kernel limits), and at execution (a dynamic input
whose description overflows). No crash, no output file left behind."""
import os

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from conftest import atc, run, tool
from test_acl_dynamic import Session

ACL_ERROR_INVALID_PARAM = 100000


def mlp(tmp_path):
    w = numpy_helper.from_array(np.ones((4, 3), np.float32), "w")
    g = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [w])
    path = str(tmp_path / "mlp.onnx")
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), path)
    return path


@pytest.mark.parametrize("shape, code, words", [
    ("x:4611686018427387904,4", "E10001", "more elements than 2^64"),
    ("x:1099511627776,4", "E10001", "OCANN_MAX_TENSOR_BYTES"),
    ("x:4294967296,4", "EZ3003", "at most 2^31-1 elements"),
])
def test_oversized_shapes_are_refused_at_atc(tmp_path, shape, code, words):
    r = atc(f"--model={mlp(tmp_path)}", "--framework=5", f"--output={tmp_path / 'out'}",
            "--soc_version=Ascend910B3", f"--input_shape={shape}")
    log = r.stdout + r.stderr
    assert r.returncode == 1, log  # an error exit, not a signal
    assert code in log and words in log, log
    assert not (tmp_path / "out.om").exists()


@pytest.mark.parametrize("name", ["OCANN_MAX_TENSOR_BYTES", "OC_MAX_TENSOR_BYTES"])
def test_the_bound_is_set_by_name(tmp_path, name):
    """A lower bound refuses a 16 KiB input; the old name still works, with a one-line
    deprecation warning through the log."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("MAX_TENSOR_BYTES")}
    env.update({name: "1024", "OCANN_LOG_LEVEL": "warning"})
    r = run([tool("atc"), f"--model={mlp(tmp_path)}", "--framework=5",
             f"--output={tmp_path / 'out'}", "--soc_version=Ascend910B3", "--input_shape=x:1024,4"],
            env=env)
    log = r.stdout + r.stderr
    assert r.returncode == 1, log
    assert "E10001" in log and "more than 1024 bytes" in log, log
    assert "OCANN_MAX_TENSOR_BYTES to change it" in log, log
    warnings = [line for line in log.splitlines() if "OC_MAX_TENSOR_BYTES is deprecated" in line]
    assert len(warnings) == (name == "OC_MAX_TENSOR_BYTES"), log
    assert not (tmp_path / "out.om").exists()


def test_shape_computed_too_large_is_refused(tmp_path):
    """A shape that only inference finds too large (Expand to 2^40 x 2^40)."""
    big = numpy_helper.from_array(np.array([1 << 40, 1 << 40], np.int64), "big")
    g = helper.make_graph([helper.make_node("Expand", ["x", "big"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [big])
    path = str(tmp_path / "expand.onnx")
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), path)
    r = atc(f"--model={path}", "--framework=5", f"--output={tmp_path / 'out'}",
            "--soc_version=Ascend910B3")
    log = r.stdout + r.stderr
    assert r.returncode == 1, log
    assert "E19005" in log and "[y]" in log and "more elements" in log, log
    assert not (tmp_path / "out.om").exists()


def test_dynamic_input_whose_shape_overflows_is_refused(acl_session, tmp_path):
    acl = acl_session
    out = tmp_path / "dyn"
    r = atc(f"--model={mlp(tmp_path)}", "--framework=5", f"--output={out}",
            "--soc_version=Ascend910B3", "--input_shape=x:-1,4")
    assert r.returncode == 0, r.stdout + r.stderr
    s = Session(acl, str(out) + ".om")
    try:
        # More bytes than 2^63: no description is made of it (aclCreateTensorDesc's null).
        assert acl.create_tensor_desc(0, [1 << 62, 4], 0) == 0
        for shape in ([1 << 40, 4], [1 << 58, 4]):
            td = acl.create_tensor_desc(0, shape, 0)
            assert acl.mdl.set_dataset_tensor_desc(s.in_ds, td, 0) == 0
            acl.destroy_tensor_desc(td)
            assert acl.mdl.execute(s.id, s.in_ds, s.out_ds) == ACL_ERROR_INVALID_PARAM, shape
        # A shape that fits still runs after the refusals.
        td = acl.create_tensor_desc(0, [2, 4], 0)
        assert acl.mdl.set_dataset_tensor_desc(s.in_ds, td, 0) == 0
        acl.destroy_tensor_desc(td)
        s.put(0, np.ones((2, 4), np.float32))
        assert acl.mdl.execute(s.id, s.in_ds, s.out_ds) == 0
        np.testing.assert_array_equal(s.get(0, (2, 3)), np.full((2, 3), 4.0, np.float32))
    finally:
        s.close()


def test_memset_is_bounded_by_the_allocation(acl_session):
    acl = acl_session
    dev, ret = acl.rt.malloc(64, 0)
    assert ret == 0
    try:
        assert acl.rt.memset(dev, 64, 7, 64) == 0
        # maxCount beyond the allocation, a pointer into its middle asking for too much,
        # and memory that is not OpenCANN's at all.
        assert acl.rt.memset(dev, 1 << 20, 7, 128) == ACL_ERROR_INVALID_PARAM
        assert acl.rt.memset(dev + 32, 64, 7, 64) == ACL_ERROR_INVALID_PARAM
        host = np.zeros(64, np.uint8)
        assert acl.rt.memset(acl.util.numpy_to_ptr(host), 64, 7, 64) == ACL_ERROR_INVALID_PARAM
        assert not host.any()
        assert acl.rt.memset(dev + 32, 32, 9, 32) == 0
        out = np.zeros(64, np.uint8)
        assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), 64, dev, 64, 2) == 0
        assert list(out[:32]) == [7] * 32 and list(out[32:]) == [9] * 32
    finally:
        acl.rt.free(dev)


def test_destroying_an_event_and_a_stream_with_work_queued(acl_session):
    """A blocking callback nobody processes holds the stream; an event record waits behind
    it. Destroying the event frees it once the record is reached (no use after free), and
    destroying the stream lets the callback go instead of deadlocking."""
    import threading
    acl = acl_session
    assert acl.rt.set_device(0) == 0  # this thread's default context (earlier tests may change it)
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    assert acl.rt.subscribe_report(threading.get_ident(), stream) == 0
    assert acl.rt.launch_callback(lambda d: None, None, 1, stream) == 0  # ACL_CALLBACK_BLOCK
    event, ret = acl.rt.create_event()
    assert ret == 0
    assert acl.rt.record_event(event, stream) == 0
    assert acl.rt.destroy_event(event) == 0
    assert acl.rt.destroy_event(event) == ACL_ERROR_INVALID_PARAM  # gone for the application
    done = []
    context, ret = acl.rt.get_context()
    assert ret == 0

    def destroy():
        acl.rt.set_context(context)
        done.append(acl.rt.destroy_stream(stream))
    t = threading.Thread(target=destroy)
    t.start()
    t.join(20)
    assert done == [0], "aclrtDestroyStream did not return"
    acl.rt.process_report(50)  # the callback stays queued for its report thread


def test_malloc_of_an_impossible_size_fails(acl_session):
    acl = acl_session
    for size in ((1 << 64) - 1, (1 << 64) - 32):
        ptr, ret = acl.rt.malloc(size, 0)
        assert ret != 0 and not ptr, size


def test_contradiction_no_size_resolves_is_reported_at_atc(tmp_path):
    """With a dynamic batch the node is settled at run time, but a check that fails for
    every size tried is reported when converting, and fails cleanly at execution."""
    pads = numpy_helper.from_array(np.array([1, 1, 1], np.int64), "p")
    g = helper.make_graph([helper.make_node("Pad", ["x", "p"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 2])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [pads])
    path = str(tmp_path / "pad.onnx")
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), path)
    r = atc(f"--model={path}", "--framework=5", f"--output={tmp_path / 'pad'}",
            "--soc_version=Ascend910B3", "--input_shape=x:-1,2", "--log=warning")
    log = r.stdout + r.stderr
    assert r.returncode == 0, log
    assert "[Pad_0] (Pad) fits none of the sizes tried" in log and "pads length" in log, log


def test_external_data_through_a_link_out_of_the_folder_is_refused(tmp_path):
    """A link inside the model's folder that points outside it is not followed: converting
    an untrusted model must not copy a file of this machine into the .om. A link that stays
    inside the folder is fine."""
    secret = tmp_path / "secret.bin"
    np.arange(12, dtype=np.float32).tofile(secret)
    model_dir = tmp_path / "model"
    model_dir.mkdir()
    w = TensorProto()
    w.name, w.data_type = "w", TensorProto.FLOAT
    w.dims.extend([4, 3])
    w.data_location = TensorProto.EXTERNAL
    for k, v in (("location", "w.bin"), ("offset", "0"), ("length", "48")):
        e = w.external_data.add()
        e.key, e.value = k, v
    g = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])], [w])
    path = model_dir / "m.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    os.symlink(secret, model_dir / "w.bin")
    r = atc(f"--model={path}", "--framework=5", f"--output={tmp_path / 'out'}",
            "--soc_version=Ascend310P3")
    assert r.returncode != 0, r.stdout
    assert "resolves outside the model's folder" in r.stdout + r.stderr, r.stdout + r.stderr
    assert not (tmp_path / "out.om").exists()
    # The same bytes inside the folder, reached through a link that stays inside: accepted.
    os.unlink(model_dir / "w.bin")
    np.arange(12, dtype=np.float32).tofile(model_dir / "real.bin")
    os.symlink("real.bin", model_dir / "w.bin")
    r = atc(f"--model={path}", "--framework=5", f"--output={tmp_path / 'ok'}",
            "--soc_version=Ascend310P3")
    assert r.returncode == 0, r.stdout + r.stderr


def convert(tmp_path, model, name, *extra):
    path = str(tmp_path / f"{name}.onnx")
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    return atc(f"--model={path}", "--framework=5", f"--output={tmp_path / name}",
               "--soc_version=Ascend310P3", *extra)


def if_model(then_nodes, then_out="t", then_out_shape=(2,)):
    then_g = helper.make_graph(then_nodes, "then", [],
                               [helper.make_tensor_value_info(then_out, TensorProto.FLOAT,
                                                              list(then_out_shape))])
    else_g = helper.make_graph([helper.make_node("Identity", ["x"], ["e"])], "else", [],
                               [helper.make_tensor_value_info("e", TensorProto.FLOAT, [2])])
    node = helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)
    g = helper.make_graph([node], "g",
                          [helper.make_tensor_value_info("c", TensorProto.BOOL, []),
                           helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def lstm_model(w_input_size):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 1, 3])
    w = numpy_helper.from_array(np.zeros((1, 16, w_input_size), np.float32), "w")
    r = numpy_helper.from_array(np.zeros((1, 16, 4), np.float32), "r")
    node = helper.make_node("LSTM", ["x", "w", "r"], ["y"], hidden_size=4)
    g = helper.make_graph([node], "g", [x],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)], [w, r])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def test_omitted_required_input_inside_a_branch_is_refused_at_atc(tmp_path):
    """Add("", x) inside an If branch: atc once accepted it and the runtime crashed."""
    model = if_model([helper.make_node("Add", ["", "x"], ["t"])])
    r = convert(tmp_path, model, "branch")
    log = r.stdout + r.stderr
    assert r.returncode != 0, log
    assert "omits input 0" in log, log
    assert not (tmp_path / "branch.om").exists()


def test_lstm_whose_input_size_contradicts_its_weights_is_refused(tmp_path):
    r = convert(tmp_path, lstm_model(5), "lstm")
    log = r.stdout + r.stderr
    assert r.returncode != 0, log
    assert "W is [1,16,5], expected [1,16,3]" in log, log
    assert not (tmp_path / "lstm.om").exists()
    # The consistent model converts and runs.
    r = convert(tmp_path, lstm_model(3), "lstm_ok")
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("case", ["unknown_op_in_branch", "huge_dim_in_branch", "invalid_utf8"])
def test_what_atc_writes_the_runtime_loads(tmp_path, case):
    """Models atc once wrote and the runtime then refused: atc now refuses them itself (or
    writes an .om that loads), and never leaves an .om that does not load."""
    if case == "unknown_op_in_branch":
        model = if_model([helper.make_node("NoSuchOp", ["x"], ["t"])])
    elif case == "huge_dim_in_branch":
        model = if_model([helper.make_node("Identity", ["x"], ["t"])],
                         then_out_shape=(1 << 40,))
    else:
        model = if_model([helper.make_node("Identity", ["x"], ["t"])])
        model.graph.node[0].name = "bad\xff"  # protobuf keeps it: ONNX is proto2
        raw = model.SerializeToString().replace("bad\xff".encode(), b"bad\xff\xfe")
        model = onnx.ModelProto()
        model.ParseFromString(raw)
    r = convert(tmp_path, model, case)
    om = tmp_path / f"{case}.om"
    if r.returncode == 0:
        # Whatever atc writes must load and run.
        from test_acl_dynamic import Session  # noqa: F401  (same loader as applications)
        out = run([tool("msame"), f"--model={om}", f"--output={tmp_path / 'o'}"])
        assert out.returncode == 0, out.stdout + out.stderr
    else:
        assert not om.exists()
        assert "Traceback" not in r.stderr and "Sanitizer" not in r.stderr, r.stderr


REGRESSIONS = os.path.join(os.path.dirname(__file__), "..", "..", "fuzz", "regressions",
                           "onnx_import")


@pytest.mark.parametrize("name", sorted(os.listdir(REGRESSIONS)))
def test_fuzz_regressions_through_the_tools(tmp_path, name):
    """Every ONNX input that once crashed a harness or the tool campaign
    (fuzz/tool_campaign.py) goes through atc, and whatever atc writes through msame: a clean
    refusal or a run, never a crash (variadic ops with an omitted input, empty strides, a
    blocksize whose square overflowed, ...)."""
    r = atc(f"--model={os.path.join(REGRESSIONS, name)}", "--framework=5",
            f"--output={tmp_path / 'm'}", "--soc_version=Ascend310P3")
    assert r.returncode in (0, 1), (r.returncode, r.stdout + r.stderr)
    if r.returncode == 0:
        out = run([tool("msame"), f"--model={tmp_path / 'm.om'}", f"--output={tmp_path / 'o'}"])
        assert out.returncode in (0, 1), (out.returncode, out.stdout + out.stderr)
        assert "load model" not in out.stdout or "failed" not in out.stdout, out.stdout
    else:
        assert not (tmp_path / "m.om").exists()


def loop_model(trips):
    """v -> Loop(M=trips) { v + 1 } -> y: a constant trip count, as a model from elsewhere
    may carry (2^62 is a model that runs for ever)."""
    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Add", ["v_in", "one"], ["v_out"])], "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_in", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_out", TensorProto.FLOAT, [2])],
        [numpy_helper.from_array(np.ones(2, np.float32), "one")])
    g = helper.make_graph(
        [helper.make_node("Loop", ["m", "", "v"], ["y"], body=body)], "g",
        [helper.make_tensor_value_info("v", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
        [numpy_helper.from_array(np.array(trips, np.int64), "m")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def test_loop_iterations_are_bounded_by_configuration(tmp_path):
    """OCANN_MAX_LOOP_ITERATIONS turns a Loop that would run for ever into an error naming
    the node; under the bound the loop runs and computes."""
    for name, trips in (("endless", 1 << 62), ("short", 5)):
        r = convert(tmp_path, loop_model(trips), name)
        assert r.returncode == 0, r.stdout + r.stderr
    env = dict(os.environ, OCANN_MAX_LOOP_ITERATIONS="100", ASCEND_SLOG_PRINT_TO_STDOUT="1")
    # The carried value's shape is known only at run time: msame is told its size.
    out = run([tool("msame"), f"--model={tmp_path / 'endless.om'}",
               f"--output={tmp_path / 'o1'}", "--outputSize=8"], env=env)
    log = out.stdout + out.stderr
    assert "model execute failed" in log, log
    assert "the loop ran 100 iterations, the bound (OCANN_MAX_LOOP_ITERATIONS" in log, log
    np.zeros(2, np.float32).tofile(tmp_path / "v.bin")
    out = run([tool("msame"), f"--model={tmp_path / 'short.om'}", f"--input={tmp_path / 'v.bin'}",
               f"--output={tmp_path / 'o2'}", "--outfmt=BIN", "--outputSize=8"], env=env)
    assert out.returncode == 0, out.stdout + out.stderr
    y = [p for p in (tmp_path / "o2").rglob("*.bin")]
    assert len(y) == 1, y
    np.testing.assert_array_equal(np.fromfile(y[0], np.float32), np.full(2, 5, np.float32))


@pytest.mark.parametrize("op", ["Add", "Sub", "Mul", "Div", "Mod"])
def test_integer_arithmetic_wraps_as_numpy_does(tmp_path, op):
    """int32 overflow wraps (two's complement) as in ONNX Runtime and numpy, never undefined
    behaviour: a fuzzed TensorFlow graph overflowed Add and MatMul under UBSan."""
    lo, hi = np.iinfo(np.int32).min, np.iinfo(np.int32).max
    a = np.array([hi, lo, 1635124580, -7, lo, 9], np.int32)
    b = np.array([1, -1, 1635124580, 3, -1, -4], np.int32)
    node = helper.make_node(op, ["a", "b"], ["y"])
    g = helper.make_graph([node], "g",
                          [helper.make_tensor_value_info(n, TensorProto.INT32, [6]) for n in "ab"],
                          [helper.make_tensor_value_info("y", TensorProto.INT32, [6])])
    r = convert(tmp_path, helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), op)
    assert r.returncode == 0, r.stdout + r.stderr
    a.tofile(tmp_path / "a.bin")
    b.tofile(tmp_path / "b.bin")
    out = run([tool("msame"), f"--model={tmp_path / op}.om",
               f"--input={tmp_path / 'a.bin'},{tmp_path / 'b.bin'}",
               f"--output={tmp_path / 'o'}", "--outfmt=BIN"])
    assert out.returncode == 0, out.stdout + out.stderr
    y = np.fromfile(next((tmp_path / "o").rglob("*.bin")), np.int32)
    with np.errstate(over="ignore", divide="ignore"):
        if op == "Div":  # ONNX integer Div truncates toward zero
            want = np.array([int(np.int64(x) / np.int64(d)) if d else 0 for x, d in zip(a, b)],
                            np.int64).astype(np.int32)
        elif op == "Mod":  # fmod=0: the sign of the divisor, as numpy's %
            want = np.array([x % d if d != -1 else 0 for x, d in zip(a.tolist(), b.tolist())],
                            np.int64).astype(np.int32)
        else:
            want = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply}[op](a, b)
    np.testing.assert_array_equal(y, want)


def nested_scan_model(depth, steps):
    """x[steps, ..., steps, 2] summed by `depth` nested Scans: steps^depth body runs from a
    model of a few hundred bytes."""
    def scan_of(inner, rank):
        xs = helper.make_tensor_value_info("x_t", TensorProto.FLOAT, None)
        return helper.make_graph(
            inner, f"body{rank}",
            [helper.make_tensor_value_info("s_in", TensorProto.FLOAT, [2]), xs],
            [helper.make_tensor_value_info("s_out", TensorProto.FLOAT, [2])])
    body = scan_of([helper.make_node("Add", ["s_in", "x_t"], ["s_out"])], 0)
    for level in range(1, depth):
        body = scan_of([helper.make_node("Scan", ["s_in", "x_t"], ["s_out"], body=body,
                                         num_scan_inputs=1)], level)
    g = helper.make_graph(
        [helper.make_node("Scan", ["s", "x"], ["y"], body=body, num_scan_inputs=1)], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [steps] * depth + [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
        [numpy_helper.from_array(np.zeros(2, np.float32), "s")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def test_nested_scan_bodies_count_together(tmp_path):
    """Three nested Scans of 8 steps are 512 body runs: over a bound of 100 the execution
    fails naming the bound, under it the sum is computed."""
    r = convert(tmp_path, nested_scan_model(3, 8), "nested")
    assert r.returncode == 0, r.stdout + r.stderr
    x = np.arange(8 * 8 * 8 * 2, dtype=np.float32).reshape(8, 8, 8, 2)
    x.tofile(tmp_path / "x.bin")
    args = [tool("msame"), f"--model={tmp_path / 'nested.om'}", f"--input={tmp_path / 'x.bin'}",
            "--outfmt=BIN", "--outputSize=8"]
    out = run(args + [f"--output={tmp_path / 'o1'}"],
              env=dict(os.environ, OCANN_MAX_LOOP_ITERATIONS="100",
                       ASCEND_SLOG_PRINT_TO_STDOUT="1"))
    assert "the loop ran 100 iterations, the bound (OCANN_MAX_LOOP_ITERATIONS; nested" in \
        out.stdout + out.stderr, out.stdout + out.stderr
    out = run(args + [f"--output={tmp_path / 'o2'}"],
              env=dict(os.environ, OCANN_MAX_LOOP_ITERATIONS="600"))
    assert out.returncode == 0, out.stdout + out.stderr
    y = list((tmp_path / "o2").rglob("*.bin"))
    np.testing.assert_array_equal(np.fromfile(y[0], np.float32), x.reshape(-1, 2).sum(0))


def test_a_copy_past_a_bytes_object_is_named_as_such(acl_session, capfd):
    """CANN's samples copy get_input_size_by_index() bytes from the picture's bytes object;
    when that reads into unmapped memory the copy fails, and the message says whose bug it is."""
    acl = acl_session
    dev, ret = acl.rt.malloc(1 << 22, 0)
    assert ret == 0
    data = bytes(1000)
    ptr = acl.util.bytes_to_ptr(data=data)  # CANN's keyword name
    assert acl.rt.memcpy(dev, 1 << 22, ptr, len(data), 1) == 0
    if acl.rt.memcpy(dev, 1 << 22, ptr, 1 << 22, 1) != 0:
        assert "1000-byte object from acl.util.bytes_to_ptr" in capfd.readouterr().err
    acl.rt.free(dev)


def test_bytes_to_ptr_outlives_its_temporary(acl_session):
    """acllite's AclLiteImage.data() returns bytes_to_ptr of a temporary bytes object and
    copies from it afterwards; the pointer must stay valid (a large object is unmapped as
    soon as Python frees it)."""
    import gc
    acl = acl_session
    n = 8 << 20
    ptr = acl.util.bytes_to_ptr(bytes(range(256)) * (n // 256))
    gc.collect()
    dev, ret = acl.rt.malloc(n, 0)
    assert ret == 0
    assert acl.rt.memcpy(dev, n, ptr, n, 1) == 0
    back = np.empty(n, np.uint8)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(back), n, dev, n, 2) == 0
    assert (back[:512] == np.tile(np.arange(256, dtype=np.uint8), 2)).all()
    acl.rt.free(dev)
