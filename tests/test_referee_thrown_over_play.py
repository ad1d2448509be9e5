"""The roller's pickup unseen, the opponent throws into the roller's half: dice of other numbers than the roll, read
surely, thrown by a hand from the opponent's side, over a whole legal play.  The play stands as made and the throw
is the opponent's roll into the wrong half, called; not taken for the roller's dice still lying.  Written by hand
from the rules (dice keep their numbers while they lie; a turn ends when its dice are picked up) and the picture."""

from engine.game import Phase
from opening_scene import LIGHT, PLAYED, board, dark_played
from referee.core import Seen, SeenDie, observe

# light's 6-4 in light's numbers 24/18 24/20 is, in dark's numbers, 1/7 1/5
LIGHT_PLAYED = {**PLAYED, 1: 0, 7: -1, 5: -1}


def light_played_6_4():
    """Dark opened 5-2 and played; light rolled 6-4 into light's half and played it, the dice still down."""
    ref = dark_played()
    light_dice = (SeenDie(6, True, LIGHT, 0.99), SeenDie(4, True, LIGHT, 0.99))
    ref, _ = observe(ref, Seen(board=board(PLAYED), dice=light_dice, hand=1))
    ref, _ = observe(ref, Seen(board=board(LIGHT_PLAYED), dice=light_dice))
    assert ref.game.turn == 1 and ref.game.phase is Phase.MOVE and ref.game.dice == (6, 4)
    return ref


def test_dark_throwing_into_lights_half_after_an_unseen_pickup_is_called_wrong_half():
    ref = light_played_6_4()
    thrown = (SeenDie(3, True, LIGHT, 0.98), SeenDie(5, True, LIGHT, 0.97))
    ref, out = observe(ref, Seen(board=board(LIGHT_PLAYED), dice=thrown, hand=0))
    assert [type(e).__name__ for e in out.events] == ["Move"]  # light's play stands as made
    assert [(c.kind, c.player) for c in out.calls] == [("wrong_half", 0)]
    assert ref.game.turn == 0 and ref.game.phase is Phase.ROLL


def test_lights_own_dice_read_again_while_lying_are_no_new_throw():
    ref = light_played_6_4()
    same = (SeenDie(4, True, LIGHT, 0.98), SeenDie(6, True, LIGHT, 0.97))  # pushed aside by the opponent's hand
    ref, out = observe(ref, Seen(board=board(LIGHT_PLAYED), dice=same, hand=0))
    assert out.events == () and out.calls == ()
    assert ref.game.turn == 1 and ref.game.phase is Phase.MOVE


def test_a_die_misread_under_the_roller_s_own_hand_is_no_new_throw():
    ref = light_played_6_4()
    misread = (SeenDie(3, True, LIGHT, 0.98), SeenDie(4, True, LIGHT, 0.97))  # the 6 read as 3 as light moves on
    ref, out = observe(ref, Seen(board=board(LIGHT_PLAYED), dice=misread, hand=1))
    assert out.events == () and out.calls == ()
    assert ref.game.turn == 1 and ref.game.phase is Phase.MOVE
