"""Calibration and reading under any lamp colour, white balance and table cloth, on the product's own renders.

Each setup is ``vision.render.random_setup(any_light=True)``: a lamp of 2700-6500 K, the camera's white balance
off by up to a quarter each way, a table cloth of any hue half the time. The start position is rendered and
calibrated; then ``--frames`` random positions (dice and cube) are read. Prints, per lamp band and cloth, the
setups calibrated, the frames whose points are all right, the dice values and the cubes read right. The truth is
the scene's description, never the reader's geometry; the renderer is the product's (the independent world's
figures are ``bench_calibration_world.py`` and ``bench_vision_world.py``).

    python benchmarks/bench_calibration_lamps.py [--setups 12 --seed 7000 --frames 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.calibrate import calibrate  # noqa: E402
from vision.config import CalibrationConfig, ReaderConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.read import read_board  # noqa: E402
from vision.render import random_scene, random_setup, render  # noqa: E402


def _band(kelvin: float) -> str:
    return "2700-3500 K" if kelvin < 3500 else "3500-5000 K" if kelvin < 5000 else "5000-6500 K"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--setups", type=int, default=12)
    ap.add_argument("--seed", type=int, default=7000)
    ap.add_argument("--frames", type=int, default=3, help="positions read per calibrated setup")
    args = ap.parse_args()
    rows: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0] * 8)  # setups, calibrated, frames, exact, dice, right, cubes, right
    for s in range(args.setups):
        seed = args.seed + s
        rng = np.random.default_rng(seed)
        setup = random_setup(rng, any_light=True)
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
    print("\n| factor | value | calibrated | points exact | die value | cube |\n|---|---|---|---|---|---|")
    for (factor, value), r in sorted(rows.items()):
        print(f"| {factor} | {value} | {r[1]}/{r[0]} | {r[3]}/{r[2]} | {r[5]}/{r[4]} | {r[7]}/{r[6]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
