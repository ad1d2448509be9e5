"""Accuracy of calibrate + read on the photoreal (Blender) images of ``benchmarks/blender_render.py``.

    .venv/bin/python benchmarks/bench_vision_blender.py /tmp/blender_bench [--verbose] [--csv out.csv] [--empty]

Every directory holding a ``truth.json`` (a setup: ``start.jpg``, ``frameNN.jpg``,
``armNN.jpg``) is calibrated on its ``start.jpg`` with ``vision.calibrate.calibrate`` and the
default ``CalibrationConfig`` (with ``--empty``, also on its ``empty.jpg`` of the bare board, as
``bgref calibrate --empty`` does), then each frame is read with ``vision.read.BoardReader``. A failed
calibration is printed with its error and its frames count as wrong boards. Prints the lines of
``bench_vision.py`` (whole-board exact, per-point, per-die value, dice found, flat/cocked,
half, cube) and, with ``--verbose``, every wrong field (truth vs read) frame by frame.

Dice are matched by position: the true centre of each die as it lands in the image
(``dice_px`` in truth.json) is mapped through the calibration (lens, homography) to the
reader's canonical plane and paired with the nearest die the reader reports within
``DIE_MATCH_MM`` (a little more than bench_vision's 12 mm: a real die's top is 16 mm above
the plane the homography maps).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: as `bgref` runs (referee/cli.py)

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from vision.calibrate import Calibration, calibrate, learn_empty_board
from vision.config import CalibrationConfig, ReaderConfig
from vision.errors import CalibrationError, VisionError
from vision.geometry import BoardGeometry, Layout, checker_centre
from vision.read import BoardReader
from vision.sources import read_image

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_vision import Tally, print_tally
from settings import with_sets

DIE_MATCH_MM = 14.0


def to_reader_mm(cal: Calibration, px: list[float]) -> Any:
    und = cal.lens.undistort(np.array([px], np.float64))
    return cv2.perspectiveTransform(und.reshape(1, 1, 2), cal.homography)[0, 0]




def match_dice(cal: Calibration, truth_dice: list[dict[str, Any]], reading: dict[str, Any]) -> tuple[list[tuple[dict[str, Any], dict[str, Any] | None]], int]:
    """Pairs (true die, read die or None) by nearest canonical position; and how many read dice were left over."""
    read = list(zip(reading["dice"], reading["image"]["dice_mm"]))
    out = []
    for die in truth_dice:
        sx, sy = to_reader_mm(cal, die["px"])
        best, best_d = None, DIE_MATCH_MM
        for i, (_, xy) in enumerate(read):
            dist = float(np.hypot(xy[0] - sx, xy[1] - sy))
            if dist < best_d:
                best, best_d = i, dist
        out.append((die, None if best is None else read.pop(best)[0]))
    return out, len(read)


def leather(layout: Layout, point: int) -> str:
    """'olive' or 'orange': the leather of dark's ``point`` (the board's pattern as blender_render.py lays it)."""
    geo = BoardGeometry()
    x, y, _ = checker_centre(geo, layout, point, 0)
    x0 = geo.frame if x < geo.bar_x[0] else geo.bar_x[1]
    col = int((x - x0) // geo.point_width)
    return "olive" if (col + (0 if y < geo.depth / 2 else 1)) % 2 == 0 else "orange"


def score_frame(tally: Tally, cal: Calibration, frame: dict[str, Any], reading: dict[str, Any],
                layout: Layout | None = None) -> tuple[bool, list[str]]:
    """Adds one read frame to ``tally``; returns (whole board right, what was wrong)."""
    truth = frame["reading"]
    wrong: list[str] = []
    checkers = reading["points"] == truth["points"] and reading["bar"] == truth["bar"] and reading["off"] == truth["off"]
    for i, (a, b) in enumerate(zip(reading["points"], truth["points"])):
        tally.add("point", a == b)
        if a != b:
            on = f" ({leather(layout, i + 1)})" if layout is not None else ""
            wrong.append(f"point {i + 1}{on}: {b} read {a}")
    tally.add("bar", reading["bar"] == truth["bar"])
    if reading["bar"] != truth["bar"]:
        wrong.append(f"bar: {truth['bar']} read {reading['bar']}")
    pairs, extra = match_dice(cal, frame["dice"], reading)
    dice_ok = extra == 0
    if extra:
        wrong.append(f"{extra} phantom dice: read {reading['dice']}")
    halves = {(d["value"], d["flat"]): d["half"] for d in truth["dice"]}
    for die, got in pairs:
        tally.add("die_found", got is not None)
        tally.add("die_value", got is not None and got["value"] == die["value"])
        label = f"die {die['value']} {'flat' if die['flat'] else 'cocked'}"
        if got is None:
            wrong.append(f"{label} ({halves.get((die['value'], die['flat']))}): not found")
            dice_ok = False
            continue
        tally.add("die_flat", got["flat"] == die["flat"])
        half = [d["half"] for d in truth["dice"] if d["value"] == die["value"] and d["flat"] == die["flat"]]
        tally.add("die_half", got["half"] in half)
        if got["value"] != die["value"] or got["flat"] != die["flat"] or got["half"] not in half:
            wrong.append(f"{label} ({half[0] if half else '?'}): read {got}")
        dice_ok &= got["value"] == die["value"] and got["flat"] == die["flat"] and got["half"] in half
    tally.add("die_extra_frames", extra == 0)
    cube_ok = reading["cube"] == truth["cube"]
    tally.add("cube", cube_ok)
    if not cube_ok:
        wrong.append(f"cube: {truth['cube']} read {reading['cube']}")
    if truth["cube"] is not None:
        tally.add("cube_value", reading["cube"] is not None and reading["cube"]["value"] == truth["cube"]["value"])
        tally.add("cube_position", reading["cube"] is not None and reading["cube"]["position"] == truth["cube"]["position"])
    if reading["off"] != truth["off"]:
        wrong.append(f"off: {truth['off']} read {reading['off']}")
    ok = checkers and dice_ok and cube_ok
    for key, value in (("board_checkers", checkers), ("board_all", ok), ("board_checkers_all", checkers), ("board_all_all", ok)):
        tally.add(key, value)
    return ok, wrong


def setups(root: Path) -> list[Path]:
    return sorted(p.parent for p in root.rglob("truth.json"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("images", type=Path, help="a directory of setups written by blender_render.py (or one setup)")
    ap.add_argument("--verbose", action="store_true", help="print every wrong field, frame by frame")
    ap.add_argument("--empty", action="store_true", help="calibrate with each setup's empty.jpg too (bgref calibrate --empty)")
    ap.add_argument("--csv", type=Path)
    ap.add_argument("--set", nargs="+", default=[], metavar="FIELD=VALUE", help="ReaderConfig fields to change for reading (Python literals)")
    args = ap.parse_args()
    reader_cfg = with_sets(ap, ReaderConfig(), args.set)
    cv2.setNumThreads(1)
    dirs = setups(args.images)
    if not dirs:
        print(f"no truth.json under {args.images}", file=sys.stderr)
        return 2
    tally = Tally()
    times: list[float] = []
    cpu: list[float] = []
    rows: list[list[Any]] = []
    calib_fail = 0
    arm_frames = arm_flagged = arm_confident_wrong = 0
    n_images = 0
    for d in dirs:
        truth = json.loads((d / "truth.json").read_text())
        frames = {k: v for k, v in truth["frames"].items() if k not in ("start.jpg", "empty.jpg")}
        cam = truth.get("camera", {})
        desc = (f"{d.name}: tilt {cam.get('tilt_deg', 0):.1f} deg, yaw {cam.get('yaw_deg', 0):.0f}, lamp {cam.get('lamp')}, "
                f"layout {truth['layout']}")
        try:
            cal = calibrate(CalibrationConfig(reader=reader_cfg), read_image(d / "start.jpg"))
            if args.empty:
                if not (d / "empty.jpg").exists():
                    raise CalibrationError(f"no empty.jpg in {d} (render it: blender_render.py --empty --only empty)")
                cal = learn_empty_board(CalibrationConfig(reader=reader_cfg), cal, read_image(d / "empty.jpg"))
        except VisionError as exc:
            calib_fail += 1
            print(f"  {desc}: calibration failed: {type(exc).__name__}: {exc}")
            for name, frame in frames.items():
                if not frame.get("arm"):
                    tally.add("board_checkers_all", False)
                    tally.add("board_all_all", False)
                    n_images += 1
                rows.append([d.name, name, "calibration failed", str(exc)])
            continue
        if args.verbose:
            print(f"  {desc}: calibrated")
        reader = BoardReader(cal, reader_cfg)
        for name, frame in sorted(frames.items()):
            image = read_image(d / name)
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                reading: dict[str, Any] | None = reader(image).to_json()  # compared with the truth (JSON)
                err = ""
            except VisionError as exc:
                reading, err = None, f"{type(exc).__name__}: {exc}"
            dt, dc = time.perf_counter() - t0, time.process_time() - c0
            if frame.get("arm"):
                arm_frames += 1
                if reading is None:
                    arm_flagged += 1
                    continue
                arm_flagged += bool(reading["occluded"])
                wrong_pts = [i for i, (a, b) in enumerate(zip(reading["points"], frame["reading"]["points"])) if a is not None and a != b]
                arm_confident_wrong += sum(reading["confidence"]["points"][i] >= 0.9 for i in wrong_pts)
                continue
            n_images += 1
            times.append(dt)
            cpu.append(dc)
            if reading is None:
                for key in ("board_all", "board_checkers", "board_all_all", "board_checkers_all"):
                    tally.add(key, False)
                print(f"    {d.name}/{name}: read failed: {err}")
                rows.append([d.name, name, "error", err])
                continue
            ok, wrong = score_frame(tally, cal, frame, reading, Layout(**truth["layout"]))
            if args.verbose and wrong:
                print(f"    {d.name}/{name}: " + "; ".join(wrong))
            rows.append([d.name, name, int(ok), "; ".join(wrong)])
    print(f"blender benchmark: {len(dirs)} setups in {args.images}, {n_images} game frames, "
          f"{calib_fail} calibrations failed")
    print_tally(tally, arm_frames, arm_flagged, arm_confident_wrong, "game frames", times, rows, args.csv, cpu)
    return 0


if __name__ == "__main__":
    sys.exit(main())
