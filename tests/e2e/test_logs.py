"""Logs as CANN writes them: plog files under ASCEND_PROCESS_LOG_PATH (or ~/ascend/log) at
debug/plog/plog-<pid>_<timestamp>.log, levels from ASCEND_GLOBAL_LOG_LEVEL, echo to stdout
with ASCEND_SLOG_PRINT_TO_STDOUT, and atc naming the file it wrote."""
import glob
import os
import re
import subprocess
import sys

from conftest import BUILD, tool
from make_onnx import tiny_mlp

LINE = re.compile(r"^\[(ERROR|WARNING|INFO|DEBUG)\] (ATC|ASCENDCL)\((\d+),([^)]*)\):"
                  r"\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3} \[[\w.]+:\d+\]")


def atc(env, *args):
    return subprocess.run([tool("atc"), *args], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, **env))


def plogs(root):
    return sorted(glob.glob(os.path.join(root, "debug", "plog", "plog-*_*.log")))


def test_atc_failure_writes_a_plog_and_names_it(tmp_path):
    root = tmp_path / "log"
    r = atc({"ASCEND_PROCESS_LOG_PATH": str(root)}, "--mode=6", f"--om={tmp_path}/none.om")
    assert r.returncode != 0
    files = plogs(root)
    assert len(files) == 1 and re.search(r"plog-\d+_\d{17}\.log$", files[0]), files
    assert f"The detail log: {files[0]}" in r.stdout
    lines = open(files[0]).read().splitlines()
    assert lines and all(LINE.match(l) for l in lines), lines
    assert "[ERROR] ATC(" in lines[0] and "none.om" in lines[0]


def test_levels_and_stdout(tmp_path):
    m = tiny_mlp(tmp_path / "m.onnx")
    args = [f"--model={m}", "--framework=5", f"--output={tmp_path}/m", "--soc_version=Ascend910B3"]
    quiet = tmp_path / "quiet"
    assert atc({"ASCEND_PROCESS_LOG_PATH": str(quiet)}, *args).returncode == 0
    assert plogs(quiet) == []  # default ERROR: a clean run writes nothing
    info = tmp_path / "info"
    assert atc({"ASCEND_PROCESS_LOG_PATH": str(info), "ASCEND_GLOBAL_LOG_LEVEL": "1"},
               *args).returncode == 0
    text = open(plogs(info)[0]).read()
    assert "[INFO] ATC(" in text and "pass " in text
    none = tmp_path / "none"
    r = atc({"ASCEND_PROCESS_LOG_PATH": str(none), "ASCEND_GLOBAL_LOG_LEVEL": "4"},
            "--mode=6", f"--om={tmp_path}/none.om")
    assert r.returncode != 0 and plogs(none) == [] and "The detail log" not in r.stdout
    out = tmp_path / "out"
    r = atc({"ASCEND_PROCESS_LOG_PATH": str(out), "ASCEND_SLOG_PRINT_TO_STDOUT": "1"},
            "--mode=6", f"--om={tmp_path}/none.om")
    assert plogs(out) == [] and any(LINE.match(l) for l in r.stdout.splitlines()), r.stdout


def test_ascendcl_errors_reach_the_plog(tmp_path):
    root = tmp_path / "log"
    code = "import acl; acl.init(); print(acl.mdl.destroy_dataset(424242)); acl.finalize()"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, ASCEND_PROCESS_LOG_PATH=str(root),
                                PYTHONPATH=os.path.join(BUILD, "python")))
    assert r.returncode == 0 and r.stdout.strip() == "100000", r.stdout + r.stderr
    text = open(plogs(root)[0]).read()
    assert "[ERROR] ASCENDCL(" in text and "not a live aclmdlDataset" in text


def test_application_log_goes_to_the_plog(tmp_path):
    """acl.app_log / ACL_APP_LOG (acllite logs through it): the plog at its level, with the
    calling function and file, as CANN's."""
    root = tmp_path / "log"
    code = ("import acl\n"
            "def create_model():\n"
            "    acl.app_log(3, 'model path is bad')\n"
            "    acl.app_log(1, 'info, below the default level')\n"
            "create_model()\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, ASCEND_PROCESS_LOG_PATH=str(root),
                                PYTHONPATH=os.path.join(BUILD, "python")))
    assert r.returncode == 0, r.stderr
    text = open(plogs(root)[0]).read()
    assert "[ERROR] ASCENDCL(" in text and "create_model: model path is bad" in text, text
    assert "below the default level" not in text
    assert "<string>:3]" in text, text
