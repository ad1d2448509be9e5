"""A small convolutional judge of whether a die on the board is cocked: its look -> probability.

A die's look is the top-down window around its footprint (``LOOK_MM`` square, read at the dice's
resolution), turned so that the direction from the camera's foot to the die points down: a flat
die's side faces then show only at the look's top, as wide as the camera's parallax lifts its top
(``lift``, mm, given to the network beside the pixels); a cocked die shows the face it was tipped up
by on any side, often in shade, or a top foreshortened along its tilt. The network weighs those cues
together and is the reader's only judge of flat or cocked (outline rules that measured them one by one
failed as a class under soft focus, motion blur, hard shadows and dim lamps).

Four 3x3 convolution layers (ReLU, 2x2 max pooling after the first three, a mean over the last)
and two dense layers, run with NumPy only (im2col and one matrix product per layer), on the look's
grey level and colour relative to the die's own white and the outline a flat die there can show
(the hull of its top and base: what lies outside it is a cocked die's), at ``INPUT_SIDE`` pixels; each look is judged
as it is and mirrored about the camera's direction, and the two averaged. The weights live in
``cocked_cnn.json`` next to this module; ``benchmarks/bench_cocked_train.py`` fitted them on dice the
reader found on ``vision.render`` scenes drawn out of focus, moving, in hard shadow, dim and off-white (seeds listed there). Nothing is downloaded at run time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice_cnn import MemberModel, im2col3, maxpool2

COCKED_PATH = Path(__file__).with_name("cocked_cnn.json")
LOOK_MM = 32.0  # side of the window judged, mm: a cocked die's footprint and the board around it
INPUT_SIDE = 32
WHITE_SHARE = 0.375  # the middle share of the look whose light marks the die's own white
LIFT_SCALE = 5.0  # mm of parallax that map to 1.0


def die_look(raw: NDArray[np.uint8], centre: tuple[float, float], away: NDArray[np.float64], px_per_mm: float,
             flat_outline: NDArray[np.float64]) -> NDArray[np.uint8]:
    """The ``LOOK_MM`` square of ``raw`` (a top-down BGR view at ``px_per_mm``) centred on ``centre`` (pixels),
    turned so that ``away`` (unit vector from the camera's foot toward the die) points down, at ``INPUT_SIDE`` * 2
    pixels; its fourth channel is 255 inside the hull of ``flat_outline`` (pixels of ``raw``: the corners of
    the top and base a flat die there would show) and 0 outside."""
    side = 2 * INPUT_SIDE
    scale = side / (LOOK_MM * px_per_mm)
    turn = float(np.degrees(np.arctan2(away[1], away[0]))) - 90.0
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), turn, scale)
    m[:, 2] += np.array([side / 2 - centre[0], side / 2 - centre[1]])
    look = cv2.warpAffine(raw, m, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    hull = cv2.transform(np.asarray(flat_outline, np.float64).reshape(-1, 1, 2), m).reshape(-1, 2)
    mask = np.zeros((side, side), np.uint8)
    cv2.fillConvexPoly(mask, np.round(cv2.convexHull(hull.astype(np.float32)).reshape(-1, 2)).astype(np.int32), 255)
    return np.dstack([look, mask])


def look_input(look: NDArray[np.uint8]) -> NDArray[np.float32]:
    """(INPUT_SIDE, INPUT_SIDE, 5) network input of a :func:`die_look`: each colour channel over the die's white (the
    90th percentile of the look's middle, so a warm or cool lamp and a dim one look alike), as grey and the
    three channels' differences from it, and the flat die's outline (0 to 1)."""
    x = look.astype(np.float32)
    n = look.shape[0]
    a, b = int(round(n * (1 - WHITE_SHARE) / 2)), int(round(n * (1 + WHITE_SHARE) / 2))
    white = np.percentile(x[a:b, a:b, :3].reshape(-1, 3), 90, axis=0) + 1.0
    x = np.concatenate([np.minimum(x[..., :3] / white, 1.5), x[..., 3:] / 255.0], axis=2)
    x = cv2.resize(x, (INPUT_SIDE, INPUT_SIDE), interpolation=cv2.INTER_AREA)
    grey = x[..., :3].mean(axis=2, keepdims=True)
    return np.concatenate([grey, x[..., :3] - grey, x[..., 3:]], axis=2).astype(np.float32)


@dataclass(frozen=True)
class CockedModel(MemberModel):
    """The flat-or-cocked judge: an ensemble of small networks."""

    @staticmethod
    def _logits(p: dict[str, NDArray[np.float32]], x: NDArray[np.float32], lift: NDArray[np.float32]) -> NDArray[np.float32]:
        for name in ("c1", "c2", "c3", "c4"):
            n, h, w, _ = x.shape
            y = np.maximum(im2col3(x) @ p[name + "_w"] + p[name + "_b"], 0.0).reshape(n, h, w, -1)
            x = maxpool2(y) if name != "c4" else y
        features = np.concatenate([x.mean(axis=(1, 2)), lift[:, None] / LIFT_SCALE], axis=1)
        h1 = np.maximum(features @ p["d1_w"] + p["d1_b"], 0.0)
        return (h1 @ p["d2_w"] + p["d2_b"])[:, 0]

    def probabilities(self, inputs: NDArray[np.float32], lifts: NDArray[np.float32]) -> NDArray[np.float32]:
        """(n, INPUT_SIDE, INPUT_SIDE, 5) inputs and their (n,) lifts (mm) -> (n,) probabilities of a cocked die,
        each the mean of the input as it is and mirrored left to right."""
        x = np.asarray(inputs, np.float32)
        both = np.concatenate([x, x[:, :, ::-1]])
        lift = np.tile(np.asarray(lifts, np.float32), 2)
        out = np.zeros(len(both), np.float32)
        for p in self.members:
            out += 1.0 / (1.0 + np.exp(-self._logits(p, both, lift)))
        out /= len(self.members)
        return (out[:len(x)] + out[len(x):]) / 2

    def cocked(self, look: NDArray[np.uint8], lift: float) -> float:
        """The probability that the die seen in ``look`` (a :func:`die_look`) is cocked; ``lift``: how far (mm)
        the camera's parallax shifts a flat die's top there."""
        return float(self.probabilities(look_input(look)[None], np.array([lift], np.float32))[0])


@lru_cache(maxsize=1)
def load_cocked_model(path: Path = COCKED_PATH) -> CockedModel | None:
    """The shipped model, or None if the file is absent."""
    return CockedModel.load(path)
