"""The project's own footage generator (referee/footage.py): halves from the physical picture, arms from the
thrower's seat, every foul of issue #43 item 6.  Expected values are written by hand from the picture."""

import ast
from pathlib import Path

import numpy as np
import pytest

from referee.footage import EVERY_FOUL, arm_from_seat, dark_right_half
from vision.geometry import BoardGeometry, Layout
from vision.render import Scene

ROOT = Path(__file__).resolve().parents[1]


# (home boards on dark's right in the layout, dark at the bottom of the plane) -> the half on dark's right, from the
# picture: dark at the bottom faces up, so dark's right is the plane's right; at the top, the plane's left.
@pytest.mark.parametrize(("home_right", "dark_bottom", "expected"), [
    (True, True, "home"),  # the standard picture: home boards bottom-right, on dark's right
    (False, True, "outer"),  # mirrored: home boards on the left, dark at the bottom: dark's right is outer
    (True, False, "home"),  # turned 180: home boards on the plane's left, dark at the top faces down: his right is the plane's left
    (False, False, "outer"),  # mirrored, then turned: home boards on the plane's right, dark at the top: his right is the left
])
def test_the_half_on_darks_right_from_the_picture(home_right, dark_bottom, expected):
    assert dark_right_half(Layout(home_right, dark_bottom)) == expected


def test_the_generator_does_not_import_the_products_seating():
    tree = ast.parse((ROOT / "referee" / "footage.py").read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert not any(m and m.endswith("seating") for m in imported)


@pytest.mark.parametrize("dark_bottom", [True, False])
@pytest.mark.parametrize("colour", ["dark", "light"])
def test_an_arm_comes_in_over_the_edge_of_its_owners_seat(dark_bottom, colour):
    geo = BoardGeometry()
    bottom = (colour == "dark") == dark_bottom  # dark sits at the bottom edge when dark_bottom; light opposite
    rng = np.random.default_rng(3)
    for _ in range(20):
        start, end, _width = arm_from_seat(rng, Scene((0,) * 24, (0, 0), Layout(True, dark_bottom)), colour).arm
        assert (start[1] > geo.depth) == bottom and (start[1] < 0) == (not bottom)
        # the hand stops on its owner's side of the middle, or a little past it
        assert (end[1] > 0.35 * geo.depth) if bottom else (end[1] < 0.65 * geo.depth)


def test_every_foul_is_in_a_turn_of_its_own():
    turns = [v for v in EVERY_FOUL.values()]
    assert len(turns) == len(set(turns))
    assert {"cocked_die_turn", "wrong_die_turn", "wrong_half_turn", "out_of_turn_turn", "moved_before_roll_turn",
            "wrong_half_both_turn", "early_roll_turn"} <= set(EVERY_FOUL)


@pytest.mark.slow  # renders and reads about seven plays of footage (minutes)
def test_who_rolled_on_own_footage_each_foul_called_on_its_thrower(tmp_path):
    """The script's fouls, rendered with the throwing arm from the thrower's seat and refereed frame by frame:
    the roll out of turn is called on the player who threw it, and both dice thrown into the other half from the
    roller's seat on the roller: the calls the script injected (kind, offender, turn), and no other foul."""
    import vision
    from engine.game import Rules
    from referee.core import Settings
    from referee.footage import FootageConfig, footage, game_items, scripted_setup
    from referee.pipeline import FramePipeline
    from referee.recording import Script
    from referee.service import RefereeService

    cfg = FootageConfig(size=(1280, 720))
    setup = scripted_setup(5, cfg.size)
    script = Script.clean(out_of_turn_turn=2, wrong_half_both_turn=4, moved_before_roll_turn=6)
    items = game_items(7, setup.layout, script, turns=7)
    frames = list(footage(items, setup, 5, cfg))
    cal = vision.calibrate(vision.CalibrationConfig(), frames[0][1])
    settings = Settings(rules=Rules(match_length=5), players=("Ann", "Bob"), dark_right_half=dark_right_half(setup.layout))
    service = RefereeService(settings, tmp_path, None)
    pipeline = FramePipeline(vision.BoardReader(cal), service)
    calls = []
    for t, frame, _ in frames:
        out = pipeline.feed(t, frame)
        if out is not None:
            calls += [(c.kind, "dark" if c.player == 0 else "light", c.turn) for c in out.calls if c.kind != "please_look"]
    injected = [f for f in script.fouls if f[2] <= 6]
    assert {f[0] for f in injected} == {"out_of_turn", "wrong_half", "moved_before_roll"}
    assert sorted(set(calls)) == sorted(set(injected))
