"""Readings the referee must not turn into a foul or a play on a guess, written by hand from the rules and
the physical picture: a stack miscounted where vision is unsure, and a die more than a roll."""

from engine.board import Board
from engine.game import Phase, Rules
from referee.core import Seen, SeenDie, Settings, Stage, observe, start

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


def test_a_stack_read_short_where_vision_is_unsure_is_not_snapped_to_a_legal_play_the_sure_points_deny():
    # Dark rolled 5-2 and played 13/8 13/8 (illegal: two fives): 8 holds 5, 13 holds 3.  The camera reads 8
    # as 4, unsure; 11 (where 13/11 would land) it reads empty, surely.  Fifteen a side puts the fifth checker
    # on 8, the only point in doubt; the legal 13/8 13/11 needs a checker on 11 the camera is sure is not there.
    ref = opened()
    played = {**START, 13: 3, 8: 5}
    read = {**played, 8: 4}
    dark_dice = (SeenDie(5, True, SETTINGS.right_half(0)), SeenDie(2, True, SETTINGS.right_half(0)))
    ref, out = observe(ref, Seen(board=board(read), dice=dark_dice, unsure_points=frozenset({8})))
    assert out.events == ()
    ref, out = observe(ref, Seen(board=board(read), unsure_points=frozenset({8})))  # dice picked up: judged
    assert out.events == ()  # no play recorded: 13/8 13/11 was not made
    assert ref.stage is Stage.ILLEGAL
    # the count on 8 is vision's doubt: a look naming it, not a foul
    assert [c.kind for c in out.calls] == ["please_look"] and "8" in out.notes[0].text


def test_a_legal_play_with_a_stack_read_short_where_vision_is_unsure_is_recorded():
    # Dark rolled 5-2 and played 13/8 13/11: 8 holds 4, 11 one, 13 three.  8 is read as 3, unsure: fifteen a
    # side puts the checker back on 8, and the play is the legal one made.
    ref = opened()
    played = {**START, 13: 3, 8: 4, 11: 1}
    ref, out = observe(ref, Seen(board=board({**played, 8: 3}), unsure_points=frozenset({8})))
    assert [type(e).__name__ for e in out.events] == ["Move"] and out.calls == ()
    assert ref.game.turn == 1
    assert board(played) == Board.from_position(out.events[0].after, 0)


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


def light_to_roll():
    """Dark opened 5-2 with 13/8 13/11; light is to roll."""
    ref = opened()
    after = {**START, 13: 3, 8: 4, 11: 1}
    dark_dice = (SeenDie(5, True, SETTINGS.right_half(0)), SeenDie(2, True, SETTINGS.right_half(0)))
    ref, _ = observe(ref, Seen(board=board(after), dice=dark_dice))
    ref, out = observe(ref, Seen(board=board(after)))
    assert ref.game.turn == 1 and ref.game.phase is Phase.ROLL
    return ref, after


def light_plays_after_an_unsure_roll(played: dict[int, int]):
    ref, _ = light_to_roll()
    light = SETTINGS.right_half(1)
    unsure_dice = (SeenDie(2, True, light, confidence=0.4), SeenDie(1, True, light, confidence=0.4))  # a 3-1, read 2-1
    ref, out = observe(ref, Seen(board=board(played), dice=unsure_dice))
    assert ref.game.dice == (2, 1)
    return observe(ref, Seen(board=board(played)))  # dice picked up: judged


def test_a_play_illegal_only_with_a_roll_read_unsurely_is_recorded_with_the_one_roll_it_fits():
    # Light rolled 3-1 (read 2-1, unsurely) and played 13/10 6/5 in light's numbers: dark's 12 to 15 and 19 to 20.
    # With 2-1 that is illegal (4 pips); with 1-1 13/12 is blocked (dark holds light's 12, dark's 13); of the rolls
    # keeping a number read, only 3-1 makes it.  No foul on a roll the camera was unsure of: 3-1, from the play.
    after = {**START, 13: 3, 8: 4, 11: 1}
    played = {**after, 12: -4, 15: -1, 19: -4, 20: -1}
    ref, out = light_plays_after_an_unsure_roll(played)
    assert not [c for c in out.calls if c.kind == "illegal_play"]
    assert [type(e).__name__ for e in out.events] == ["Roll", "Move"] and out.events[0].dice == (3, 1)
    assert out.inferred == (out.events[0],) and out.retracted == 1
    assert ref.stage is Stage.PLAYING and ref.game.turn == 0


def test_a_play_illegal_only_with_a_roll_read_unsurely_that_fits_several_rolls_asks_for_a_look():
    # Light played 8/5 6/5 in light's numbers (dark's 17 to 20, 19 to 20): 3-1, or 1-1 (8/7/6/5 6/5); each keeps
    # the 1 read.  Not the 2-1 read, unsurely: a look naming both, no foul, nothing recorded.
    after = {**START, 13: 3, 8: 4, 11: 1}
    played = {**after, 17: -2, 19: -4, 20: -2}
    ref, out = light_plays_after_an_unsure_roll(played)
    assert [c.kind for c in out.calls] == ["please_look"] and "3-1" in out.notes[0].text and "1-1" in out.notes[0].text
    assert out.events == () and ref.stage is Stage.ILLEGAL


def test_a_checker_landing_read_in_the_other_colour_is_judged_where_it_landed():
    # Dark rolled 5-2 and played 13/8 13/10 (illegal: a three for the two).  The checker on 10 is read as
    # light's: dark shows 14, light 16, which cannot be.  Read in dark's colour, it is the play as made, no
    # legal play (13/11 needs a checker on 11): a look at 10, the colour in doubt; nothing recorded.
    ref = opened()
    read = {**START, 13: 3, 8: 4, 10: -1}
    ref, out = observe(ref, Seen(board=board(read)))
    assert out.events == () and ref.stage is Stage.ILLEGAL
    assert [c.kind for c in out.calls] == ["please_look"] and "10" in out.notes[0].text


def test_a_stack_left_unread_is_counted_by_fifteen_a_side_not_snapped_to_a_legal_play():
    # Dark rolled 5-2 and played 13/8 13/8 (illegal); the camera cannot count the stack on 8 (left unread),
    # and is sure 11 is empty.  Fifteen a side puts five on 8: the play as made, not 13/8 13/11.
    ref = opened()
    read = {**START, 13: 3, 8: 0}
    ref, out = observe(ref, Seen(board=board(read), occluded=("point:8",)))
    assert out.events == () and ref.stage is Stage.ILLEGAL
    assert [c.kind for c in out.calls] == ["please_look"] and "8" in out.notes[0].text
