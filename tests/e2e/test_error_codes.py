"""No user error is an inner error: atc's mistakes-of-the-user (missing or wrong files, folders
that do not exist, bad flag values, bad single-op JSON) fail with E10xxx/E19005/E19010 codes,
never E19999; AscendCL's parameter errors read EH0001 in aclGetRecentErrMsg. The source may
print E19999 / EH9999 in exactly one place each, for statuses that are OpenCANN's own faults."""
import os
import re

import pytest

from conftest import SOURCE, atc
from make_onnx import tiny_mlp


def cases(tmp):
    onnx = tiny_mlp(tmp / "m.onnx")
    (tmp / "fake.om").write_bytes(b"\x00" * 8)
    (tmp / "ops.json").write_text('[{"op": "Add"}]')
    return [
        ["--mode=1", f"--om={tmp}/missing.om", f"--json={tmp}/x.json"],
        ["--mode=6", f"--om={tmp}/missing.om"],
        ["--mode=6", f"--om={onnx}"],
        ["--mode=1", f"--om={onnx}", f"--json={tmp}/x.json"],
        ["--mode=6", f"--om={tmp}"],
        ["--mode=6", f"--om={tmp}/fake.om"],
        [f"--model={onnx}", "--framework=5", f"--output={tmp}/no/such/dir/m",
         "--soc_version=Ascend910B3"],
        [f"--model={tmp}/missing.onnx", "--framework=5", f"--output={tmp}/m",
         "--soc_version=Ascend910B3"],
        [f"--model={onnx}", "--framework=9", f"--output={tmp}/m", "--soc_version=Ascend910B3"],
        [f"--model={onnx}", "--framework=5", f"--output={tmp}/m", "--soc_version=Ascend999"],
        [f"--model={onnx}", "--framework=5", f"--output={tmp}/m", "--soc_version=Ascend910B3",
         "--input_shape=x:1,2,3,4,5,6"],
        [f"--singleop={tmp}/ops.json", f"--output={tmp}/ops", "--soc_version=Ascend910B3"],
        [f"--singleop={tmp}/missing.json", f"--output={tmp}/ops", "--soc_version=Ascend910B3"],
    ]


def test_user_errors_are_never_inner_errors(tmp_path):
    for args in cases(tmp_path):
        r = atc(*args)
        out = r.stdout + r.stderr
        assert r.returncode != 0, (args, out)
        assert "E19999" not in out and "Inner Error" not in out, (args, out)
        assert re.search(r"\bE1\d{4}:", out), (args, out)
        assert "        Solution: " in out, (args, out)  # CANN's advice line under the error


def test_acl_parameter_errors_read_as_user_errors(acl_session):
    acl = acl_session
    assert acl.mdl.destroy_dataset(424242) == 100000
    msg = acl.get_recent_err_msg()
    assert msg.startswith("EH0001: [100000]"), msg


def test_inner_error_codes_are_printed_in_one_place_each():
    sites = []
    for root in ("src", "tools"):
        for d, _, files in os.walk(os.path.join(SOURCE, root)):
            for f in files:
                if not f.endswith((".cpp", ".h", ".cc")):
                    continue
                path = os.path.join(d, f)
                for n, line in enumerate(open(path, encoding="utf-8"), 1):
                    if re.search(r'"E[0-9A-Z]9999|Inner Error!', line) and \
                            not line.strip().startswith("//"):
                        sites.append((os.path.relpath(path, SOURCE), line.strip()))
    files = sorted({s[0] for s in sites})
    assert files == ["src/acl/acl_core.cpp", "tools/atc/atc_main.cpp"], sites
    # atc's: the fall-through after every user category (bad model, unsupported, not found).
    text = open(os.path.join(SOURCE, "tools", "atc", "atc_main.cpp")).read()
    fail = text[text.index("int Fail(const Status& s)"):text.index("Inner Error!")]
    for category in ("kShapeMismatch", "kParseError", "kInvalidArgument", "kNotFound",
                     "kUnsupported"):
        assert category in fail, category
