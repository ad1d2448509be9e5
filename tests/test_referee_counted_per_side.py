"""A point vision is unsure of is counted by the rest when no other unsure point could hold that side's checkers
in its stead: every checker of both sides is in view, and the other points read unsure hold the other colour.  A
play one pip too far onto such a point is then an illegal play called, not a look; with two unsure points of the
mover's own (a checker could sit on either), it stays a look.  Written by hand from the rules (15 checkers a side)
and the physical picture."""

from opening_scene import DARK_DICE, START, board, dark_to_play
from referee.core import Seen, observe

# dark's opening 5-2 played one pip too far: 13/8 13/10 (the 2 moved three pips); 15 dark and 15 light in view
TOO_FAR = {**START, 13: 3, 8: 4, 10: 1}


def judged(unsure: set[int]):
    ref, _ = observe(dark_to_play(), Seen(board=board(TOO_FAR), dice=DARK_DICE, unsure_points=frozenset(unsure)))
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
