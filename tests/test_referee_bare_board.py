"""The live pipeline learns the bare board the first time it sees it settled (Blender fixture frames)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.core import Outcome, Seen
from referee.pipeline import FramePipeline
from vision.reading import Reading

vision = pytest.importorskip("vision")
from vision.calibrate import learn_empty_board  # noqa: E402
from vision.sources import read_image  # noqa: E402

DATA = Path(__file__).parent / "data" / "vision_blender"


class Readings:
    """Takes what the pipeline hands on, like the referee service does."""

    def __init__(self) -> None:
        self.seen: list[Seen] = []

    def handle(self, item: Seen) -> Outcome:
        self.seen.append(item)
        return Outcome()


def _feed(pipeline: FramePipeline, frame, start: float, seconds: float = 2.0) -> float:
    t = start
    while t < start + seconds:
        pipeline.feed(t, frame)
        t += 0.1
    return t


def test_the_bare_board_is_learnt_once_from_a_settled_frame_and_the_game_goes_on(tmp_path: Path, calibrated) -> None:
    cal = calibrated(DATA / "start.jpg")
    learnt: list = []
    readings = Readings()
    pipeline = FramePipeline(vision.BoardReader(cal), readings)

    def use(new) -> None:
        learnt.append(new)
        pipeline.reader = vision.BoardReader(new)

    pipeline.on_bare_board = use
    t = _feed(pipeline, read_image(DATA / "frame01.jpg"), 0.0)  # a game frame: nothing to learn
    assert learnt == [] and len(readings.seen) == 1
    t = _feed(pipeline, read_image(DATA / "empty.jpg"), t)  # players clear the board
    assert len(learnt) == 1 and learnt[0].bare_board_seen
    assert pipeline.reader.cal is learnt[0]
    truth = json.loads((DATA / "truth.json").read_text())["frames"]
    board = {name: Seen.from_reading(Reading.from_json(truth[name]["reading"])).board for name in ("start.jpg", "empty.jpg")}
    assert readings.seen[-1].board == board["empty.jpg"]  # the bare board was still handed on
    t = _feed(pipeline, read_image(DATA / "start.jpg"), t)
    t = _feed(pipeline, read_image(DATA / "empty.jpg"), t)
    assert len(learnt) == 1  # once and for all
    assert [s.board for s in readings.seen[-2:]] == [board["start.jpg"], board["empty.jpg"]]


def test_bgref_watch_saves_the_learnt_calibration_over_the_old_one(tmp_path: Path, calibrated) -> None:
    from referee.commands import _use_bare_board

    cal = calibrated(DATA / "start.jpg")
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(cal.to_json()))
    pipeline = FramePipeline(vision.BoardReader(cal), Readings())
    learnt = learn_empty_board(vision.CalibrationConfig(), cal, read_image(DATA / "empty.jpg"))
    _use_bare_board(learnt, None, pipeline, path)
    assert pipeline.reader.cal is learnt
    assert vision.load_calibration(path).bare_board_seen
