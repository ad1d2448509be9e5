"""vision.reading: the board reading as a typed value, its one JSON form, and its checks.

Expected values are the contract's own (docs/board-spec.md) and the start position by the
rules: dark has 2 on 24, 5 on 13, 3 on 8, 5 on 6; light the same from its side, i.e. on
dark's points 1, 12, 17 and 19.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from vision.reading import Colour, Cube, CubePosition, Die, Half, PerColour, Reading, ReadingError

START = [0] * 24
for point, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
    START[point - 1] = n
    START[25 - point - 1] = -n

CONTRACT_EXAMPLE = {  # the example of docs/board-spec.md, as written there
    "points": [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2],
    "bar": {"dark": 0, "light": 0},
    "off": {"dark": 0, "light": 0},
    "dice": [{"value": 5, "flat": True, "half": "home"}, {"value": 3, "flat": True, "half": "home"}],
    "cube": {"value": 1, "position": "centre"},
}


def test_the_contracts_example_is_the_start_position_and_reads_as_typed_values():
    assert CONTRACT_EXAMPLE["points"] == START
    reading = Reading.from_json(CONTRACT_EXAMPLE)
    assert reading.points == tuple(START)
    assert reading.bar == PerColour(0, 0) and reading.off["dark"] == 0 and reading.off[Colour.LIGHT] == 0
    assert reading.dice == (Die(5, True, Half.HOME), Die(3, True, Half.HOME))
    assert reading.cube == Cube(1, CubePosition.CENTRE)


def test_the_json_form_round_trips_exactly():
    reading = Reading.from_json(CONTRACT_EXAMPLE)
    assert reading.to_json() == {**CONTRACT_EXAMPLE, "occluded": []}
    assert Reading.from_json(json.loads(json.dumps(reading.to_json()))) == reading


def test_a_cube_seen_but_not_read_surely_has_a_null_value_and_its_place():
    data = {**CONTRACT_EXAMPLE, "cube": {"value": None, "position": "dark"}}
    reading = Reading.from_json(data)
    assert reading.cube == Cube(None, CubePosition.DARK)
    assert reading.to_json()["cube"] == {"value": None, "position": "dark"}


def test_our_added_fields_are_typed_and_unknown_ones_are_kept():
    data = {
        "points": [None] + START[1:],
        "bar": {"dark": 0, "light": None},
        "off": {"dark": None, "light": None},
        "dice": [{"value": None, "flat": False, "half": "off"}],
        "cube": None,
        "confidence": {"points": [0.2] + [1.0] * 23, "bar": {"dark": 1.0, "light": 0.3}, "dice": [0.4], "cube": None},
        "occluded": ["point:1", "bar:light"],
        "image": {"dice_mm": [[100.0, 200.0]], "cube_mm": None},
    }
    reading = Reading.from_json(data)
    assert reading.points[0] is None and reading.bar.light is None and reading.cube is None
    assert reading.confidence is not None and reading.confidence.points[0] == 0.2 and reading.confidence.dice == (0.4,)
    assert reading.occluded == ("point:1", "bar:light")
    assert reading.extra == {"image": {"dice_mm": [[100.0, 200.0]], "cube_mm": None}}
    assert reading.to_json() == data


def wrong(**changes):
    data = copy.deepcopy(CONTRACT_EXAMPLE)
    data.update(changes)
    return data


@pytest.mark.parametrize("data, named", [
    ([1, 2], "JSON object"),
    ({"points": START}, "needs bar, off, dice, cube"),
    (wrong(points=START[:23]), "list of 24"),
    (wrong(points=START[:23] + [2.0]), "points[23] (point 24)"),
    (wrong(points=START[:23] + [16]), "from -15 to 15"),
    (wrong(points=START[:1] + [2] + START[2:]), "17 dark checkers"),  # the start's 15 and 2 more on point 2
    (wrong(bar={"dark": 0}), 'bar must be {"dark": n, "light": n}'),
    (wrong(bar={"dark": -1, "light": 0}), "bar.dark"),
    (wrong(off={"dark": 3, "light": 0}), "off.dark is 3, but 15 dark checkers are seen: it must be 0"),
    (wrong(dice=[{"value": 7, "flat": True, "half": "home"}]), "dice[0].value"),
    (wrong(dice=[{"value": 2, "flat": "yes", "half": "home"}]), "dice[0].flat"),
    (wrong(dice=[{"value": 2, "flat": True, "half": "left"}]), 'dice[0].half must be one of "home", "outer", "off"'),
    (wrong(dice=[{"value": 2}]), "dice[0] must be"),
    (wrong(cube={"value": 3, "position": "centre"}), "cube.value must be one of 1, 2, 4, 8, 16, 32, 64"),
    (wrong(cube={"value": 2, "position": "middle"}), 'cube.position must be one of "centre", "dark", "light"'),
    (wrong(occluded=["point:25"]), "occluded holds"),
    (wrong(confidence={"points": [1.0] * 24, "dice": [1.0]}), "one number per die (2)"),
    (wrong(confidence={"points": [1.5] * 24, "dice": [1.0, 1.0]}), "confidence.points[0]"),
])
def test_a_reading_that_breaks_the_contract_is_refused_naming_the_field(data, named):
    with pytest.raises(ReadingError) as caught:
        Reading.from_json(data)
    assert named in str(caught.value)


def test_colours_and_the_engines_players():
    assert [Colour.of_player(p) for p in (0, 1)] == [Colour.DARK, Colour.LIGHT]
    assert Colour.DARK.player == 0 and Colour.LIGHT.other is Colour.DARK and Colour("light") is Colour.LIGHT
    with pytest.raises(ValueError):
        Colour.of_player(2)
    from engine import Colour as EngineColour

    assert Colour is EngineColour  # one Colour: the engine's, re-exported by vision.reading


def test_the_reader_returns_a_reading_whose_json_form_is_valid_and_reads_back_equal(calibrated):
    from vision import BoardReader
    from vision.sources import read_image

    start = Path(__file__).parent / "data" / "vision_blender" / "start.jpg"
    reading = BoardReader(calibrated(start))(read_image(start))
    assert isinstance(reading, Reading) and Reading.from_json(json.loads(json.dumps(reading.to_json()))) == reading
    assert reading.points == tuple(START) and reading.off == PerColour(0, 0) and reading.occluded == ()
    assert reading.confidence is not None and len(reading.confidence.points) == 24


def test_a_hand_over_the_board_and_a_misread_of_more_than_fifteen_are_readings():
    """A scripted recording says only that a hand is over the board; a camera may misread a sixteenth
    checker (the referee copes): both read back, the second with ``off`` unknown, never negative."""
    assert Reading.from_json(wrong(occluded=["hand"])).occluded == ("hand",)
    sixteen = START[:1] + [1] + START[2:]  # the start's fifteen dark checkers and one more on point 2
    assert Reading.from_json(wrong(points=sixteen, off={"dark": None, "light": 0})).points[1] == 1
    with pytest.raises(ReadingError, match="off.dark is null when more are seen"):
        Reading.from_json(wrong(points=sixteen))
