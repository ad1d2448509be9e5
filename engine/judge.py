"""Judgement of a physical play: the position before, the dice, the position seen after.

Positions are the mover's view (the mover "on roll" in both).  The position seen
after need not be possible (a camera can see 16 checkers or both colours on one
point), so it is given as two raw sides, each 25 counts as in :class:`Position`.
Points named in a verdict are in the mover's numbering: 1-24, 25 = bar, 0 = off.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Sequence

from .plays import Play, check_dice, legal_plays, single_die_results
from .position import CHECKERS, Position

Side = tuple[int, ...]


class Fault(enum.Enum):
    """Kinds of illegal play, in the words of the rules."""

    CHECKER_COUNT = "checker count changed"
    OPPONENT_MOVED = "opponent's checkers moved"
    HIT_NOT_ON_BAR = "hit checker not put on the bar"
    SHARED_POINT = "both colours on one point"
    HELD_POINT = "landed on a held point"
    BACKWARDS = "checker moved backwards"
    MOVED_WHILE_ON_BAR = "moved while a checker waited on the bar"
    BORE_OFF_NOT_HOME = "bore off with checkers outside home"
    NOT_THE_DICE = "numbers that are not the dice"
    TOO_FEW_DICE = "fewer dice used than possible"
    LOWER_DIE = "lower die played when the higher was required"
    NO_PLAY_POSSIBLE = "moved when the roll could not be played"


@dataclass(frozen=True, slots=True)
class Reason:
    """One thing wrong with a play: its kind, plain words, and the points involved."""

    fault: Fault
    text: str
    points: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Verdict:
    """Legal (with the play) or illegal (with every reason), and the legal plays
    closest to what was seen, best first."""

    legal: bool
    play: Play | None
    reasons: tuple[Reason, ...] = ()
    closest: tuple[Play, ...] = field(default=())

    @property
    def points(self) -> tuple[int, ...]:
        """Every point named by a reason, for the LEDs."""
        return tuple(sorted({p for r in self.reasons for p in r.points}, reverse=True))


def judge(
    before: Position,
    dice: Sequence[int],
    after: Position | tuple[Sequence[int], Sequence[int]],
    closest: int = 3,
) -> Verdict:
    """Judge the play that turned ``before`` into ``after`` with ``dice``."""
    check_dice(dice)
    mine, theirs = (after.on_roll, after.opponent) if isinstance(after, Position) else map(tuple, after)
    mine, theirs = tuple(mine), tuple(theirs)
    plays = legal_plays(before, dice)
    for play in plays:
        if play.after.on_roll == mine and play.after.opponent == theirs:
            return Verdict(True, play)
    if not plays and mine == before.on_roll and theirs == before.opponent:
        return Verdict(True, Play((), before))
    reasons = _structural(before, mine, theirs, plays)
    if not reasons:
        reasons = _dice_reasons(before, dice, mine, theirs, plays)
    return Verdict(False, None, tuple(reasons), _closest(plays, mine, theirs, closest))


# --- structural faults: what no roll of any dice could explain ------------------


def _structural(before: Position, mine: Side, theirs: Side, plays: list[Play]) -> list[Reason]:
    reasons: list[Reason] = []
    reasons += _count_faults(before, mine, theirs)
    reasons += _opponent_faults(before, mine, theirs)
    reasons += _shared_faults(before, mine, theirs)
    reasons += _backward_faults(before.on_roll, mine)
    reasons += _bar_faults(before.on_roll, mine)
    reasons += _bear_off_faults(before.on_roll, mine)
    if not plays and not reasons:
        reasons.append(
            Reason(Fault.NO_PLAY_POSSIBLE, "this roll cannot be played, so no checker may move", _changed(before.on_roll, mine))
        )
    return reasons


def _changed(a: Side, b: Side) -> tuple[int, ...]:
    return tuple(i + 1 for i in range(25) if a[i] != b[i])


def _count_faults(before: Position, mine: Side, theirs: Side) -> list[Reason]:
    out = []
    if sum(mine) > CHECKERS or sum(mine) > sum(before.on_roll):
        extra = sum(mine) - sum(before.on_roll)
        out.append(
            Reason(
                Fault.CHECKER_COUNT,
                f"the mover has {sum(mine)} checkers on the board, {extra} more than before the play",
                tuple(i + 1 for i in range(25) if mine[i] > before.on_roll[i]),
            )
        )
    # A hit checker left off the board is reported as such, not as a count change.
    delta = sum(theirs) - sum(before.opponent) + _hits_not_on_bar(before, mine, theirs)
    if delta:
        word = "more" if delta > 0 else "fewer"
        out.append(
            Reason(
                Fault.CHECKER_COUNT,
                f"the opponent has {abs(delta)} {word} checker{'s' if abs(delta) != 1 else ''} on the board than before the play",
                _opponent_points(before.opponent, theirs),
            )
        )
    return out


def _opponent_points(before: Side, after: Side) -> tuple[int, ...]:
    """Points (mover's numbering) where the opponent's count changed."""
    return tuple(_mover_point(i + 1) for i in range(25) if before[i] != after[i])


def _mover_point(opponent_point: int) -> int:
    return 25 if opponent_point == 25 else 25 - opponent_point


def _removed_blots(before: Position, theirs: Side) -> list[int]:
    """Opponent's indices of blots that are gone: hit, on the way or where the mover stopped."""
    was = before.opponent
    return [i for i in range(24) if was[i] == 1 and theirs[i] == 0]


def _hits_not_on_bar(before: Position, mine: Side, theirs: Side) -> int:
    return max(len(_removed_blots(before, theirs)) - max(theirs[24] - before.opponent[24], 0), 0)


def _opponent_faults(before: Position, mine: Side, theirs: Side) -> list[Reason]:
    """The opponent's checkers may only go from blots the mover hit to the bar."""
    out = []
    was = before.opponent
    removed = _removed_blots(before, theirs)
    lost = [i for i in range(24) if theirs[i] < was[i] and i not in removed]
    gained = [i for i in range(24) if theirs[i] > was[i]]
    bar_gain = theirs[24] - was[24]
    if lost or gained or bar_gain < 0:
        moved = tuple(_mover_point(i + 1) for i in lost + gained) or (25,)
        out.append(Reason(Fault.OPPONENT_MOVED, "the opponent's checkers were moved: only the mover's checkers may move", moved))
    missing = len(removed) - max(bar_gain, 0)
    if missing > 0:
        # Name the blots where the mover now stands first: those were surely hit.
        stood_on = [i for i in removed if mine[23 - i] > 0]
        named = (stood_on + [i for i in removed if i not in stood_on])[:missing]
        pts = tuple(_mover_point(i + 1) for i in named)
        words = ", ".join(str(p) for p in pts)
        out.append(Reason(Fault.HIT_NOT_ON_BAR, f"the checker hit on {words} was not put on the bar", pts))
    return out


def _shared_faults(before: Position, mine: Side, theirs: Side) -> list[Reason]:
    out = []
    for p in range(1, 25):
        if mine[p - 1] and theirs[24 - p]:
            if before.opponent[24 - p] >= 2 and mine[p - 1] > before.on_roll[p - 1]:
                out.append(Reason(Fault.HELD_POINT, f"a checker landed on {p}, a point held by the opponent", (p,)))
            else:
                out.append(Reason(Fault.SHARED_POINT, f"point {p} holds checkers of both colours", (p,)))
    for p in range(1, 25):
        if before.opponent[24 - p] >= 2 and mine[p - 1] > before.on_roll[p - 1] and not theirs[24 - p]:
            out.append(Reason(Fault.HELD_POINT, f"a checker landed on {p}, a point held by the opponent", (p,)))
    return out


def _backward_faults(was: Side, now: Side) -> list[Reason]:
    """Checkers only move towards point 1: for every point, no more checkers may
    stand at or beyond it than before."""
    bad: list[int] = []
    above_was = above_now = 0
    for p in range(25, 0, -1):
        above_was += was[p - 1]
        above_now += now[p - 1]
        if above_now > above_was and now[p - 1] > was[p - 1]:
            bad.append(p)
    if not bad or sum(now) > sum(was):
        return []  # extra checkers are already reported as a count fault
    words = ", ".join(str(p) for p in bad)
    return [Reason(Fault.BACKWARDS, f"a checker moved backwards, to {words}", tuple(bad))]


def _bar_faults(was: Side, now: Side) -> list[Reason]:
    if not was[24] or not now[24]:
        return []
    moved = tuple(p for p in range(1, 25) if now[p - 1] < was[p - 1])
    if not moved:
        return []
    return [
        Reason(
            Fault.MOVED_WHILE_ON_BAR,
            f"a checker on {', '.join(map(str, moved))} moved while a checker still waited on the bar",
            (25, *moved),
        )
    ]


def _bear_off_faults(was: Side, now: Side) -> list[Reason]:
    if sum(now) >= sum(was):
        return []
    outside = tuple(p for p in range(7, 26) if now[p - 1])
    if not outside:
        return []
    return [
        Reason(
            Fault.BORE_OFF_NOT_HOME,
            f"bore off while checkers were outside the home board (on {', '.join(_name(p) for p in outside)})",
            (0, *outside),
        )
    ]


def _name(p: int) -> str:
    return "bar" if p == 25 else "off" if p == 0 else str(p)


# --- faults of the dice: the board changes are possible, the numbers are not ---------


def _dice_reasons(before: Position, dice: Sequence[int], mine: Side, theirs: Side, plays: list[Play]) -> list[Reason]:
    changed = _changed(before.on_roll, mine)
    high, low = max(dice), min(dice)
    best = plays[0].dice_used if plays else 0
    for used, last_die in _partial_plays(before, dice).get((mine, theirs), ()):
        if best == used == 1 and high != low and last_die == low:
            return [
                Reason(
                    Fault.LOWER_DIE,
                    f"only one die can be played and it must be the higher one ({high}), but the {low} was played",
                    changed,
                )
            ]
        if used < best:
            return [
                Reason(
                    Fault.TOO_FEW_DICE,
                    _too_few_text(used, best, dice),
                    changed or tuple(sorted({h.src for h in plays[0].hops}, reverse=True)),
                )
            ]
    moved = sum(_pip(before.on_roll)) - sum(_pip(mine))
    rolled = high + low if high != low else 4 * high
    dice_text = f"{high}-{low}"
    if moved > rolled:
        text = f"checkers moved {moved} pips, more than the {rolled} of {dice_text}"
    else:
        text = f"the checkers moved ({_flows(before.on_roll, mine)}) cannot be made with {dice_text}"
    return [Reason(Fault.NOT_THE_DICE, text, changed)]


def _too_few_text(used: int, best: int, dice: Sequence[int]) -> str:
    if used == 0:
        return f"no checker was moved, but {'-'.join(map(str, dice))} can be played"
    if best == 2:
        return "only one die was played, but both can be played"
    return f"only {used} of the {best} moves of the double were played"


def _pip(side: Side) -> list[int]:
    return [(i + 1) * n for i, n in enumerate(side)]


def describe_movement(before: Position, after: Position | tuple[Sequence[int], Sequence[int]]) -> str:
    """The mover's checkers that moved, as notation (highest first), for a play
    that may not be legal: ``13/8 6/off``."""
    mine = after.on_roll if isinstance(after, Position) else tuple(after[0])
    return _flows(before.on_roll, tuple(mine))


def _flows(was: Side, now: Side) -> str:
    """Where checkers left and where they arrived, paired highest first: ``13/8 6/off``."""
    sources = [p for p in range(25, 0, -1) for _ in range(max(was[p - 1] - now[p - 1], 0))]
    targets = [p for p in range(25, 0, -1) for _ in range(max(now[p - 1] - was[p - 1], 0))]
    targets += [0] * (len(sources) - len(targets))
    return " ".join(f"{_name(s)}/{_name(t)}" for s, t in zip(sources, targets))


def _partial_plays(position: Position, dice: Sequence[int]) -> dict[tuple[Side, Side], list[tuple[int, int]]]:
    """Every position reachable by legally playing a part of the roll, with
    (dice used, the last die) for each way of reaching it."""
    high, low = max(dice), min(dice)
    orders = [[high] * 4] if high == low else [[high, low], [low, high]]
    out: dict[tuple[Side, Side], list[tuple[int, int]]] = {(position.on_roll, position.opponent): [(0, 0)]}
    for order in orders:
        frontier = [position]
        for used, die in enumerate(order, start=1):
            step = []
            for pos in frontier:
                for nxt in single_die_results(pos, die):
                    out.setdefault((nxt.on_roll, nxt.opponent), []).append((used, die))
                    step.append(nxt)
            frontier = list(dict.fromkeys(step))
    return out


# --- the closest legal plays -------------------------------------------------------


def _closest(plays: list[Play], mine: Side, theirs: Side, count: int) -> tuple[Play, ...]:
    return tuple(sorted(plays, key=lambda play: distance(play.after, mine, theirs))[:count])


def distance(position: Position, mine: Sequence[int], theirs: Sequence[int]) -> tuple[int, int]:
    """Checkers out of place between a position and seen sides: (all, the opponent's)."""
    d_mine = sum(abs(x - y) for x, y in zip(position.on_roll, mine))
    d_theirs = sum(abs(x - y) for x, y in zip(position.opponent, theirs))
    return d_mine + d_theirs, d_theirs
