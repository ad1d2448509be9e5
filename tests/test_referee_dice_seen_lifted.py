"""A die cannot still lie where the camera saw every die picked up, unless vision missed the dice then: they show
again as they lay, both, flat.  One die read beside a roll, cocked, in the half of the player who has just played,
after a reading that showed no dice at all, is a die vision made up (a phantom where the dice lay), not the mover's
dice still down.  The roll before the pickup (``roll_before_pickup``) stops play, so it needs the mover's dice seen
lying; else a look.  Written by hand from the rules ("a turn is completed when the player picks up his dice") and
the physical picture."""

from engine.game import Phase
from opening_scene import DARK, DARK_DICE, LIGHT, PLAYED, board, dark_played
from referee.core import Seen, SeenDie, observe


def test_a_die_read_in_the_half_of_dice_seen_picked_up_is_no_roll_before_pickup():
    ref = dark_played()
    roll = (SeenDie(6, True, LIGHT, 0.99), SeenDie(3, True, LIGHT, 0.97))
    phantom = SeenDie(6, False, DARK, 0.72)  # one die read where dark's dice lay, surely enough, cocked: not their pair
    new, out = observe(ref, Seen(board=board(PLAYED), dice=roll + (phantom,), hand=1))
    assert [c.kind for c in out.calls] == ["please_look"]
    # the roll itself goes on as soon as the dice read as one: light's 6-3
    new, out = observe(new, Seen(board=board(PLAYED), dice=roll))
    assert new.game.turn == 1 and new.game.phase is Phase.MOVE and new.game.dice == (6, 3)
    assert not [c for c in out.calls if c.kind != "please_look"]


def test_light_rolling_while_dark_dice_still_lie_after_the_play_is_still_void():
    # the same board, but dark's dice were never seen lifted: they lie in dark's half as light throws beside them
    ref = dark_played(picked_up=False)
    roll = (SeenDie(6, True, LIGHT, 0.99), SeenDie(3, True, LIGHT, 0.97))
    new, out = observe(ref, Seen(board=board(PLAYED), dice=DARK_DICE + roll, hand=1))
    assert [(c.kind, c.player) for c in out.calls] == [("roll_before_pickup", 1)]
