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


def test_a_class_in_parts_takes_its_best_part_less_its_spread() -> None:
    """``class_loglik`` judges every part of a class at once: each part's likelihood, less what its spread
    costs, and the best of them, never below the floor."""
    from dataclasses import replace

    from vision.config import ReaderConfig
    from vision.read import class_loglik

    rng = np.random.default_rng(3)
    parts = [ColourClass((240.0, 122.0, 169.0), (20.0, 4.0, 5.0)), ColourClass((134.0, 159.0, 169.0), (14.0, 9.0, 4.0))]
    cal = type("Cal", (), {"classes": {"copper_0": parts[0], "copper_1": parts[1], "dark": ColourClass((60.0, 130.0, 140.0), (14.0, 4.0, 4.0))}})()
    cfg = replace(ReaderConfig(), spread_penalty=1.0)
    ref = np.log(np.asarray(cfg.min_std, np.float32))
    for shape in [(24, 390, 3), (90, 3), (1, 3)]:
        prof = (rng.random(shape) * 255).astype(np.float32)
        want = np.max([p.loglik(prof, cfg.loglik_floor) - np.float32(cfg.spread_penalty * float(np.maximum(np.log(np.asarray(p.std, np.float32)) - ref, 0).sum()))
                       for p in parts], axis=0)
        got = class_loglik(cfg, cal, "copper", prof)  # type: ignore[arg-type]
        assert got.shape == shape[:-1]
        np.testing.assert_array_equal(got, np.maximum(want, np.float32(cfg.loglik_floor)))
        np.testing.assert_array_equal(class_loglik(cfg, cal, "dark", prof), cal.classes["dark"].loglik(prof, cfg.loglik_floor))  # type: ignore[arg-type]
