"""The network that tells a cocked die the outline rules call flat (``vision/cocked.py``)."""

from __future__ import annotations

import numpy as np

from vision.cocked import INPUT_SIDE, LIFT_SCALE, LOOK_MM, CockedModel, die_look, load_cocked_model, look_input


def _random_model(seed: int, width: int = 4) -> CockedModel:
    rng = np.random.default_rng(seed)
    shapes = {"c1": (9 * 5, width), "c2": (9 * width, 2 * width), "c3": (9 * 2 * width, 2 * width),
              "c4": (9 * 2 * width, 4 * width), "d1": (4 * width + 1, 8), "d2": (8, 1)}
    p = {}
    for name, (n_in, n_out) in shapes.items():
        p[name + "_w"] = rng.normal(0.0, 1.0 / np.sqrt(n_in), (n_in, n_out)).astype(np.float32)
        p[name + "_b"] = rng.normal(0.0, 0.1, n_out).astype(np.float32)
    return CockedModel((p,))


def _plain_logit(p: dict[str, np.ndarray], x: np.ndarray, lift: float) -> float:
    """One input through the network by explicit 3x3 sums over a zero-padded map (no im2col)."""
    for name in ("c1", "c2", "c3", "c4"):
        h, w, c = x.shape
        kernel = p[name + "_w"].reshape(3, 3, c, -1)
        padded = np.pad(x, ((1, 1), (1, 1), (0, 0)))
        y = np.zeros((h, w, kernel.shape[3]))
        for dr in range(3):
            for dc in range(3):
                y += np.tensordot(padded[dr:dr + h, dc:dc + w], kernel[dr, dc], axes=([2], [0]))
        x = np.maximum(y + p[name + "_b"], 0.0)
        if name != "c4":
            x = x.reshape(h // 2, 2, w // 2, 2, -1).max(axis=(1, 3))
    features = np.concatenate([x.mean(axis=(0, 1)), [lift / LIFT_SCALE]])
    return float(np.maximum(features @ p["d1_w"] + p["d1_b"], 0.0) @ p["d2_w"][:, 0] + p["d2_b"][0])


def test_the_network_computes_what_plain_convolutions_do() -> None:
    model = _random_model(3)
    rng = np.random.default_rng(4)
    x = rng.normal(0.0, 1.0, (3, INPUT_SIDE, INPUT_SIDE, 5)).astype(np.float32)
    lifts = np.array([0.5, 4.0, 9.0], np.float32)
    got = model.probabilities(x, lifts)
    p = model.members[0]
    for k in range(3):
        plain = [_plain_logit(p, x[k], float(lifts[k])), _plain_logit(p, x[k][:, ::-1], float(lifts[k]))]
        want = np.mean([1.0 / (1.0 + np.exp(-z)) for z in plain])
        assert abs(got[k] - want) < 1e-5


def test_the_look_turns_the_camera_direction_down_and_draws_the_flat_outline() -> None:
    ppm = 2.0
    raw = np.full((200, 200, 3), 90, np.uint8)
    raw[98:103, 128:133] = 255  # a light spot 15 mm to the right of the centre (100, 100)
    outline = np.array([[90.0, 90.0], [110.0, 90.0], [110.0, 110.0], [90.0, 110.0]])  # 10 mm around the centre
    look = die_look(raw, (100.0, 100.0), np.array([1.0, 0.0]), ppm, outline)
    side = 2 * INPUT_SIDE
    assert look.shape == (side, side, 4)
    spot = np.argwhere(look[..., 0] > 200).mean(axis=0)  # (row, column)
    scale = side / LOOK_MM  # look pixels per mm
    assert abs(spot[0] - (side / 2 + 15 * scale)) < 1.5 and abs(spot[1] - side / 2) < 1.5
    inside = np.argwhere(look[..., 3] == 255)
    assert abs(inside[:, 0].min() - (side / 2 - 5 * scale)) <= 1 and abs(inside[:, 0].max() - (side / 2 + 5 * scale)) <= 1
    assert look[0, 0, 3] == 0


def test_the_input_is_relative_to_the_die_s_own_white() -> None:
    look = np.zeros((2 * INPUT_SIDE, 2 * INPUT_SIDE, 4), np.uint8)
    look[..., :3] = (200, 160, 120)  # a warm lamp's white
    look[20:30, 20:30, :3] = (100, 80, 60)  # shade at half the light
    dimmer = look.copy()
    dimmer[..., :3] = (look[..., :3] * 0.5).astype(np.uint8)  # the same under a dim lamp
    a, b = look_input(look), look_input(dimmer)
    assert a.shape == (INPUT_SIDE, INPUT_SIDE, 5)
    assert np.allclose(a, b, atol=0.02)
    assert abs(a[INPUT_SIDE - 1, INPUT_SIDE - 1, 0] - 1.0) < 0.02 and np.abs(a[INPUT_SIDE - 1, INPUT_SIDE - 1, 1:4]).max() < 0.02
    assert abs(a[12, 12, 0] - 0.5) < 0.03


def test_the_shipped_network_judges_a_look_and_its_mirror_alike() -> None:
    model = load_cocked_model()
    assert model is not None, "vision/cocked_cnn.json is missing"
    rng = np.random.default_rng(7)
    look = rng.integers(0, 256, (2 * INPUT_SIDE, 2 * INPUT_SIDE, 4)).astype(np.uint8)
    look[..., 3] = np.where(look[..., 3] > 128, 255, 0)
    p = model.cocked(look, 5.0)
    assert 0.0 <= p <= 1.0
    assert abs(p - model.cocked(look[:, ::-1].copy(), 5.0)) < 1e-6


def test_the_training_generator_draws_small_boards_only_when_asked() -> None:
    """``bench_cocked_train.py render --small``: about half the setups' boards fill 40-78% of the frame (the dice
    15-25 camera pixels an edge, where blur takes their pips); without it the camera's own fill stands."""
    from benchmarks.bench_cocked_train import widened_camera
    from vision.render import Camera

    cam = Camera(fill=0.9)
    small = [widened_camera(np.random.default_rng(k), cam, small=True).fill for k in range(200)]
    assert all(0.40 <= f <= 0.78 or f == 0.9 for f in small)
    assert 60 <= sum(f != 0.9 for f in small) <= 140
    assert {widened_camera(np.random.default_rng(k), cam).fill for k in range(50)} == {0.9}
