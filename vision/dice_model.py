"""A small learned reader of die faces: crop -> (not a die, 1..6) probabilities.

A two-layer perceptron (NumPy forward pass only) over a colour-agnostic picture of the
face: the Lab distance of each pixel from the face's median colour (pips stand out on
white, black or coloured dice alike) plus the z-scored lightness. The weights live in
``dice_model.json`` next to this module; they were fitted by
``benchmarks/bench_dice_train.py`` on the *train* split of the real dice photos only
(never the held-out test split). Nothing is downloaded at run time.

``vision.dice.read_dice`` uses it to drop candidate regions that are no die faces and to
order overlapping proposals; the values of the dice it keeps are read by the convolutional
reader in ``vision.dice_cnn`` when that ships.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.dice_config import DiceConfig, count_pips

MODEL_PATH = Path(__file__).with_name("dice_model.json")
DIST_SIDE = 20  # side of the distance map fed to the model
LIGHT_SIDE = 12  # side of the lightness map
DIST_SCALE = 60.0  # Lab distance that maps to 1.0


def face_features(face: NDArray[np.uint8]) -> NDArray[np.float32]:
    """Feature vector of an upright square crop of a die's top face (any size, BGR)."""
    lab = cv2.cvtColor(face, cv2.COLOR_BGR2LAB).astype(np.float32)
    side = face.shape[0]
    m = max(1, side // 8)
    colour = np.median(lab[m:side - m, m:side - m].reshape(-1, 3), axis=0)
    dist = np.sqrt(((lab - colour) ** 2).sum(axis=2))
    d = cv2.resize(dist, (DIST_SIDE, DIST_SIDE), interpolation=cv2.INTER_AREA) / DIST_SCALE
    light = cv2.resize(lab[..., 0], (LIGHT_SIDE, LIGHT_SIDE), interpolation=cv2.INTER_AREA)
    light = (light - light.mean()) / (light.std() + 8.0)
    stats = np.array([colour[0] / 255.0, (colour[1] - 128) / 64.0, (colour[2] - 128) / 64.0], np.float32)
    return np.concatenate([np.clip(d, 0, 3).ravel(), light.ravel(), stats, _pip_votes(face)]).astype(np.float32)


def _pip_votes(face: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The classical pip count (one-hot, 0 = unreadable) times its confidence, at a few pip sizes."""
    votes = []
    for sigma in (0.04, 0.05, 0.07):
        value, conf, _ = count_pips(DiceConfig(pip_sigma=sigma), cv2.resize(face, (48, 48)))
        one = np.zeros(7, np.float32)
        one[0 if value is None else value] = 0.5 + 0.5 * conf
        votes.append(one)
    return np.concatenate(votes)


@dataclass(frozen=True)
class FaceModel:
    """Weights of the perceptron: standardisation, one hidden ReLU layer, softmax over 7 classes."""

    mean: NDArray[np.float32]
    std: NDArray[np.float32]
    w1: NDArray[np.float32]
    b1: NDArray[np.float32]
    w2: NDArray[np.float32]
    b2: NDArray[np.float32]

    def probabilities(self, features: NDArray[np.float32]) -> NDArray[np.float32]:
        """(n, d) features -> (n, 7) probabilities; class 0 is 'not a die face', k is value k."""
        x = (np.atleast_2d(features) - self.mean) / self.std
        h = np.maximum(x @ self.w1 + self.b1, 0.0)
        z = h @ self.w2 + self.b2
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)

    def to_json(self) -> dict[str, object]:
        """Each array as its shape and little-endian float16 bytes in base64 (the file stays small)."""
        out: dict[str, object] = {}
        for k in ("mean", "std", "w1", "b1", "w2", "b2"):
            a = np.asarray(getattr(self, k), "<f2")
            out[k] = {"shape": list(a.shape), "f16": base64.b64encode(a.tobytes()).decode("ascii")}
        return out

    @classmethod
    def from_json(cls, data: dict[str, dict]) -> "FaceModel":
        arr = {k: np.frombuffer(base64.b64decode(v["f16"]), "<f2").reshape(v["shape"]).astype(np.float32)
               for k, v in data.items() if k in ("mean", "std", "w1", "b1", "w2", "b2")}
        return cls(**arr)


@lru_cache(maxsize=1)
def load_face_model(path: Path = MODEL_PATH) -> FaceModel | None:
    """The shipped model, or None if the file is absent (``read_dice`` then stops with a message to reinstall)."""
    if not path.exists():
        return None
    return FaceModel.from_json(json.loads(path.read_text()))
