"""A point vision is unsure of is counted by the rest when no other unsure point could hold that side's checkers
in its stead: every checker of both sides is in view, and the other points read unsure hold the other colour.  A
play one pip too far onto such a point is then an illegal play called, not a look; with two unsure points of the
mover's own (a checker could sit on either), it stays a look.  Written by hand from the rules (15 checkers a side)
and the physical picture."""

from engine.board import Board
from engine.game import Phase, Rules
from referee.core import Seen, SeenDie, Settings, observe, start

SETTINGS = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"))
DARK, LIGHT = SETTINGS.right_half(0), SETTINGS.right_half(1)

# dark's numbers, dark positive: the start position (dark on 6, 8, 13, 24; light on 1, 12, 17, 19)
START = {6: 5, 8: 3, 13: 5, 24: 2, 1: -2, 12: -5, 17: -3, 19: -5}
# dark's opening 5-2 played one pip too far: 13/8 13/10 (the 2 moved three pips); 15 dark and 15 light in view
TOO_FAR = {**START, 13: 3, 8: 4, 10: 1}


def board(points: dict[int, int]) -> Board:
    return Board(tuple(points.get(i, 0) for i in range(1, 25)), (0, 0))


def dark_to_play_5_2():
    ref = start(SETTINGS)
    ref, _ = observe(ref, Seen(board=board(START)))
    ref, _ = observe(ref, Seen(board=board(START), dice=(SeenDie(5, True, DARK, 0.99), SeenDie(2, True, LIGHT, 0.99))))
    assert ref.game.phase is Phase.MOVE and ref.game.turn == 0 and ref.game.dice == (5, 2)
    return ref


def judged(unsure: set[int]):
    ref = dark_to_play_5_2()
    ref, _ = observe(ref, Seen(board=board(TOO_FAR), dice=(SeenDie(5, True, DARK, 0.99), SeenDie(2, True, DARK, 0.99)),
                               unsure_points=frozenset(unsure)))
    return observe(ref, Seen(board=board(TOO_FAR), unsure_points=frozenset(unsure)))  # dice picked up: the play is judged


def test_too_far_onto_a_doubted_point_is_called_when_the_other_doubt_is_the_opponents():
    # 10 (dark's one checker) and 12 (light's five) read unsure: dark's 15 count 10, light's 15 count 12
    ref, out = judged({10, 12})
    assert [(c.kind, c.player) for c in out.calls] == [("illegal_play", 0)]
    assert ref.game.turn == 0 and not out.events


def test_too_far_onto_a_doubted_point_is_a_look_when_another_of_the_movers_points_is_doubted():
    # 10 and 8 both dark's, both unsure: a checker could be on either, the total does not tell which
    ref, out = judged({10, 8})
    assert [(c.kind, c.player) for c in out.calls] == [("please_look", 0)]
    assert ref.game.turn == 0 and not out.events
