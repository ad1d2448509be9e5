"""Plays the referee may have missed: the legal plays that lead from the position it follows to a board seen.

When the referee's belief (whose turn, which position) stops explaining the readings, the physical
sequence is nearly always this: a player rolled, the camera missed the roll (a die unread or read
cocked, the dice picked up under a hand), the player moved, and the opponent rolled and moved too;
the referee still waits for the first roll.  :func:`missed_plays` finds the sequences of legal plays,
each of some roll, that lead from the position followed to the checkers seen: the player on roll's
play then the opponent's.  The first may be no play at all: a roll with no legal play (a checker on the
bar against points made), which leaves nothing on the board to see; the opponent's play then tells
that the turn passed.

:func:`decide` says which explanation, if any, the record may hold.  Dice read on any reading since the
last play (a die read while the other was hidden, a roll read whole) are evidence: the explanations that
leave the fewest of them unexplained are kept.  If those all make the same plays, the plays are certain
and are recorded; only the roll of a play may still be open (8/5 6/5 is 3-1 or 1-1), and the likeliest
is recorded, marked as taken from the play, with the others named.  If they make different plays, the
record would be a guess: nothing is recorded and the players are asked.

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


def moved_beyond_hits(position: Position, player: int, seen: Board, unsure: frozenset[int] = frozenset()) -> bool:
    """Whether ``player``'s checkers as seen (``position``: ``player``'s view) moved otherwise than blots hit to
    the bar: that player has played since ``position``."""
    dark_numbers = list(range(1, 25)) if player == 0 else list(range(24, 0, -1))
    side = seen.sides(player)[0]
    return not _only_hit_since(position.on_roll, side, unsure, dark_numbers)


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
            # (a roll with no legal play is a turn too: the opponent's play below tells that it passed)
            if not _only_hit_since(first.on_roll, mine_seen, unsure, dark_numbers):
                continue
            step = Step(player, dice, first)
            turned = first.swap()
            for dice2 in second_rolls:
                for second in _afters(turned, dice2):
                    if second != turned and _fits(Board.from_position(second, other), seen, unsure):
                        found((step, Step(other, dice2, second)))
    return exact or loose


RollsRead = tuple[tuple[int, tuple[int, int]], ...]  # (player, roll) read whole since the last play
DiceRead = tuple[tuple[int, int], ...]  # (player, die) read in a player's half since the last play


def _unexplained(steps: tuple[Step, ...], rolls_seen: RollsRead, dice_seen: DiceRead, down: tuple[int, tuple[int, int]] | None) -> int:
    """How many of the rolls and dice read since the last play no roll of ``steps`` (or the roll ``down``, the
    next one lying on the board) holds: a die read in a player's half is a die of one of that player's rolls."""
    rolls = [(s.player, s.dice) for s in steps] + ([down] if down else [])
    misses = sum(seen not in rolls for seen in rolls_seen)
    return misses + sum(not any(p == player and value in dice for p, dice in rolls) for player, value in dice_seen)


def _plays(steps: tuple[Step, ...]) -> tuple[tuple[int, Position], ...]:
    return tuple((s.player, s.after) for s in steps)


def _chance(steps: tuple[Step, ...]) -> int:
    """How likely the rolls are, relatively: a non-double is twice as likely as a double."""
    chance = 1
    for s in steps:
        chance *= 1 if s.dice[0] == s.dice[1] else 2
    return chance


@dataclass(frozen=True, slots=True)
class Decision:
    """What the record may hold of the explanations found: ``adopt`` (the plays certain; its rolls the likeliest
    of those the evidence leaves) with ``alike`` (the same plays with other rolls, to be named), or, when the
    explanations the evidence leaves make different plays, nothing to adopt and ``open`` (all of them, to name)."""

    adopt: tuple[Step, ...] | None
    alike: tuple[tuple[Step, ...], ...] = ()
    open: tuple[tuple[Step, ...], ...] = ()


def decide(found: list[tuple[Step, ...]], rolls_seen: RollsRead = (), dice_seen: DiceRead = (),
           down: tuple[int, tuple[int, int]] | None = None) -> Decision:
    """Of the explanations ``found`` (see :func:`missed_plays`), the one the record may hold, if the evidence
    (the rolls and dice read since the last play, and the roll ``down`` still lying) leaves no doubt about the
    plays.  Never a guess between different plays."""
    if not found:
        return Decision(None)
    score = {steps: _unexplained(steps, rolls_seen, dice_seen, down) for steps in found}
    least = min(score.values())
    kept = [steps for steps in found if score[steps] == least]
    if len({_plays(steps) for steps in kept}) > 1:
        return Decision(None, open=tuple(kept))
    ranked = sorted(kept, key=_chance, reverse=True)  # stable: of rolls alike, the first found (higher die first)
    return Decision(ranked[0], alike=tuple(ranked[1:]))
