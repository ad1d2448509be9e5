"""A camera above the board: pinhole with a radial lens, written from first principles.

The mount stands on one long side of the table ("south" or "north"), looks down at the
board tilted towards the far side, and may be turned any angle about its optical axis.
Frames are rendered as a pinhole image on a larger canvas and then bent by the lens
(:meth:`Camera.lens_maps`), so straight edges bow as through a wide-angle lens.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .board import DEPTH, RIM_H, WIDTH

MARGIN = 200  # canvas pixels around the frame, for what a barrel lens pulls in


@dataclass(frozen=True, slots=True)
class Mounting:
    side: str = "south"  # the long side the mount stands on
    tilt: float = 8.0  # degrees off vertical, leaning towards the far side
    height: float = 650.0  # mm above the board
    turn: float = 0.0  # degrees about the optical axis (180: the far side at the bottom of the image)
    fill: float = 0.75  # the board's projected size as a share of the frame (limiting side)
    k1: float = 0.0  # > 0 barrel, < 0 pincushion (radial, on normalised coordinates)
    aim: tuple[float, float] = (0.0, 0.0)  # mm off the board's centre the camera points at


@dataclass(frozen=True)
class Camera:
    R: NDArray[np.float64]  # world -> camera rows: right, down, forward
    C: NDArray[np.float64]  # centre, mm
    f: float
    size: tuple[int, int]
    k1: float

    @property
    def centre(self) -> tuple[float, float]:
        return self.size[0] / 2.0, self.size[1] / 2.0

    def to_camera(self, pts: NDArray[np.float64]) -> NDArray[np.float64]:
        return (np.asarray(pts, np.float64).reshape(-1, 3) - self.C) @ self.R.T

    def normalised(self, pts: NDArray[np.float64]) -> NDArray[np.float64]:
        c = self.to_camera(pts)
        return c[:, :2] / c[:, 2:3]

    def canvas(self, pts: NDArray[np.float64]) -> NDArray[np.float64]:
        """Pinhole pixels on the canvas (frame + MARGIN on every side)."""
        cx, cy = self.centre
        return self.normalised(pts) * self.f + np.array([cx + MARGIN, cy + MARGIN])

    def depth(self, pts: NDArray[np.float64]) -> NDArray[np.float64]:
        return self.to_camera(pts)[:, 2]

    def image(self, pts: NDArray[np.float64]) -> NDArray[np.float64]:
        """Pixels in the final (lens-bent) frame."""
        xu = self.normalised(pts)
        xd = distort(xu, self.k1)
        cx, cy = self.centre
        return xd * self.f + np.array([cx, cy])

    def lens_maps(self) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """cv2.remap maps: for every frame pixel, where it sits on the pinhole canvas."""
        w, h = self.size
        cx, cy = self.centre
        u, v = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
        x, y = (u - cx) / self.f, (v - cy) / self.f
        s = 1.0 + self.k1 * (x * x + y * y)
        return ((x * s) * self.f + cx + MARGIN).astype(np.float32), ((y * s) * self.f + cy + MARGIN).astype(np.float32)

    def homography(self, z: float, mm_to_tex: NDArray[np.float64]) -> NDArray[np.float64]:
        """Texture pixels of the plane at height z -> canvas pixels."""
        cx, cy = self.centre
        K = np.array([[self.f, 0, cx + MARGIN], [0, self.f, cy + MARGIN], [0, 0, 1.0]])
        # plane point (x, y, z, 1) = A @ (x, y, 1)
        A = np.array([[1, 0, 0], [0, 1, 0], [0, 0, z], [0, 0, 1.0]])
        P = K @ np.hstack([self.R, (-self.R @ self.C).reshape(3, 1)])
        H = P @ A @ np.linalg.inv(mm_to_tex)
        return H / H[2, 2]


def distort(xu: NDArray[np.float64], k1: float) -> NDArray[np.float64]:
    """Inverse of the lens map x_u = x_d (1 + k1 r_d^2), by fixed-point iteration."""
    xd = xu.copy()
    for _ in range(30):
        r2 = (xd * xd).sum(axis=1, keepdims=True)
        xd = xu / (1.0 + k1 * r2)
    return xd


def board_corners() -> NDArray[np.float64]:
    w, d = WIDTH / 2, DEPTH / 2
    return np.array([[sx * w, sy * d, z] for z in (0.0, RIM_H) for sx in (-1, 1) for sy in (-1, 1)])


def make_camera(m: Mounting, size: tuple[int, int] = (1280, 720)) -> Camera:
    t = math.radians(m.tilt)
    away = -1.0 if m.side == "south" else 1.0  # the mount's side of the table
    target = np.array([m.aim[0], m.aim[1], 0.0])
    C = target + np.array([0.0, away * m.height * math.tan(t), m.height])
    fwd = target - C
    fwd /= np.linalg.norm(fwd)
    far = np.array([0.0, -away, 0.0])  # the far side is "up" in the image before the turn
    up = far - fwd * (far @ fwd)
    up /= np.linalg.norm(up)
    right = np.cross(fwd, up)
    down = -up
    a = math.radians(m.turn)
    r2 = math.cos(a) * right + math.sin(a) * down
    d2 = -math.sin(a) * right + math.cos(a) * down
    R = np.vstack([r2, d2, fwd])
    cam = Camera(R, C, 1.0, size, m.k1)
    xd = distort(cam.normalised(board_corners()), m.k1)
    span = xd.max(axis=0) - xd.min(axis=0)
    f = min(m.fill * size[0] / span[0], m.fill * size[1] / span[1])
    # tilt makes the near side bigger, so the board is not centred: shrink until it is all in view
    for _ in range(40):
        px = xd * f + np.array([size[0] / 2.0, size[1] / 2.0])
        if px.min() >= 2 and (px[:, 0].max() <= size[0] - 2) and (px[:, 1].max() <= size[1] - 2):
            break
        f *= 0.97
    return Camera(R, C, float(f), size, m.k1)
