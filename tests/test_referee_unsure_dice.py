"""Dice vision is unsure of never ground a call that stops play: a die more than a roll (the void roll,
`roll_before_pickup`), and a die read cocked whose number would make the play illegal.  Written by hand from
the rules and the physical picture."""

from engine.board import Board
from engine.game import Phase, Rules
from referee.core import Seen, SeenDie, Settings, observe, start

SETTINGS = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"))

# dark's numbers, dark positive: the start position (dark on 6, 8, 13, 24; light on 1, 12, 17, 19)
START = {6: 5, 8: 3, 13: 5, 24: 2, 1: -2, 12: -5, 17: -3, 19: -5}


def board(points: dict[int, int]) -> Board:
    return Board(tuple(points.get(i, 0) for i in range(1, 25)), (0, 0))


def opened(d_dark: int = 5, d_light: int = 2):
    """Dark won the opening roll with ``d_dark``-``d_light`` and is to play it."""
    ref = start(SETTINGS)
    ref, _ = observe(ref, Seen(board=board(START)))
    dice = (SeenDie(d_dark, True, SETTINGS.right_half(0)), SeenDie(d_light, True, SETTINGS.right_half(1)))
    ref, _ = observe(ref, Seen(board=board(START), dice=dice))
    assert ref.game.phase is Phase.MOVE and ref.game.turn == 0 and ref.game.dice == (5, 2)
    return ref


def dark_played_dice_down():
    ref = opened()
    played = {**START, 13: 3, 8: 4, 11: 1}  # 13/8 13/11
    dark_dice = (SeenDie(5, True, SETTINGS.right_half(0)), SeenDie(2, True, SETTINGS.right_half(0)))
    ref, _ = observe(ref, Seen(board=board(played), dice=dark_dice))
    return ref, board(played), dark_dice


def test_a_third_die_read_unsurely_while_the_mover_has_dice_down_asks_for_a_look_not_a_void_roll():
    ref, after, dark_dice = dark_played_dice_down()
    light = SETTINGS.right_half(1)
    for extra in ((SeenDie(6, True, light, confidence=0.3),),  # one die in light's half, hardly seen
                  (SeenDie(6, True, SETTINGS.right_half(0), confidence=0.9),),  # a third die in dark's own half
                  (SeenDie(6, True, light, confidence=0.9), SeenDie(3, True, light, confidence=0.4))):  # light's pair, one unsure
        new, out = observe(ref, Seen(board=after, dice=dark_dice + extra))
        assert [c.kind for c in out.calls] == ["please_look"], extra
        assert new.game.phase is Phase.MOVE and new.game.turn == 0


def test_light_rolling_surely_beside_dark_dice_still_down_is_void():
    ref, after, dark_dice = dark_played_dice_down()
    light = SETTINGS.right_half(1)
    pair = (SeenDie(6, True, light, confidence=0.9), SeenDie(3, True, light, confidence=0.95))
    new, out = observe(ref, Seen(board=after, dice=dark_dice + pair, hand=1))
    assert [(c.kind, c.player) for c in out.calls] == [("roll_before_pickup", 1)]
    assert new.game.phase is Phase.MOVE and new.game.turn == 0



def test_a_die_read_cocked_unsurely_whose_number_makes_the_play_illegal_counts_as_unread():
    # Dark opened 5-2 with 13/8 13/11.  Light rolls 3-1; the 3 is read as a cocked 2, the camera unsure.  Light
    # plays 13/10 6/5 in light's numbers (dark's 12 to 15, 19 to 20): illegal with 2-1, and with 1-1 13/12 is
    # blocked (dark holds dark's 13).  The die read cocked counts as unread: with the 1 seen, only 3-1 makes the
    # play, so 3-1 is taken from it when the dice are picked up; no illegal_play.
    ref = opened()
    after = {**START, 13: 3, 8: 4, 11: 1}
    dark_dice = (SeenDie(5, True, SETTINGS.right_half(0)), SeenDie(2, True, SETTINGS.right_half(0)))
    ref, _ = observe(ref, Seen(board=board(after), dice=dark_dice))
    ref, _ = observe(ref, Seen(board=board(after)))
    assert ref.game.turn == 1 and ref.game.phase is Phase.ROLL
    light = SETTINGS.right_half(1)
    dice = (SeenDie(2, False, light, confidence=0.4), SeenDie(1, True, light, confidence=0.4))
    played = {**after, 12: -4, 15: -1, 19: -4, 20: -1}
    ref, out = observe(ref, Seen(board=board(played), dice=dice))
    assert out.events == () and not [c for c in out.calls if c.kind == "illegal_play"]
    ref, out = observe(ref, Seen(board=board(played)))  # dice picked up
    assert [type(e).__name__ for e in out.events] == ["Roll", "Move"] and out.events[0].dice == (3, 1)
    assert out.inferred == (out.events[0],) and out.calls == ()
    assert ref.game.turn == 0 and ref.game.phase is Phase.ROLL
