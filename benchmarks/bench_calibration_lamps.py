"""Calibration and reading under any lamp colour, white balance and table cloth, on the product's own renders.

Each setup is ``vision.render.random_setup(any_light=True)``: a lamp of 2700-6500 K, the camera's white balance
off by up to a quarter each way, a table cloth of any hue half the time. The start position is rendered and
calibrated; then ``--frames`` random positions (dice and cube) are read. Prints, per lamp band and cloth, the
setups calibrated, the frames whose points are all right, the dice values and the cubes read right. The truth is
the scene's description, never the reader's geometry; the renderer is the product's (the independent world's
figures are ``bench_calibration_world.py`` and ``bench_vision_world.py``).

A calibration counts as right when the first checker of dark's points 1, 12, 13 and 24, placed by its homography,
lens and layout, lands within ``--tolerance`` pixels of where the renderer's own camera puts it; a calibration
that misplaces them is counted wrong (and its frames are not read). ``--kelvin 2700-3500`` draws every lamp in
that band and ``--cloth near`` every table cloth of a hue near the leather's and the walnut's (red, orange,
brown), the hardest class for a finder that tells the board from the table by colour; ``--mounting any`` turns
the camera any way round (0-360 degrees), tilts it up to 20 degrees and lets the board fill 40-95% of the frame;
``--exposure 1.2-1.8`` exposes as a camera metering on green does under a warm lamp (its red clips).

    python benchmarks/bench_calibration_lamps.py [--setups 12 --seed 7000 --frames 3] [--kelvin 2700-3500 --cloth near]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.calibrate import calibrate  # noqa: E402
from vision.config import CalibrationConfig, ReaderConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.geometry import BoardGeometry, checker_centre  # noqa: E402
from vision.read import read_board  # noqa: E402
from vision.render import Setup, image_point, random_scene, random_setup, render  # noqa: E402

POINTS = (1, 12, 13, 24)  # the corners' stacks: a layout or a fit that is off misplaces at least one


def _band(kelvin: float) -> str:
    return "2700-3500 K" if kelvin < 3500 else "3500-5000 K" if kelvin < 5000 else "5000-6500 K"


def near_cloth(rng: np.random.Generator) -> tuple[float, float, float]:
    """A table cloth of a hue near the leather's and the walnut's (BGR 0..1): red, rust, orange or brown."""
    hue = int(rng.integers(-12, 20)) % 180  # OpenCV hue: red wraps round 0, orange and brown up to 20
    hsv = np.uint8([[[hue, rng.integers(80, 240), rng.integers(60, 200)]]])
    return tuple(float(v) / 255.0 for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])  # type: ignore[return-value]


def corner_miss(cal: Calibration, setup: Setup) -> float:
    """How far (image px) the calibration puts the first checker of dark's corner points from where the renderer does."""
    geo = BoardGeometry()
    true = np.array([image_point(setup, checker_centre(geo, setup.layout, p, 0)[:2]) for p in POINTS])
    mm = np.array([checker_centre(geo, cal.layout, p, 0)[:2] for p in POINTS], np.float64)
    und = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), np.linalg.inv(cal.homography)).reshape(-1, 2)
    return float(np.hypot(*(cal.lens.distort(und) - true).T).max())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--setups", type=int, default=12)
    ap.add_argument("--seed", type=int, default=7000)
    ap.add_argument("--frames", type=int, default=3, help="positions read per calibrated setup")
    ap.add_argument("--kelvin", help="lo-hi: every lamp's colour temperature drawn in this band")
    ap.add_argument("--cloth", choices=("any", "near"), default="any",
                    help="near: every table a cloth of a hue near the leather's and walnut's")
    ap.add_argument("--mounting", choices=("usual", "any"), default="usual",
                    help="any: the board turned any way in the image, tilted up to 20 degrees, filling 40-95%%")
    ap.add_argument("--exposure", help="lo-hi: the camera's exposure drawn in this band (1: the lamp's brightest channel "
                    "just fills the sensor; 1.5: a warm lamp's red clips on the leather)")
    ap.add_argument("--tolerance", type=float, default=25.0, help="pixels a corner checker may land from the renderer's")
    args = ap.parse_args()
    wrong = 0
    rows: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0] * 8)  # setups, calibrated, frames, exact, dice, right, cubes, right
    for s in range(args.setups):
        seed = args.seed + s
        rng = np.random.default_rng(seed)
        setup = random_setup(rng, any_light=True)
        if args.kelvin:
            lo, hi = (float(v) for v in args.kelvin.split("-"))
            setup = replace(setup, camera=replace(setup.camera, lamp_kelvin=float(rng.uniform(lo, hi))))
        if args.mounting == "any":
            setup = replace(setup, camera=replace(setup.camera, yaw_deg=float(rng.uniform(0, 360)), tilt_deg=float(rng.uniform(0, 20)),
                                                  fill=float(rng.uniform(0.4, 0.95))))
        if args.exposure:
            lo, hi = (float(v) for v in args.exposure.split("-"))
            setup = replace(setup, camera=replace(setup.camera, exposure=float(rng.uniform(lo, hi))))
        if args.cloth == "near":
            setup = replace(setup, palette=replace(setup.palette, table=near_cloth(rng)))
        table = setup.palette.table
        cloth = "cloth" if max(table) - min(table) > 0.25 * max(table) else "grey/wood"
        keys = [("lamp", _band(setup.camera.lamp_kelvin)), ("table", cloth), ("all", "")]
        t0 = time.time()
        image, _ = render(random_scene(rng, setup.layout, start=True), setup, seed)
        try:
            cal = calibrate(CalibrationConfig(), image)
        except VisionError as exc:
            print(f"setup {s:3d}: refused {time.time() - t0:5.1f} s  {setup.camera.lamp_kelvin:.0f} K, {cloth}: {exc}")
            for k in keys:
                rows[k][0] += 1
            continue
        miss = corner_miss(cal, setup)
        if miss > args.tolerance:
            wrong += 1
            print(f"setup {s:3d}: WRONG {time.time() - t0:5.1f} s  {setup.camera.lamp_kelvin:.0f} K, {cloth}: corner checkers "
                  f"placed up to {miss:.0f} px off")
            for k in keys:
                rows[k][0] += 1
            continue
        got = [1, 1, 0, 0, 0, 0, 0, 0]
        for f in range(args.frames):
            frame, truth = render(random_scene(rng, setup.layout), setup, seed * 100 + f)
            reading = read_board(ReaderConfig(), cal, frame)
            got[2] += 1
            got[3] += list(reading.points) == truth["points"]
            want = sorted(int(d["value"]) for d in truth["dice"])  # type: ignore[attr-defined]
            seen = sorted(d.value for d in reading.dice if d.value is not None)
            got[4] += len(want)
            got[5] += sum(min(want.count(v), seen.count(v)) for v in set(want))
            cube = truth["cube"]
            if cube is not None:
                got[6] += 1
                got[7] += reading.cube is not None and reading.cube.value == cube["value"]  # type: ignore[index]
        print(f"setup {s:3d}: calibrated {time.time() - t0:5.1f} s  {setup.camera.lamp_kelvin:.0f} K, {cloth}: points exact "
              f"{got[3]}/{got[2]}, dice {got[5]}/{got[4]}, cube {got[7]}/{got[6]}")
        for k in keys:
            rows[k] = [a + b for a, b in zip(rows[k], got)]
    print(f"\ncalibrated but corner checkers more than {args.tolerance:g} px off (counted as not calibrated): {wrong}")
    print("\n| factor | value | calibrated | points exact | die value | cube |\n|---|---|---|---|---|---|")
    for (factor, value), r in sorted(rows.items()):
        print(f"| {factor} | {value} | {r[1]}/{r[0]} | {r[3]}/{r[2]} | {r[5]}/{r[4]} | {r[7]}/{r[6]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
