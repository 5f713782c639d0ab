"""Tutorial 3, profiling: what msame --profiler true wrote, read back.
Run: python3 read_profile.py msame_out/profiler"""
import csv
import glob
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "msame_out/profiler"
statistic = glob.glob(os.path.join(root, "PROF_*", "op_statistic_*.csv"))[0]
trace_path = glob.glob(os.path.join(root, "PROF_*", "trace_*.json"))[0]

with open(statistic, newline="") as f:
    rows = sorted(csv.DictReader(f), key=lambda r: -float(r["Total Time(us)"]))
print(f"{'op type':<14}{'count':>7}{'total us':>12}{'share':>8}")
for r in rows[:5]:
    print(f"{r['OP Type']:<14}{r['Count']:>7}{float(r['Total Time(us)']):>12.0f}"
          f"{float(r['Ratio(%)']):>7.1f}%")

with open(trace_path) as f:
    events = json.load(f)["traceEvents"]
ops = [e for e in events if e.get("ph") == "X" and e.get("cat") != "memcpy"]
copies = [e for e in events if e.get("cat") == "memcpy"]
print(f"{os.path.basename(trace_path)}: {len(ops)} op events and {len(copies)} copies; "
      "open it in chrome://tracing or https://ui.perfetto.dev")
assert rows and ops and copies
