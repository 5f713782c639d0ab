"""The AscendCL misuse run (tests/c/acl_misuse.c) for ctest and the sanitizer builds: a static
convolution model and the same with batch gears, compiled with this build's atc, then every
public function misused (bad handles, sizes and memory included); no torch needed.

    /usr/bin/python3 tests/c/run_misuse.py --build build
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_stress import models  # noqa: E402  (the same ONNX models)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    with tempfile.TemporaryDirectory() as work:
        path = dict(models(work))["stress_conv"]
        oms = []
        for stem, flags in (("static", []),
                            ("gears", ["--input_shape=x:-1,3,8,8", "--dynamic_batch_size=1,2,4"])):
            out = os.path.join(work, stem)
            r = subprocess.run([os.path.join(build, "bin", "atc"), f"--model={path}",
                                "--framework=5", f"--output={out}", "--soc_version=Ascend910B3",
                                *flags], capture_output=True, text=True)
            if r.returncode != 0:
                print(r.stdout + r.stderr)
                return 1
            oms.append(out + ".om")
        try:
            r = subprocess.run([os.path.join(build, "tests", "oc_acl_misuse"), *oms],
                               capture_output=True, text=True, timeout=1200, cwd=work)
        except subprocess.TimeoutExpired:
            print("oc_acl_misuse: no answer in 1200 s")
            return 1
        last = (r.stdout.strip().splitlines() or ["(no output)"])[-1]
        ok = r.returncode == 0 and "Sanitizer" not in r.stderr and ", 0 failures" in last
        print(f"{'ok  ' if ok else 'FAIL'} oc_acl_misuse: {last}")
        if not ok:
            print(r.stdout[-6000:])
            print(r.stderr[-6000:])
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
