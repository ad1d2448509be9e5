"""benchmarks/docs_section.py: each benchmark replaces its own section of docs/benchmarks.md."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import docs_section  # noqa: E402

DOC = """# Benchmarks

Written by hand, kept.

<!-- bench:plays -->
old plays
<!-- /bench:plays -->

Between the sections, kept.

<!-- bench:vision -->
old vision
<!-- /bench:vision -->
"""


def test_a_section_is_replaced_and_everything_else_is_kept():
    new = docs_section.replace_section(DOC, "plays", "new plays\n")
    assert "old plays" not in new and "<!-- bench:plays -->\nnew plays\n<!-- /bench:plays -->" in new
    assert new.replace("new plays", "old plays") == DOC


def test_a_new_section_goes_at_the_end_and_a_second_run_replaces_it():
    once = docs_section.replace_section(DOC, "referee", "first")
    assert once.startswith(DOC.rstrip("\n")) and once.endswith("<!-- bench:referee -->\nfirst\n<!-- /bench:referee -->\n")
    assert docs_section.replace_section(once, "referee", "second") == once.replace("first", "second")


@pytest.mark.parametrize("broken,name", [
    (DOC + "<!-- bench:plays -->\n", "plays"),  # opened twice
    (DOC.replace("<!-- /bench:vision -->", ""), "vision"),  # never closed
    ("<!-- /bench:plays -->\n<!-- bench:plays -->\n", "plays"),  # closed before it opens
])
def test_a_damaged_file_is_refused_not_guessed(broken, name):
    with pytest.raises(ValueError, match="mend the file by hand"):
        docs_section.replace_section(broken, name, "x")


@pytest.mark.parametrize("name", ["", "Plays", "a b", "x-->"])
def test_a_bad_section_name_is_refused(name):
    with pytest.raises(ValueError, match="not a section name"):
        docs_section.markers(name)


def test_a_recorded_run_prints_and_writes_its_section(tmp_path, capsys):
    path = tmp_path / "benchmarks.md"
    path.write_text(DOC)
    with docs_section.recorded("plays", "Legal plays", path=path):
        print("median 0.04 ms")
    assert "median 0.04 ms" in capsys.readouterr().out
    text = path.read_text()
    section = text.split("<!-- bench:plays -->")[1].split("<!-- /bench:plays -->")[0]
    assert "### Legal plays" in section and "Reproduce: `.venv/bin/python " in section and "median 0.04 ms" in section
    assert "old vision" in text and "Written by hand, kept." in text


def test_a_run_without_docs_or_that_fails_leaves_the_file_alone(tmp_path):
    path = tmp_path / "benchmarks.md"
    path.write_text(DOC)
    with docs_section.recorded("plays", "Legal plays", enabled=False, path=path):
        print("not written")
    with pytest.raises(RuntimeError), docs_section.recorded("plays", "Legal plays", path=path):
        print("half a run")
        raise RuntimeError("the benchmark failed")
    assert path.read_text() == DOC


def test_a_markdown_section_is_written_as_is(tmp_path):
    path = tmp_path / "benchmarks.md"
    path.write_text(DOC)
    docs_section.write_section("vision-on-independent-renders", "Vision on independent renders", "| a | b |\n|---|---|\n| 1 | 2 |", path=path, markdown=True)
    text = path.read_text()
    assert "<!-- bench:vision-on-independent-renders -->\n### Vision on independent renders\n" in text
    assert "\n| a | b |\n|---|---|\n| 1 | 2 |\n<!-- /bench:vision-on-independent-renders -->" in text and "old plays" in text
