"""When to read the board: after it has been still for a while.

A pure state machine fed ``(seconds, small grey frame)``: the board is read
once it has been still for ``settle_seconds``, and not again until it settles
in a new state.  "Moved" counts the pixels of a small blurred copy that changed
a lot: a single checker or die moving shows, sensor noise and slow light
changes do not.  Hands, cups and rolling dice keep it moving.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

Small = NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class SettleConfig:
    width: int = 160  # the frame is shrunk to this width for the motion measure
    pixel_level: int = 16  # grey levels a pixel must change by to count as moved
    moved_pixels: int = 4  # this many moved pixels mean something moved
    settle_seconds: float = 0.3


@dataclass(frozen=True, slots=True)
class SettleState:
    previous: Small | None = None
    still_since: float | None = None
    last_read: Small | None = None


def shrink(cfg: SettleConfig, frame: NDArray[np.uint8]) -> Small:
    """A small blurred grey copy of a frame, for measuring motion."""
    h, w = frame.shape[:2]
    height = max(1, round(h * cfg.width / w))
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    small = cv2.resize(grey, (cfg.width, height), interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.GaussianBlur(small, (3, 3), 0), dtype=np.uint8)


def moved(cfg: SettleConfig, a: Small, b: Small) -> bool:
    """True when enough pixels changed a lot between two small frames."""
    return int(np.count_nonzero(cv2.absdiff(a, b) > cfg.pixel_level)) >= cfg.moved_pixels


def settle_step(cfg: SettleConfig, state: SettleState, t: float, small: Small) -> tuple[SettleState, bool]:
    """The next state, and whether the board should be read now."""
    if state.previous is None or state.previous.shape != small.shape or moved(cfg, state.previous, small):
        return SettleState(previous=small, still_since=t, last_read=state.last_read), False
    since = state.still_since if state.still_since is not None else t
    if t - since < cfg.settle_seconds:
        return SettleState(previous=small, still_since=since, last_read=state.last_read), False
    if state.last_read is not None and not moved(cfg, state.last_read, small):
        return SettleState(previous=small, still_since=since, last_read=state.last_read), False
    return SettleState(previous=small, still_since=since, last_read=small), True
