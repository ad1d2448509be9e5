"""End to end on rendered camera footage: calibrate on the first frame, then settle,
read and referee every frame of a scripted game with injected irregularities.

The same game is also refereed from its true readings; the footage must give the
same events, the same .mat and the same flags (no false alarm, no missed fault).
Rendering 1280x720 footage costs about 0.2 s a frame, so the game is cut after
seven plays here; `benchmarks/bench_referee.py` runs whole games.
"""

import pytest

from engine.game import Rules
from referee.core import Seen, Settings
from referee.footage import FootageConfig, footage, game_items, scripted_setup
from referee.pipeline import FramePipeline
from referee.recording import Script
from referee.seating import Seating
from referee.service import RefereeService
from vision.reading import Reading

vision = pytest.importorskip("vision")

pytestmark = pytest.mark.slow  # renders and reads a game's footage frame by frame (minutes)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    cfg = FootageConfig(size=(1280, 720))
    setup = scripted_setup(5, cfg.size)
    # every injection of the recorded games, seen through the camera: cocked die, wrong die
    # corrected, one die accepted, double/take, a roll out of turn, a play while on the bar
    script = Script(cocked_die_turn=1, wrong_die_turn=2, one_die_turn=3, double_turn=4, out_of_turn_turn=5)
    items = game_items(7, setup.layout, script, turns=7)
    frames = list(footage(items, setup, 5, cfg))
    settings = Settings(rules=Rules(match_length=5), players=("Ann", "Bob"), dark_right_half=Seating.from_layout(setup.layout).dark_right)
    truth = RefereeService(settings, tmp_path_factory.mktemp("truth"), None)
    truth_notes = [n for item in items for n in truth.handle(Seen.from_reading(Reading.from_json(item["reading"]))).notes]
    cal = vision.calibrate(vision.CalibrationConfig(), frames[0][1])
    seen = RefereeService(settings, tmp_path_factory.mktemp("seen"), None)
    seen_notes = []
    seen.listeners.on_note.append(seen_notes.append)
    pipeline = FramePipeline(vision.BoardReader(cal), seen)
    for t, frame, _ in frames:
        pipeline.feed(t, frame)
    return script, truth, truth_notes, seen, seen_notes, pipeline, cal, setup


def test_calibration_finds_the_layout(game):
    *_, cal, setup = game
    assert (cal.layout.home_right, cal.layout.dark_bottom) == (setup.layout.home_right, setup.layout.dark_bottom)


def test_footage_gives_the_same_game_as_the_readings(game):
    script, truth, _, seen, _, pipeline, *_ = game
    assert len(truth.events) > 12
    assert seen.events == truth.events
    assert seen.record() == truth.record()


def test_irregularities_are_flagged_and_nothing_else(game):
    script, _, truth_notes, _, seen_notes, *_ = game
    levels = lambda notes: [(n.level, n.text) for n in notes if n.level != "info"]  # noqa: E731
    assert levels(seen_notes) == levels(truth_notes)
    texts = " | ".join(n.text for n in seen_notes)
    assert "a die is cocked" in texts and "illegal play by" in texts and "accepted as made" in texts and "doubles" in texts
    injected = [e for e in script.events if "wrong die" in e or "one die" in e or "on the bar" in e]
    assert len([n for n in seen_notes if n.level == "illegal"]) == len(injected) >= 3
    assert any("out of turn" in e for e in script.events) and any("on the bar" in e for e in script.events)


def test_each_settled_state_is_read_once(game):
    *_, pipeline, _, _ = game
    stats = pipeline.stats
    assert stats.vision_errors == 0
    assert stats.reads <= stats.frames // 2
