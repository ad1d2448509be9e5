"""A seeded, reproducible renderer of the set, for tests and benchmarks.

Everything random comes from one ``numpy.random.Generator``: the same seed gives the
same image, byte for byte on one platform. The scene is painted on the canonical
top-down plane (``vision.geometry``) with procedural textures (wood grain from
stretched multi-octave noise, grained leather, copper with radial shading and a
specular highlight, soft drop shadows), with a margin of ``MARGIN`` mm of table round the
board so that dice and cube may lie on the frame or past it.

Things with height are drawn in 3D for the one camera of the setup: checkers get copper
side walls and their tops are drawn where the camera sees them (a stack leans away from
the camera's foot); dice and the cube are lit boxes whose visible faces are painted with
their pips or numerals, a cocked die tipped ``DIE_LEAN`` degrees onto an edge. Tall things
are painted far to near from the camera's foot so nearer ones hide farther ones.

The camera is placed as the Blender benchmark's ``CameraModel`` places it: a pinhole up to
15° off vertical with any rotation about the vertical, at the distance where the board
fills the frame with the setup's true focal length. Then a lamp (warm, cool or dim, with a
falloff and vignetting), barrel distortion, sensor noise and JPEG compression.

Each render returns its true reading in the board-spec JSON contract. Blender renders
(``benchmarks/blender_render.py``) are the photoreal check; these are the fast one.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from functools import lru_cache

from vision.numerals import numeral_mask
from vision.pose import Viewpoint
from vision.geometry import (
    START_POINTS,
    BoardGeometry,
    Layout,
    bar_centre,
    checker_centre,
    half_of,
    point_axis,
    side_of,
    surface_height,
)

Image = NDArray[np.uint8]
FloatImage = NDArray[np.float32]

# Nominal colours of the set (BGR, 0..1); each render jitters them.
WALNUT = (0.13, 0.22, 0.33)
WALNUT_FIELD = (0.17, 0.28, 0.40)
OLIVE = (0.20, 0.38, 0.36)
ORANGE = (0.13, 0.33, 0.70)
COPPER = (0.33, 0.52, 0.80)
DIE_WHITE = (0.93, 0.94, 0.95)
IVORY_DICE = ((0.67, 0.84, 0.92), (0.74, 0.87, 0.93), (0.78, 0.89, 0.94))  # aged or ivory dice, BGR: yellower than the cube
PIP = (0.12, 0.10, 0.10)
CUBE_IVORY = (0.82, 0.90, 0.95)
SKIN = (0.55, 0.66, 0.85)

PIP_LAYOUT: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
CUBE_FACES = (2, 4, 8, 16, 32, 64)


@dataclass(frozen=True, slots=True)
class DieSpec:
    value: int
    xy: tuple[float, float]  # canonical mm
    angle: float  # degrees
    flat: bool = True
    tilt_dir: float = 0.0  # degrees, direction the cocked die leans
    colour: tuple[float, float, float] = DIE_WHITE  # BGR 0..1: white, or an ivory tint (IVORY_DICE)


@dataclass(frozen=True, slots=True)
class CubeSpec:
    value: int  # 1, 2, ..., 64 as read (1 = the 64 face in the centre)
    position: str  # centre | dark | light
    xy: tuple[float, float]
    angle: float


@dataclass(frozen=True, slots=True)
class Scene:
    points: tuple[int, ...]
    bar: tuple[int, int]  # dark, light
    layout: Layout = Layout()
    dice: tuple[DieSpec, ...] = ()
    cube: CubeSpec | None = None
    arm: tuple[tuple[float, float], tuple[float, float], float] | None = None  # (start, end, width) mm
    stacking: str = "row"  # how players pile a sixth and later checker: one of STACKING

    def reading(self) -> dict[str, object]:
        geo = BoardGeometry()
        on_dark = sum(p for p in self.points if p > 0) + self.bar[0]
        on_light = sum(-p for p in self.points if p < 0) + self.bar[1]
        return {
            "points": list(self.points),
            "bar": {"dark": self.bar[0], "light": self.bar[1]},
            "off": {"dark": 15 - on_dark, "light": 15 - on_light},
            "dice": [{"value": d.value, "flat": d.flat, "half": half_of(geo, self.layout, d.xy)} for d in self.dice],
            "cube": None if self.cube is None else {"value": self.cube.value, "position": self.cube.position},
        }


@dataclass(frozen=True, slots=True)
class Camera:
    size: tuple[int, int] = (1280, 720)
    tilt_deg: float = 0.0
    tilt_azimuth_deg: float = 0.0
    yaw_deg: float = 0.0  # rotation of the board in the image
    fill: float = 0.85  # fraction of the limiting image side the board spans
    shift: tuple[float, float] = (0.0, 0.0)  # board centre offset, fraction of the image
    focal: float = 1100.0
    barrel_k1: float = 0.0
    lamp: str = "warm"  # warm | cool | dim
    lamp_kelvin: float = 0.0  # the lamp's colour temperature (2700: a household bulb, 6500: daylight); 0: the lamp's own tint
    lamp_xy: tuple[float, float] = (0.3, 0.3)  # lamp position over the board, fraction of its size
    light_dir_deg: float = 45.0  # direction shadows fall, on the board plane
    shadow_mm: float = 2.5  # how soft shadows' edges are (blur, mm): a small lamp near the board casts hard ones
    shadow_depth: float = 0.45  # how much light a shadow takes
    noise: float = 2.0
    jpeg_quality: int = 90
    px_per_mm: float = 2.0
    defocus_px: float = 0.0  # a lens out of focus: blur (Gaussian sigma, image pixels)
    motion_px: float = 0.0  # a hand or the camera moving while the shutter is open: streak length (image pixels)
    motion_deg: float = 0.0  # and its direction in the image
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)  # the camera's BGR gains: off when not equal
    # the camera's exposure (1: the lamp's brightest channel just fills the sensor on white); a camera metering a
    # 2700 K bulb's scene on its green brightens it half again, and the red of the leather, copper and a red cloth clips
    exposure: float = 1.0


@dataclass(frozen=True, slots=True)
class Palette:
    walnut: tuple[float, float, float] = WALNUT
    field: tuple[float, float, float] = WALNUT_FIELD
    olive: tuple[float, float, float] = OLIVE
    orange: tuple[float, float, float] = ORANGE
    copper: tuple[float, float, float] = COPPER
    table: tuple[float, float, float] = (0.45, 0.45, 0.45)


# ----------------------------------------------------------------------------- textures


def noise(rng: np.random.Generator, shape: tuple[int, int], scale: float, octaves: int = 4) -> FloatImage:
    """Multi-octave value noise in about [-1, 1]; ``scale`` is the coarsest feature in pixels."""
    h, w = shape
    out = np.zeros(shape, np.float32)
    amp, total = 1.0, 0.0
    for o in range(octaves):
        s = max(scale / (2**o), 1.0)
        small = rng.standard_normal((max(2, int(h / s) + 2), max(2, int(w / s) + 2))).astype(np.float32)
        out += amp * cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp
        amp *= 0.5
    return out / total


def wood(rng: np.random.Generator, shape: tuple[int, int], colour: tuple[float, float, float], ppm: float) -> FloatImage:
    """Walnut: long grain along x with ring bands and fine pores."""
    h, w = shape
    streak = cv2.resize(noise(rng, (h, max(8, w // 40)), 6 * ppm, 3), (w, h), interpolation=cv2.INTER_CUBIC)
    y = np.arange(h, dtype=np.float32)[:, None] / ppm
    rings = np.sin((y + 25 * streak) * rng.uniform(0.35, 0.6) + rng.uniform(0, 6.28))
    pores = noise(rng, shape, 1.5 * ppm, 2)
    tone = 1.0 + 0.18 * streak + 0.10 * rings + 0.06 * pores
    return np.dstack([c * tone for c in colour]).astype(np.float32)


def leather(rng: np.random.Generator, shape: tuple[int, int], colour: tuple[float, float, float], ppm: float) -> FloatImage:
    """Leather: soft mottling and a fine pebble grain."""
    mottle = noise(rng, shape, 25 * ppm, 3)
    grain = noise(rng, shape, 0.8 * ppm, 2)
    tone = 1.0 + 0.07 * mottle + 0.07 * grain
    return np.dstack([c * tone for c in colour]).astype(np.float32)


def _jitter(rng: np.random.Generator, colour: tuple[float, float, float], amount: float) -> tuple[float, float, float]:
    scale = 1.0 + rng.uniform(-amount, amount)
    return tuple(float(np.clip(c * scale * (1 + rng.uniform(-amount / 2, amount / 2)), 0, 1)) for c in colour)  # type: ignore[return-value]


def random_palette(rng: np.random.Generator) -> Palette:
    table = tuple(float(v) for v in rng.uniform(0.15, 0.75) * rng.uniform(0.7, 1.1, 3))
    return Palette(
        walnut=_jitter(rng, WALNUT, 0.15),
        field=_jitter(rng, WALNUT_FIELD, 0.15),
        olive=_jitter(rng, OLIVE, 0.12),
        orange=_jitter(rng, ORANGE, 0.12),
        copper=_jitter(rng, COPPER, 0.1),
        table=table,  # type: ignore[arg-type]
    )


# ----------------------------------------------------------------------------- painting


def _px(xy: tuple[float, float], ppm: float) -> tuple[int, int]:
    return (int(round(xy[0] * ppm * 16)), int(round(xy[1] * ppm * 16)))


def _disc(canvas: FloatImage, xy: tuple[float, float], r: float, colour: tuple[float, float, float] | float, ppm: float) -> None:
    c = colour if isinstance(colour, tuple) else (colour,) * canvas.shape[2]
    cv2.circle(canvas, _px(xy, ppm), int(round(r * ppm * 16)), c, -1, cv2.LINE_AA, 4)


def _mask_disc(shape: tuple[int, int], xy: tuple[float, float], r: float, ppm: float) -> FloatImage:
    m = np.zeros(shape, np.float32)
    cv2.circle(m, _px(xy, ppm), int(round(r * ppm * 16)), 1.0, -1, cv2.LINE_AA, 4)
    return m


def _blend(canvas: FloatImage, layer: FloatImage, mask: FloatImage) -> None:
    canvas *= 1 - mask[..., None]
    canvas += layer * mask[..., None]


def paint_board(rng: np.random.Generator, geo: BoardGeometry, pal: Palette, ppm: float) -> FloatImage:
    h, w = int(round(geo.depth * ppm)), int(round(geo.width * ppm))
    canvas = wood(rng, (h, w), pal.walnut, ppm)
    field_tex = wood(rng, (h, w), pal.field, ppm)
    olive = leather(rng, (h, w), pal.olive, ppm)
    orange = leather(rng, (h, w), pal.orange, ppm)
    f, (b0, b1) = geo.frame, geo.bar_x
    for x0 in (f, b1):
        m = np.zeros((h, w), np.float32)
        cv2.rectangle(m, _px((x0, f), ppm), _px((x0 + geo.half_width, geo.depth - f), ppm), 1.0, -1, cv2.LINE_AA, 4)
        _blend(canvas, field_tex, m)
    pw = geo.point_width
    for half, x0 in enumerate((f, b1)):
        for col in range(6):
            for top in (True, False):
                base_y = f if top else geo.depth - f
                tip_y = base_y + (geo.point_length if top else -geo.point_length)
                xa = x0 + col * pw
                tri = np.array([_px((xa + 0.6, base_y), ppm), _px((xa + pw - 0.6, base_y), ppm), _px((xa + pw / 2, tip_y), ppm)], np.int32)
                m = np.zeros((h, w), np.float32)
                cv2.fillPoly(m, [tri], 1.0, cv2.LINE_AA, 4)
                is_olive = (col + half * 0 + (0 if top else 1)) % 2 == 0
                _blend(canvas, olive if is_olive else orange, m)
                cv2.polylines(canvas, [tri], True, tuple(0.6 * c for c in (pal.olive if is_olive else pal.orange)), 1, cv2.LINE_AA, 4)
    _bevels(canvas, geo, ppm)
    return canvas


def _bevels(canvas: FloatImage, geo: BoardGeometry, ppm: float) -> None:
    """Raised frame and bar: a shaded strip along their inner edges."""
    h, w = canvas.shape[:2]
    shade = np.ones((h, w), np.float32)
    f, (b0, b1) = geo.frame, geo.bar_x
    edges = [((f, f), (geo.width - f, f)), ((f, geo.depth - f), (geo.width - f, geo.depth - f)),
             ((f, f), (f, geo.depth - f)), ((geo.width - f, f), (geo.width - f, geo.depth - f)),
             ((b0, f), (b0, geo.depth - f)), ((b1, f), (b1, geo.depth - f))]
    for a, b in edges:
        cv2.line(shade, _px(a, ppm), _px(b, ppm), 0.55, max(1, int(2.5 * ppm)), cv2.LINE_AA, 4)
    shade = cv2.GaussianBlur(shade, (0, 0), 1.2 * ppm)
    canvas *= shade[..., None]


def paint_shadows(canvas: FloatImage, discs: list[tuple[tuple[float, float], float, float]], light_deg: float, ppm: float,
                  soft_mm: float = 2.5, depth: float = 0.45) -> None:
    """Drop shadows of objects (centre, radius, height mm) away from the lamp, their edges blurred ``soft_mm``."""
    h, w = canvas.shape[:2]
    m = np.zeros((h, w), np.float32)
    dx, dy = math.cos(math.radians(light_deg)), math.sin(math.radians(light_deg))
    for (x, y), r, height in discs:
        off = 0.6 * height + 1.5
        cv2.circle(m, _px((x + dx * off, y + dy * off), ppm), int(round(r * ppm * 16)), 1.0, -1, cv2.LINE_AA, 4)
    m = cv2.GaussianBlur(m, (0, 0), soft_mm * ppm)
    canvas *= (1 - depth * np.clip(m, 0, 1))[..., None]


def paint_checker(rng: np.random.Generator, canvas: FloatImage, xy: tuple[float, float], dark: bool,
                  geo: BoardGeometry, pal: Palette, ppm: float, light_deg: float, layer: int, scale: float = 1.0) -> None:
    """A checker's top as the camera sees it: centred at ``xy``, its radius times ``scale`` (nearer the camera, larger)."""
    r = geo.checker_diameter / 2 * scale
    h, w = canvas.shape[:2]
    x0, y0 = int((xy[0] - r - 2) * ppm), int((xy[1] - r - 2) * ppm)
    size = int((2 * r + 4) * ppm) + 2
    x0c, y0c = max(0, x0), max(0, y0)
    x1c, y1c = min(w, x0 + size), min(h, y0 + size)
    if x1c <= x0c or y1c <= y0c:
        return
    yy, xx = np.mgrid[y0c:y1c, x0c:x1c].astype(np.float32)
    dxp, dyp = xx / ppm - xy[0], yy / ppm - xy[1]
    rad = np.sqrt(dxp**2 + dyp**2)
    ang = np.arctan2(dyp, dxp)
    lit = np.cos(ang - math.radians(light_deg + 180))  # towards the lamp
    rim_in = r * 0.7
    copper = np.array(pal.copper, np.float32) * (1.0 + 0.04 * layer)
    # copper: radial bevel shading plus a lamp-facing gleam
    bevel = 0.85 + 0.25 * np.clip((rad - rim_in) / (r - rim_in), 0, 1) * (0.5 + 0.5 * lit)
    cu = copper[None, None, :] * bevel[..., None]
    spec = np.exp(-((rad - 0.85 * r) ** 2) / 2.0) * np.clip(lit, 0, 1) ** 8
    cu = cu + 0.8 * spec[..., None]
    inlay_col = np.array(pal.olive if dark else pal.orange, np.float32) * (0.85 if dark else 1.0)
    grain = 1 + 0.06 * rng.standard_normal(rad.shape).astype(np.float32)
    inlay = inlay_col[None, None, :] * grain[..., None] * (0.92 + 0.08 * lit[..., None])
    groove = np.clip(1 - np.abs(rad - rim_in) / 0.8, 0, 1)
    body = np.where((rad < rim_in)[..., None], inlay, cu)
    body = body * (1 - 0.5 * groove[..., None])
    alpha = np.clip((r - rad) * ppm + 0.5, 0, 1)
    region = canvas[y0c:y1c, x0c:x1c]
    region[:] = region * (1 - alpha[..., None]) + body * alpha[..., None]


def _paint_face(canvas: FloatImage, xy: tuple[float, float], angle: float, w: float, h: float, value: int,
                colour: tuple[float, float, float], ppm: float, light_deg: float) -> None:
    rect = ((xy[0] * ppm, xy[1] * ppm), (w * ppm, h * ppm), angle)
    box = cv2.boxPoints(rect)
    m = np.zeros(canvas.shape[:2], np.float32)
    cv2.fillConvexPoly(m, np.round(box * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    m = cv2.GaussianBlur(m, (0, 0), 0.5 * ppm)  # rounded edges
    layer = np.empty_like(canvas)
    layer[:] = colour
    edge = cv2.erode(m, np.ones((3, 3), np.uint8), iterations=max(1, int(ppm)))
    layer *= (0.8 + 0.2 * edge)[..., None]
    _blend(canvas, layer, np.clip(m * 1.4, 0, 1))
    a = math.radians(angle)
    ux, uy = math.cos(a), math.sin(a)
    sx, sy = w * 0.28, h * 0.28
    pr = min(w, h) * 0.095 + 0.3
    for px, py in PIP_LAYOUT[value]:
        ox, oy = px * sx, py * sy
        c = (xy[0] + ux * ox - uy * oy, xy[1] + uy * ox + ux * oy)
        if h < w * 0.8:
            m2 = np.zeros(canvas.shape[:2], np.float32)
            cv2.ellipse(m2, (_px(c, ppm)), (int(pr * ppm * 16), int(pr * ppm * 16 * h / w)), angle, 0, 360, 1.0, -1, cv2.LINE_AA, 4)
            _blend(canvas, np.full_like(canvas, PIP[0]), m2)
        else:
            _disc(canvas, c, pr, PIP, ppm)  # type: ignore[arg-type]


DISTANCE = 900.0  # mm: where the search for the camera's distance starts (see _camera_translation)
DIE_LEAN = (20.0, 32.0)  # degrees a cocked die is tipped by, leaning on a checker or a wall


def camera_eye(cam: Camera, geo: BoardGeometry) -> Viewpoint:
    """Where the camera is over the leather (canonical mm of its foot, height mm): what stands on the
    board is painted where the camera sees it on the leather's plane."""
    centre = -_camera_rotation(cam).T @ np.array(_camera_translation(cam, geo))
    return Viewpoint((float(centre[0] + geo.width / 2), float(centre[1] + geo.depth / 2)), float(-centre[2]), 0.0)


def _box(edge: float, xy: tuple[float, float], base: float, yaw_deg: float, lean_deg: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Corners (8, 3: canonical x, y, height) and outward face normals (6, 3: top, bottom, +x, -x, +y, -y
    of the box's own frame) of a cube of ``edge`` resting at ``base`` mm, turned by ``yaw_deg``; with
    ``lean_deg``, tipped over its bottom edge at -y so that its +y side rises. Seen from straight above
    its middle is at ``xy``."""
    e = edge
    c = np.array([[x, y, z] for z in (0.0, e) for y in (-e / 2, e / 2) for x in (-e / 2, e / 2)])
    n = np.array([[0, 0, 1], [0, 0, -1], [1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]], np.float64)
    if lean_deg:
        t = math.radians(lean_deg)
        tip = np.array([[1.0, 0.0, 0.0], [0.0, math.cos(t), -math.sin(t)], [0.0, math.sin(t), math.cos(t)]])
        pivot = np.array([0.0, -e / 2, 0.0])
        c = (c - pivot) @ tip.T + pivot
        n = n @ tip.T
    a = math.radians(yaw_deg)
    turn = np.array([[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0], [0.0, 0.0, 1.0]])
    c, n = c @ turn.T, n @ turn.T
    c[:, :2] += np.asarray(xy) - c[:, :2].mean(axis=0)
    c[:, 2] += base
    return c, n


# corners of each face of _box, in order around it, as the texture's corners (top-left, top-right, bottom-right, bottom-left)
_BOX_FACES = ((4, 5, 7, 6), (0, 1, 3, 2), (1, 3, 7, 5), (2, 0, 4, 6), (3, 2, 6, 7), (0, 1, 5, 4))


def _light_vector(light_deg: float) -> NDArray[np.float64]:
    """Towards the lamp: up, and against the way shadows fall."""
    a = math.radians(light_deg)
    v = np.array([-math.cos(a), -math.sin(a), 1.6])
    return v / np.linalg.norm(v)


def _face_shade(normal: NDArray[np.float64], light: NDArray[np.float64]) -> float:
    """Brightness of a face (1 for a face straight up): room light plus the lamp's, by its angle."""
    return float(0.42 + 0.58 * max(0.0, float(normal @ light)) / float(light[2]))


def _paint_texture(canvas: FloatImage, quad: NDArray[np.float64], texture: FloatImage, alpha: FloatImage, ppm: float,
                   cover: FloatImage | None = None) -> None:
    """``texture`` (with its ``alpha``) warped onto the canvas quad (4, 2 canvas mm; the texture's corners in order);
    ``cover`` (the canvas's alpha, where there is something to see) gains the quad."""
    q = quad * ppm
    h, w = canvas.shape[:2]
    x0, y0 = max(0, int(np.floor(q[:, 0].min())) - 1), max(0, int(np.floor(q[:, 1].min())) - 1)
    x1, y1 = min(w, int(np.ceil(q[:, 0].max())) + 2), min(h, int(np.ceil(q[:, 1].max())) + 2)
    if x1 <= x0 or y1 <= y0:
        return
    side = texture.shape[0]
    src = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    m = cv2.getPerspectiveTransform(src, (q - np.array([x0, y0])).astype(np.float32))
    size = (x1 - x0, y1 - y0)
    layer = cv2.warpPerspective(texture, m, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    mask = cv2.warpPerspective(alpha, m, size, flags=cv2.INTER_LINEAR)
    region = canvas[y0:y1, x0:x1]
    region *= 1 - mask[..., None]
    region += layer * mask[..., None]
    if cover is not None:
        seen = cover[y0:y1, x0:x1]
        seen += (1 - seen) * mask


@lru_cache(maxsize=64)
def _die_texture(value: int, side: int, colour: tuple[float, float, float] = DIE_WHITE) -> tuple[FloatImage, FloatImage]:
    """A die face (``colour``, its rounded rim a little darker, dark pips) and its alpha, ``side`` pixels square."""
    yy, xx = (np.mgrid[0:side, 0:side].astype(np.float32) + 0.5) / side - 0.5
    rim = np.clip((0.5 - np.maximum(np.abs(xx), np.abs(yy))) / 0.07, 0, 1)
    corner = np.clip((0.5 - 0.1 - np.hypot(np.maximum(np.abs(xx) - 0.4, 0), np.maximum(np.abs(yy) - 0.4, 0)) / 0.1 * 0.1) * side, 0, 1)
    face = np.empty((side, side, 3), np.float32)
    face[:] = colour
    face *= (0.8 + 0.2 * rim)[..., None]
    for px, py in PIP_LAYOUT[value]:
        d = np.hypot(xx - px * 0.28, yy - py * 0.28)
        pip = np.clip((0.095 + 0.02 - d) * side, 0, 1)
        face = face * (1 - pip[..., None]) + np.array(PIP, np.float32) * pip[..., None]
    return face, corner.astype(np.float32)


@lru_cache(maxsize=16)
def _cube_texture(face: int, side: int) -> tuple[FloatImage, FloatImage]:
    """A face of the doubling cube (ivory, its numeral in ink) and its alpha."""
    tile = np.empty((side, side, 3), np.float32)
    tile[:] = CUBE_IVORY
    ink = numeral_mask(str(face), side, max(1, side // 20))  # strokes a twentieth of the face, as the set's
    tile *= (1 - 0.85 * np.clip(ink, 0, 1))[..., None]
    return tile, np.ones((side, side), np.float32)


def _die_faces(value: int) -> tuple[int, ...]:
    """The values on a die's faces in _box's order (top, bottom, +x, -x, +y, -y): opposite faces add to seven."""
    a, b = sorted(v for v in range(1, 7) if v not in (value, 7 - value) and v < 7 - v)
    return (value, 7 - value, a, 7 - a, b, 7 - b)


def _paint_box(canvas: FloatImage, corners: NDArray[np.float64], normals: NDArray[np.float64], textures: list[tuple[FloatImage, FloatImage]],
               eye: Viewpoint, light: NDArray[np.float64], ppm: float, cover: FloatImage | None) -> None:
    """The faces of a box that face the camera, shaded, where the camera sees them on the leather's plane."""
    seen = eye.project(corners[:, :2], corners[:, 2])
    top = np.array([eye.nadir[0], eye.nadir[1], eye.height])
    for k, face in enumerate(_BOX_FACES):
        middle = corners[list(face)].mean(axis=0)
        if float(normals[k] @ (top - middle)) <= 0:
            continue
        texture, alpha = textures[k]
        _paint_texture(canvas, seen[list(face)], texture * _face_shade(normals[k], light), alpha, ppm, cover)


def paint_die(canvas: FloatImage, die: DieSpec, geo: BoardGeometry, ppm: float, light_deg: float, eye: Viewpoint, lean: float,
              offset: float = 0.0, cover: FloatImage | None = None) -> None:
    """A die as the camera sees it: flat, or (cocked) tipped by ``lean`` degrees, its +y side raised (on a canvas
    whose origin lies ``offset`` mm outside the board's corner; ``eye`` in the canvas's frame)."""
    side = max(16, int(round(geo.die_edge * ppm * 2)))
    xy = (die.xy[0] + offset, die.xy[1] + offset)
    corners, normals = _box(geo.die_edge, xy, surface_height(geo, die.xy), die.angle, 0.0 if die.flat else lean)
    textures = [_die_texture(v, side, die.colour) for v in _die_faces(die.value)]
    _paint_box(canvas, corners, normals, textures, eye, _light_vector(light_deg), ppm, cover)


def paint_cube(canvas: FloatImage, cube: CubeSpec, geo: BoardGeometry, ppm: float, light_deg: float, eye: Viewpoint,
               offset: float = 0.0, cover: FloatImage | None = None) -> None:
    """The doubling cube, its value's face up (the 64 when it stands at 1), on what it rests on."""
    side = max(16, int(round(geo.cube_edge * ppm * 2)))
    up = 64 if cube.value == 1 else cube.value
    others = [f for f in CUBE_FACES if f != up]
    xy = (cube.xy[0] + offset, cube.xy[1] + offset)
    corners, normals = _box(geo.cube_edge, xy, surface_height(geo, cube.xy), cube.angle, 0.0)
    textures = [_cube_texture(f, side) for f in [up] + others]
    _paint_box(canvas, corners, normals, textures, eye, _light_vector(light_deg), ppm, cover)


def paint_arm(canvas_img: FloatImage, arm: tuple[tuple[float, float], tuple[float, float], float], ppm: float,
              offset: float = 0.0, cover: FloatImage | None = None) -> None:
    (a, b, width) = arm
    a, b = (a[0] + offset, a[1] + offset), (b[0] + offset, b[1] + offset)
    m = np.zeros(canvas_img.shape[:2], np.float32)
    cv2.line(m, _px(a, ppm), _px(b, ppm), 1.0, int(width * ppm), cv2.LINE_AA, 4)
    cv2.circle(m, _px(b, ppm), int(width * ppm * 16 / 2 * 1.1), 1.0, -1, cv2.LINE_AA, 4)
    m = cv2.GaussianBlur(m, (0, 0), 2 * ppm)
    shade = cv2.GaussianBlur(m, (0, 0), 6 * ppm)
    layer = np.empty_like(canvas_img)
    layer[:] = SKIN
    layer *= (0.75 + 0.35 * shade)[..., None]
    _blend(canvas_img, layer, np.clip(m * 1.5, 0, 1))
    if cover is not None:
        cover += (1 - cover) * np.clip(m * 1.5, 0, 1)


def _paint_stack_side(canvas: FloatImage, eye: Viewpoint, xy: tuple[float, float], base: float, r: float,
                      height: float, copper: NDArray[np.float32], ppm: float) -> None:
    """The copper side of a checker the camera sees beside its top: discs from its base's place to its top's."""
    steps = max(2, int(np.ceil(height * ppm)))
    for z in np.linspace(base, base + height, steps):
        c = eye.project(np.asarray(xy), z)
        scale = float(eye.scale(z))
        shade = 0.45 + 0.2 * (z - base) / height
        _disc(canvas, (float(c[0]), float(c[1])), r * scale, tuple(float(v) * shade for v in copper), ppm)  # type: ignore[arg-type]


# How a sixth and later checker lies (all keep five in the first row, as the set's text says, but towers):
# row: each layer 10 mm further along (the set's own picture); centred: the layer centred over the row;
# base_end / tip_end: the layer piled from the base or from the tip end; skewed: the layer pushed aside and
# along; towers: piles up to five high; loose: a first row with gaps and sideways drift, layers anywhere on it
STACKING = ("row", "centred", "base_end", "tip_end", "skewed", "towers", "loose")
# Wider ways a hand piles them, for training only (not in STACKING, which the benchmarks judge by style):
# slid: each layer pushed as one piece up to 12 mm aside and -8..20 mm along off the one beneath;
# scattered: a first row with gaps to 4 mm and 7 mm drift aside, later checkers anywhere along it, 5 mm aside.
# In both every checker lies steady on the layer beneath and none overlaps another of its layer (``_wide_layer``).
WIDE_STACKING = ("slid", "scattered")


def stack_places(rng: np.random.Generator, geo: BoardGeometry, layout: Layout, point: int, count: int,
                 style: str) -> list[tuple[float, float, int]]:
    """(x, y, layer) in canonical mm of each of ``count`` checkers on dark's ``point`` piled in ``style``."""
    if style == "row":
        return [checker_centre(geo, layout, point, i) for i in range(count)]
    (bx, by), (dx, dy) = point_axis(geo, layout, point)
    d = geo.checker_diameter
    places: list[tuple[float, float]] = []  # (along, aside) with its layer
    layers: list[int] = []
    if style == "towers":
        high = int(rng.integers(2, 6))
        for i in range(count):
            slot, layer = divmod(i, high)
            places.append((d * (slot + 0.5) + rng.normal(0, 0.8), rng.normal(0, 1.0)))
            layers.append(layer)
    elif style in WIDE_STACKING:
        gap = rng.uniform(0.0, 4.0) if style == "scattered" else rng.uniform(0.0, 1.0)
        drift = 7.0 if style == "scattered" else 1.5
        beneath: list[tuple[float, float]] = []
        for layer in range((count + 4) // 5):
            k = min(5, count - 5 * layer)
            if layer == 0:
                tier = [((d + gap) * (slot + 0.5), rng.uniform(-drift, drift)) for slot in range(k)]
            else:
                tier = _wide_layer(rng, style, beneath, k, d)
            places += tier
            layers += [layer] * k
            beneath = tier
    else:
        gap = rng.uniform(0.0, 1.5) if style == "loose" else 0.0
        row = min(count, 5)
        for i in range(count):
            layer, slot = divmod(i, 5)
            if layer == 0:
                along, aside = (d + gap) * (slot + 0.5), (rng.uniform(-4, 4) if style == "loose" else 0.0)
            else:
                k = min(5, count - 5 * layer)  # checkers in this layer
                if style == "centred":
                    along = d * row / 2 + d * (slot - (k - 1) / 2)
                elif style == "base_end":
                    along = d * (slot + 0.5) + 2.0 * layer
                elif style == "tip_end":
                    along = d * (row - k + slot + 0.5) + 2.0 * layer
                elif style == "skewed":
                    along = d * (slot + 0.5) + rng.uniform(5, 15) * layer
                else:  # loose
                    along = (d + gap) * (slot + 0.5) + rng.uniform(-6, 14)
                aside = (rng.uniform(3, 8) * rng.choice([-1, 1]) * layer) if style == "skewed" else rng.normal(0, 1.5)
            places.append((along, aside))
            layers.append(layer)
    return [(bx + dx * a + dy * s, by + dy * a - dx * s, layer) for (a, s), layer in zip(places, layers)]


def _rests_on(xy: tuple[float, float], beneath: list[tuple[float, float]], d: float) -> bool:
    """Whether a checker centred at ``xy`` (along, aside mm) lies steady on the checkers ``beneath``: its centre over
    one of them (within 0.8 of a radius of its centre) or over the waist between two neighbours it lies across."""
    r = d / 2
    near = [b for b in beneath if math.dist(xy, b) < d]
    if any(math.dist(xy, b) < 0.8 * r for b in near):
        return True
    for i, a in enumerate(near):
        for b in near[i + 1:]:
            ab = (b[0] - a[0], b[1] - a[1])
            t = min(1.0, max(0.0, ((xy[0] - a[0]) * ab[0] + (xy[1] - a[1]) * ab[1]) / max(ab[0] ** 2 + ab[1] ** 2, 1e-9)))
            if math.dist(a, b) < d + 5 and math.dist(xy, (a[0] + t * ab[0], a[1] + t * ab[1])) < 0.4 * r:
                return True
    return False


def _wide_layer(rng: np.random.Generator, style: str, beneath: list[tuple[float, float]], k: int,
                d: float) -> list[tuple[float, float]]:
    """``k`` (<= len(beneath)) checkers (along, aside mm) of a slid or scattered layer lying on ``beneath``: each
    steady on it (``_rests_on``) and none overlapping another of its layer. Slid: the layer pushed as one piece
    up to 12 mm aside and -8..20 mm along off the one beneath (less if it would fall off); scattered: each
    anywhere along the layer beneath, 5 mm aside. Drawn again until it lies; failing that, straight on top."""
    lo, hi = min(b[0] for b in beneath) - 0.3 * d, max(b[0] for b in beneath) + 0.3 * d
    for attempt in range(40):
        if style == "slid":
            shrink = 1.0 - attempt / 40
            da, ds = rng.uniform(-8, 20) * shrink, rng.uniform(-12, 12) * shrink
            tier = [(a + da + rng.normal(0, 1), s + ds + rng.normal(0, 1)) for a, s in beneath[:k]]
        else:
            tier = []
            for _ in range(30 * k):
                xy = (float(rng.uniform(lo, hi)), float(rng.normal(0, 5)))
                if _rests_on(xy, beneath, d) and all(math.dist(xy, o) >= d for o in tier):
                    tier.append(xy)
                    if len(tier) == k:
                        break
        if len(tier) == k and all(_rests_on(xy, beneath, d) for xy in tier) and \
                all(math.dist(a, b) >= d for i, a in enumerate(tier) for b in tier[i + 1:]):
            return tier
    return list(beneath[:k])


MARGIN = 60.0  # mm of table around the board on the canvas: a cube on the frame is seen past the board's outline


def paint_scene(rng: np.random.Generator, scene: Scene, board: FloatImage, pal: Palette, cam: Camera, geo: BoardGeometry) -> FloatImage:
    """The scene on a canvas reaching ``MARGIN`` past the board's outline: BGR and, fourth, where anything is
    (the board, and past it what stands over the table as the camera sees it)."""
    ppm = cam.px_per_mm
    m = int(round(MARGIN * ppm))
    off = m / ppm
    h, w = board.shape[:2]
    canvas = np.zeros((h + 2 * m, w + 2 * m, 3), np.float32)
    canvas[m:m + h, m:m + w] = board
    cover = np.zeros(canvas.shape[:2], np.float32)
    cover[m:m + h, m:m + w] = 1.0
    board_eye = camera_eye(cam, geo)
    eye = Viewpoint((board_eye.nadir[0] + off, board_eye.nadir[1] + off), board_eye.height, 0.0)
    checkers: list[tuple[tuple[float, float], bool, int, float]] = []  # (xy, dark, layer, base height)
    for p, n in enumerate(scene.points, start=1):
        for x, y, layer in stack_places(rng, geo, scene.layout, p, abs(n), scene.stacking):
            checkers.append(((x + off, y + off), n > 0, layer, geo.checker_thickness * layer))
    for dark, count in ((True, scene.bar[0]), (False, scene.bar[1])):
        for i in range(count):
            bx, by = bar_centre(geo, scene.layout, dark, i)
            checkers.append(((bx + off, by + off), dark, 0, geo.bar_height))
    shadows = [(xy, geo.checker_diameter / 2, geo.checker_thickness * (layer + 1)) for xy, _, layer, _ in checkers]
    shadows += [((d.xy[0] + off, d.xy[1] + off), geo.die_edge / 2, geo.die_edge) for d in scene.dice]
    if scene.cube is not None:
        shadows.append(((scene.cube.xy[0] + off, scene.cube.xy[1] + off), geo.cube_edge / 2, geo.cube_edge))
    paint_shadows(canvas, shadows, cam.light_dir_deg, ppm, cam.shadow_mm, cam.shadow_depth)
    nadir = np.asarray(eye.nadir)
    # lower layers first, and in a layer the farther from the camera's foot first (nearer ones hide their sides)
    order = sorted(checkers, key=lambda c: (c[3], -float(np.hypot(*(np.asarray(c[0]) - nadir)))))
    r = geo.checker_diameter / 2
    for xy, dark, layer, base in order:
        jitter = (xy[0] + rng.normal(0, 0.6), xy[1] + rng.normal(0, 0.6))
        copper = np.array(pal.copper, np.float32) * (1.0 + 0.04 * layer)
        _paint_stack_side(canvas, eye, jitter, base, r, geo.checker_thickness, copper, ppm)
        top = base + geo.checker_thickness
        c = eye.project(np.asarray(jitter), top)
        paint_checker(rng, canvas, (float(c[0]), float(c[1])), dark, geo, pal, ppm, cam.light_dir_deg, layer,
                      float(eye.scale(top)))
    near = np.asarray(board_eye.nadir)
    things: list[tuple[float, object]] = [(float(np.hypot(*(np.asarray(d.xy) - near))), d) for d in scene.dice]
    if scene.cube is not None:
        things.append((float(np.hypot(*(np.asarray(scene.cube.xy) - near))), scene.cube))
    for _, thing in sorted(things, key=lambda t: -t[0]):
        if isinstance(thing, DieSpec):
            paint_die(canvas, thing, geo, ppm, cam.light_dir_deg, eye, float(rng.uniform(*DIE_LEAN)), off, cover)
        else:
            paint_cube(canvas, thing, geo, ppm, cam.light_dir_deg, eye, off, cover)  # type: ignore[arg-type]
    if scene.arm is not None:
        paint_arm(canvas, scene.arm, ppm, off, cover)
    return np.dstack([canvas, cover])


# ----------------------------------------------------------------------------- camera


def _camera_rotation(cam: Camera) -> NDArray[np.float64]:
    """Board plane (centred at the origin) to camera axes: yawed about the vertical, then tilted."""
    t, az, yaw = (math.radians(v) for v in (cam.tilt_deg, cam.tilt_azimuth_deg, cam.yaw_deg))
    rz = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]])
    rt, _ = cv2.Rodrigues(np.array([math.cos(az), math.sin(az), 0.0]) * t)
    return rt @ rz


@lru_cache(maxsize=256)
def _camera_translation(cam: Camera, geo: BoardGeometry) -> tuple[float, float, float]:
    """Where the board's centre lies in the camera's axes (mm): as far away, and as far aside, as makes the
    board span ``cam.fill`` of the image at ``cam.shift`` through a lens of ``cam.focal`` (a real camera:
    its height and its lens together decide how large the board is seen)."""
    w, h = cam.size
    rot = _camera_rotation(cam)
    corners = np.array([[0, 0], [geo.width, 0], [geo.width, geo.depth], [0, geo.depth]], np.float64) - np.array(geo.centre)
    flat = np.column_stack([corners, np.zeros(4)]) @ rot.T
    t = np.array([0.0, 0.0, DISTANCE])
    target = np.array([w / 2 + cam.shift[0] * w, h / 2 + cam.shift[1] * h])
    for _ in range(40):
        p = flat + t
        pts = cam.focal * p[:, :2] / p[:, 2:3] + np.array([w / 2, h / 2])
        span = pts.max(axis=0) - pts.min(axis=0)
        t = t / (cam.fill * min(w / span[0], h / span[1]))
        p = flat + t
        pts = cam.focal * p[:, :2] / p[:, 2:3] + np.array([w / 2, h / 2])
        t[:2] += (target - (pts.max(axis=0) + pts.min(axis=0)) / 2) * t[2] / cam.focal
    return float(t[0]), float(t[1]), float(t[2])


def board_homography(cam: Camera, geo: BoardGeometry) -> NDArray[np.float64]:
    """Homography from canonical millimetres (the leather's plane) to image pixels for ``cam``."""
    w, h = cam.size
    rot = _camera_rotation(cam)
    k = np.array([[cam.focal, 0, w / 2], [0, cam.focal, h / 2], [0, 0, 1]])
    centre = np.array([[1, 0, -geo.width / 2], [0, 1, -geo.depth / 2], [0, 0, 1]])
    # plane point (X, Y) -> camera: rot @ (X, Y, 0) + t
    m = np.column_stack([rot[:, 0], rot[:, 1], np.array(_camera_translation(cam, geo))])
    return k @ m @ centre


def _lamp(cam: Camera, shape: tuple[int, int], rng: np.random.Generator, drift: float) -> FloatImage:
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    lx, ly = cam.lamp_xy[0] * w, cam.lamp_xy[1] * h
    r2 = ((xx - lx) ** 2 + (yy - ly) ** 2) / float(w * w)
    fall = 1.0 / (1.0 + 1.2 * r2)
    tint = kelvin_bgr(cam.lamp_kelvin) if cam.lamp_kelvin else {"warm": (0.78, 0.92, 1.08), "cool": (1.08, 1.0, 0.9), "dim": (0.85, 0.9, 1.0)}[cam.lamp]
    gain = {"warm": 1.05, "cool": 1.0, "dim": 0.5}[cam.lamp] * (1 + rng.uniform(-0.25, 0.25) * drift)
    return np.dstack([fall * t * gain for t in tint]).astype(np.float32)


def kelvin_bgr(kelvin: float) -> tuple[float, float, float]:
    """BGR of a black body at ``kelvin`` as a camera balanced for daylight (6500 K) records it, its brightest
    channel 1: a 2700 K bulb's light is about (0.35, 0.66, 1.0), orange; above 6500 K it turns blue.
    (Tanner Helland's fit of the black-body colours to sRGB.)"""

    def rgb(k: float) -> tuple[float, float, float]:
        t = k / 100.0
        r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
        g = 99.4708025861 * math.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
        b = 255.0 if t >= 66 else 0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307
        return tuple(min(255.0, max(0.0, v)) for v in (r, g, b))  # type: ignore[return-value]

    lamp, day = rgb(kelvin), rgb(6500.0)
    bgr = [lamp[c] / day[c] for c in (2, 1, 0)]
    return tuple(v / max(bgr) for v in bgr)  # type: ignore[return-value]


def random_cloth(rng: np.random.Generator) -> tuple[float, float, float]:
    """A table cloth of any hue (BGR 0..1): red, green, blue, felt or linen, saturated or pale, dark or light."""
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(60, 240), rng.integers(70, 220)]]])
    return tuple(float(v) / 255.0 for v in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])  # type: ignore[return-value]


def _barrel(img: Image, k1: float) -> Image:
    if k1 == 0:
        return img
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy, norm = w / 2, h / 2, float(max(w, h))
    dx, dy = (xx - cx) / norm, (yy - cy) / norm
    f = 1 + k1 * (dx * dx + dy * dy)
    return cv2.remap(img, cx + dx * f * norm, cy + dy * f * norm, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def _blurred(img: FloatImage, cam: Camera) -> FloatImage:
    """The image through a lens out of focus (``defocus_px``) and moving (``motion_px`` along ``motion_deg``)."""
    if cam.defocus_px > 0:
        img = cv2.GaussianBlur(img, (0, 0), cam.defocus_px)
    if cam.motion_px >= 1:
        n = int(np.ceil(cam.motion_px)) | 1
        kernel = np.zeros((n, n), np.float32)
        c, t = n // 2, np.deg2rad(cam.motion_deg)
        for s in np.linspace(-cam.motion_px / 2, cam.motion_px / 2, 4 * n):
            kernel[int(round(c + s * np.sin(t))), int(round(c + s * np.cos(t)))] += 1.0
        img = cv2.filter2D(img, -1, kernel / kernel.sum(), borderType=cv2.BORDER_REFLECT)
    return img


def photograph(rng: np.random.Generator, canvas: FloatImage, cam: Camera, pal: Palette, geo: BoardGeometry,
               lamp_drift: float = 0.0) -> Image:
    """The canvas (of :func:`paint_scene`: BGR and where anything is, ``MARGIN`` round the board; or the board
    alone, BGR) on the table, through the camera and its lamp, lens, sensor and JPEG."""
    w, h = cam.size
    ppm = cam.px_per_mm
    if canvas.shape[2] == 4:
        off = int(round(MARGIN * ppm)) / ppm
        canvas, cover = np.ascontiguousarray(canvas[..., :3]), np.ascontiguousarray(canvas[..., 3])
    else:
        off, cover = 0.0, np.ones(canvas.shape[:2], np.float32)
    hom = board_homography(cam, geo) @ np.array([[1, 0, -off], [0, 1, -off], [0, 0, 1.0]]) @ np.diag([1 / ppm, 1 / ppm, 1.0])
    table = leather(rng, (h, w), pal.table, 3.0) * (1 + 0.1 * noise(rng, (h, w), 200, 2))[..., None]
    warped = cv2.warpPerspective(canvas, hom, (w, h), flags=cv2.INTER_AREA if ppm > 2 else cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(cover, hom, (w, h), flags=cv2.INTER_LINEAR)
    shadow = cv2.GaussianBlur(mask, (0, 0), 12)
    shifted = cv2.warpAffine(shadow, np.float32([[1, 0, 8], [0, 1, 10]]), (w, h))
    table *= (1 - 0.5 * shifted)[..., None]
    img = table * (1 - mask[..., None]) + warped * mask[..., None]
    img *= _lamp(cam, (h, w), rng, lamp_drift)
    img *= np.asarray(cam.white_balance, np.float32)
    if cam.exposure != 1.0:
        img *= np.float32(cam.exposure)
    img = np.clip(img * 255, 0, 255)
    img = _barrel(img.astype(np.uint8), cam.barrel_k1).astype(np.float32)
    img = _blurred(img, cam)
    img += rng.normal(0, cam.noise, img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(cam.jpeg_quality)])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


@dataclass(frozen=True, slots=True)
class Setup:
    """One physical installation: a set (colours, wood and leather), a camera and a lamp.

    The board's textures come from ``board_seed`` so every frame of one setup shows the
    same board; checkers, dice, noise and the lamp's drift vary per frame.
    """

    camera: Camera
    palette: Palette
    layout: Layout
    board_seed: int


def random_setup(rng: np.random.Generator, size: tuple[int, int] = (1280, 720), any_light: bool = False) -> Setup:
    """A random installation; with ``any_light``, its lamp of any colour temperature (2700-6500 K), the camera's
    white balance off by up to a quarter each way, and on a table cloth of any hue half the time (drawn after the
    rest, so a setup's camera, set and layout are the same either way)."""
    setup = Setup(random_camera(rng, size), random_palette(rng), random_layout(rng), int(rng.integers(2**31)))
    if not any_light:
        return setup
    balance = tuple(float(v) for v in rng.uniform(0.8, 1.25, 3))
    camera = replace(setup.camera, lamp_kelvin=float(rng.uniform(2700, 6500)), white_balance=balance)  # type: ignore[arg-type]
    cloth = random_cloth(rng) if rng.random() < 0.5 else setup.palette.table
    return replace(setup, camera=camera, palette=replace(setup.palette, table=cloth))


def render(scene: Scene, setup: Setup, seed: int, lamp_drift: float = 0.0) -> tuple[Image, dict[str, object]]:
    """Render ``scene`` in ``setup``; returns (BGR image, true board-spec reading).

    ``lamp_drift`` (0..1) moves and rescales the lamp for this frame, as daylight and
    people moving do during a game.
    """
    rng = np.random.default_rng(seed)
    geo = BoardGeometry()
    cam = setup.camera
    if lamp_drift:
        lx, ly = cam.lamp_xy
        cam = replace(cam, lamp_xy=(lx + rng.uniform(-0.3, 0.3) * lamp_drift, ly + rng.uniform(-0.3, 0.3) * lamp_drift),
                      light_dir_deg=cam.light_dir_deg + rng.uniform(-40, 40) * lamp_drift)
    board = paint_board(np.random.default_rng(setup.board_seed), geo, setup.palette, cam.px_per_mm)
    canvas = paint_scene(rng, scene, board, setup.palette, cam, geo)
    return photograph(rng, canvas, cam, setup.palette, geo, lamp_drift), scene.reading()


def image_point(setup: Setup, xy: tuple[float, float], height: float = 0.0) -> tuple[float, float]:
    """Where a point ``height`` mm above the leather at canonical ``xy`` (renderer's frame) lands in the image."""
    from vision.board import Lens

    cam = setup.camera
    if height:
        seen = camera_eye(cam, BoardGeometry()).project(np.asarray(xy, np.float64), height)
        xy = (float(seen[0]), float(seen[1]))
    hom = board_homography(cam, BoardGeometry())
    p = cv2.perspectiveTransform(np.array([[xy]], np.float64), hom)[0, 0]
    w, h = cam.size
    lens = Lens(cam.barrel_k1, (w / 2.0, h / 2.0), float(max(w, h)))
    d = lens.distort(np.array([p]))[0]
    return float(d[0]), float(d[1])


# ----------------------------------------------------------------------------- random scenes


def random_camera(rng: np.random.Generator, size: tuple[int, int] = (1280, 720)) -> Camera:
    return Camera(
        size=size,
        tilt_deg=float(rng.uniform(0, 15)),
        tilt_azimuth_deg=float(rng.uniform(0, 360)),
        yaw_deg=float(rng.choice([0.0, 180.0]) + rng.normal(0, 4)),
        fill=float(rng.uniform(0.78, 0.95)),
        shift=(float(rng.uniform(-0.03, 0.03)), float(rng.uniform(-0.03, 0.03))),
        focal=float(rng.uniform(900, 1400)),
        barrel_k1=float(rng.uniform(0.0, 0.12)),
        lamp=str(rng.choice(["warm", "cool", "dim"])),
        lamp_xy=(float(rng.uniform(0.1, 0.9)), float(rng.uniform(0.1, 0.9))),
        light_dir_deg=float(rng.uniform(0, 360)),
        noise=float(rng.uniform(1.0, 5.0)),
        jpeg_quality=int(rng.integers(70, 96)),
    )


def random_layout(rng: np.random.Generator) -> Layout:
    return Layout(home_right=bool(rng.integers(2)), dark_bottom=bool(rng.integers(2)))


def random_points(rng: np.random.Generator) -> tuple[tuple[int, ...], tuple[int, int]]:
    """A random legal-looking distribution: no shared points, stacks up to 15."""
    pts = [0] * 24
    bar = [0, 0]
    for sign, idx in ((1, 0), (-1, 1)):
        on = 15 - int(rng.choice([0, 0, 0, 1, 2, 4, 8]))
        bar[idx] = int(rng.choice([0, 0, 0, 0, 1, 2]))
        on -= bar[idx]
        big = rng.random() < 0.25
        while on > 0:
            p = int(rng.integers(24))
            if pts[p] * sign < 0:
                continue
            opp = pts[23 - p]
            cap = 15 if abs(opp) <= 4 else 4
            add = int(min(on, rng.integers(1, 8 if big else 4)))
            if abs(pts[p]) + add > cap:
                if all(pts[q] * sign < 0 or abs(pts[q]) >= (15 if abs(pts[23 - q]) <= 4 else 4) for q in range(24)):
                    break
                continue
            pts[p] += sign * add
            on -= add
    return tuple(pts), (bar[0], bar[1])


DIE_CLEARANCE = 12.0  # mm from a die's centre to the bar's edge: a 16 mm die clear of it however it is turned


def _free_spot(rng: np.random.Generator, geo: BoardGeometry, scene_pts: list[tuple[float, float]], half: str,
               layout: Layout, margin: float) -> tuple[float, float] | None:
    f = geo.frame
    for _ in range(200):
        if half == "off":
            choice = rng.integers(3)
            if choice == 0:  # on the bar ridge, wholly (a die across its edge lies in no half)
                x = float(rng.uniform(*geo.bar_x))
                mid = sum(geo.bar_x) / 2
                x = mid + (x - mid) * max(0.0, (geo.bar_x[1] - geo.bar_x[0]) / 2 - DIE_CLEARANCE) / ((geo.bar_x[1] - geo.bar_x[0]) / 2)
                xy = (x, float(rng.uniform(f + 10, geo.depth - f - 10)))
            else:  # on the frame, top or bottom
                y = f / 2 if choice == 1 else geo.depth - f / 2
                xy = (float(rng.uniform(f + 15, geo.width - f - 15)), y)
        else:
            xy = (float(rng.uniform(f + margin, geo.width - f - margin)), float(rng.uniform(f + margin, geo.depth - f - margin)))
            if half_of(geo, layout, xy) != half or min(abs(xy[0] - b) for b in geo.bar_x) < DIE_CLEARANCE:
                continue  # a die across the bar's edge lies in no half
        if all(math.hypot(xy[0] - a, xy[1] - b) > margin for a, b in scene_pts):
            return xy
    return None


def random_scene(rng: np.random.Generator, layout: Layout, start: bool = False, dice: bool = True, cube: bool = True) -> Scene:
    geo = BoardGeometry()
    if start:
        points, bar = START_POINTS, (0, 0)
    else:
        points, bar = random_points(rng)
    occupied: list[tuple[float, float]] = []
    for p, n in enumerate(points, start=1):
        occupied += [checker_centre(geo, layout, p, i)[:2] for i in range(abs(n))]
    occupied += [bar_centre(geo, layout, True, i) for i in range(bar[0])]
    occupied += [bar_centre(geo, layout, False, i) for i in range(bar[1])]
    cube_spec = None
    if cube:
        value = 1 if start else int(rng.choice([1, 1, 2, 4, 8, 16, 32, 64]))
        position = "centre" if value == 1 else str(rng.choice(["dark", "light"]))
        if position == "centre":
            xy = (geo.centre[0] + rng.normal(0, 1.0), geo.centre[1] + rng.normal(0, 2.0))
        else:
            x = float(rng.uniform(geo.frame + 30, geo.width - geo.frame - 30))
            y = geo.depth - geo.frame / 2 if (position == "dark") == layout.dark_bottom else geo.frame / 2
            xy = (x, y)
        cube_spec = CubeSpec(value, position, xy, float(rng.uniform(-12, 12)))
        occupied.append(xy)
    dice_specs: list[DieSpec] = []
    if dice and not start:
        n = int(rng.choice([0, 2, 2, 2, 2, 1]))
        half = str(rng.choice(["home", "outer"]))
        for _ in range(n):
            h = "off" if rng.random() < 0.08 else half
            flat = bool(rng.random() > 0.12)
            xy = _free_spot(rng, geo, occupied, h, layout, 24.0)
            if xy is None:
                continue
            occupied.append(xy)
            # A die on the frame lies flat: the frame is a die's width, and a cocked die's side would
            # hang past the board's outline, which this renderer does not paint.
            flat = flat or not (geo.frame < xy[1] < geo.depth - geo.frame)
            dice_specs.append(DieSpec(int(rng.integers(1, 7)), xy, float(rng.uniform(0, 90)), flat, 0.0))
    return Scene(points, bar, layout, tuple(dice_specs), cube_spec)


def with_arm(rng: np.random.Generator, scene: Scene) -> Scene:
    """The same scene with an arm reaching in from the side (covers part of the board)."""
    geo = BoardGeometry()
    side = rng.integers(4)
    x = float(rng.uniform(60, geo.width - 60))
    y = float(rng.uniform(60, geo.depth - 60))
    start = [(x, -200.0), (x, geo.depth + 200), (-200.0, y), (geo.width + 200, y)][side]
    end = (float(rng.uniform(100, geo.width - 100)), float(rng.uniform(80, geo.depth - 80)))
    return replace(scene, arm=(start, end, float(rng.uniform(70, 95))))
