"""Train the cube-face reader ``vision/cube_cnn.onnx`` from a seed, and judge it on held-out typefaces.

    OMP_NUM_THREADS=1 nice -n 10 .venv/bin/python -m benchmarks.train_cube --seed 1 [--train 30000] [--negatives 5000] [--epochs 7] [--out vision/cube_cnn.onnx]
    .venv/bin/python -m benchmarks.train_cube --judge vision/cube_cnn.onnx    # held-out typefaces only

The first line, as it stands, trains the shipped network. To compare training variants (the widened share
``--wide``, targets as sure as the face is legible ``--legible``, epochs), add ``--dev-split``: the dev typefaces
(``cube_faces.CUBE_DEV``) are then kept out of training and choose the epoch kept, so that the held-out families
never choose anything; ``--cache FILE`` keeps the draws for the next variant (``--plain-only`` trains on the
crops of the same draws drawn without the widened variety). ``--moved SHARE`` streaks that share of the crops by motion
blur a tenth to two fifths of the face's edge; ``--start vision/cube_cnn.onnx --lr 1e-3`` trains on from the shipped
network for a short run (four such runs read no more dev cubes than it: docs/dice-and-cube.md). ``--small SHARE``
draws that share with the face 10-28 camera pixels across (far cubes); the full recipe with far and moved faces is in
docs/dice-and-cube.md ("Retraining with far and moved faces").

Needs the ``train`` extra (torch, onnx, Pillow). The crops are drawn by ``benchmarks/cube_faces.py``
with the system's typefaces (``fc-list``; Debian packages fonts-dejavu, fonts-liberation,
fonts-freefont-ttf, fonts-urw-base35, fonts-noto-core, fonts-crosextra-carlito, fonts-crosextra-caladea,
fonts-linuxlibertine, fonts-cantarell, fonts-roboto, fonts-open-sans, fonts-lato). Training and tuning
use only the training families (``--dev-split``: without the dev families); the held-out families (``cube_faces.CUBE_HELD_OUT`` and OpenCV's Hershey
faces, the glyphs of the project's own renderers) are read once at the end (``--held-out``), each apart, through
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


def legibility(px: float, defocus: float, motion: float, level: float = 1.0, noise: float = 0.0) -> float:
    """How surely a numeral drawn on a face seen at ``px`` camera pixels per cube edge, defocused by ``defocus`` and
    moved by ``motion`` camera pixels, can be read at all (1: its strokes stand apart; 0: they run into one smudge),
    from the physical picture: a numeral's strokes lie about a twelfth of the face's edge apart, so the face's edge
    over the blur's width (a pixel's own footprint, the defocus, a third of the motion's length) below about 6 leaves
    no numeral to read, above about 12 a clear one. A crop's training target is its face's value as surely as this,
    the rest spread over the six faces: a smudge taught as one value is noise that taught the network to guess.
    Under a lamp at ``level`` (1: the usual full light) with the sensor's noise ``noise`` (grey levels), a numeral's
    strokes stand about 90 grey levels times the level off an ivory face (half of a full-lit face's 180-250); that
    over the noise below about 1 leaves no stroke to see, above about 4 a clear one (a judgment, not a fit)."""
    blur = float(np.sqrt(0.7 ** 2 + defocus ** 2 + (motion / 3) ** 2))
    sharp = float(np.clip((px / blur - 6.0) / 6.0, 0.0, 1.0))
    if noise <= 0:
        return sharp
    return sharp * float(np.clip((90.0 * level / noise - 1.0) / 3.0, 0.0, 1.0))


def _chunk(args: tuple[int, int, int, tuple[str, ...], bool, float, float, float, float, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    seed, start, n, families, negatives, wide, moved, small, dim, sides = args
    rng = np.random.default_rng([seed, start])
    xs, ys, ws, ls = [], [], [], []
    for _ in range(n):
        label = 0 if negatives else int(rng.integers(7))
        w = bool(rng.random() < wide)
        b = bool(moved) and bool(rng.random() < moved)  # no draw when none is asked: the plain sets stay as they were
        near = bool(small) and bool(rng.random() < small)
        extra = {}  # no draw when none is asked: the sets drawn before these options stay as they were
        if dim or sides:
            extra = {"dim": bool(rng.random() < dim), "sides": bool(rng.random() < sides)}
        seen: dict[str, float] = {}
        xs.append(cube_input(cube_faces.draw_crop(rng, label, list(families), seen=seen, wide=w, moved=b, small=near, **extra)))
        ys.append(label)
        ws.append(w)
        ls.append(legibility(seen["px"], seen["defocus"], seen["motion"], seen["level"], seen["noise"]) if extra
                  else legibility(seen["px"], seen["defocus"], seen["motion"]))
    return np.stack(xs), np.array(ys, np.int64), np.array(ws, bool), np.array(ls, np.float32)


def draw_set(seed: int, n: int, families: list[str], workers: int = 2, negatives: bool = False,
             wide: float = 0.0, moved: float = 0.0, small: float = 0.0, dim: float = 0.0,
             sides: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``n`` crops of ``families``, labels drawn evenly (or all 'no cube face' with ``negatives``), whether each was
    drawn with ``cube_faces.draw_crop``'s widened variety (restyled numerals, cloths, deep shadows, dim light, lens
    bend; a share ``wide`` of them; a share ``moved`` streaked by motion blur a tenth to two fifths of the
    face's edge long; a share ``small`` seen 10-28 camera pixels across; a share ``dim`` under a dim lamp; a share
    ``sides`` with the cube's side faces and their numerals in view), and each one's :func:`legibility`."""
    chunks = [(seed, s, min(500, n - s), tuple(families), negatives, wide, moved, small, dim, sides) for s in range(0, n, 500)]
    with Pool(workers) as pool:
        parts = pool.map(_chunk, chunks)
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(4))  # type: ignore[return-value]


def targets(y: np.ndarray, legible: np.ndarray | None) -> np.ndarray:
    """(n, 7) training targets: a cube face's value as surely as it is legible, the rest spread over the six faces
    (still a cube: never 'no cube face'); 'no cube face' crops are that surely. ``legible`` None: hard labels."""
    t = np.eye(7, dtype=np.float32)[y]
    if legible is not None:
        face = y > 0
        t[face] = legible[face, None] * t[face] + (1 - legible[face, None]) * np.array([0] + [1 / 6] * 6, np.float32)
    return t


def build_model():
    import torch.nn as nn

    def block(i: int, o: int, pool: bool = True) -> list:
        return [nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU()] + ([nn.MaxPool2d(2)] if pool else [])

    return nn.Sequential(*block(1, 16), *block(16, 32), *block(32, 64), *block(64, 64, False),
                         nn.Flatten(), nn.Dropout(0.3), nn.Linear(64 * (INPUT_SIDE // 8) ** 2, 96), nn.ReLU(),
                         nn.Dropout(0.3), nn.Linear(96, 7))


def from_onnx(path: Path):
    """:func:`build_model` holding the weights of an exported network (``path``), to train on from there. The export
    folded each batch norm into its convolution: the norms are set to do nothing and stay so (:func:`_freeze_norms`)."""
    import onnx
    import torch
    from onnx import numpy_helper

    model = build_model()
    weights = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in onnx.load(str(path)).graph.initializer}
    convs = [m for m in model if isinstance(m, torch.nn.Conv2d)]
    folded = [v for k, v in weights.items() if k.startswith("onnx::Conv")]  # weight, bias of each convolution, in order
    if len(folded) != 2 * len(convs):
        raise SystemExit(f"{path}: not a network of this shape ({len(folded) // 2} convolutions, {len(convs)} expected)")
    with torch.no_grad():
        for conv, w, b in zip(convs, folded[::2], folded[1::2]):
            conv.weight.copy_(w)
            conv.bias.copy_(b)
        for m in model:
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.zero_()
                m.running_var.fill_(1.0 - m.eps)
                m.weight.fill_(1.0)
                m.bias.zero_()
        for k, v in weights.items():
            if not k.startswith("onnx::"):
                i, name = k.split(".")
                getattr(model[int(i)], name).copy_(v)
    model.frozen_norms = True
    return model


def _freeze_norms(model) -> None:
    """A network taken from an export (:func:`from_onnx`) keeps its norms as they are (no batch statistics)."""
    import torch

    if getattr(model, "frozen_norms", False):
        for m in model:
            if isinstance(m, torch.nn.BatchNorm2d):
                m.eval()
                m.weight.requires_grad_(False)
                m.bias.requires_grad_(False)


def train(seed: int, x: np.ndarray, t: np.ndarray, xv: np.ndarray, yv: np.ndarray, dev: tuple[np.ndarray, np.ndarray] | None,
          epochs: int, start: Path | None = None, lr: float = 3e-3, last: Path | None = None):
    """The network trained towards targets ``t`` (:func:`targets`), after its last epoch or, given ``dev`` (crops of
    the dev typefaces: never trained on, none of them held out), after the epoch that read those best; ``xv``, ``yv``
    (the training typefaces, other draws) are printed alongside; ``start``: trained on from that exported network
    (at a lower ``lr``: a few epochs that widen what it reads rather than a network learnt anew); ``last``: the
    last epoch's network is also exported there (a continuation meant to learn a class the dev typefaces do not
    measure may be kept for that class even when it reads them no better than where it started)."""
    import copy

    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "2")))
    model = from_onnx(start) if start else build_model()
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad or not start], lr=lr, weight_decay=1e-4)
    steps = epochs * (len(x) // 128)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    gen = np.random.default_rng(seed)
    xt, yt = torch.from_numpy(x[:, None]), torch.from_numpy(t)
    best, kept = (accuracy(model, *dev), copy.deepcopy(model.state_dict())) if dev is not None and start else (-1.0, model.state_dict())
    if start and dev is not None:
        print(f"  before: dev typefaces {100 * best:.2f}%", flush=True)
    for epoch in range(epochs):
        model.train()
        _freeze_norms(model)
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
        acc = accuracy(model, xv, yv)
        on_dev = accuracy(model, *dev) if dev is not None else float(epoch)  # no dev typefaces: the last epoch is kept
        print(f"  epoch {epoch + 1}: loss {loss_sum / (len(x) // 128):.3f}, validation (training typefaces) {100 * acc:.2f}%"
              + (f", dev typefaces {100 * on_dev:.2f}%" if dev is not None else "") + f" ({time.time() - t0:.0f} s)", flush=True)
        if on_dev > best:
            best, kept = on_dev, copy.deepcopy(model.state_dict())
    if last is not None:
        export(model, last)
    model.load_state_dict(kept)
    if dev is not None:
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
    ap.add_argument("--dev-split", action="store_true", help="hold the dev typefaces (cube_faces.CUBE_DEV) out of training "
                    "and keep the epoch that reads them best (for comparing variants; the shipped network trained on them)")
    ap.add_argument("--dev", type=int, default=2000, help="crops drawn in the dev typefaces with --dev-split")
    ap.add_argument("--epochs", type=int, default=7)
    ap.add_argument("--negatives", type=int, default=5000, help="extra 'no cube face' crops (die faces, blank squares, wood)")
    ap.add_argument("--held", type=int, default=600, help="crops per held-out typeface")
    ap.add_argument("--out", type=Path, default=ROOT / "vision" / "cube_cnn.onnx")
    ap.add_argument("--wide", type=float, default=0.0, help="share of crops drawn with the widened variety")
    ap.add_argument("--plain-only", action="store_true", help="train on the crops drawn without the widened variety only "
                    "(of the same draws: compares the mix with the plain faces alone)")
    ap.add_argument("--legible", action="store_true", help="train each cube face towards its value as surely as it is "
                    "legible (train_cube.legibility), the rest spread over the six faces, rather than towards its value alone")
    ap.add_argument("--moved", type=float, default=0.0, help="share of crops (training and negatives) streaked by motion "
                    "blur a tenth to two fifths of the face's edge long (cube_faces.draw_crop's moved)")
    ap.add_argument("--small", type=float, default=0.0, help="share of crops (training and negatives) whose face is seen "
                    "10-28 camera pixels across (cube_faces.draw_crop's small) rather than 11-56")
    ap.add_argument("--more", type=int, default=0, help="draw this many crops more (a sixth 'no cube face'), with the "
                    "shares given and --dim, --sides, kept in --more-cache, and train on them with the --cache draws; their "
                    "faces at least half legible (train_cube.legibility, contrast too) towards their value, the rest towards "
                    "'a cube, value unknown'")
    ap.add_argument("--more-cache", type=Path, help="keep the --more crops in this .npz")
    ap.add_argument("--dim", type=float, default=0.0, help="share of the --more crops under a dim lamp (cube_faces.draw_crop's dim)")
    ap.add_argument("--sides", type=float, default=0.0, help="share of the --more crops with the cube's side faces and their "
                    "numerals in view, the crop centred towards them (cube_faces.draw_crop's sides)")
    ap.add_argument("--workers", type=int, default=2, help="processes drawing the crops")
    ap.add_argument("--start", type=Path, help="train on from this exported network (e.g. vision/cube_cnn.onnx) rather than anew; "
                    "the last epoch's network is also written beside --out (NAME_last.onnx)")
    ap.add_argument("--lr", type=float, default=3e-3, help="the learning rate's peak (lower, e.g. 1e-3, with --start)")
    ap.add_argument("--legible-above", type=float, help="train each cube face towards its value alone when it is at least this "
                    "legible (train_cube.legibility), towards 'a cube, value unknown' below (with --legible: graded instead)")
    ap.add_argument("--judge", type=Path, help="only judge this model on the held-out typefaces")
    ap.add_argument("--held-out", action="store_true", help="after training, read the held-out typefaces (once, at the end)")
    ap.add_argument("--cache", type=Path, help="keep the drawn crops in this .npz")
    args = ap.parse_args()
    if args.judge:
        judge(args.judge, args.seed, args.held)
        judge(args.judge, args.seed, args.held, wide=True)
        return 0
    if warning := cube_faces.lacking():
        print(f"train_cube: {warning}", flush=True)
    fams, dev_fams = cube_faces.cube_dev_families() if args.dev_split else (cube_faces.cube_families()[0], [])
    print(f"training typefaces ({len(fams)}): {', '.join(fams)}\ndev (not trained on, choose the epoch): "
          f"{', '.join(dev_fams) or '-'}\nheld out: {', '.join(cube_faces.cube_families()[1])}", flush=True)
    t0 = time.time()
    if args.cache and args.cache.exists():
        data = np.load(args.cache)
        x, y, w, lg, xv, yv, xd, yd = (data[k] for k in ("x", "y", "w", "lg", "xv", "yv", "xd", "yd"))
    else:
        x, y, w, lg = draw_set(args.seed, args.train, fams, args.workers, wide=args.wide, moved=args.moved, small=args.small)
        if args.negatives:
            xn, yn, wn, ln = draw_set(args.seed + 2000, args.negatives, fams, args.workers, negatives=True, wide=args.wide,
                                      moved=args.moved, small=args.small)
            x, y, w, lg = (np.concatenate(pair) for pair in ((x, xn), (y, yn), (w, wn), (lg, ln)))
        xv, yv, _, _ = draw_set(args.seed + 1000, args.val, fams, args.workers)
        xd, yd = draw_set(args.seed + 3000, args.dev, dev_fams, args.workers)[:2] if dev_fams else (np.zeros((0, INPUT_SIDE, INPUT_SIDE), np.float32), np.zeros(0, np.int64))
        if args.cache:
            np.savez_compressed(args.cache, x=x, y=y, w=w, lg=lg, xv=xv, yv=yv, xd=xd, yd=yd)
    if args.plain_only:
        x, y, lg = x[~w], y[~w], lg[~w]
    t = targets(y, (lg >= args.legible_above).astype(np.float32) if args.legible_above is not None else lg if args.legible else None)
    if args.more:
        if args.more_cache and args.more_cache.exists():
            data = np.load(args.more_cache)
            xm, ym, lm = data["x"], data["y"], data["lg"]
        else:
            n_neg = args.more // 6
            xm, ym, _, lm = draw_set(args.seed + 5000, args.more - n_neg, fams, args.workers, wide=args.wide,
                                     moved=args.moved, small=args.small, dim=args.dim, sides=args.sides)
            xn, yn, _, ln = draw_set(args.seed + 6000, n_neg, fams, args.workers, negatives=True, wide=args.wide,
                                     moved=args.moved, small=args.small, dim=args.dim, sides=args.sides)
            xm, ym, lm = np.concatenate([xm, xn]), np.concatenate([ym, yn]), np.concatenate([lm, ln])
            if args.more_cache:
                np.savez_compressed(args.more_cache, x=xm, y=ym, lg=lm)
        print(f"drew {len(xm)} crops more (--dim {args.dim}, --sides {args.sides}); their cube faces at least half "
              f"legible: {100 * float((lm[ym > 0] >= 0.5).mean()):.1f}%", flush=True)
        x, y = np.concatenate([x, xm]), np.concatenate([y, ym])
        t = np.concatenate([t, targets(ym, (lm >= 0.5).astype(np.float32))])
    print(f"drew {len(x)} training crops ({int(w.sum()) if not args.plain_only else 0} widened) + {len(xv)} + {len(xd)} "
          f"in {time.time() - t0:.0f} s", flush=True)
    print(f"cube faces legible (>= 0.5): {100 * float((lg[y[:len(lg)] > 0] >= 0.5).mean()):.1f}%", flush=True)
    last = args.out.with_name(args.out.stem + "_last.onnx") if args.start else None
    model = train(args.seed, x, t, xv, yv, (xd, yd) if len(xd) else None, args.epochs, args.start, args.lr, last)
    export(model, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")
    if args.held_out:
        judge(args.out, args.seed, args.held)
        judge(args.out, args.seed, args.held, wide=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
