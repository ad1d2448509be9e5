"""Per-die value accuracy of ``vision.dice.read_dice`` on the real labelled photos.

    .venv/bin/python benchmarks/bench_dice_photos.py [DATASET_DIR] [--photos all|test|val] [--csv OUT.csv] [--cnn MODEL.json]
    .venv/bin/python benchmarks/bench_dice_photos.py --photos train --folds 5 --fold 0 1 2 3 4 --cnn 'F{fold}.json'

The second form is the cross-validation over the train photos (folds by photo, seeded, as
``bench_dice_cnn_train.py --folds 5 --fold K`` and ``bench_dice_cnn_torch.py`` hold them out): each
fold is read with the networks fitted without it, and the folds' accuracies are printed with their mean.

The photos (``tests/data/dice-photos-top-down``) are a held-out test set: nothing in
``vision`` was fitted on them. A labelled die counts as right when a detection's centre
lies within half the labelled box's size of the labelled centre (greedy, nearest first)
and its value equals the label. White dice with dark pips are told apart automatically:
the labelled box's face is light (Lab L above a threshold) and nearly grey (low chroma).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from collections import defaultdict
from functools import partial
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # the time per photo is measured on one core
os.environ.setdefault("OMP_NUM_THREADS", "1")
import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import vision.dice  # noqa: E402
import vision.die_face  # noqa: E402
from vision.dice import DiceConfig, Die  # noqa: E402
from vision.dice_cnn import load_cnn  # noqa: E402
from bench_dice_cnn_train import cv_fold_of  # noqa: E402
from settings import with_sets  # noqa: E402

DEFAULT = Path(__file__).resolve().parent.parent / "tests" / "data" / "dice-photos-top-down"
WHITE_L = 185.0  # L (0..255) of a white face
WHITE_CHROMA = 18.0  # max distance of a,b from neutral (128)


def label_boxes(entry: dict, w: int, h: int) -> list[tuple[int, tuple[float, float, float, float]]]:
    out = []
    for d in entry["dice"]:
        cx, cy, bw, bh = d["bbox_yolo_cxcywh_norm"]
        out.append((int(d["value"]), (cx * w, cy * h, bw * w, bh * h)))
    return out


def is_white_die(image: np.ndarray, box: tuple[float, float, float, float]) -> bool:
    cx, cy, bw, bh = box
    x0, x1 = int(cx - bw * 0.3), int(cx + bw * 0.3)
    y0, y1 = int(cy - bh * 0.3), int(cy + bh * 0.3)
    patch = cv2.cvtColor(image[max(0, y0):y1, max(0, x0):x1], cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(float)
    med = np.median(patch, axis=0)
    chroma = float(np.hypot(med[1] - 128, med[2] - 128))
    return bool(med[0] >= WHITE_L and chroma <= WHITE_CHROMA)


def match(labels, dice: list[Die]):
    """Greedy nearest-centre matching; returns per label the matched Die or None."""
    pairs = []
    for li, (_, (cx, cy, bw, bh)) in enumerate(labels):
        for di, d in enumerate(dice):
            dx, dy = d.centre
            dist = float(np.hypot(dx - cx, dy - cy))
            if dist <= 0.5 * max(bw, bh):
                pairs.append((dist, li, di))
    pairs.sort()
    used_l, used_d, out = set(), set(), [None] * len(labels)
    for _, li, di in pairs:
        if li in used_l or di in used_d:
            continue
        used_l.add(li), used_d.add(di)
        out[li] = dice[di]
    return out, len(dice) - len(used_d)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--csv", type=Path, help="write one row per labelled die")
    ap.add_argument("--photos", choices=("all", "test", "val", "train"), default="all",
                    help="val: only every 5th train photo (the hold-out the training scripts' --val uses);"
                    " train with --folds: the train photos of fold --fold")
    ap.add_argument("--folds", type=int, default=0, help="with --photos train: cross-validation folds (as bench_dice_cnn_train.py --folds)")
    ap.add_argument("--fold", type=int, nargs="+", default=[0],
                    help="the held-out fold(s); with several, --cnn gives one model file per fold, with {fold} in its name")
    ap.add_argument("--cnn", type=Path, help="read values with this model file instead of the shipped one"
                    " (with --photos val: networks fitted by bench_dice_cnn_train.py --val only)")
    ap.add_argument("--guard", help="the die-or-not guard model file instead of the shipped one ('none': without)")
    ap.add_argument("--set", nargs="+", default=[], metavar="FIELD=VALUE", help="DiceConfig fields to change (Python literals)")
    args = ap.parse_args()
    if args.folds and args.photos != "train":
        ap.error("--folds needs --photos train (the folds are of the train photos)")
    cv2.setNumThreads(1)
    entries = json.loads((args.dataset / "labels.json").read_text())
    if args.photos == "val":
        entries = [e for e in entries if e["split_in_source"] == "train"][::5]
    elif args.photos == "test":
        entries = [e for e in entries if e["split_in_source"] == "test"]
    elif args.photos == "train":
        entries = [e for e in entries if e["split_in_source"] == "train"]
    runs = [(None, entries)]  # (fold, its photos)
    if args.photos == "train" and args.folds:
        fold_of = cv_fold_of(len(entries), args.folds)
        runs = [(k, [e for e, f in zip(entries, fold_of) if f == k]) for k in args.fold]
    cfg = with_sets(ap, DiceConfig(), args.set)
    if args.guard:
        vision.dice.load_die_guard = (lambda: None) if args.guard == "none" else partial(load_cnn.__wrapped__, Path(args.guard))
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # right, found, total
    extra: dict[str, int] = defaultdict(int)
    rows = []
    times, cpu = [], []
    for fold, photos in runs:
        if args.cnn:
            vision.die_face.load_cnn = partial(load_cnn, Path(str(args.cnn).format(fold=fold)))
        for e in photos:
            image = cv2.imread(str(args.dataset / e["file"]))
            h, w = image.shape[:2]
            t0, c0 = time.perf_counter(), time.process_time()
            dice = vision.dice.read_dice(cfg, image)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            labels = label_boxes(e, w, h)
            matched, fp = match(labels, dice)
            extra["all"] += fp
            extra[e["split_in_source"]] += fp
            extra[f"fold {fold}"] += fp
            for (value, box), det in zip(labels, matched):
                white = is_white_die(image, box)
                ok = det is not None and det.value == value
                kind = "white-dark-pips" if white else "coloured"
                test = e["split_in_source"] == "test"
                for key in ("all", f"split={e['split_in_source']}", kind, f"test {kind}" if test else "", f"fold {fold}"):
                    t = tally[key]
                    t[0] += ok
                    t[1] += det is not None
                    t[2] += 1
                rows.append([e["file"], e["split_in_source"], fold, value, None if det is None else det.value, int(white),
                             *(round(v, 1) for v in box), None if det is None else round(det.confidence, 3)])
            for d in dice:  # the unmatched detections, with no label
                if all(d is not m for m in matched):
                    x, y, bw, bh = d.box
                    rows.append([e["file"], e["split_in_source"], fold, None, d.value, None, x + bw / 2, y + bh / 2, bw, bh, round(d.confidence, 3)])
    print(f"dice photos: {sum(len(p) for _, p in runs)} images, {tally['all'][2]} labelled dice")
    keys = ["all", "split=train", "split=test", "white-dark-pips", "coloured", "test white-dark-pips", "test coloured"]
    for key in keys + [f"fold {k}" for k, _ in runs if k is not None]:
        r, f, t = tally[key]
        if t:
            print(f"  {key:22s} value accuracy {100 * r / t:6.2f}%  ({r}/{t});  found {100 * f / t:6.2f}%;"
                  f"  value right when found {100 * r / max(f, 1):6.2f}%" + (f"; false positives {extra[key]}" if key.startswith("fold") else ""))
    if len(runs) > 1:
        accs = [100 * tally[f"fold {k}"][0] / tally[f"fold {k}"][2] for k, _ in runs]
        print(f"  mean of the folds' value accuracy {np.mean(accs):6.2f}% (spread {np.std(accs):.2f})")
    print(f"  unmatched detections (false positives): {extra['all']} (train {extra['train']}, test {extra['test']})")
    print(f"  median time per 640x640 photo: {1000 * float(np.median(times)):.1f} ms"
          f" ({1000 * float(np.median(cpu)):.1f} ms of CPU: the same when other work shares the core)")
    if args.csv:
        with args.csv.open("w", newline="") as fh:
            header = ["file", "split", "fold", "label", "read", "white", "cx", "cy", "w", "h", "confidence"]
            csv.writer(fh).writerows([header, *rows])
    return 0


if __name__ == "__main__":
    sys.exit(main())
