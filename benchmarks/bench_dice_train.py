"""Fit ``vision/dice_model.json`` (the learned die-face reader) on the TRAIN split of the real photos.

    .venv/bin/python benchmarks/bench_dice_train.py [DATASET_DIR] [--val] [--out vision/dice_model.json]

Only photos with ``split_in_source == "train"`` are read; the test split stays held out for
``bench_dice_photos.py``. Samples: the reader's own candidate regions (matched to a label ->
its value, unmatched -> class 0 "not a die face") and the labelled boxes with a little jitter,
each in its 8 rotations/reflections. ``--val`` holds out every 5th train photo and prints the
accuracy of the candidates' classes on them (for choosing settings) instead of writing the model.
Seeded; a NumPy two-layer perceptron trained with Adam.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from vision.dice import DiceConfig, _face_crop, candidate_regions  # noqa: E402
from vision.dice_model import MODEL_PATH, FaceModel, face_features  # noqa: E402
from vision.render import DIE_WHITE, _paint_face  # noqa: E402

DEFAULT = Path(__file__).resolve().parent.parent / "tests" / "data" / "dice-photos-top-down"


def dihedral(img: np.ndarray) -> list[np.ndarray]:
    out = []
    for k in range(4):
        r = np.rot90(img, k)
        out += [np.ascontiguousarray(r), np.ascontiguousarray(r[:, ::-1])]
    return out


def labelled(entry: dict, w: int, h: int) -> list[tuple[int, float, float, float, float]]:
    return [(int(d["value"]), d["bbox_yolo_cxcywh_norm"][0] * w, d["bbox_yolo_cxcywh_norm"][1] * h,
             d["bbox_yolo_cxcywh_norm"][2] * w, d["bbox_yolo_cxcywh_norm"][3] * h) for d in entry["dice"]]


def candidate_samples(cfg: DiceConfig, image: np.ndarray, labels) -> list[tuple[np.ndarray, int]]:
    out = []
    for contour in candidate_regions(cfg, image):
        (cx, cy), _, _ = cv2.minAreaRect(contour)
        best, cls = 1e9, 0
        for v, lx, ly, bw, bh in labels:
            d = float(np.hypot(cx - lx, cy - ly))
            if d <= 0.3 * max(bw, bh) and d < best:
                best, cls = d, v
        face, _ = _face_crop(image, contour, cfg.face_inset)
        out.append((face, cls))
    return out


def box_samples(image: np.ndarray, labels, rng: np.random.Generator, inset: float) -> list[tuple[np.ndarray, int]]:
    out = []
    for v, cx, cy, bw, bh in labels:
        for _ in range(2):
            s = rng.uniform(0.9, 1.1)
            jx, jy = rng.uniform(-0.05, 0.05, 2) * (bw, bh)
            hw, hh = bw * s * (0.5 - inset), bh * s * (0.5 - inset)
            src = np.float32([[cx + jx - hw, cy + jy - hh], [cx + jx + hw, cy + jy - hh], [cx + jx - hw, cy + jy + hh]])
            dst = np.float32([[0, 0], [48, 0], [0, 48]])
            m = cv2.getAffineTransform(src, dst)
            out.append((cv2.warpAffine(image, m, (48, 48), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), v))
    return out


def synthetic_photo(rng: np.random.Generator) -> tuple[np.ndarray, list]:
    """A plain background with white dice painted by the project's renderer (seeded, generated here)."""
    ppm = float(rng.uniform(2.0, 6.0))
    canvas = np.empty((int(160 * ppm), int(200 * ppm), 3), np.float32)
    canvas[:] = rng.uniform(0.15, 0.75, 3)
    canvas *= (1 + 0.03 * rng.standard_normal(canvas.shape[:2]).astype(np.float32))[..., None]
    labels = []
    for _ in range(int(rng.integers(2, 8))):
        for _ in range(100):
            xy = (float(rng.uniform(20, 180)), float(rng.uniform(20, 140)))
            if all(np.hypot(xy[0] * ppm - a, xy[1] * ppm - b) > 30 * ppm for _, a, b, _, _ in labels):
                break
        v = int(rng.integers(1, 7))
        _paint_face(canvas, xy, float(rng.uniform(0, 90)), 16.0, 16.0, v, DIE_WHITE, ppm, 45.0)
        labels.append((v, xy[0] * ppm, xy[1] * ppm, 16 * ppm, 16 * ppm))
    img = np.clip(canvas * 255 + rng.normal(0, 2, canvas.shape), 0, 255).astype(np.uint8)
    return img, labels


def collect_synthetic(n: int, cfg: DiceConfig, seed: int):
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    for _ in range(n):
        image, labels = synthetic_photo(rng)
        for face, cls in candidate_samples(cfg, image, labels):
            for f in dihedral(face)[::2]:
                xs.append(face_features(f))
                ys.append(cls)
    return np.array(xs, np.float32), np.array(ys, np.int64)


def collect(entries, root: Path, cfg: DiceConfig, rng, with_boxes: bool, with_candidates: bool = True):
    xs, ys = [], []
    for e in entries:
        image = cv2.imread(str(root / e["file"]))
        h, w = image.shape[:2]
        labels = labelled(e, w, h)
        samples = candidate_samples(cfg, image, labels) if with_candidates else []
        if with_boxes:
            samples += box_samples(image, labels, rng, cfg.face_inset)
        for face, cls in samples:
            for f in dihedral(face)[::2]:
                xs.append(face_features(f))
                ys.append(cls)
    return np.array(xs, np.float32), np.array(ys, np.int64)


def train(x: np.ndarray, y: np.ndarray, hidden: int, epochs: int, seed: int, decay: float, dropout: float) -> FaceModel:
    rng = np.random.default_rng(seed)
    mean, std = x.mean(axis=0), x.std(axis=0) + 1e-3
    xn = (x - mean) / std
    d = x.shape[1]
    params = {"w1": rng.normal(0, np.sqrt(2 / d), (d, hidden)).astype(np.float32), "b1": np.zeros(hidden, np.float32),
              "w2": rng.normal(0, np.sqrt(1 / hidden), (hidden, 7)).astype(np.float32), "b2": np.zeros(7, np.float32)}
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v2 = {k: np.zeros_like(v) for k, v in params.items()}
    weights = np.bincount(y, minlength=7).astype(np.float64)
    cw = (len(y) / (7 * np.maximum(weights, 1))).astype(np.float32)
    step, batch = 0, 128
    for epoch in range(epochs):
        lr = 2e-3 * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))
        order = rng.permutation(len(y))
        for i in range(0, len(y), batch):
            idx = order[i:i + batch]
            xb, yb = xn[idx], y[idx]
            xb = xb * (rng.random(xb.shape) > dropout) / (1 - dropout)  # input dropout
            h_pre = xb @ params["w1"] + params["b1"]
            h = np.maximum(h_pre, 0)
            z = h @ params["w2"] + params["b2"]
            z -= z.max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            g = p.copy()
            g[np.arange(len(yb)), yb] -= 1
            g *= cw[yb][:, None] / len(yb)
            grads = {"w2": h.T @ g + decay * params["w2"], "b2": g.sum(axis=0)}
            gh = (g @ params["w2"].T) * (h_pre > 0)
            grads["w1"] = xb.T @ gh + decay * params["w1"]
            grads["b1"] = gh.sum(axis=0)
            step += 1
            for k in params:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                v2[k] = 0.999 * v2[k] + 0.001 * grads[k] ** 2
                mh, vh = m[k] / (1 - 0.9 ** step), v2[k] / (1 - 0.999 ** step)
                params[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
    return FaceModel(mean.astype(np.float32), std.astype(np.float32), **params)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--val", action="store_true")
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--decay", type=float, default=1e-4)
    ap.add_argument("--synthetic", type=int, default=150, help="rendered white-dice photos added")
    ap.add_argument("--dropout", type=float, default=0.1, help="input dropout while fitting")
    ap.add_argument("--cache", type=Path, help="npz of the collected samples (reused if present)")
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    args = ap.parse_args()
    entries = [e for e in json.loads((args.dataset / "labels.json").read_text()) if e["split_in_source"] == "train"]
    cfg = DiceConfig()
    rng = np.random.default_rng(7)
    if args.val:
        fit, held = [e for i, e in enumerate(entries) if i % 5], [e for i, e in enumerate(entries) if i % 5 == 0]
    else:
        fit, held = entries, []
    if args.cache and args.cache.exists():
        data = np.load(args.cache)
        x, y, xv, yv = data["x"], data["y"], data["xv"], data["yv"]
    else:
        x, y = collect(fit, args.dataset, cfg, rng, with_boxes=True)
        xs, ys = collect_synthetic(args.synthetic, cfg, 1000)
        x, y = np.concatenate([x, xs]), np.concatenate([y, ys])
        xv, yv = collect(held, args.dataset, cfg, rng, with_boxes=False) if held else (x[:0], y[:0])
        if args.cache:
            np.savez(args.cache, x=x, y=y, xv=xv, yv=yv)
    print(f"{len(y)} samples, classes {np.bincount(y, minlength=7).tolist()}")
    model = train(x, y, args.hidden, args.epochs, 11, args.decay, args.dropout)
    if held:
        pred = model.probabilities(xv).argmax(axis=1)
        print(f"held-out candidates: {100 * float((pred == yv).mean()):.2f}% right;"
              f" dice {100 * float((pred[yv > 0] == yv[yv > 0]).mean()):.2f}%;"
              f" non-dice kept {100 * float((pred[yv == 0] > 0).mean()):.2f}%")
        return 0
    args.out.write_text(json.dumps(model.to_json(), separators=(",", ":")))
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
