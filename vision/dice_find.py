"""Where dice lie on the board: a small convolutional judge of "a die is centred here" on the canonical view.

Candidates are the light spots of the light-normalised top-down view (1 px/mm): places where a die-sized
square is lighter than the board around it (local maxima of that excess, ``CANDIDATE_MIN`` or more), and the
centres of the light blobs the white test found. Each candidate's ``WINDOW_MM`` square is judged by a
network that saw dice under soft focus, motion blur, hard shadows, dim, warm and cool lamps, ivory tints,
light checkers, the cube, copper rims and arms (``vision.render`` scenes only; the evaluation renderer
never); it is the reader's judge of what is a die on the playing surface, where the light-blob rules
(square enough, white enough, marked enough) lost blurred dice as a class.

Three 3x3 convolution layers (ReLU, 2x2 max pooling after the first two, a mean over the last) and two
dense layers, run with NumPy (im2col, one matrix product per layer, all candidates in one batch).
Weights: ``dice_find_cnn.json`` beside this module, fitted by ``benchmarks/train_dice_find.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice_cnn import MemberModel, im2col3, maxpool2

FIND_PATH = Path(__file__).with_name("dice_find_cnn.json")
WINDOW_MM = 40.0  # a die (16 mm) and the board round it: wider than a checker (30 mm), whose round edge shows
INPUT_SIDE = 24
CANDIDATE_MIN = 10.0  # Lab L a die-sized square must stand above its surroundings to be looked at
MAX_CANDIDATES = 16
APART_MM = 10.0  # two candidates nearer than this are one
FIND_MIN = 0.5  # probability from which a window is a die
# a die only this network found is reported below the referee's "sure" (0.6, docs/board-spec.md): its pips were read
# through the blur that hid it from the light-blob rules (on the dev split one such die was read surely but wrong)
FOUND_MAX_CONFIDENCE = 0.5

Image = NDArray[np.uint8]


def light_spots(lab: Image, base: NDArray[np.float32], ppm: float, edge_mm: float = 16.0) -> list[tuple[float, float]]:
    """Canonical mm of the local maxima of how much lighter a die-sized square is than ``base`` (the board
    round each pixel without small things on it), at least ``CANDIDATE_MIN``: where a die, sharp or blurred,
    may lie. At most ``MAX_CANDIDATES``, those standing out most from the square window ``WINDOW_MM`` round
    them first (a die does; the middle of a light checker, twice a die's size, hardly)."""
    excess = lab[..., 0].astype(np.float32) - base
    near = cv2.blur(excess, (max(3, int(round(edge_mm * ppm * 0.75))),) * 2)
    apart = max(3, int(round(APART_MM * ppm)) | 1)
    peak = (near >= cv2.dilate(near, np.ones((apart, apart), np.uint8))) & (near >= CANDIDATE_MIN)
    ys, xs = np.nonzero(peak)
    side = max(3, int(round(WINDOW_MM * ppm * 0.7)))
    around = cv2.blur(excess, (side, side))
    order = np.argsort(around[ys, xs] - near[ys, xs])[: MAX_CANDIDATES]
    return [((float(xs[i]) + 0.5) / ppm, (float(ys[i]) + 0.5) / ppm) for i in order]


def merged(spots: list[tuple[float, float]], more: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """``spots`` and those of ``more`` farther than ``APART_MM`` from every one kept before."""
    out = list(spots)
    for p in more:
        if all(np.hypot(p[0] - q[0], p[1] - q[1]) >= APART_MM for q in out):
            out.append(p)
    return out


def windows(canon: Image, centres: list[tuple[float, float]], ppm: float, side_mm: float = WINDOW_MM) -> NDArray[np.uint8]:
    """(n, side, side, 3) BGR squares of ``canon`` (light-normalised top-down view at ``ppm``), each ``side_mm``
    across at ``ppm`` and centred on one of ``centres`` (canonical mm); the image's edge replicated."""
    side = int(round(side_mm * ppm))
    out = np.empty((len(centres), side, side, 3), np.uint8)
    for i, (x, y) in enumerate(centres):
        m = np.float32([[1, 0, side / 2 - x * ppm], [0, 1, side / 2 - y * ppm]])
        out[i] = cv2.warpAffine(canon, m, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out


def shrunk(wins: NDArray[np.uint8], ppm: float) -> NDArray[np.uint8]:
    """Windows of :func:`windows` (cut at ``ppm``, as wide as ``WINDOW_MM`` or wider) as the network takes them: their
    middle ``WINDOW_MM`` at ``INPUT_SIDE`` pixels."""
    side, keep = wins.shape[1], int(round(WINDOW_MM * ppm))
    a = (side - keep) // 2
    out = [cv2.resize(w[a:a + keep, a:a + keep], (INPUT_SIDE, INPUT_SIDE), interpolation=cv2.INTER_AREA) for w in wins]
    return np.stack(out) if out else np.zeros((0, INPUT_SIDE, INPUT_SIDE, 3), np.uint8)


def window_input(win: NDArray[np.uint8]) -> NDArray[np.float32]:
    """(n, S, S, 5) network input of :func:`windows`: grey (0 to 1), grey over the window's own light (its 95th
    percentile, so a dim lamp's die looks like a bright one's) and the three colour channels' differences from
    grey over that light (ivory, a warm lamp and walnut differ there)."""
    if len(win) == 0:
        return np.zeros((0, INPUT_SIDE, INPUT_SIDE, 5), np.float32)
    x = win.astype(np.float32) / 255.0
    grey = x.mean(axis=3, keepdims=True)
    flat = grey.reshape(len(x), -1)
    k = flat.shape[1] - max(1, flat.shape[1] // 20)
    light = np.partition(flat, k, axis=1)[:, k][:, None, None, None] + 0.02
    return np.concatenate([grey, np.minimum(grey / light, 1.5), (x - grey) / light], axis=3).astype(np.float32)


@dataclass(frozen=True)
class FinderModel(MemberModel):
    """The dice finder: an ensemble of small networks."""

    @staticmethod
    def _logits(p: dict[str, NDArray[np.float32]], x: NDArray[np.float32]) -> NDArray[np.float32]:
        for name in ("c1", "c2", "c3"):
            n, h, w, _ = x.shape
            y = np.maximum(im2col3(x) @ p[name + "_w"] + p[name + "_b"], 0.0).reshape(n, h, w, -1)
            x = maxpool2(y) if name != "c3" else y
        h1 = np.maximum(x.mean(axis=(1, 2)) @ p["d1_w"] + p["d1_b"], 0.0)
        return (h1 @ p["d2_w"] + p["d2_b"])[:, 0]

    def probabilities(self, inputs: NDArray[np.float32]) -> NDArray[np.float32]:
        """(n, S, S, 5) inputs -> (n,) probabilities that a die is centred in each window."""
        x = np.asarray(inputs, np.float32)
        if len(x) == 0:
            return np.zeros(0, np.float32)
        out = np.zeros(len(x), np.float32)
        for p in self.members:
            out += 1.0 / (1.0 + np.exp(-self._logits(p, x)))
        return out / len(self.members)

    def judge(self, canon: Image, centres: list[tuple[float, float]], ppm: float) -> NDArray[np.float32]:
        """The probability of a die centred at each of ``centres`` (canonical mm) of ``canon``."""
        return self.probabilities(window_input(shrunk(windows(canon, centres, ppm), ppm)))


@lru_cache(maxsize=1)
def load_finder(path: Path = FIND_PATH) -> FinderModel | None:
    """The shipped model, or None if the file is absent."""
    return FinderModel.load(path)
