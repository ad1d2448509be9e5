"""Colour classes of the set: copper learnt in parts, and broad classes paying for their spread."""

from __future__ import annotations

import numpy as np

from vision.calibrate import colour_parts
from vision.profiles import ColourClass

MIN_STD = (14.0, 4.0, 4.0)


def test_copper_splits_into_highlight_lit_and_shade() -> None:
    rng = np.random.default_rng(5)
    centres = np.array([[240, 122, 169], [187, 158, 175], [134, 159, 169]], np.float32)
    px = np.concatenate([c + rng.normal(0, [8, 3, 3], (400, 3)) for c in centres]).astype(np.float32)
    parts = colour_parts(rng.permutation(px), 3, MIN_STD)
    means = sorted((p.mean for p in parts), key=lambda m: m[0])
    assert len(parts) == 3
    for got, want in zip(means, sorted(centres.tolist(), key=lambda m: m[0])):
        assert np.abs(np.asarray(got) - want).max() < 4
    # each part is as tight as its cluster, far tighter than one class over all three
    whole = ColourClass.fit(px, MIN_STD)
    assert all(p.std[0] < whole.std[0] / 2 for p in parts)


def test_too_few_pixels_make_fewer_parts() -> None:
    px = np.array([[100, 128, 128]] * 4, np.float32)
    assert len(colour_parts(px, 3, MIN_STD)) >= 1
