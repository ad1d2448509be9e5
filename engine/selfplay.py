"""Self-played games for tests and benchmarks: positions with the dice rolled in them.

Randomness is injected (any object with ``randint`` and ``random``, such as
``random.Random(seed)``), so the same seed gives the same positions.
"""

from __future__ import annotations

from typing import Iterator, Protocol

from .plays import Play, legal_plays
from .position import Position


class RandomSource(Protocol):
    def randint(self, a: int, b: int) -> int: ...
    def random(self) -> float: ...


def roll(rng: RandomSource) -> tuple[int, int]:
    """Two dice."""
    return rng.randint(1, 6), rng.randint(1, 6)


def _blots(side: tuple[int, ...]) -> int:
    return sum(1 for n in side[:24] if n == 1)


def _score(play: Play) -> float:
    """A cheap greedy taste: hit, make points, keep blots few, bear off."""
    mine = play.after.on_roll
    theirs = play.after.opponent
    made = sum(1 for n in mine[:24] if n >= 2)
    off = 15 - sum(mine)
    return 2.0 * theirs[24] - 1.0 * _blots(mine) + 0.6 * made + 0.5 * off


def choose(plays: list[Play], rng: RandomSource, greedy: bool) -> Play:
    """A play: the best by :func:`_score` when ``greedy``, else one at random."""
    if greedy:
        return max(plays, key=_score)
    return plays[rng.randint(0, len(plays) - 1)]


def game_positions(rng: RandomSource, greedy: bool = False) -> Iterator[tuple[Position, tuple[int, int]]]:
    """Every (position, dice) met in one self-played game, mover on roll."""
    position = Position.start()
    while True:
        dice = roll(rng)
        if dice[0] == dice[1] and position == Position.start():
            continue  # the opening roll is never a double
        yield position, dice
        plays = legal_plays(position, dice)
        if plays:
            position = choose(plays, rng, greedy).after
        if position.is_game_over():
            return
        position = position.swap()


def sample_positions(rng: RandomSource, count: int) -> list[tuple[Position, tuple[int, int]]]:
    """``count`` (position, dice) pairs from games played alternately at random
    and greedily, in the order met."""
    out: list[tuple[Position, tuple[int, int]]] = []
    game = 0
    while len(out) < count:
        for item in game_positions(rng, greedy=game % 2 == 1):
            out.append(item)
            if len(out) == count:
                break
        game += 1
    return out
