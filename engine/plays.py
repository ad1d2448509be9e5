"""Legal plays for a roll, and their notation.

Rules (all four rule sheets agree): enter from the bar before anything else; a
checker may not land on, nor stop on the way at, a point held by two or more
opposing checkers; landing on a blot hits it; bear off only with all fifteen
checkers home, by the exact number or, with a higher number, from the highest
occupied point; use both dice if possible (all four of a double, else as many
as possible); when only one die of two can be played, play the higher if it
can be played.

Plays are distinct by resulting position.  Notation is GNU Backgammon's:
``24/18 13/11``, ``bar/22``, ``6/off``, ``8/5*``, ``13/11(2)``, ``24/18*/13``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Sequence

from .position import BAR, OFF, Position, PositionError

# Bit offset of each slot in the integer key of a board under construction:
# slots 0..25 are the mover's (0 = off, 1..24 points, 25 = bar), 26..51 the opponent's.
_W = [1 << (4 * i) for i in range(52)]
_OPP = 26


class PlayError(ValueError):
    """A play's notation cannot be read, or does not fit the position and dice."""


@dataclass(frozen=True, slots=True)
class Hop:
    """One checker moved by one die: ``src`` and ``dst`` in the mover's numbering
    (25 = bar, 0 = off); ``hit`` when it landed on a blot."""

    src: int
    dst: int
    hit: bool = False

    def __str__(self) -> str:
        return f"{_point_name(self.src)}/{_point_name(self.dst)}{'*' if self.hit else ''}"


@dataclass(frozen=True, slots=True)
class Play:
    """A whole turn's hops and the position they lead to.

    ``after`` is seen from the mover's side (the mover still "on roll"); the
    next player's view is ``after.swap()``.
    """

    hops: tuple[Hop, ...]
    after: Position

    def __str__(self) -> str:
        return format_hops(self.hops)

    @property
    def dice_used(self) -> int:
        """How many dice the play uses."""
        return len(self.hops)


def legal_plays(position: Position, dice: Sequence[int]) -> list[Play]:
    """Every legal play of ``dice`` for the player on roll, one per resulting position.

    An empty list means the roll cannot be played at all.
    """
    d1, d2 = check_dice(dice)
    me = [0, *position.on_roll]
    me[0] = 15 - sum(position.on_roll)
    opp = [15 - sum(position.opponent), *position.opponent]
    found = _generate(me, opp, d1, d2)
    trusted = Position._trusted
    return [Play(tuple([Hop(*h) for h in hops]), trusted(mine, theirs)) for hops, mine, theirs in found.values()]


def check_dice(dice: Sequence[int]) -> tuple[int, int]:
    """The dice as (higher, lower); raises PlayError unless two numbers 1-6."""
    if len(dice) != 2 or any(not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
        raise PlayError(f"dice {tuple(dice)!r} must be two numbers from 1 to 6")
    return max(dice), min(dice)


def single_die_results(position: Position, die: int) -> list[Position]:
    """Positions after moving one checker by one die (bar first), mover's view."""
    me = [15 - sum(position.on_roll), *position.on_roll]
    opp = [15 - sum(position.opponent), *position.opponent]
    search = _Search(me, opp)
    search.step([die], 0, _key_of(me, opp), 25, False)
    trusted = Position._trusted
    return [trusted(mine, theirs) for _, mine, theirs in search.best.values()] if search.most else []


def _key_of(me: Sequence[int], opp: Sequence[int]) -> int:
    key = 0
    for i in range(26):
        key += me[i] * _W[i] + opp[i] * _W[_OPP + i]
    return key


def _generate(me: list[int], opp: list[int], high: int, low: int) -> dict[int, _Found]:
    """Best plays by key: most dice used, and the higher die when only one fits."""
    search = _Search(me, opp)
    key = _key_of(me, opp)
    if high == low:
        search.step([high] * 4, 0, key, 25, True)
    else:
        search.step([high, low], 0, key, 25, False)
        search.step([low, high], 0, key, 25, False)
        if search.most == 1:
            # Only one die can be played: the higher one if it can be.
            single = _Search(me, opp)
            single.step([high], 0, key, 25, False)
            if single.most == 0:
                single.step([low], 0, key, 25, False)
            return single.best
    return search.best if search.most else {}


_RawHop = tuple[int, int, bool]
_Found = tuple[tuple[_RawHop, ...], tuple[int, ...], tuple[int, ...]]  # hops, mover's side, opponent's side


class _Search:
    """Depth-first make/unmake search over hops; keeps plays of the greatest length."""

    __slots__ = ("me", "opp", "best", "most", "hops")

    def __init__(self, me: list[int], opp: list[int]) -> None:
        self.me = me
        self.opp = opp
        self.best: dict[int, _Found] = {}
        self.most = 0
        self.hops: list[_RawHop] = []

    def _record(self, key: int) -> None:
        n = len(self.hops)
        if n > self.most:
            self.most = n
            self.best.clear()
        if n == self.most and key not in self.best:
            self.best[key] = (tuple(self.hops), tuple(self.me[1:]), tuple(self.opp[1:]))

    def step(self, dice: list[int], i: int, key: int, top: int, doubles: bool) -> None:
        """Play ``dice[i:]`` from sources no higher than ``top`` (doubles only)."""
        if i == len(dice):
            self._record(key)
            return
        me, opp, hops = self.me, self.opp, self.hops
        die = dice[i]
        moved = False
        for src in _sources(me, opp, die, top if doubles else 25):
            moved = True
            dst = src - die if src > die else 0
            hit = dst > 0 and opp[25 - dst] == 1
            me[src] -= 1
            me[dst] += 1
            k = key - _W[src] + _W[dst]
            if hit:
                opp[25 - dst] = 0
                opp[25] += 1
                k += _W[_OPP + 25] - _W[_OPP + 25 - dst]
            hops.append((src, dst, hit))
            self.step(dice, i + 1, k, src, doubles)
            hops.pop()
            if hit:
                opp[25] -= 1
                opp[25 - dst] = 1
            me[dst] -= 1
            me[src] += 1
        if not moved:
            self._record(key)


def _sources(me: list[int], opp: list[int], die: int, top: int) -> Iterator[int]:
    """Points (mover's numbering, 25 = bar) from which ``die`` can be played, highest first."""
    if me[25]:
        if top == 25 and opp[die] < 2:  # entering on my point 25-die = opponent's point die
            yield 25
        return
    highest = 24
    while highest > 0 and not me[highest]:
        highest -= 1
    home = highest <= 6
    for src in range(min(top, highest), 0, -1):
        if not me[src]:
            continue
        dst = src - die
        if dst > 0:
            if opp[25 - dst] < 2:
                yield src
        elif home and (dst == 0 or src == highest):
            yield src


# --- notation ---------------------------------------------------------------


def _point_name(n: int) -> str:
    if n == BAR:
        return "bar"
    if n == OFF:
        return "off"
    return str(n)


def format_hops(hops: Sequence[Hop]) -> str:
    """GNU Backgammon's notation for a play.

    As gnubg writes it: hops in decreasing order of start (then end) point; a
    hop that starts where an earlier one ended continues that checker's path,
    which keeps the intermediate point only where it hit; identical paths are
    counted, ``13/11(2)``; each hit point is starred once.
    """
    hit_points = {h.dst for h in hops if h.hit}
    paths: list[list[int]] = []
    for hop in sorted(hops, key=lambda h: (h.src, h.dst), reverse=True):
        for path in paths:
            if path[-1] == hop.src:
                if path[-1] not in hit_points:
                    path.pop()
                path.append(hop.dst)
                break
        else:
            paths.append([hop.src, hop.dst])
    counted: list[tuple[list[int], int]] = []
    for path in paths:
        for k, (seen, n) in enumerate(counted):
            if seen == path:
                counted[k] = (seen, n + 1)
                break
        else:
            counted.append((path, 1))
    starred: set[int] = set()
    texts = []
    for path, n in counted:
        names = [_point_name(path[0])]
        for point in path[1:]:
            star = point in hit_points and (point != path[-1] or point not in starred)
            starred.add(point) if star else None
            names.append(_point_name(point) + ("*" if star else ""))
        texts.append("/".join(names) + (f"({n})" if n > 1 else ""))
    return " ".join(texts)


def apply_hops(position: Position, hops: Sequence[Hop]) -> Position:
    """The position after moving ``hops`` (hits follow from the board), mover's view.

    Only the board is checked (a checker to move, a point not held); the dice
    are not: that is :func:`legal_plays`' job.
    """
    me = list(position.on_roll)
    opp = list(position.opponent)
    for hop in hops:
        s, d = hop.src, hop.dst
        if not 1 <= s <= 25 or not 0 <= d <= 24 or d >= s:
            raise PlayError(f"{hop} is not a forward move")
        if me[s - 1] <= 0:
            raise PlayError(f"{hop}: no checker on {_point_name(s)}")
        me[s - 1] -= 1
        if d:
            if opp[24 - d] >= 2:
                raise PlayError(f"{hop}: point {d} is held by the opponent")
            if opp[24 - d] == 1:
                opp[24 - d] = 0
                opp[24] += 1
            me[d - 1] += 1
    try:
        return Position(tuple(me), tuple(opp))
    except PositionError as exc:
        raise PlayError(str(exc)) from None


# --- reading notation ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Path:
    """One written move: the points a checker passes through (``25`` = bar,
    ``0`` = off), the points marked as hits, and how many checkers made it."""

    points: tuple[int, ...]
    hits: frozenset[int]
    count: int = 1


def parse_paths(text: str) -> list[Path]:
    """Read move notation (``bar/22 13/11(2) 24/18*/13 6/off``) into paths.

    Accepts ``bar``/``25`` and ``off``/``0``, ``*`` hits, ``(n)`` repeats, and
    commas or spaces between moves.  Raises :class:`PlayError` on anything else.
    """
    paths: list[Path] = []
    for token in text.replace(",", " ").split():
        paths.append(parse_path(token, text))
    return paths


def parse_path(token: str, text: str, forward: bool = True) -> Path:
    """One written move (``24/18*/13``, ``13/11(2)``) of ``text``; ``forward=False``
    also takes a checker moved backwards (``23/bar``), as a record may hold one."""
    count = 1
    body = token
    if body.endswith(")") and "(" in body:
        body, _, rep = body[:-1].partition("(")
        if not rep.isdigit() or not 1 <= int(rep) <= 4:
            raise PlayError(f"bad repeat {token!r} in {text!r}")
        count = int(rep)
    parts = body.split("/")
    if len(parts) < 2:
        raise PlayError(f"{token!r} in {text!r} is not a move like 13/11")
    points: list[int] = []
    hits: set[int] = set()
    for part in parts:
        hit = part.endswith("*")
        name = part.rstrip("*").lower()
        if name == "bar":
            n = BAR
        elif name == "off":
            n = OFF
        elif name.isdigit() and 0 <= int(name) <= 25:
            n = int(name)
        else:
            raise PlayError(f"{part!r} in {text!r} is not a point (1-24, bar or off)")
        if forward and points and n >= points[-1]:
            raise PlayError(f"{token!r} in {text!r} does not move forward")
        points.append(n)
        if hit:
            hits.add(n)
    return Path(tuple(points), frozenset(hits), count)


def mover_side_after(position: Position, paths: Sequence[Path]) -> tuple[int, ...] | None:
    """The mover's checkers after the written paths, or None when a path starts
    where no checker stands."""
    me = list(position.on_roll)
    for path in paths:
        for _ in range(path.count):
            src, dst = path.points[0], path.points[-1]
            if me[src - 1] <= 0:
                return None
            me[src - 1] -= 1
            if dst:
                me[dst - 1] += 1
    return tuple(me)


def parse_play(text: str, position: Position, dice: Sequence[int]) -> Play:
    """The legal play of ``dice`` that ``text`` describes.

    The written moves fix where the mover's checkers end; when several legal
    plays end so (they differ only in hits on the way), the one whose hits the
    text marks is chosen.  An empty text is the play of a roll that cannot move.
    """
    plays = legal_plays(position, dice)
    paths = parse_paths(text)
    if not paths:
        if not plays:
            return Play((), position)
        raise PlayError(f"no move written for {_dice_text(dice)}, but {str(plays[0])!r} is possible")
    side = mover_side_after(position, paths)
    if side is None:
        raise PlayError(f"{text!r}: a move starts where no checker stands (position {position.id()})")
    matches = [p for p in plays if p.after.on_roll == side]
    if not matches:
        raise PlayError(f"{text!r} is not a legal play of {_dice_text(dice)} in position {position.id()}")
    starred: set[int] = set().union(*(p.hits for p in paths))
    landed = starred | {p.points[-1] for p in paths}

    def mismatch(play: Play) -> tuple[int, int]:
        hits = {h.dst for h in play.hops if h.hit}
        return len(hits - landed), len(starred - hits)

    return min(matches, key=mismatch)


def _dice_text(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)


def after_written(position: Position, text: str) -> Position:
    """The position after a written play with every hit marked (as GNU
    Backgammon writes them), without checking dice: mover's view."""
    paths = parse_paths(text)
    side = mover_side_after(position, paths)
    if side is None:
        raise PlayError(f"{text!r}: a move starts where no checker stands")
    opp = list(position.opponent)
    landed = {p.points[-1] for p in paths} | set().union(*(p.hits for p in paths))
    for point in landed:
        if 1 <= point <= 24 and opp[24 - point] == 1:
            opp[24 - point] = 0
            opp[24] += 1
    return Position(side, tuple(opp))
