"""Where the camera is over the board: its tilt off vertical, its height, its foot on the board.

Calibration reports it so that a mount can be checked. The calibration's homography maps the
board's plane; the pose follows from it once the lens's focal length is known. The homography
alone fixes the focal length only when the camera is tilted well off vertical, so a prior (the
lens the product ships with) stands in when it does not. Anything above the board's plane (a
die's top, a second layer of checkers, the cube) is seen displaced away from the camera's foot,
by ``(p - nadir) * h / (height - h)`` for a point ``h`` high over ``p``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True, slots=True)
class CameraPose:
    """The camera's foot on the board (canonical mm), its height above the board (mm) and focal length (pixels)."""

    nadir: tuple[float, float]
    height: float
    focal: float
    tilt_deg: float


def _plane_columns(hom: NDArray[np.float64], size: tuple[int, int]) -> NDArray[np.float64]:
    """Image-from-plane homography with the principal point (the image centre) moved to the origin."""
    w, h = size
    img_from_plane = np.linalg.inv(hom)
    centred = np.array([[1.0, 0, -w / 2.0], [0, 1.0, -h / 2.0], [0, 0, 1.0]]) @ img_from_plane
    return centred / np.linalg.norm(centred[:, 2])


def focal_from_homography(hom: NDArray[np.float64], size: tuple[int, int]) -> float | None:
    """Focal length (pixels) that makes the homography a rotation of the plane, or None.

    The two constraints are those of a pinhole with square pixels and a centred principal
    point: the plane's axes stay perpendicular and equally long once seen through the lens.
    Both vanish for a camera looking straight down, so the answer is only as good as the tilt.
    """
    m = _plane_columns(hom, size)
    h1, h2 = m[:, 0], m[:, 1]
    # with w = 1 / f**2:  a * w + b = 0 for each constraint, solved together by least squares
    a = np.array([h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    b = np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    denom = float(a @ a)
    w = -float(a @ b) / denom if denom > 0 else 0.0
    return 1.0 / math.sqrt(w) if w > 0 else None


def camera_pose(hom: NDArray[np.float64], size: tuple[int, int], focal: float) -> CameraPose:
    """The camera's pose over the board's plane from the homography (undistorted image px -> canonical mm)."""
    m = _plane_columns(hom, size)
    k_inv = np.diag([1.0 / focal, 1.0 / focal, 1.0])
    r = k_inv @ m
    lam = 2.0 / (np.linalg.norm(r[:, 0]) + np.linalg.norm(r[:, 1]))
    r1, r2, t = r[:, 0] * lam, r[:, 1] * lam, r[:, 2] * lam
    if t[2] < 0:  # the board lies in front of the camera
        r1, r2, t = -r1, -r2, -t
    # nearest rotation to [r1 r2 r1xr2]
    u, _, vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
    rot = u @ vt
    centre = -rot.T @ t
    axis = rot.T @ np.array([0.0, 0.0, 1.0])  # optical axis in board coordinates
    tilt = math.degrees(math.acos(min(1.0, abs(float(axis[2])))))
    return CameraPose((float(centre[0]), float(centre[1])), abs(float(centre[2])), float(focal), tilt)


def estimate_pose(hom: NDArray[np.float64], size: tuple[int, int], prior_focal: float,
                  min_tilt_deg: float = 7.0, max_ratio: float = 1.7) -> tuple[CameraPose, bool]:
    """The camera's pose, and whether its focal length came from the image rather than the prior.

    The image's own focal length is used when the camera is tilted enough for it to be measured
    and it lies within ``max_ratio`` of the prior's (the lens the product ships with)."""
    first = camera_pose(hom, size, prior_focal)
    measured = focal_from_homography(hom, size)
    if measured is not None and first.tilt_deg >= min_tilt_deg and 1 / max_ratio < measured / prior_focal < max_ratio:
        return camera_pose(hom, size, measured), True
    return first, False


@dataclass(frozen=True, slots=True)
class Viewpoint:
    """Where the camera's eye is over the canonical plane, for placing what stands above the board.

    ``nadir`` is the camera's foot (canonical mm), ``height`` its height over the canonical plane
    (mm), and ``plane`` the height of that plane above the leather (mm): calibration fits the
    homography to the start checkers' tops. Heights passed to :meth:`project` are above the leather.
    """

    nadir: tuple[float, float]
    height: float
    plane: float

    def scale(self, z: NDArray[np.float64] | float) -> NDArray[np.float64]:
        """How much larger, and how much farther from the camera's foot, what lies ``z`` mm above the leather
        is seen on the canonical plane."""
        rise = np.asarray(z, np.float64) - self.plane
        return self.height / np.maximum(self.height - rise, 1.0)

    def project(self, xy: NDArray[np.float64], z: NDArray[np.float64] | float) -> NDArray[np.float64]:
        """Where points at canonical ``xy`` (..., 2), ``z`` mm above the leather, are seen on the canonical plane."""
        nadir = np.asarray(self.nadir, np.float64)
        return nadir + (np.asarray(xy, np.float64) - nadir) * np.expand_dims(self.scale(z), -1)

    def unproject(self, seen: NDArray[np.float64] | tuple[float, float], z: float) -> NDArray[np.float64]:
        """Where a point seen at canonical ``seen``, ``z`` mm above the leather, stands: :meth:`project` undone."""
        nadir = np.asarray(self.nadir, np.float64)
        return nadir + (np.asarray(seen, np.float64) - nadir) / self.scale(z)

    def lift(self, xy: NDArray[np.float64] | tuple[float, float], base: float, top: float) -> NDArray[np.float64]:
        """How far (mm, as a vector on the canonical plane) the top of something standing at ``xy`` from
        ``base`` to ``top`` mm above the leather is seen from its base: its parallax."""
        p = np.asarray(xy, np.float64)
        return self.project(p, top) - self.project(p, base)


def viewpoint(hom: NDArray[np.float64], size: tuple[int, int], prior_focal: float, plane: float) -> Viewpoint:
    """The camera's :class:`Viewpoint` from a calibration's homography (see :func:`estimate_pose`)."""
    pose, _ = estimate_pose(hom, size, prior_focal)
    return Viewpoint(pose.nadir, pose.height, plane)
