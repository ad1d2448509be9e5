"""The record modules' examples run, and importing them loads nothing but the engine."""

from __future__ import annotations

import doctest
import subprocess
import sys

import engine.mat


def test_mat_module_example():
    result = doctest.testmod(engine.mat, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 5 and result.failed == 0


def test_record_modules_load_no_io_or_project_packages():
    code = (
        "import sys, engine.record, engine.replay, engine.mat, engine.sgf;"
        "bad = [m for m in ('referee', 'vision', 'firmware_bridge', 'gnubg', 'cv2', 'numpy') if m in sys.modules];"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
