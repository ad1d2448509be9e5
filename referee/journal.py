"""The match journal: an append-only file of events, fsync'd line by line.

Each line is ``{"seq": n, "crc": c, "entry": {...}}``, ``crc`` being the CRC-32
of the entry's canonical JSON.  The first entry describes the match (players,
rules, mode); the rest are engine events, a roll taken from the play (the
camera did not see it whole) marked ``"inferred": true``, and two corrections,
appended, never written over: ``{"type": "retract", "count": n, "why": …}``
withdraws the last n events (a roll misread, found out by the play), and
``{"type": "seating", "dark_right_half": …}`` says the players were found in
each other's seats.  After a crash or power cut the file
is read up to the last whole, intact line; a torn or corrupt tail is set
aside in ``<name>.corrupt-<n>`` and reported, never silently lost.
"""

from __future__ import annotations

import json
import os
import zlib
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterator

from engine.game import (
    AcceptIllegal,
    AcceptResignation,
    Beaver,
    Double,
    Drop,
    Event,
    Move,
    OpeningRoll,
    Raccoon,
    RejectResignation,
    Resign,
    Roll,
    Rules,
    Take,
    Win,
)
from engine.position import Position

from .core import Mode, Settings


class JournalError(ValueError):
    """A journal that cannot be used (wrong kind of file, unknown entry)."""


# --- entries <-> events ---------------------------------------------------------------

_SIMPLE: dict[str, Callable[[int], Event]] = {
    "double": Double,
    "take": Take,
    "drop": Drop,
    "beaver": Beaver,
    "raccoon": Raccoon,
    "accept_resignation": AcceptResignation,
    "reject_resignation": RejectResignation,
}
_SIMPLE_NAMES = {cls: name for name, cls in _SIMPLE.items()}


def event_entry(event: Event) -> dict[str, Any]:
    """A journal entry for an engine event."""
    if isinstance(event, OpeningRoll):
        return {"type": "opening_roll", "dice": list(event.dice)}
    if isinstance(event, Roll):
        return {"type": "roll", "player": event.player, "dice": list(event.dice)}
    if isinstance(event, Move):
        return {"type": "move", "player": event.player, "after": event.after.id(), "accept_illegal": event.accept_illegal}
    if isinstance(event, Resign):
        return {"type": "resign", "player": event.player, "win": int(event.win)}
    name = _SIMPLE_NAMES.get(type(event))
    if name is None:
        raise JournalError(f"cannot journal {event!r}")
    return {"type": name, "player": event.player}


def entry_event(entry: dict[str, Any]) -> Event:
    """The engine event of a journal entry."""
    kind = entry.get("type")
    if kind == "opening_roll":
        return OpeningRoll((int(entry["dice"][0]), int(entry["dice"][1])))
    if kind == "roll":
        return Roll(int(entry["player"]), (int(entry["dice"][0]), int(entry["dice"][1])))
    if kind == "move":
        return Move(int(entry["player"]), Position.from_id(entry["after"]), bool(entry.get("accept_illegal")))
    if kind == "resign":
        return Resign(int(entry["player"]), Win(int(entry["win"])))
    if kind in _SIMPLE:
        event: Event = _SIMPLE[kind](int(entry["player"]))
        return event
    raise JournalError(f"unknown journal entry {entry!r}")


def settings_entry(settings: Settings) -> dict[str, Any]:
    rules = asdict(settings.rules)
    rules["accept_illegal"] = settings.rules.accept_illegal.value
    return {
        "type": "match",
        "players": list(settings.players),
        "rules": rules,
        "mode": settings.mode.value,
        "dark_right_half": settings.dark_right_half,
    }


def entry_settings(entry: dict[str, Any]) -> Settings:
    if entry.get("type") != "match":
        raise JournalError("a journal starts with the match entry")
    rules = dict(entry["rules"])
    rules["accept_illegal"] = AcceptIllegal(rules.get("accept_illegal", "roll_or_double"))
    return Settings(
        rules=Rules(**rules),
        players=(entry["players"][0], entry["players"][1]),
        mode=Mode(entry.get("mode", "referee")),
        dark_right_half=entry.get("dark_right_half", "home"),
    )


# --- the file ------------------------------------------------------------------------------


def _line(seq: int, entry: dict[str, Any]) -> str:
    body = json.dumps(entry, sort_keys=True, separators=(",", ":"))
    crc = zlib.crc32(body.encode("utf-8"))
    return json.dumps({"seq": seq, "crc": crc, "entry": entry}, sort_keys=True, separators=(",", ":")) + "\n"


def _check(seq: int, raw: str) -> dict[str, Any] | None:
    """The entry of an intact line numbered ``seq``, else None."""
    try:
        record = json.loads(raw)
        entry: dict[str, Any] = record["entry"]
        body = json.dumps(entry, sort_keys=True, separators=(",", ":"))
        if record["seq"] != seq or record["crc"] != zlib.crc32(body.encode("utf-8")):
            return None
        return entry
    except (ValueError, KeyError, TypeError):
        return None


@dataclass(frozen=True, slots=True)
class Recovered:
    """What a journal held: the match settings, the events, and any tail set aside."""

    settings: Settings
    events: tuple[Event, ...]
    dropped_lines: int = 0
    set_aside: Path | None = None
    inferred: tuple[int, ...] = ()  # indexes in ``events`` of the rolls taken from the play
    lines: int = 0  # intact lines read (the match entry, events and corrections)


class Journal:
    """An open journal file; every append is flushed and fsync'd before it returns."""

    def __init__(self, path: Path, handle: Any, seq: int) -> None:
        self.path = path
        self._handle = handle
        self._seq = seq

    @classmethod
    def create(cls, path: Path, settings: Settings) -> Journal:
        """A new journal (refuses to overwrite one)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "x", encoding="utf-8")
        journal = cls(path, handle, 0)
        journal._write(settings_entry(settings))
        _fsync_dir(path.parent)
        return journal

    @classmethod
    def reopen(cls, path: Path) -> tuple[Journal, Recovered]:
        """Open an existing journal for appending, after recovering what it holds."""
        recovered = recover(path)
        handle = open(path, "a", encoding="utf-8")
        return cls(path, handle, recovered.lines), recovered

    def retract(self, count: int, why: str) -> None:
        """Withdraw the last ``count`` events (kept in the file, undone on recovery)."""
        self._write({"type": "retract", "count": count, "why": why})

    def seating(self, dark_right_half: str) -> None:
        """The half on dark's right from now on."""
        self._write({"type": "seating", "dark_right_half": dark_right_half})

    def append(self, event: Event, inferred: bool = False) -> None:
        """Journal an event; ``inferred`` marks a roll taken from the play, not seen."""
        entry = event_entry(event)
        if inferred:
            entry["inferred"] = True
        self._write(entry)

    def _write(self, entry: dict[str, Any]) -> None:
        self._handle.write(_line(self._seq, entry))
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self._seq += 1

    def close(self) -> None:
        self._handle.close()


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _lines(path: Path) -> Iterator[str]:
    with open(path, encoding="utf-8", errors="replace", newline="") as handle:
        yield from handle


def recover(path: Path) -> Recovered:
    """Read a journal; a torn or corrupt tail is moved aside and counted."""
    good: list[dict[str, Any]] = []
    good_bytes = 0
    lines = list(_lines(path))
    for seq, raw in enumerate(lines):
        entry = _check(seq, raw) if raw.endswith("\n") else None
        if entry is None:
            break
        good.append(entry)
        good_bytes += len(raw.encode("utf-8"))
    if not good:
        raise JournalError(f"{path} is not a bgref match journal (its first line is damaged or missing)")
    dropped = len(lines) - len(good)
    aside = None
    if dropped:
        aside = _set_aside(path, good_bytes)
    settings = entry_settings(good[0])
    kept: list[dict[str, Any]] = []
    for entry in good[1:]:
        if entry.get("type") == "retract":
            del kept[len(kept) - int(entry["count"]):]
        elif entry.get("type") == "seating":
            settings = replace(settings, dark_right_half=str(entry["dark_right_half"]))
        else:
            kept.append(entry)
    events = tuple(entry_event(e) for e in kept)
    inferred = tuple(i for i, e in enumerate(kept) if e.get("inferred"))
    return Recovered(settings, events, dropped, aside, inferred, len(good))


def _set_aside(path: Path, keep: int) -> Path:
    data = path.read_bytes()
    n = 1
    while (aside := path.with_name(f"{path.name}.corrupt-{n}")).exists():
        n += 1
    aside.write_bytes(data[keep:])
    with open(path, "r+b") as handle:
        handle.truncate(keep)
        handle.flush()
        os.fsync(handle.fileno())
    return aside
