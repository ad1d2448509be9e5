"""GNU Backgammon's engine through the `gnubg` package: legal plays and hints.

Optional: the package has wheels for x86-64 only (not a Pi's arm64).  Call
:func:`available` first; nothing is imported until then.
"""

from __future__ import annotations

import os
import sys
import tempfile
from types import ModuleType
from typing import Any

from engine import Position
from engine.plays import after_written

_gnubg: ModuleType | None = None
_SETUP = (
    "set threads 1",
    "set player 0 human",
    "set player 1 human",
    "set display off",
    "set automatic roll off",
    "set automatic game off",
    "new session",
)


def available() -> bool:
    """True when the `gnubg` package can be imported here."""
    return _module() is not None


def _module() -> ModuleType | None:
    global _gnubg
    if _gnubg is None:
        try:
            import gnubg  # type: ignore[import-not-found,import-untyped,unused-ignore]
        except ImportError:
            return None
        _gnubg = gnubg
        for command in _SETUP:
            run_command(command)
    return _gnubg


def require() -> ModuleType:
    module = _module()
    if module is None:
        raise RuntimeError("the gnubg package is not installed (pip install 'bgref[gnubg]'; x86-64 only)")
    return module


def run_command(command: str) -> str:
    """Run a gnubg command and return what it printed (gnubg writes to fd 1)."""
    assert _gnubg is not None
    sys.stdout.flush()
    fd, path = tempfile.mkstemp(prefix="bgref-gnubg-")
    saved = os.dup(1)
    os.dup2(fd, 1)
    try:
        _gnubg.command(command)
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
        os.close(fd)
    with open(path, encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    os.unlink(path)
    return text


def _money_cube() -> Any:
    return require().cubeinfo(1, -1, 1, 0, (0, 0), 0, 0)


def _zero_ply() -> Any:
    return require().evalcontext(0, 0, 1, 0, 0.0)


def find_moves(position: Position, dice: tuple[int, int]) -> list[tuple[int, ...]]:
    """gnubg's move tuples for every legal play (truncated at the first bear-off)."""
    gnubg = require()
    found = gnubg.findbestmoves(position.gnubg_board(), _money_cube(), _zero_ply(), dice)
    return [tuple(m["move"]) for m in found]


def hint_plays(position: Position, dice: tuple[int, int]) -> list[str]:
    """Every legal play as gnubg writes it, from its `hint` command."""
    require()
    run_command("set turn 1")
    run_command("set board " + position.id())
    run_command(f"set dice {dice[0]} {dice[1]}")
    text = run_command("hint 999")
    plays = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) > 3 and parts[0].rstrip(".").isdigit() and parts[1] == "Cubeful":
            body = line.split("ply", 1)[1].split("Eq.:", 1)[0].strip()
            plays.append(body)
    return plays


def legal_results(position: Position, dice: tuple[int, int]) -> set[Position]:
    """Positions (mover's view) after every legal play, according to gnubg.

    gnubg's move tuples stop at the first bear-off, so for a position where any
    play bears off the complete plays are read from its `hint` text instead and
    applied (gnubg marks every hit with ``*``).
    """
    moves = find_moves(position, dice)
    if any(len(m) % 2 or 0 in m[1::2] for m in moves):
        return {after_written(position, text) for text in hint_plays(position, dice)}
    out = set()
    for move in moves:
        out.add(_apply_tuple(position, move))
    return out


def _apply_tuple(position: Position, move: tuple[int, ...]) -> Position:
    text = " ".join(f"{move[i]}/{move[i + 1]}" for i in range(0, len(move), 2))
    # tuple hops are single dice: a landing on a blot is a hit
    return after_written(position, text.replace("25/", "bar/"))
