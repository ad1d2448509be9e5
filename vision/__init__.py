"""Vision: calibrate on the start position, then read any frame of the board.

Public surface::

    from vision import calibrate, load_calibration, BoardReader, read_dice
"""

from vision.calibrate import Calibration, calibrate, load_calibration
from vision.config import CalibrationConfig, ReaderConfig
from vision.dice import DiceConfig, Die, read_dice
from vision.errors import (
    BoardNotFoundError,
    CalibrationError,
    ImageReadError,
    StartPositionNotFoundError,
    VisionError,
)
from vision.read import BoardReader, read_board

__all__ = [
    "BoardNotFoundError",
    "BoardReader",
    "Calibration",
    "CalibrationConfig",
    "CalibrationError",
    "DiceConfig",
    "Die",
    "ImageReadError",
    "ReaderConfig",
    "StartPositionNotFoundError",
    "VisionError",
    "calibrate",
    "load_calibration",
    "read_board",
    "read_dice",
]
