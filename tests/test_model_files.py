"""The learned stages' weight files stay small: 10 MB in all at most (issue #45's goal), counting every file
the reader's modules load.

What is counted: every ``*.onnx`` and ``*.json`` file in ``vision/`` (all of them are weights today; package
data ships them). So that a new model of another kind cannot slip past the count, the files ``vision/*.py``
name as their weights (``Path(__file__).with_name("...")``) must be of those kinds.
``benchmarks/bench_read_speed.py`` prints the same list with each file's size.
"""

from __future__ import annotations

import re
from pathlib import Path

VISION = Path(__file__).resolve().parent.parent / "vision"
SUFFIXES = (".onnx", ".json")
LIMIT_BYTES = 10_000_000  # 10 MB


def counted() -> list[Path]:
    return sorted(p for p in VISION.iterdir() if p.is_file() and p.suffix in SUFFIXES)


def named_by_the_modules() -> set[str]:
    names: set[str] = set()
    for source in VISION.glob("*.py"):
        names |= set(re.findall(r"""with_name\(\s*["']([^"']+)["']\s*\)""", source.read_text(encoding="utf-8")))
    return names


def test_the_model_files_are_10_mb_in_all_at_most():
    sizes = {p.name: p.stat().st_size for p in counted()}
    total = sum(sizes.values())
    listing = ", ".join(f"{name} {size / 1e6:.2f} MB" for name, size in sorted(sizes.items()))
    assert total <= LIMIT_BYTES, f"model files total {total / 1e6:.2f} MB, over 10 MB: {listing}"


def test_every_file_the_modules_load_is_of_a_kind_counted():
    named = named_by_the_modules()
    assert named, "found no Path(__file__).with_name(...) in vision/*.py: say here how the modules now name their weights"
    uncounted = sorted(n for n in named if Path(n).suffix not in SUFFIXES)
    assert not uncounted, f"vision/ loads {uncounted}, which this count leaves out: add their suffix to SUFFIXES"

