"""A die cannot still lie where the camera saw every die picked up, unless vision missed the dice then: they show
again as they lay, both, flat.  One die read beside a roll, cocked, in the half of the player who has just played,
after a reading that showed no dice at all, is a die vision made up (a phantom where the dice lay), not the mover's
dice still down.  The roll before the pickup (``roll_before_pickup``) stops play, so it needs the mover's dice seen
lying; else a look.  Written by hand from the rules ("a turn is completed when the player picks up his dice") and
the physical picture."""

from engine.board import Board
from engine.game import Phase, Rules
from referee.core import Seen, SeenDie, Settings, observe, start

SETTINGS = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"))
DARK, LIGHT = SETTINGS.right_half(0), SETTINGS.right_half(1)

# dark's numbers, dark positive: the start position (dark on 6, 8, 13, 24; light on 1, 12, 17, 19)
START = {6: 5, 8: 3, 13: 5, 24: 2, 1: -2, 12: -5, 17: -3, 19: -5}
PLAYED = {**START, 13: 3, 8: 4, 11: 1}  # dark's opening 5-2: 13/8 13/11
DARK_DICE = (SeenDie(5, True, DARK, 0.99), SeenDie(2, True, DARK, 0.99))


def board(points: dict[int, int]) -> Board:
    return Board(tuple(points.get(i, 0) for i in range(1, 25)), (0, 0))


def dark_played(picked_up: bool = True):
    """Dark won the opening 5-2 and played 13/8 13/11 with the dice down; ``picked_up``: then lifted them, light to roll."""
    ref = start(SETTINGS)
    ref, _ = observe(ref, Seen(board=board(START)))
    ref, _ = observe(ref, Seen(board=board(START), dice=(SeenDie(5, True, DARK, 0.99), SeenDie(2, True, LIGHT, 0.99))))
    ref, _ = observe(ref, Seen(board=board(PLAYED), dice=DARK_DICE))
    if picked_up:
        ref, _ = observe(ref, Seen(board=board(PLAYED)))  # every die picked up: the turn is over
        assert ref.game.turn == 1 and ref.game.phase is Phase.ROLL
    return ref


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
