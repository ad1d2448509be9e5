"""Calibration alone on the independent world's start positions (benchmarks/world), per factor.

For each camera setup (mounting, lens, lamp, set, seating, table: drawn from a seed, as
``bench_vision_world.py`` draws them) the start position is rendered, written as JPEG and
calibrated in-process. A calibration counts as right when it finds the players where they
sit: the first checker of dark's points 1, 12, 13 and 24, placed by the calibration's
homography, lens and layout, lands within ``--tolerance`` pixels of where the world's own
camera shows it (the renderer imports nothing from the product; the truth is its scene and
camera). Prints the share calibrated right, wrong (calibrated, players or geometry
misplaced) and refused (with the message), per factor value.

    python benchmarks/bench_calibration_world.py [--setups 60 --seed 1] [--fix turn=oblique]
        [--hold-out lamp=warm ...] [--keep DIR] [--docs]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import docs_section  # noqa: E402
from benchmarks.bench_vision_world import parse_kv  # noqa: E402
from benchmarks.world import board as world_board  # noqa: E402
from benchmarks.world.camera import make_camera  # noqa: E402
from benchmarks.world.render import render  # noqa: E402
from benchmarks.world.scene import FACTORS, SETUP_FACTORS, Scene, random_scene  # noqa: E402
from vision.calibrate import calibrate  # noqa: E402
from vision.calibration import Calibration  # noqa: E402
from vision.config import CalibrationConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.geometry import BoardGeometry, checker_centre  # noqa: E402

POINTS = (1, 12, 13, 24)  # the corners' stacks: a layout or a fit that is off misplaces at least one


def start_scene(seed: int, fixed: dict[str, str], hold: dict[str, tuple[str, ...]]) -> Scene:
    """The setup's start position: no dice, the cube at 1 in the middle, no arms (what calibration asks for)."""
    scene = random_scene(seed, {**fixed, "position": "start", "dice": "none", "cube": "centre", "arms": "none", "motion": "none"}, hold)
    cube = scene.cube
    if cube is not None:
        cube = cube.__class__(1, "centre", cube.x, cube.y, cube.z, cube.yaw, cube.typeface)
    return Scene(scene.seating, scene.mounting, scene.position, scene.checkers, (), cube, scene.look, (), scene.factors, scene.seed)


def world_pixels(scene: Scene) -> np.ndarray:
    """Where the world's camera shows the top of the first checker of each of ``POINTS`` (dark's numbers)."""
    tops = []
    for p in POINTS:
        x, y_base, inward = world_board.point_frame(scene.seating, p)
        tops.append((x, y_base + inward * world_board.CHECKER_D / 2, world_board.CHECKER_T))
    return make_camera(scene.mounting).image(np.array(tops))


def calibrated_pixels(cal: Calibration) -> np.ndarray:
    """Where the calibration puts the first checker of each of ``POINTS``."""
    geo = BoardGeometry()
    mm = np.array([checker_centre(geo, cal.layout, p, 0)[:2] for p in POINTS], np.float64)
    und = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), np.linalg.inv(cal.homography)).reshape(-1, 2)
    return cal.lens.distort(und)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--setups", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="the first setup's number (to rerun setups of a longer run)")
    ap.add_argument("--fix", action="append", default=[], help="factor=value for every setup")
    ap.add_argument("--hold-out", action="append", default=[], help="factor=value never drawn")
    ap.add_argument("--tolerance", type=float, default=25.0, help="pixels a corner checker may land from the world's")
    ap.add_argument("--keep", type=Path, help="keep the rendered start positions here")
    docs_section.add_flag(ap)
    args = ap.parse_args()
    fixed = {k: v[0] for k, v in parse_kv(args.fix).items()}
    hold = {k: tuple(v) for k, v in parse_kv(args.hold_out).items()}
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench_calibration_world_"))
    folder.mkdir(parents=True, exist_ok=True)
    with docs_section.recorded("calibration-world", "Calibration on independent renders", enabled=args.docs):
        outcome: Counter[str] = Counter()
        per: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
        reasons: Counter[str] = Counter()
        seconds = []
        for s in range(args.first, args.first + args.setups):
            scene = start_scene(args.seed * 10_007 + s, fixed, hold)
            path = folder / f"start{s:03d}.jpg"
            cv2.imwrite(str(path), render(scene))  # written and read back, as `bgref calibrate` would get it
            image = cv2.imread(str(path))
            t0 = time.perf_counter()
            why = ""
            try:
                cal = calibrate(CalibrationConfig(), image)
                miss = float(np.hypot(*(calibrated_pixels(cal) - world_pixels(scene)).T).max())
                result = "right" if miss <= args.tolerance else "wrong"
                why = "" if result == "right" else f"corner checkers placed up to {miss:.0f} px off"
            except VisionError as exc:
                result, why = "refused", str(exc)
                reasons[why.split(":")[0] if "read as the start" in why else why.split("(")[0].strip()] += 1
            seconds.append(time.perf_counter() - t0)
            outcome[result] += 1
            for k in SETUP_FACTORS:
                per[(k, scene.factors[k])][result] += 1
            f = scene.factors
            print(f"setup {s:3d}: {result:7s} {seconds[-1]:5.1f} s  [turn {f['turn']} ({scene.mounting.turn:.0f}°), side {f['side']}, tilt {f['tilt']}, "
                  f"lens {f['lens']}, fill {f['fill']}, lamp {f['lamp']}, dim {f['dim']}, shadows {f['shadows']}, "
                  f"sources {f['sources']}, leather {f['leather']}, table {f['table']}, home {f['home']}, dark {f['dark_seat']}] {why[:120]}", flush=True)
        n = args.setups
        print()
        print(f"Setups {n}, seed {args.seed}" + (f", fixed {fixed}" if fixed else "") + (f", held out {hold}" if hold else "")
              + f"; tolerance {args.tolerance:g} px; median {np.median(seconds):.1f} s per calibration.")
        print()
        print(f"Calibrated right: {outcome['right']} of {n} ({100 * outcome['right'] / n:.1f}%); wrong: {outcome['wrong']}; refused: {outcome['refused']}.")
        for why, k in reasons.most_common():
            print(f"- refused {k}x: {why}")
        print()
        print("| factor | value | right | wrong | refused |")
        print("|---|---|---|---|---|")
        for name in SETUP_FACTORS:
            for v in FACTORS[name]:
                c = per.get((name, v))
                if c:
                    total = sum(c.values())
                    print(f"| {name} | {v} | {c['right']}/{total} | {c['wrong']} | {c['refused']} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
