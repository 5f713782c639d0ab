"""Reads gpu2npu's JSON report for several projects and sets each verdict beside the seed's
decision tree. Run: python3 read_verdict.py REPORT.json [REPORT.json ...]"""
import json
import sys

# The seed's tree (section 4), branch by branch: what it says for each kind of project.
TREE = {
    "standard_model": "standard model, device strings only -> low cost",
    "custom_cuda_kernel": "custom CUDA kernels -> rewrite in Ascend C, or adopt a community port",
    "nvidia_library": "NVIDIA libraries -> an Ascend counterpart, or not advised without one",
    "torch_compile": "torch.compile / Triton on the main path -> an NPU backend or eager mode",
    "training_framework": "a training framework on GPUs -> its NPU accelerator",
}
print(f"{'project':<18}{'verdict':<13}{'person-days':<13}branch of the tree")
for path in sys.argv[1:]:
    r = json.load(open(path))
    v, e = r["verdict"], r["estimate"]
    project = r["root"].rstrip("/").split("/")[-1]
    branch = TREE.get(v["branch"], v["branch"])
    days = f"{e['low_days']:g}-{e['high_days']:g}"
    print(f"{project:<18}{v['level']:<13}{days:<13}{branch}")
    print(f"{'':<18}because: {v['reason']}")
