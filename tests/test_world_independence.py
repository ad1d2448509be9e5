"""The independent world shares no code with the product (issue #43 item 1, #45 item 3)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORLD = ROOT / "benchmarks" / "world"
PRODUCT = ("vision", "referee", "firmware_bridge", "engine")


def test_importing_the_world_loads_no_product_module() -> None:
    code = (
        "import sys, pkgutil, importlib, benchmarks.world as w\n"
        "for m in pkgutil.iter_modules(w.__path__): importlib.import_module('benchmarks.world.' + m.name)\n"
        f"bad = sorted(n for n in sys.modules if n.split('.')[0] in {PRODUCT!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"benchmarks.world pulled in product modules: {out.stdout}"


def test_sources_do_not_import_the_product() -> None:
    pattern = re.compile(r"^\s*(from|import)\s+(" + "|".join(PRODUCT) + r")\b", re.M)
    dynamic = re.compile(r"import_module\(|__import__\(\s*['\"](" + "|".join(PRODUCT) + ")")
    sources = sorted(WORLD.glob("*.py"))
    assert sources
    for path in sources:
        text = path.read_text(encoding="utf-8")
        assert not pattern.search(text), f"{path.name} imports the product"
        assert not dynamic.search(text), f"{path.name} imports the product dynamically"
