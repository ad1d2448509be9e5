"""The referee service's shell: core decisions -> journal, LEDs, match files, log.

Everything that decides is in :mod:`referee.core`; this class only carries the
decisions out, in an order that loses nothing: events are journalled (and
fsync'd) before the state moves on, every call the referee makes is appended
to ``calls.jsonl`` (one JSON object a line, see ``docs/referee.md``), and every
finished game is written to ``.mat`` (and SGF) in the match folder.
"""

from __future__ import annotations

import importlib
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol

from engine.colour import Colour
from engine.from_events import record_from_events
from engine.game import Event, Move, apply_to_match, new_match
from engine import record as record_model
from engine.mat import write_mat
from firmware_bridge.signals import SignalKind

from .calls import CALLS_NAME
from .core import Call, Note, Outcome, Press, Referee, Seen, Settings, Signal, Stage, observe, resume, start
from .journal import Journal, Recovered

log = logging.getLogger("bgref")

JOURNAL_NAME = "match.journal"


class SignalSink(Protocol):
    """What the service needs of :class:`firmware_bridge.Signals`."""

    def show(self, kind: SignalKind, *args: Any) -> None: ...


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
        self.calls = CallLog(folder / CALLS_NAME)
        self.t = 0.0  # seconds into the footage of the last reading (calls by button are stamped with it)

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
        if isinstance(item, Seen) and item.t is not None:
            self.t = item.t
        ref, outcome = observe(self.ref, item)
        if outcome.retracted:
            self.journal.retract(outcome.retracted, "; ".join(n.text for n in outcome.notes))
            del self.events[len(self.events) - outcome.retracted:]
        if ref.settings.dark_right_half != self.ref.settings.dark_right_half:
            self.journal.seating(ref.settings.dark_right_half)
        for call in outcome.calls:
            self.calls.append(self.t, call)
        for event in outcome.events:
            self.journal.append(event, inferred=event in outcome.inferred)  # journalled before the state moves on
            self.events.append(event)
        self.ref = ref
        self._show(outcome.signals)
        for note in outcome.notes:
            self.tell(note)
        for watcher in self.listeners.on_outcome:
            watcher(outcome, ref)
        if ref.match.games_played > self._games_written:
            try:
                self.write_records()
            except Exception as exc:  # noqa: BLE001 - refereeing goes on; the journal holds the game
                self._games_written = ref.match.games_played
                log.warning("the match records could not be written (%s: %s); the journal %s holds every event",
                            type(exc).__name__, exc, self.journal.path)
        return outcome

    def tell(self, note: Note) -> None:
        """Say ``note`` on the console and to every listener (the page)."""
        log.log(logging.WARNING if note.level != "info" else logging.INFO, note.text)
        for listener in self.listeners.on_note:
            listener(note)

    # -- the take-back and new-game buttons: the journal is cut back, what is cut kept aside ---------
    def take_back(self) -> Outcome:
        """Undo the last play, as long as the next roll has not been made: the mover plays the roll again."""
        if self.ref.stage is not Stage.PLAYING or not self.events or not isinstance(self.events[-1], Move):
            return self._answer(Outcome(notes=(Note("take back: only the last play, before the next roll", "warning"),)))
        before = resume(self.settings, self.events[:-1])
        if before.match.games_played != self.ref.match.games_played:
            return self._answer(Outcome(notes=(Note("take back: that play ended the game", "warning"),)))
        player = self.events[-1].player
        self._rewind(len(self.events) - 1, before, "take-back")
        side = Colour.of_player(player)
        dice = "-".join(str(d) for d in before.game.dice or ())
        note = Note(f"take back: {self.settings.players[player]} plays the {dice} again; put the checkers back")
        return self._answer(Outcome(notes=(note,), signals=(Signal(SignalKind.CLEAR), Signal(SignalKind.YOUR_TURN, (side,)))))

    def abandon_game(self) -> Outcome:
        """Drop the game in play (the finished games stay): the referee waits for the start position."""
        keep, played, match = 0, 0, new_match(self.settings.rules)
        for i, event in enumerate(self.events):
            match = apply_to_match(match, event)
            if match.games_played > played:
                played, keep = match.games_played, i + 1  # the finished games end here
        if keep == len(self.events):
            note = Note("new game: set up the start position; the referee starts the game when it sees it")
            return self._answer(Outcome(notes=(note,)))
        self._rewind(keep, resume(self.settings, self.events[:keep]), "abandoned")
        note = Note("new game: the game in play was abandoned (kept in the journal, withdrawn); set up the start position", "warning")
        return self._answer(Outcome(notes=(note,), signals=(Signal(SignalKind.CLEAR), Signal(SignalKind.YOUR_TURN, (None,)))))

    def _answer(self, outcome: Outcome) -> Outcome:
        self._show(outcome.signals)
        for note in outcome.notes:
            self.tell(note)
        for watcher in self.listeners.on_outcome:
            watcher(outcome, self.ref)
        return outcome

    def _rewind(self, keep: int, ref: Referee, why: str) -> None:
        """Withdraw every event after the first ``keep``: the journal keeps them (append-only) under a retract line."""
        if len(self.events) > keep:
            self.journal.retract(len(self.events) - keep, why)
        self.events = self.events[:keep]
        self.ref = ref

    def _show(self, signals: tuple[Signal, ...]) -> None:
        if self.signals is None:
            return
        for signal in signals:
            args = signal.args
            if signal.kind is SignalKind.REROLL_NEEDED and args and args[0] is None:
                args = (Colour.DARK,)  # the opening roll: both roll again; one seat light is enough
            self.signals.show(signal.kind, *args)

    def record(self) -> record_model.RecordedMatch:
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
        self.calls.close()


class CallLog:
    """``calls.jsonl``: every call the referee made, one JSON object a line, flushed and fsync'd as made.
    A call repeated on the next readings (the same kind, player, reasons and turn) is written once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle: Any = None
        self._last: Call | None = None

    def append(self, t: float, call: Call) -> None:
        if call == self._last:
            return
        self._last = call
        if self._handle is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._handle = open(self.path, "a", encoding="utf-8")
        self._handle.write(json.dumps({"t": round(t, 2), **call.to_json()}) + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


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
