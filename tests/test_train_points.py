"""The counter's focused training generator (``benchmarks/train_points.py --focus-frames``) draws the classes it
is meant to: small boards seen obliquely, mostly under a dim lamp, lone checkers and rows of five to seven."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.train_points import TRAIN_LAMPS, random_camera, random_stacks


def test_focused_cameras_see_a_small_board_obliquely_mostly_dim() -> None:
    rng = np.random.default_rng(5)
    cams = [random_camera(rng, TRAIN_LAMPS, focus=True) for _ in range(300)]
    # a small board: 40-62% of the frame; oblique: 8-20 degrees off vertical
    assert all(0.40 <= c.fill <= 0.62 for c in cams)
    assert all(8.0 <= c.tilt_deg <= 20.0 for c in cams)
    # dim in 0.6 of frames, and half the rest drawn dim among the training lamps: 0.8 expected
    dim = sum(c.lamp == "dim" for c in cams) / len(cams)
    assert 0.7 < dim < 0.9


def test_focused_stacks_are_mostly_lone_checkers_and_rows_of_five_to_seven() -> None:
    rng = np.random.default_rng(6)
    stacks = [abs(n) for _ in range(200) for n in random_stacks(rng, wide=True, focus=True) if n]
    lone = sum(1 <= n <= 2 for n in stacks) / len(stacks)
    rows = sum(5 <= n <= 7 for n in stacks) / len(stacks)
    plain = [abs(n) for _ in range(200) for n in random_stacks(rng, wide=True) if n]
    # the wide generator's short stacks are 1-2 in about a fifth and 5-7 in about a quarter; focused, each more
    assert lone > 0.3 and lone > 1.5 * sum(1 <= n <= 2 for n in plain) / len(plain)
    assert rows > 0.3 and rows > 1.2 * sum(5 <= n <= 7 for n in plain) / len(plain)
    assert max(stacks) <= 15


def test_fine_tuning_starts_from_the_shipped_counter_as_opencv_runs_it() -> None:
    """``--init``: the shipped weights loaded into torch give what OpenCV's dnn gives for the same strips."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from benchmarks.train_points import load_onnx_weights
    from vision.point_strips import CLASSES, MODEL_PATH, NET_SIZE, _forward, load_point_net

    w, h = NET_SIZE
    x = np.random.default_rng(7).uniform(-1.0, 2.0, (24, 3, h, w)).astype(np.float32)
    with torch.no_grad():
        got = torch.softmax(load_onnx_weights(MODEL_PATH).eval()(torch.from_numpy(x)), 1).numpy()
    want = _forward(load_point_net(), x)
    assert got.shape == (24, CLASSES)
    assert np.abs(got - want).max() < 1e-4
