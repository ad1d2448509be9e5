"""Frame sources: the only place that touches a camera, a video file or an image folder.

A Raspberry Pi camera (picamera2), a USB camera (OpenCV), a video file, or a
folder of images.  A source is constructed with its settings and opened by
:meth:`open`; nothing touches a device at import or construction.
``frames()`` yields ``(seconds, BGR image)``; a camera that is unplugged
raises :class:`CameraLostError` from ``frames()``, and the caller decides when
to :meth:`open` again.  :func:`read_image` decodes one image file.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from .errors import ImageReadError, VisionError

Image = NDArray[np.uint8]
Frame = tuple[float, Image]
_IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}


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
    return np.asarray(image, dtype=np.uint8)


class CameraError(VisionError, OSError):
    """A camera or recording that cannot be opened."""


class CameraLostError(CameraError):
    """A camera that stopped giving frames (unplugged, driver failure)."""


class FrameSource(Protocol):
    """Anything that gives frames."""

    name: str

    def open(self) -> None: ...
    def frames(self) -> Iterator[Frame]: ...
    def close(self) -> None: ...


class FolderSource:
    """Images in a folder, in name order; ``fps`` gives their times (a file
    ``fps.txt`` in the folder, when there is one, says the rate it was taken at)."""

    def __init__(self, folder: Path, fps: float = 10.0) -> None:
        self.folder = folder
        self.fps = fps
        self.name = f"folder {folder}"
        self._files: list[Path] = []

    def open(self) -> None:
        if not self.folder.is_dir():
            raise CameraError(f"{self.folder} is not a folder of images")
        self._files = sorted((p for p in self.folder.iterdir() if p.suffix.lower() in _IMAGE_SUFFIXES), key=_natural)
        rate = self.folder / "fps.txt"
        if rate.is_file():
            try:
                self.fps = float(rate.read_text().strip())
            except ValueError:
                raise CameraError(f"{rate} should hold the frame rate, a number") from None
        if not self._files:
            raise CameraError(f"{self.folder} holds no images ({', '.join(sorted(_IMAGE_SUFFIXES))})")

    def frames(self) -> Iterator[Frame]:
        for i, path in enumerate(self._files):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                continue  # a corrupt frame is skipped, not fatal
            yield i / self.fps, np.asarray(image, dtype=np.uint8)

    def close(self) -> None:
        self._files = []


def _natural(path: Path) -> list[Any]:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", path.name)]


class VideoFileSource:
    """A recorded video; times come from its frame rate."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = f"video {path}"
        self._capture: Any = None
        self._fps = 25.0

    def open(self) -> None:
        if not self.path.is_file():
            raise CameraError(f"no video file at {self.path}")
        capture = cv2.VideoCapture(str(self.path))
        if not capture.isOpened():
            raise CameraError(f"{self.path} cannot be read as a video")
        self._capture = capture
        fps = capture.get(cv2.CAP_PROP_FPS)
        self._fps = fps if fps and fps > 0 else 25.0

    def frames(self) -> Iterator[Frame]:
        i = 0
        while self._capture is not None:
            ok, image = self._capture.read()
            if not ok:
                return
            yield i / self._fps, image
            i += 1

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class UsbCameraSource:
    """A USB (UVC) camera through OpenCV."""

    def __init__(self, index: int = 0, size: tuple[int, int] = (1280, 720), clock: Callable[[], float] = time.monotonic) -> None:
        self.index = index
        self.size = size
        self.clock = clock
        self.name = f"USB camera {index}"
        self._capture: Any = None

    def open(self) -> None:
        capture = cv2.VideoCapture(self.index)
        if not capture.isOpened():
            raise CameraError(f"no camera at index {self.index}: is it plugged in?")
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._capture = capture

    def frames(self) -> Iterator[Frame]:
        while self._capture is not None:
            ok, image = self._capture.read()
            if not ok or image is None:
                self.close()
                raise CameraLostError(f"{self.name} stopped giving frames (unplugged?)")
            yield self.clock(), image

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class PiCameraSource:
    """A Raspberry Pi camera module through picamera2 (installed from apt on the Pi)."""

    def __init__(self, size: tuple[int, int] = (1280, 720), clock: Callable[[], float] = time.monotonic) -> None:
        self.size = size
        self.clock = clock
        self.name = "Pi camera"
        self._camera: Any = None

    def open(self) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError:
            raise CameraError("picamera2 is not installed: on a Pi, `sudo apt install python3-picamera2`") from None
        try:
            camera = Picamera2()
            camera.configure(camera.create_video_configuration(main={"size": self.size, "format": "RGB888"}))
            camera.start()
        except (RuntimeError, IndexError, OSError) as exc:
            raise CameraError(f"the Pi camera cannot be started: {exc}") from None
        self._camera = camera

    def frames(self) -> Iterator[Frame]:
        while self._camera is not None:
            try:
                image = self._camera.capture_array("main")
            except (RuntimeError, OSError) as exc:
                self.close()
                raise CameraLostError(f"the Pi camera stopped: {exc}") from None
            # RGB888 in picamera2 is BGR in memory, as OpenCV wants.
            yield self.clock(), image

    def close(self) -> None:
        if self._camera is not None:
            try:
                self._camera.stop()
                self._camera.close()
            finally:
                self._camera = None


def open_source(spec: str, fps: float = 10.0) -> FrameSource:
    """A source from a command-line spec: ``picamera``, ``usb:0``, a video file or a folder."""
    if spec == "picamera":
        return PiCameraSource()
    if spec.startswith("usb:"):
        try:
            return UsbCameraSource(int(spec[4:]))
        except ValueError:
            raise CameraError(f"{spec!r}: a USB camera is usb:N with N its index") from None
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path, fps)
    if path.exists():
        return VideoFileSource(path)
    raise CameraError(f"{spec!r} is not picamera, usb:N, a video file or a folder of images")
