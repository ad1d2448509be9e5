"""Phantom dice: what ``vision.dice.read_dice`` finds that is no die, on drawn webcam scenes of white dice
on a wooden table beside a laptop's keys (``benchmarks/dice_scenes.py``), with side faces showing.

    .venv/bin/python benchmarks/bench_dice_phantoms.py [--n 100] [--seed 77] [--cnn MODEL.json]

The scenes' key legends are drawn in the held-out typefaces (``cube_faces.split_families``), which the
hard negatives the dice network is trained on never use, and with seeds apart from training's. Prints
per die value accuracy and phantom dice per photo. The drawn scenes are ours, not the world's: the real
measure is ``bench_dice_photos.py`` on real photos; this one checks the class of failure (keys, side faces)
that a hidden set of real webcam photos showed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from functools import partial
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import cube_faces  # noqa: E402
import dice_scenes  # noqa: E402
import vision.dice  # noqa: E402
import vision.die_face  # noqa: E402
from bench_dice_photos import label_boxes, match  # noqa: E402
from vision.dice import DiceConfig  # noqa: E402
from vision.dice_cnn import load_cnn  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--cnn", type=Path, help="read with this model file instead of the shipped one")
    ap.add_argument("--guard", help="the die-or-not guard model file instead of the shipped one ('none': without)")
    ap.add_argument("--save", type=Path, help="write the scenes with their detections to this folder")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if args.cnn:
        vision.die_face.load_cnn = partial(load_cnn, args.cnn)
    if args.guard:
        vision.dice.load_die_guard = (lambda: None) if args.guard == "none" else partial(load_cnn.__wrapped__, Path(args.guard))
    _, held = cube_faces.split_families()
    right = total = phantoms = 0
    times = []
    for i in range(args.n):
        rng = np.random.default_rng([args.seed, i])
        image, dice = dice_scenes.scene(rng, held)
        t0 = time.process_time()
        found = vision.dice.read_dice(DiceConfig(), image)
        times.append(time.process_time() - t0)
        labels = label_boxes({"dice": dice}, image.shape[1], image.shape[0])
        matched, extra = match(labels, found)
        phantoms += extra
        total += len(labels)
        right += sum(m is not None and m.value == v for (v, _), m in zip(labels, matched))
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            for d in found:
                x, y, w, h = d.box
                cv2.rectangle(image, (x, y), (x + w, y + h), (0, 0, 255), 1)
                cv2.putText(image, str(d.value), (x, y - 2), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 255), 1)
            cv2.imwrite(str(args.save / f"scene{i:03d}.png"), image)
    print(f"drawn webcam scenes (white dice on wood beside laptop keys, held-out typefaces): {args.n} photos, {total} dice")
    print(f"  per die value accuracy {100 * right / max(total, 1):6.2f}% ({right}/{total}); phantom dice {phantoms}"
          f" ({phantoms / args.n:.2f} per photo); median {1000 * float(np.median(times)):.0f} ms of CPU per 640x480 photo")
    return 0


if __name__ == "__main__":
    sys.exit(main())
