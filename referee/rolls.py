"""Who rolled: telling a roll into the wrong half from a roll out of turn.

Seen from above once the dice lie still, two rolls look the same: the player on roll
throwing into the opponent's right-hand half (``wrong_half``: roll again) and the
opponent, who has just played, throwing into their own right-hand half out of turn
(``out_of_turn``: the roll does not count).  Both leave the dice in the opponent's
half.  What tells them apart is the throw itself: a player throws from their own
seat, so the hand (with the cup) that reached over the board last before the dice
settled came in from the roller's side of the table.

Each player sits behind their own home and outer boards (docs/board-spec.md: points
are numbered from dark's side), so dark's points 1 to 12 and the bar's dark end lie on
dark's side, and 13 to 24 and the bar's light end on light's side, on every mounting.
A hand over the board hides points near the edge it came in from; the reader reports
them as ``occluded``.

Pure: no camera, no clock.  :mod:`referee.hands` finds the hand on the moving frames
before a reading settles; :mod:`referee.core` makes the call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from engine.colour import COLOURS


def side_of(place: str) -> int | None:
    """The player (0 dark, 1 light) on whose side of the table a place of the reading lies
    (``"point:N"`` in dark's numbers, ``"bar:dark"``, ``"bar:light"``); None for anything else."""
    kind, _, where = place.partition(":")
    if kind == "bar" and where in COLOURS:
        return COLOURS.index(where)
    if kind == "point" and where.isdigit() and 1 <= int(where) <= 24:
        return 0 if int(where) <= 12 else 1
    return None


def hand_side(hidden: Iterable[str], already: Iterable[str] = ()) -> int | None:
    """The player from whose side a hand reaches over the board, from the places it hides
    (those in ``already`` were hidden without it, on the settled reading, and do not count).
    A hand hides the points along its own edge first, and may reach past the middle: the side
    with at least twice as many hidden places as the other is the hand's.  None when nothing
    is hidden, or both sides about alike (two hands, or one across the board): not known."""
    before = set(already)
    counts = [0, 0]
    for place in hidden:
        side = side_of(place)
        if side is not None and place not in before:
            counts[side] += 1
    for side in (0, 1):
        if counts[side] and counts[side] >= 2 * counts[1 - side]:
            return side
    return None


@dataclass(frozen=True, slots=True)
class RollCall:
    """What the referee calls on a roll whose dice are not all in the roller's right-hand half:
    ``kind`` (``wrong_half``, ``out_of_turn`` or ``please_look``), about whom, and why."""

    kind: str
    player: int
    why: str


def dice_out_of_place(on_roll: int, halves: Iterable[str], right_halves: tuple[str, str], hand: int | None,
                      names: tuple[str, str] = ("Dark", "Light")) -> RollCall | None:
    """The call on dice lying in ``halves`` (one per die) while ``on_roll`` is to roll; None when
    every die lies in the roller's right-hand half (their roll).

    - every die in the opponent's right-hand half: the hand that threw them came from the roller's
      side (a roll into the wrong half) or from the opponent's (who just played: out of turn);
      a hand not seen, or seen from both sides, decides nothing, and nobody is called: a look;
    - the dice split between the halves, or a die off the playing surface: the roller's roll with
      a die in the wrong place, unless the last hand came from the opponent's side, which does
      not fit it: a look.
    """
    halves = tuple(halves)
    mine, theirs = right_halves[on_roll], right_halves[1 - on_roll]
    other = 1 - on_roll
    if all(h == mine for h in halves):
        return None
    wrong = RollCall("wrong_half", on_roll, f"the dice must land in {COLOURS[on_roll]}'s right-hand half")
    if halves and all(h == theirs for h in halves):
        if hand == on_roll:
            return wrong
        if hand == other:
            return RollCall("out_of_turn", other, f"it is {names[on_roll]}'s turn to roll, into {COLOURS[on_roll]}'s right-hand half; "
                                                  f"{names[other]} has just played")
        return RollCall("please_look", on_roll,
                        f"the dice lie in {COLOURS[other]}'s right-hand half and the camera did not see who threw them: {names[on_roll]} "
                        f"rolled into the wrong half, or {names[other]} rolled out of turn; either way the roll does not count: "
                        f"{names[on_roll]} rolls into {COLOURS[on_roll]}'s right-hand half")
    if hand == other:
        return RollCall("please_look", on_roll,
                        f"a die lies outside {COLOURS[on_roll]}'s right-hand half and the last hand over the board was "
                        f"{names[other]}'s: the roll does not count; {names[on_roll]} rolls into {COLOURS[on_roll]}'s right-hand half")
    return wrong
