"""Draw a :class:`~benchmarks.world.scene.Scene` as a camera frame (OpenCV + NumPy).

Planar parts (leather, walnut tops) are textures warped by the plane's homography;
solid parts (checkers, dice, cube, frame walls, arms) are 3D polygons projected by the
camera and painted far to near.  Then lamp, lens, blur, white balance, noise and JPEG.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from . import board as B
from .camera import MARGIN, Camera, make_camera
from .fonts import numeral
from .scene import Arm, Checker, Cube, Die, Look, Scene, kelvin_bgr

S = 2.0  # texture pixels per mm
Image = NDArray[np.uint8]
LAMP_H = 1100.0  # mm above the board


def mm_to_tex() -> NDArray[np.float64]:
    return np.array([[S, 0, B.WIDTH / 2 * S], [0, -S, B.DEPTH / 2 * S], [0, 0, 1.0]])


def _to_tex(x: float, y: float) -> tuple[float, float]:
    return (x + B.WIDTH / 2) * S, (B.DEPTH / 2 - y) * S


def board_texture(scene: Scene) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """Leather and walnut seen from straight above, and the mask of the raised wood (frame, bar)."""
    look, seating = scene.look, scene.seating
    rng = np.random.default_rng(look.grain_seed)
    w, h = int(B.WIDTH * S), int(B.DEPTH * S)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    # walnut: long wavy grain along the board's length
    phase = rng.uniform(0, 6.28)
    wobble = cv2.resize(rng.normal(0, 1, (8, 12)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC) * 6
    grain = 0.5 + 0.5 * np.sin((yy / S) * 0.9 + wobble + phase) * np.sin((yy / S) * 0.23 + 0.5 * wobble)
    wood = np.array(look.walnut, np.float32) * (0.8 + 0.35 * grain[..., None])
    img = wood.copy()
    rim = np.ones((h, w), np.uint8)
    field = tuple(int(v) for v in np.clip(np.array(look.orange) * 0.35 + np.array([120, 150, 170]) * 0.65, 0, 255))
    for sx in (-1, 1):
        x0, x1 = sorted((sx * B.BAR / 2, sx * (B.BAR / 2 + B.HALF_W)))
        a, b = _to_tex(x0, B.SURFACE_D / 2), _to_tex(x1, -B.SURFACE_D / 2)
        cv2.rectangle(img, (int(a[0]), int(a[1])), (int(b[0]) - 1, int(b[1]) - 1), field, -1)
        rim[int(a[1]):int(b[1]), int(a[0]):int(b[0])] = 0
    for p in range(1, 25):
        x, yb, inward = B.point_frame(seating, p)
        half = B.POINT_W / 2 - 0.8
        tri = np.array([_to_tex(x - half, yb), _to_tex(x + half, yb), _to_tex(x, yb + inward * B.POINT_L)]) * 16
        colour = look.olive if p % 2 else look.orange
        cv2.fillPoly(img, [tri.astype(np.int32)], colour, cv2.LINE_AA, shift=4)
    # leather grain: fine mottling on the leather, none on the wood
    mott = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 1.2) * 5
    img = img + (mott * (1 - rim))[..., None]
    return np.clip(img, 0, 255).astype(np.uint8), rim


def _poly(cam: Camera, pts: NDArray[np.float64]) -> NDArray[np.int32]:
    return np.round(cam.canvas(pts) * 16).astype(np.int32)


def _facing(cam: Camera, centre: NDArray[np.float64], normal: NDArray[np.float64]) -> bool:
    return float((cam.C - centre) @ normal) > 0


def _shade(colour: Any, k: float) -> tuple[int, int, int]:
    return tuple(int(min(255, max(0, c * k))) for c in colour)  # type: ignore[return-value]


def _lamp_dir(look: Look) -> NDArray[np.float64]:
    x, y, _ = max(look.lamps, key=lambda l: l[2])
    v = np.array([x, y, LAMP_H])
    return v / np.linalg.norm(v)


def static_layer(scene: Scene, cam: Camera) -> NDArray[np.uint8]:
    """Table, board walls and surfaces: what does not change during a game."""
    look = scene.look
    w, h = cam.size[0] + 2 * MARGIN, cam.size[1] + 2 * MARGIN
    rng = np.random.default_rng(look.grain_seed + 1)
    cloth = cv2.GaussianBlur(rng.normal(0, 1, (h // 4, w // 4)).astype(np.float32), (0, 0), 2) * 8
    canvas = np.clip(np.array(look.table, np.float32) + cv2.resize(cloth, (w, h))[..., None], 0, 255).astype(np.uint8)
    tex, rim = board_texture(scene)
    base = -15.0  # the board stands on the table this far below the leather
    hw, hd = B.WIDTH / 2, B.DEPTH / 2
    for (x0, y0), (x1, y1), n in (((-hw, -hd), (hw, -hd), (0, -1)), ((hw, -hd), (hw, hd), (1, 0)), ((hw, hd), (-hw, hd), (0, 1)), ((-hw, hd), (-hw, -hd), (-1, 0))):
        quad = np.array([[x0, y0, base], [x1, y1, base], [x1, y1, B.RIM_H], [x0, y0, B.RIM_H]])
        if _facing(cam, quad.mean(axis=0), np.array([n[0], n[1], 0.0])):
            cv2.fillPoly(canvas, [_poly(cam, quad)], _shade(look.walnut, 0.65), cv2.LINE_AA, shift=4)
    size = (w, h)
    H0 = cam.homography(0.0, mm_to_tex())
    low = cv2.warpPerspective(tex, H0, size, flags=cv2.INTER_LINEAR)
    m0 = cv2.warpPerspective(np.full(rim.shape, 255, np.uint8), H0, size)
    canvas = np.where(m0[..., None] > 127, low, canvas)
    # the inner walls of frame and bar, where the camera sees them
    inner_x, inner_y, bx = hw - B.FRAME, B.SURFACE_D / 2, B.BAR / 2
    walls = [((inner_x, -inner_y), (inner_x, inner_y), (-1, 0)), ((-inner_x, -inner_y), (-inner_x, inner_y), (1, 0)),
             ((-inner_x, inner_y), (inner_x, inner_y), (0, -1)), ((-inner_x, -inner_y), (inner_x, -inner_y), (0, 1)),
             ((bx, -inner_y), (bx, inner_y), (1, 0)), ((-bx, -inner_y), (-bx, inner_y), (-1, 0))]
    for (x0, y0), (x1, y1), n in walls:
        quad = np.array([[x0, y0, 0.0], [x1, y1, 0.0], [x1, y1, B.RIM_H], [x0, y0, B.RIM_H]])
        if _facing(cam, quad.mean(axis=0), np.array([n[0], n[1], 0.0])):
            cv2.fillPoly(canvas, [_poly(cam, quad)], _shade(look.walnut, 0.55), cv2.LINE_AA, shift=4)
    H1 = cam.homography(B.RIM_H, mm_to_tex())
    high = cv2.warpPerspective(tex, H1, size, flags=cv2.INTER_LINEAR)
    m1 = cv2.warpPerspective(rim * 255, H1, size, flags=cv2.INTER_LINEAR)
    a = (m1.astype(np.float32) / 255)[..., None]
    return (high * a + canvas * (1 - a)).astype(np.uint8)


# --- solids ---------------------------------------------------------------------------------

RING = np.linspace(0, 2 * np.pi, 36, endpoint=False)


def _circle(x: float, y: float, z: float, r: float) -> NDArray[np.float64]:
    return np.stack([x + r * np.cos(RING), y + r * np.sin(RING), np.full_like(RING, z)], axis=1)


def draw_checker(canvas: Image, cam: Camera, c: Checker, look: Look) -> None:
    r = B.CHECKER_D / 2
    bottom, top = _circle(c.x, c.y, c.z, r), _circle(c.x, c.y, c.z + B.CHECKER_T, r)
    pts = np.vstack([cam.canvas(bottom), cam.canvas(top)])
    hull = cv2.convexHull(np.round(pts * 16).astype(np.int32))
    cv2.fillPoly(canvas, [hull], _shade(look.copper, 0.55), cv2.LINE_AA, shift=4)
    cv2.polylines(canvas, [hull], True, _shade(look.copper, 0.25), 1, cv2.LINE_AA, shift=4)
    cv2.fillPoly(canvas, [_poly(cam, top)], look.copper, cv2.LINE_AA, shift=4)
    zt = c.z + B.CHECKER_T
    cv2.fillPoly(canvas, [_poly(cam, _circle(c.x, c.y, zt, 12.3))], _shade(look.copper, 0.7), cv2.LINE_AA, shift=4)
    inlay = look.dark_inlay if c.colour == "dark" else look.light_inlay
    cv2.fillPoly(canvas, [_poly(cam, _circle(c.x, c.y, zt, 11.3))], inlay, cv2.LINE_AA, shift=4)
    if look.shine > 0.05:  # the polished rim catches the lamp on the side facing it
        lx, ly, _ = max(look.lamps, key=lambda l: l[2])
        a0 = math.atan2(ly - c.y, lx - c.x)
        arc = np.linspace(a0 - 0.6, a0 + 0.6, 10)
        pts3 = np.stack([c.x + 13.6 * np.cos(arc), c.y + 13.6 * np.sin(arc), np.full_like(arc, zt)], axis=1)
        hi = tuple(int(v + (255 - v) * look.shine) for v in look.copper)
        px = cam.f / cam.C[2]
        cv2.polylines(canvas, [_poly(cam, pts3)], False, hi, max(1, int(round(1.5 * px))), cv2.LINE_AA, shift=4)


PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)], 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
        5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)], 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
TILE = 64


def die_face(value: int, die: Die) -> tuple[Image, NDArray[np.uint8]]:
    """A face texture and its mask (rounded corners)."""
    tile = np.zeros((TILE, TILE, 3), np.uint8)
    mask = np.zeros((TILE, TILE), np.uint8)
    rad = int(die.corner * TILE)
    cv2.rectangle(mask, (rad, 0), (TILE - 1 - rad, TILE - 1), 255, -1)
    cv2.rectangle(mask, (0, rad), (TILE - 1, TILE - 1 - rad), 255, -1)
    for cx in (rad, TILE - 1 - rad):
        for cy in (rad, TILE - 1 - rad):
            cv2.circle(mask, (cx, cy), rad, 255, -1, cv2.LINE_AA)
    tile[:] = die.tint
    off = 0.27 * TILE
    for px, py in PIPS[value]:
        cv2.circle(tile, (int(TILE / 2 + px * off), int(TILE / 2 + py * off)), int(die.pip * TILE / 2), (35, 30, 30), -1, cv2.LINE_AA)
    return tile, mask


def cube_face(value: int, cube: Cube) -> tuple[Image, NDArray[np.uint8]]:
    ink = numeral(cube.typeface, str(value), TILE)
    base = np.full((TILE, TILE, 3), (225, 232, 236), np.float32)
    dark = np.array((40, 35, 30), np.float32)
    pos = np.clip(ink, 0, 1)[..., None]
    neg = np.clip(-ink, 0, 1)[..., None]
    tile = base * (1 - pos) + dark * pos + neg * 30
    mask = np.full((TILE, TILE), 255, np.uint8)
    cv2.rectangle(mask, (0, 0), (TILE - 1, TILE - 1), 0, 1)
    return np.clip(tile, 0, 255).astype(np.uint8), mask


def _rot_z(a: float) -> NDArray[np.float64]:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def _rot_axis(axis: NDArray[np.float64], a: float) -> NDArray[np.float64]:
    axis = axis / np.linalg.norm(axis)
    K = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + math.sin(a) * K + (1 - math.cos(a)) * K @ K


# faces of a unit cube: (normal, u axis, v axis); the tile's x runs along u, y along v
FACES = [((0, 0, 1), (1, 0, 0), (0, -1, 0)), ((0, 0, -1), (1, 0, 0), (0, 1, 0)), ((1, 0, 0), (0, 1, 0), (0, 0, -1)),
         ((-1, 0, 0), (0, -1, 0), (0, 0, -1)), ((0, 1, 0), (-1, 0, 0), (0, 0, -1)), ((0, -1, 0), (1, 0, 0), (0, 0, -1))]


def draw_block(canvas: Image, cam: Camera, centre: NDArray[np.float64], R: NDArray[np.float64], edge: float,
               faces: list[tuple[Image, NDArray[np.uint8]]], light: NDArray[np.float64]) -> None:
    """A cube (die or doubling cube) with textured faces, back faces culled."""
    h = edge / 2
    for (n, u, v), (tile, mask) in zip(FACES, faces):
        n, u, v = R @ np.array(n, float), R @ np.array(u, float), R @ np.array(v, float)
        fc = centre + n * h
        if not _facing(cam, fc, n):
            continue
        corners = np.array([fc - u * h - v * h, fc + u * h - v * h, fc + u * h + v * h, fc - u * h + v * h])
        dst = cam.canvas(corners).astype(np.float32)
        x0, y0 = np.floor(dst.min(axis=0)).astype(int) - 1
        x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 1
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
        if x1 <= x0 or y1 <= y0:
            continue
        src = np.array([[0, 0], [TILE, 0], [TILE, TILE], [0, TILE]], np.float32)
        M = cv2.getPerspectiveTransform(src, dst - np.array([x0, y0], np.float32))
        k = 0.55 + 0.5 * max(0.0, float(n @ light))
        warped = cv2.warpPerspective((tile.astype(np.float32) * k).clip(0, 255).astype(np.uint8), M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        alpha = cv2.warpPerspective(mask, M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
        roi = canvas[y0:y1, x0:x1]
        roi[:] = (warped * alpha + roi * (1 - alpha)).astype(np.uint8)


def _side_values(top: int) -> list[int]:
    a = min(v for v in range(1, 7) if v not in (top, 7 - top))
    b = min(v for v in range(1, 7) if v not in (top, 7 - top, a, 7 - a))
    return [top, 7 - top, a, 7 - a, b, 7 - b]


def die_pose(d: Die) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Rotation and centre of a die: turned by yaw; a cocked die leans, one edge on the leather."""
    R = _rot_z(math.radians(d.yaw))
    if not d.flat:
        ax = np.array([math.cos(math.radians(d.lean_dir)), math.sin(math.radians(d.lean_dir)), 0.0])
        R = _rot_axis(ax, math.radians(d.lean)) @ R
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * B.DIE / 2 @ R.T
    lift = -corners[:, 2].min()
    return R, np.array([d.x, d.y, d.z + lift])


def draw_die(canvas: Image, cam: Camera, d: Die, light: NDArray[np.float64]) -> None:
    R, centre = die_pose(d)
    draw_block(canvas, cam, centre, R, B.DIE, [die_face(v, d) for v in _side_values(d.value)], light)


def draw_cube(canvas: Image, cam: Camera, c: Cube, light: NDArray[np.float64]) -> None:
    R = _rot_z(math.radians(c.yaw))
    top = c.face_up
    others = [v for v in (2, 4, 8, 16, 32, 64) if v != top]
    # opposite faces of a doubling cube: 2-64, 4-32, 8-16
    opposite = {2: 64, 64: 2, 4: 32, 32: 4, 8: 16, 16: 8}
    sides = [v for v in others if v != opposite[top]]
    values = [top, opposite[top], sides[0], opposite[sides[0]], sides[1], opposite[sides[1]]]
    draw_block(canvas, cam, np.array([c.x, c.y, c.z + B.CUBE / 2]), R, B.CUBE, [cube_face(v, c) for v in values], light)


CUP = (30, 50, 80)


def arm_shapes(arm: Arm) -> list[tuple[NDArray[np.float64], tuple[int, int, int], bool]]:
    """The solids of an arm (a sleeve, a hand holding a cup) as 3D outlines, in painting order:
    (points in mm, colour, whether the outline is the convex hull of the points' image)."""
    a = math.radians(arm.from_edge)
    d = np.array([math.cos(a), math.sin(a), 0.0])
    hand = d * arm.reach + np.array([0, 0, 90.0])
    shoulder = d * 700 + np.array([0, 0, 260.0])
    side = np.array([-d[1], d[0], 0.0]) * arm.width / 2
    wrist = hand + d * 70
    out: list[tuple[NDArray[np.float64], tuple[int, int, int], bool]] = []
    if arm.kind == "arm":
        elbow = hand + d * 260
        out.append((np.array([wrist + side * 0.8, elbow + side, elbow - side, wrist - side * 0.8]), arm.skin, False))
        out.append((np.array([elbow + side * 1.1, shoulder + side * 1.2, shoulder - side * 1.2, elbow - side * 1.1]), arm.colour, False))
    else:
        out.append((np.array([wrist + side, shoulder + side * 1.3, shoulder - side * 1.3, wrist - side]), arm.colour, False))
    palm = np.array([hand + d * 75 + side * 0.9, hand + side * 0.9 - d * 10, hand - d * 25, hand - side * 0.9 - d * 10, hand + d * 75 - side * 0.9])
    out.append((palm, arm.skin, False))
    if arm.kind == "cup":  # a leather cup held upright under the hand
        cup_c = hand - d * 10 - np.array([0, 0, 85.0])
        mouth = _circle(cup_c[0], cup_c[1], cup_c[2] + 95, 42)
        out.append((np.vstack([_circle(cup_c[0], cup_c[1], cup_c[2], 38), mouth]), CUP, True))
        out.append((mouth, _shade(CUP, 0.5), False))
    return out


def draw_arm(canvas: Image, cam: Camera, arm: Arm) -> None:
    for pts, colour, hull in arm_shapes(arm):
        poly = cv2.convexHull(np.round(cam.canvas(pts) * 16).astype(np.int32)) if hull else _poly(cam, pts)
        cv2.fillPoly(canvas, [poly], colour, cv2.LINE_AA, shift=4)


# --- light and camera -----------------------------------------------------------------------

def _shadows(scene: Scene, cam: Camera, shape: tuple[int, int]) -> NDArray[np.float32]:
    """How much each canvas pixel is shaded by the solids (0 none .. 1 full)."""
    m = np.zeros(shape, np.uint8)
    look = scene.look
    for lx, ly, strength in look.lamps:
        layer = np.zeros(shape, np.uint8)

        def footprint(x: float, y: float, zb: float, height: float, r: float) -> None:
            # the solid's top edge cast down onto the plane it stands on, away from the lamp
            k = height / max(LAMP_H - height, 1.0)
            sx, sy = (x - lx) * k, (y - ly) * k
            pts = np.vstack([_circle(x, y, zb, r), _circle(x + sx, y + sy, zb, r)])
            cv2.fillPoly(layer, [cv2.convexHull(np.round(cam.canvas(pts) * 16).astype(np.int32))], int(255 * strength), cv2.LINE_AA, shift=4)

        for c in scene.checkers:  # each checker casts its own shadow from its top (stacks cast longer ones)
            plane = B.RIM_H if (abs(c.x) < B.BAR / 2 and c.z >= B.RIM_H) else 0.0
            footprint(c.x, c.y, plane, c.z + B.CHECKER_T - plane, B.CHECKER_D / 2)
        for d in scene.dice:
            footprint(d.x, d.y, d.z, B.DIE, B.DIE * 0.6)
        if scene.cube is not None:
            footprint(scene.cube.x, scene.cube.y, scene.cube.z, B.CUBE, B.CUBE * 0.6)
        m = np.maximum(m, layer)
    px = cam.f / cam.C[2]
    sigma = max(0.5, look.shadow_blur * px)
    if sigma > 3:  # a wide blur on a quarter-size copy: same look, a tenth of the time
        h, w = shape
        small = cv2.resize(m, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
        m = cv2.resize(cv2.GaussianBlur(small, (0, 0), sigma / 4), (w, h), interpolation=cv2.INTER_LINEAR)
    else:
        m = cv2.GaussianBlur(m, (0, 0), sigma)
    return m.astype(np.float32) * np.float32(look.shadow_depth / 255)


def _lamp_field(scene: Scene, cam: Camera, shape: tuple[int, int]) -> NDArray[np.float32]:
    """Light falling on the board plane from the lamps, per canvas pixel (1 = brightest on the board)."""
    h, w = shape
    step = 16
    ys, xs = np.mgrid[0:h:step, 0:w:step].astype(np.float64)
    Hinv = np.linalg.inv(cam.homography(0.0, np.eye(3)))
    p = np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size)])
    q = Hinv @ p
    x, y = q[0] / q[2], q[1] / q[2]
    total = np.zeros_like(x)
    for lx, ly, strength in scene.look.lamps:
        d2 = (x - lx) ** 2 + (y - ly) ** 2
        total += strength * (LAMP_H ** 2 / (LAMP_H ** 2 + d2)) ** 1.5
    total = np.clip(total / max(total.max(), 1e-6), 0.45, 1.0)
    return cv2.resize(total.reshape(xs.shape).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


def render(scene: Scene, size: tuple[int, int] = (1280, 720), cache: dict[str, Any] | None = None,
           objects: bool = True, jpeg: bool = True, grain_seed: int | None = None, sensor: bool = True) -> Image:
    """The frame the camera takes of ``scene``.  ``cache`` keeps the static board between
    frames of one camera and set (footage)."""
    cache = cache if cache is not None else {}
    if "cam" not in cache:
        cache["cam"] = make_camera(scene.mounting, size)
    cam: Camera = cache["cam"]
    if "static" not in cache:
        cache["static"] = static_layer(scene, cam)
        cache["lamp"] = _lamp_field(scene, cam, cache["static"].shape[:2])
        cache["maps"] = cam.lens_maps()
    canvas = cache["static"].copy()
    look = scene.look
    light = _lamp_dir(look)
    shade = None
    if objects:
        shade = _shadows(scene, cam, canvas.shape[:2])
        solids: list[tuple[float, Any]] = []
        for c in scene.checkers:
            solids.append((float(cam.depth(np.array([c.x, c.y, c.z + B.CHECKER_T / 2]))[0]), ("checker", c)))
        for d in scene.dice:
            solids.append((float(cam.depth(np.array([d.x, d.y, d.z + B.DIE / 2]))[0]), ("die", d)))
        if scene.cube is not None:
            cb = scene.cube
            solids.append((float(cam.depth(np.array([cb.x, cb.y, cb.z + B.CUBE / 2]))[0]), ("cube", cb)))
        # shadows fall on the leather and wood only: shade what is drawn so far
        canvas = cv2.multiply(canvas.astype(np.float32), cv2.merge([1 - shade] * 3)).astype(np.uint8)
        for _, (kind, obj) in sorted(solids, key=lambda s: -s[0]):
            if kind == "checker":
                draw_checker(canvas, cam, obj, look)
            elif kind == "die":
                draw_die(canvas, cam, obj, light)
            else:
                draw_cube(canvas, cam, obj, light)
        for arm in scene.arms:
            draw_arm(canvas, cam, arm)
    tint = np.array(kelvin_bgr(look.kelvin), np.float32) * np.array(look.wb, np.float32)
    tint = tint / tint.max()
    gain = cache["lamp"] * np.float32(look.gain * 1.05)
    lit = cv2.multiply(canvas.astype(np.float32), cv2.merge([gain * t for t in tint]))
    lit = np.clip(lit, 0, 255).astype(np.uint8)
    mapx, mapy = cache["maps"]
    frame = cv2.remap(lit, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if look.defocus > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), look.defocus)
    if look.motion[0] > 0:
        n = max(3, int(look.motion[0]) | 1)
        k = np.zeros((n, n), np.float32)
        a = math.radians(look.motion[1])
        c = n // 2
        cv2.line(k, (int(c - c * math.cos(a)), int(c - c * math.sin(a))), (int(c + c * math.cos(a)), int(c + c * math.sin(a))), 1.0, 1)
        frame = cv2.filter2D(frame, -1, k / k.sum())
    if not sensor:
        return frame
    frame = sensor_noise(frame, look, look.noise_seed if grain_seed is None else grain_seed)
    if jpeg:
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg])
        frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return frame


def sensor_noise(frame: Image, look: Look, seed: int) -> Image:
    """The sensor's own noise, different in every frame."""
    cv2.setRNGSeed(int(seed) % (1 << 31))
    noise = np.zeros(frame.shape, np.int16)
    cv2.randn(noise, 0, look.noise)
    return cv2.add(frame, noise, dtype=cv2.CV_8U)
