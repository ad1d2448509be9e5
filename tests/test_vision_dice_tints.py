"""Dice of another white: ivory dice, yellower than the cube the calibration learned its white from, under a
warm or a dim lamp (seeded renders of the product's own generator; the truth is the scene's)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import lru_cache

import numpy as np
import pytest

from vision import BoardReader, CalibrationConfig, calibrate
from vision.config import ReaderConfig
from vision.render import DIE_WHITE, IVORY_DICE, random_scene, random_setup, render


@lru_cache(maxsize=2)
def _ivory_frame(seed: int, frame: int) -> tuple[BoardReader, np.ndarray, dict]:
    setup = random_setup(np.random.default_rng(seed))
    start, _ = render(random_scene(np.random.default_rng(seed + 1), setup.layout, start=True), setup, seed + 1)
    reader = BoardReader(calibrate(CalibrationConfig(), start))
    scene = random_scene(np.random.default_rng(seed + 2 + frame), setup.layout)
    assert len(scene.dice) == 2
    scene = replace(scene, dice=tuple(replace(d, colour=IVORY_DICE[k]) for k, d in enumerate(scene.dice)))
    image, truth = render(scene, setup, seed + 2 + frame)
    return reader, image, truth


def _dice(reading: dict) -> Counter:
    return Counter((d["value"], d["flat"], d["half"]) for d in reading["dice"])


@pytest.mark.parametrize(("seed", "frame"), [(7002, 1), (7004, 1)])  # a warm lamp; a dim one
@pytest.mark.slow  # seconds each: in the slow step (a known miss since session 36; read again since the dice finder, s38)
def test_ivory_dice_are_found_and_read(seed: int, frame: int) -> None:
    reader, image, truth = _ivory_frame(seed, frame)
    assert _dice(reader(image).to_json()) == _dice(truth)


@pytest.mark.slow  # seconds each (calibration tries more fits since s37): in the slow step, keeping the default suite under 4 minutes
def test_the_grey_test_alone_misses_an_ivory_die_the_finder_still_finds() -> None:
    # without the tinted look the light-blob rules see one ivory die of the two under the dim lamp; the network of
    # vision.dice_find, which looks where the rules found no die, finds the other
    reader, image, truth = _ivory_frame(7004, 1)
    grey_only = BoardReader(reader.cal, replace(ReaderConfig(), die_max_chroma=0.0))
    assert sum(_dice(grey_only(image).to_json()).values()) == sum(_dice(truth).values())


def test_ivory_tints_are_yellower_than_white() -> None:
    # BGR: less blue than red, as aged bone or ivory is; the plain die stays near grey
    for b, g, r in IVORY_DICE:
        assert b < g < r and r - b >= 0.15
    assert max(DIE_WHITE) - min(DIE_WHITE) < 0.05
