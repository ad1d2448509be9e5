"""Where the last hand came from: the frames that moved before the board settled.

The board is read only once it lies still (:mod:`referee.settle`), by when the hand that
threw the dice has gone.  To tell who threw them (:mod:`referee.rolls`), the frames that
moved since the board last settled are kept, a few, spread over the motion; when a
settled reading shows new dice, the newest of them that still differ from the settled
board are read, newest first, until one shows a hand over the board, and the side it
came in from goes with the reading.  Only then is a moving frame read: once a roll.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import numpy as np
from numpy.typing import NDArray

from .rolls import hand_side
from .settle import SettleConfig, moved

if TYPE_CHECKING:
    from vision.reading import Reading

Frame = NDArray[np.uint8]
KEEP = 8  # moving frames kept: when full, every other one goes, so they still span the whole motion
READS = 3  # moving frames read at most for one roll (a read takes tens of milliseconds)


class HandWatch:
    """The moving frames since the last settled reading, and the side of the last hand among them."""

    def __init__(self, settle: SettleConfig = SettleConfig(), keep: int = KEEP, reads: int = READS) -> None:
        self.settle = settle
        self.keep = max(2, keep)
        self.reads = reads
        self.frames: list[tuple[Frame, Frame]] = []  # (small grey copy, frame), oldest first; the newest always last
        self.stride = 1  # of the older frames, every stride-th is kept
        self.count = 0

    def moving(self, small: Frame, frame: Frame) -> None:
        """A frame taken while the board was not still."""
        if self.frames and self.count % self.stride:
            self.frames.pop()  # the newest so far is not one of every stride-th: the new one takes its place
        self.count += 1
        self.frames.append((small, frame))
        if len(self.frames) > self.keep:
            self.frames = self.frames[:-1][1::2] + self.frames[-1:]  # every other older one goes
            self.stride *= 2

    def clear(self) -> None:
        self.frames, self.stride, self.count = [], 1, 0

    def side(self, small: Frame, reader: Callable[[Frame], Reading], already: tuple[str, ...] = ()) -> int | None:
        """The player from whose side the last hand over the board reached in, on the frames kept that differ
        from the settled one (``small``, whose own hidden places are ``already``); None when none shows one.
        The frames are let go."""
        frames, self.frames = self.frames, []
        self.stride, self.count = 1, 0
        tried = 0
        for kept_small, frame in reversed(frames):
            if tried >= self.reads:
                break
            if kept_small.shape != small.shape or not moved(self.settle, kept_small, small):
                continue  # the settled board already, before it was read
            tried += 1
            try:
                reading = reader(frame)
            except Exception:  # noqa: BLE001 - a frame with an arm over most of the board may not read at all
                continue
            hidden = tuple(str(p) for p in reading.occluded)
            side = hand_side(hidden, already)
            if side is not None:
                return side
        return None
