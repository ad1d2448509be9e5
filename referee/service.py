"""The referee service's shell: core decisions -> journal, LEDs, match files, log.

Everything that decides is in :mod:`referee.core`; this class only carries the
decisions out, in an order that loses nothing: events are journalled (and
fsync'd) before the state moves on, and every finished game is written to
``.mat`` (and SGF) in the match folder.
"""

from __future__ import annotations

import importlib
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol

from engine.from_events import record_from_events
from engine.game import Event
from engine import record as record_model
from engine.mat import write_mat

from .core import Note, Outcome, Press, Referee, Seen, Settings, Signal, observe, resume, start
from .journal import Journal, Recovered

log = logging.getLogger("bgref")

JOURNAL_NAME = "match.journal"


class SignalSink(Protocol):
    """What the service needs of :class:`firmware_bridge.Signals`."""

    def illegal_play(self, points: Any) -> None: ...
    def play_accepted(self, points: Any = ()) -> None: ...
    def your_turn(self, side: str | None) -> None: ...
    def reroll_needed(self, side: str) -> None: ...
    def teaching(self, sources: Any, destinations: Any = ()) -> None: ...
    def cube(self, value: int, owner: str | None = None) -> None: ...


@dataclass
class Listeners:
    """Callbacks for what happens (the web page subscribes here)."""

    on_note: list[Callable[[Note], None]] = field(default_factory=list)
    on_outcome: list[Callable[[Outcome, Referee], None]] = field(default_factory=list)


class RefereeService:
    """One match being refereed, with its folder, journal and LEDs."""

    def __init__(self, settings: Settings, folder: Path, signals: SignalSink | None) -> None:
        self.folder = folder
        self.signals = signals
        self.listeners = Listeners()
        self.recovered: Recovered | None = None
        path = folder / JOURNAL_NAME
        if path.exists():
            self.journal, self.recovered = Journal.reopen(path)
            self.ref = resume(self.recovered.settings, self.recovered.events)
            self.events: list[Event] = list(self.recovered.events)
        else:
            self.journal = Journal.create(path, settings)
            self.ref = start(settings)
            self.events = []
        self._games_written = self.ref.match.games_played

    @property
    def settings(self) -> Settings:
        return self.ref.settings

    def resumed_message(self) -> str | None:
        """A line saying what was recovered from the journal, if anything."""
        rec = self.recovered
        if rec is None:
            return None
        text = f"resumed the match from {self.journal.path}: {len(rec.events)} events, score {self.ref.match.score}"
        if rec.inferred:
            text += f"; {len(rec.inferred)} roll(s) were taken from the play"
        if rec.dropped_lines:
            text += f"; a damaged tail of {rec.dropped_lines} line(s) was set aside in {rec.set_aside}"
        return text

    def handle(self, item: Seen | Press) -> Outcome:
        """Act on one settled reading or button press."""
        ref, outcome = observe(self.ref, item)
        for event in outcome.events:
            self.journal.append(event, inferred=event in outcome.inferred)  # journalled before the state moves on
            self.events.append(event)
        self.ref = ref
        self._show(outcome.signals)
        for note in outcome.notes:
            log.log(logging.WARNING if note.level != "info" else logging.INFO, note.text)
            for listener in self.listeners.on_note:
                listener(note)
        for watcher in self.listeners.on_outcome:
            watcher(outcome, ref)
        if ref.match.games_played > self._games_written:
            self.write_records()
        return outcome

    def _show(self, signals: tuple[Signal, ...]) -> None:
        if self.signals is None:
            return
        for signal in signals:
            method = getattr(self.signals, signal.kind, None)
            args = signal.args
            if signal.kind == "reroll_needed" and args and args[0] is None:
                args = ("dark",)  # the opening roll: both roll again; one seat light is enough
            if method is None:
                log.debug("no LED signal for %s", signal.kind)
                continue
            method(*args)

    def record(self) -> record_model.Match:
        """The match record so far."""
        return record_from_events(self.settings.players, self.settings.rules, self.events)

    def write_records(self) -> list[Path]:
        """Write the match so far as ``match.mat`` (and ``match.sgf``) in the match folder."""
        record = self.record()
        written = []
        # The writers are total (a play is written as made); a format that cannot
        # say something (a .mat file and a cube started by automatic doubles) is
        # skipped with a message, never a traceback: the journal keeps everything.
        for name, writer in (("match.mat", write_mat), ("match.sgf", _sgf_writer())):
            if writer is None:
                continue
            try:
                text = writer(record)
            except record_model.RecordError as exc:
                log.error("%s not written: %s", name, exc)
                continue
            written.append(_write_atomic(self.folder / name, text))
        self._games_written = self.ref.match.games_played
        return written

    def close(self) -> None:
        self.journal.close()


def _sgf_writer() -> Callable[[Any], str] | None:
    try:
        module = importlib.import_module("engine.sgf")
    except ImportError:
        return None
    return getattr(module, "write_sgf", None)


def _write_atomic(path: Path, text: str) -> Path:
    """Write via a temporary file and rename, so a power cut never leaves half a file."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    tmp.replace(path)
    return path
