"""Games from Jellyfish ``.mat`` match files, read by hand (not with the product's reader).

A game is a list of :class:`Action`: a roll with its moves, or a cube action, in
the order played.  Moves are in the mover's own numbers (25 = bar, 0 = off), as the
file writes them.  Player 1 in a ``.mat`` file is dark (board-spec.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .board import Position

ROLL = re.compile(r"^([1-6])([1-6]):$")
MOVE = re.compile(r"^(bar|\d+)((?:/(?:\d+|off|bar)\*?)+)(?:\((\d)\))?$")


@dataclass(frozen=True, slots=True)
class Action:
    player: str  # dark / light
    kind: str  # roll, double, take, drop
    dice: tuple[int, int] = (0, 0)
    moves: tuple[tuple[int, int], ...] = ()
    cube: int = 0  # the value a double turns the cube to


def _point(tok: str) -> int:
    return 25 if tok == "bar" else 0 if tok == "off" else int(tok)


def parse_moves(tokens: list[str]) -> list[tuple[int, int]]:
    out = []
    for tok in tokens:
        m = MOVE.match(tok)
        if not m:
            raise ValueError(f"not a move: {tok!r}")
        hops = [_point(m.group(1))] + [_point(h.rstrip("*")) for h in m.group(2).split("/")[1:]]
        for _ in range(int(m.group(3) or 1)):
            out += [(a, b) for a, b in zip(hops, hops[1:])]
    return out


def read_games(text: str) -> list[list[Action]]:
    games: list[list[Action]] = []
    col = 30
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("Game "):
            games.append([])
            continue
        m = re.match(r"^(\S.*?)\s+:\s+\d+\s+(\S.*?)\s+:\s+\d+\s*$", s)
        if m and games:
            col = line.index(m.group(2), line.index(m.group(1)) + len(m.group(1)))
            continue
        mm = re.match(r"^\s*\d+\)(.*)$", line)
        if not mm or not games:
            continue
        body = mm.group(1)
        start = len(line) - len(body)
        first = len(body) - len(body.lstrip())
        player = "light" if start + first >= col - 2 else "dark"
        tokens = body.split()
        i = 0
        while i < len(tokens):
            t = tokens[i]
            r = ROLL.match(t)
            if r:
                j = i + 1
                while j < len(tokens) and MOVE.match(tokens[j]):
                    j += 1
                games[-1].append(Action(player, "roll", (int(r.group(1)), int(r.group(2))), tuple(parse_moves(tokens[i + 1: j]))))
                i = j
            elif t == "Doubles":
                games[-1].append(Action(player, "double", cube=int(tokens[i + 2])))
                i += 3
            elif t in ("Takes", "Drops"):
                games[-1].append(Action(player, t[:-1].lower()))
                i += 1
            elif t in ("Beavers",):
                raise ValueError("beavers are not scripted")
            else:
                break  # "Wins ..." and the like
            player = "light" if player == "dark" else "dark"
    return games


def read_match(path: Path) -> list[list[Action]]:
    return read_games(path.read_text(encoding="utf-8", errors="replace"))


def positions(game: list[Action]) -> list[Position]:
    """The position after each action, replayed on the world's own board model."""
    pos = Position.start()
    out = []
    for a in game:
        if a.kind == "roll":
            pos = pos.play(a.player, list(a.moves))
        out.append(pos)
    return out
