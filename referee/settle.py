"""When to read the board: after it has been still for a while.

A pure state machine fed ``(seconds, small grey frame)``: the board is read
once it has been still (mean frame-to-frame change under a threshold) for
``settle_seconds``, and not again until something moves and settles in a new
state.  Hands, cups and rolling dice keep it moving.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

Small = NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class SettleConfig:
    width: int = 96  # the frame is shrunk to this width for the motion measure
    still_level: float = 2.0  # mean absolute change (grey levels) that counts as still
    changed_level: float = 3.0  # mean change against the last read frame that counts as new
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


def _change(a: Small, b: Small) -> float:
    return float(np.mean(cv2.absdiff(a, b)))


def settle_step(cfg: SettleConfig, state: SettleState, t: float, small: Small) -> tuple[SettleState, bool]:
    """The next state, and whether the board should be read now."""
    if state.previous is None or state.previous.shape != small.shape or _change(state.previous, small) > cfg.still_level:
        return SettleState(previous=small, still_since=t, last_read=state.last_read), False
    since = state.still_since if state.still_since is not None else t
    if t - since < cfg.settle_seconds:
        return SettleState(previous=small, still_since=since, last_read=state.last_read), False
    if state.last_read is not None and _change(state.last_read, small) <= cfg.changed_level:
        return SettleState(previous=small, still_since=since, last_read=state.last_read), False
    return SettleState(previous=small, still_since=since, last_read=small), True
