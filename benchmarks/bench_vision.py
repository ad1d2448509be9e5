"""Accuracy and speed of calibrate + read on rendered images of the set.

    .venv/bin/python benchmarks/bench_vision.py [--setups 30] [--frames 10] [--seed 20261121] [--csv out.csv] [--again N] [--docs]

Each setup is a fresh random installation (camera pose up to 15° off vertical, either
orientation, home boards on either side, lamp, palette, lens, noise, JPEG) drawn from
``--seed``, rendered in 3D by ``vision.render``; a seed counts as unseen until its first read
(the README says which seeds were tuned on afterwards). Each
setup is calibrated on its own start-position render, then ``--frames`` random positions
(with dice and cube, the lamp drifting) are read; dice are matched to the truth at their
middle's height, where the reader places them. Prints whole-board exact rates,
per-point, per-die, flat/cocked, half and cube accuracies (a whole board is exact when every
field is, the dice's halves included), arm-occlusion behaviour, and the
median ``read`` time per 1280x720 frame on one core (wall clock and CPU).  ``--docs`` also
writes the result into its section of docs/benchmarks.md.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: as `bgref` runs (referee/cli.py)

import argparse
import csv
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from vision.calibrate import calibrate  # noqa: E402
from vision.config import CalibrationConfig, ReaderConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.geometry import BoardGeometry, surface_height  # noqa: E402
from vision.read import BoardReader  # noqa: E402
from vision.render import image_point, random_scene, random_setup, render, with_arm  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs_section  # noqa: E402
from settings import with_sets  # noqa: E402

DIE_MATCH_MM = 12.0


def to_reader_frame(setup, cal, xy, height=0.0):
    """A renderer-canonical position (``height`` mm above the leather) in the calibrated reader's canonical
    frame (which may be turned), where the camera sees it."""
    px = np.array([image_point(setup, xy, height)])
    und = cal.lens.undistort(px)
    return cv2.perspectiveTransform(und.reshape(1, 1, 2), cal.homography)[0, 0]


def match_dice(setup, cal, truth_specs, reading):
    """Pairs (truth die spec, read die or None) by nearest canonical position."""
    read = list(zip(reading["dice"], reading["image"]["dice_mm"]))
    out = []
    for spec in truth_specs:
        best, best_d = None, DIE_MATCH_MM
        geo = BoardGeometry()
        sx, sy = to_reader_frame(setup, cal, spec.xy, surface_height(geo, spec.xy) + geo.die_edge / 2)  # the die's middle
        for i, (_die, xy) in enumerate(read):
            dist = float(np.hypot(xy[0] - sx, xy[1] - sy))
            if dist < best_d:
                best, best_d = i, dist
        out.append((spec, None if best is None else read.pop(best)[0]))
    return out, len(read)


class Tally:
    def __init__(self) -> None:
        self.n: dict[str, list[int]] = {}

    def add(self, key: str, ok: bool) -> None:
        t = self.n.setdefault(key, [0, 0])
        t[0] += int(ok)
        t[1] += 1

    def line(self, key: str, label: str) -> str:
        r, t = self.n.get(key, [0, 0])
        return f"  {label:34s} {100 * r / max(t, 1):7.2f}%  ({r}/{t})"


def score_frame(tally: Tally, setup, cal, scene, truth, reading) -> bool:
    checkers = reading["points"] == truth["points"] and reading["bar"] == truth["bar"] and reading["off"] == truth["off"]
    for a, b in zip(reading["points"], truth["points"]):
        tally.add("point", a == b)
    tally.add("bar", reading["bar"] == truth["bar"])
    pairs, extra = match_dice(setup, cal, scene.dice, reading)
    dice_ok = extra == 0
    for spec, got in pairs:
        want = {"value": spec.value, "flat": spec.flat}
        tally.add("die_found", got is not None)
        tally.add("die_value", got is not None and got["value"] == spec.value)
        if got is None:
            dice_ok = False
            continue
        tally.add("die_flat", got["flat"] == spec.flat)
        half_ok = any(got["half"] == d["half"] for d in truth["dice"] if d["value"] == spec.value and d["flat"] == spec.flat)
        tally.add("die_half", half_ok)
        dice_ok &= half_ok and all(got[k] == v for k, v in want.items())
    tally.add("die_extra_frames", extra == 0)
    cube_ok = reading["cube"] == truth["cube"]
    tally.add("cube", cube_ok)
    if truth["cube"] is not None:
        tally.add("cube_value", reading["cube"] is not None and reading["cube"]["value"] == truth["cube"]["value"])
        tally.add("cube_position", reading["cube"] is not None and reading["cube"]["position"] == truth["cube"]["position"])
    tally.add("board_checkers", checkers)
    tally.add("board_all", checkers and dice_ok and cube_ok)
    tally.add("board_checkers_all", checkers)
    tally.add("board_all_all", checkers and dice_ok and cube_ok)
    return checkers and dice_ok and cube_ok


LINES = (  # (tally key, label), in the order printed
    ("board_checkers_all", "whole board exact, checkers (1)"), ("board_all_all", "whole board exact, all fields (1)"),
    ("board_checkers", "whole board exact, checkers (2)"), ("board_all", "whole board exact, all fields (2)"),
    ("point", "per-point count"), ("bar", "bar (both colours)"), ("die_value", "per-die value"), ("die_found", "dice found"),
    ("die_flat", "flat/cocked (found dice)"), ("die_half", "half (found dice)"),
    ("die_extra_frames", "frames without phantom dice"), ("cube", "cube (value and position)"),
    ("cube_value", "cube value"), ("cube_position", "cube position"),
)


def print_tally(tally: Tally, arm_frames: int, arm_flagged: int, arm_confident_wrong: int, frames: str,
                times: list[float], rows: list[list[object]], csv_path: Path | None, cpu: list[float] | None = None) -> None:
    """The accuracy lines, the arm-occlusion line, the footnotes (``frames``: what was counted) and the
    read times (wall clock, and ``cpu``: the process's CPU time, which other loads on the machine do not
    inflate); the per-frame ``rows`` go to ``csv_path`` if given."""
    for key, label in LINES:
        print(tally.line(key, label))
    print(f"  arm frames: {arm_frames}, flagged occluded: {arm_flagged}, "
          f"confident (>=0.9) wrong point counts: {arm_confident_wrong}")
    print(f"  (1) over all {frames}, a failed calibration's frames counted wrong; (2) over the frames read;")
    print("  the rates below are over the frames read")
    if times:
        print(f"  median read time per 1280x720 frame, one core: {1000 * float(np.median(times)):.1f} ms "
              f"(p90 {1000 * float(np.percentile(times, 90)):.1f} ms)")
    if cpu:
        print(f"  median CPU time per read: {1000 * float(np.median(cpu)):.1f} ms (p90 {1000 * float(np.percentile(cpu, 90)):.1f} ms)")
    if csv_path:
        with csv_path.open("w", newline="") as fh:
            csv.writer(fh).writerows(rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--setups", type=int, default=30)
    ap.add_argument("--frames", type=int, default=10)
    ap.add_argument("--arms", type=int, default=1, help="extra frames per setup with an arm over the board")
    ap.add_argument("--seed", type=int, default=20261121)
    ap.add_argument("--csv", type=Path)
    ap.add_argument("--again", type=int, default=0, metavar="N",
                    help="then read every game frame N times more, back to back (no rendering between reads to disturb the caches), and print that median too")
    ap.add_argument("--set", nargs="+", default=[], metavar="FIELD=VALUE", help="ReaderConfig fields to change for reading (Python literals)")
    docs_section.add_flag(ap)
    args = ap.parse_args()
    with docs_section.recorded("vision", "Calibrate and read on OpenCV renders (vision.render)", enabled=args.docs):
        return _run(ap, args)


def _run(ap: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    reader_cfg = with_sets(ap, ReaderConfig(), args.set)
    cv2.setNumThreads(1)
    tally = Tally()
    times: list[float] = []
    cpu: list[float] = []
    rows = []
    kept: list[tuple[BoardReader, np.ndarray]] = []  # (reader, frame) to read again, with --again
    calib_fail = 0
    arm_confident_wrong = arm_frames = arm_flagged = 0
    t_start = time.time()
    for k in range(args.setups):
        seed = args.seed + 1000 * k
        rng = np.random.default_rng(seed)
        setup = random_setup(rng)
        start = random_scene(np.random.default_rng(seed + 1), setup.layout, start=True)
        image, _ = render(start, setup, seed + 1)
        try:
            cal = calibrate(CalibrationConfig(reader=reader_cfg), image)
        except VisionError as exc:
            calib_fail += 1
            print(f"  setup {k}: calibration failed: {exc}", file=sys.stderr)
            for _ in range(args.frames):  # its frames count as wrong boards
                tally.add("board_checkers_all", False)
                tally.add("board_all_all", False)
            continue
        reader = BoardReader(cal, reader_cfg)
        for f in range(args.frames + args.arms):
            fseed = seed + 2 + f
            scene = random_scene(np.random.default_rng(fseed), setup.layout)
            arm = f >= args.frames
            if arm:
                scene = with_arm(np.random.default_rng(fseed + 500), scene)
            image, truth = render(scene, setup, fseed, lamp_drift=0.5)
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                reading = reader(image).to_json()  # compared with the renderer's truth (JSON)
            except VisionError as exc:
                reading = None
                err = str(exc)
            dt, dc = time.perf_counter() - t0, time.process_time() - c0
            if arm:
                arm_frames += 1
                if reading is None:
                    arm_flagged += 1
                    continue
                arm_flagged += bool(reading["occluded"])
                wrong = [i for i, (a, b) in enumerate(zip(reading["points"], truth["points"])) if a is not None and a != b]
                conf = reading["confidence"]["points"]
                arm_confident_wrong += sum(conf[i] >= 0.9 for i in wrong)
                continue
            times.append(dt)
            cpu.append(dc)
            if args.again:
                kept.append((reader, image))
            if reading is None:
                for key in ("board_all", "board_checkers", "board_all_all", "board_checkers_all"):
                    tally.add(key, False)
                rows.append([k, f, "error", err])
                continue
            ok = score_frame(tally, setup, cal, scene, truth, reading)
            rows.append([k, f, int(ok), reading["points"], truth["points"], reading["dice"], truth["dice"], reading["cube"], truth["cube"]])
        print(f"  setup {k + 1}/{args.setups} done ({time.time() - t_start:.0f} s)", file=sys.stderr)
    n_frames = tally.n.get("board_all", [0, 0])[1]
    print(f"rendered benchmark: {args.setups} setups (seed {args.seed}), {n_frames} frames read, "
          f"{calib_fail} calibrations failed")
    print_tally(tally, arm_frames, arm_flagged, arm_confident_wrong, "frames", times, rows, args.csv, cpu)
    if kept:
        again = []
        for _ in range(args.again):
            for reader, image in kept:
                c0 = time.process_time()
                try:
                    reader(image)
                except VisionError:
                    pass
                again.append(time.process_time() - c0)
        print(f"  median CPU time per read, frames read {args.again} times more back to back: {1000 * float(np.median(again)):.1f} ms "
              f"(p90 {1000 * float(np.percentile(again, 90)):.1f} ms, {len(again)} reads)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
