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
from vision.geometry import BoardGeometry, Layout, point_axis

Image = NDArray[np.uint8]
Maps = tuple[NDArray[np.float32], NDArray[np.float32]]

MODEL_PATH = Path(__file__).with_name("point_counts.onnx")
STRIP_ALONG = (-6.0, 168.0)  # mm from the point's base: five checkers (150 mm), a layer's offset and a top's lean
STRIP_ASIDE = 26.0  # mm either side of the point's centre line: half a point (17 mm) and a top's lean
STRIP_SIZE = (56, 192)  # (width, height) pixels of a strip as cut: about 0.9 mm a pixel
NET_SIZE = (40, 136)  # ... as the network reads it, shrunk by area: about 1.3 mm a pixel
COVERED = 16  # the class of a point something (an arm, a sleeve, a cup) lies over: not to be counted
CLASSES = 17  # checkers on a point, 0..15, or COVERED


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
    # one resize of the strips stacked: each strip's rows map onto its own exactly, so none bleeds into the next
    small = cv2.resize(strips.reshape(n * h, w, 3), (NET_SIZE[0], n * NET_SIZE[1]), interpolation=cv2.INTER_AREA)
    small = small.reshape(n, NET_SIZE[1], NET_SIZE[0], 3)
    frames = small.reshape(-1, 24 * NET_SIZE[1] * NET_SIZE[0], 3)
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


def strip_probabilities(net: cv2.dnn.Net, strips: NDArray[np.uint8]) -> NDArray[np.float32]:
    """(24, CLASSES) class probabilities of one frame's strips."""
    net.setInput(strip_input(strips))
    logits = net.forward().reshape(len(strips), CLASSES).astype(np.float64)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
