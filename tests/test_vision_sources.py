"""Frame sources replay files; cameras are opened only by ``open()`` (picamera2 only on a Pi)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import ImageReadError
from vision.sources import CameraError, FolderSource, PiCameraSource, UsbCameraSource, VideoFileSource, open_source, read_image

DATA = Path(__file__).parent / "data" / "vision"


def test_folder_source_yields_the_fixtures_in_order() -> None:
    source = FolderSource(DATA, fps=4)
    source.open()
    frames = list(source.frames())
    assert frames and all(f.shape == (720, 1280, 3) for _, f in frames)
    assert [t for t, _ in frames[:3]] == [0.0, 0.25, 0.5]
    source.close()


def test_video_file_source(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    if not writer.isOpened():
        pytest.skip("no MJPG writer in this OpenCV build")
    for i in range(3):
        writer.write(np.full((48, 64, 3), 40 * i, np.uint8))
    writer.release()
    source = open_source(str(path))
    assert isinstance(source, VideoFileSource)
    source.open()
    frames = list(source.frames())
    source.close()
    assert len(frames) == 3 and frames[0][1].shape == (48, 64, 3) and frames[1][0] == pytest.approx(0.2)


def test_read_image_refuses_corrupt_files(tmp_path: Path) -> None:
    (tmp_path / "a.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(ImageReadError, match="not a readable image"):
        read_image(tmp_path / "a.jpg")
    (tmp_path / "b.jpg").write_bytes(b"")
    with pytest.raises(ImageReadError, match="empty"):
        read_image(tmp_path / "b.jpg")


def test_nothing_is_opened_before_open() -> None:
    assert isinstance(open_source("usb:3"), UsbCameraSource)
    assert isinstance(open_source("picamera"), PiCameraSource)
    with pytest.raises(CameraError, match="usb:N"):
        open_source("usb:x")
    with pytest.raises(CameraError, match="no camera at index 97"):
        UsbCameraSource(97).open()
