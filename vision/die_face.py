"""A die's value from its top face: the value stage meant for both dice readers.

Input: crops of one die's top face, each an upright square (the face filling 0.7 to 1.0 of it, any size,
BGR); ``bgref dice`` (:func:`vision.dice.read_dice`) cuts them from a free photo round the face it found.
Output: a :class:`FaceValue`, the convolutional face reader's (:mod:`vision.dice_cnn`) probabilities of
"no die's face" and of each value, averaged over the crops and their quarter turns and mirrors.

The board reader (:func:`vision.dice_board.read_die`) does not call it yet: the shipped network, fitted on
photos of large dice, reads the board camera's small dice worse than the board's pip fit does
(docs/dice-and-cube.md, "One value stage, and which reader it holds"); it will once a network trained
with the board's dice too (``bench_dice_cnn_train.py --seen``) reads them at least as well.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.dice_cnn import CNN_PATH, load_cnn
from vision.errors import VisionError

Image = NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class FaceValue:
    """What the face reader makes of one die's top face: the probability it is no die's face at all, and of each
    value 1..6 (the seven sum to 1)."""

    probabilities: tuple[float, float, float, float, float, float, float]

    @property
    def value(self) -> int:
        """The likeliest value, 1..6."""
        return int(np.argmax(self.probabilities[1:])) + 1

    @property
    def confidence(self) -> float:
        """How sure of :attr:`value` among the six values (0..1), whether or not it is a die's face."""
        return self.probabilities[self.value] / max(sum(self.probabilities[1:]), 1e-9)

    @property
    def not_die(self) -> float:
        """The probability that the crops show no die's face."""
        return self.probabilities[0]

    @property
    def sureness(self) -> float:
        """The likeliest value's own probability: high only on a whole face, surely a die's (half a die, or a die
        with its shadow, is read less surely)."""
        return max(self.probabilities[1:])


def read_faces(groups: list[list[Image]], turns: int) -> list[FaceValue]:
    """One :class:`FaceValue` per die, each from its crops (a list of upright square BGR crops of its top face),
    each crop read at ``turns`` of its 8 quarter turns and mirrors; all dice in one forward pass."""
    model = load_cnn()
    if model is None:
        raise VisionError(f"the die-face network {CNN_PATH.name} is missing beside vision/dice_cnn.py: reinstall bgref")
    return [FaceValue(tuple(float(p) for p in row)) for row in model.read_groups(groups, turns)]  # type: ignore[arg-type]


def read_face(faces: list[Image], turns: int = 8) -> FaceValue:
    """:func:`read_faces` of one die."""
    return read_faces([faces], turns)[0]
