"""Read time of this checkout's reader against another checkout's, on the same frames in one process.

    .venv/bin/python benchmarks/bench_vision_paired.py OTHER_ROOT [--setups 6] [--frames 10] [--seed 600] [--passes 3]

``OTHER_ROOT`` is another checkout of the project (``git worktree add /tmp/old <commit>``). The frames are
``bench_vision.py``'s (rendered by this checkout), calibrated once by each reader's own code, then read by
both readers in turn, frame by frame, the order alternating, on one core. On a shared machine whose speed
drifts by a fifth within a minute, runs of one reader after the other compare the machine's moments, not the
code: here both readers meet the same moments. Prints each reader's median CPU time per read and the median
of the per-frame differences and ratios.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: as `bgref` runs (referee/cli.py)

import argparse
import importlib
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent.parent


def load_reader_code(root: Path) -> tuple[Any, Any, Any]:
    """(calibrate, CalibrationConfig, BoardReader) of the checkout at ``root``, imported apart from any other."""
    for name in [k for k in sys.modules if k.split(".")[0] in ("vision", "engine")]:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        calibrate_mod, config_mod, read_mod = (importlib.import_module(f"vision.{m}") for m in ("calibrate", "config", "read"))
    finally:
        sys.path.remove(str(root))
    return calibrate_mod.calibrate, config_mod.CalibrationConfig, read_mod.BoardReader


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("other", type=Path, help="another checkout's root (the reader to compare against)")
    ap.add_argument("--setups", type=int, default=6)
    ap.add_argument("--frames", type=int, default=10)
    ap.add_argument("--seed", type=int, default=600)
    ap.add_argument("--passes", type=int, default=3, help="times every frame is read by each reader")
    args = ap.parse_args()
    if not (args.other / "vision" / "read.py").is_file():
        print(f"error: {args.other} holds no checkout of this project (no vision/read.py)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    # this checkout's renderer draws the frames; then each checkout's code is loaded in turn
    sys.path.insert(0, str(HERE))
    from vision.render import random_scene, random_setup, render

    setups = []
    for k in range(args.setups):
        seed = args.seed + 1000 * k
        setup = random_setup(np.random.default_rng(seed))
        start, _ = render(random_scene(np.random.default_rng(seed + 1), setup.layout, start=True), setup, seed + 1)
        frames = [render(random_scene(np.random.default_rng(seed + 2 + f), setup.layout), setup, seed + 2 + f, lamp_drift=0.5)[0]
                  for f in range(args.frames)]
        setups.append((start, frames))
    sys.path.remove(str(HERE))
    readers = {}
    for name, root in (("this", HERE), ("other", args.other.resolve())):
        calibrate, config, reader = load_reader_code(root)
        readers[name] = [reader(calibrate(config(), start)) for start, _ in setups]
    for name in readers:  # a first read may work out what a reader keeps for later frames: not timed
        for k, (_, frames) in enumerate(setups):
            readers[name][k](frames[0])
    times: dict[str, list[float]] = {"this": [], "other": []}
    for p in range(args.passes):
        for k, (_, frames) in enumerate(setups):
            for f, image in enumerate(frames):
                order = ("this", "other") if (p + f) % 2 == 0 else ("other", "this")
                for name in order:
                    c0 = time.process_time()
                    readers[name][k](image)
                    times[name].append(time.process_time() - c0)
    this, other = 1000 * np.array(times["this"]), 1000 * np.array(times["other"])
    print(f"paired read time, {len(this)} reads each (setups {args.setups}, frames {args.frames}, seed {args.seed}, one core, CPU time):")
    print(f"  this checkout ({HERE}): median {np.median(this):.1f} ms (p90 {np.percentile(this, 90):.1f} ms)")
    print(f"  other ({args.other}): median {np.median(other):.1f} ms (p90 {np.percentile(other, 90):.1f} ms)")
    print(f"  this - other per frame: median {np.median(this - other):+.2f} ms; this / other: median {np.median(this / other):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
