"""Frames to verdicts: settle detection, reading the board, the referee service.

:class:`FramePipeline` is fed ``(seconds, frame)``; when the board has settled
it reads it once (``vision``) and hands the reading to the service.  Vision
errors on a frame are reported once per kind and never stop the match.
:class:`DroppedDice` stands between them in tests and benchmarks to hide a
die from some rolls.
:func:`run_source` drives a pipeline from a frame source, reopening a camera
that was unplugged and showing the camera fault on the LEDs meanwhile.
"""

from __future__ import annotations

import logging
import random
import statistics
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Protocol

import numpy as np
from numpy.typing import NDArray

from vision.sources import CameraError, FrameSource
from vision.errors import CalibrationError, VisionError
from vision.reading import Reading

from .core import Outcome, Press, Seen
from .hands import HandWatch
from .settle import SettleConfig, SettleState, moved, settle_step, shrink

log = logging.getLogger("bgref")

Reader = Callable[[NDArray[np.uint8]], Reading]
BARE_BOARD_TRIES = 3  # settled bare-looking frames tried before giving up on learning the bare board


def not_calibrated(frame: NDArray[np.uint8]) -> Reading:
    """The reader until a calibration is made or loaded: every frame is unreadable."""
    raise CalibrationError("no calibration yet: set up the start position in view of the camera")


class Referee(Protocol):
    """What takes readings: the service, or the web page in front of it."""

    def handle(self, item: Seen | Press) -> Outcome: ...


@dataclass
class PipelineStats:
    """What a run measured."""

    frames: int = 0
    reads: int = 0
    read_seconds: list[float] = field(default_factory=list)
    verdict_seconds: list[float] = field(default_factory=list)  # dice picked up -> verdict shown
    vision_errors: int = 0
    wall_seconds: float = 0.0

    def summary(self) -> str:
        parts = [f"{self.frames} frames", f"{self.reads} readings"]
        if self.wall_seconds:
            parts.append(f"{self.frames / self.wall_seconds:.1f} frames/s")
        if self.read_seconds:
            parts.append(f"median read {1000 * statistics.median(self.read_seconds):.0f} ms")
        if self.verdict_seconds:
            parts.append(f"median verdict {1000 * statistics.median(self.verdict_seconds):.0f} ms")
        if self.vision_errors:
            parts.append(f"{self.vision_errors} unreadable frames")
        return ", ".join(parts)


class FramePipeline:
    """Settle, read, referee."""

    def __init__(self, reader: Reader, service: Referee, settle: SettleConfig = SettleConfig(), clock: Callable[[], float] = time.perf_counter,
                 on_bare_board: Callable[[Any], None] | None = None) -> None:
        self.reader = reader
        self.service = service
        self.settle_cfg = settle
        self.clock = clock
        self.state = SettleState()
        self.stats = PipelineStats()
        self._reported: set[str] = set()
        # given a calibration that learnt the bare board from a settled frame that showed it (see learn_bare_board)
        self.on_bare_board = on_bare_board
        self._bare_tries = 0
        self.hands = HandWatch(settle)  # the moving frames, to tell who threw new dice
        self._dice: tuple[Any, ...] = ()  # the dice of the last settled reading
        self._last_seen: Seen | None = None  # the last settled reading handed on

    def feed(self, t: float, frame: NDArray[np.uint8]) -> Outcome | None:
        """Take one frame; the outcome when it was read and refereed."""
        self.stats.frames += 1
        if frame is None or frame.ndim not in (2, 3) or frame.size == 0:
            self._report_once("corrupt", "a corrupt frame was skipped")
            return None
        small = shrink(self.settle_cfg, frame)
        self.state, read_now = settle_step(self.settle_cfg, self.state, t, small)
        if not read_now:
            if self.state.still_since == t:  # it moved
                self.hands.moving(small, frame)
            return None
        start = self.clock()
        try:
            reading = self.reader(frame)
        except VisionError as exc:
            self.stats.vision_errors += 1
            self._report_once(type(exc).__name__, f"this frame could not be read: {exc}")
            return None
        except Exception as exc:  # a fault in the reader must cost a frame, never the match
            self.stats.vision_errors += 1
            log.debug("reader fault", exc_info=True)
            self._report_once(f"fault:{type(exc).__name__}", f"the reader failed on a frame ({type(exc).__name__}: {exc}); "
                              "the frame was skipped and refereeing goes on (please report this with the frame)")
            return None
        read_done = self.clock()
        self.stats.reads += 1
        self.stats.read_seconds.append(read_done - start)
        if self.on_bare_board is not None:
            self._learn_bare_board(frame, reading)
        try:
            seen = Seen.from_reading(reading, t)
        except ValueError as exc:
            self.stats.vision_errors += 1
            self._report_once("malformed", f"a reading could not be used: {exc}")
            return None
        seen = self._with_hand(seen, small)
        self._last_seen = seen
        outcome = self.service.handle(seen)
        if outcome.verdict is not None:
            self.stats.verdict_seconds.append(self.clock() - start)
        return outcome

    def ended(self) -> Outcome | None:
        """The footage ended.  If the board lay still as last read until its last frame, that reading is final
        (nothing more will be seen) and goes to the referee again, so marked (:func:`referee.core._ended`);
        if it moved since, the board's last state is not known and nothing is said."""
        last, state = self._last_seen, self.state
        if last is None or state.last_read is None or state.previous is None or state.previous.shape != state.last_read.shape:
            return None
        if moved(self.settle_cfg, state.last_read, state.previous):
            return None
        return self.service.handle(replace(last, final=True))

    def _with_hand(self, seen: Seen, small: NDArray[np.uint8]) -> Seen:
        """New dice on the board: whose hand threw them, from the frames before it settled (referee.hands)."""
        dice = tuple(sorted((d.value or 0, d.half) for d in seen.dice))
        new, self._dice = bool(dice) and dice != self._dice, dice
        if not new or seen.occluded:
            self.hands.clear()
            return seen
        return replace(seen, hand=self.hands.side(small, self.reader, seen.occluded))

    def _learn_bare_board(self, frame: NDArray[np.uint8], reading: Reading) -> None:
        """The first time the board is seen settled and bare (players clearing it, or before they set it
        up), the calibration learns the points the start position covered from it, once and for all."""
        from vision.calibrate import learn_bare_board

        cal = getattr(self.reader, "cal", None)
        if cal is None or cal.bare_board_seen or self._bare_tries >= BARE_BOARD_TRIES:
            return
        learnt = learn_bare_board(cal, frame, reading)
        if learnt is None:
            return
        self._bare_tries += 1
        if isinstance(learnt, str):
            log.info("the board looked bare but was not learnt: %s", learnt)
            return
        assert self.on_bare_board is not None
        self.on_bare_board(learnt)
        log.warning("the bare board was seen: the points the start position covers are now read with their own look")

    def _report_once(self, kind: str, text: str) -> None:
        if kind not in self._reported:
            self._reported.add(kind)
            log.warning(text)


class DroppedDice:
    """Fault injection for tests and benchmarks: passes readings on to ``referee``
    with one die missing from some rolls, as if vision had not seen it.

    A roll is a run of readings showing the same two dice (readings under a
    hand do not end it); rolls are numbered from 0 in the order seen, the
    opening roll included.  In the rolls ``chosen`` one of the two dice, picked
    by ``seed``, is removed from every reading of the roll (``first_only``:
    from its first settled reading only, the die then seen again)."""

    def __init__(self, referee: Referee, chosen: Callable[[int], bool], seed: int = 0, first_only: bool = False) -> None:
        self.referee = referee
        self.chosen = chosen
        self.rng = random.Random(seed)
        self.first_only = first_only
        self.rolls = -1  # the number of the roll on the board
        self.key: tuple[Any, ...] = ()
        self.drop: Any = None  # the die removed from the roll on the board
        self.dropped: list[int] = []  # the rolls a die was removed from

    def handle(self, item: Seen | Press) -> Outcome:
        if isinstance(item, Seen):
            item = self._filter(item)
        return self.referee.handle(item)

    def _filter(self, seen: Seen) -> Seen:
        if seen.occluded:
            return seen  # not refereed
        key = tuple(sorted((d.value or 0, d.flat, d.half) for d in seen.dice))
        if not key:
            self.key, self.drop = (), None
        elif key != self.key and len(key) == 2:
            self.key, self.drop = key, None
            self.rolls += 1
            if self.chosen(self.rolls):
                self.drop = self.rng.choice(key)
                self.dropped.append(self.rolls)
        elif key != self.key:
            return seen  # not two dice: not a roll's reading
        return self._without(seen)

    def _without(self, seen: Seen) -> Seen:
        if self.drop is None:
            return seen
        dice = list(seen.dice)
        for i, d in enumerate(dice):
            if (d.value or 0, d.flat, d.half) == self.drop:
                del dice[i]
                break
        if self.first_only:
            self.drop = None
        return replace(seen, dice=tuple(dice))


def run_source(
    source: FrameSource,
    pipeline: FramePipeline,
    on_camera_fault: Callable[[bool], None] = lambda on: None,
    retry_seconds: float = 2.0,
    live: bool = False,
    idle: Callable[[], None] = lambda: None,
    sleep: Callable[[float], None] = time.sleep,
) -> PipelineStats:
    """Feed every frame of ``source``; a live camera that is lost is reopened
    every ``retry_seconds`` until it is back (or the process is stopped)."""
    started = time.perf_counter()
    told = False
    while True:
        try:
            source.open()
            if told:
                log.warning("%s is back", source.name)
                on_camera_fault(False)
                told = False
            for t, frame in source.frames():
                pipeline.feed(t, frame)
                idle()
            if not live:
                pipeline.ended()  # a recording's end: its last settled board is final
            break
        except CameraError as exc:  # unplugged, or not there yet
            if not live:
                raise
            if not told:
                log.warning("%s; retrying every %.0f s", exc, retry_seconds)
                on_camera_fault(True)
                told = True
            idle()
            sleep(retry_seconds)
        finally:
            source.close()
    pipeline.stats.wall_seconds = time.perf_counter() - started
    return pipeline.stats
