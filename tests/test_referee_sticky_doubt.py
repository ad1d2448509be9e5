"""A point taken in doubt at the start and misread the same way on every later frame (issue 43).

Vision that misreads a stack once tends to misread it alike while it lies still: here light's five on dark's 12
are read as no checker at all, the camera unsure of it on the first reading only.  The start is taken with that
point in doubt; the later, surer readings of the same thing must not turn the misread into a fact, or a legal
play elsewhere looks like checkers vanished or moved (a false call, a lost record).

Boards are written by hand in dark's numbering (dark's checkers positive, light's negative): the start has light's
2 on dark's 1, light's 5 on dark's 12, light's 3 on dark's 17, light's 5 on dark's 19, and dark's 5 on 6, 3 on 8,
5 on 13, 2 on 24.  Dark's right-hand half is the home half (dark's 1-6 side), light's the outer half."""

from engine.board import Board
from engine.game import Move, OpeningRoll, Roll, Rules
from referee.core import Referee, Seen, SeenDie, Settings, Stage, observe, start

SETTINGS = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"))
START = (-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2)


def misread(points: tuple[int, ...]) -> tuple[int, ...]:
    """The board as vision reads it: light's stack on dark's 12 read as empty."""
    return points[:11] + (0,) + points[12:]


def seen(points: tuple[int, ...], *dice: SeenDie, unsure: frozenset[int] = frozenset()) -> Seen:
    return Seen(board=Board(points, (0, 0)), dice=tuple(dice), cube_value=1, cube_position="centre", unsure_points=unsure)


def _opened_three_one(after: tuple[int, ...]) -> tuple[Referee, list[object], list[str]]:
    """The start read with dark's 12 empty (unsure), Ann's 3 and Bob's 1 thrown, Ann's checkers moved as ``after``
    with the dice down, then the dice picked up: the referee, its events and its calls."""
    ref = start(SETTINGS)
    events: list[object] = []
    calls: list[str] = []
    opening = (SeenDie(3, True, "home"), SeenDie(1, True, "outer"))
    for reading in (seen(misread(START), unsure=frozenset({12})), seen(misread(START), *opening),
                    seen(misread(after), *opening), seen(misread(after))):
        ref, out = observe(ref, reading)
        events += out.events
        calls += [c.kind for c in out.calls]
    return ref, events, calls


def test_a_legal_play_from_a_start_misread_the_same_way_throughout_is_recorded_without_a_call() -> None:
    """Ann opens 3-1 with 8/5 6/5 (dark's 8 holds 2, dark's 6 holds 4, dark's 5 holds 2).  Light's stack on dark's 12
    is untouched and still read empty: the play is Ann's 8/5 6/5, recorded, and nothing is called.  Then Bob rolls
    3-2 into his half: that roll is his."""
    after = START[:4] + (2, 4, 0, 2) + START[8:]
    ref, events, calls = _opened_three_one(after)
    assert calls == []
    assert events[0] == OpeningRoll((3, 1))
    moves = [e for e in events if isinstance(e, Move)]
    assert len(moves) == 1 and moves[0].player == 0 and not moves[0].accept_illegal
    assert Board.from_position(moves[0].after, 0) == Board(after, (0, 0))
    ref, out = observe(ref, seen(misread(after), SeenDie(3, True, "outer"), SeenDie(2, True, "outer")))
    assert [c.kind for c in out.calls] == []
    assert out.events == (Roll(1, (3, 2)),)


def test_a_real_illegal_play_from_such_a_start_is_still_called() -> None:
    """Ann's 3-1 played as 13/8, five pips for a roll of four (dark's 13 holds 4, dark's 8 holds 4): the points it
    changes were read surely, so it is an illegal play, called, whatever the misread on dark's 12."""
    after = START[:7] + (4,) + START[8:12] + (4,) + START[13:]
    ref, events, calls = _opened_three_one(after)
    assert calls == ["illegal_play"]
    assert ref.stage is Stage.ILLEGAL
    assert not any(isinstance(e, Move) for e in events)
