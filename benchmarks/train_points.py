"""Train the learned checker counter (``vision/point_counts.onnx``) on renders of the project's renderer.

    python -m benchmarks.train_points --wide --frames 1680 --plain-frames 840 --epochs 8   # the shipped weights
    nice python -m benchmarks.train_points   # the weights shipped before (seed 4, 840 plain frames, 5 epochs)
    python -m benchmarks.train_points --seed 1 --frames 40 --epochs 1   # a quick smoke run
    python -m benchmarks.train_points --seed 43 --wide --frames 120 --plain-frames 120 --focus-frames 240 \
        --epochs 4 --init vision/point_counts.onnx --lr 5e-4 --out ft1.onnx   # session 43's fine-tune (not shipped)

Every frame is a random installation (camera turned any way, tilted up to 20°, near or far; a lamp of
2700-5000 K or dim down to a fifth of the light, white balance off, shadows soft or hard, and in a third of
frames hard shadow bands across the board; noise, JPEG, defocus to 3 px, motion blur to 16 px) over random
stacks: each point empty or holding 1..15 checkers of either colour, or in a third of frames a crowded
board of piles of 6..15, piled in one of ``vision.render.STACKING``'s styles; in some frames an arm reaches
over the board, in others sleeves and dice cups of any colour lie partly over points. Truth is the scene
description's counts, and ``COVERED`` for a point an arm, a sleeve or a cup lies over. Strips are taken from
the renderer's painted plane (what the camera sees, parallax included) at the camera's resolution, lit by
its lamp, blurred, with noise and JPEG (``photograph_strips``: a third of a full render's time), shifted and
turned by a few mm and a degree as a calibration's fit is off, and bent as a lens the calibration measured
a little wrong (barrel or pincushion, more at the board's edges) would bend them.

The shipped weights (session 41, seed 4, the default) are 1680 frames of the widened generator and 840 of the
plain one, 8 epochs (`train` extra). ``--wide`` widens the generator where the dev split's points were in doubt (docs/learned-points.md): the board
filling 40-95% of the frame (in ``SMALL_SHARE`` of frames 40-62%), dim lamps down to a twelfth of the light
(``WIDE_DIM_GAIN``, the camera's noise up to twice in the dark), in ``WIDE_STYLE_SHARE`` of frames layers slid
as one piece or scattered (``vision.render.WIDE_STACKING``), and short stacks more often a row of five to nine
or one or two checkers. ``--plain-frames N`` adds N frames of the plain generator (the same seed's).
``--focus-frames N`` adds N frames of the focused generator (``focus``: the classes the dev split's points fail on, a
small board seen obliquely, mostly under a dim lamp, short stacks mostly one or two checkers or a row of five to
seven). ``--init`` continues from an exported counter's weights (fine-tuning, with a smaller ``--lr``).

Held out from training (and from any tuning), for ``benchmarks/bench_points.py`` to judge on:
the stacking style ``HELD_OUT_STYLE`` and the lamp ``HELD_OUT_LAMP``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import replace
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.board import Lens  # noqa: E402
from vision.geometry import BoardGeometry  # noqa: E402
from vision.geometry import point_axis  # noqa: E402
from vision.point_strips import CLASSES, COVERED, MODEL_PATH, NET_SIZE, STRIP_ALONG, STRIP_SIZE, cut_strips, strip_input, strip_maps  # noqa: E402
from vision.render import (  # noqa: E402
    STACKING,
    WIDE_STACKING,
    Camera,
    Palette,
    Scene,
    board_homography,
    paint_board,
    paint_scene,
    photograph,
    random_layout,
    random_palette,
    random_scene,
    with_arm,
)

HELD_OUT_STYLE = "towers"
HELD_OUT_LAMP = "cool"
TRAIN_STYLES = tuple(s for s in STACKING if s != HELD_OUT_STYLE)
TRAIN_LAMPS = ("warm", "dim")


def random_stacks(rng: np.random.Generator, wide: bool = False, focus: bool = False) -> tuple[int, ...]:
    """Each point empty (two in five) or 1..15 of one colour; in ``CROWDED_SHARE`` of frames a crowded
    board instead: two to eight piles of 6..15 (second and third layers, as a bear-in or a prime makes them)
    and the rest mostly empty or short. A point facing a pile past five is kept short (two such piles would
    overlap in the middle of the board). ``wide``: a short stack is more often a row of five to nine
(a full row and a second layer, the count most often in doubt) or one or two checkers (lone checkers
on either leather). ``focus``: the classes the counter fails on (``--focus``): a short stack is in four of ten
a lone checker or two and in four of ten a row of five to seven (five, and a sixth or seventh over it)."""
    pts = [0] * 24
    crowded = rng.random() < CROWDED_SHARE
    piles = set(rng.permutation(24)[:int(rng.integers(2, 9))].tolist()) if crowded else set()
    for p in rng.permutation(24):
        cap = 4 if abs(pts[23 - p]) > 5 else 15
        if p in piles and cap > 5:
            n = int(rng.integers(6, 16))
        elif rng.random() < (0.6 if crowded else 0.4):
            continue
        else:
            n = int(min(cap, rng.integers(1, 6 if crowded else 16)))
            draw = rng.random()
            if focus and cap > 5 and draw < 0.4:
                n = int(rng.integers(5, 8))
            elif focus and draw < 0.8:
                n = int(rng.integers(1, 3))
            elif wide and cap > 5 and rng.random() < 0.3:
                n = int(rng.integers(5, 10))
            elif wide and rng.random() < 0.15:
                n = int(rng.integers(1, 3))
        pts[p] = n if rng.random() < 0.5 else -n
    return tuple(pts)


CROWDED_SHARE = 0.35


def wide_palette(rng: np.random.Generator) -> Palette:
    """A set's materials over a wider range than ``vision.render.random_palette``: the field from dark walnut
    to light oak, leather (and so inlays) of any dark and any lighter shade, copper polished or tarnished."""
    def mix(a: tuple[float, float, float], b: tuple[float, float, float], t: float, jitter: float) -> tuple[float, float, float]:
        return tuple(float(np.clip((1 - t) * x + t * y + rng.normal(0, jitter), 0.02, 0.95)) for x, y in zip(a, b))  # type: ignore[return-value]

    dark_wood, light_wood = (0.10, 0.18, 0.28), (0.45, 0.62, 0.78)
    dark = tuple(float(v) for v in rng.uniform(0.03, 0.35) * rng.uniform(0.5, 1.2, 3))
    light = tuple(float(min(0.95, v)) for v in (np.asarray(dark) + rng.uniform(0.12, 0.45)) * rng.uniform(0.6, 1.3, 3))
    tarnish = rng.uniform(0.0, 0.6)
    copper = mix((0.33, 0.52, 0.80), (0.30, 0.36, 0.42), tarnish, 0.04)
    return Palette(walnut=mix(dark_wood, light_wood, rng.uniform(0, 1), 0.03), field=mix(dark_wood, light_wood, rng.uniform(0, 1), 0.03),
                   olive=dark, orange=light, copper=copper,  # type: ignore[arg-type]
                   table=tuple(float(v) for v in rng.uniform(0.1, 0.7) * rng.uniform(0.6, 1.2, 3)))  # type: ignore[arg-type]


def random_camera(rng: np.random.Generator, lamps: tuple[str, ...], wide: bool = False, focus: bool = False) -> Camera:
    """Wider than ``vision.render.random_camera``: any turn, tilt to 20°, the board filling 45-95%
    (``wide``: 40-95%, and in ``SMALL_SHARE`` of frames a small board, 40-62%). ``focus``: a small board
    (40-62%: checkers under 25 px across), seen obliquely (tilt 8-20°), under a dim lamp in
    ``FOCUS_DIM_SHARE`` of frames."""
    if focus:
        cam = random_camera(rng, lamps, wide=False)
        return replace(cam, fill=float(rng.uniform(0.40, 0.62)), tilt_deg=float(rng.uniform(8, 20)),
                       lamp="dim" if rng.random() < FOCUS_DIM_SHARE else cam.lamp)
    if not wide:
        fill = float(rng.uniform(0.45, 0.95))
    else:
        fill = float(rng.uniform(0.40, 0.62) if rng.random() < SMALL_SHARE else rng.uniform(0.40, 0.95))
    return Camera(
        tilt_deg=float(rng.uniform(0, 20)),
        tilt_azimuth_deg=float(rng.uniform(0, 360)),
        yaw_deg=float(rng.uniform(0, 360)),
        fill=fill,
        shift=(float(rng.uniform(-0.04, 0.04)), float(rng.uniform(-0.04, 0.04))),
        focal=float(rng.uniform(800, 1500)),
        barrel_k1=float(rng.uniform(0.0, 0.15)),
        lamp=str(rng.choice(lamps)),
        lamp_xy=(float(rng.uniform(0.0, 1.0)), float(rng.uniform(0.0, 1.0))),
        light_dir_deg=float(rng.uniform(0, 360)),
        # a small lamp near the board casts hard-edged, deep shadows; a big or far one soft, pale ones
        shadow_mm=float(rng.uniform(0.4, 2.0) if rng.random() < 0.5 else rng.uniform(2.0, 8.0)),
        shadow_depth=float(rng.uniform(0.15, 0.6)),
        noise=float(rng.uniform(1.0, 6.0)),
        jpeg_quality=int(rng.integers(60, 96)),
    )


LAMP_TINT = {"warm": (0.78, 0.92, 1.08), "cool": (1.08, 1.0, 0.9), "dim": (0.85, 0.9, 1.0)}  # as vision.render's lamps
LAMP_GAIN = {"warm": 1.05, "cool": 1.0, "dim": 0.5}
DIM_GAIN = (0.2, 0.6)  # a dim lamp's gain: from a dark room to a low lamp (the camera's noise stays the same)
WIDE_DIM_GAIN = (0.08, 0.6)  # ``wide``: down to a very dim room (drawn evenly in log), the camera's noise up to twice
SMALL_SHARE = 0.35  # ``wide``: frames of a small board (40-62% of the frame)
WIDE_STYLE_SHARE = 0.4  # ``wide``: frames piled slid or scattered (``vision.render.WIDE_STACKING``), else a trained style
FOCUS_DIM_SHARE = 0.6  # ``focus``: frames under a dim lamp (the rest warm, as ``TRAIN_LAMPS``)
NEUTRAL = (1.0, 1.0, 1.0)


def lamp_tint(rng: np.random.Generator, lamp: str) -> np.ndarray:
    """A lamp's colour (BGR): the warm lamp anywhere from a 2700 K bulb (``LAMP_TINT['warm']``) to a neutral
    5000 K one, the dim lamp as it is; then the camera's white balance off by up to 15% in blue and red."""
    if lamp == "warm":
        t = rng.uniform(0.0, 1.0)
        base = np.array(LAMP_TINT["warm"]) * (1 - t) + np.array(NEUTRAL) * t
    else:
        base = np.array(LAMP_TINT[lamp])
    wb = np.array([rng.uniform(0.85, 1.15), 1.0, rng.uniform(0.85, 1.15)]) if rng.random() < 0.5 else np.ones(3)
    return (base * wb).astype(np.float32)


def lens_bend(rng: np.random.Generator, mm: np.ndarray, geo: BoardGeometry) -> np.ndarray:
    """The strips' board millimetres bent radially about a spot near the board's centre, as a lens whose
    distortion the calibration measured a little wrong (either way: barrel or pincushion) misplaces them;
    a fourth-order term bends the board's edges (where a wide lens is least well measured) more."""
    c = np.array([geo.width / 2, geo.depth / 2]) + rng.normal(0, 40, 2)
    d = mm - c
    r2 = (d ** 2).sum(axis=-1, keepdims=True) / (geo.width / 2) ** 2
    return c + d * (1 + rng.uniform(-0.04, 0.04) * r2 + rng.uniform(-0.03, 0.03) * r2 ** 2)


def shadow_bands(rng: np.random.Generator, mm: np.ndarray, geo: BoardGeometry) -> np.ndarray:
    """A light field (the shape of ``mm`` less its last axis) with hard shadow bands across the board, as a
    lamp's arm, a window's frame or a player's shoulder cast them: one to three straight bands of any
    direction, 15-200 mm wide, each taking 20-70% of the light, their edges 0.5-12 mm soft."""
    field = np.ones(mm.shape[:-1], np.float32)
    for _ in range(int(rng.integers(1, 4))):
        a = rng.uniform(0, np.pi)
        n = np.array([np.cos(a), np.sin(a)])
        centre = np.array([rng.uniform(0, geo.width), rng.uniform(0, geo.depth)])
        d = (mm - centre) @ n  # signed distance from the band's middle line
        half, soft = rng.uniform(7.5, 100.0), rng.uniform(0.5, 12.0)
        inside = np.clip((half - np.abs(d)) / soft + 0.5, 0.0, 1.0)
        field *= (1.0 - rng.uniform(0.2, 0.7) * inside).astype(np.float32)
    return field


def blur_strips(rng: np.random.Generator, strips: np.ndarray, res: float) -> np.ndarray:
    """Defocus (Gaussian, up to 3 camera pixels) in some frames, motion blur (3-16 camera pixels, any
    direction) in others; ``res``: camera pixels per mm (a strip's pixel is about 1.3 mm)."""
    mm_px = (STRIP_ALONG[1] - STRIP_ALONG[0]) / STRIP_SIZE[1]
    out = strips
    if rng.random() < 0.5:
        sigma = rng.uniform(0.3, 3.0) / res / mm_px
        out = cv2.GaussianBlur(out, (0, 0), max(0.2, sigma))
    if rng.random() < 0.4:
        n = max(3, int(round(rng.uniform(3, 16) / res / mm_px)) | 1)
        k = np.zeros((n, n), np.float32)
        a = rng.uniform(0, np.pi)
        c = n // 2
        cv2.line(k, (int(round(c - c * np.cos(a))), int(round(c - c * np.sin(a)))),
                 (int(round(c + c * np.cos(a))), int(round(c + c * np.sin(a)))), 1.0, 1)
        out = cv2.filter2D(out, -1, k / k.sum())
    return out


def board_resolution(cam: Camera, geo: BoardGeometry) -> float:
    """Image pixels per mm of leather at the board's centre for ``cam``."""
    hom = board_homography(cam, geo)
    c = np.array([[[geo.width / 2, geo.depth / 2], [geo.width / 2 + 10, geo.depth / 2]]], np.float64)
    p = cv2.perspectiveTransform(c, hom)[0]
    return float(np.hypot(*(p[1] - p[0]))) / 10.0


def photograph_strips(rng: np.random.Generator, canvas: np.ndarray, cam: Camera, geo: BoardGeometry, layout: object,
                      jitter: np.ndarray, wide: bool = False) -> np.ndarray:
    """The strips a camera would give of ``canvas`` (vision.render's painted plane: what the camera sees, parallax
    and all, on the board's plane), without painting the whole photograph: the plane sampled at the camera's
    resolution, lit by its lamp (falloff and tint), with sensor noise and JPEG. 24 strips cost a whole frame's
    painting less than a third of the time a full render does."""
    from vision.point_strips import strip_grid
    from vision.render import MARGIN

    ppm = cam.px_per_mm
    mm = lens_bend(rng, strip_grid(geo, layout, jitter), geo)  # type: ignore[arg-type]
    res = board_resolution(cam, geo)  # the camera's pixels per mm: the strip is no sharper than that
    blur = cv2.GaussianBlur(canvas[..., :3], (0, 0), max(0.3, 0.5 * ppm / res))
    xs = ((mm[..., 0] + MARGIN) * ppm - 0.5).astype(np.float32)
    ys = ((mm[..., 1] + MARGIN) * ppm - 0.5).astype(np.float32)
    strips = cv2.remap(blur, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lx, ly = cam.lamp_xy[0] * geo.width + rng.normal(0, 60), cam.lamp_xy[1] * geo.depth + rng.normal(0, 60)
    r2 = ((mm[..., 0] - lx) ** 2 + (mm[..., 1] - ly) ** 2) / (geo.width * 1.6) ** 2
    noise = cam.noise
    if cam.lamp == "dim" and wide:
        level = float(np.exp(rng.uniform(*np.log(WIDE_DIM_GAIN))))
        noise *= 1.0 + rng.uniform(0, 1) * (0.6 - level) / 0.52  # a camera turns its gain up in the dark
    elif cam.lamp == "dim":
        level = rng.uniform(*DIM_GAIN)
    else:
        level = LAMP_GAIN[cam.lamp] * (1 + rng.uniform(-0.25, 0.25))
    gain = level / (1.0 + 1.2 * r2)
    if rng.random() < BAND_SHARE:
        gain = gain * shadow_bands(rng, mm, geo)
    strips = strips * (gain[..., None] * lamp_tint(rng, cam.lamp)) * 255.0
    strips = blur_strips(rng, strips.astype(np.float32), res)
    strips += rng.normal(0, noise, strips.shape)
    out = np.clip(strips, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(cam.jpeg_quality)])
    w, h = STRIP_SIZE
    return cv2.imdecode(buf, cv2.IMREAD_COLOR).reshape(24, h, w, 3)


def render_frames(seed: int, styles: tuple[str, ...], lamps: tuple[str, ...], per_board: int = 6,
                  wide: bool = False, focus: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``per_board`` frames of one random set (palette and textures): each its own camera, lamp and stacks;
    their strips (per_board * 24, h, w, 3) and the true signed counts (per_board * 24). ``wide``: the widened
    generator (``--wide``); ``focus``: the widened generator on the classes it fails on (``--focus``)."""
    wide = wide or focus
    rng = np.random.default_rng(seed)
    geo = BoardGeometry()
    pal = wide_palette(rng) if rng.random() < 0.7 else random_palette(rng)
    board = paint_board(rng, geo, pal, 2.0)
    strips, counts = [], []
    for _ in range(per_board):
        cam = random_camera(rng, lamps, wide, focus)
        layout = random_layout(rng)
        scene = random_scene(rng, layout, dice=rng.random() < 0.7, cube=rng.random() < 0.7)
        style = str(rng.choice(WIDE_STACKING)) if wide and rng.random() < WIDE_STYLE_SHARE else str(rng.choice(styles))
        scene = Scene(random_stacks(rng, wide, focus), (0, 0), layout, scene.dice, scene.cube, None, style)
        if rng.random() < ARM_SHARE:
            scene = with_arm(rng, scene)
        canvas = paint_scene(rng, scene, board, pal, cam, geo)
        covers = random_covers(rng, geo) if rng.random() < COVER_SHARE else []
        paint_covers(rng, canvas, covers, cam)
        # a calibration's fit: a few mm off, and a little turned
        shake = np.column_stack([rng.normal(0, 2.0, 24) + rng.normal(0, 1.5), rng.normal(0, 1.5, 24) + rng.normal(0, 1.0),
                                 rng.normal(0, math.radians(1.0), 24)])
        strips.append(photograph_strips(rng, canvas, cam, geo, layout, shake, wide))
        counts.append(labels_of(scene, geo, [c for c, _, _ in covers]))
    return np.concatenate(strips), np.concatenate(counts)


ARM_SHARE = 0.3  # frames with an arm over the board
BAND_SHARE = 0.35  # frames with hard shadow bands across the board
COVER_SHARE = 0.35  # frames with sleeves or cups over the board (besides the arm)
COVERED_FROM, COUNTED_UNDER = 0.12, 0.02  # share of a point's checkers' area under an arm: covered / still counted


Cover = tuple  # ("line", (x0, y0), (x1, y1), width) or ("disc", (x, y), radius): board mm


def scene_covers(scene: Scene) -> list[Cover]:
    """The scene's arm as :data:`Cover` shapes (as ``vision.render.paint_arm`` paints it: a forearm and a hand)."""
    if scene.arm is None:
        return []
    (a, b, width) = scene.arm
    return [("line", a, b, width), ("disc", b, width * 1.1 / 2)]


def random_covers(rng: np.random.Generator, geo: BoardGeometry) -> list[tuple[Cover, tuple[float, float, float], float]]:
    """Sleeves and cups over the board, partly over points: each shape, its colour (BGR) and how much texture
    (a sleeve's folds, a cup's leather). A sleeve reaches in from a side, 90-150 mm wide, of any cloth's colour;
    a dice cup (70-95 mm across) stands anywhere on the board, its colour anywhere from black to tan."""
    out: list[tuple[Cover, tuple[float, float, float], float]] = []
    for _ in range(int(rng.integers(1, 3))):
        colour = tuple(float(v) for v in rng.uniform(0.03, 0.85) * rng.uniform(0.5, 1.2, 3))
        if rng.random() < 0.5:
            side = int(rng.integers(4))
            x, y = float(rng.uniform(0, geo.width)), float(rng.uniform(0, geo.depth))
            start = [(x, -250.0), (x, geo.depth + 250), (-250.0, y), (geo.width + 250, y)][side]
            end = (float(rng.uniform(60, geo.width - 60)), float(rng.uniform(40, geo.depth - 40)))
            out.append((("line", start, end, float(rng.uniform(90, 150))), colour, 0.25))  # type: ignore[arg-type]
        else:
            c = (float(rng.uniform(0, geo.width)), float(rng.uniform(0, geo.depth)))
            out.append((("disc", c, float(rng.uniform(35, 48))), colour, 0.1))  # type: ignore[arg-type]
    return out


def _draw(mask: np.ndarray, cover: Cover, scale: float, off: float) -> None:
    """``cover`` filled into ``mask`` (1.0) at ``scale`` pixels per mm, board mm + ``off`` at pixel 0."""
    def px(xy: tuple[float, float]) -> tuple[int, int]:
        return int(round((xy[0] + off) * scale * 16)), int(round((xy[1] + off) * scale * 16))
    if cover[0] == "line":
        _, a, b, width = cover
        cv2.line(mask, px(a), px(b), 1.0, max(1, int(width * scale)), cv2.LINE_AA, 4)
    else:
        _, c, r = cover
        cv2.circle(mask, px(c), int(round(r * scale * 16)), 1.0, -1, cv2.LINE_AA, 4)


def paint_covers(rng: np.random.Generator, canvas: np.ndarray, covers: list[tuple[Cover, tuple[float, float, float], float]],
                 cam: Camera) -> None:
    """Paint ``covers`` over ``vision.render.paint_scene``'s canvas (in place): each shape in its colour, shaded
    round its edge and textured, a cup with its dark mouth, each casting a soft shadow on what lies beside it."""
    from vision.render import MARGIN

    ppm = cam.px_per_mm
    off = round(MARGIN * ppm) / ppm
    h, w = canvas.shape[:2]
    dx, dy = math.cos(math.radians(cam.light_dir_deg)), math.sin(math.radians(cam.light_dir_deg))
    for cover, colour, texture in covers:
        m = np.zeros((h, w), np.float32)
        _draw(m, cover, ppm, off)
        height = rng.uniform(30, 90)  # mm above the board: its shadow falls that far off, soft
        shadow = cv2.warpAffine(m, np.float32([[1, 0, dx * 0.4 * height * ppm], [0, 1, dy * 0.4 * height * ppm]]), (w, h))
        shadow = cv2.GaussianBlur(shadow, (0, 0), rng.uniform(3, 12) * ppm)
        canvas[..., :3] *= (1 - rng.uniform(0.3, 0.6) * shadow)[..., None]
        edge = cv2.GaussianBlur(m, (0, 0), rng.uniform(4, 12) * ppm)  # rounder at the edge: darker there
        grain = cv2.resize(rng.normal(0, 1, (max(2, h // 24), max(2, w // 24))).astype(np.float32), (w, h))
        layer = np.empty((h, w, 3), np.float32)
        layer[:] = colour
        layer *= np.clip((0.55 + 0.5 * edge) * (1 + texture * grain), 0.05, 2.0)[..., None]
        if cover[0] == "disc":  # a cup seen from above: its dark mouth inside the rim
            mouth = np.zeros((h, w), np.float32)
            _draw(mouth, ("disc", cover[1], cover[2] * rng.uniform(0.7, 0.85)), ppm, off)
            layer *= (1 - 0.8 * mouth)[..., None]
        a = np.clip(cv2.GaussianBlur(m, (0, 0), 0.7 * ppm) * 1.2, 0, 1)[..., None]
        canvas[..., :3] = canvas[..., :3] * (1 - a) + layer * a


def labels_of(scene: Scene, geo: BoardGeometry, covers: list[Cover] = ()) -> np.ndarray:  # type: ignore[assignment]
    """The 24 points' classes: their signed counts, ``COVERED`` (as +COVERED) where an arm, a sleeve or a cup
    (the scene's arm and ``covers``) hides at least ``COVERED_FROM`` of where the point's checkers lie (its
    first row's length, or one checker's if bare), and ``IGNORED`` where it hides a sliver (neither a clear
    count nor clearly covered: not trained on)."""
    out = np.array(scene.points, np.int64)
    shapes = scene_covers(scene) + list(covers)
    if not shapes:
        return out
    h, w = int(geo.depth + 500), int(geo.width + 500)
    mask = np.zeros((h, w), np.float32)
    off = 250
    for c in shapes:
        _draw(mask, c, 1.0, off)
    mask = (mask > 0.5).astype(np.uint8)
    r = geo.checker_diameter / 2
    for p in range(1, 25):
        (bx, by), (dx, dy) = point_axis(geo, scene.layout, p)
        n = abs(scene.points[p - 1])
        length = geo.checker_diameter * max(1, min(n, 5)) + (10.0 if n > 5 else 0.0)
        along, aside = np.meshgrid(np.arange(0, length, 2.0), np.arange(-r, r, 2.0), indexing="ij")
        xs = (bx + dx * along + dy * aside + off).astype(int)
        ys = (by + dy * along - dx * aside + off).astype(int)
        share = float(mask[ys.clip(0, h - 1), xs.clip(0, w - 1)].mean())
        if share >= COVERED_FROM:
            out[p - 1] = COVERED
        elif share > COUNTED_UNDER:
            out[p - 1] = IGNORED
    return out


IGNORED = 1000  # a label the loss leaves out


def render_frame(seed: int, styles: tuple[str, ...], lamps: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, Camera, Scene]:
    """One whole photograph (vision.render's full camera) and its strips cut through the true camera, for a look."""
    rng = np.random.default_rng(seed)
    geo = BoardGeometry()
    cam = random_camera(rng, lamps)
    pal = random_palette(rng)
    layout = random_layout(rng)
    scene = Scene(random_stacks(rng), (0, 0), layout, (), None, None, str(rng.choice(styles)))
    board = paint_board(rng, geo, pal, cam.px_per_mm)
    image = photograph(rng, paint_scene(rng, scene, board, pal, cam, geo), cam, pal, geo)
    w, h = cam.size
    lens = Lens(cam.barrel_k1, (w / 2.0, h / 2.0), float(max(w, h)))
    strips = cut_strips(image, strip_maps(lens, np.linalg.inv(board_homography(cam, geo)), geo, layout))
    return strips, np.array(scene.points, np.int64), image, cam, scene


def _render_one(args: tuple[int, tuple[str, ...], tuple[str, ...], Path | None, bool, bool]) -> tuple[np.ndarray, np.ndarray]:
    seed, styles, lamps, keep, wide, focus = args
    done = None if keep is None else keep / f"{seed}{'-focus' if focus else '-wide' if wide else ''}.npz"
    if done is not None and done.exists():
        data = np.load(done)
        return data["strips"], data["counts"]
    cv2.setNumThreads(1)
    strips, counts = render_frames(seed, styles, lamps, wide=wide, focus=focus)
    if done is not None:
        np.savez(done, strips=strips, counts=counts)
    return strips, counts


def render_set(seed: int, frames: int, styles: tuple[str, ...], lamps: tuple[str, ...], workers: int,
               keep: Path | None = None, wide: bool = False, focus: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """About ``frames`` frames' strips (frames * 24, h, w, 3), six frames to a set, and their classes;
    ``keep``: a directory where each set's strips are kept as made (and reused)."""
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
    jobs = [(seed * 1_000_003 + i, styles, lamps, keep, wide, focus) for i in range(max(1, frames // 6))]
    with ProcessPoolExecutor(workers) as pool:
        done = list(pool.map(_render_one, jobs))
    strips = np.concatenate([s for s, _ in done])
    # how many, whatever the colour; COVERED; -100 (the loss's ignore_index) for a sliver under an arm
    labels = np.array([-100 if abs(int(c)) == IGNORED else abs(int(c)) for _, cs in done for c in cs], np.int64)
    return strips, labels


def make_net(fused: bool = False):  # type: ignore[no-untyped-def]
    """The counter's layers; ``fused``: each convolution's batch norm folded into it (a bias), as the ONNX
    export stores them, so that shipped weights can be loaded and trained on (:func:`load_onnx_weights`)."""
    import torch.nn as nn

    def block(i: int, o: int, stride: int) -> list:
        if fused:
            return [nn.Conv2d(i, o, 3, stride, 1, bias=True), nn.ReLU(inplace=True)]
        return [nn.Conv2d(i, o, 3, stride, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    w, h = NET_SIZE
    return nn.Sequential(
        *block(3, 16, 2), *block(16, 32, 2), *block(32, 48, 2), *block(48, 64, 2),
        nn.Flatten(), nn.Dropout(0.2), nn.Linear(64 * math.ceil(h / 16) * math.ceil(w / 16), 96), nn.ReLU(inplace=True),
        nn.Linear(96, CLASSES),
    )


def load_onnx_weights(path: Path):  # type: ignore[no-untyped-def]
    """``make_net(fused=True)`` with the weights of an exported counter (``vision/point_counts.onnx``): its
    initialisers in the order of the layers (convolutions' weight and bias, then the two linear layers')."""
    import onnx
    import torch
    from onnx import numpy_helper

    model = onnx.load(str(path))
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    tensors = []
    for node in model.graph.node:
        if node.op_type in ("Conv", "Gemm"):
            tensors += [inits[name] for name in node.input[1:]]
    net = make_net(fused=True)
    params = list(net.parameters())
    if len(params) != len(tensors):
        raise SystemExit(f"{path}: {len(tensors)} weight tensors, the counter has {len(params)}")
    with torch.no_grad():
        for prm, t in zip(params, tensors):
            if t.shape != tuple(prm.shape) and t.T.shape == tuple(prm.shape):
                t = t.T  # a Gemm stored with its weight transposed
            prm.copy_(torch.from_numpy(np.array(t, np.float32)))
    return net


def augment(rng: np.random.Generator, x: np.ndarray) -> np.ndarray:
    """Mirror across the centre line; then colours scrambled so the count is learnt from shapes: the channels
    shuffled and mixed, each through a random tone curve (a light field or a dark one, checkers lighter or darker
    than it), a colour cast and contrast."""
    x = x.copy()
    n = len(x)
    flip = rng.random(n) < 0.5
    x[flip] = x[flip][..., ::-1]
    mix = np.stack([np.eye(3)[rng.permutation(3)] for _ in range(n)]) * rng.uniform(0.5, 1.0, (n, 1, 1))
    mix += rng.uniform(0.0, 0.5, (n, 3, 3)) / 3.0
    x = np.einsum("nij,njhw->nihw", mix.astype(np.float32), x)
    knots = np.linspace(-1.0, 3.0, 6)
    for i in np.flatnonzero(rng.random(n) < 0.6):  # a tone curve through random levels, per strip
        levels = np.sort(rng.uniform(-1.0, 2.0, 6)) if rng.random() < 0.5 else rng.uniform(-1.0, 2.0, 6)
        x[i] = np.interp(x[i], knots, levels).astype(np.float32)
    gain = rng.uniform(0.7, 1.3, (n, 3, 1, 1)).astype(np.float32)
    return ((x + 1.0) * gain - 1.0 + rng.normal(0, 0.04, x.shape)).astype(np.float32)


def train(x: np.ndarray, y: np.ndarray, seed: int, epochs: int, threads: int, init: Path | None = None,
          lr: float = 3e-3) -> object:
    """A counter trained on strips ``x`` (``strip_input``) and classes ``y``; ``init``: continued from an exported
    counter's weights (fine-tuning: give a smaller ``lr``)."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    rng = np.random.default_rng(seed)
    net = make_net() if init is None else load_onnx_weights(init)
    opt = torch.optim.AdamW(net.parameters(), lr * 2 / 3, weight_decay=1e-4)
    steps = epochs * math.ceil(len(x) / 64)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=steps)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.02)
    for epoch in range(epochs):
        net.train()
        order = rng.permutation(len(x))
        total, right, t0 = 0.0, 0, time.time()
        for i in range(0, len(x), 64):
            idx = order[i:i + 64]
            xb = torch.from_numpy(augment(rng, x[idx]))
            yb = torch.from_numpy(y[idx])
            out = net(xb)
            loss = loss_fn(out, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            right += int((out.argmax(1) == yb).sum())  # an ignored strip counts as missed
        print(f"epoch {epoch + 1}: loss {total / len(x):.3f}, train accuracy {right / len(x):.4f} ({time.time() - t0:.0f} s)", flush=True)
    return net.eval()


def export(net: object, path: Path) -> None:
    import torch

    w, h = NET_SIZE
    torch.onnx.export(net, torch.zeros(24, 3, h, w), str(path), input_names=["strips"], output_names=["logits"],
                      dynamic_axes={"strips": {0: "n"}, "logits": {0: "n"}}, opset_version=13, dynamo=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--frames", type=int, default=840, help="rendered frames (24 strips each)")
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--workers", type=int, default=2, help="processes rendering")
    ap.add_argument("--threads", type=int, default=2, help="torch threads")
    ap.add_argument("--keep", type=Path, default=None, help="keep each rendered set's strips in this directory (reused if present)")
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    ap.add_argument("--wide", action="store_true", help="the widened generator: small boards, very dim lamps, slid and "
                    "scattered layers, more rows of five to nine and lone checkers")
    ap.add_argument("--plain-frames", type=int, default=0, help="with --wide: as many frames again of the plain generator")
    ap.add_argument("--focus-frames", type=int, default=0, help="as many frames again of the focused generator: small "
                    "boards seen obliquely, mostly dim, lone checkers and rows of five to seven")
    ap.add_argument("--init", type=Path, default=None, help="continue from this exported counter's weights")
    ap.add_argument("--lr", type=float, default=3e-3, help="the peak learning rate (one cycle)")
    args = ap.parse_args(argv)
    t0 = time.time()
    strips, labels = render_set(args.seed, args.frames, TRAIN_STYLES, TRAIN_LAMPS, args.workers, args.keep, args.wide)
    if args.wide and args.plain_frames:
        more = render_set(args.seed, args.plain_frames, TRAIN_STYLES, TRAIN_LAMPS, args.workers, args.keep, False)
        strips, labels = np.concatenate([strips, more[0]]), np.concatenate([labels, more[1]])
    if args.focus_frames:
        more = render_set(args.seed, args.focus_frames, TRAIN_STYLES, TRAIN_LAMPS, args.workers, args.keep, focus=True)
        strips, labels = np.concatenate([strips, more[0]]), np.concatenate([labels, more[1]])
    print(f"rendered {args.frames} frames, {len(strips)} strips in {time.time() - t0:.0f} s", flush=True)
    net = train(strip_input(strips), labels, args.seed, args.epochs, args.threads, args.init, args.lr)
    export(net, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
