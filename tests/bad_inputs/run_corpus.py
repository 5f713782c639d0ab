"""Runs every bad input through the real tool and checks what it must do.

    /usr/bin/python3 tests/bad_inputs/run_corpus.py --build build [--only om] [-v]

For each case in cases.json: the tool exits with an error status (never a signal, never past
its time limit), prints the expected code, prints no sanitizer report, and leaves no output
file or folder behind. With a sanitizer build (--build build-asan) the same run is the
corpus under ASan+UBSan. Exit status 0 when every case holds.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TIMEOUT_S = 120
SANITIZER = re.compile(r"ERROR: (Address|Leak|Undefined|Thread)Sanitizer|runtime error:")


def command(c, tool_dir, work):
    path = os.path.join(HERE, c["file"])
    tool = c["tool"]
    if tool == "atc":
        return [os.path.join(tool_dir, "atc"), f"--model={path}", "--framework=5",
                f"--output={os.path.join(work, 'out')}", "--soc_version=Ascend910B3"]
    if tool == "atc_caffe":
        return [os.path.join(tool_dir, "atc"), f"--model={path}",
                f"--weight={os.path.join(HERE, c['weight'])}", "--framework=0",
                f"--output={os.path.join(work, 'out')}", "--soc_version=Ascend910B3"]
    if tool == "atc_air":
        return [os.path.join(tool_dir, "atc"), f"--model={path}", "--framework=1",
                f"--output={os.path.join(work, 'out')}", "--soc_version=Ascend910B3"]
    if tool == "atc_tf":
        return [os.path.join(tool_dir, "atc"), f"--model={path}", "--framework=3",
                f"--output={os.path.join(work, 'out')}", "--soc_version=Ascend910B3"]
    if tool == "atc_json":
        return [os.path.join(tool_dir, "atc"), "--mode=1", f"--om={path}",
                f"--json={os.path.join(work, 'out.json')}"]
    if tool == "msame":
        return [os.path.join(tool_dir, "msame"), "--model", path, "--output",
                os.path.join(work, "out")]
    if tool == "atc_flags":
        with open(path, encoding="utf-8", errors="surrogateescape") as fh:
            args = [a for a in fh.read().split("\n") if a]
        return [os.path.join(tool_dir, "atc"), *args]
    if tool == "msopgen":
        return [os.path.join(tool_dir, "msopgen"), "gen", "-i", path, "-c",
                "ai_core-Ascend910B3", "-lan", "cpp", "-out", os.path.join(work, "proj")]
    if tool == "gpu2npu":
        return [os.path.join(tool_dir, "gpu2npu"), "analyse", path, "--format", "json", "-o",
                os.path.join(work, "report.json")]
    raise ValueError(f"unknown tool {tool}")


def check(c, tool_dir):
    """Returns (ok, detail)."""
    with tempfile.TemporaryDirectory() as work:
        cmd = command(c, tool_dir, work)
        env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
                   UBSAN_OPTIONS="print_stacktrace=1")
        try:
            r = subprocess.run(cmd, cwd=work, capture_output=True, timeout=TIMEOUT_S, env=env)
        except subprocess.TimeoutExpired:
            return False, f"no answer within {TIMEOUT_S} s (a hang)"
        log = (r.stdout + r.stderr).decode("utf-8", "replace")
        left = sorted(os.listdir(work))
        if r.returncode < 0:
            return False, f"killed by signal {-r.returncode}\n{log[-1500:]}"
        if SANITIZER.search(log):
            return False, "sanitizer report\n" + log[-3000:]
        tool, code = c["tool"], c["code"]
        if tool in ("msopgen", "gpu2npu"):
            if str(r.returncode) != code:
                return False, f"exit {r.returncode}, expected {code}\n{log[-1500:]}"
            if tool == "msopgen" and left:
                return False, f"left behind: {left}"
            if tool == "gpu2npu":
                if code == "2" and left:
                    return False, f"an error that left a report: {left}"
                if code != "2":
                    try:
                        with open(os.path.join(work, "report.json")) as fh:
                            json.load(fh)
                    except (OSError, ValueError) as e:
                        return False, f"no valid report: {e}"
            return True, ""
        if r.returncode != 1:
            return False, f"exit {r.returncode}, expected 1\n{log[-1500:]}"
        wanted = f"error code: {code}" if tool == "msame" else f"{code}:"
        if wanted not in log:
            return False, f"expected {wanted!r}\n" + "\n".join(l for l in log.splitlines() if re.search(r"E[0-9A-Z]{5}|error code", l))[-1500:]
        produced = [f for f in left if f not in ("fusion_result.json",)]
        if tool == "msame" and os.path.isdir(os.path.join(work, "out")):
            produced = [p for p in produced if p != "out"] + os.listdir(os.path.join(work, "out"))
        if produced:
            return False, f"left behind: {produced}"
        return True, ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--only", help="run the cases of one tool")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("-v", action="store_true", help="list every case")
    a = ap.parse_args()
    with open(os.path.join(HERE, "cases.json")) as fh:
        cases = json.load(fh)
    if a.only:
        cases = [c for c in cases if c["tool"] == a.only]
    tool_dir = os.path.join(os.path.abspath(a.build), "bin")
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = list(pool.map(lambda c: check(c, tool_dir), cases))
    failed = 0
    for c, (ok, detail) in zip(cases, results):
        if not ok:
            failed += 1
            print(f"FAIL {c['tool']:9} {c['file']}: {c['why']}\n  {detail.strip()}\n")
        elif a.v:
            print(f"ok   {c['tool']:9} {c['file']} -> {c['code']}")
    files = len({c["file"] for c in cases})
    print(f"bad inputs: {len(cases) - failed} of {len(cases)} cases hold ({files} files)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
