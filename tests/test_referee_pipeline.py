"""Settle detection and the frame loop: one reading per settled state, camera loss and return."""

import numpy as np
import pytest

from referee.settle import SettleConfig, SettleState, settle_step, shrink
from vision.sources import CameraError, CameraLostError, FolderSource, open_source
from vision.reading import Reading

CFG = SettleConfig()


def still(seed, shape=(180, 320)):
    rng = np.random.default_rng(seed)
    base = (rng.random(shape) * 200).astype(np.uint8)
    return np.dstack([base] * 3)


def with_hand(frame, x):
    out = frame.copy()
    out[40:140, x : x + 60] = 30  # a dark arm across the board
    return out


def run(frames, fps=10.0):
    state = SettleState()
    reads = []
    for i, frame in enumerate(frames):
        state, now = settle_step(CFG, state, i / fps, shrink(CFG, frame))
        if now:
            reads.append(i)
    return reads


def test_one_read_per_settled_state():
    a, b = still(1), still(2)
    frames = [a] * 8 + [with_hand(a, x) for x in range(0, 240, 20)] + [b] * 10 + [b] * 10
    reads = run(frames)
    assert len(reads) == 2
    wait = round(CFG.settle_seconds * 10)  # frames at 10 fps
    assert reads[0] >= wait  # waited settle_seconds
    assert reads[1] >= 8 + 12 + wait


def test_a_hand_that_leaves_nothing_changed_causes_no_new_read():
    a = still(1)
    frames = [a] * 8 + [with_hand(a, x) for x in range(0, 240, 20)] + [a] * 10
    assert len(run(frames)) == 1


def test_sensor_noise_alone_is_still():
    a = still(1)
    rng = np.random.default_rng(5)
    noisy = [np.clip(a.astype(int) + rng.integers(-3, 4, a.shape), 0, 255).astype(np.uint8) for _ in range(12)]
    assert len(run(noisy)) == 1


def test_folder_source_skips_corrupt_files(tmp_path):
    import cv2

    for i in range(3):
        cv2.imwrite(str(tmp_path / f"frame{i:02d}.png"), still(i))
    (tmp_path / "frame01b.jpg").write_bytes(b"not a jpeg")
    src = FolderSource(tmp_path, fps=5)
    src.open()
    frames = list(src.frames())
    assert len(frames) == 3 and frames[1][0] == pytest.approx(0.2)
    with pytest.raises(CameraError, match="not picamera"):
        open_source(str(tmp_path / "missing.mp4"))
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CameraError, match="holds no images"):
        FolderSource(empty).open()


class FlakyCamera:
    """A camera (hardware we do not have) that is unplugged once, then comes back."""

    name = "flaky camera"

    def __init__(self, frames):
        self.frames_list = frames
        self.opens = 0

    def open(self):
        self.opens += 1
        if self.opens == 2:
            raise CameraError("no camera at index 0: is it plugged in?")

    def frames(self):
        if self.opens == 1:
            yield 0.0, self.frames_list[0]
            raise CameraLostError("flaky camera stopped giving frames (unplugged?)")
        yield from ((i / 10, f) for i, f in enumerate(self.frames_list))

    def close(self):
        pass


def test_camera_unplugged_and_back_shows_the_fault_and_goes_on(tmp_path):
    from engine.game import Rules
    from referee.core import Settings
    from referee.pipeline import FramePipeline, run_source
    from referee.service import RefereeService

    service = RefereeService(Settings(rules=Rules()), tmp_path, None)
    reads = []

    def reader(frame):
        reads.append(frame)
        from engine.board import Board
        from engine import Position

        reading = Board.from_position(Position.start(), 0).to_reading()
        reading.update(dice=[], cube={"value": 1, "position": "centre"})
        return Reading.from_json(reading)

    faults = []
    pipeline = FramePipeline(reader, service)
    camera = FlakyCamera([still(1)] * 10)
    stats = run_source(camera, pipeline, on_camera_fault=faults.append, live=True, sleep=lambda s: None)
    assert faults == [True, False]
    assert camera.opens == 3 and len(reads) == 1 and stats.frames == 11
    with pytest.raises(CameraLostError):
        run_source(FlakyCamera([still(1)] * 3), FramePipeline(reader, service), live=False)


def test_watch_configuration_and_folders(tmp_path):
    import argparse

    from referee.commands import config_paths, default_match_dir, load_config, merged, settings_from

    assert default_match_dir({"STATE_DIRECTORY": "/var/lib/bgref"}) == __import__("pathlib").Path("/var/lib/bgref/current")
    assert config_paths(None, {"XDG_CONFIG_HOME": "/x"})[0].as_posix() == "/x/bgref/config.toml"
    conf = tmp_path / "c.toml"
    conf.write_text('camera = "usb:0"\nplayers = ["Ann", "Bob"]\nmatch_length = 7\nmode = "teach"\n')
    config, path = load_config(conf)
    options = merged(config, argparse.Namespace(mode="tournament", players=None, func=None, config=conf))
    settings = settings_from(options)
    assert path == conf and settings.players == ("Ann", "Bob") and settings.rules.match_length == 7
    assert settings.mode.value == "tournament"  # the flag wins over the file
    bad = tmp_path / "bad.toml"
    bad.write_text("camera = ")
    with pytest.raises(SystemExit, match="cannot be read"):
        load_config(bad)
    with pytest.raises(SystemExit, match="do not fit together"):
        settings_from({"match_length": 5, "jacoby": True})


def test_the_example_configuration_is_valid():
    import argparse
    import tomllib
    from pathlib import Path

    from referee.commands import merged, settings_from

    text = (Path(__file__).resolve().parent.parent / "hardware" / "config.example.toml").read_text()
    settings = settings_from(merged(tomllib.loads(text), argparse.Namespace()))
    assert settings.rules.match_length == 5 and settings.mode.value == "referee"


def test_a_fault_in_the_reader_costs_a_frame_not_the_match(tmp_path, caplog):
    from engine.game import Rules
    from referee.core import Settings
    from referee.pipeline import FramePipeline
    from referee.service import RefereeService

    service = RefereeService(Settings(rules=Rules()), tmp_path, None)
    calls = []

    def reader(frame):  # a reader with a bug: the first frame it reads raises
        calls.append(frame)
        if len(calls) == 1:
            raise IndexError("boolean index did not match")
        from engine.board import Board
        from engine import Position

        reading = Board.from_position(Position.start(), 0).to_reading()
        reading.update(dice=[], cube={"value": 1, "position": "centre"})
        return Reading.from_json(reading)

    pipeline = FramePipeline(reader, service)
    outcomes = [pipeline.feed(i / 10, still(1 if i < 20 else 2)) for i in range(40)]
    assert len(calls) == 2 and pipeline.stats.vision_errors == 1
    assert any(o is not None for o in outcomes[20:])  # the next settled state was read and refereed
    assert "the reader failed on a frame (IndexError" in caplog.text
