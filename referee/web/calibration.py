"""The calibration view: the camera's latest frame, the board grid that the
calibration puts on it, and a fresh calibration from the start position.

The web page reaches the camera through :class:`CameraPort` only; the live loop
(``bgref watch``) hands frames to a :class:`FrameKeeper` and is told of a new
calibration through its ``on_apply`` callback.  Drawing the grid is pure:
canonical millimetres -> undistorted pixels (inverse homography) -> camera
pixels (the calibration's lens model).
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from vision.calibrate import Calibration, calibrate
from vision.config import CalibrationConfig
from vision.geometry import BoardGeometry, point_axis

Image = NDArray[np.uint8]
SAMPLES = 12  # points per drawn edge, so the lens's bending shows


class CameraPort(Protocol):
    """What the calibration view needs of the camera side."""

    def latest_frame(self) -> Image | None: ...
    def calibration(self) -> Calibration | None: ...
    def apply(self, calibration: Calibration) -> None: ...


class FrameKeeper:
    """Keeps the latest camera frame and the calibration in use (thread-safe).

    ``offer(frame)`` from the camera loop; ``apply(cal)`` saves a new
    calibration to ``save_to`` (if given) and calls ``on_apply(cal)`` so the
    loop can read with it.
    """

    def __init__(self, calibration: Calibration | None = None, save_to: Path | None = None,
                 on_apply: Callable[[Calibration], None] | None = None, frame: Image | None = None) -> None:
        self._calibration = calibration
        self._frame = frame
        self.save_to = save_to
        self.on_apply = on_apply
        self._lock = threading.Lock()

    def offer(self, frame: Image) -> None:
        with self._lock:
            self._frame = frame

    def latest_frame(self) -> Image | None:
        with self._lock:
            return self._frame

    def calibration(self) -> Calibration | None:
        with self._lock:
            return self._calibration

    def apply(self, calibration: Calibration) -> None:
        if self.save_to is not None:
            _write_json(self.save_to, calibration.to_json())
        with self._lock:
            self._calibration = calibration
        if self.on_apply is not None:
            self.on_apply(calibration)


class KeptSource:
    """A frame source (``vision.sources.FrameSource``) that hands every frame to a
    :class:`FrameKeeper` on its way to the referee, for the calibration view."""

    def __init__(self, source: Any, keeper: FrameKeeper) -> None:
        self.source = source
        self.keeper = keeper
        self.name = str(getattr(source, "name", "camera"))

    def open(self) -> None:
        self.source.open()

    def frames(self) -> Iterator[tuple[float, Image]]:
        for t, frame in self.source.frames():
            self.keeper.offer(frame)
            yield t, frame

    def close(self) -> None:
        self.source.close()


def _write_json(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


# --- the grid over the frame ------------------------------------------------------------------


def to_image(cal: Calibration, mm: NDArray[np.float64]) -> NDArray[np.float64]:
    """Canonical millimetres (N x 2) -> camera pixels (N x 2)."""
    inverse = np.linalg.inv(cal.homography)
    ones = np.ones((len(mm), 1))
    projected = np.hstack([mm, ones]) @ inverse.T
    undistorted = projected[:, :2] / projected[:, 2:3]
    return cal.lens.distort(undistorted)


def _edge(a: tuple[float, float], b: tuple[float, float]) -> NDArray[np.float64]:
    t = np.linspace(0.0, 1.0, SAMPLES)[:, None]
    return np.asarray(a) * (1 - t) + np.asarray(b) * t


def _rectangle(x0: float, y0: float, x1: float, y1: float) -> list[NDArray[np.float64]]:
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
    return [np.vstack([_edge(corners[i], corners[i + 1]) for i in range(4)])]


def _triangle(geo: BoardGeometry, cal: Calibration, point: int) -> tuple[NDArray[np.float64], tuple[float, float]]:
    (bx, by), (dx, dy) = point_axis(geo, cal.layout, point)
    half = geo.point_width / 2
    left = (bx - dy * half, by + dx * half)
    right = (bx + dy * half, by - dx * half)
    tip = (bx + dx * geo.point_length, by + dy * geo.point_length)
    return np.vstack([_edge(left, tip), _edge(tip, right)]), (bx + dx * 8, by + dy * 8)


def board_corners_mm(geo: BoardGeometry) -> NDArray[np.float64]:
    """The four corners that vision fits to hand-given corners, in canonical mm.

    Asked of vision itself (a homography of a probe quad), so the handles on the
    page are the corners that a calibration from corners takes them to be.
    """
    from vision.board import homography_from_corners

    probe = np.array([[0, 0], [1000, 0], [1000, 700], [0, 700]], np.float64)
    hom = homography_from_corners(probe, geo)
    projected = np.hstack([probe, np.ones((4, 1))]) @ hom.T
    return projected[:, :2] / projected[:, 2:3]


def corners_meaning(geo: BoardGeometry, corners_mm: NDArray[np.float64]) -> str:
    """Words for where the corner handles belong."""
    if float(np.abs(corners_mm).min()) < 1.0:
        return "the board's outer corners"
    return "the corners of the playing surface, inside the frame"


def overlay(cal: Calibration, geo: BoardGeometry | None = None) -> dict[str, Any]:
    """The board's grid in camera pixels: corner handles, lines and point labels."""
    geo = geo or BoardGeometry()
    f = geo.frame
    lines = _rectangle(0, 0, geo.width, geo.depth) + _rectangle(f, f, geo.width - f, geo.depth - f)
    lines += _rectangle(geo.bar_x[0], f, geo.bar_x[1], geo.depth - f)
    labels = []
    corners_mm = board_corners_mm(geo)
    for point in range(1, 25):
        outline, label = _triangle(geo, cal, point)
        lines.append(outline)
        labels.append({"text": str(point), "xy": _rounded(to_image(cal, np.array([label])))[0]})
    return {
        "size": list(cal.image_size),
        "corners": _rounded(to_image(cal, corners_mm)),
        "corners_meaning": corners_meaning(geo, corners_mm),
        "lines": [_rounded(to_image(cal, line)) for line in lines],
        "labels": labels,
        "layout": cal.layout.to_json(),
    }


def _rounded(points: NDArray[np.float64]) -> list[list[float]]:
    return [[round(float(x), 1), round(float(y), 1)] for x, y in points]


# --- a fresh calibration ----------------------------------------------------------------------


def parse_corners(value: Any, size: tuple[int, int]) -> NDArray[np.float64] | None:
    """Four ``[x, y]`` corners inside the frame, or None (find the board); ValueError says why not."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 4:
        raise ValueError("corners must be four [x, y] pairs")
    out = []
    for pair in value:
        if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in pair):
            raise ValueError("each corner must be [x, y] in pixels")
        x, y = float(pair[0]), float(pair[1])
        if not (0 <= x <= size[0] and 0 <= y <= size[1]):
            raise ValueError(f"corner ({x:.0f}, {y:.0f}) lies outside the {size[0]}x{size[1]} frame")
        out.append((x, y))
    return np.array(out, np.float64)


def recalibrate(frame: Image, corners: NDArray[np.float64] | None) -> Calibration:
    """Calibrate on ``frame`` (the start position); vision's errors say what went wrong."""
    return calibrate(CalibrationConfig(), frame, corners)


def jpeg(frame: Image, quality: int = 80) -> bytes:
    """The frame as JPEG bytes."""
    import cv2

    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("the frame cannot be encoded as JPEG")
    return buf.tobytes()
