#!/usr/bin/env python3
"""Runs the tutorials of docs/tutorials/ end to end against a build, as a reader would.

  run_tutorials.py [--build build] [--only 1,3] [--render]

Installs the build into <work>/prefix, copies each tutorial's folder to <work>/NN, runs its
run.sh (the page's commands, in order, with checks) and fails on the first tutorial that does
not end with "tutorial N: OK". Before that it checks that the pages and the scripts agree:
every file a page shows is the file here, and every command a page shows is in run.sh, in
the page's order. --render also turns each page into HTML and loads it in headless Chromium,
checking that its code blocks and tables render, and loads tutorial 3's compare report."""
import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent.parent
PAGES = SOURCE / "docs" / "tutorials"
FOLDERS = {1: "01_hello_npu", 2: "02_architecture", 3: "03_pytorch", 4: "04_frameworks",
           5: "05_advanced", 6: "06_video_analysis"}
FENCE = re.compile(r"(?:<!-- file: (?P<file>[^ ]+) -->\n)?```(?P<lang>[a-z]*)\n(?P<body>.*?)```",
                   re.S)


def page_of(n):
    found = sorted(PAGES.glob(f"{n:02d}-*.md"))
    if len(found) != 1:
        raise SystemExit(f"tutorial {n}: expected one page docs/tutorials/{n:02d}-*.md, "
                         f"found {len(found)}")
    return found[0]


def commands(text):
    """The command lines of a bash block, continuation lines joined, comments dropped."""
    out, pending = [], ""
    for line in text.splitlines():
        line = line.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1].strip() + " "
            continue
        out.append((pending + line).strip())
        pending = ""
    return out


def check_page(n):
    """Problems with page n against its folder; an empty list when they agree."""
    page, folder = page_of(n), HERE / FOLDERS[n]
    text = page.read_text()
    script = commands((folder / "run.sh").read_text())
    problems, position = [], 0
    for m in FENCE.finditer(text):
        if m.group("file"):
            path = folder / m.group("file")
            if not path.exists():
                problems.append(f"{page.name} shows {m.group('file')}, which is not in {folder}")
            elif path.read_text().rstrip("\n") != m.group("body").rstrip("\n"):
                problems.append(f"{page.name}: the block of {m.group('file')} differs from "
                                f"the file; paste the file again")
        elif m.group("lang") == "bash":
            for cmd in commands(m.group("body")):
                found = next((i for i in range(position, len(script)) if cmd in script[i]),
                             None)
                if found is not None:
                    position = found + 1
                else:
                    problems.append(f"{page.name}: `{cmd}` is not in {folder.name}/run.sh "
                                    "after the commands before it")
    if not text.startswith("# "):
        problems.append(f"{page.name} has no title")
    if "You will be able to" not in text.split("\n## ", 1)[0]:
        problems.append(f"{page.name} does not start with what the reader will be able to do")
    if "What the NPU would do differently" not in text:
        problems.append(f"{page.name} lacks the section 'What the NPU would do differently'")
    return problems


def run_tutorial(n, prefix, work):
    where = work / FOLDERS[n]
    shutil.rmtree(where, ignore_errors=True)
    shutil.copytree(HERE / FOLDERS[n], where)
    env = dict(os.environ, OPENCANN_ROOT=str(prefix), OPENCANN_SOURCE=str(SOURCE),
               PATH="/usr/bin:/bin:" + os.environ.get("PATH", ""))
    for var in ("PYTHONPATH", "LD_LIBRARY_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_OPP_PATH",
                "OCANN_SOC"):
        env.pop(var, None)  # a reader's fresh shell: set_env.sh sets what is needed
    r = subprocess.run(["bash", "run.sh"], cwd=where, env=env, capture_output=True, text=True,
                       timeout=1200)
    (where / "log.txt").write_text(r.stdout + r.stderr)
    ok = r.returncode == 0 and f"tutorial {n}: OK" in r.stdout
    if not ok:
        print((r.stdout + r.stderr)[-4000:])
    return ok


def render(ns, work):
    """Each page as HTML, loaded in headless Chromium; what rendered is counted from the DOM."""
    try:
        import markdown  # Debian's python3-markdown (make tutorials installs it)
    except ImportError:
        print("--render needs python3-markdown: apt install python3-markdown (make tutorials "
              "installs it)")
        return False
    out = work / "html"
    out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    ok = True
    report = work / FOLDERS[3] / "compare_fp16" / "compare_report.html"
    for page in (page_of(n) for n in ns):
        text = page.read_text()
        html = markdown.markdown(text, extensions=["fenced_code", "tables"])
        doc = out / (page.stem + ".html")
        doc.write_text("<!doctype html><meta charset=utf-8><title>" + page.stem + "</title>"
                       "<style>body{max-width:60em;margin:auto;font-family:sans-serif}"
                       "pre{background:#f4f4f4;padding:.5em;overflow:auto}</style>" + html)
        dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                              "--dump-dom", doc.as_uri()], capture_output=True, text=True,
                             timeout=120).stdout
        fences = len(FENCE.findall(text))
        has_table = re.search(r"^\|( *:?-+:? *\|)+ *$", text, re.M) is not None
        got_pre, got_tables = dom.count("<pre>"), dom.count("<table>")
        good = got_pre == fences and (got_tables >= 1 or not has_table)
        print(f"{page.name}: {got_pre} code blocks of {fences}, {got_tables} tables rendered"
              + ("" if good else "  <- WRONG"))
        ok &= good
    first = page_of(ns[0]).stem
    shot = out / (first + ".png")
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                    f"--screenshot={shot}", "--window-size=1200,1600",
                    (out / (first + ".html")).as_uri()],
                   capture_output=True, timeout=120)
    print(f"screenshot: {shot} ({shot.stat().st_size if shot.exists() else 0} bytes)")
    ok &= shot.exists() and shot.stat().st_size > 10000
    if report.exists():
        dom = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                              "--dump-dom", report.as_uri()], capture_output=True, text=True,
                             timeout=120).stdout
        plots = dom.count("<svg")
        print(f"tutorial 3's compare report: {plots} plot(s) rendered")
        ok &= plots >= 1
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--work", help="folder for the install and the runs (default BUILD/tutorials)")
    ap.add_argument("--only", help="comma-separated tutorial numbers (default all)")
    ap.add_argument("--render", action="store_true", help="render the pages in Chromium")
    args = ap.parse_args()
    ns = sorted(int(x) for x in args.only.split(",")) if args.only else sorted(FOLDERS)
    build = Path(args.build).resolve()
    work = Path(args.work).resolve() if args.work else build / "tutorials"
    problems = [p for n in sorted(FOLDERS) for p in check_page(n)]
    for p in problems:
        print("page/script mismatch:", p)
    if problems:
        return 1
    print(f"pages and scripts agree ({len(FOLDERS)} tutorials)")
    prefix = work / "prefix"
    r = subprocess.run(["cmake", "--install", str(build), "--prefix", str(prefix)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout + r.stderr)
        return 1
    failed = []
    for n in ns:
        ok = run_tutorial(n, prefix, work)
        print(f"tutorial {n} ({FOLDERS[n]}): {'OK' if ok else 'FAILED'}"
              f"  log: {work / FOLDERS[n] / 'log.txt'}")
        if not ok:
            failed.append(n)
    if args.render and not failed and not render(ns, work):
        failed.append("render")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
