"""What an arm hides in the independent world (benchmarks/world/cover.py), written by hand from the picture.

The scenes are built by hand: the usual seating (dark at the south edge, home boards east), the start
position, a camera straight above the board's centre. Expected covered places are read off the
picture (sketched below), not computed by the code under test.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from benchmarks.world import board as B
from benchmarks.world.camera import Mounting
from benchmarks.world.cover import covered
from benchmarks.world.scene import Arm, Cube, Die, Scene, place_checkers, random_scene

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from bench_vision_world import score  # noqa: E402

SEATING = B.Seating(B.EAST, B.SOUTH)


def scene(arm: Arm | None, turn: float = 0.0, bar: tuple[int, int] = (0, 0), dice: tuple[Die, ...] = (),
          cube: Cube | None = None) -> Scene:
    look = random_scene(5, {"arms": "none"}).look
    pos = B.Position(B.Position.start().points, bar)
    mounting = Mounting("south", 0.0, 650.0, turn, 0.8, 0.0, (0.0, 0.0))
    checkers = place_checkers(SEATING, pos, "centred", random.Random(1))
    return Scene(SEATING, mounting, pos, checkers, dice, cube, look, () if arm is None else (arm,), {}, 0)


def hidden_points(c: dict) -> set[int]:
    return {p for p in range(1, 25) if c["points"][p - 1]}


# A sleeve 70 mm wide comes in from the south edge along the bar, the hand 60 mm short of the board's centre:
#
#      north   13 .. 18 | bar | 19 .. 24
#                       |     |
#                       | _|_ |         die (5) at x 120 mm, clear of it
#      south   12 .. 7 [|#####|] 6 .. 1
#                       |#####|  die (3) at x 25 mm, y -90 mm: under the hand
#
# It hides points 6 and 7 (dark's checkers on 6, the bare 7), dark's half of the bar and the die under
# the hand; light's half of the bar (north), the points beyond (5, 8) and the other die stay in view.
SLEEVE = Arm("sleeve", 270.0, 60.0, 70.0, (150, 60, 30), (150, 180, 225))
DICE = (Die(3, 25.0, -90.0, 10.0), Die(5, 120.0, -60.0, 30.0))


@pytest.mark.parametrize("turn", [0.0, 90.0, 180.0])
def test_sleeve_along_the_bar(turn: float) -> None:
    # turning the camera about its axis turns the picture, not what the sleeve hides
    c = covered(scene(SLEEVE, turn, bar=(1, 1), dice=DICE))
    assert hidden_points(c) == {6, 7}
    assert c["bar"] == {"dark": True, "light": False}
    assert c["dice"] == [True, False]
    assert c["cube"] is False


def test_cup_over_lights_side_of_the_bar() -> None:
    # a cup held from the north edge, 100 mm from the centre: over the bases of 18 (bare) and 19 (light's
    # five) and light's half of the bar; the cube in the middle stays clear
    cup = Arm("cup", 90.0, 100.0, 80.0, (40, 40, 140), (110, 140, 190))
    cube = Cube(1, "centre", 0.0, 0.0, B.RIM_H, 20.0, "DejaVuSans/fill")
    c = covered(scene(cup, cube=cube))
    assert hidden_points(c) == {18, 19}
    assert c["bar"] == {"dark": False, "light": True}
    assert c["cube"] is False


def test_arm_from_the_east_over_the_home_tips() -> None:
    # a bare arm 100 mm wide from the east edge, the hand 140 mm from the centre, lies across the middle of
    # the home half: over the tips of the two outermost points each side (1, 2 and 23, 24; their tips reach
    # to 25 mm off the middle line) and nothing else: the hand stops short of 3 and 22, and of the cube
    arm = Arm("arm", 0.0, 140.0, 100.0, (40, 40, 40), (70, 95, 140))
    cube = Cube(1, "centre", 0.0, 0.0, B.RIM_H, 20.0, "DejaVuSans/fill")
    c = covered(scene(arm, cube=cube))
    assert hidden_points(c) == {1, 2, 23, 24}
    assert c["bar"] == {"dark": False, "light": False}
    assert c["cube"] is False


def test_no_arm_hides_nothing() -> None:
    c = covered(scene(None, bar=(1, 1), dice=DICE))
    assert not any(c["points"]) and not any(c["bar"].values()) and not any(c["dice"]) and c["cube"] is False


def truth_with(cov: list[int]) -> dict:
    t = random_scene(3, {"arms": "none", "dice": "none", "cube": "none"}).reading()
    t["covered"] = {"points": [p in cov for p in range(1, 25)], "bar": {"dark": False, "light": False}, "dice": [], "cube": False}
    return t


def test_score_under_cover() -> None:
    t = truth_with([6, 7])
    read = {"points": list(t["points"]), "bar": dict(t["bar"]), "dice": [], "cube": None}
    assert score(t, read)["exact"] == (1, 1)
    read["points"][5] = None  # unsure under the sleeve: still exact
    s = score(t, read)
    assert s["exact"] == (1, 1) and s["unsure covered"] == (1, 2) and s["unsure visible"] == (0, 22)
    read["points"][6] = 3  # a confident count on the bare, covered 7: wrong
    s = score(t, read)
    assert s["exact"] == (0, 1) and s["wrong covered"] == (1, 2)
    read["points"][6] = t["points"][6]
    read["points"][0] = None  # unsure on a point in plain view: not exact
    s = score(t, read)
    assert s["exact"] == (0, 1) and s["unsure visible"] == (1, 22) and s["unsure points"] == (2, 24)


def test_sure_but_wrong_dice_and_cube() -> None:
    """Only what the referee would act on (confidence >= 0.6) counts as sure; a cocked die has no value."""
    t = truth_with([])
    t["dice"] = [{"value": 5, "flat": True, "half": "right"}, {"value": 2, "flat": False, "half": "right"}]
    t["cube"] = {"value": 2, "position": "dark"}
    read = {"points": list(t["points"]), "bar": dict(t["bar"]), "cube": {"value": 2, "position": "dark"},
            "dice": [{"value": 6, "flat": True, "half": "right"}, {"value": None, "flat": False, "half": "right"}],
            "confidence": {"dice": [0.9, 0.8], "cube": 0.95}}
    s = score(t, read)
    assert s["die sure wrong"] == (1, 2) and s["cube sure wrong"] == (0, 1)
    read["confidence"] = {"dice": [0.3, 0.8], "cube": 0.95}  # the misread 6 said unsure: not acted on
    read["cube"] = {"value": 4, "position": "dark"}
    s = score(t, read)
    assert s["die sure wrong"] == (0, 1) and s["cube sure wrong"] == (1, 1)
    read["cube"] = {"value": None, "position": "dark"}  # unread: a miss, not a sure wrong one
    s = score(t, read)
    assert "cube sure wrong" not in s and s["cube"] == (0, 1)
