"""``--set FIELD=VALUE`` for the benchmarks: a config dataclass's defaults with some fields changed."""

from __future__ import annotations

import argparse
import ast
from dataclasses import replace
from typing import TypeVar

T = TypeVar("T")


def with_sets(ap: argparse.ArgumentParser, default: T, sets: list[str]) -> T:
    """``default`` with the ``FIELD=VALUE`` changes (values as Python literals); a bad one is an argparse error."""
    try:
        return replace(default, **{k: ast.literal_eval(v) for k, v in (f.split("=", 1) for f in sets)})  # type: ignore[type-var]
    except (ValueError, SyntaxError, TypeError) as exc:
        ap.error(f"--set takes {type(default).__name__} fields as FIELD=VALUE with a Python literal: {exc}")
