"""What an arm, a sleeve or a cup hides in a still: the places the reader may call occluded.

Worked out from the scene description and the world's own camera, as the renderer paints it
(the arm is painted over everything else): each place's image area (a point's painted
triangle and its checkers; a bar half's ridge and its checkers; a die; the cube) is
projected, and the place is *covered* when the arm's image hides at least
``COVERED_SHARE`` of it.  Less is a sliver at an edge that blur and JPEG already smear.
Nothing here is taken from the product.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from . import board as B
from .camera import MARGIN, Camera, make_camera
from .render import _circle, arm_shapes, die_pose
from .scene import Checker, Scene

COVERED_SHARE = 0.02  # share of a place's image area the arm must hide for it to count as covered


def _hull(cam: Camera, pts: NDArray[np.float64]) -> NDArray[np.int32]:
    return cv2.convexHull(np.round(cam.canvas(pts)).astype(np.int32))


def _checker(cam: Camera, c: Checker) -> NDArray[np.int32]:
    r = B.CHECKER_D / 2
    return _hull(cam, np.vstack([_circle(c.x, c.y, c.z, r), _circle(c.x, c.y, c.z + B.CHECKER_T, r)]))


def _block(cam: Camera, centre: NDArray[np.float64], R: NDArray[np.float64], edge: float) -> NDArray[np.int32]:
    corners = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]) * edge / 2 @ R.T
    return _hull(cam, corners + centre)


def point_of(scene: Scene, c: Checker) -> int | None:
    """The point (dark's numbers) a checker lies on, or None on the bar."""
    if abs(c.x) < B.BAR / 2:
        return None
    for p in range(1, 25):
        x, y_base, _ = B.point_frame(scene.seating, p)
        if abs(c.x - x) < B.POINT_W / 2 and (c.y > 0) == (y_base > 0):
            return p
    return None


def place_outlines(scene: Scene, cam: Camera) -> dict[str, list[NDArray[np.int32]]]:
    """Each place's image outlines (canvas pixels): "point:N", "bar:dark", "bar:light", "die:i", "cube"."""
    out: dict[str, list[NDArray[np.int32]]] = {}
    for p in range(1, 25):
        x, yb, inward = B.point_frame(scene.seating, p)
        half = B.POINT_W / 2
        tri = np.array([[x - half, yb, 0.0], [x + half, yb, 0.0], [x, yb + inward * B.POINT_L, 0.0]])
        out[f"point:{p}"] = [np.round(cam.canvas(tri)).astype(np.int32)]
    for colour in ("dark", "light"):
        # the owner's half of the bar ridge, where their checkers are set (the middle is the cube's)
        sy = B.side_y_sign(scene.seating, colour)
        y0, y1 = sy * (B.CUBE / 2 + 2), sy * B.SURFACE_D / 2
        ridge = np.array([[-B.BAR / 2, y0, B.RIM_H], [B.BAR / 2, y0, B.RIM_H], [B.BAR / 2, y1, B.RIM_H], [-B.BAR / 2, y1, B.RIM_H]])
        out[f"bar:{colour}"] = [np.round(cam.canvas(ridge)).astype(np.int32)]
    for c in scene.checkers:
        p = point_of(scene, c)
        out[f"point:{p}" if p is not None else f"bar:{c.colour}"].append(_checker(cam, c))
    for i, d in enumerate(scene.dice):
        R, centre = die_pose(d)
        out[f"die:{i}"] = [_block(cam, centre, R, B.DIE)]
    if scene.cube is not None:
        cb = scene.cube
        a = np.radians(cb.yaw)
        R = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1.0]])
        out["cube"] = [_block(cam, np.array([cb.x, cb.y, cb.z + B.CUBE / 2]), R, B.CUBE)]
    return out


def arm_mask(scene: Scene, cam: Camera) -> NDArray[np.uint8]:
    w, h = cam.size[0] + 2 * MARGIN, cam.size[1] + 2 * MARGIN
    mask = np.zeros((h, w), np.uint8)
    for arm in scene.arms:
        for pts, _, hull in arm_shapes(arm):
            poly = _hull(cam, pts) if hull else np.round(cam.canvas(pts)).astype(np.int32)
            cv2.fillPoly(mask, [poly], 1)
    return mask


def hidden_shares(scene: Scene, size: tuple[int, int] = (1280, 720)) -> dict[str, float]:
    """The share of each place's image area an arm hides (0 when no arm is in the still)."""
    cam = make_camera(scene.mounting, size)
    places = place_outlines(scene, cam)
    if not scene.arms:
        return {k: 0.0 for k in places}
    arm = arm_mask(scene, cam)
    out = {}
    for name, polys in places.items():
        allpts = np.vstack([p.reshape(-1, 2) for p in polys])
        x0, y0 = np.maximum(allpts.min(axis=0) - 1, 0)
        x1, y1 = np.minimum(allpts.max(axis=0) + 2, [arm.shape[1], arm.shape[0]])
        if x1 <= x0 or y1 <= y0:
            out[name] = 0.0
            continue
        region = np.zeros((y1 - y0, x1 - x0), np.uint8)
        for p in polys:  # one by one: fillPoly of several outlines fills their overlaps by parity
            cv2.fillPoly(region, [p.reshape(-1, 2) - np.array([x0, y0], np.int32)], 1)
        area = int(region.sum())
        out[name] = float((region & arm[y0:y1, x0:x1]).sum()) / area if area else 0.0
    return out


def covered(scene: Scene, size: tuple[int, int] = (1280, 720)) -> dict[str, Any]:
    """Which places an arm covers, in the reading's shape: ``points`` (24 booleans, dark's numbers),
    ``bar`` ({"dark", "light"}), ``dice`` (one per die of :meth:`Scene.reading`), ``cube``."""
    share = hidden_shares(scene, size)
    hid = {k: v >= COVERED_SHARE for k, v in share.items()}
    return {
        "points": [hid[f"point:{p}"] for p in range(1, 25)],
        "bar": {"dark": hid["bar:dark"], "light": hid["bar:light"]},
        "dice": [hid[f"die:{i}"] for i in range(len(scene.dice))],
        "cube": hid.get("cube", False),
    }


def truth(scene: Scene, size: tuple[int, int] = (1280, 720)) -> dict[str, Any]:
    """The scene's reading (board-spec.md's contract) with ``covered``: what an arm hides."""
    return {**scene.reading(), "covered": covered(scene, size)}
