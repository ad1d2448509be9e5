"""`bgref show-calls DIR`: the calls a referee made in a match folder, as a table for a person.

``DIR/calls.jsonl`` holds one JSON object a line, written as each call is made
(see :class:`referee.service.CallLog` and ``docs/referee.md``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

CALLS_NAME = "calls.jsonl"


def register(subparsers: Any) -> None:
    show = subparsers.add_parser("show-calls", help="list the calls the referee made in a match folder (calls.jsonl)")
    show.add_argument("folder", type=Path, help="a match folder (from `bgref replay --out` or `bgref watch --match-dir`), or its calls.jsonl")
    show.add_argument("--kind", action="append", help="only calls of this kind (may be given more than once)")
    show.set_defaults(func=run_show_calls)


def read_calls(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The calls in a calls.jsonl, and a complaint for each line that is not one."""
    calls, problems = [], []
    for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            call = json.loads(line)
        except ValueError:
            problems.append(f"line {n} is not JSON (a torn last line after a power cut?)")
            continue
        if not isinstance(call, dict) or "call" not in call:
            problems.append(f"line {n} is not a call")
            continue
        calls.append(call)
    return calls, problems


def _clock(t: Any) -> str:
    if not isinstance(t, (int, float)):
        return "?"
    minutes, seconds = divmod(float(t), 60.0)
    return f"{int(minutes)}:{seconds:04.1f}"


def format_calls(calls: list[dict[str, Any]]) -> str:
    """A plain-text table: time into the footage, game, turn, player, call, reasons."""
    header = ("time", "game", "turn", "player", "call", "reasons")
    rows = [
        (
            _clock(c.get("t")),
            str(c.get("game", "")),
            str(c.get("turn", "")),
            str(c.get("player") or "both"),
            str(c["call"]) + (" (silent)" if c.get("silent") else ""),
            "; ".join(str(r) for r in c.get("reasons") or ()),
        )
        for c in calls
    ]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header[:-1])]
    lines = ["  ".join(v.ljust(w) for v, w in zip(row[:-1], widths)) + "  " + row[-1] for row in [header, *rows]]
    counts = Counter(c["call"] for c in calls)
    summary = ", ".join(f"{kind} {n}" for kind, n in counts.most_common()) or "none"
    return "\n".join(lines) + f"\n{len(calls)} call{'s' if len(calls) != 1 else ''}: {summary}\n"


def run_show_calls(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    path = args.folder / CALLS_NAME if args.folder.is_dir() else args.folder
    if not path.is_file():
        if args.folder.is_dir() and (args.folder / "match.journal").is_file():
            print(f"no calls in {args.folder}: the referee made none", file=out)
            return 0
        print(f"bgref show-calls: no {CALLS_NAME} at {path} (give the match folder of `bgref replay --out` or `bgref watch`)", file=sys.stderr)
        return 2
    calls, problems = read_calls(path)
    if args.kind:
        calls = [c for c in calls if c["call"] in args.kind]
    out.write(format_calls(calls))
    for problem in problems:
        print(f"bgref show-calls: {path}: {problem}; skipped", file=sys.stderr)
    return 0
