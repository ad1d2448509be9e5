"""The dice-network trainer's ``--init``: a fold's network is continued from the model file's network for that fold
(the shipped file holds one network per cross-validation fold, fitted without it), with the channels it reads."""

from __future__ import annotations

import json
from argparse import Namespace
from pathlib import Path

import numpy as np

from benchmarks.bench_dice_cnn_train import start_params
from vision.dice_cnn import ConvFaceModel


def _member(bias: float, inputs: list[int] | None) -> dict[str, np.ndarray]:
    """A network of the reader's shape whose every weight is ``bias`` (told apart by it), reading ``inputs``."""
    shapes = {"c1": (9 * (len(inputs) if inputs else 3), 2), "c2": (18, 2), "c3": (18, 2), "d1": (2 * 36, 4), "d2": (4, 7)}
    p = {}
    for name, (i, o) in shapes.items():
        p[name + "_w"] = np.full((i, o), bias, np.float32)
        p[name + "_b"] = np.full(o, bias, np.float32)
    if inputs:
        p["inputs"] = np.array(inputs, np.float32)
    return p


def test_a_fold_continues_its_own_network_and_keeps_its_channels(tmp_path: Path) -> None:
    model = tmp_path / "m.json"
    model.write_text(json.dumps(ConvFaceModel((_member(0.25, [0, 1, 3, 4]), _member(0.5, [0, 1, 3, 4]), _member(0.75, None))).to_json()))
    rng = np.random.default_rng(0)
    p, inputs = start_params(Namespace(init=model, folds=5, fold=1), rng)
    assert inputs == [0, 1, 3, 4]
    assert "inputs" not in p  # not a weight to fit
    assert p["c1_w"].shape == (36, 2) and np.all(p["c1_w"] == 0.5) and np.all(p["d2_b"] == 0.5)
    p, inputs = start_params(Namespace(init=model, folds=5, fold=2), rng)
    assert inputs == [0, 1, 2] and np.all(p["d1_w"] == 0.75)  # no inputs stored: the first ones, as many as c1 takes


def test_without_init_a_network_is_drawn_afresh() -> None:
    args = Namespace(init=None, widths=(16, 32, 64), dense=64, channels=2)
    p, inputs = start_params(args, np.random.default_rng(0))
    assert inputs == [0, 1]
    assert p["c1_w"].shape == (18, 16) and p["d2_w"].shape == (64, 7)
