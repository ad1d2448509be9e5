"""The independent world's own truth is consistent, and its halves follow the physical picture.

Expected values are written by hand from board-spec.md and the seating rule (each player
rolls into the half on their own right-hand side), not computed by the code under test.
"""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.world import board as B
from benchmarks.world.camera import make_camera
from benchmarks.world.footage import MOUNTINGS, FootageMounting, film_game, reading
from benchmarks.world.matches import read_match, positions
from benchmarks.world.footage import MATCH
from benchmarks.world.scene import FACTORS, random_scene

# home boards in the image | dark's side of the table | camera turn  ->  (dark's right half, light's right half)
# Drawn by hand: the camera's mount stands on the "near" side.  Turned 0 deg, the near side is at the
# bottom of the image; turned 180 deg, at the top.  A player at the bottom of the image faces up it,
# so their right hand is the image's right; a player at the top faces down it: their right is the image's left.
HALVES = {
    ("right", "near", 0): ("home", "outer"),    # dark at the bottom, home on the right: dark's right is home
    ("right", "near", 180): ("outer", "home"),  # dark at the top: dark's right is the image's left, the outer half
    ("right", "far", 0): ("outer", "home"),     # dark at the top
    ("right", "far", 180): ("home", "outer"),   # far side turned to the bottom: dark at the bottom
    ("left", "near", 0): ("outer", "home"),
    ("left", "near", 180): ("home", "outer"),
    ("left", "far", 0): ("home", "outer"),
    ("left", "far", 180): ("outer", "home"),
}


@pytest.mark.parametrize("key", sorted(HALVES))
def test_right_halves_per_mounting(key: tuple[str, str, int]) -> None:
    m = FootageMounting(*key)
    seating = m.seating()
    assert (seating.right_half("dark"), seating.right_half("light")) == HALVES[key]


@pytest.mark.parametrize("m", MOUNTINGS, ids=lambda m: m.name)
def test_camera_shows_the_mounting(m: FootageMounting) -> None:
    """Where the camera puts the home half and dark's checkers agrees with the mounting's name."""
    seating = m.seating()
    cam = make_camera(m.camera(__import__("random").Random(3)))
    hx = B.half_x_sign(seating, "home") * (B.BAR / 2 + B.HALF_W / 2)
    home_px, outer_px = cam.image(np.array([[hx, 0.0, 0.0], [-hx, 0.0, 0.0]]))
    assert (home_px[0] > outer_px[0]) == (m.home_image == "right")
    dark_px, light_px = cam.image(np.array([[0.0, B.side_y_sign(seating, c) * 140, 0.0] for c in ("dark", "light")]))
    dark_at_bottom = dark_px[1] > light_px[1]
    assert dark_at_bottom == ((m.dark == "near") == (m.turn == 0))


def test_start_position_from_the_spec() -> None:
    # board-spec.md's JSON example is the start position
    assert list(B.Position.start().points) == [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]


def test_point_layout_by_hand() -> None:
    s = B.Seating(B.EAST, B.SOUTH)  # dark at the south edge, home boards east: the usual diagram
    x1, y1, in1 = B.point_frame(s, 1)
    x6, _, _ = B.point_frame(s, 6)
    x7, _, _ = B.point_frame(s, 7)
    x24, y24, in24 = B.point_frame(s, 24)
    assert x1 > x6 > 0 > x7  # 1 at the east corner, 6 by the bar, 7 across the bar
    assert y1 < 0 < y24 and in1 == 1 and in24 == -1  # 1 on dark's (south) side, 24 facing it
    assert x24 == pytest.approx(x1)


@pytest.mark.parametrize("seed", range(30))
def test_stills_have_fifteen_a_side(seed: int) -> None:
    scene = random_scene(seed)
    r = scene.reading()
    for colour, sign in (("dark", 1), ("light", -1)):
        on = sum(n * sign for n in r["points"] if n * sign > 0)
        assert on + r["bar"][colour] + r["off"][colour] == 15
        assert sum(c.colour == colour for c in scene.checkers) == on + r["bar"][colour]
    for d in r["dice"]:
        assert 1 <= d["value"] <= 6 and d["half"] in ("home", "outer")
    assert set(scene.factors) == set(FACTORS)


def test_held_out_values_never_drawn() -> None:
    held = {"stacking": ("towers", "loose"), "lens": ("pinhole",)}
    for seed in range(40):
        f = random_scene(seed, hold_out=held).factors
        assert f["stacking"] not in held["stacking"] and f["lens"] != "pinhole"


def test_match_reader_by_hand() -> None:
    games = read_match(MATCH)
    g1 = games[0]
    # " 1)                             41: 13/9 24/23" then " 2) 31: 6/5 8/5    41: 6/5 9/5"
    assert (g1[0].player, g1[0].dice, g1[0].moves) == ("light", (4, 1), ((13, 9), (24, 23)))
    assert (g1[1].player, g1[1].dice, g1[1].moves) == ("dark", (3, 1), ((6, 5), (8, 5)))
    assert [a.kind for a in g1 if a.kind != "roll"] == ["double", "take"]
    for g in games:
        for p in positions(g):
            assert p.count("dark") + p.off("dark") == 15 and p.count("light") + p.off("light") == 15


def test_footage_truth_consistent() -> None:
    game = read_match(MATCH)[0]
    film, fouls, played = film_game(game, MOUNTINGS[3], seed=5, plays=18)
    assert fouls and all(f.t < f.until for f in fouls)
    assert sum(p["action"] == "roll" for p in played) == 18
    seating = film.seating
    for st in film.states:
        r = reading(seating, st)
        for colour, sign in (("dark", 1), ("light", -1)):
            on = sum(n * sign for n in r["points"] if n * sign > 0)
            assert on + r["bar"][colour] + r["off"][colour] == 15
        # a roll lies in one half; the opening roll in both players' right halves
        assert all(d["half"] in ("home", "outer") for d in r["dice"])
