"""The referee waiting for a game: the start position read with doubt, or never seen whole.

Boards are written by hand in dark's numbering (dark's checkers positive, light's negative): the start
has light's 2 on dark's 1, light's 5 on dark's 12, light's 3 on dark's 17, light's 5 on dark's 19, and
dark's 5 on 6, 3 on 8, 5 on 13, 2 on 24."""

from referee.core import Seen, SeenDie, Settings, Stage, observe, start
from engine.board import Board
from engine.game import OpeningRoll, Rules

SETTINGS = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"))  # dark's right-hand half is the home half
START = (-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2)


def board(points: tuple[int, ...]) -> Board:
    return Board(points, (0, 0))


def seen(points: tuple[int, ...], *dice: SeenDie, unsure: frozenset[int] = frozenset()) -> Seen:
    return Seen(board=board(points), dice=tuple(dice), cube_value=1, cube_position="centre", unsure_points=unsure)


def test_the_start_with_a_stack_read_short_where_vision_is_unsure_begins_the_game() -> None:
    """Light's five on dark's 19 read as none, the camera unsure of that point: every point it is sure of
    shows the start, so the game begins (the players then roll one die each)."""
    short = START[:18] + (0,) + START[19:]
    ref, out = observe(start(SETTINGS), seen(short, unsure=frozenset({19})))
    assert ref.stage is Stage.PLAYING
    assert any("start position seen" in n.text for n in out.notes)


def test_a_stack_read_short_where_vision_is_sure_is_no_start() -> None:
    short = START[:18] + (0,) + START[19:]
    ref, out = observe(start(SETTINGS), seen(short))
    assert ref.stage is Stage.SETUP and not out.notes and not out.calls


def test_more_than_a_few_points_in_doubt_are_no_start() -> None:
    """Four points unsure and read otherwise: too little of the board is known to call it the start."""
    odd = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2)
    ref, _ = observe(start(SETTINGS), seen(odd, unsure=frozenset({1, 12, 17, 19})))
    assert ref.stage is Stage.SETUP


def test_an_opening_play_made_before_the_start_was_seen_is_followed() -> None:
    """The camera first sees the board after Bob (light) opened 6-5 with 24/13: light's back checker on
    dark's 1 has gone to light's 13, dark's 12.  No dice in view.  The game is on, and the opening roll
    is taken from the play: only 6-5 makes 24/13 in one opening play, Bob's 6 being the higher die."""
    after = (-1,) + START[1:11] + (-6,) + START[12:]
    ref, out = observe(start(SETTINGS), seen(after))
    assert ref.stage is Stage.PLAYING
    openings = [e for e in out.events if isinstance(e, OpeningRoll)]
    assert openings == [OpeningRoll((5, 6))]  # (dark's die, light's die)
    assert ref.game.turn == 0  # Ann is to roll next


def test_a_board_no_opening_play_reaches_is_not_taken_for_a_game_begun() -> None:
    """Checkers half set up: dark's 13 holds 3 of its 5 and light's 19 is bare.  No one opening play from the
    start leaves that: the referee goes on waiting."""
    half = START[:12] + (3,) + START[13:18] + (0,) + START[19:]
    ref, out = observe(start(SETTINGS), seen(half, SeenDie(3, True, "home"), SeenDie(1, True, "outer")))
    assert ref.stage is Stage.SETUP and not out.events


def test_one_point_left_unread_is_vision_unsure_not_a_hand() -> None:
    """Vision leaves light's five on dark's 19 unread (null, so ``occluded``), nothing else hidden: that is
    a stack it cannot count, not a hand over the board; the start is seen and the game begins."""
    short = START[:18] + (0,) + START[19:]
    one = Seen(board=board(short), dice=(), cube_value=1, cube_position="centre", occluded=("point:19",))
    ref, _ = observe(start(SETTINGS), one)
    assert ref.stage is Stage.PLAYING


def test_two_places_hidden_are_a_hand_and_the_referee_waits() -> None:
    """Dark's 19 and 20 hidden: a hand, sleeve or cup over the board; nothing is judged until it is gone."""
    short = START[:18] + (0,) + START[19:]
    two = Seen(board=board(short), dice=(), cube_value=1, cube_position="centre", occluded=("point:19", "point:20"))
    ref, out = observe(start(SETTINGS), two)
    assert ref.stage is Stage.SETUP and not out.notes
