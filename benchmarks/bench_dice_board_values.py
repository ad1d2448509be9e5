"""Die values on the board's own dice, read by the pip fit and by face networks (issue #45, item 5: one value reader).

    nice -n 10 .venv/bin/python benchmarks/bench_dice_board_values.py record KEEP_DIR --out R.pkl
    .venv/bin/python benchmarks/bench_dice_board_values.py score R.pkl [R2.pkl ...] [--cnn F.json ...] [--turns 4]

``record`` re-reads the stills kept by ``bench_vision_world.py --keep KEEP_DIR`` (each calibrated setup) with the
board reader as it is, and keeps, for every die it found, what it reported, the pip fit's read, and the crop of the
top face the pip fit located (``vision.dice_board.face_crop``: upright, 0.95 of the die's edge, the crop the pips
are read on), with the still's truth. ``score`` reads every kept crop with each network file (and the shipped one)
as ``vision.die_face`` would, and prints, for the pip fit and for each network, on the same found dice:

- ``die value``: flat dice whose value and half match a true flat die (``bench_vision_world.py``'s measure);
- ``die sure wrong``: dice reported at least 0.6 surely (after ``vision.dice_board.sure_of``'s caps) that match no
  true die in value, flat/cocked and half (a flat/cocked error counts, whatever reads the value);
- ``sure right flat``: flat dice reported at least 0.6 surely and right.

A network's reading is its likeliest value and, as its confidence, that value's own probability
(``FaceValue.sureness``: low on what looks like no die's face). Only what the board found is read: finding dice
and telling flat from cocked are the reader's, unchanged. Dev data only (seeds >= 1000, the HOLD list barred).
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import vision.dice_board as board  # noqa: E402
import vision.read as read  # noqa: E402
from benchmarks.bench_vision_world import SURE, score  # noqa: E402
from vision.calibrate import load_calibration  # noqa: E402
from vision.dice_cnn import CNN_PATH, ConvFaceModel  # noqa: E402
from vision.sources import read_image  # noqa: E402


def record(keep: Path) -> dict[str, Any]:
    """Every kept still of ``keep``'s calibrated setups, read: its truth and the dice found, each with its face crop."""
    seen: dict[str, Any] = {}
    found: list[list[dict[str, Any]]] = []
    top_face, one_is_a_pip, read_die, find_dice = board.read_top_face, board.one_is_a_pip, board.read_die, read.find_dice

    def kept_top_face(cfg, raw, footprint, flat, away, reads=None):  # type: ignore[no-untyped-def]
        seen["raw"], seen["footprint"] = raw, footprint
        return top_face(cfg, raw, footprint, flat, away, reads)

    def kept_face(cfg, view, centre, face, reads, away):  # type: ignore[no-untyped-def]
        seen["face"] = one_is_a_pip(cfg, view, centre, face, reads, away)
        return seen["face"]

    def kept_die(cfg, cal, raw, blob, view, at=None):  # type: ignore[no-untyped-def]
        die = read_die(cfg, cal, raw, blob, view, at)
        face = seen["face"]
        return die | {"_crop": board.face_crop(cfg, seen["raw"], seen["footprint"], face.centre), "_pips": (face.value, face.confidence)}

    def kept_dice(*args, **kwargs):  # type: ignore[no-untyped-def]
        out = find_dice(*args, **kwargs)
        found.append(out)
        return out

    board.read_top_face, board.one_is_a_pip, board.read_die, read.find_dice = kept_top_face, kept_face, kept_die, kept_dice
    rows: dict[str, Any] = {}
    try:
        for folder in sorted(keep.glob("setup*")):
            if not (folder / "calibration.json").exists():
                continue  # the setup did not calibrate: nothing is read
            reader = read.BoardReader(load_calibration(str(folder / "calibration.json")))
            for still in sorted(folder.glob("still*.jpg")):
                found.clear()
                reader(read_image(str(still)))
                rows[str(still)] = {"truth": json.loads(still.with_suffix(".json").read_text())["truth"], "dice": found[-1] if found else []}
    finally:
        board.read_top_face, board.one_is_a_pip, board.read_die, read.find_dice = top_face, one_is_a_pip, read_die, find_dice
    return rows


def tally(rows: dict[str, Any], values: list[tuple[int | None, float]]) -> Counter[str]:
    """The three measures (see the module's docstring) of the found dice read as ``values`` (value, confidence), in order."""
    out: Counter[str] = Counter()
    dice = iter(values)
    for r in rows.values():
        truth = r["truth"]
        read_dice, sure = [], []
        for d in r["dice"]:
            value, confidence = next(dice)
            reported = board.sure_of({k: v for k, v in d.items() if not k.startswith("_")} | {"value": value, "confidence": round(confidence, 3)})
            read_dice.append({"value": value, "flat": d["flat"], "half": d["half"]})
            sure.append(reported["confidence"])
        reading = {"points": truth["points"], "bar": truth["bar"], "dice": read_dice, "confidence": {"dice": sure}, "cube": truth["cube"]}
        for name, (right, total) in score(truth, reading).items():
            if name in ("die value", "die sure wrong"):
                out[name] += right
                out[name + " of"] += total
        flat = [(d["value"], d["half"]) for d in truth["dice"] if d["flat"]]
        out["sure right flat"] += sum(d["flat"] and c >= SURE and (d["value"], d["half"]) in flat for d, c in zip(read_dice, sure))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("keep", type=Path)
    rec.add_argument("--out", type=Path, required=True)
    sc = sub.add_parser("score")
    sc.add_argument("records", type=Path, nargs="+")
    sc.add_argument("--cnn", type=Path, nargs="*", default=[], help="face network files (vision/dice_cnn.json's format) besides the shipped one")
    sc.add_argument("--cross-check", action="store_true", help="also each network with the pip fit as a cross-check (unsure where they differ)")
    sc.add_argument("--turns", type=int, default=4, help="of the 8 quarter turns and mirrors, those each crop is read at")
    args = ap.parse_args()
    if args.command == "record":
        rows = record(args.keep)
        args.out.write_bytes(pickle.dumps(rows))
        print(f"{args.out}: {len(rows)} stills, {sum(len(r['dice']) for r in rows.values())} dice found")
        return 0
    rows = {}
    for f in args.records:
        rows.update(pickle.loads(f.read_bytes()))
    dice = [d for r in rows.values() for d in r["dice"]]
    readers: dict[str, list[tuple[int | None, float]]] = {"pip fit": [(d["_pips"][0], d["_pips"][1] if d["_pips"][0] is not None else 0.0) for d in dice]}
    for f in [CNN_PATH, *args.cnn]:
        probs = ConvFaceModel.from_json(json.loads(f.read_text())).read_groups([[d["_crop"]] for d in dice], args.turns) if dice else np.zeros((0, 7))
        name = f.name if f == CNN_PATH else str(f)
        readers[name] = [(int(np.argmax(p[1:])) + 1, float(np.max(p[1:]))) for p in probs]
        if args.cross_check:  # the network's value, as sure as it is only where the pip fit reads the same
            readers[name + " (pips agree)"] = [(v, c if v == d["_pips"][0] else min(c, 0.5)) for (v, c), d in zip(readers[name], dice)]
    print(f"{len(rows)} stills, {len(dice)} dice found; networks read at {args.turns} turns")
    for name, values in readers.items():
        t = tally(rows, values)
        print(f"  {name}: die value {t['die value']}/{t['die value of']}, die sure wrong {t['die sure wrong']}/{t['die sure wrong of']},"
              f" sure right flat {t['sure right flat']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
