"""Backgammon positions as immutable values, with GNU Backgammon's Position ID.

A :class:`Position` is seen from the side of the player on roll, as GNU
Backgammon's board is: each side is a tuple of 25 counts in that side's own
numbering, index ``i`` for point ``i + 1`` and index 24 for the bar.  Checkers
borne off are what is missing from 15.

Position ID reference: GNU Backgammon manual, "A technical description of the
Position ID" and ``positionid.c``.  Erratum: the manual's prose puts the player
on roll first; the code (and every real export) encodes the player *not* on roll
first, as this module does.
"""

from __future__ import annotations

import base64
import enum
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

CHECKERS = 15
BAR = 25  # a side's own number for its bar
OFF = 0  # a side's own number for "borne off"
POINTS = 24
_BAR_INDEX = 24

_START_SIDE = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


class PositionError(ValueError):
    """A position that cannot occur in a game, or an unreadable notation of one."""


class Problem(enum.IntFlag):
    """What is wrong with a position; ``Problem(0)`` means nothing."""

    WRONG_LENGTH = enum.auto()
    NEGATIVE_COUNT = enum.auto()
    TOO_MANY_CHECKERS = enum.auto()
    SHARED_POINT = enum.auto()
    BOTH_ON_BAR_BOARDS_CLOSED = enum.auto()


_PROBLEM_TEXT = {
    Problem.WRONG_LENGTH: "each side needs 25 counts (24 points and the bar)",
    Problem.NEGATIVE_COUNT: "a checker count is negative",
    Problem.TOO_MANY_CHECKERS: "a side has more than 15 checkers",
    Problem.SHARED_POINT: "a point holds checkers of both colours",
    Problem.BOTH_ON_BAR_BOARDS_CLOSED: "both players are on the bar against closed boards",
}


def describe_problems(problems: Problem) -> list[str]:
    """Plain-words descriptions of each flag in ``problems``."""
    return [text for flag, text in _PROBLEM_TEXT.items() if flag in problems]


@dataclass(frozen=True, slots=True)
class Position:
    """Checkers of both players, seen from the player on roll.

    ``on_roll[i]`` and ``opponent[i]`` count checkers on point ``i + 1`` in that
    player's own numbering (24 is farthest from home); index 24 is the bar.
    The opponent's point ``n`` is the player on roll's point ``25 - n``.
    """

    on_roll: tuple[int, ...]
    opponent: tuple[int, ...]

    def __post_init__(self) -> None:
        found = _problems(self.on_roll, self.opponent)
        if found:
            raise PositionError(
                f"impossible position {self.on_roll!r} / {self.opponent!r}: "
                + "; ".join(describe_problems(found))
            )

    # --- construction -------------------------------------------------

    @classmethod
    def _trusted(cls, on_roll: tuple[int, ...], opponent: tuple[int, ...]) -> Position:
        """A position known to be possible (made by a legal move): not re-checked."""
        position = object.__new__(cls)
        object.__setattr__(position, "on_roll", on_roll)
        object.__setattr__(position, "opponent", opponent)
        return position

    @classmethod
    def start(cls) -> Position:
        """The starting position."""
        return cls(_START_SIDE, _START_SIDE)

    @classmethod
    def from_id(cls, position_id: str) -> Position:
        """The position of a GNU Backgammon Position ID (14 characters)."""
        not_on_roll, on_roll = _decode_id(position_id)
        return cls(on_roll, not_on_roll)

    @classmethod
    def from_counts(
        cls,
        on_roll: Mapping[int, int],
        opponent: Mapping[int, int],
    ) -> Position:
        """A position from ``{point: count}`` maps (point 25 = bar)."""
        return cls(_side_from_map(on_roll), _side_from_map(opponent))

    @classmethod
    def from_gnubg(cls, board: Sequence[Sequence[int]]) -> Position:
        """A position from GNU Backgammon's board tuple (not on roll, on roll)."""
        return cls(tuple(board[1]), tuple(board[0]))

    # --- notations ------------------------------------------------------

    def id(self) -> str:
        """GNU Backgammon Position ID, with the player on roll to move."""
        return _encode_id(self.opponent, self.on_roll)

    def gnubg_board(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """GNU Backgammon's board tuple (not on roll, on roll)."""
        return (self.opponent, self.on_roll)

    def __repr__(self) -> str:
        return f"Position.from_id({self.id()!r})"

    def __str__(self) -> str:
        return board_diagram(self)

    # --- derived facts --------------------------------------------------

    def swap(self) -> Position:
        """The same checkers seen from the other player (turn passes)."""
        return Position(self.opponent, self.on_roll)

    def off(self) -> tuple[int, int]:
        """Checkers borne off: (on roll, opponent)."""
        return CHECKERS - sum(self.on_roll), CHECKERS - sum(self.opponent)

    def pip_counts(self) -> tuple[int, int]:
        """Pip counts: (on roll, opponent)."""
        return _pips(self.on_roll), _pips(self.opponent)

    def bar(self) -> tuple[int, int]:
        """Checkers on the bar: (on roll, opponent)."""
        return self.on_roll[_BAR_INDEX], self.opponent[_BAR_INDEX]

    def is_game_over(self) -> bool:
        """True when a player has borne off all checkers."""
        return not any(self.on_roll) or not any(self.opponent)


def _side_from_map(counts: Mapping[int, int]) -> tuple[int, ...]:
    side = [0] * 25
    for point, n in counts.items():
        if not 1 <= point <= 25:
            raise PositionError(f"point {point!r} is not 1..24 or 25 (bar)")
        side[point - 1] = n
    return tuple(side)


def _pips(side: Sequence[int]) -> int:
    return sum((i + 1) * n for i, n in enumerate(side))


def _problems(on_roll: Sequence[int], opponent: Sequence[int]) -> Problem:
    found = Problem(0)
    if len(on_roll) != 25 or len(opponent) != 25:
        return Problem.WRONG_LENGTH
    if min(on_roll) < 0 or min(opponent) < 0:
        found |= Problem.NEGATIVE_COUNT
    if sum(on_roll) > CHECKERS or sum(opponent) > CHECKERS:
        found |= Problem.TOO_MANY_CHECKERS
    if any(on_roll[i] and opponent[23 - i] for i in range(24)):
        found |= Problem.SHARED_POINT
    if (
        on_roll[_BAR_INDEX]
        and opponent[_BAR_INDEX]
        and all(opponent[i] >= 2 for i in range(6))
        and all(on_roll[i] >= 2 for i in range(6))
    ):
        found |= Problem.BOTH_ON_BAR_BOARDS_CLOSED
    return found


def problems(on_roll: Sequence[int], opponent: Sequence[int]) -> Problem:
    """Every problem with the checker counts, without raising."""
    return _problems(tuple(on_roll), tuple(opponent))


# --- Position ID ----------------------------------------------------------


def _encode_id(first: Sequence[int], second: Sequence[int]) -> str:
    key = 0
    bit = 0
    for side in (first, second):
        for n in side:
            # n ones then a zero, least significant bit first
            key |= ((1 << n) - 1) << bit
            bit += n + 1
    raw = key.to_bytes(10, "little")
    return base64.b64encode(raw).decode("ascii").rstrip("=")


def _decode_id(position_id: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    first, second = decode_id_sides(position_id)
    found = _problems(second, first)
    if found:
        raise PositionError(f"Position ID {position_id!r} is impossible: " + "; ".join(describe_problems(found)))
    return first, second


def decode_id_sides(position_id: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two sides of a Position ID, (not on roll, on roll), without checking
    that they make a possible position (a camera may see an impossible one)."""
    text = position_id.strip()
    if len(text) != 14:
        raise PositionError(f"Position ID {position_id!r} must be 14 characters, not {len(text)}")
    try:
        raw = base64.b64decode(text + "==", validate=True)
    except ValueError:
        raise PositionError(f"Position ID {position_id!r} is not Base64") from None
    key = int.from_bytes(raw, "little")
    sides: list[list[int]] = [[], []]
    side, count = 0, 0
    for bit in range(80):
        if side == 2:
            break
        if key >> bit & 1:
            count += 1
            continue
        sides[side].append(count)
        count = 0
        if len(sides[side]) == 25:
            side += 1
    if side != 2 or key >> bit:
        raise PositionError(f"Position ID {position_id!r} does not hold two sides of 25 slots")
    return tuple(sides[0]), tuple(sides[1])


# --- text board -----------------------------------------------------------


def board_diagram(position: Position, on_roll_symbol: str = "X", opponent_symbol: str = "O") -> str:
    """An ASCII board, the player on roll's home at the bottom right."""
    cells: dict[int, tuple[str, int]] = {}
    for i in range(24):
        if position.on_roll[i]:
            cells[i + 1] = (on_roll_symbol, position.on_roll[i])
        if position.opponent[23 - i]:
            cells[i + 1] = (opponent_symbol, position.opponent[23 - i])

    def row(points: Iterable[int], level: int, top: bool) -> str:
        out = []
        for p in points:
            sym, n = cells.get(p, ("", 0))
            depth = level if top else 4 - level
            if n > depth:
                mark = sym if (depth < 4 or n <= 5) else str(n)
                out.append(f" {mark:>2}")
            else:
                out.append("  .")
            if p in (18, 7):
                out.append(" |")
        return "".join(out)

    top_points = list(range(13, 25))
    bottom_points = list(range(12, 0, -1))
    pips = position.pip_counts()
    off = position.off()
    bar = position.bar()
    lines = [" " + "".join(f"{p:>3}" + (" |" if p in (18,) else "") for p in top_points)]
    lines.append(" +" + "-" * 40 + "+")
    for level in range(5):
        lines.append(" |" + row(top_points, level, True) + "|")
    lines.append(f" |{'BAR':^40}|")
    for level in range(5):
        lines.append(" |" + row(bottom_points, level, False) + "|")
    lines.append(" +" + "-" * 40 + "+")
    lines.append(" " + "".join(f"{p:>3}" + (" |" if p in (7,) else "") for p in bottom_points))
    lines.append(
        f" {on_roll_symbol} on roll: pips {pips[0]}, bar {bar[0]}, off {off[0]}   "
        f"{opponent_symbol}: pips {pips[1]}, bar {bar[1]}, off {off[1]}"
    )
    lines.append(f" Position ID: {position.id()}")
    return "\n".join(lines)
