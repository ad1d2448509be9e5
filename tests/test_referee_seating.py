"""Seating from the physical picture, over all eight camera mountings.

Each row is a mounting of the camera over a real table: the home boards on the
left or right as seen from the edge the camera arm is fixed to, dark sitting on
that near edge or the far one, the camera turned 0° or 180°.  The expected
halves are written by hand from the sketch of the image (dark's checkers on the
6-point mark dark's home board; whoever sits at the bottom of the image has
their right hand at the image's right, whoever sits at the top at its left).
Nothing here calls the product's seating helper to get an expected value.
"""

from __future__ import annotations

import pytest

from engine.board import Board
from engine.position import Position
from referee.core import Mode, Seen, SeenDie, Settings, observe, start
from referee.seating import Seating
from vision.reading import Reading
from vision.geometry import BoardGeometry, Layout, checker_centre, half_of

GEO = BoardGeometry()
LAYOUTS = [Layout(h, d) for h in (True, False) for d in (True, False)]

# (mounting, quadrant of dark's 6-point in the image, dark's right half, who rolls into the image's right half)
MOUNTINGS = [
    # 1. home right, dark near, 0°          +--------+-+--------+
    #                                        | light  | | L home |  light (top) faces down: right = image left
    #                                        | D outer| | D home6|  dark (bottom) faces up: right = image right
    #                                        +--------+-+--------+   = dark's home half
    ("home right, dark near, 0°", "bottom-right", "home", "dark"),
    # 2. home right, dark near, 180°: the picture of 1 turned round
    #    +--------+-+--------+
    #    |6D home | | D outer|   dark (top) faces down: right = image left = home
    #    | L home | | light  |   light (bottom): right = image right
    #    +--------+-+--------+
    ("home right, dark near, 180°", "top-left", "home", "light"),
    # 3. home right (seen from the arm), dark far, 0°: dark faces the arm, so the home boards are on dark's left
    #    +--------+-+--------+
    #    | D outer| | D home6|   dark (top) faces down: right = image left = outer
    #    | light  | | L home |   light (bottom): right = image right
    #    +--------+-+--------+
    ("home right, dark far, 0°", "top-right", "outer", "light"),
    # 4. home right, dark far, 180°: the picture of 3 turned round
    #    +--------+-+--------+
    #    | L home | | light  |
    #    |6D home | | D outer|   dark (bottom) faces up: right = image right = outer
    #    +--------+-+--------+
    ("home right, dark far, 180°", "bottom-left", "outer", "dark"),
    # 5. home left, dark near, 0°
    #    +--------+-+--------+
    #    | L home | | light  |
    #    |6D home | | D outer|   dark (bottom): right = image right = outer
    #    +--------+-+--------+
    ("home left, dark near, 0°", "bottom-left", "outer", "dark"),
    # 6. home left, dark near, 180°
    #    +--------+-+--------+
    #    | D outer| | D home6|   dark (top): right = image left = outer
    #    | light  | | L home |
    #    +--------+-+--------+
    ("home left, dark near, 180°", "top-right", "outer", "light"),
    # 7. home left, dark far, 0°: home boards on the arm's left = dark's right
    #    +--------+-+--------+
    #    |6D home | | D outer|   dark (top): right = image left = home
    #    | L home | | light  |
    #    +--------+-+--------+
    ("home left, dark far, 0°", "top-left", "home", "light"),
    # 8. home left, dark far, 180°
    #    +--------+-+--------+
    #    | L home | | light  |
    #    | D outer| | D home6|   dark (bottom): right = image right = home
    #    +--------+-+--------+
    ("home left, dark far, 180°", "bottom-right", "home", "dark"),
]


def _quadrant(xy: tuple[float, float]) -> str:
    x, y = xy
    return ("top" if y < GEO.depth / 2 else "bottom") + "-" + ("left" if x < GEO.width / 2 else "right")


def _layout_seen(quadrant: str) -> Layout:
    """The layout a calibration learns from an image with dark's 6-point in ``quadrant``: the one that puts
    dark's checkers where they are seen (the only one of the four)."""
    found = [lay for lay in LAYOUTS if _quadrant(checker_centre(GEO, lay, 6, 0)[:2]) == quadrant]
    assert len(found) == 1
    return found[0]


def _image_right_die() -> tuple[float, float]:
    return (GEO.width * 0.75, GEO.depth * 0.5)


def _image_left_die() -> tuple[float, float]:
    return (GEO.width * 0.25, GEO.depth * 0.5)


@pytest.mark.parametrize(("mounting", "quadrant", "dark_right", "image_right_roller"), MOUNTINGS, ids=[m[0] for m in MOUNTINGS])
def test_dark_right_half_from_the_physical_picture(mounting: str, quadrant: str, dark_right: str, image_right_roller: str) -> None:
    seating = Seating.from_layout(_layout_seen(quadrant))
    assert seating.right_half(0) == dark_right
    assert seating.right_half(1) == ("outer" if dark_right == "home" else "home")


@pytest.mark.parametrize(("mounting", "quadrant", "dark_right", "image_right_roller"), MOUNTINGS, ids=[m[0] for m in MOUNTINGS])
def test_a_die_in_the_image_is_given_to_the_player_whose_right_it_is(mounting: str, quadrant: str, dark_right: str,
                                                                      image_right_roller: str) -> None:
    layout = _layout_seen(quadrant)
    seating = Seating.from_layout(layout)
    right_label, left_label = half_of(GEO, layout, _image_right_die()), half_of(GEO, layout, _image_left_die())
    assert {right_label, left_label} == {"home", "outer"}
    image_left_roller = "light" if image_right_roller == "dark" else "dark"
    assert ("dark", "light")[seating.roller(right_label)] == image_right_roller
    assert ("dark", "light")[seating.roller(left_label)] == image_left_roller
    assert seating.roller("off") is None


@pytest.mark.parametrize(("mounting", "quadrant", "dark_right", "image_right_roller"), MOUNTINGS, ids=[m[0] for m in MOUNTINGS])
def test_the_opening_roll_goes_to_the_right_players(mounting: str, quadrant: str, dark_right: str, image_right_roller: str) -> None:
    """A 5 rolled into the image's right half and a 2 into its left: whoever sits with the right hand
    at the image's right plays first with 5-2."""
    layout = _layout_seen(quadrant)
    settings = Settings(players=("Dark", "Light"), mode=Mode.REFEREE, dark_right_half=Seating.from_layout(layout).dark_right)
    board = Board.from_position(Position.start(), 0)
    dice = (SeenDie(5, True, half_of(GEO, layout, _image_right_die())), SeenDie(2, True, half_of(GEO, layout, _image_left_die())))
    ref, out = observe(start(settings), Seen(board))
    ref, out = observe(ref, Seen(board, dice=dice))
    first = "Dark" if image_right_roller == "dark" else "Light"
    assert any(n.text == f"{first} plays first with 5-2" for n in out.notes), out.notes


def test_seating_swaps_and_refuses_nonsense() -> None:
    assert Seating("home").swapped() == Seating("outer")
    assert Seating("outer").right_half(0) == "outer" and Seating("outer").right_half(1) == "home"
    with pytest.raises(ValueError, match="dark's right"):
        Seating("left")


# --- a second opinion: plays that fit the players in each other's seats -----------------------------


def _swapped_run(tmp_path, seed, press_accept=False, equal_opening=False):
    import random

    from engine.game import Rules
    from referee.core import Press
    from referee.recording import Script, record_game
    from referee.service import RefereeService

    from test_referee_calls import calls_of, played, recorded_plays

    script = Script.clean(dark_right_half="home", equal_opening=equal_opening)
    items = list(record_game(random.Random(seed), script))
    # the referee believes the seating the other way round (a calibration that mixed up the colours)
    service = RefereeService(Settings(rules=Rules(match_length=0), dark_right_half="outer"), tmp_path, None)
    for item in items:
        out = service.handle(Seen.from_reading(Reading.from_json(item["reading"]), item["t"]))
        if press_accept and any(c.kind == "seating" for c in out.calls):
            service.handle(Press("accept"))
    service.close()
    return service, script, calls_of(tmp_path), recorded_plays, played


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_swapped_seating_is_called_once_and_the_game_recorded_as_played(tmp_path, seed):
    service, script, calls, recorded_plays, played = _swapped_run(tmp_path, seed, equal_opening=seed == 2)
    assert [(c["call"], c["turn"]) for c in calls] == [("seating", 0)]
    assert recorded_plays(service) == played(script)
    assert service.settings.dark_right_half == "home"


def test_swapped_seating_confirmed_by_the_button_and_kept_in_the_journal(tmp_path):
    from referee.service import RefereeService

    service, script, calls, recorded_plays, played = _swapped_run(tmp_path, 4, press_accept=True)
    assert [c["call"] for c in calls] == ["seating"]
    assert recorded_plays(service) == played(script)
    again = RefereeService(Settings(), tmp_path, None)  # resumed from the journal
    assert again.settings.dark_right_half == "home" and again.events == service.events
    again.close()


def test_a_wrong_player_moving_at_the_opening_is_put_back_and_the_seating_stands(tmp_path):
    """The second opinion may be wrong: the other player really moved.  Putting the checkers back keeps the seating."""
    from engine.plays import legal_plays as plays_of

    settings = Settings(players=("Dark", "Light"), dark_right_half="home")
    board = Board.from_position(Position.start(), 0)
    ref, _ = observe(start(settings), Seen(board))
    ref, _ = observe(ref, Seen(board, dice=(SeenDie(5, True, "home"), SeenDie(2, True, "outer"))))  # dark plays first
    wrong = Board.from_position(plays_of(Position.start(), (5, 2))[0].after, 1)  # light played dark's roll
    ref, out = observe(ref, Seen(wrong))
    assert [c.kind for c in out.calls] == ["seating"]
    ref, out = observe(ref, Seen(board))  # put back
    assert ref.settings.dark_right_half == "home" and not out.calls
    right = Board.from_position(plays_of(Position.start(), (5, 2))[0].after, 0)
    ref, out = observe(ref, Seen(right))
    assert out.events and out.events[0].player == 0 and not out.calls
