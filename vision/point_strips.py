"""The learned checker counter: each point's strip of the frame, rectified, classified by a small CNN.

For each of the 24 points the calibration's lens and homography give a strip of the camera image
from the point's base to past its tip (``STRIP_ALONG``), as wide as the point and a margin either
side (``STRIP_ASIDE``) for checkers' tops, which a tilted camera sees shifted by their height. The
24 strips are cut with one remap, lit alike (each colour channel divided by its median over all
of them: a warm or a dim lamp looks the same) and read by one forward pass of a CNN in OpenCV's
``dnn``: how many checkers lie on the point, 0..15, whatever their colour, or ``COVERED`` (an arm, a
sleeve or a cup over it: the reading says ``occluded``, never a guess). Which colour they are is
the calibration's to say (its classes of the set's two inlays, learnt from the start position: see
``vision.read.learned_counts``); the network is trained on sets of every shade so that it counts by
shape (rims, rings, layers), not by colour.

The weights (``point_counts.onnx``) are trained on renders only, by
``python -m benchmarks.train_points --seed 1`` (torch, the ``train`` extra); nothing here needs torch.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board import Lens
from vision.calibration import Calibration
from vision.config import ReaderConfig
from vision.geometry import BoardGeometry, Layout, point_axis
from vision.points import StackReading, neighbour_points

Image = NDArray[np.uint8]
Maps = tuple[NDArray[np.float32], NDArray[np.float32]]

MODEL_PATH = Path(__file__).with_name("point_counts.onnx")
STRIP_ALONG = (-6.0, 168.0)  # mm from the point's base: five checkers (150 mm), a layer's offset and a top's lean
STRIP_ASIDE = 26.0  # mm either side of the point's centre line: half a point (17 mm) and a top's lean
NET_SIZE = (40, 136)  # (width, height) pixels of a strip as the network reads it: about 1.3 mm a pixel
STRIP_SIZE = NET_SIZE  # ... as cut: at the network's size, so no resize follows (the training strips are cut alike)
COVERED = 16  # the class of a point something (an arm, a sleeve, a cup) lies over: not to be counted
CLASSES = 17  # checkers on a point, 0..15, or COVERED
FULL_ROW = 5  # checkers in a point's first row: only over them can more lie hidden (but in towers)


def strip_grid(geo: BoardGeometry, layout: Layout, jitter: NDArray[np.float64] | None = None) -> NDArray[np.float64]:
    """(24 * height, width, 2) canonical mm that the strips' pixels show, point 1 first, base at the top.
    ``jitter``: (24, 3) per strip shift along, shift aside (mm) and turn (radians), for training."""
    w, h = STRIP_SIZE
    along = STRIP_ALONG[0] + (np.arange(h) + 0.5) * (STRIP_ALONG[1] - STRIP_ALONG[0]) / h
    aside = -STRIP_ASIDE + (np.arange(w) + 0.5) * (2 * STRIP_ASIDE) / w
    a, s = np.meshgrid(along, aside, indexing="ij")
    out = np.empty((24, h, w, 2))
    for p in range(1, 25):
        (bx, by), (dx, dy) = point_axis(geo, layout, p)
        ap, sp = a, s
        if jitter is not None:
            da, ds, turn = jitter[p - 1]
            c, si = np.cos(turn), np.sin(turn)
            ap, sp = c * a - si * s + da, si * a + c * s + ds
        out[p - 1, ..., 0] = bx + dx * ap + dy * sp
        out[p - 1, ..., 1] = by + dy * ap - dx * sp
    return out.reshape(24 * h, w, 2)


def strip_maps(lens: Lens, homography: NDArray[np.float64], geo: BoardGeometry, layout: Layout,
               jitter: NDArray[np.float64] | None = None) -> Maps:
    """Remap tables from the camera image to the 24 strips stacked (see :func:`strip_grid`);
    ``homography``: undistorted image pixels -> canonical mm, as calibration measures it."""
    mm = strip_grid(geo, layout, jitter)
    und = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), np.linalg.inv(homography)).reshape(-1, 2)
    dist = lens.distort(und).reshape(mm.shape).astype(np.float32)
    return dist[..., 0].copy(), dist[..., 1].copy()


def cut_strips(image: Image, maps: Maps) -> Image:
    """(24, height, width, 3) BGR strips of a camera image."""
    w, h = STRIP_SIZE
    return cv2.remap(image, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).reshape(24, h, w, 3)


def strip_input(strips: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The network's input (n, 3, NET_SIZE[1], NET_SIZE[0]): each strip shrunk to ``NET_SIZE``, each channel
    over its median across the frame's strips, so a lamp's colour and brightness divide out. ``strips``:
    (n, height, width, 3) as cut, one frame's 24 or a multiple of 24 (frames in order)."""
    n, h, w = strips.shape[:3]
    small = strips
    if (w, h) != NET_SIZE:
        # one resize of the strips stacked: each strip's rows map onto its own exactly, so none bleeds into the next
        small = cv2.resize(strips.reshape(n * h, w, 3), (NET_SIZE[0], n * NET_SIZE[1]), interpolation=cv2.INTER_AREA)
        small = small.reshape(n, NET_SIZE[1], NET_SIZE[0], 3)
    # the lamp's colour from every third pixel: the same median to a level, in a third of the time
    frames = small.reshape(-1, 24 * NET_SIZE[1] * NET_SIZE[0], 3)[:, ::3]
    med = np.array([[_median_u8(f[:, c]) for c in range(3)] for f in frames], np.float32)  # (frames, 3)
    # planar first, on the bytes (a quarter of the floats' traffic), then scaled in place
    x = np.ascontiguousarray(small.transpose(0, 3, 1, 2)).astype(np.float32)
    x *= np.repeat(1.0 / (med + 4.0), 24, axis=0)[:, :, None, None]
    x -= 1.0
    return np.clip(x, -1.0, 3.0, out=x)


def _median_u8(values: NDArray[np.uint8]) -> float:
    """np.median of 8-bit values, from their histogram (a tenth of the time)."""
    counts = np.cumsum(np.bincount(values, minlength=256))
    n = int(counts[-1])
    lo, hi = int(np.searchsorted(counts, (n - 1) // 2 + 1)), int(np.searchsorted(counts, n // 2 + 1))
    return (lo + hi) / 2.0


@lru_cache(maxsize=2)
def load_point_net(path: Path = MODEL_PATH) -> cv2.dnn.Net | None:
    """The shipped counter, or None if its weights are missing."""
    if not path.exists():
        return None
    net = cv2.dnn.readNetFromONNX(str(path))
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    return net


def _forward(net: cv2.dnn.Net, x: NDArray[np.float32]) -> NDArray[np.float64]:
    net.setInput(np.ascontiguousarray(x))
    logits = net.forward().reshape(len(x), CLASSES).astype(np.float64)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def strip_probabilities(net: cv2.dnn.Net, strips: NDArray[np.uint8], again_below: float = 0.0) -> NDArray[np.float32]:
    """(24, CLASSES) class probabilities of one frame's strips. A strip whose likeliest class is below
    ``again_below``, and that the first look does not call covered, is looked at a second time, mirrored across
    the point's centre line (a point's mirror image is a point as well: a layer pushed to one side is pushed to
    the other, a top's lean leans the other way). Its counts' probabilities are the two looks' mean: two views of
    one strip where the first alone was in doubt; that of ``COVERED`` is the larger of the two (either look seeing
    something over the point is enough: an occluded point is never to be counted)."""
    x = strip_input(strips)
    probs = _forward(net, x)
    # (a strip the first look says covered stays covered whatever the second says: not looked at again)
    again = np.flatnonzero((probs.max(axis=1) < again_below) & (probs[:, COVERED] < 0.5))
    if len(again):
        mirrored = _forward(net, x[again][..., ::-1])
        covered = np.maximum(probs[again, COVERED], mirrored[:, COVERED])
        probs[again] = (probs[again] + mirrored) / 2
        probs[again, COVERED] = covered
    return probs.astype(np.float32)


def fifteen_a_side(counts: NDArray[np.float64], sides: NDArray[np.intp], bar: tuple[int, int] = (0, 0),
                   asked: NDArray[np.bool_] | None = None) -> NDArray[np.float64]:
    """(24, 16) each point's count probabilities once the rule that a side has fifteen checkers is known: a point
    holds ``k`` only as often as the side's other points (and its ``bar`` checkers, dark and light) leave room for
    ``k``. ``counts``: (24, 16) each point's probabilities of 0..15 checkers, taken as independent; ``sides``: (24,)
    whose checkers each point's would be (0 dark, 1 light). A second layer seen from above hides over the first
    (a centred sixth, or a whole layer of five over five, shows little but its height): where a side's other points
    hold ten, a five cannot be ten. A point whose side has no room at all keeps its own probabilities (some other
    reading is wrong: the rule cannot say which); so do the points not ``asked`` (default: all are)."""
    n = counts.shape[1]
    out = counts.copy()
    for side in (0, 1):
        mine = np.flatnonzero(sides == side)
        if asked is not None and not asked[mine].any():
            continue
        room = n - 1 - bar[side]  # checkers this side's points can hold in all
        # the side's total over the points before each one and after it: a total past fifteen is no use
        before = [np.eye(1, n)[0]]
        for i in mine:
            before.append(np.convolve(before[-1], counts[i])[:n])
        after = [np.eye(1, n)[0]]
        for i in mine[::-1]:
            after.append(np.convolve(after[-1], counts[i])[:n])
        after = after[::-1]
        for j, i in enumerate(mine):
            if asked is not None and not asked[i]:
                continue
            others = np.cumsum(np.convolve(before[j], after[j + 1])[:n])  # P(the others hold at most m), m = 0..15
            left = room - np.arange(n)
            fits = np.where(left >= 0, others[np.clip(left, 0, n - 1)], 0.0)
            post = counts[i] * fits
            if post.sum() > 0:
                out[i] = post / post.sum() * counts[i].sum()
    return out


def beside_cover(hidden: NDArray[np.bool_], neighbours: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """(24,) the points beside a ``hidden`` one (``neighbours``: (24, 24) side by side on a row, across the bar too).
    What lies over a point reaches the next: a sleeve's edge or a cup's side hides part of it, and the colour
    profiles, which know no sleeve's or cup's colour, count it as checkers (dev seeds 1000-3000: all 6 covered
    points read with a wrong count were the colour profiles' counts, 3 of them beside a point left unread). There only the network's own sure count stands; it is trained on arms,
    sleeves and cups."""
    return (neighbours & hidden[None, :]).any(axis=1)


def learned_counts(cfg: ReaderConfig, cal: Calibration, image: Image, points: list[StackReading],
                   near_dice: NDArray[np.bool_] | None = None, maps: Maps | None = None,
                   bar: tuple[int, int] = (0, 0)) -> list[StackReading]:
    """The points' counts as the learned counter reads them, their colour the one the calibration's colour classes
    say explains that many checkers better (each reading's ``lean``). A point is left unread where the network sees
    something over it (its ``COVERED`` class) or colours no class of the set explain lie on it
    (``occluded_fraction``). Elsewhere the network's count stands where it is sure (``learned_min``), and where it
    is less sure only if the colour profiles (``points``) read the same count: they are a second opinion, never a
    count alone (alone they gave most of the confident wrong counts; the network, trained on arms, sleeves and cups,
    beats the arm seen crossing the frame and the rims' rules). On a point a die or the cube lies on (``near_dice``)
    the colour profiles' reading stands (the network read a die beside a stack as three checkers on a Blender
    fixture). Where the network doubts whether a full row (``FULL_ROW``) has a second layer over it, its count stands
    if it is sure once the counts the side has no room for are ruled out (:func:`fifteen_a_side`: fifteen checkers a
    side, ``bar`` of them on the bar). Beside a point left unread (:func:`beside_cover`) the colour profiles' count
    does not stand, by a die or not, unless the network is sure of the same count. A strip the network doubts is
    looked at twice (:func:`strip_probabilities`). Unchanged when ``cfg.learned_points`` is off or no weights ship. ``maps``: the strips' remap tables, if made."""
    net = load_point_net() if cfg.learned_points else None
    if net is None:
        return points
    maps = strip_maps(cal.lens, cal.homography, cfg.geometry, cal.layout) if maps is None else maps
    probs = strip_probabilities(net, cut_strips(image, maps), cfg.learned_min)  # a second, mirrored look where in doubt
    best = probs[:, :COVERED].argmax(axis=1)

    def signed(p: StackReading, n: int) -> int:
        # a count the colour profiles ruled out for both colours (a third layer on no second) leans as fewer do
        lean = next((p.lean[m] for m in (n, min(n, 10), min(n, 5)) if p.lean and p.lean[m] != 0), 0.0)
        return n if lean >= 0 else -n
    hidden = (probs[:, COVERED] >= 0.5) | (np.array([p.foreign for p in points]) > cfg.occluded_fraction)
    # beside something over the board the colour profiles' count is no second opinion (they count a sleeve's edge)
    beside = beside_cover(hidden, neighbour_points(cfg, cal.layout))
    # by a die or the cube the colour profiles' count stands; where they read none, the network's as elsewhere
    by_dice = np.zeros(24, bool) if near_dice is None else near_dice & ~hidden & np.array([p.count is not None for p in points])
    # the rule of fifteen a side, for a full row the network doubts has a layer over it
    doubted = ~hidden & ~by_dice & (probs[np.arange(24), best] < cfg.learned_min) & (best >= FULL_ROW)
    ruled, sides = probs[:, :COVERED].astype(np.float64), np.zeros(24, np.intp)
    if doubted.any():
        sides = np.array([int(signed(p, max(int(k), 1)) < 0) for p, k in zip(points, best)])  # 0 dark, 1 light
        # what the other points hold: a hidden one, or one under a die (which the network may count as checkers),
        # at least nothing, or the colour profiles' count
        for i in np.flatnonzero(hidden | by_dice):
            ruled[i] = np.eye(1, COVERED, abs(points[i].count or 0) if by_dice[i] else 0)[0]
        ruled = fifteen_a_side(ruled, sides, bar, doubted)
    out = []
    for i, (p, k) in enumerate(zip(points, best)):
        sure = float(probs[i, k])
        kept = int(ruled[i].argmax())
        if hidden[i]:  # something over the point: occluded, never a guess
            out.append(StackReading(None, max(float(probs[i, COVERED]), p.confidence if p.count is None else 0.0), p.foreign, p.lean))
        elif by_dice[i]:
            # beside a hidden point, only where the network is as sure of the same count
            agreed = not beside[i] or (sure >= cfg.learned_min and int(k) == abs(p.count or 0))
            out.append(p if agreed else StackReading(None, p.confidence, p.foreign, p.lean))
        elif sure >= cfg.learned_min:
            out.append(StackReading(signed(p, int(k)), sure, p.foreign, p.lean))
        elif kept >= FULL_ROW and ruled[i, kept] >= cfg.learned_min and int(signed(p, kept) < 0) == sides[i]:
            # a full row the network doubts has a layer over it, sure once the counts its side has no room for go
            out.append(StackReading(signed(p, kept), float(ruled[i, kept]), p.foreign, p.lean))
        elif p.count is not None and not beside[i] and probs[i, abs(p.count)] >= 0.5 * sure:  # a count the network finds nearly as likely
            out.append(StackReading(p.count, float(probs[i, abs(p.count)]), p.foreign, p.lean))
        else:
            out.append(StackReading(None, sure, p.foreign, p.lean))  # unsure, and the colours read otherwise
    return out
