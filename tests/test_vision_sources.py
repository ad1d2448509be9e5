"""Frame sources replay files; the camera adapter is only imported on a Pi."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.errors import ImageReadError
from vision.sources import FolderSource, VideoSource, read_image

DATA = Path(__file__).parent / "data" / "vision"


def test_folder_source_yields_the_fixtures_in_order() -> None:
    source = FolderSource(DATA)
    names = [p.name for p in source.paths]
    assert names == sorted(names) and "start.jpg" in names
    frames = list(source)
    assert len(frames) == len(names) and all(f.shape == (720, 1280, 3) for f in frames)
    source.close()


def test_video_source_reads_an_open_capture(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (64, 48))
    if not writer.isOpened():
        pytest.skip("no MJPG writer in this OpenCV build")
    for i in range(3):
        writer.write(np.full((48, 64, 3), 40 * i, np.uint8))
    writer.release()
    source = VideoSource(cv2.VideoCapture(str(path)))
    frames = list(source)
    source.close()
    assert len(frames) == 3 and frames[0].shape == (48, 64, 3)


def test_folder_source_raises_on_a_corrupt_file(tmp_path: Path) -> None:
    (tmp_path / "a.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(ImageReadError):
        list(FolderSource(tmp_path))
    with pytest.raises(ImageReadError):
        read_image(tmp_path / "a.jpg")
