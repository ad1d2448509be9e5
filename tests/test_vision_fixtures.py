"""Calibrate on the committed start-position fixture, then read the committed frames.

The expected readings in ``tests/data/vision/expected.json`` are the renderer's truth
(``benchmarks/render_fixtures.py``), not outputs of the reader.
"""

from __future__ import annotations

import json
from collections import Counter
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from referee.trust import TRUST
from vision import BoardNotFoundError, BoardReader, CalibrationConfig, calibrate, load_calibration
from vision.calibrate import Calibration
from vision.errors import CalibrationError, ImageReadError
from vision.geometry import START_POINTS
from vision.sources import read_image

DATA = Path(__file__).parent / "data" / "vision"
EXPECTED = json.loads((DATA / "expected.json").read_text())
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def calibration(calibrated) -> Calibration:
    return calibrated(DATA / "start.jpg")


@pytest.fixture(scope="module")
def reader(calibration: Calibration) -> BoardReader:
    return BoardReader(calibration)


def test_calibration_reads_back_the_start_position(reader: BoardReader) -> None:
    reading = reader(read_image(DATA / "start.jpg")).to_json()
    assert reading["points"] == list(START_POINTS)
    assert reading["bar"] == {"dark": 0, "light": 0}
    assert reading["off"] == {"dark": 0, "light": 0}
    assert reading["cube"] == {"value": 1, "position": "centre"}
    assert reading["occluded"] == []


@pytest.mark.parametrize("name", ["frame1.jpg", "frame2.jpg", "frame3.jpg"])
def test_checkers_of_game_frames(reader: BoardReader, name: str) -> None:
    truth = EXPECTED["frames"][name]
    reading = reader(read_image(DATA / name)).to_json()
    assert reading["points"] == truth["points"]
    assert reading["bar"] == truth["bar"]
    assert reading["off"] == truth["off"]
    assert reading["occluded"] == []
    assert len(reading["confidence"]["points"]) == 24


@pytest.mark.parametrize("name", ["frame1.jpg", "frame2.jpg", "frame3.jpg"])
def test_dice_and_cube_where_they_are(reader: BoardReader, name: str) -> None:
    """Every die is found in its half; one read surely is read flat or cocked right, and one the network of
    vision.cocked cannot tell is reported unsure (below the referee's ``sure``), never a sure wrong call: on
    frame 1 its networks disagree on both flat dice, which are reported unsure."""
    truth = EXPECTED["frames"][name]
    reading = reader(read_image(DATA / name)).to_json()
    assert sorted(d["half"] for d in reading["dice"]) == sorted(d["half"] for d in truth["dice"])
    sure = Counter((d["half"], d["flat"]) for d, c in zip(reading["dice"], reading["confidence"]["dice"]) if c >= TRUST.sure)
    assert not sure - Counter((d["half"], d["flat"]) for d in truth["dice"])
    assert (reading["cube"] or {}).get("position") == (truth["cube"] or {}).get("position")


def test_arm_over_the_board_is_reported_not_guessed(reader: BoardReader) -> None:
    truth = EXPECTED["frames"]["arm.jpg"]
    reading = reader(read_image(DATA / "arm.jpg")).to_json()
    assert reading["occluded"], "an arm over the board must be reported"
    for i, (got, want) in enumerate(zip(reading["points"], truth["points"])):
        if got is None:
            assert f"point:{i + 1}" in reading["occluded"]
        elif got != want:
            assert reading["confidence"]["points"][i] < 0.9, f"confident wrong count on point {i + 1}"
    assert reading["off"] == {"dark": None, "light": None}


def test_calibration_json_round_trip(calibration: Calibration, tmp_path: Path) -> None:
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(calibration.to_json()))
    again = load_calibration(path)
    frame = read_image(DATA / "frame1.jpg")
    assert BoardReader(again)(frame).to_json()["points"] == BoardReader(calibration)(frame).to_json()["points"]


def test_no_board_is_a_clear_error(reader: BoardReader) -> None:
    with pytest.raises(BoardNotFoundError, match="no board"):
        calibrate(CalibrationConfig(), read_image(DATA / "noboard.jpg"))
    with pytest.raises(BoardNotFoundError, match="not in view"):
        reader(read_image(DATA / "noboard.jpg"))
    with pytest.raises(BoardNotFoundError):
        reader(np.zeros((720, 1280, 3), np.uint8))


def test_bad_files(tmp_path: Path, calibration: Calibration) -> None:
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes((DATA / "start.jpg").read_bytes()[:600])
    for path in (empty, corrupt, tmp_path / "missing.jpg"):
        with pytest.raises(ImageReadError):
            read_image(path)
    (tmp_path / "cal.json").write_text("{\"format\": \"something else\"}")
    with pytest.raises(CalibrationError):
        load_calibration(tmp_path / "cal.json")
    small = read_image(DATA / "frame1.jpg")[:360, :640]
    with pytest.raises(CalibrationError, match="calibration was made at"):
        BoardReader(calibration)(small)


def _bgref(*args: str) -> subprocess.CompletedProcess[str]:
    code = "import sys; from referee.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_cli_calibrate_read_and_errors(tmp_path: Path) -> None:
    cal = tmp_path / "calibration.json"
    done = _bgref("calibrate", str(DATA / "start.jpg"), "-o", str(cal))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["calibration"] == str(cal)
    assert set(json.loads(done.stdout)["camera"]) == {"tilt_deg", "height_mm", "focal_px", "focal"}
    done = _bgref("read", str(DATA / "frame2.jpg"), str(DATA / "frame3.jpg"), "--calibration", str(cal))
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["points"] for r in lines] == [EXPECTED["frames"][n]["points"] for n in ("frame2.jpg", "frame3.jpg")]
    for r in lines:
        assert {"points", "bar", "off", "dice", "cube", "confidence", "occluded"} <= set(r)

    done = _bgref("calibrate", str(DATA / "noboard.jpg"), "-o", str(tmp_path / "x.json"))
    assert done.returncode == 3
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr and "no board" in done.stderr
    corrupt = tmp_path / "corrupt.jpg"
    corrupt.write_bytes(b"\xff\xd8\xff garbage")
    done = _bgref("read", str(corrupt), "--calibration", str(cal))
    assert done.returncode != 0 and "Traceback" not in done.stderr and "corrupt.jpg" in done.stderr
    done = _bgref("read", str(DATA / "frame1.jpg"), "--calibration", str(tmp_path / "missing.json"))
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_cli_corners_fallback(tmp_path: Path, calibration: Calibration) -> None:
    """Corners given by hand (here: where the automatic fit put them) calibrate the same board."""
    import cv2
    import numpy as np

    from vision.board import outer_corners_in_image

    corners = outer_corners_in_image(calibration, calibration.image_size)
    text = ",".join(f"{v:.1f}" for v in np.asarray(corners).ravel())
    done = _bgref("calibrate", str(DATA / "start.jpg"), "-o", str(tmp_path / "c.json"), "--corners", text)
    assert done.returncode == 0, done.stderr
    assert cv2 is not None
    done = _bgref("calibrate", str(DATA / "start.jpg"), "--corners", "1,2,3")
    assert done.returncode == 2 and "corners" in done.stderr
