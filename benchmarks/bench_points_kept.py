"""Point reads on stills kept by ``bench_vision_world.py --keep DIR``, per reader setting, by class of miss.

    python benchmarks/bench_points_kept.py DIR [DIR ...] [--readers rules,learned]

Each kept setup (``calibration.json``, ``stillNN.jpg`` and ``stillNN.json`` with the world's truth and
what an arm covers) is read again in this process with each reader setting, and every point is put in
one class: right, unsure while in view, unsure while covered, wrong while covered, or wrong in view by
what was there (empty, 1-5, 6-10, 11-15 checkers) and how (too few, too many, wrong colour). Printed
overall and per factor value, so a class of misses points at a class of inputs. Dev data only (the
held-out protocol of docs/development.md): the renders are the independent world's, never trained on.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.calibrate import load_calibration  # noqa: E402
from vision.config import ReaderConfig  # noqa: E402
from vision.errors import VisionError  # noqa: E402
from vision.read import BoardReader  # noqa: E402

SETTINGS = {"rules": {"learned_points": False}, "learned": {"learned_points": True}}
SHOWN = ("turn", "tilt", "lens", "fill", "defocus", "lamp", "dim", "shadows", "leather", "copper", "stacking", "position",
         "arms", "noise", "motion", "jpeg", "white_balance")


def bucket(n: int) -> str:
    n = abs(n)
    return "empty" if n == 0 else "1-5" if n <= 5 else "6-10" if n <= 10 else "11-15"


def classify(want: int, got: int | None, covered: bool) -> str:
    if got is None:
        return "unsure covered" if covered else "unsure visible"
    if got == want:
        return "right"
    if covered:
        return "wrong covered"
    if want != 0 and got != 0 and (want > 0) != (got > 0):
        how = "colour"
    else:
        how = "too few" if abs(got) < abs(want) else "too many"
    return f"wrong {bucket(want)} {how}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", type=Path)
    ap.add_argument("--readers", default="rules,learned")
    ap.add_argument("--factors", default=",".join(SHOWN))
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    names = args.readers.split(",")
    overall = {n: Counter() for n in names}
    per: dict[str, dict[tuple[str, str], Counter]] = {n: defaultdict(Counter) for n in names}
    secs: dict[str, list[float]] = {n: [] for n in names}
    exact = Counter()
    frames = 0
    for setup in sorted(d for root in args.dirs for d in root.glob("setup*") if (d / "calibration.json").exists()):
        cal = load_calibration(str(setup / "calibration.json"))
        readers = {n: BoardReader(cal, replace(ReaderConfig(), **SETTINGS[n])) for n in names}
        for still in sorted(setup.glob("still*.json")):
            data = json.loads(still.read_text())
            truth, factors = data["truth"], data["factors"]
            cover = (truth.get("covered") or {}).get("points") or [False] * 24
            image = cv2.imread(str(still.with_suffix(".jpg")))
            frames += 1
            for n, reader in readers.items():
                t0 = time.process_time()
                try:
                    got = list(reader(image).points)
                except VisionError:
                    got = [None] * 24
                secs[n].append(time.process_time() - t0)
                classes = [classify(w, g, c) for w, g, c in zip(truth["points"], got, cover)]
                ok = all(k == "right" or k == "unsure covered" for k in classes)
                exact[n] += ok
                for k in classes:
                    overall[n][k] += 1
                    for f in args.factors.split(","):
                        per[n][(f, factors[f])][k] += 1
                if args.verbose:
                    bad = [(i + 1, w, g, k) for i, (w, g, k) in enumerate(zip(truth["points"], got, classes)) if k != "right"]
                    if bad:
                        print(f"{setup.name}/{still.stem} {n}: {bad}  [{', '.join(f'{f}={factors[f]}' for f in ('stacking', 'lens', 'defocus', 'leather', 'shadows', 'arms'))}]")
    print(f"{frames} stills from {', '.join(map(str, args.dirs))}")
    for n in names:
        tot = sum(overall[n].values())
        ms = 1000 * float(np.median(secs[n])) if secs[n] else 0.0
        print(f"\n## {n}: points exact (covered may be unsure) {exact[n]}/{frames}; median read {ms:.0f} ms CPU")
        for k, v in overall[n].most_common():
            print(f"  {k:28s} {v:5d}  {100 * v / tot:5.1f}%")
        print("  per factor value: right / unsure visible / wrong in view (of points)")
        for (f, v), c in sorted(per[n].items()):
            t = sum(c.values())
            wrong = sum(x for k, x in c.items() if k.startswith("wrong") and k != "wrong covered")
            print(f"    {f}={v:14s} {t:5d}  right {100 * c['right'] / t:5.1f}%  unsure visible {100 * c['unsure visible'] / t:5.1f}%  "
                  f"wrong {100 * wrong / t:5.1f}%  wrong covered {c['wrong covered']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
