"""atc's command line: modes, messages, error codes, and bad input."""
import json
import os

import pytest

from conftest import atc, run, tool
from make_onnx import tiny_mlp, unsupported_op

FAILED = "ATC run failed, Please check the detail log, Try 'atc --help' for more information"


def build(tmp_path, *extra, model=None):
    model = model or tiny_mlp(tmp_path / "mlp.onnx")
    return atc(f"--model={model}", "--framework=5", f"--output={tmp_path / 'out'}",
               "--soc_version=Ascend910B3", *extra)


def assert_failed(r, code, tmp_path=None):
    assert r.returncode != 0
    assert r.stdout.splitlines()[0] == "ATC start working now, please wait for a moment."
    assert FAILED in r.stdout, r.stdout
    assert f"{code}:" in r.stdout, r.stdout
    if tmp_path is not None:  # never a partial .om
        assert not [f for f in os.listdir(tmp_path) if f.startswith("out")], os.listdir(tmp_path)


def test_space_separated_and_single_dash_flags(tmp_path):
    m = tiny_mlp(tmp_path / "mlp.onnx")
    r = atc("--model", m, "-framework=5", "--output", str(tmp_path / "o"), "--soc_version",
            "Ascend310P3")
    assert r.returncode == 0, r.stdout
    assert (tmp_path / "o.om").exists()


def test_mode1_json_and_mode6_info(tmp_path):
    assert build(tmp_path).returncode == 0
    om = str(tmp_path / "out.om")
    r = atc("--mode=1", f"--om={om}", f"--json={tmp_path / 'm.json'}")
    assert r.returncode == 0, r.stdout
    doc = json.loads((tmp_path / "m.json").read_text())
    ops = doc["graph"][0]["op"]
    types = [o["type"] for o in ops]
    assert types[0] == "Data" and types[-1] == "NetOutput" and "Const" in types
    keys = {a["key"] for a in doc["attr"]}
    assert "atc_cmdline" in keys and "soc_version" in keys
    const = next(o for o in ops if o["type"] == "Const")
    value = next(a for a in const["attr"] if a["key"] == "value")["value"]
    assert value["t"]["desc"]["dtype"] == "DT_FLOAT"
    assert "data_offset" not in value["t"]["desc"]  # left out, as GE's dump does
    r = atc("--mode=6", f"--om={om}")
    assert r.returncode == 0
    assert "input    info: name[x], dtype[DT_FLOAT], format[ND], shape[1,4]" in r.stdout
    assert "soc_version[Ascend910B3]" in r.stdout


def test_mode3_precheck_writes_report(tmp_path):
    m = unsupported_op(tmp_path / "bad.onnx")
    report = tmp_path / "check.json"
    r = atc("--mode=3", f"--model={m}", "--framework=5", "--soc_version=Ascend910B3",
            f"--check_report={report}")
    assert r.returncode != 0
    doc = json.loads(report.read_text())
    assert doc["result"] == "failed" and "FancyOp" in doc["detail"]


def test_mode3_precheck_checks_what_mode0_builds(tmp_path):
    """The pre-check runs the same flag checks and compilation as a build, gears included."""
    m = tiny_mlp(tmp_path / "mlp.onnx", dynamic=True)
    report = tmp_path / "check.json"
    common = ["--mode=3", f"--model={m}", "--framework=5", "--soc_version=Ascend910B3",
              f"--check_report={report}"]
    for flags in (["--input_shape=x:-1,4", "--dynamic_batch_size=1,8"],
                  ["--input_shape=x:1~8,4"], ["--input_shape=x:2,4"]):
        r = atc(*common, *flags)
        assert r.returncode == 0, r.stdout
        assert json.loads(report.read_text())["result"] == "success"
    r = atc(*common, "--input_shape=x:-1,4", "--dynamic_batch_size=8")
    assert r.returncode != 0 and "E10001" in r.stdout
    doc = json.loads(report.read_text())
    assert doc["result"] == "failed" and "number of gears" in doc["detail"]
    assert not list(tmp_path.glob("*.om"))


@pytest.mark.parametrize("args,code", [
    (["--framework=7"], "E10007"),
    (["--soc_version=Ascend999"], "E10001"),
    (["--input_shape=x:1;4"], "E10002"),
    (["--input_shape=x1,4"], "E10002"),
    (["--input_shape=x:-5,4"], "E10011"),
    (["--input_shape=nope:1,4"], "E10016"),
    (["--input_shape=x:1,5"], "E10001"),
    (["--input_format=NCWH"], "E10001"),
    (["--log=loud"], "E10010"),
    (["--no_such_flag=1"], "E10001"),
    (["--precision_mode=fastest"], "E10001"),
])
def test_bad_flags(tmp_path, args, code):
    assert_failed(build(tmp_path, *args), code, tmp_path)


def test_missing_required_flags(tmp_path):
    m = tiny_mlp(tmp_path / "mlp.onnx")
    assert_failed(atc(f"--model={m}", f"--output={tmp_path / 'out'}", "--soc_version=Ascend910B3"),
                  "E10007", tmp_path)
    assert_failed(atc(f"--model={m}", "--framework=5", "--soc_version=Ascend910B3"), "E10004")
    assert_failed(atc("--framework=5", f"--output={tmp_path / 'out'}", "--soc_version=Ascend910B3"),
                  "E10004", tmp_path)


def test_bad_models(tmp_path):
    assert_failed(build(tmp_path, model=str(tmp_path / "missing.onnx")), "E10001", tmp_path)
    (tmp_path / "adir.onnx").mkdir()
    assert_failed(build(tmp_path, model=str(tmp_path / "adir.onnx")), "E10001", tmp_path)
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"this is not a protobuf \xff\xfe" * 50)
    assert_failed(build(tmp_path, model=str(junk)), "E19005", tmp_path)
    r = build(tmp_path, model=unsupported_op(tmp_path / "bad.onnx"))
    assert_failed(r, "EZ3003", tmp_path)
    assert "[my_fancy_node]" in r.stdout and "FancyOp" in r.stdout


def test_dynamic_model_needs_input_shape(tmp_path):
    m = tiny_mlp(tmp_path / "dyn.onnx", dynamic=True)
    r = build(tmp_path, model=m)
    assert_failed(r, "E10001", tmp_path)
    assert "--input_shape" in r.stdout
    assert build(tmp_path, "--input_shape=x:8,4", model=m).returncode == 0


def test_output_not_overwritten_on_failure(tmp_path):
    assert build(tmp_path).returncode == 0
    before = (tmp_path / "out.om").read_bytes()
    r = build(tmp_path, "--input_shape=x:1,9")
    assert r.returncode != 0
    assert (tmp_path / "out.om").read_bytes() == before


def test_fusion_switch_file_turns_passes_off(tmp_path):
    sw = tmp_path / "switch.cfg"
    sw.write_text("FuseMatMulBiasActivation:off\n")
    assert build(tmp_path, f"--fusion_switch_file={sw}").returncode == 0
    r = atc("--mode=1", f"--om={tmp_path / 'out.om'}", f"--json={tmp_path / 'm.json'}")
    types = [o["type"] for o in json.loads((tmp_path / "m.json").read_text())["graph"][0]["op"]]
    assert "Add" in types and "Relu" in types


def test_help():
    r = run([tool("atc"), "--help"])
    assert r.returncode == 0 and "--input_shape" in r.stdout


def test_ops_doc_is_current():
    r = run([tool("oc_ops_table")])
    from conftest import SOURCE
    with open(os.path.join(SOURCE, "docs", "ops.md")) as f:
        assert f.read() == r.stdout, "regenerate with build/bin/oc_ops_table > docs/ops.md"


def test_lying_initializer_is_rejected_without_allocating(tmp_path):
    """An initializer whose dims promise 4 PB but hold no data: a clean error, no OOM."""
    import onnx
    from onnx import TensorProto, helper
    big = TensorProto(name="w", data_type=TensorProto.FLOAT)
    big.dims.extend([1_000_000, 1_000_000, 1000])
    big.raw_data = b"\0" * 4
    g = helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"])], "lie",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])], [big])
    path = tmp_path / "lie.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), str(path))
    r = build(tmp_path, model=str(path))
    assert_failed(r, "E19005", tmp_path)
    assert "implausible" in r.stdout or "holds 0 values" in r.stdout
