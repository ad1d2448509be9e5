"""Named exceptions of the vision layer (one root, leaves also subclass a builtin)."""

from __future__ import annotations


class VisionError(Exception):
    """Root of every error raised by :mod:`vision`."""


class ImageReadError(VisionError, ValueError):
    """A file is missing, empty, corrupt or not an image."""


class BoardNotFoundError(VisionError, ValueError):
    """No backgammon board could be located in the image."""


class StartPositionNotFoundError(VisionError, ValueError):
    """A board was found but it does not show the starting position."""


class CalibrationError(VisionError, ValueError):
    """A calibration file is missing, malformed or does not fit the frame."""
