"""Reads the emulation's cost reports (OCANN_ASCENDC_REPORT_DIR) and states what they show.
Run: python3 read_costs.py reports"""
import json
import sys
from pathlib import Path

reports = Path(sys.argv[1] if len(sys.argv) > 1 else "reports")


def cost(kernel):
    return json.loads((reports / f"{kernel}_cost.json").read_text())


single, double = cost("add_single_buffer"), cost("add_double_buffer")
gain = 1 - double["cycles"] / single["cycles"]
print(f"single buffer: {single['cycles']} cycles, bound by {single['bound']}")
print(f"double buffer: {double['cycles']} cycles, bound by {double['bound']}")
print(f"double buffering saves {gain:.0%}: MTE2 copies the next tile while Vector computes")
assert gain > 0.15, "double buffering should overlap the copy-in with the compute"

conflict, spread = cost("add_bank_conflict"), cost("add_bank_spread")
vc, vs = conflict["pipes"]["Vector"]["cycles"], spread["pipes"]["Vector"]["cycles"]
print(f"x and y in the same UB bank groups: Vector {vc} cycles; 256 bytes apart: {vs} cycles")
print(f"the bank conflict costs {vc / vs:.1f}x on the Vector pipe")
assert vc == 2 * vs, "each repeat of the conflicting Add reads two rows from every bank group"

trace = json.loads((reports / "add_double_buffer_trace.json").read_text())
events = trace["traceEvents"] if isinstance(trace, dict) else trace
print(f"add_double_buffer_trace.json: {len(events)} events; open it in https://ui.perfetto.dev")
