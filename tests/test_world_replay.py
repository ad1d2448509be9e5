"""End to end on the independent world: `bgref replay` on a short clip filmed by a camera turned 180°.

The clip (a real match's opening plays, no fouls) is rendered into a temporary folder by
benchmarks.world, which shares no code with the product; the product is calibrated on its
first frame and replays it; the record it writes must be the plays as played.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.bench_referee import compare, played_actions, recorded_actions
from benchmarks.world.footage import mounting_named, write_footage

ROOT = Path(__file__).resolve().parents[1]


def bgref(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    return subprocess.run([sys.executable, "-m", "referee.cli", *args], cwd=ROOT, env=env, capture_output=True, text=True)


@pytest.mark.slow
def test_replay_records_the_plays_with_the_camera_turned(tmp_path: Path) -> None:
    clip = tmp_path / "clip"
    truth = write_footage(clip, 1, mounting_named("home-left_dark-near_turn-180"), seed=11, plays=6, fouls=False)
    cal = tmp_path / "calibration.json"
    res = bgref("calibrate", str(clip / "frame00000.jpg"), "-o", str(cal))
    assert res.returncode == 0, res.stderr
    out = tmp_path / "out"
    rep = bgref("replay", str(clip), "--calibration", str(cal), "--out", str(out), "--fps", str(truth["fps"]))
    assert rep.returncode == 0 and "Traceback" not in rep.stderr, rep.stderr[-2000:]
    equal, upto, diff = compare(played_actions(truth), recorded_actions(out / "match.mat"))
    assert equal, f"{upto} steps right, then {diff}"
