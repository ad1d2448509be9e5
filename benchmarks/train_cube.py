"""Train the cube-face reader ``vision/cube_cnn.onnx`` from a seed, and judge it on held-out typefaces.

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python -m benchmarks.train_cube --seed 1 [--train 30000] [--negatives 5000] [--epochs 7] [--out vision/cube_cnn.onnx]
    .venv/bin/python -m benchmarks.train_cube --judge vision/cube_cnn.onnx    # held-out typefaces only

Needs the ``train`` extra (torch, onnx, Pillow). The crops are drawn by ``benchmarks/cube_faces.py``
with the system's typefaces (``fc-list``; Debian packages fonts-dejavu, fonts-liberation,
fonts-freefont-ttf, fonts-urw-base35, fonts-noto-core, fonts-crosextra-carlito, fonts-crosextra-caladea,
fonts-linuxlibertine, fonts-cantarell, fonts-roboto, fonts-open-sans, fonts-lato). Training and tuning
use only the training families; the held-out families (``cube_faces.CUBE_HELD_OUT`` and OpenCV's Hershey
faces, the glyphs of the project's own renderers) are read once at the end, each apart, through
``vision.cube_cnn`` (OpenCV's dnn, as the reader runs it).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "2")
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import cube_faces  # noqa: E402
from vision.cube_cnn import INPUT_SIDE, CubeReader, cube_input  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _chunk(args: tuple[int, int, int, tuple[str, ...], bool, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    seed, start, n, families, negatives, wide = args
    rng = np.random.default_rng([seed, start])
    xs, ys, ws = [], [], []
    for _ in range(n):
        label = 0 if negatives else int(rng.integers(7))
        w = bool(rng.random() < wide)
        xs.append(cube_input(cube_faces.draw_crop(rng, label, list(families), wide=w)))
        ys.append(label)
        ws.append(w)
    return np.stack(xs), np.array(ys, np.int64), np.array(ws, bool)


def draw_set(seed: int, n: int, families: list[str], workers: int = 2, negatives: bool = False,
             wide: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n`` crops of ``families``, labels drawn evenly (or all 'no cube face' with ``negatives``), and for each
    whether it was drawn with ``cube_faces.draw_crop``'s widened variety (restyled numerals, cloths, deep shadows,
    dim light, lens bend; a share ``wide`` of them)."""
    chunks = [(seed, s, min(500, n - s), tuple(families), negatives, wide) for s in range(0, n, 500)]
    with Pool(workers) as pool:
        parts = pool.map(_chunk, chunks)
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))  # type: ignore[return-value]


def build_model():
    import torch.nn as nn

    def block(i: int, o: int, pool: bool = True) -> list:
        return [nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU()] + ([nn.MaxPool2d(2)] if pool else [])

    return nn.Sequential(*block(1, 16), *block(16, 32), *block(32, 64), *block(64, 64, False),
                         nn.Flatten(), nn.Dropout(0.3), nn.Linear(64 * (INPUT_SIDE // 8) ** 2, 96), nn.ReLU(),
                         nn.Dropout(0.3), nn.Linear(96, 7))


def train(seed: int, x: np.ndarray, y: np.ndarray, xv: np.ndarray, yv: np.ndarray, xd: np.ndarray, yd: np.ndarray,
          epochs: int):
    """The network after the epoch that read the dev typefaces' crops (``xd``, ``yd``: families never trained on,
    none of them held out) best; ``xv``, ``yv`` (the training typefaces, other draws) are printed alongside."""
    import copy

    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "2")))
    model = build_model()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = epochs * (len(x) // 128)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    gen = np.random.default_rng(seed)
    xt, yt = torch.from_numpy(x[:, None]), torch.from_numpy(y)
    best, kept = -1.0, model.state_dict()
    for epoch in range(epochs):
        model.train()
        order = gen.permutation(len(x))
        t0, loss_sum = time.time(), 0.0
        for b in range(len(x) // 128):
            idx = torch.from_numpy(order[b * 128:(b + 1) * 128])
            xb = torch.rot90(xt[idx], int(gen.integers(4)), (2, 3))  # the numeral at any quarter turn
            loss = torch.nn.functional.cross_entropy(model(xb), yt[idx], label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            loss_sum += float(loss.detach())
        acc, dev = accuracy(model, xv, yv), accuracy(model, xd, yd)
        print(f"  epoch {epoch + 1}: loss {loss_sum / (len(x) // 128):.3f}, validation (training typefaces) {100 * acc:.2f}%,"
              f" dev typefaces {100 * dev:.2f}% ({time.time() - t0:.0f} s)", flush=True)
        if dev > best:
            best, kept = dev, copy.deepcopy(model.state_dict())
    model.load_state_dict(kept)
    print(f"  kept the epoch with dev typefaces {100 * best:.2f}%", flush=True)
    return model


def accuracy(model, x: np.ndarray, y: np.ndarray) -> float:
    import torch

    model.eval()
    with torch.no_grad():
        p = sum(torch.softmax(model(torch.rot90(torch.from_numpy(x[:, None]), k, (2, 3))), 1) for k in range(4))
    return float((p.argmax(1).numpy() == y).mean())


def export(model, out: Path) -> None:
    import torch

    model.eval()
    torch.onnx.export(model, torch.zeros(1, 1, INPUT_SIDE, INPUT_SIDE), str(out), input_names=["crop"], output_names=["logits"],
                      dynamic_axes={"crop": {0: "n"}, "logits": {0: "n"}}, opset_version=13, dynamo=False)


def judge(path: Path, seed: int, n: int, wide: bool = False) -> dict[str, float]:
    """Per held-out family: the share of cube faces read as the right value through OpenCV's dnn
    (``wide``: on faces drawn with the widened variety)."""
    reader = CubeReader(path)
    _, held = cube_faces.cube_families()
    out = {}
    for i, fam in enumerate(held):
        rng = np.random.default_rng([seed, 7919, i])
        crops, labels = [], []
        for _ in range(n):
            label = int(rng.integers(1, 7))  # cube faces only: the value in that typeface
            crops.append(cube_faces.draw_crop(rng, label, [fam], wide=wide))
            labels.append(label)
        p = reader.probabilities(crops)
        read = p.argmax(1)
        out[fam] = float((read == np.array(labels)).mean())
        print(f"  held-out typeface {fam:20s} cube value right {100 * out[fam]:6.2f}% of {n}{' (widened variety)' if wide else ''}", flush=True)
    print(f"  all held-out typefaces{' (widened variety)' if wide else ''}: {100 * np.mean(list(out.values())):.2f}%")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--train", type=int, default=30000, help="crops drawn for training")
    ap.add_argument("--val", type=int, default=2000, help="crops drawn for validation (training typefaces)")
    ap.add_argument("--dev", type=int, default=2000, help="crops drawn in the dev typefaces (cube_faces.CUBE_DEV: never "
                    "trained on, not held out) that choose the epoch kept")
    ap.add_argument("--epochs", type=int, default=7)
    ap.add_argument("--negatives", type=int, default=5000, help="extra 'no cube face' crops (die faces, blank squares, wood)")
    ap.add_argument("--held", type=int, default=600, help="crops per held-out typeface")
    ap.add_argument("--out", type=Path, default=ROOT / "vision" / "cube_cnn.onnx")
    ap.add_argument("--wide", type=float, default=0.0, help="share of crops drawn with the widened variety")
    ap.add_argument("--plain-only", action="store_true", help="train on the crops drawn without the widened variety only "
                    "(of the same draws: compares the mix with the plain faces alone)")
    ap.add_argument("--judge", type=Path, help="only judge this model on the held-out typefaces")
    ap.add_argument("--held-out", action="store_true", help="after training, read the held-out typefaces (once, at the end)")
    ap.add_argument("--cache", type=Path, help="keep the drawn crops in this .npz")
    args = ap.parse_args()
    if args.judge:
        judge(args.judge, args.seed, args.held)
        judge(args.judge, args.seed, args.held, wide=True)
        return 0
    fams, dev_fams = cube_faces.cube_dev_families()
    print(f"training typefaces ({len(fams)}): {', '.join(fams)}\ndev (not trained on, choose the epoch): "
          f"{', '.join(dev_fams)}\nheld out: {', '.join(cube_faces.cube_families()[1])}", flush=True)
    t0 = time.time()
    if args.cache and args.cache.exists():
        data = np.load(args.cache)
        x, y, w, xv, yv, xd, yd = (data[k] for k in ("x", "y", "w", "xv", "yv", "xd", "yd"))
    else:
        x, y, w = draw_set(args.seed, args.train, fams, wide=args.wide)
        if args.negatives:
            xn, yn, wn = draw_set(args.seed + 2000, args.negatives, fams, negatives=True, wide=args.wide)
            x, y, w = np.concatenate([x, xn]), np.concatenate([y, yn]), np.concatenate([w, wn])
        xv, yv, _ = draw_set(args.seed + 1000, args.val, fams)
        xd, yd, _ = draw_set(args.seed + 3000, args.dev, dev_fams)
        if args.cache:
            np.savez_compressed(args.cache, x=x, y=y, w=w, xv=xv, yv=yv, xd=xd, yd=yd)
    if args.plain_only:
        x, y = x[~w], y[~w]
    print(f"drew {len(x)} training crops ({int(w.sum()) if not args.plain_only else 0} widened) + {len(xv)} + {len(xd)} "
          f"in {time.time() - t0:.0f} s", flush=True)
    model = train(args.seed, x, y, xv, yv, xd, yd, args.epochs)
    export(model, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")
    if args.held_out:
        judge(args.out, args.seed, args.held)
        judge(args.out, args.seed, args.held, wide=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
