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


DEFAULT_HEIGHT_MM = 540.0  # hardware/README.md: the lens above the playing surface


def lens_dioptres(height_mm: float) -> float:
    """Lens position that focuses at ``height_mm`` (libcamera's LensPosition is 1 / metres)."""
    if not height_mm > 0:
        raise CameraError(f"the camera height must be a positive number of millimetres, not {height_mm!r}")
    return 1000.0 / height_mm


def full_view_mode(modes: list[dict[str, Any]], array_size: tuple[int, int], want: tuple[int, int]) -> dict[str, Any] | None:
    """The sensor mode to ask for: one that sees the whole sensor (a binned mode, not a centre crop),
    the smallest such that is still at least ``want`` (least to scale, fastest), else the largest field.

    Without it picamera2 picks the mode nearest the output size, on a Camera Module 3 at 1280x720 the
    1536x864 centre crop, which at the documented height cuts the board's ends off."""
    if not modes:
        return None

    def field(mode: dict[str, Any]) -> int:
        crop = mode.get("crop_limits") or (0, 0, *mode["size"])
        return int(crop[2]) * int(crop[3])

    whole = [m for m in modes if field(m) >= array_size[0] * array_size[1] * 0.98]
    pool = whole or [m for m in modes if field(m) == max(field(m) for m in modes)]
    big_enough = [m for m in pool if m["size"][0] >= want[0] and m["size"][1] >= want[1]]
    if big_enough:
        return min(big_enough, key=lambda m: (m["size"][0] * m["size"][1], -float(m.get("fps", 0))))
    return max(pool, key=lambda m: m["size"][0] * m["size"][1])


def load_picamera2() -> Any:
    """The picamera2 module, or a CameraError that says what is wrong and how to mend it.

    Any failure counts, not only ImportError: apt's picamera2 (and simplejpeg) are built against apt's
    numpy, and a newer numpy in the venv makes the import fail with ``ValueError: numpy.dtype size changed``."""
    try:
        import picamera2  # type: ignore[import-not-found]
    except ImportError as exc:
        raise CameraError(
            f"picamera2 cannot be imported ({exc}): on Raspberry Pi OS, `sudo apt install python3-picamera2` and "
            "make the virtual environment with --system-site-packages (hardware/install-pi.sh does both)"
        ) from None
    except Exception as exc:  # noqa: BLE001 - a binary mismatch shows as ValueError, RuntimeError, ...
        hint = ""
        if "numpy" in str(exc) or "dtype size" in str(exc):
            hint = ("apt's picamera2 needs apt's numpy, but the virtual environment has its own: "
                    "`.venv/bin/pip uninstall -y numpy opencv-python opencv-python-headless` "
                    "(or rerun hardware/install-pi.sh), then restart bgref")
        else:
            hint = "reinstall it with `sudo apt install --reinstall python3-picamera2`"
        raise CameraError(f"picamera2 cannot be loaded ({type(exc).__name__}: {exc}): {hint}") from None
    return picamera2


class PiCameraSource:
    """A Raspberry Pi camera module through picamera2 (installed from apt on the Pi).

    The whole sensor is used (an explicit full-field sensor mode, scaled to ``size``), focus is fixed
    for ``height_mm`` when the lens can focus (Camera Module 3), and :meth:`lock_exposure` holds
    exposure and white balance once calibration has learnt the colours under them.  ``module`` stands
    in for picamera2 (tests; nothing else)."""

    def __init__(self, size: tuple[int, int] = (1280, 720), clock: Callable[[], float] = time.monotonic,
                 height_mm: float = DEFAULT_HEIGHT_MM, module: Any = None) -> None:
        self.size = size
        self.clock = clock
        self.height_mm = height_mm
        self.name = "Pi camera"
        self.mode: dict[str, Any] | None = None  # the sensor mode in use
        self.locked: dict[str, Any] | None = None  # exposure and colour gains held since lock_exposure
        self._module = module
        self._camera: Any = None

    def open(self) -> None:
        module = self._module if self._module is not None else load_picamera2()
        try:
            camera = module.Picamera2()
        except Exception as exc:  # noqa: BLE001 - libcamera raises IndexError, RuntimeError, ...
            raise CameraError(f"no Pi camera found ({type(exc).__name__}: {exc}): check the ribbon cable's "
                              "both ends (contacts towards the board on a Pi 5) and `rpicam-hello --list-cameras`") from None
        try:
            camera.configure(self._configuration(camera))
            controls = self._focus_controls(camera)
            if self.locked:
                controls.update(self.locked)
            if controls:
                camera.set_controls(controls)
            camera.start()
        except Exception as exc:  # noqa: BLE001 - every failure is a message and a retry, never a crash
            _close_quietly(camera)
            raise CameraError(f"the Pi camera cannot be started ({type(exc).__name__}: {exc}); "
                              "is another program (rpicam-*, a second bgref) using it?") from None
        self._camera = camera

    def _configuration(self, camera: Any) -> Any:
        array = tuple((getattr(camera, "camera_properties", None) or {}).get("PixelArraySize", (0, 0)))
        mode = full_view_mode(list(getattr(camera, "sensor_modes", None) or []), array, self.size)  # type: ignore[arg-type]
        self.mode = mode
        main = {"size": self.size, "format": "RGB888"}
        if mode is None:
            return camera.create_video_configuration(main=main)
        try:
            return camera.create_video_configuration(main=main, sensor={"output_size": mode["size"], "bit_depth": mode["bit_depth"]})
        except TypeError:  # picamera2 before 0.3.13 takes the mode as the raw stream's size
            return camera.create_video_configuration(main=main, raw={"size": mode["size"]})

    def _focus_controls(self, camera: Any) -> dict[str, Any]:
        if "LensPosition" not in (getattr(camera, "camera_controls", None) or {}):
            return {}  # a fixed-focus lens (Camera Module 2, HQ with a manual lens)
        return {"AfMode": 0, "LensPosition": lens_dioptres(self.height_mm)}  # AfMode 0: manual

    def lock_exposure(self) -> dict[str, Any] | None:
        """Hold the exposure and white balance now in use (so the colours calibration learnt hold);
        the values, or None when the camera is not running."""
        if self._camera is None:
            return None
        try:
            meta = self._camera.capture_metadata()
            locked = {"AeEnable": False, "AwbEnable": False, "ExposureTime": int(meta["ExposureTime"]),
                      "AnalogueGain": float(meta["AnalogueGain"]), "ColourGains": tuple(float(g) for g in meta["ColourGains"])}
            self._camera.set_controls(locked)
        except Exception as exc:  # noqa: BLE001 - not fatal: the camera keeps adjusting itself
            raise CameraError(f"the Pi camera's exposure cannot be locked ({type(exc).__name__}: {exc})") from None
        self.locked = locked
        return locked

    def frames(self) -> Iterator[Frame]:
        while self._camera is not None:
            try:
                image = self._camera.capture_array("main")
            except Exception as exc:  # noqa: BLE001
                self.close()
                raise CameraLostError(f"the Pi camera stopped ({type(exc).__name__}: {exc})") from None
            # RGB888 in picamera2 is BGR in memory, as OpenCV wants.
            yield self.clock(), np.asarray(image)[:, :, :3]

    def close(self) -> None:
        if self._camera is not None:
            camera, self._camera = self._camera, None
            _close_quietly(camera)


def _close_quietly(camera: Any) -> None:
    for step in ("stop", "close"):
        try:
            getattr(camera, step)()
        except Exception:  # noqa: BLE001 - closing a broken camera must not raise over the real error
            pass


def open_source(spec: str, fps: float = 10.0, height_mm: float = DEFAULT_HEIGHT_MM) -> FrameSource:
    """A source from a command-line spec: ``picamera``, ``usb:0``, a video file or a folder
    (``height_mm``: the Pi camera's lens above the board, for its focus)."""
    if spec == "picamera":
        return PiCameraSource(height_mm=height_mm)
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
