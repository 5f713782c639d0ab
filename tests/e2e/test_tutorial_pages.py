"""The tutorials' drift check (examples/tutorials/run_tutorials.py): the pages agree with the
scripts today, and a page whose code or commands drift from its folder is caught."""
import shutil
import sys
from pathlib import Path

from conftest import SOURCE

sys.path.insert(0, str(Path(SOURCE) / "examples" / "tutorials"))
import run_tutorials  # noqa: E402


def test_every_page_agrees_with_its_folder():
    for n in run_tutorials.FOLDERS:
        assert run_tutorials.check_page(n) == [], n


def test_commands_join_continuations_and_drop_comments():
    text = "# a comment\natc --model=m.onnx \\\n    --framework=5\n\n./run\n"
    assert run_tutorials.commands(text) == ["atc --model=m.onnx --framework=5", "./run"]


def test_drift_is_caught(tmp_path, monkeypatch):
    pages, here = tmp_path / "pages", tmp_path / "examples"
    shutil.copytree(run_tutorials.PAGES, pages)
    shutil.copytree(run_tutorials.HERE / "01_hello_npu", here / "01_hello_npu")
    monkeypatch.setattr(run_tutorials, "PAGES", pages)
    monkeypatch.setattr(run_tutorials, "HERE", here)
    assert run_tutorials.check_page(1) == []
    # A file edited after the page was written.
    c = here / "01_hello_npu" / "hello_acl.c"
    c.write_text(c.read_text().replace("hello NPU: done", "hello NPU: finished"))
    assert any("hello_acl.c differs" in p for p in run_tutorials.check_page(1))
    c.write_text(c.read_text().replace("hello NPU: finished", "hello NPU: done"))
    # A command on the page the script no longer runs.
    page = pages / "01-hello-npu.md"
    page.write_text(page.read_text().replace("python3 hello_acl.py", "python3 hello.py"))
    assert any("`python3 hello.py` is not in" in p for p in run_tutorials.check_page(1))
