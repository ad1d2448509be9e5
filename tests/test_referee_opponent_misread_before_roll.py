"""Before a roll, the roller's own checkers standing as they stood and the opponent's read where no play can have
put them (a checker read backwards of where it stood): that is no move of the roller's before rolling, so no
``moved_before_roll`` is called on the roller; the roll read stands.  (Dev seed 45000: a lone stack left unread
and filled by the rest, with a phantom checker, made a false call.)  Written by hand from the rules (checkers only
move forward, and before the roll nothing of the roller's moves) and the physical picture."""

from engine.game import Phase
from opening_scene import LIGHT, PLAYED, board
from opening_scene import dark_played as light_to_roll
from referee.core import Seen, SeenDie, observe


def test_the_opponents_checker_read_backwards_is_no_move_of_the_roller_before_rolling():
    ref = light_to_roll()
    # dark's 11 read empty and a dark checker read on 23 (dark cannot move from 11 back to 23); light's as they stood
    misread = {**PLAYED, 11: 0, 23: 1}
    roll = (SeenDie(6, True, LIGHT, 0.99), SeenDie(3, True, LIGHT, 0.99))
    ref, out = observe(ref, Seen(board=board(misread), dice=roll, hand=1))
    assert not [c for c in out.calls if c.kind == "moved_before_roll"]
    assert ref.game.turn == 1 and ref.game.phase is Phase.MOVE and ref.game.dice == (6, 3)


def test_the_rollers_own_checkers_moved_with_no_play_of_one_roll_is_still_called():
    ref = light_to_roll()
    # light's two back checkers moved from dark's 1 to 14 and 15 (light's 11 and 10): 27 pips, more than a roll, then the dice
    moved = {**PLAYED, 1: 0, 14: -1, 15: -1}
    roll = (SeenDie(6, True, LIGHT, 0.99), SeenDie(3, True, LIGHT, 0.99))
    ref, out = observe(ref, Seen(board=board(moved), dice=roll, hand=1))
    assert [(c.kind, c.player) for c in out.calls if c.kind != "please_look"] == [("moved_before_roll", 1)]
