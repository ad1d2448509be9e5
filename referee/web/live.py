"""The page's live state: follows a referee service and publishes a snapshot after
every observation (the thin, stateful side of :mod:`referee.web.view`).

Snapshots are built under one lock, in whichever thread the service handled the
observation (camera loop, web request, analysis worker), and handed to
``publish`` — the web server passes them to its event loop thread-safely.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable
from typing import Any

from engine.game import Event, Phase, apply_to_match, new_match

from ..core import Note, Outcome, Referee, Seen
from ..service import RefereeService
from . import view
from .analysis import Analyst, Context, analysis_dict

SGF = importlib.util.find_spec("engine.sgf") is not None
Devices = Callable[[RefereeService], dict[str, dict[str, Any]]]


def context_of(ref: Referee) -> Context:
    """The match context of the player to move, for equities."""
    g, score = ref.game, ref.match.score
    mover = g.turn
    owner = "centre" if g.cube_owner is None else "mover" if g.cube_owner == mover else "opponent"
    return Context(ref.settings.rules.match_length, (score[mover], score[1 - mover]), g.cube, owner, g.crawford)


class LiveState:
    """What the page shows now, kept up to date from the service's listeners."""

    def __init__(self, service: RefereeService, analyst: Analyst, devices: Devices, lock: threading.RLock) -> None:
        self.lock = lock
        self.analyst = analyst
        self.devices = devices
        self.publish: Callable[[dict[str, Any]], None] = lambda snapshot: None
        self.version = 0
        self._snapshot: dict[str, Any] = {}
        self.follow(service)

    # --- following a service -------------------------------------------------------------

    def follow(self, service: RefereeService) -> None:
        """Show this service's match from now on (a new match starts a new service)."""
        with self.lock:
            self.service = service
            self.seen: Seen | None = None
            self.notes = view.NoteLog()
            self.turn: view.TurnStart | None = view.turn_start(service.ref)
            self.turn_context: Context | None = context_of(service.ref) if self.turn else None
            self.last: view.LastPlay | None = None
            self.last_context: Context | None = None
            self.moves = MoveList(service)
            service.listeners.on_note.append(self._on_note)
            service.listeners.on_outcome.append(self._on_outcome)
            resumed = service.resumed_message()
            if resumed:
                self.notes.add(Note(resumed))
            self.refresh()

    def saw(self, seen: Seen) -> None:
        """Remember the latest reading in which the whole board was seen."""
        if not seen.occluded:
            with self.lock:
                self.seen = seen

    def _on_note(self, note: Note) -> None:
        with self.lock:
            self.notes.add(note)

    def _on_outcome(self, outcome: Outcome, ref: Referee) -> None:
        with self.lock:
            last = view.last_play_of(outcome, ref, self.turn)
            if last is not None:
                self.last, self.last_context = last, self.turn_context
            turn = view.turn_start(ref)
            if turn is not None and turn != self.turn:
                self.turn, self.turn_context = turn, context_of(ref)
            self.refresh()

    # --- snapshots ----------------------------------------------------------------------------

    def refresh(self) -> None:
        """Build a new snapshot and publish it, unless nothing on the page changed."""
        with self.lock:
            built = self._build()
            if built == {**self._snapshot, "version": 0}:
                return
            self.version += 1
            self._snapshot = {**built, "version": self.version}
            snapshot = self._snapshot
        self.publish(snapshot)

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            return self._snapshot

    def _build(self) -> dict[str, Any]:
        ref = self.service.ref
        hints = view.hints_allowed(ref)
        players = ref.settings.players
        return {
            "version": 0,
            "players": list(players),
            "mode": ref.settings.mode.value,
            "match": view.match_dict(ref),
            "status": view.status_dict(ref),
            "board": self._board(ref),
            "dice": view.dice_of(ref, self.seen),
            "cube": view.cube_dict(ref),
            "actions": view.actions_dict(ref),
            "verdict": self._verdict(players, hints),
            "teaching": self._teaching(ref) if hints else None,
            "hints": hints,
            "analysis_available": self.analyst.available and hints,
            "notes": list(self.notes.notes),
            "moves": self.moves.games(),
            "devices": self.devices(self.service),
            "files": self._files(),
        }

    def _board(self, ref: Referee) -> dict[str, Any]:
        if self.seen is not None:
            return view.board_dict(self.seen.board, "reading")
        return view.board_dict(view.game_board(ref), "match")

    def _verdict(self, players: tuple[str, str], hints: bool) -> dict[str, Any] | None:
        if self.last is None:
            return None
        out = view.verdict_dict(self.last, players, hints)
        if hints and self.last_context is not None:
            ranked = self.analyst.ranked(self.last.turn, self.last_context)
            out["analysis"] = analysis_dict(ranked, self.last.after) if ranked is not None else None
        return out

    def _teaching(self, ref: Referee) -> dict[str, Any] | None:
        g = ref.match.game
        if g is None or g.phase is not Phase.MOVE or self.turn is None:
            return None
        out = view.teaching_dict(self.turn, view.legal_for(self.turn))
        ranked = self.analyst.ranked(self.turn, self.turn_context) if self.turn_context else None
        out["analysis"] = analysis_dict(ranked, None) if ranked is not None else None
        return out

    def _files(self) -> list[str]:
        return ["match.mat", "match.sgf"] if SGF else ["match.mat"]


class MoveList:
    """The match's move list, kept up to date event by event (each event is
    judged once, so a long match costs no more per reading than a short one)."""

    def __init__(self, service: RefereeService) -> None:
        self.service = service
        self.match = new_match(service.settings.rules)
        self.list: list[dict[str, Any]] = []
        self.seen = 0
        self.last: Event | None = None  # the last event taken: no longer there means events were withdrawn

    def games(self) -> list[dict[str, Any]]:
        events = self.service.events
        if self.seen and (self.seen > len(events) or events[self.seen - 1] is not self.last):
            # events were withdrawn (a take-back, a new game, a misread roll re-recorded): start again
            self.match, self.list, self.seen = new_match(self.service.settings.rules), [], 0
        if self.seen < len(events):
            for event in events[self.seen:]:
                self._take(event)
            self.seen, self.last = len(events), events[-1]
            self.list = [dict(game) for game in self.list]  # a new value for the new snapshot
        return self.list

    def _take(self, event: Event) -> None:
        before = self.match
        assert before.game is not None
        if not self.list or self.list[-1]["result"] is not None:
            self.list.append({"number": before.games_played + 1, "score": list(before.score), "actions": [], "result": None})
        game = self.list[-1]
        action = view.event_action(before.game, event)
        if action is not None:
            game["actions"] = [*game["actions"], action]
        self.match = apply_to_match(before, event)
        if self.match.games_played > before.games_played:
            result = self.match.last_result
            assert result is not None
            game["result"] = {"winner": result.winner, "points": result.points, "resigned": result.how == "resignation"}
