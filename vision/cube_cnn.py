"""A small learned reader of the doubling cube's face: crop -> (no cube face, 2, 4, 8, 16, 32, 64).

A convolutional network over the grey crop of the cube's top face (the face's centre in the middle,
the crop turned as the face's outline, ``CROP_SPAN`` face edges across), trained on faces drawn with
21 typeface families, filled, bold, outlined, engraved or slanted, seen by a drawn camera at 10-56
pixels per cube edge with defocus, motion blur, noise, JPEG, dim lamps and the cube's side faces (with
their numerals) in view (``benchmarks/train_cube.py``; families C059, URW Gothic, Linux Libertine,
Cantarell, Caladea, Lato, FreeSerif and OpenCV's Hershey faces held out, four more kept to choose among
variants: docs/dice-and-cube.md). It reads a numeral at any turn; the four quarter turns of the crop are read and averaged. Runs with OpenCV's ``dnn`` from ``cube_cnn.onnx``
next to this module; nothing is downloaded, torch is not needed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

MODEL_PATH = Path(__file__).with_name("cube_cnn.onnx")
CUBE_FACES = (2, 4, 8, 16, 32, 64)
CROP_SPAN = 1.25  # the crop's side, in face edges
INPUT_SIDE = 40


def cube_input(crop: NDArray[np.uint8]) -> NDArray[np.float32]:
    """(INPUT_SIDE, INPUT_SIDE) input of a square BGR (or grey) crop of any size: lightness relative
    to the face's own, 0 at its ivory and -1 at its ink (the middle's lightest and darkest), so that a
    faint numeral on a face beside dark wood keeps its contrast."""
    grey = crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, (INPUT_SIDE, INPUT_SIDE), interpolation=cv2.INTER_AREA).astype(np.float32)
    lo, hi = _MIDDLE_PERCENTILES(small[_M:-_M, _M:-_M].ravel())
    return np.clip((small - hi) / max(hi - lo, 12.0), -3.0, 1.5).astype(np.float32)


def _percentiles(*qs: float) -> Callable[[NDArray[np.float32]], list[float]]:
    """A function of a flat array of ``(INPUT_SIDE - 2 * _M) ** 2`` values giving its ``qs`` percentiles as
    ``np.percentile`` does (linear), from one partial sort: it runs for every crop, and ``np.percentile`` costs
    more than the rest of the crop's preparation."""
    n = (INPUT_SIDE - 2 * _M) ** 2
    at = [q / 100 * (n - 1) for q in qs]
    ks = sorted({int(np.floor(a)) for a in at} | {min(n - 1, int(np.floor(a)) + 1) for a in at})

    def f(values: NDArray[np.float32]) -> list[float]:
        part = np.partition(values, ks)
        return [float(part[int(np.floor(a))] + (a - np.floor(a)) * (part[min(n - 1, int(np.floor(a)) + 1)] - part[int(np.floor(a))])) for a in at]
    return f


_M = INPUT_SIDE // 4  # the middle the face's ivory and ink are judged on
_MIDDLE_PERCENTILES = _percentiles(3, 97)


class CubeReader:
    """The network, loaded once; ``probabilities`` of crops, each averaged over its quarter turns."""

    def __init__(self, path: Path = MODEL_PATH) -> None:
        self.net = cv2.dnn.readNetFromONNX(str(path))

    def probabilities(self, crops: list[NDArray[np.uint8]], turns: int = 4) -> NDArray[np.float32]:
        """(len(crops), 7): class 0 is 'no cube face', class k the face ``CUBE_FACES[k - 1]``; each crop read
        at its first ``turns`` quarter turns (1: a quarter of the cost, for sorting out where the face is)."""
        if not crops:
            return np.zeros((0, 7), np.float32)
        xs = [np.rot90(x, k) for x in map(cube_input, crops) for k in range(turns)]
        self.net.setInput(np.ascontiguousarray(np.stack(xs)[:, None], np.float32))
        z = self.net.forward().reshape(len(crops), turns, -1)
        e = np.exp(z - z.max(axis=2, keepdims=True))
        return (e / e.sum(axis=2, keepdims=True)).mean(axis=1).astype(np.float32)

    def read(self, crop: NDArray[np.uint8]) -> tuple[int | None, float]:
        """(face value or None when no cube face, probability of that value)."""
        p = self.probabilities([crop])[0]
        k = int(np.argmax(p[1:])) + 1
        return (CUBE_FACES[k - 1] if p[k] > p[0] else None), float(p[k])


@lru_cache(maxsize=1)
def load_cube_reader(path: Path = MODEL_PATH) -> CubeReader:
    return CubeReader(path)
