"""Frame sources: the only place that touches a camera, a video file or an image folder.

Every source is an iterable of BGR ``numpy`` frames with ``close()``. Constructors receive
what they read from; a real camera is opened by the caller and handed in (``Picamera2``
is imported lazily, only by :class:`PicameraSource`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.errors import ImageReadError

Image = NDArray[np.uint8]
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")


class FrameSource(Protocol):
    def __iter__(self) -> Iterator[Image]: ...

    def close(self) -> None: ...


def read_image(path: str | Path) -> Image:
    """Decode one image file as BGR; :class:`ImageReadError` for missing, empty or corrupt files."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ImageReadError(f"cannot read {str(p)!r}: {exc.strerror or exc}") from None
    if not data:
        raise ImageReadError(f"{str(p)!r} is empty")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise ImageReadError(f"{str(p)!r} is not a readable image (corrupt or unknown format)")
    return image


class FolderSource:
    """Image files of a folder in name order (a recorded game, or test fixtures)."""

    def __init__(self, folder: str | Path) -> None:
        self.paths = sorted(p for p in Path(folder).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)

    def __iter__(self) -> Iterator[Image]:
        for p in self.paths:
            yield read_image(p)

    def close(self) -> None:
        return None


class VideoSource:
    """Frames of an already-open ``cv2.VideoCapture`` (a file or a USB camera)."""

    def __init__(self, capture: Any) -> None:
        self.capture = capture

    def __iter__(self) -> Iterator[Image]:
        while True:
            ok, frame = self.capture.read()
            if not ok:
                return
            yield frame

    def close(self) -> None:
        self.capture.release()


class PicameraSource:
    """Frames of a started ``picamera2.Picamera2`` (main stream, RGB888 = BGR in memory)."""

    def __init__(self, camera: Any, stream: str = "main") -> None:
        self.camera = camera
        self.stream = stream

    @staticmethod
    def open_default(size: tuple[int, int] = (1280, 720)) -> PicameraSource:  # pragma: no cover - needs a Pi
        from picamera2 import Picamera2  # imported lazily: only on the Pi

        cam = Picamera2()
        cam.configure(cam.create_video_configuration(main={"size": size, "format": "RGB888"}))
        cam.start()
        return PicameraSource(cam)

    def __iter__(self) -> Iterator[Image]:  # pragma: no cover - needs a Pi
        while True:
            yield self.camera.capture_array(self.stream)

    def close(self) -> None:  # pragma: no cover - needs a Pi
        self.camera.stop()
