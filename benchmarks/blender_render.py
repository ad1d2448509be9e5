"""Photoreal images of seeded scenes of the set, rendered by Blender (Cycles, CPU), with their true readings.

    .venv/bin/python benchmarks/blender_render.py --out /tmp/blender_bench [--setups 10] [--frames 6]
        [--arms 1] [--seed 20261121] [--samples 16] [--jpeg-quality Q]
    # the committed fixture set:
    .venv/bin/python benchmarks/blender_render.py --single 5016 --frames 3 --arms 1 --jpeg-quality 85 \
        --out tests/data/vision_blender

Setups and scenes are drawn exactly as ``benchmarks/bench_vision.py`` draws them, with
``vision.render``'s generators (``random_setup``, ``random_scene``, ``with_arm``): setup ``k``
uses seed ``seed + 1000 k``, its start position ``seed + 1``, frame ``f`` ``seed + 2 + f``. This
script turns each scene into 3D poses (millimetres; checker centres from
``vision.geometry``), writes a job file, runs ``benchmarks/blender/scene.py`` inside Blender
(``nice -n 10``, one Blender process per setup), then photographs the result: barrel
distortion (the setup's ``k1``, the model of ``vision.board.Lens``), vignetting, sensor noise
and JPEG.

Writes ``<out>/setupNN/start.jpg``, ``frameNN.jpg`` (``armNN.jpg``) and ``truth.json``: per
image the true reading (``Scene.reading()``) plus each die's canonical mm and where its
centre lands in the image (``dice_px``), for matching dice in ``bench_vision_blender.py``.

Only the 3D side moves things the flat renderer need not care about: a die that would cut
into a checker, the bar or the frame is slid clear, and a cocked die is moved to lean on the
nearest checker (or the frame); the truth records where it ended up (its half never changes).
Blender is needed here, never by the tests.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from vision.board import Lens
from vision.geometry import BoardGeometry, bar_centre, checker_centre, half_of
from vision.numerals import numeral_mask
from vision.render import (
    CUBE_IVORY,
    DIE_WHITE,
    PIP,
    PIP_LAYOUT,
    SKIN,
    Camera,
    Scene,
    Setup,
    random_scene,
    random_setup,
    with_arm,
)

SCENE_SCRIPT = Path(__file__).resolve().parent / "blender" / "scene.py"
GEO = BoardGeometry()

# heights of the physical set (mm above the field's wood); the geometry module has only the plan
FRAME_HEIGHT = 12.0
BAR_HEIGHT = 10.0
BASE = 8.0  # the board's bottom below the field: the table is at -BASE
LEATHER = 0.4
BEVEL = 2.5
INLAY_SHARE = 0.70  # the inlay's radius / the checker's (vision.config rim_inner)
CUBE_FACES = {2: (0, 0, 1), 4: (0, 1, 0), 8: (1, 0, 0), 16: (-1, 0, 0), 32: (0, -1, 0), 64: (0, 0, -1)}
DIE_FACES = {1: (0, 0, 1), 6: (0, 0, -1), 2: (0, 1, 0), 5: (0, -1, 0), 3: (1, 0, 0), 4: (-1, 0, 0)}
LAMP_WATTS = 8.0  # area lamp power per m^2 of distance: about 2.5 W/m^2 on the board, white dice just below clipping
AMBIENT = 0.3  # the room (world) light: shadows keep about a sixth of the light
LAMPS = {  # colour (linear RGB), power W of the area lamp, room light strength
    "warm": ((1.0, 0.74, 0.50), 1.0, 1.0),
    "cool": ((0.80, 0.90, 1.0), 1.0, 1.0),
    "dim": ((1.0, 0.80, 0.62), 0.5, 0.5),
}


def linear_rgb(bgr: tuple[float, float, float]) -> list[float]:
    """A display colour of vision.render (BGR, 0..1) as a linear RGB albedo."""
    return [float(np.clip(c, 0, 1)) ** 2.2 for c in (bgr[2], bgr[1], bgr[0])]


# ----------------------------------------------------------------------------- frames and the camera


def to_world(xy: tuple[float, float], h: float = 0.0) -> list[float]:
    """Canonical plane mm (renderer's frame) and a height -> Blender world mm (board centred, y up the image's -y)."""
    return [float(xy[0] - GEO.width / 2), float(-(xy[1] - GEO.depth / 2)), float(h)]


def world_to_canonical3(p: np.ndarray) -> np.ndarray:
    """World mm -> canonical 3D (x, y on the plane, z = -height: the camera's right-handed frame)."""
    p = np.atleast_2d(np.asarray(p, np.float64))
    return np.column_stack([p[:, 0] + GEO.width / 2, -p[:, 1] + GEO.depth / 2, -p[:, 2]])


class CameraModel:
    """The setup's camera as a real pinhole: its pose (tilt, azimuth, yaw as in vision.render), focal in
    pixels, principal point at the image centre, distance chosen so the board spans ``fill`` of the image."""

    def __init__(self, cam: Camera) -> None:
        w, h = cam.size
        t_, az, yaw = (math.radians(v) for v in (cam.tilt_deg, cam.tilt_azimuth_deg, cam.yaw_deg))
        rz = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]])
        rt, _ = cv2.Rodrigues(np.array([math.cos(az), math.sin(az), 0.0]) * t_)
        self.rot = rt @ rz
        self.size = (w, h)
        self.f = float(cam.focal)
        self.c = np.array([w / 2.0, h / 2.0])
        self.centre3 = np.array([GEO.width / 2, GEO.depth / 2, 0.0])
        self.lens = Lens(float(cam.barrel_k1), (w / 2.0, h / 2.0), float(max(w, h)))
        self.t = np.array([0.0, 0.0, 900.0])
        top = [to_world(xy, FRAME_HEIGHT) for xy in ((0, 0), (GEO.width, 0), (GEO.width, GEO.depth), (0, GEO.depth))]
        target = np.array([w / 2 + cam.shift[0] * w, h / 2 + cam.shift[1] * h])
        for _ in range(40):
            pts = self.pinhole(np.array(top))
            span = pts.max(axis=0) - pts.min(axis=0)
            s = cam.fill * min(w / span[0], h / span[1])
            self.t = self.t / s
            pts = self.pinhole(np.array(top))
            mid = (pts.max(axis=0) + pts.min(axis=0)) / 2
            self.t[:2] += (target - mid) * self.t[2] / self.f

    def pinhole(self, world: np.ndarray) -> np.ndarray:
        p = (self.rot @ (world_to_canonical3(world) - self.centre3).T).T + self.t
        return self.f * p[:, :2] / p[:, 2:3] + self.c

    def project(self, world) -> np.ndarray:
        """World mm -> pixels of the final (barrel-distorted) image."""
        return self.lens.distort(self.pinhole(np.atleast_2d(np.asarray(world, np.float64))))

    def blender(self) -> dict[str, object]:
        centre = self.centre3 - self.rot.T @ self.t
        flip = np.diag([1.0, -1.0, -1.0])
        rot_world = flip @ self.rot.T @ flip  # canonical 3D -> world, OpenCV camera axes -> Blender's
        m = np.eye(4)
        m[:3, :3] = rot_world
        m[:3, 3] = to_world((centre[0], centre[1]), -centre[2])
        return {"matrix": m.tolist(), "focal_px": self.f, "size": list(self.size)}

    def height_mm(self) -> float:
        return float(-(self.centre3 - self.rot.T @ self.t)[2])


def _rot_to_top(normal: tuple[int, int, int]) -> np.ndarray:
    """Rotation taking the die's face ``normal`` to +z."""
    n = np.array(normal, np.float64)
    z = np.array([0.0, 0.0, 1.0])
    if n @ z > 0.99:
        return np.eye(3)
    if n @ z < -0.99:
        return np.diag([1.0, -1.0, -1.0])
    axis = np.cross(n, z)
    r, _ = cv2.Rodrigues(axis / np.linalg.norm(axis) * math.acos(float(n @ z)))
    return r


def _rz(deg: float) -> np.ndarray:
    a = math.radians(deg)
    return np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])


def _matrix(rot: np.ndarray, centre) -> list[list[float]]:
    m = np.eye(4)
    m[:3, :3] = rot
    m[:3, 3] = centre
    return m.tolist()


def _surface(xy: tuple[float, float]) -> float:
    """Height of what a die or cube at canonical ``xy`` rests on."""
    f = GEO.frame
    if not (f <= xy[1] <= GEO.depth - f) or not (f <= xy[0] <= GEO.width - f):
        return FRAME_HEIGHT
    if GEO.bar_x[0] <= xy[0] <= GEO.bar_x[1]:
        return BAR_HEIGHT
    return LEATHER


def _slide_clear(xy, angle, discs, half, layout):
    """Slide a flat die (canonical ``xy``, yaw ``angle``) off checkers, other dice, the bar and the frame."""
    e, f = GEO.die_edge, GEO.frame
    x, y = xy
    a = math.radians(angle)
    ext = e / 2 * (abs(math.cos(a)) + abs(math.sin(a))) + 0.5
    right = x > GEO.bar_x[1]
    for _ in range(40):
        moved = False
        lo, hi = (GEO.bar_x[1] + ext, GEO.width - f - ext) if right else (f + ext, GEO.bar_x[0] - ext)
        nx, ny = min(max(x, lo), hi), min(max(y, f + ext), GEO.depth - f - ext)
        if (nx, ny) != (x, y):
            x, y, moved = nx, ny, True
        for (cx, cy), r in discs:
            # distance from the disc's centre to the die's square, in the die's frame
            dx, dy = cx - x, cy - y
            lx, ly = dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)
            qx, qy = min(max(lx, -e / 2), e / 2), min(max(ly, -e / 2), e / 2)
            gap = math.hypot(lx - qx, ly - qy) - r - 0.3
            if gap < 0:
                d = math.hypot(dx, dy) or 1.0
                push = min(-gap + 0.2, 6.0)
                x, y, moved = x - dx / d * push, y - dy / d * push, True
        if not moved:
            break
    if half_of(GEO, layout, (x, y)) != half:
        return xy
    return (x, y)


def frame_job(scene: Scene, rng: np.random.Generator) -> tuple[dict[str, Any], Scene]:
    """3D poses of one scene; returns (job frame, the scene with dice where the 3D ones lie)."""
    R, T, e = GEO.checker_diameter / 2, GEO.checker_thickness, GEO.die_edge
    checkers, discs, ground = [], [], []
    for p, n in enumerate(scene.points, start=1):
        for i in range(abs(n)):
            x, y, layer = checker_centre(GEO, scene.layout, p, i)
            xy = (x + rng.normal(0, 0.5), y + rng.normal(0, 0.5))
            checkers.append({"xyz": to_world(xy, LEATHER + T * layer), "dark": n > 0, "spin": float(rng.uniform(0, 6.283))})
            discs.append((xy, R))
            if layer == 0:
                ground.append(xy)
    for dark, count in ((True, scene.bar[0]), (False, scene.bar[1])):
        for i in range(count):
            xy = bar_centre(GEO, scene.layout, dark, i)
            checkers.append({"xyz": to_world(xy, BAR_HEIGHT), "dark": dark, "spin": float(rng.uniform(0, 6.283))})
    cube = None
    if scene.cube is not None:
        c = scene.cube
        face = 64 if c.value == 1 else c.value
        rot = _rz(-c.angle + 90 * int(rng.integers(4))) @ _rot_to_top(CUBE_FACES[face])
        z = _surface(c.xy) + GEO.cube_edge / 2
        cube = {"matrix": _matrix(rot, to_world(c.xy, z)), "faces": {str(k): v for k, v in CUBE_FACES.items()},
                "centre": to_world(c.xy, z)}
        discs.append((c.xy, GEO.cube_edge * 0.72))
    dice, specs = [], []
    for d in scene.dice:
        half = half_of(GEO, scene.layout, d.xy)
        base = _surface(d.xy)
        face_rot = _rot_to_top(DIE_FACES[d.value])
        if d.flat:
            xy = _slide_clear(d.xy, d.angle, discs, half, scene.layout) if half != "off" else d.xy
            rot = _rz(-d.angle) @ face_rot
            centre = np.array(to_world(xy, base + e / 2))
            lean = None
        else:
            # lean it on the nearest checker of its half, else on the nearest wall (frame or bar side)
            near = [g for g in ground if half_of(GEO, scene.layout, g) == half and math.dist(g, d.xy) < 70]
            if half != "off" and near:
                g = min(near, key=lambda g: math.dist(g, d.xy))
                u = np.array([g[0] - d.xy[0], g[1] - d.xy[1]])
                u /= np.linalg.norm(u) or 1.0
                support = np.array(g) - u * (R - 1.5)
                height = T + LEATHER - base + 0.0
                theta = math.asin(min(height / e, 0.8))
                lean = "checker"
            else:
                f = GEO.frame
                walls = [(np.array([-1.0, 0.0]), d.xy[0] - f), (np.array([1.0, 0.0]), GEO.width - f - d.xy[0]),
                         (np.array([0.0, -1.0]), d.xy[1] - f), (np.array([0.0, 1.0]), GEO.depth - f - d.xy[1])]
                if half != "off":
                    b0, b1 = GEO.bar_x
                    walls += [(np.array([1.0, 0.0]), b0 - d.xy[0])] if d.xy[0] < b0 else [(np.array([-1.0, 0.0]), d.xy[0] - b1)]
                    u, dist = min(walls, key=lambda w: w[1])
                    support = np.array(d.xy) + u * dist
                    lean = "wall"
                else:
                    u = np.array([math.cos(math.radians(d.angle)), math.sin(math.radians(d.angle))])
                    support = np.array(d.xy) + u * e * 0.6
                    lean = "none"
                theta = math.radians(float(rng.uniform(22, 32)))
            uw = np.array([u[0], -u[1], 0.0])  # world direction of the lean
            yaw = math.degrees(math.atan2(uw[1], uw[0])) + 90 * int(rng.integers(4))
            axis = np.cross(uw, [0.0, 0.0, 1.0])
            tilt, _ = cv2.Rodrigues(axis * theta)
            rot = tilt @ _rz(yaw) @ face_rot
            pivot = np.array(to_world((support[0], support[1]), base)) - uw * e * math.cos(theta)
            corner = tilt @ (-uw * e / 2 - np.array([0, 0, e / 2]))  # the pivot edge, from the die's centre
            centre = pivot - corner
            xy = (centre[0] + GEO.width / 2, -centre[1] + GEO.depth / 2)
            if half_of(GEO, scene.layout, xy) != half:  # never change the truth's half
                xy = d.xy
                centre = np.array(to_world(xy, base + e / 2 * (math.sin(theta) + math.cos(theta))))
        discs.append(((float(centre[0] + GEO.width / 2), float(-centre[1] + GEO.depth / 2)), e * 0.72))
        dice.append({"matrix": _matrix(rot, centre), "centre": [float(v) for v in centre], "lean": lean if not d.flat else None})
        specs.append(replace(d, xy=(float(centre[0] + GEO.width / 2), float(-centre[1] + GEO.depth / 2))))
    arm = None
    if scene.arm is not None:
        (sx, sy), (ex, ey), width = scene.arm
        arm = {"a": to_world((sx, sy), float(rng.uniform(220, 300))), "b": to_world((ex, ey), float(rng.uniform(90, 140))),
               "radius": width / 2 * 0.8, "hand": width * 0.5}
    job = {"checkers": checkers, "dice": dice, "cube": cube, "arm": arm}
    return job, replace(scene, dice=tuple(specs))


def lamp_state(cam: Camera, rng: np.random.Generator, drift: float) -> dict[str, object]:
    """An area lamp above the board on the side the shadows fall away from (``light_dir_deg``)."""
    colour, power, ambient = LAMPS[cam.lamp]
    lx, ly = cam.lamp_xy
    ld = cam.light_dir_deg
    gain = 1.0
    if drift:
        lx = float(np.clip(lx + rng.uniform(-0.3, 0.3) * drift, 0, 1))
        ly = float(np.clip(ly + rng.uniform(-0.3, 0.3) * drift, 0, 1))
        ld += rng.uniform(-40, 40) * drift
        gain = 1 + rng.uniform(-0.25, 0.25) * drift
    d = np.array([math.cos(math.radians(ld)), math.sin(math.radians(ld))])
    xy = np.array(GEO.centre) - d * (150 + 550 * lx)
    height = 650 + 450 * ly
    dist2 = (float(np.hypot(*(xy - GEO.centre))) ** 2 + height**2) / 1e6  # m^2
    return {
        "xyz": to_world((float(xy[0]), float(xy[1])), height),
        "target": to_world(GEO.centre, 0.0),
        "colour": list(colour),
        "power": LAMP_WATTS * power * gain * dist2,  # constant irradiance at the board whatever the lamp's distance
        "size": float(150 + 250 * (1 - ly)),
        "ambient": AMBIENT * ambient * gain,
        "ambient_colour": [0.55, 0.52, 0.48] if cam.lamp != "cool" else [0.48, 0.52, 0.56],
    }


def board_job(setup: Setup, numerals_dir: Path) -> dict[str, object]:
    pal = setup.palette
    f, pw = GEO.frame, GEO.point_width
    points = []
    for _half, x0 in enumerate((f, GEO.bar_x[1])):
        for col in range(6):
            for top in (True, False):
                base_y = f if top else GEO.depth - f
                tip_y = base_y + (GEO.point_length if top else -GEO.point_length)
                xa = x0 + col * pw
                tri = [to_world((xa + 0.6, base_y))[:2], to_world((xa + pw - 0.6, base_y))[:2], to_world((xa + pw / 2, tip_y))[:2]]
                (ax, ay), (bx, by), (cx, cy) = tri
                if (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) < 0:  # counter-clockwise seen from above
                    tri = [tri[0], tri[2], tri[1]]
                points.append({"corners": tri, "olive": (col + (0 if top else 1)) % 2 == 0})
    numerals = {}
    for v in CUBE_FACES:
        full = 320
        mask = numeral_mask(str(v), full, 16)
        cut = (full - 256) // 2
        path = numerals_dir / f"numeral{v}.png"
        cv2.imwrite(str(path), np.clip(mask[cut:cut + 256, cut:cut + 256] * 255, 0, 255).astype(np.uint8))
        numerals[str(v)] = str(path)
    olive, orange = linear_rgb(pal.olive), linear_rgb(pal.orange)
    brng = np.random.default_rng(setup.board_seed)
    return {
        "seed": float(brng.uniform(0, 100)),
        "width": GEO.width, "depth": GEO.depth, "frame": GEO.frame, "bar_width": GEO.bar_width,
        "frame_height": FRAME_HEIGHT, "bar_height": BAR_HEIGHT, "base": BASE, "bevel": BEVEL, "leather": LEATHER,
        "checker_radius": GEO.checker_diameter / 2, "checker_thickness": GEO.checker_thickness, "inlay_share": INLAY_SHARE,
        "die_edge": GEO.die_edge, "cube_edge": GEO.cube_edge,
        "copper_roughness": float(brng.uniform(0.18, 0.32)),
        "points": points,
        "pips": {str(v): [list(p) for p in layout] for v, layout in PIP_LAYOUT.items()},  # pip offsets per face, as vision.render
        "numerals": numerals,
        "colours": {
            "walnut": linear_rgb(pal.walnut), "field": linear_rgb(pal.field), "olive": olive, "orange": orange,
            "inlay_dark": [c * 0.72 for c in olive], "inlay_light": orange,
            "copper": [min(1.0, c * 1.15) for c in linear_rgb(pal.copper)],
            "die": linear_rgb(DIE_WHITE), "pip": linear_rgb(PIP), "cube": linear_rgb(CUBE_IVORY), "ink": [0.02, 0.02, 0.025],
            "skin": linear_rgb(SKIN), "table": linear_rgb(pal.table),
        },
    }


# ----------------------------------------------------------------------------- photographing


def photograph(raw: np.ndarray, cam: Camera, rng: np.random.Generator, quality: int) -> bytes:
    """Barrel distortion (vision.board.Lens with the setup's k1), vignetting, sensor noise, JPEG bytes."""
    h, w = raw.shape[:2]
    img = raw.astype(np.float32)
    lens = Lens(float(cam.barrel_k1), (w / 2.0, h / 2.0), float(max(w, h)))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if cam.barrel_k1:
        src = lens.undistort(np.dstack([xx, yy]).reshape(-1, 2)).reshape(h, w, 2).astype(np.float32)
        img = np.asarray(cv2.remap(img, src[..., 0], src[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT), np.float32)
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / float(max(w, h) / 2) ** 2
    img *= (1.0 - 0.18 * r2)[..., None]
    shot = np.sqrt(np.clip(img, 0, 255) / 255.0)  # brighter pixels are noisier in absolute terms
    img += rng.normal(0, 1, img.shape).astype(np.float32) * cam.noise * (0.6 + 0.6 * shot)
    img += rng.normal(0, cam.noise * 0.4, (h, w, 1)).astype(np.float32)  # luminance grain
    out = np.clip(img + 0.5, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    assert ok
    return buf.tobytes()


# ----------------------------------------------------------------------------- a setup


def setup_frames(seed: int, frames: int, arms: int, empty: bool = False) -> tuple[Setup, list[tuple[str, Scene, int, float]]]:
    """The setup and its (name, scene, seed, lamp drift) list, drawn as bench_vision draws them (and, with
    ``empty``, the board without checkers under the start's lamp, as ``bgref calibrate --empty`` takes it)."""
    setup = random_setup(np.random.default_rng(seed))
    start = random_scene(np.random.default_rng(seed + 1), setup.layout, start=True)
    out = [("start", start, seed + 1, 0.0)]
    if empty:
        out.append(("empty", replace(start, points=(0,) * 24), seed + 1, 0.0))
    for f in range(frames + arms):
        fseed = seed + 2 + f
        scene = random_scene(np.random.default_rng(fseed), setup.layout)
        if f >= frames:
            scene = with_arm(np.random.default_rng(fseed + 500), scene)
            out.append((f"arm{f - frames + 1:02d}", scene, fseed, 0.5))
        else:
            out.append((f"frame{f + 1:02d}", scene, fseed, 0.5))
    return setup, out


def render_setup(seed: int, out: Path, frames: int, arms: int, samples: int, quality: int | None,
                 blender: str = "blender", keep: bool = False, empty: bool = False, only: set[str] | None = None) -> dict[str, Any]:
    """Render one setup into ``out``; with ``only``, just those images, added to the truth already there."""
    setup, scenes = setup_frames(seed, frames, arms, empty)
    if only is not None:
        scenes = [s for s in scenes if s[0] in only]
    cam = setup.camera
    model = CameraModel(cam)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="bgref_blender_"))
    job: dict[str, Any] = {"render": {"samples": samples, "threads": 2, "view_transform": "Standard", "look": "None"},
           "camera": model.blender(), "board": board_job(setup, work), "frames": []}
    truth: dict[str, Any] = {
        "seed": seed, "layout": setup.layout.to_json(),
        "camera": {"tilt_deg": cam.tilt_deg, "tilt_azimuth_deg": cam.tilt_azimuth_deg, "yaw_deg": cam.yaw_deg,
                   "focal_px": cam.focal, "barrel_k1": cam.barrel_k1, "lamp": cam.lamp, "height_mm": model.height_mm(),
                   "noise": cam.noise, "jpeg_quality": quality or cam.jpeg_quality},
        "frames": {},
    }
    for name, scene, fseed, drift in scenes:
        rng = np.random.default_rng(fseed + 7919)
        fj, placed = frame_job(scene, rng)
        fj["lamp"] = lamp_state(cam, rng, drift)
        fj["out"] = str(work / f"{name}.png")
        fj["seed"] = fseed
        job["frames"].append(fj)
        reading = placed.reading()
        dice_px = [model.project([d["centre"]])[0].tolist() for d in fj["dice"]]
        cube_px = model.project([fj["cube"]["centre"]])[0].tolist() if fj["cube"] else None
        truth["frames"][f"{name}.jpg"] = {  # type: ignore[index]
            "reading": reading,
            "dice": [{"value": d.value, "flat": d.flat, "xy_mm": list(d.xy), "px": px, "lean": fd["lean"]}
                     for d, px, fd in zip(placed.dice, dice_px, fj["dice"])],
            "cube_px": cube_px,
            "arm": scene.arm is not None,
            "seed": fseed,
        }
    job_path = work / "job.json"
    job_path.write_text(json.dumps(job))
    t0 = time.time()
    cmd = ["nice", "-n", "10", blender, "-b", "--factory-startup", "-noaudio", "-P", str(SCENE_SCRIPT), "--", "--job", str(job_path)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    elapsed = time.time() - t0
    if done.returncode != 0 or "BGREF done" not in done.stdout:
        sys.stderr.write(done.stdout[-3000:] + done.stderr[-3000:])
        raise RuntimeError(f"blender failed on setup seed {seed} (exit {done.returncode})")
    for name, _scene, fseed, _drift in scenes:
        raw = cv2.imread(str(work / f"{name}.png"), cv2.IMREAD_COLOR)
        if raw is None:
            raise RuntimeError(f"blender wrote no {name}.png for setup seed {seed}")
        data = photograph(raw, cam, np.random.default_rng(fseed + 104729), quality or cam.jpeg_quality)
        (out / f"{name}.jpg").write_bytes(data)
    truth["render_seconds_per_image"] = round(elapsed / len(scenes), 1)
    if only is not None and (out / "truth.json").exists():
        old = json.loads((out / "truth.json").read_text())
        old["frames"].update(truth["frames"])
        truth = old
    (out / "truth.json").write_text(json.dumps(truth, indent=1) + "\n")
    if keep:
        shutil.copytree(work, out / "raw", dirs_exist_ok=True)
    shutil.rmtree(work, ignore_errors=True)
    return truth


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--setups", type=int, default=10)
    ap.add_argument("--first", type=int, default=0, help="index of the first setup (to resume or split a run)")
    ap.add_argument("--frames", type=int, default=6)
    ap.add_argument("--arms", type=int, default=0, help="extra frames per setup with an arm over the board")
    ap.add_argument("--seed", type=int, default=20261121)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--jpeg-quality", type=int, help="instead of the setup's own (70..95)")
    ap.add_argument("--blender", default=os.environ.get("BLENDER", "blender"))
    ap.add_argument("--keep-raw", action="store_true", help="keep Blender's PNGs and the job file in <setup>/raw")
    ap.add_argument("--single", type=int, metavar="SEED", help="render the one setup of this seed straight into --out")
    ap.add_argument("--empty", action="store_true", help="also the empty board under the start's lamp (empty.jpg)")
    ap.add_argument("--only", help="comma-separated image names (start, empty, frame01, arm01...) to render into existing setups")
    args = ap.parse_args()
    if shutil.which(args.blender) is None:
        print(f"blender not found ({args.blender!r}); apt-get install blender", file=sys.stderr)
        return 2
    only = set(args.only.split(",")) if args.only else None
    if args.single is not None:
        truth = render_setup(args.single, args.out, args.frames, args.arms, args.samples, args.jpeg_quality, args.blender, args.keep_raw,
                             args.empty, only)
        print(f"{args.out} (seed {args.single}): {len(truth['frames'])} images, {truth['render_seconds_per_image']} s per image")
        return 0
    for k in range(args.first, args.first + args.setups):
        seed = args.seed + 1000 * k
        truth = render_setup(seed, args.out / f"setup{k:02d}", args.frames, args.arms, args.samples, args.jpeg_quality,
                             args.blender, args.keep_raw, args.empty, only)
        print(f"setup{k:02d} (seed {seed}): {len(truth['frames'])} images, "  # type: ignore[arg-type]
              f"{truth['render_seconds_per_image']} s per image", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
