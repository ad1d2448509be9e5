"""Who rolled: a roll into the wrong half against a roll out of turn (issue #43).

Once the dice lie still both look the same: both dice in the half on the right of the player who has
just played.  The throw tells them apart: the hand with the cup reaches in from the thrower's seat.
Dark sits behind dark's points 1-12 and light behind 13-24 (dark's numbers; board-spec), so a hand
from dark's seat hides points among 1-12 first.  Every expected call below is written from the rules:

- the player on roll throwing into the other half: ``wrong_half`` on them, roll again;
- the player who has just played throwing (into their own half): ``out_of_turn`` on them, void;
- nobody seen throwing: nothing tells the two apart, so no foul is called; a look is asked and the
  roll does not count either way.
"""

from __future__ import annotations

import numpy as np

from engine import Position
from engine.board import Board
from engine.game import Phase, Roll, Rules
from referee.core import Outcome, Press, Seen, SeenDie, Settings, Stage, observe, start
from referee.hands import HandWatch
from referee.pipeline import FramePipeline
from referee.rolls import dice_out_of_place, hand_side, side_of
from vision.reading import Reading

DARK, LIGHT = 0, 1
SETTINGS = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"), dark_right_half="home")
# dark's right-hand half is the home half here, so light's is the outer half
DARK_SIDE = ("point:4", "point:5", "point:6")  # a hand from dark's seat
LIGHT_SIDE = ("point:19", "point:20", "point:21", "bar:light")  # a hand from light's seat


# --- the hand's side, from the places it hides -------------------------------------------------


def test_the_side_of_a_place_is_the_seat_it_lies_before() -> None:
    assert [side_of(p) for p in ("point:1", "point:12", "point:13", "point:24", "bar:dark", "bar:light")] == [0, 0, 1, 1, 0, 1]
    assert side_of("hand") is None and side_of("point:25") is None and side_of("point:x") is None


def test_a_hand_is_on_the_side_where_it_hides_most() -> None:
    assert hand_side(DARK_SIDE) == DARK
    assert hand_side(LIGHT_SIDE) == LIGHT
    assert hand_side(("point:4", "point:5", "point:6", "point:7", "point:18", "point:19")) == DARK  # reaching past the middle
    assert hand_side(("point:5", "point:6", "point:18", "point:19")) is None  # one from each side, or across: not known
    assert hand_side(()) is None
    # places hidden on the settled reading already are no hand
    assert hand_side(("point:5", "point:18", "point:19"), already=("point:5",)) == LIGHT


# --- the call, from the halves, the player on roll and the hand --------------------------------


def test_the_decision_table() -> None:
    halves = ("home", "outer")  # dark's right, light's right
    call = lambda halves_seen, hand: dice_out_of_place(LIGHT, halves_seen, halves, hand)  # noqa: E731  light on roll
    assert call(("outer", "outer"), None) is None  # light's own half: light's roll, whoever's hand was seen
    assert call(("outer", "outer"), DARK) is None
    got = call(("home", "home"), LIGHT)
    assert got is not None and (got.kind, got.player) == ("wrong_half", LIGHT)
    got = call(("home", "home"), DARK)
    assert got is not None and (got.kind, got.player) == ("out_of_turn", DARK)
    got = call(("home", "home"), None)
    assert got is not None and (got.kind, got.player) == ("please_look", LIGHT)
    got = call(("outer", "home"), None)  # one die over the bar
    assert got is not None and (got.kind, got.player) == ("wrong_half", LIGHT)
    got = call(("outer", "off"), LIGHT)  # one die off the playing surface
    assert got is not None and (got.kind, got.player) == ("wrong_half", LIGHT)
    got = call(("outer", "home"), DARK)  # the dice split, thrown from the other seat: does not fit a roll by light
    assert got is not None and (got.kind, got.player) == ("please_look", LIGHT)


# --- the referee over a game --------------------------------------------------------------------


def see(ref, board, dice=(), hand=None, occluded=()):
    return observe(ref, Seen(board=board, dice=tuple(dice), hand=hand, occluded=tuple(occluded)))


def light_to_roll():
    """Ann (dark) opened with 5-2 and played 13/11 13/8; Bob (light) is to roll (into the outer half)."""
    ref = start(SETTINGS)
    start_board = Board.from_position(Position.start(), 0)
    ref, _ = see(ref, start_board)
    ref, _ = see(ref, start_board, (SeenDie(5, True, "home"), SeenDie(2, True, "outer")))
    g = ref.game
    from engine.plays import Hop, apply_hops

    played = Board.from_position(apply_hops(g.position, [Hop(13, 11), Hop(13, 8)]), 0)
    ref, _ = see(ref, played, (SeenDie(5, True, "home"), SeenDie(2, True, "outer")))
    ref, _ = see(ref, played)
    assert ref.game.phase is Phase.ROLL and ref.game.turn == LIGHT
    return ref, played


def in_dark_half(a: int = 4, b: int = 2, flat: bool = True):
    return (SeenDie(a, True, "home"), SeenDie(b, flat, "home"))


def calls(out: Outcome):
    return [(c.kind, c.player) for c in out.calls]


def test_light_throwing_into_darks_half_is_a_roll_into_the_wrong_half() -> None:
    ref, board = light_to_roll()
    ref, out = see(ref, board, in_dark_half(), hand=LIGHT)
    assert calls(out) == [("wrong_half", LIGHT)] and out.events == ()
    assert [s.kind for s in out.signals] == ["reroll_needed"]
    ref, out = see(ref, board)  # picked up
    ref, out = see(ref, board, (SeenDie(6, True, "outer"), SeenDie(1, True, "outer")), hand=LIGHT)
    assert out.events == (Roll(LIGHT, (6, 1)),) and out.calls == ()


def test_dark_throwing_after_playing_is_a_roll_out_of_turn() -> None:
    ref, board = light_to_roll()
    ref, out = see(ref, board, in_dark_half(), hand=DARK)
    assert calls(out) == [("out_of_turn", DARK)] and out.events == ()
    assert ref.game.phase is Phase.ROLL and ref.game.turn == LIGHT  # still Bob's roll


def test_nobody_seen_throwing_asks_for_a_look_and_calls_no_foul() -> None:
    ref, board = light_to_roll()
    ref, out = see(ref, board, in_dark_half(), hand=None)
    assert calls(out) == [("please_look", LIGHT)] and out.events == ()
    assert "did not see who threw" in out.calls[0].reasons[0]
    ref, out = see(ref, board)
    ref, out = see(ref, board, (SeenDie(3, True, "outer"), SeenDie(3, True, "outer")))
    assert out.events == (Roll(LIGHT, (3, 3)),)


def test_the_hand_seen_on_a_hidden_reading_before_the_dice_tells_the_thrower() -> None:
    ref, board = light_to_roll()
    ref, out = see(ref, board, occluded=LIGHT_SIDE)  # the cup over the board, from light's seat
    assert out == Outcome()
    ref, out = see(ref, board, in_dark_half())
    assert calls(out) == [("wrong_half", LIGHT)]
    ref, out = see(ref, board)
    ref, out = see(ref, board, occluded=DARK_SIDE)
    ref, out = see(ref, board, in_dark_half(5, 5))
    assert calls(out) == [("out_of_turn", DARK)]


def test_a_hand_seen_before_an_earlier_reading_says_nothing_of_a_later_throw() -> None:
    ref, board = light_to_roll()
    ref, _ = see(ref, board, occluded=DARK_SIDE)
    ref, _ = see(ref, board)  # the board clear again: that hand has gone
    ref, out = see(ref, board, in_dark_half())
    assert calls(out) == [("please_look", LIGHT)]


def test_where_the_dice_lie_comes_before_a_cocked_die() -> None:
    """A roll out of turn does not count, cocked or not: the call is for the roll out of turn."""
    ref, board = light_to_roll()
    ref, out = see(ref, board, in_dark_half(flat=False), hand=DARK)
    assert calls(out) == [("out_of_turn", DARK)]
    ref, out = see(ref, board, in_dark_half(flat=False))  # read again, lying where they lay
    assert out.calls == ()


def test_a_hand_from_the_other_seat_does_not_overturn_a_roll_in_the_rollers_half() -> None:
    ref, board = light_to_roll()
    ref, out = see(ref, board, (SeenDie(6, True, "outer"), SeenDie(2, True, "outer")), hand=DARK)
    assert out.events == (Roll(LIGHT, (6, 2)),) and out.calls == ()


def test_the_opponent_throwing_into_the_wrong_half_accepts_an_illegal_play_and_is_called_in_the_next_turn() -> None:
    ref, board = light_to_roll()
    ref, _ = see(ref, board, (SeenDie(6, True, "outer"), SeenDie(5, True, "outer")), hand=LIGHT)
    g = ref.game
    # Bob has 6-5 but plays two sixes: 24/18(2), illegal
    from engine.plays import Hop, apply_hops

    wrong = Board.from_position(apply_hops(g.position, [Hop(24, 18), Hop(24, 18)]), LIGHT)
    ref, _ = see(ref, wrong, (SeenDie(6, True, "outer"), SeenDie(5, True, "outer")))
    ref, out = see(ref, wrong)
    assert ref.stage is Stage.ILLEGAL and calls(out) == [("illegal_play", LIGHT)]
    turn = ref.plays
    ref, out = see(ref, wrong, (SeenDie(3, True, "outer"), SeenDie(1, True, "outer")), hand=DARK)  # Ann throws into Bob's half
    assert ref.stage is Stage.PLAYING and ref.game.turn == DARK  # the play was accepted as made by the roll
    assert [(c.kind, c.player, c.turn) for c in out.calls] == [("wrong_half", DARK, turn + 1)]
    assert ref.game.phase is Phase.ROLL


def test_press_between_readings_keeps_nothing_of_the_hand() -> None:
    ref, board = light_to_roll()
    ref, _ = see(ref, board, occluded=LIGHT_SIDE)
    ref, _ = observe(ref, Press("mode"))
    assert ref.hand == LIGHT  # a button is no reading of the board: the hand over it is still the last seen


# --- the pipeline: the frames before the board settled ------------------------------------------


class Recorder:
    def __init__(self) -> None:
        self.seen: list[Seen] = []

    def handle(self, item):
        self.seen.append(item)
        return Outcome()


def frame(level: int, arm: int | None = None) -> np.ndarray:
    """A plain frame; ``arm`` marks a hand from that player's seat (a bright band along one edge)."""
    img = np.full((72, 128, 3), level, np.uint8)
    if arm is not None:
        rows = slice(50, 72) if arm == DARK else slice(0, 22)
        img[rows, 30:90] = 250
    return img


def scripted_reader(img: np.ndarray) -> Reading:
    """What a reader reports of these frames: dice when the board is brighter (the dice down), the places a
    hand hides when it is over the board."""
    occluded = list(DARK_SIDE) if img[60, 60, 0] == 250 else list(LIGHT_SIDE) if img[10, 60, 0] == 250 else []
    dice = [{"value": 4, "flat": True, "half": "home"}, {"value": 2, "flat": True, "half": "home"}] if img[36, 10, 0] >= 120 else []
    start = Board.from_position(Position.start(), 0).to_reading()
    return Reading.from_json({**start, "dice": dice, "cube": {"value": 1, "position": "centre"}, "occluded": occluded})


def feed_throw(hand: int | None) -> Seen:
    rec = Recorder()
    pipe = FramePipeline(scripted_reader, rec)
    t = 0.0
    clip = [frame(100)] * 4 + ([frame(100, arm=hand)] if hand is not None else [frame(110)]) + [frame(130)] * 4
    for img in clip:
        pipe.feed(t, img)
        t += 0.2
    assert len(rec.seen) == 2 and rec.seen[1].dice  # the board before, then with the dice down
    return rec.seen[1]


def test_the_pipeline_tells_whose_hand_threw_new_dice() -> None:
    assert feed_throw(LIGHT).hand == LIGHT
    assert feed_throw(DARK).hand == DARK
    assert feed_throw(None).hand is None  # the dice appeared with no hand seen over the board


def test_hand_watch_keeps_few_frames_spread_over_the_motion() -> None:
    watch = HandWatch(keep=4)
    for i in range(20):
        watch.moving(np.full((9, 16), i, np.uint8), np.full((9, 16, 3), i, np.uint8))
    kept = [int(small[0, 0]) for small, _ in watch.frames]
    assert len(kept) <= 4 and kept == sorted(kept) and kept[-1] >= 16  # the newest of the motion is among them


# --- a double waiting for its answer ------------------------------------------------------------


def see_cube(ref, board, dice=(), hand=None, cube=(1, "centre")):
    return observe(ref, Seen(board=board, dice=tuple(dice), hand=hand, cube_value=cube[0], cube_position=cube[1]))


def light_doubled():
    """Bob (light), to roll, has turned the cube to 2 and pushed it to Ann's side: Ann is to take or drop."""
    ref, board = light_to_roll()
    ref, out = see_cube(ref, board, cube=(2, "dark"))
    assert [type(e).__name__ for e in out.events] == ["Double"] and ref.game.phase is Phase.DOUBLED
    return ref, board


def test_the_player_doubled_throwing_the_dice_rolls_out_of_turn() -> None:
    ref, board = light_doubled()
    ref, out = see_cube(ref, board, in_dark_half(), hand=DARK, cube=(2, "dark"))
    assert calls(out) == [("out_of_turn", DARK)] and out.events == ()
    assert ref.game.phase is Phase.DOUBLED  # still waiting for Ann's answer
    ref, out = see_cube(ref, board, in_dark_half(), cube=(2, "dark"))  # read again where they lay: said once
    assert out.calls == ()
    ref, out = see_cube(ref, board, cube=(2, "dark"))
    ref, out = see_cube(ref, board, (SeenDie(5, True, "outer"), SeenDie(3, True, "outer")), cube=(2, "dark"))
    assert [type(e).__name__ for e in out.events] == ["Take", "Roll"]  # Bob rolls on: Ann took


def test_the_doubler_throwing_into_the_wrong_half_is_a_take_and_a_roll_into_the_wrong_half() -> None:
    ref, board = light_doubled()
    ref, out = see_cube(ref, board, in_dark_half(), hand=LIGHT, cube=(2, "dark"))
    assert [type(e).__name__ for e in out.events] == ["Take"] and calls(out) == [("wrong_half", LIGHT)]


def test_a_double_first_seen_with_the_doublers_roll_was_taken() -> None:
    ref, board = light_to_roll()
    ref, out = see_cube(ref, board, (SeenDie(5, True, "outer"), SeenDie(3, True, "outer")), cube=(2, "dark"))
    assert [type(e).__name__ for e in out.events] == ["Double", "Take", "Roll"]
    assert ref.game.phase is Phase.MOVE and ref.game.cube == 2


def test_the_doubler_moving_a_checker_before_the_answer_and_putting_it_back_is_called() -> None:
    ref, board = light_doubled()
    from engine.plays import Hop, apply_hops

    g = ref.game  # the position is the doubler's (Bob's) while Ann answers
    moved = Board.from_position(apply_hops(g.position, [Hop(13, 10)]), LIGHT)
    ref, out = see_cube(ref, moved, cube=(2, "dark"))
    assert out.calls == ()
    ref, out = see_cube(ref, board, cube=(2, "dark"))
    assert calls(out) == [("moved_before_roll", LIGHT)]


def test_a_misread_while_a_double_waits_is_taken_for_the_board_as_it_stands() -> None:
    """The board while a double waits is the doubler's position: a stack read a checker short three times
    running is that board, not a board the camera cannot make sense of."""
    ref, board = light_doubled()
    points = list(board.points)
    points[5] -= 1  # one of Ann's five on her 6-point missed
    short = Board(tuple(points), board.bar)
    for _ in range(3):
        ref, out = see_cube(ref, short, cube=(2, "dark"))
        assert out.calls == ()


# --- a roll asked for, then the checkers put back or play going on --------------------------------


def light_moved_24_18():
    """Bob moved 24/18 with no die seen: that is all of a 5-1 (24/23/18) or a 4-2 (24/22/18, 24/20/18); a 6
    alone, 3-3 and 2-2 would play more, and 24/19 is Ann's 6-point."""
    ref, board = light_to_roll()
    from engine.plays import Hop, apply_hops

    moved = Board.from_position(apply_hops(ref.game.position, [Hop(24, 18)]), LIGHT)
    ref, out = see(ref, moved)
    assert out.events == ()
    return ref, board, moved


def test_checkers_moved_asked_about_and_put_back_are_a_move_before_the_roll() -> None:
    ref, board, moved = light_moved_24_18()
    ref, out = see(ref, moved)  # the same again (as a second settled reading): the roll is asked for
    ref, out = see(ref, board)  # put back: no roll was made
    assert ("moved_before_roll", LIGHT) in calls(out) and out.events == ()


def test_the_opponent_rolling_on_a_play_asked_about_ends_the_turn() -> None:
    ref, board, moved = light_moved_24_18()
    ref, out = see(ref, moved)
    assert ref.asked_board == moved and set(ref.asked_rolls) == {(5, 1), (4, 2)}
    ref, out = see(ref, moved, in_dark_half(6, 3), hand=DARK)  # Ann rolls: Bob's turn is over
    assert [type(e).__name__ for e in out.events] == ["Roll", "Move", "Roll"]
    assert out.events[0] == Roll(LIGHT, (5, 1)) and out.events[2] == Roll(DARK, (6, 3))  # 5-1 named first; 4-2 said
    assert any(c.kind == "please_look" and "4-2" in c.reasons[0] for c in out.calls)
    assert ref.game.phase is Phase.MOVE and ref.game.turn == DARK
