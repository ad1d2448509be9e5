"""Plays the referee may have missed: the legal plays that lead from the position it follows to a board seen.

When the referee's belief (whose turn, which position) stops explaining the readings, the physical
sequence is nearly always this: a player rolled, the camera missed the roll (a die unread or read
cocked, the dice picked up under a hand), the player moved, and the opponent rolled and moved too;
the referee still waits for the first roll.  :func:`missed_plays` finds the sequences of legal plays,
each of some roll, that lead from the position followed to the checkers seen: the player on roll's
play then the opponent's.

Pure: engine only; the referee (``referee.core``) decides when to look and what to adopt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from engine.board import Board
from engine.plays import legal_plays
from engine.position import Position

ROLLS = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))  # the 21 rolls, higher die first


@dataclass(frozen=True, slots=True)
class Step:
    """One play the referee did not see: who, with which roll, and the position after it (mover's view)."""

    player: int
    dice: tuple[int, int]
    after: Position

    @property
    def board(self) -> Board:
        return Board.from_position(self.after, self.player)


def _fits(expected: Board, seen: Board, unsure: frozenset[int]) -> bool:
    """The board fits the reading: equal, or differing only on points read unsure (the bar never)."""
    if expected.bar != seen.bar:
        return False
    return all(a == b or i + 1 in unsure for i, (a, b) in enumerate(zip(expected.points, seen.points)))


def _afters(position: Position, dice: tuple[int, int]) -> list[Position]:
    """The distinct positions a legal play of ``dice`` leaves (the position itself when there is no play)."""
    plays = legal_plays(position, dice)
    if not plays:
        return [position]
    return list(dict.fromkeys(p.after for p in plays))


def _only_hit_since(side: tuple[int, ...], seen: tuple[int, ...], unsure: frozenset[int], dark_numbers: Iterable[int]) -> bool:
    """A player's checkers as seen can be ``side`` after the opponent's play: unmoved but for blots hit to
    the bar (``dark_numbers``: the dark point number of each of the player's indices, for the unsure check)."""
    hits = 0
    for i, point in zip(range(24), dark_numbers):
        if seen[i] == side[i] or point in unsure:
            continue
        if side[i] == 1 and seen[i] == 0:
            hits += 1
            continue
        return False
    return seen[24] >= side[24] + hits  # (the bar is checked exactly on the whole board)


def missed_plays(position: Position, player: int, seen: Board, unsure: frozenset[int] = frozenset(),
                 last_dice: tuple[int, int] | None = None) -> list[tuple[Step, ...]]:
    """The sequences of legal plays from ``position`` (``player`` on roll, not yet rolled) to the board seen:
    ``player``'s play then the opponent's (``last_dice``: the opponent's roll, when its dice are still seen).
    Sequences that fit the reading exactly come first; those fitting only on points read unsure after."""
    other = 1 - player
    dark_numbers = list(range(1, 25)) if player == 0 else list(range(24, 0, -1))
    mine_seen = seen.sides(player)[0]
    exact: list[tuple[Step, ...]] = []
    loose: list[tuple[Step, ...]] = []

    def found(steps: tuple[Step, ...]) -> None:
        (exact if steps[-1].board == seen else loose).append(steps)

    second_rolls = [last_dice] if last_dice is not None else list(ROLLS)
    for dice in ROLLS:
        for first in _afters(position, dice):
            if first == position:
                continue  # no play: nothing to tell it from a roll not made
            if not _only_hit_since(first.on_roll, mine_seen, unsure, dark_numbers):
                continue
            step = Step(player, dice, first)
            turned = first.swap()
            for dice2 in second_rolls:
                for second in _afters(turned, dice2):
                    if second != turned and _fits(Board.from_position(second, other), seen, unsure):
                        found((step, Step(other, dice2, second)))
    return exact or loose
