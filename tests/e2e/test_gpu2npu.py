"""gpu2npu analyse: the example projects' verdicts and estimates, the Python lexer's precision
(comments, docstrings, aliases), notebooks and text files, reports, and bad input."""
import json
import os
import subprocess

import pytest

from conftest import SOURCE, tool

EXAMPLES = os.path.join(SOURCE, "examples", "migration")


def gpu2npu(*args, cwd=None):
    return subprocess.run([tool("gpu2npu"), *args], capture_output=True, text=True, timeout=120, cwd=cwd)


def analyse_json(path):
    r = gpu2npu("analyse", str(path), "--format", "json")
    assert r.returncode in (0, 1), r.stderr
    return r, json.loads(r.stdout)


@pytest.mark.parametrize("project", sorted(d for d in os.listdir(EXAMPLES)
                                           if os.path.isdir(os.path.join(EXAMPLES, d))))
def test_example_projects_get_their_expected_report(project):
    r, j = analyse_json(os.path.join(EXAMPLES, project))
    want = json.load(open(os.path.join(EXAMPLES, project, "expected.json")))
    assert r.returncode == 1  # findings exist
    assert j["verdict"]["level"] == want["verdict"]
    assert j["verdict"]["branch"] == want["deciding_branch"]
    assert [j["estimate"]["low_days"], j["estimate"]["high_days"]] == want["estimate_days"]
    assert j["workload"]["type"] == want["workload"]
    assert j["findings_by_branch"] == want["findings_by_branch"]
    assert {k["name"]: k["complexity"] for k in j["cuda_kernels"]} == want["cuda_kernels"]
    assert (len(j["not_advised"]) > 0) == want["not_advised"]
    assert j["existing_support"]["supports_ascend"] == want["supports_ascend"]
    for f in j["findings"]:
        assert {"file", "line", "column", "snippet", "branch", "severity", "counterpart", "auto",
                "usage", "covered", "port", "count"} <= set(f)
    # The verdict and estimate an experienced migration engineer gives (docs/gpu2npu.md):
    # the same verdict, and ranges that overlap.
    eng = want["engineer"]
    assert j["verdict"]["level"] == eng["verdict"], eng["why"]
    if eng["estimate_days"]:
        lo, hi = eng["estimate_days"]
        assert j["estimate"]["low_days"] <= hi and lo <= j["estimate"]["high_days"], (eng, j["estimate"])


@pytest.mark.parametrize("project", sorted(d for d in os.listdir(EXAMPLES)
                                           if os.path.isdir(os.path.join(EXAMPLES, d))))
def test_example_projects_migrate_compile_and_patch(project, tmp_path):
    """Every example migrates; the copy's Python compiles, the diff applies to the original
    with patch -p1, and migrating the copy again changes nothing."""
    import shutil
    src = os.path.join(EXAMPLES, project)
    out, check = tmp_path / "out", tmp_path / "check"
    r = gpu2npu("migrate", src, "-o", str(out))
    assert r.returncode == 0, r.stderr
    shutil.copytree(src, check)
    p = subprocess.run(["patch", "-p1", "-d", str(check), "-i", str(out / "gpu2npu_report" / "migration.diff")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    for root, _, files in os.walk(check):
        for name in files:
            rel = os.path.relpath(os.path.join(root, name), check)
            assert (out / rel).read_bytes() == (check / rel).read_bytes(), rel
            if name.endswith(".py"):
                subprocess.run(["/usr/bin/python3", "-m", "py_compile", str(out / rel)], check=True,
                               env={**os.environ, "PYTHONPYCACHEPREFIX": str(tmp_path / "pyc")})
            if name.endswith(".ipynb"):
                nb = json.loads((out / rel).read_text())
                code = "".join("".join(c["source"]) + "\n" for c in nb["cells"] if c["cell_type"] == "code")
                compile("\n".join(l for l in code.splitlines() if not l.lstrip().startswith(("!", "%"))),
                        rel, "exec")
    again = gpu2npu("migrate", str(out), "-o", str(tmp_path / "again"))
    assert again.returncode == 0 and "0 edits in 0 files" in again.stdout, again.stdout


def test_comments_docstrings_and_aliases(tmp_path):
    (tmp_path / "m.py").write_text(
        '"""Runs on .cuda() devices; set CUDA_VISIBLE_DEVICES="0"."""\n'
        "import torch.cuda as tc\n"
        "from torch import cuda\n"
        "from torch.cuda import amp as mixed\n"
        "import os\n"
        "# model.cuda() and torch.cuda.synchronize() in a comment\n"
        "tc.synchronize()\n"
        "cuda.empty_cache()\n"
        "with mixed.autocast():\n"
        "    pass\n"
        "msg = 'use the cuda device'  # a sentence, not a device string\n"
        "dev = 'cuda:1'\n"
        "x = \\\n"
        "    model.cuda()\n"
        "s = '''multi\n"
        "line .cuda() string'''\n")
    _, j = analyse_json(tmp_path / "m.py")
    found = [(f["line"], f["api"]) for f in j["findings"]]
    assert (7, "torch.cuda.synchronize") in found
    assert (8, "torch.cuda.empty_cache") in found
    assert (9, "torch.cuda.amp.autocast") in found
    assert (12, '"cuda:1"') in found
    assert (14, ".cuda()") in found
    lines = {f["line"] for f in j["findings"]}
    assert not lines & {1, 6, 11, 15, 16}, found  # docstring, comment, prose, string
    # The imports themselves are findings too (torch.cuda modules).
    assert {2, 3, 4} <= lines


def test_notebooks_requirements_docker_shell_cmake(tmp_path):
    nb = {"cells": [
        {"cell_type": "markdown", "source": ["model.cuda() in markdown"]},
        {"cell_type": "code", "source": ["!nvidia-smi\n", "import torch\n", "x = torch.ones(2).cuda()\n"]},
        {"cell_type": "code", "source": "%env CUDA_VISIBLE_DEVICES=1\n"}]}
    (tmp_path / "nb.ipynb").write_text(json.dumps(nb))
    (tmp_path / "requirements-train.txt").write_text("# comment flash-attn\nflash_attn>=2\ncupy-cuda12x\n")
    (tmp_path / "Dockerfile").write_text("FROM nvidia/cuda:12.1.0-devel-ubuntu22.04\n# nvidia-smi\n")
    (tmp_path / "launch.sh").write_text("export NCCL_IB_DISABLE=1\ntorchrun --ddp_backend nccl x.py\n")
    (tmp_path / "CMakeLists.txt").write_text("project(p LANGUAGES CXX CUDA)\nfind_package(CUDAToolkit)\n")
    _, j = analyse_json(tmp_path)
    by_file = {}
    for f in j["findings"]:
        by_file.setdefault(f["file"], []).append(f["rule"])
    assert sorted(by_file["nb.ipynb#cell2"]) == ["nvidia_smi", "tensor.cuda"]
    assert by_file["nb.ipynb#cell3"] == ["env.cuda_visible"]
    assert sorted(by_file["requirements-train.txt"]) == ["cupy", "flash_attn"]
    assert by_file["Dockerfile"] == ["docker.nvidia"]
    assert sorted(by_file["launch.sh"]) == ["dist.nccl", "env.nccl"]
    assert by_file["CMakeLists.txt"] == ["cmake.cuda"]


def test_reports_markdown_and_csv(tmp_path):
    project = os.path.join(EXAMPLES, "nvidia_libs")
    r = gpu2npu("analyse", project, "--format", "markdown", "-o", str(tmp_path / "r.md"),
                "--csv", str(tmp_path / "csv"))
    assert r.returncode == 1, r.stderr
    md = (tmp_path / "r.md").read_text()
    assert "| Verdict | **medium** cost" in md and "## Findings" in md
    for name, header in [("cuda_op_list.csv", "File,Api"),
                         ("unsupported_api.csv", "File,Start Line,End Line,OP,Tips"),
                         ("api_performance_advice.csv", "File,Start Line,End Line,OP,Tips")]:
        assert (tmp_path / "csv" / name).read_text().splitlines()[0] == header
    ops = (tmp_path / "csv" / "cuda_op_list.csv").read_text()
    assert "infer.py,flash_attn.flash_attn_func" in ops
    text = gpu2npu("analyse", project, "--no-color").stdout
    assert text.startswith("gpu2npu: ") and "\033[" not in text
    tree = gpu2npu("tree")
    assert tree.returncode == 0 and "custom_cuda_kernel" in tree.stdout


def test_bad_input_is_skipped_with_warnings(tmp_path):
    (tmp_path / "ok.py").write_text("import torch\nx = torch.zeros(1).cuda()\n")
    (tmp_path / "latin1.py").write_bytes("s = 'caf\xe9'\n".encode("latin-1"))
    (tmp_path / "blob.py").write_bytes(b"\x00\x01binary")
    (tmp_path / "broken.py").write_text("x = 'unterminated\n")
    (tmp_path / "bad.ipynb").write_text("{not json")
    (tmp_path / "big.py").write_text("x = 1\n" * (1_600_000))
    (tmp_path / "loop").mkdir()
    os.symlink(str(tmp_path), str(tmp_path / "loop" / "back"))
    os.symlink(str(tmp_path / "missing"), str(tmp_path / "dangling.py"))
    r, j = analyse_json(tmp_path)
    warnings = {w["file"]: w["message"] for w in j["warnings"]}
    assert "not UTF-8" in warnings["latin1.py"]
    assert "binary" in warnings["blob.py"]
    assert "unterminated string" in warnings["broken.py"]
    assert "not a valid notebook" in warnings["bad.ipynb"]
    assert "over the 8 MiB limit" in warnings["big.py"]
    assert "broken symlink" in warnings["dangling.py"]
    assert any("symlink loop" in m for m in warnings.values())
    assert [f["file"] for f in j["findings"]] == ["ok.py"]
    assert "latin1.py" in r.stderr  # warnings also go to stderr


def test_exit_codes(tmp_path):
    (tmp_path / "clean.py").write_text("import numpy as np\nprint(np.ones(3))\n")
    assert gpu2npu("analyse", str(tmp_path)).returncode == 0
    assert gpu2npu("analyse", str(tmp_path / "nope")).returncode == 2
    assert gpu2npu("analyse").returncode == 2
    assert gpu2npu("analyse", str(tmp_path), "--format", "pdf").returncode == 2
    assert gpu2npu("frobnicate").returncode == 2


def fit(*args):
    r = gpu2npu("fit", *args, "--format", "json")
    return r, (json.loads(r.stdout) if r.stdout else None)


def test_fit_memory_model():
    # The seed (3.3): LoRA on 7B-13B fits one 64 GB 910B3.
    for params in ("7B", "13B"):
        r, j = fit("--params", params, "--method", "lora", "--batch", "1", "--seq", "2048")
        assert r.returncode == 0 and (j["fits"] or j["fits_with_recompute"]), j
    # Full fine-tuning of 7B with Adam: 16 bytes per parameter of states alone (~100 GiB).
    r, j = fit("--params", "7B", "--method", "full", "--batch", "1", "--seq", "512")
    states = sum(p["gib"] for p in j["parts"][:3])
    assert abs(states - 6.7e9 * 16 / 2**30) < 0.5
    assert r.returncode == 1 and not j["fits_with_recompute"] and j["cards"] == 2
    # Weights alone: 70B in bf16 is ~130 GiB -> 3 cards of 64 GB hold it, but tensor
    # parallelism splits the 64 heads: 4 cards; 2 of 80 GB.
    _, j = fit("--params", "70B", "--method", "inference", "--seq", "1024")
    assert j["parts"][0]["gib"] == pytest.approx(70e9 * 2 / 2**30) and j["cards"] == 4
    assert any("divide the 64 heads" in n for n in j["notes"])
    _, j = fit("--params", "70B", "--method", "inference", "--seq", "1024", "--device", "H100")
    assert j["cards"] == 2
    # QLoRA-like: 4-bit weights, and a warning that the 4-bit library must exist on NPU.
    _, j = fit("--params", "13B", "--method", "qlora")
    assert j["parts"][0]["gib"] == pytest.approx(13e9 * 0.5 / 2**30)
    assert any("bitsandbytes" in n for n in j["notes"])
    # Recomputation trades compute for memory: never more memory than without.
    _, j = fit("--params", "7B", "--method", "lora", "--batch", "8", "--seq", "4096")
    assert j["total_recompute_gib"] < j["total_gib"]
    # Bad input.
    for bad in (["--params", "seven"], ["--device", "TPUv5"], ["--method", "dpo"],
                ["--batch", "x"], ["--dtype", "fp8"], ["--lora-targets", "q,w"],
                ["--kv-heads", "7", "--params", "70B"], ["--attention", "sparse"]):
        assert gpu2npu("fit", *bad).returncode == 2, bad


def test_fit_lora_gqa_and_fused_attention():
    # PEFT's printed trainable parameters for Llama-2-7B at r=16: 8,388,608 with its default
    # q_proj/v_proj targets, 39,976,960 with all seven linear layers.
    _, j = fit("--params", "llama-7b", "--method", "lora", "--lora-rank", "16")
    assert j["lora_params"] == 8388608
    _, j = fit("--params", "llama-7b", "--method", "lora", "--lora-rank", "16",
               "--lora-targets", "q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj")
    assert j["lora_params"] == 39976960
    _, j2 = fit("--params", "llama-7b", "--method", "lora", "--lora-targets", "all")
    assert j2["lora_params"] == 39976960
    # Grouped-query attention: Llama-2-70B keeps 8 KV heads of 128, so K and V are 1024 wide:
    # 2 * 80 layers * 8 * 4096 tokens * 1024 * 2 bytes = 10 GiB (80 GiB with 64 KV heads).
    _, j = fit("--params", "70B", "--method", "inference", "--batch", "8", "--seq", "4096")
    kv = next(p for p in j["parts"] if p["name"].startswith("KV cache"))
    assert j["kv_heads"] == 8 and kv["gib"] == pytest.approx(10.0)
    _, j = fit("--params", "70B", "--method", "inference", "--batch", "8", "--seq", "4096",
               "--kv-heads", "64")
    kv = next(p for p in j["parts"] if p["name"].startswith("KV cache"))
    assert kv["gib"] == pytest.approx(80.0)
    # Fused attention keeps no score matrix: s*b*h*34 bytes per layer, the 5*a*s^2*b term gone.
    _, fused = fit("--params", "7B", "--method", "lora", "--seq", "4096")
    _, eager = fit("--params", "7B", "--method", "lora", "--seq", "4096", "--attention", "eager")
    act = lambda j: next(p["gib"] for p in j["parts"] if p["name"].startswith("activations"))
    assert act(fused) == pytest.approx(32 * 4096 * 4096 * 34 / 2**30)
    assert act(eager) == pytest.approx(32 * (4096 * 4096 * 34 + 5 * 32 * 4096 * 4096) / 2**30)


def test_every_subcommand_has_help():
    for cmd in ("analyse", "migrate", "fit", "tree"):
        r = gpu2npu(cmd, "--help")
        assert r.returncode == 0 and r.stdout.startswith("usage: gpu2npu " + cmd), (cmd, r.stdout)
    top = gpu2npu("--help").stdout
    assert all(c in top for c in ("analyse", "migrate", "fit", "tree"))


def test_migrate_writes_a_copy_and_is_idempotent(tmp_path):
    src = tmp_path / "proj"
    src.mkdir()
    original = (
        "import os\n"
        "import torch  # keep this comment\n"
        "import torch.distributed as dist\n"
        "from torch.cuda.amp import autocast\n"
        "\n"
        "\n"
        "def main():\n"
        '    """Docstring mentioning .cuda() and "cuda" stays."""\n'
        '    os.environ["CUDA_VISIBLE_DEVICES"] = "0,1"\n'
        '    dist.init_process_group(backend="nccl")\n'
        "    x = torch.ones(3).cuda()   # spacing kept\n"
        '    y = x.to("cuda:1")\n'
        "    print(x.is_cuda, torch.cuda.device_count())\n"
        "    with autocast():\n"
        "        pass\n"
        "    import triton  # left for a person\n")
    (src / "train.py").write_text(original)
    (src / "run.sh").write_text("# nvidia-smi in a comment\nnvidia-smi\ntorchrun --ddp_backend nccl train.py\n")
    out = tmp_path / "out"
    r = gpu2npu("migrate", str(src), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert (src / "train.py").read_text() == original  # the project is never touched
    migrated = (out / "train.py").read_text()
    for want in ['os.environ["ASCEND_RT_VISIBLE_DEVICES"] = "0,1"', 'backend="hccl"',
                 "torch.ones(3).npu()   # spacing kept", 'x.to("npu:1")', "x.is_npu",
                 "torch_npu.npu.device_count()", "from torch_npu.npu.amp import autocast",
                 "import torch  # keep this comment\nimport torch.distributed as dist\n"
                 "from torch_npu.npu.amp import autocast\nimport torch_npu",
                 '"""Docstring mentioning .cuda() and "cuda" stays."""', "import triton  # left"]:
        assert want in migrated, (want, migrated)
    assert (out / "run.sh").read_text() == "# nvidia-smi in a comment\nnpu-smi\ntorchrun --ddp_backend hccl train.py\n"
    report = out / "gpu2npu_report"
    changes = (report / "change_list.csv").read_text().splitlines()
    assert changes[0] == "File,Start Line,End Line,Operation Type,Message" and len(changes) > 8
    assert "triton" in (report / "unmigrated.csv").read_text()
    # The diff reproduces the migrated file from the original.
    check = tmp_path / "check"
    check.mkdir()
    (check / "train.py").write_text(original)
    (check / "run.sh").write_text((src / "run.sh").read_text())
    p = subprocess.run(["patch", "-p1", "-d", str(check), "-i", str(report / "migration.diff")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    assert (check / "train.py").read_text() == migrated
    # A second run changes nothing more.
    r = gpu2npu("migrate", str(out), "-o", str(tmp_path / "again"))
    assert r.returncode == 0 and "0 edits in 0 files" in r.stdout
    # Refusals: overlapping or non-empty output folders.
    assert gpu2npu("migrate", str(src), "-o", str(src / "inside")).returncode == 2
    assert gpu2npu("migrate", str(src), "-o", str(out)).returncode == 2


def test_html_report_renders_in_a_browser(tmp_path):
    """The HTML report opens in headless Chromium: the screenshot shows the chart's bars."""
    from PIL import Image
    html = tmp_path / "report.html"
    r = gpu2npu("analyse", os.path.join(EXAMPLES, "nvidia_libs"), "--format", "html", "-o", str(html))
    assert r.returncode == 1, r.stderr
    page = html.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page and "http://" not in page.replace(
        "http://www.w3.org/2000/svg", "")
    assert "Verdict: medium cost" in page and "<svg" in page
    shot = tmp_path / "shot.png"
    b = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--window-size=1280,1400", f"--screenshot={shot}", html.as_uri()],
                       capture_output=True, text=True, timeout=120)
    assert shot.exists(), b.stderr[-2000:]
    img = Image.open(shot).convert("RGB")
    assert img.size == (1280, 1400)
    pixels = list(img.getdata())
    bar = sum(1 for p in pixels if abs(p[0] - 0x09) < 20 and abs(p[1] - 0x69) < 20 and abs(p[2] - 0xda) < 20)
    assert bar > 2000, bar  # the findings-by-branch bars were drawn
    assert sum(1 for p in pixels if p != (255, 255, 255)) > 0.02 * len(pixels)


def migrate_and_check(tmp_path, files):
    """Migrates a project of `files`, checks the diff reproduces the copy, returns it."""
    src, out, check = tmp_path / "src", tmp_path / "out", tmp_path / "check"
    for base in (src, check):
        for name, data in files.items():
            (base / name).parent.mkdir(parents=True, exist_ok=True)
            (base / name).write_bytes(data.encode() if isinstance(data, str) else data)
    r = gpu2npu("migrate", str(src), "-o", str(out))
    assert r.returncode == 0, r.stderr
    p = subprocess.run(["patch", "-p1", "-d", str(check), "-i", str(out / "gpu2npu_report" / "migration.diff")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    for name in files:
        assert (check / name).read_bytes() == (out / name).read_bytes(), name
    return out, r.stdout


def test_migrate_rewrites_are_right_or_not_made(tmp_path):
    train = (
        "#!/usr/bin/env python3\n"
        "# -*- coding: utf-8 -*-\n"
        '"""A GPT training script."""\n'
        "from __future__ import annotations\n"
        "import os\n"
        "\n"
        "def main(local_rank):\n"
        "    import torch\n"
        "    import torch.distributed as dist\n"
        "    import torch.cuda.nccl\n"
        "    device = f'cuda:{local_rank}'\n"
        "    torch.cuda.set_device(device)\n"
        '    d2 = "cuda:{}".format(local_rank)\n'
        '    d3 = "cuda:%d" % local_rank\n'
        '    d4 = "cuda:" + str(local_rank)\n'
        '    backend = "hccl" if dist.is_nccl_available() else "gloo"\n'
        "    g = torch.cuda.CUDAGraph()\n"
        "    cap = torch.cuda.get_device_capability()\n"
        "    v = torch.version.cuda\n"
        '    msg = f"running on cuda with {local_rank}"\n'
        '    kernels = glob.glob(os.path.join("csrc", "cuda", "*.cu"))\n')
    setup = ('import glob\nfrom setuptools import setup\n'
             'srcs = glob.glob("csrc/cuda/*.cu") + ["cuda"]\nsetup(name="x", sources=srcs)\n')
    crlf = "import torch\r\nx = torch.ones(2).cuda()\r\n"
    nb = {"cells": [
        {"cell_type": "code", "execution_count": 1, "metadata": {},
         "outputs": [{"name": "stdout", "output_type": "stream", "text": ["ok\n"]}],
         "source": ["import torch\n", "import torch.cuda as tc"]},
        {"cell_type": "markdown", "metadata": {}, "source": ["# .cuda()"]},
        {"cell_type": "code", "execution_count": 2, "metadata": {}, "outputs": [],
         "source": ["!nvidia-smi\n", "tc.synchronize()\n", "y = torch.zeros(3).to('cuda:0')"]}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    out, _ = migrate_and_check(tmp_path, {"train.py": train, "setup.py": setup, "crlf.py": crlf,
                                          "nb.ipynb": json.dumps(nb, indent=1) + "\n"})
    m = (out / "train.py").read_text()
    # The header stays first; the import goes after it (torch is imported inside main()).
    assert m.startswith('#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n"""A GPT training script."""\n'
                        "from __future__ import annotations\nimport torch_npu")
    for want in ["device = f'npu:{local_rank}'", '"npu:{}".format', '"npu:%d" % local_rank',
                 '"npu:" + str(local_rank)', "dist.is_hccl_available()", "torch_npu.npu.NPUGraph()",
                 "import torch.cuda.nccl\n", "torch.cuda.get_device_capability()", "torch.version.cuda",
                 'f"running on cuda with', 'os.path.join("csrc", "cuda", "*.cu")']:
        assert want in m, (want, m)
    assert (out / "setup.py").read_text() == setup  # folder names in setup.py are paths
    assert (out / "crlf.py").read_bytes() == (
        b"import torch\r\nimport torch_npu  # added by gpu2npu: registers the NPU device\r\n"
        b"x = torch.ones(2).npu()\r\n")
    got = json.loads((out / "nb.ipynb").read_text())
    assert got["cells"][0]["outputs"] == nb["cells"][0]["outputs"]  # outputs kept
    assert got["cells"][0]["source"] == ["import torch\n", "import torch_npu.npu as tc\n",
                                         "import torch_npu  # added by gpu2npu: registers the NPU device"]
    assert got["cells"][2]["source"] == ["!npu-smi\n", "tc.synchronize()\n", "y = torch.zeros(3).to('npu:0')"]
    # What was not rewritten is listed, in the original's line numbers (like change_list.csv).
    left = (out / "gpu2npu_report" / "unmigrated.csv").read_text()
    assert "train.py,10,10,torch.cuda.nccl" in left and "train.py,18,18,torch.cuda.get_device_capability" in left
    assert "train.py,19,19,torch.version.cuda" in left
    changes = (out / "gpu2npu_report" / "change_list.csv").read_text()
    assert "train.py,11,11,replace" in changes and "nb.ipynb#cell3,3,3,replace" in changes
    # Migrated Python still compiles.
    for name in ("train.py", "setup.py", "crlf.py"):
        subprocess.run(["/usr/bin/python3", "-m", "py_compile", str(out / name)], check=True)


def findings_of(path):
    _, j = analyse_json(path)
    return j, {(f["file"], f["rule"]): f for f in j["findings"]}


def test_usage_decides_what_counts(tmp_path):
    (tmp_path / "requirements.txt").write_text("torch\nbitsandbytes\nxformers\n")
    (tmp_path / "train.py").write_text(
        '"""Tip: import bitsandbytes as bnb for 8-bit."""\n'
        "import torch\n"
        "try:\n"
        "    import xformers.ops as xops\n"
        "except ImportError:\n"
        "    xops = None\n"
        "model = torch.nn.Linear(2, 2)\n"
        "if args.compile:\n"
        "    model = torch.compile(model)\n"
        "model = torch.compile(model) if use_compile else model\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_trt.py").write_text("import tensorrt as trt\nb = trt.Builder(trt.Logger())\n")
    j, f = findings_of(tmp_path)
    assert f[("requirements.txt", "bitsandbytes")]["usage"] == "dependency only"
    assert f[("train.py", "xformers")]["usage"] == "optional"
    assert "try/except ImportError" in f[("train.py", "xformers")]["usage_why"]
    assert f[("requirements.txt", "xformers")]["usage"] == "optional"
    compile_ = f[("train.py", "torch.compile")]
    assert compile_["usage"] == "optional" and compile_["count"] == 2  # folded, flag-guarded
    assert f[("tests/test_trt.py", "tensorrt")]["usage"] == "auxiliary"
    assert f[("tests/test_trt.py", "tensorrt")]["count"] >= 2  # one finding per file and module
    # Nothing required: no blocker, no compile row deciding; the optional items cost little.
    assert j["verdict"]["level"] == "low" and not j["not_advised"], j["verdict"]
    assert j["estimate"]["high_days"] <= 1.5


def test_signals_outside_python_and_noise(tmp_path):
    (tmp_path / "Dockerfile").write_text("FROM pytorch/pytorch:2.1.0-cuda12.1-cudnn8-runtime\nRUN pip install x\n")
    (tmp_path / "ci.yml").write_text("steps:\n  - run: wget https://developer.download.nvidia.com/compute/cuda/cudnn.tgz\n")
    (tmp_path / "launch.sh").write_text("python -m torch.distributed.run train.py --backend nccl\n")
    (tmp_path / "serve.py").write_text(
        "import onnxruntime as ort\nimport torch\n"
        "s = ort.InferenceSession('m.onnx', providers=['CUDAExecutionProvider'])\n"
        "if torch.version.cuda:\n    pass\n"
        "if torch._dynamo.is_compiling():\n    pass\n")
    (tmp_path / "k.py").write_text(
        "import triton\nimport triton.language as tl\n\n@triton.jit\n"
        "def fused(x_ptr, n, B: tl.constexpr):\n"
        "    o = tl.program_id(0) * B + tl.arange(0, B)\n"
        "    v = tl.load(x_ptr + o)\n    v = tl.exp(v)\n    v = tl.exp(v) + tl.exp(v)\n"
        "    for i in range(3):\n        v = tl.exp(v)\n    tl.store(x_ptr + o, v)\n")
    j, f = findings_of(tmp_path)
    rules = {(k[0], k[1]) for k in f}
    assert ("Dockerfile", "docker.nvidia") in rules and ("Dockerfile", "cudnn") not in rules
    assert not any(k[0] == "ci.yml" for k in rules)  # a URL is not a dependency
    assert ("launch.sh", "dist.nccl") in rules
    assert ("serve.py", "ort.cuda") in rules and ("serve.py", "torch.version.cuda") in rules
    assert f[("serve.py", "dynamo.harmless")]["severity"] == "info"
    triton_findings = [x for x in j["findings"] if x["file"] == "k.py"]
    assert len(triton_findings) <= 3, triton_findings  # the kernel, not every tl.exp
    kern = j["triton_kernels"]["kernels"]
    assert [k["name"] for k in kern] == ["fused"] and kern[0]["complexity"] == "complex"


def test_kernels_grouped_helpers_and_ports(tmp_path):
    (tmp_path / "ops.cu").write_text(
        "__global__ void relu_forward_kernel(float* y, const float* x, int n) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = x[i] > 0 ? x[i] : 0; }\n"
        "__global__ void relu_backward_kernel(float* g, const float* x, int n) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) g[i] = x[i] > 0 ? g[i] : 0; }\n"
        "__global__ void setup_ptrs(float** p, float* base, int s) { p[threadIdx.x] = base + threadIdx.x * s; }\n"
        "__global__ void roi_align_forward_cuda_kernel(const float* x, float* y) {\n"
        "  __shared__ float t[32]; t[threadIdx.x] = x[threadIdx.x]; __syncthreads(); y[0] = t[0]; }\n")
    j, _ = findings_of(tmp_path)
    ks = {k["name"]: k for k in j["cuda_kernels"]}
    assert ks["relu_forward_kernel"]["op"] == ks["relu_backward_kernel"]["op"]
    assert ks["setup_ptrs"]["helper"] and "npu_roi_align" in ks["roi_align_forward_cuda_kernel"]["port"]
    items = {i["what"]: i for i in j["estimate"]["items"]}
    simple = next(i for w, i in items.items() if w.startswith("simple CUDA ops"))
    assert simple["count"] == 1 and simple["low_days"] == 5  # one op, two kernels
    assert any("npu_roi_align" in w for w in items)
    assert any(w.startswith("helper kernels") and i["high_days"] <= 0.5 for w, i in items.items())


def test_zero_cost_and_existing_support(tmp_path):
    (tmp_path / "clean.py").write_text("import torch\nx = torch.ones(3)\nprint(x.sum())\n")
    r, j = analyse_json(tmp_path)
    assert r.returncode == 0 and j["estimate"]["high_days"] == 0 and j["verdict"]["reason"] == "nothing needs to change"
    # A migrated project re-analysed: it runs on Ascend now, nothing to port.
    src = os.path.join(EXAMPLES, "standard_cv")
    out = tmp_path / "migrated"
    assert gpu2npu("migrate", src, "-o", str(out)).returncode == 0
    _, j = analyse_json(out)
    assert j["existing_support"]["supports_ascend"] and j["verdict"]["level"] == "low"
    assert j["estimate"]["low_days"] == 0 and j["estimate"]["high_days"] <= 1


def test_op_library_with_an_npu_backend(tmp_path):
    """An op library that already has NPU kernels for some ops (mmcv's layout): those ops are
    covered; the CUDA-only ones are listed to port on demand, not summed as a rewrite."""
    npu, cuda = tmp_path / "csrc" / "pytorch" / "npu", tmp_path / "csrc" / "common" / "cuda"
    npu.mkdir(parents=True)
    cuda.mkdir(parents=True)
    (npu / "sigmoid_focal_loss_npu.cpp").write_text("// calls aclnn\nvoid f() {}\n")
    (cuda / "sigmoid_focal_loss_cuda_kernel.cuh").write_text(
        "__global__ void sigmoid_focal_loss_forward_cuda_kernel(float* x) { atomicAdd(x, 1.f); }\n")
    for op in ("carafe", "correlation"):
        (cuda / f"{op}_cuda_kernel.cuh").write_text(
            f"__global__ void {op}_forward_cuda_kernel(float* x) {{ __shared__ float t[8];"
            " t[threadIdx.x] = x[0]; __syncthreads(); x[1] = t[0]; }\n")
    _, j = analyse_json(tmp_path)
    assert j["existing_support"]["supports_ascend"]
    ks = {k["name"]: k for k in j["cuda_kernels"]}
    assert ks["sigmoid_focal_loss_forward_cuda_kernel"]["covered"]
    assert not ks["carafe_forward_cuda_kernel"]["covered"]
    assert j["verdict"]["level"] == "medium" and "2 CUDA-only ops" in j["verdict"]["reason"]
    assert j["estimate"]["low_days"] == 0 and j["estimate"]["high_days"] <= 41


def test_workload_by_weight_with_runner_up(tmp_path):
    for i in range(3):
        (tmp_path / f"cv{i}.py").write_text("import torch\nimport torchvision\nm = torchvision.models.resnet18()\n")
    (tmp_path / "env.py").write_text("import gym\nenv = gym.make('CartPole-v1')\n")
    _, j = analyse_json(tmp_path)
    assert j["workload"]["type"] == "cv_inference" and j["workload"]["runner_up"] == "Reinforcement learning"


def test_html_has_next_steps_triton_and_files():
    r = gpu2npu("analyse", os.path.join(EXAMPLES, "triton_equiv"), "--format", "html")
    page = r.stdout
    assert page.index("What to do next") < page.index("Findings by branch")
    assert "<h2>Triton kernels</h2>" in page and "softmax_kernel" in page and "torch.softmax" in page
    assert "<h3><code>kernels.py</code></h3>" in page and "<h3><code>model.py</code></h3>" in page


def test_migrate_diff_applies_to_big_and_reformatted_files(tmp_path):
    # 6,000 edited lines: past the diff's edit-distance bound the middle is one replacement.
    big = "import torch\n" + "".join(f"x{i} = torch.ones({i}).cuda()\ny{i} = {i}\n" for i in range(6000))
    # A notebook that is not in Jupyter's layout (one line): rewritten in Jupyter's layout.
    nb = json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                                "source": "import torch\nx = torch.zeros(1).cuda()"}],
                     "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    out, _ = migrate_and_check(tmp_path, {"big.py": big, "nb.ipynb": nb, "sub/small.py": "import torch\nx = 1\ny = torch.cuda.is_available()\n"})
    assert (out / "big.py").read_text().count(".npu()") == 6000
    assert json.loads((out / "nb.ipynb").read_text())["cells"][0]["source"].endswith("torch.zeros(1).npu()")


def test_optional_backends_extras_and_compile_helpers(tmp_path):
    """Library integrations a user opts into: extras, optional dependency groups, imports
    behind an availability check, a module named after the library, a compile helper."""
    (tmp_path / "setup.py").write_text(
        'from setuptools import setup\n'
        'setup(name="p", install_requires=["torch", "xformers"],\n'
        '      extras_require={"quant": ["bitsandbytes>=0.43"], "trt": ["tensorrt"]})\n')
    (tmp_path / "pyproject.toml").write_text(
        '[project]\ndependencies = ["torch"]\n[project.optional-dependencies]\nfast = ["flash-attn>=2"]\n')
    (tmp_path / "quantizers" / "bitsandbytes").mkdir(parents=True)
    (tmp_path / "quantizers" / "bitsandbytes" / "bnb_quantizer.py").write_text(
        "def replace(model):\n    import bitsandbytes as bnb\n    return bnb.nn.Linear8bitLt(2, 2)\n")
    (tmp_path / "utils.py").write_text(
        "from .imports import is_bitsandbytes_available\n"
        "if is_bitsandbytes_available():\n    import bitsandbytes as bnb\n"
        "def count(p):\n    return 2 if isinstance(p, bnb.nn.Params4bit) else 1\n")
    (tmp_path / "run.py").write_text(
        "import torch\nimport xformers.ops as xops\n\n"
        "def _compile_denoiser(m):\n    return torch.compile(m)\n\n"
        "def attn(q, k, v):\n    return xops.memory_efficient_attention(q, k, v)\n")
    j, f = findings_of(tmp_path)
    usage = {(x["file"], x["rule"], x["line"]): x["usage"] for x in j["findings"]}
    assert usage[("setup.py", "bitsandbytes", 3)] == "optional" and usage[("setup.py", "tensorrt", 3)] == "optional"
    assert usage[("setup.py", "xformers", 2)] == "required"  # install_requires, and run.py uses it
    assert usage[("pyproject.toml", "flash_attn", 4)] == "optional"
    assert f[("quantizers/bitsandbytes/bnb_quantizer.py", "bitsandbytes")]["usage"] == "optional"
    assert all(x["usage"] == "optional" for x in j["findings"] if x["file"] == "utils.py")
    assert f[("run.py", "torch.compile")]["usage"] == "optional"
    assert not j["not_advised"] and j["verdict"]["branch"] == "nvidia_library"  # xformers decides
    assert any("xformers" in i["what"] for i in j["estimate"]["items"])


def test_loops_and_conditions_stay_on_the_main_path(tmp_path):
    (tmp_path / "loop.py").write_text(
        "import torch\nimport apex\nis_running = True\n"
        "while is_running:\n    opt = apex.optimizers.FusedAdam([])\n    is_running = False\n"
        "if torch.cuda.is_available() and use_apex:\n    pass\n"
        "if __name__ == '__main__':\n    m = apex.normalization.FusedLayerNorm(8)\n")
    _, j = analyse_json(tmp_path)
    usage = {(x["line"], x["api"]): x["usage"] for x in j["findings"]}
    assert usage[(5, "apex.optimizers.FusedAdam")] == "required"   # a loop body is the main path
    assert usage[(7, "torch.cuda.is_available")] == "required"     # a condition runs every time
    assert usage[(10, "apex.normalization.FusedLayerNorm")] == "required"  # __main__ is the main path


def test_docs_table_matches_the_examples():
    """docs/gpu2npu.md shows each example's answers; they are the ones the tests hold."""
    doc = open(os.path.join(SOURCE, "docs", "gpu2npu.md")).read()
    for project in sorted(os.listdir(EXAMPLES)):
        path = os.path.join(EXAMPLES, project, "expected.json")
        if not os.path.exists(path):
            continue
        want = json.load(open(path))
        row = next((l for l in doc.splitlines() if l.startswith(f"| `{project}` |")), None)
        assert row, project
        cells = [c.strip() for c in row.split("|")]
        fmt = lambda v, d: v + (f", {d[0]:g}–{d[1]:g} days" if d else "")
        assert cells[3] == fmt(want["engineer"]["verdict"], want["engineer"]["estimate_days"]), row
        assert cells[4] == fmt(want["verdict"], want["estimate_days"]), row
