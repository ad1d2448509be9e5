"""A small convolutional reader of die faces: crop -> (not a die, 1..6) probabilities.

Three 3x3 convolution layers (ReLU, 2x2 max pooling) and two dense layers, run with
NumPy only (im2col and one matrix product per layer). The input is relative to the face's own colour:
the Lab distance of each pixel from the face's median colour (pips stand out on white,
black or coloured dice alike), the z-scored lightness, the distance again divided by
its peak (contrast-normalised, for faint pips), and the signed a and b (colour) differences
from the face's colour (pips are all of one colour, a marbled die's swirls are not), at
``INPUT_SIDE`` pixels. A network reads the channels its ``inputs`` entry lists, else the first ones.
The weights live in ``dice_cnn.json`` next to this module (five networks, averaged); they were fitted by
``benchmarks/bench_dice_cnn_torch.py`` on the *train* split of the real dice photos and
on rendered white dice (never the held-out test split). Nothing is downloaded at run time.
"""

from __future__ import annotations

import base64
import json
from typing import Self
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

CNN_PATH = Path(__file__).with_name("dice_cnn.json")
GUARD_PATH = Path(__file__).with_name("dice_guard.json")  # a network of the same form fitted with hard negatives
INPUT_SIDE = 32
DIST_SCALE = 60.0  # Lab distance that maps to 1.0
PEAK_FLOOR = 8.0  # added to the peak distance before dividing by it (plain faces stay dark)
CHANNELS = 5  # of ``cnn_input``; a network reads those its ``inputs`` lists, else as many first ones as its first layer takes
CHROMA_SCALE = 40.0  # a or b difference that maps to 1.0
LAYERS = ("c1", "c2", "c3", "d1", "d2")


def cnn_input(face: NDArray[np.uint8]) -> NDArray[np.float32]:
    """(INPUT_SIDE, INPUT_SIDE, CHANNELS) input of an upright square BGR crop of a die's top face (any size).

    Channels: the Lab distance from the face's median colour (scaled by ``DIST_SCALE``), the
    z-scored lightness, and the same distance divided by its (smoothed) peak inside the face,
    so that faint pips on marbled or see-through dice look like clear ones, and the a and b
    differences from the face's colour, signed."""
    small = cv2.resize(face, (INPUT_SIDE, INPUT_SIDE), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    m = INPUT_SIDE // 8
    colour = np.median(lab[m:-m, m:-m].reshape(-1, 3), axis=0)
    dist = np.sqrt(((lab - colour) ** 2).sum(axis=2))
    light = lab[..., 0]
    light = (light - light.mean()) / (light.std() + 8.0)
    peak = float(cv2.GaussianBlur(dist, (0, 0), 1.0)[m:-m, m:-m].max())
    chroma = np.clip((lab[..., 1:] - colour[1:]) / CHROMA_SCALE, -3.0, 3.0)
    return np.concatenate([np.stack([np.minimum(dist / DIST_SCALE, 3.0), light, np.minimum(dist / (peak + PEAK_FLOOR), 2.0)], axis=2),
                           chroma], axis=2).astype(np.float32)


def im2col3(x: NDArray[np.float32]) -> NDArray[np.float32]:
    """(N, H, W, C) -> (N*H*W, 9*C): the 3x3 neighbourhoods of a zero-padded map, ordered (row, column, channel)."""
    n, h, w, c = x.shape
    xp = np.zeros((n, h + 2, w + 2, c), x.dtype)
    xp[:, 1:-1, 1:-1] = x
    windows = np.lib.stride_tricks.sliding_window_view(xp, (3, 3), axis=(1, 2))  # (n, h, w, c, 3, 3), no copy
    return np.ascontiguousarray(windows.transpose(0, 1, 2, 4, 5, 3)).reshape(n * h * w, 9 * c)  # one copy: 3-4x faster than concatenating


def maxpool2(x: NDArray[np.float32]) -> NDArray[np.float32]:
    return np.maximum(np.maximum(x[:, ::2, ::2], x[:, 1::2, ::2]), np.maximum(x[:, ::2, 1::2], x[:, 1::2, 1::2]))


def members_to_json(members: tuple[dict[str, NDArray[np.float32]], ...]) -> dict[str, object]:
    """An ensemble's weights as JSON: each array as its shape and little-endian float16 bytes in base64
    (the file stays small)."""
    def encode(a: NDArray[np.float32]) -> dict[str, object]:
        h = np.asarray(a, "<f2")
        return {"shape": list(h.shape), "f16": base64.b64encode(h.tobytes()).decode("ascii")}

    return {"members": [{k: encode(v) for k, v in p.items()} for p in members]}


def members_from_json(data: dict) -> tuple[dict[str, NDArray[np.float32]], ...]:
    """The weights :func:`members_to_json` wrote, as float32."""
    def decode(v: dict) -> NDArray[np.float32]:
        return np.frombuffer(base64.b64decode(v["f16"]), "<f2").reshape(v["shape"]).astype(np.float32)

    return tuple({k: decode(v) for k, v in p.items()} for p in data["members"])


@dataclass(frozen=True)
class MemberModel:
    """Weights of one or more networks (an ensemble whose probabilities are averaged): per layer a
    matrix (inputs, outputs) and a bias; conv layers take im2col rows."""

    members: tuple[dict[str, NDArray[np.float32]], ...]

    def to_json(self) -> dict[str, object]:
        return members_to_json(self.members)

    @classmethod
    def from_json(cls, data: dict) -> Self:
        return cls(members_from_json(data))

    @classmethod
    def load(cls, path: Path) -> Self | None:
        """The model saved at ``path``, or None if the file is absent."""
        if not path.exists():
            return None
        return cls.from_json(json.loads(path.read_text()))


@dataclass(frozen=True)
class ConvFaceModel(MemberModel):
    """The die-face reader: an ensemble of small networks."""

    @staticmethod
    def _logits(p: dict[str, NDArray[np.float32]], x: NDArray[np.float32]) -> NDArray[np.float32]:
        x = x[..., p["inputs"].astype(int)] if "inputs" in p else x[..., :p["c1_w"].shape[0] // 9]
        for name in ("c1", "c2", "c3"):
            n, h, w, _ = x.shape
            y = im2col3(x) @ p[name + "_w"] + p[name + "_b"]
            x = maxpool2(np.maximum(y, 0.0).reshape(n, h, w, -1))
        h1 = np.maximum(x.reshape(len(x), -1) @ p["d1_w"] + p["d1_b"], 0.0)
        return h1 @ p["d2_w"] + p["d2_b"]

    def probabilities(self, inputs: NDArray[np.float32]) -> NDArray[np.float32]:
        """(n, side, side, CHANNELS) inputs -> (n, 7) probabilities; class 0 is 'not a die face', k is value k."""
        x = np.asarray(inputs, np.float32)
        out = np.zeros((len(x), 7), np.float32)
        for p in self.members:
            z = self._logits(p, x)
            e = np.exp(z - z.max(axis=1, keepdims=True))
            out += e / e.sum(axis=1, keepdims=True)
        return out / len(self.members)

    def read(self, faces: list[NDArray[np.uint8]], turns: int = 8) -> NDArray[np.float32]:
        """Mean probabilities over all faces (crops of one die) and ``turns`` of the 8 quarter turns and mirrors."""
        return self.read_groups([faces], turns)[0]

    def read_groups(self, groups: list[list[NDArray[np.uint8]]], turns: int = 8) -> NDArray[np.float32]:
        """(len(groups), 7): ``read`` for several dice at once (one forward pass)."""
        if not groups:
            return np.zeros((0, 7), np.float32)
        xs = []
        for faces in groups:
            for face in faces:
                x = cnn_input(face)
                for k in range(turns):
                    r = np.rot90(x, k % 4)
                    xs.append(r[:, ::-1] if k >= 4 else r)
        probs = self.probabilities(np.stack(xs))
        sizes = np.cumsum([0] + [len(faces) * turns for faces in groups])
        return np.stack([probs[a:b].mean(axis=0) for a, b in zip(sizes[:-1], sizes[1:])])


@lru_cache(maxsize=1)
def load_cnn(path: Path = CNN_PATH) -> ConvFaceModel | None:
    """The shipped convolutional model, or None if the file is absent."""
    return ConvFaceModel.load(path)


@lru_cache(maxsize=1)
def load_die_guard(path: Path = GUARD_PATH) -> ConvFaceModel | None:
    """The die-or-not guard (``benchmarks/bench_dice_cnn_torch.py --negatives``: the train photos' candidates
    and drawn laptop keys, labels, side faces and parts of dice as 'not a die'), or None if absent."""
    return load_cnn.__wrapped__(path)
