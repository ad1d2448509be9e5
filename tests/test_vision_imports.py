"""Dependency direction and the command-line registration contract."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_vision_does_not_import_the_referee_or_the_bridge() -> None:
    code = (
        "import sys, vision, vision.cli, vision.render, vision.sources;"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('referee', 'firmware_bridge', 'picamera2')];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_register_adds_the_three_commands() -> None:
    from vision.cli import register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command"))
    for argv in (["calibrate", "x.jpg", "-o", "c.json"], ["read", "a.jpg", "b.jpg", "--calibration", "c.json"], ["dice", "d.jpg"]):
        args = parser.parse_args(argv)
        assert callable(args.func)


def test_vision_modules_import_each_other_without_cycles() -> None:
    """Every import of one vision module by another, at the top or inside a function, points one way."""
    import ast

    graph: dict[str, set[str]] = {}
    for path in (ROOT / "vision").glob("*.py"):
        tree = ast.parse(path.read_text())
        deps = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and (n.module or "").startswith("vision.")}
        deps |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names if a.name.startswith("vision.")}
        graph[f"vision.{path.stem}"] = {d for d in deps if d != f"vision.{path.stem}"}

    def cycle_from(start: str, at: str, seen: tuple[str, ...]) -> tuple[str, ...] | None:
        for nxt in sorted(graph.get(at, ())):
            if nxt == start:
                return seen + (nxt,)
            if nxt not in seen:
                found = cycle_from(start, nxt, seen + (nxt,))
                if found:
                    return found
        return None

    cycles = [c for m in sorted(graph) if (c := cycle_from(m, m, (m,)))]
    assert not cycles, f"import cycles: {cycles[:3]}"
