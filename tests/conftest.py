"""Fixtures shared by the test files.

``calibrated`` calibrates a start-position image once per session: calibrating takes
seconds, several files calibrate the same fixtures, and a :class:`vision.Calibration`
is a frozen value that reading never changes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def calibrated() -> Callable[..., Any]:
    """``calibrated(path, config=None)``: the calibration of the start-position image at
    ``path`` (a ``vision.CalibrationConfig`` other than the default may be given), made
    once per session."""
    from vision.calibrate import calibrate
    from vision.config import CalibrationConfig
    from vision.sources import read_image

    made: dict[tuple[Path, Any], Any] = {}

    def calibration(path: Path | str, config: Any = None) -> Any:
        config = config or CalibrationConfig()
        key = (Path(path).resolve(), config)
        if key not in made:
            made[key] = calibrate(config, read_image(Path(path)))
        return made[key]

    return calibration
