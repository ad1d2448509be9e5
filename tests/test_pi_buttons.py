"""The buttons on the mount: take back the last play before the next roll, a real new game,
and the mode change behind the page's PIN."""

from __future__ import annotations

import contextlib
import json
import random

import pytest

from engine.game import Move, OpeningRoll, Roll, Rules
from referee.core import Mode, Seen, Settings, Stage
from referee.recording import Script, record_game
from referee.service import RefereeService
from referee.watch import Buttons, PinUnlocks
from vision.reading import Reading

SETTINGS = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"))


def items() -> list[dict]:
    return list(record_game(random.Random(7), Script()))


def feed(service: RefereeService, batch: list[dict]) -> None:
    for item in batch:
        service.handle(Seen.from_reading(Reading.from_json(item["reading"])))


def journal_lines(service: RefereeService) -> list[dict]:
    return [json.loads(line)["entry"] for line in service.journal.path.read_text().splitlines()]


def until_events(service: RefereeService, batch: list[dict], test) -> int:
    for i, item in enumerate(batch):
        service.handle(Seen.from_reading(Reading.from_json(item["reading"])))
        if test(service.events):
            return i + 1
    raise AssertionError("never reached")


def test_take_back_undoes_the_last_play_and_the_game_goes_on_alike(tmp_path) -> None:
    game = items()
    whole = RefereeService(SETTINGS, tmp_path / "whole", None)
    feed(whole, game)
    service = RefereeService(SETTINGS, tmp_path / "taken", None)
    # up to the second play of the game (a roll, then its play, with no roll after it)
    n = until_events(service, game, lambda ev: sum(isinstance(e, Move) for e in ev) == 2)
    played = service.events[-1]
    assert isinstance(played, Move) and isinstance(service.events[-2], Roll)
    count = len(service.events)
    outcome = service.take_back()
    assert "plays the" in outcome.notes[0].text and "again" in outcome.notes[0].text
    assert len(service.events) == count - 1 and isinstance(service.events[-1], Roll)
    # append-only: the play stays in the journal, withdrawn by a retract line after it
    lines = journal_lines(service)
    assert len(lines) == 1 + count + 1 and lines[-2]["type"] == "move"
    assert lines[-1] == {"type": "retract", "count": 1, "why": "take-back"}
    assert service.ref.stage is Stage.PLAYING and service.ref.game.turn == played.player
    # the same play seen again is judged again, and the game ends as it would have
    feed(service, game[n - 1:])
    assert service.events == whole.events
    assert service.record() == whole.record()
    # the journal resumes to the same game after a restart
    service.close()
    again = RefereeService(SETTINGS, tmp_path / "taken", None)
    assert again.events == whole.events


def test_take_back_is_refused_after_the_next_roll(tmp_path) -> None:
    game = items()
    service = RefereeService(SETTINGS, tmp_path, None)
    until_events(service, game, lambda ev: len(ev) >= 2 and isinstance(ev[-1], Roll) and any(isinstance(e, Move) for e in ev))
    before = list(service.events)
    outcome = service.take_back()
    assert outcome.notes[0].level == "warning" and "before the next roll" in outcome.notes[0].text
    assert service.events == before


def test_new_game_drops_the_game_in_play_and_waits_for_the_start(tmp_path) -> None:
    game = items()
    whole = RefereeService(SETTINGS, tmp_path / "whole", None)
    feed(whole, game)
    service = RefereeService(SETTINGS, tmp_path / "dropped", None)
    until_events(service, game, lambda ev: len(ev) >= 6)
    assert isinstance(service.events[0], OpeningRoll)
    service.abandon_game()
    assert service.events == [] and service.ref.stage is Stage.SETUP
    last = journal_lines(service)[-1]
    assert last["type"] == "retract" and last["count"] >= 6 and last["why"] == "abandoned"
    feed(service, game)  # the players set up and play the game from the start
    assert service.record() == whole.record()


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Guard:
    def check(self, given, client):
        if given != "123456":
            raise PermissionError("wrong PIN")


def test_buttons_new_game_needs_two_presses_and_mode_needs_the_pin(tmp_path) -> None:
    game = items()
    service = RefereeService(SETTINGS, tmp_path, None)
    until_events(service, game, lambda ev: len(ev) >= 4)
    clock = Clock()
    unlocks = PinUnlocks(Guard(), clock)
    buttons = Buttons(service.handle, lambda: service, contextlib.nullcontext(), unlocks, clock)
    first = buttons.press("new-game")
    assert "again within 5 s" in first.notes[0].text and len(service.events) >= 4
    clock.now += 6  # too late: this press asks again
    buttons.press("new-game")
    assert len(service.events) >= 4
    clock.now += 1
    buttons.press("new-game")
    assert service.events == []
    # mode: refused without the PIN, works for two minutes after it was given on the page
    refused = buttons.press("mode")
    assert "needs the PIN" in refused.notes[0].text and service.settings.mode is Mode.REFEREE
    with pytest.raises(PermissionError):
        unlocks.check("000000", "10.0.0.2")
    assert not unlocks.unlocked()
    unlocks.check("123456", "10.0.0.2")
    buttons.press("mode")
    assert service.settings.mode is not Mode.REFEREE
    clock.now += 121
    assert not unlocks.unlocked()


def test_the_page_move_list_follows_a_take_back_and_a_new_game(tmp_path) -> None:
    from referee.web.live import MoveList

    game = items()
    service = RefereeService(SETTINGS, tmp_path, None)
    moves = MoveList(service)
    until_events(service, game, lambda ev: sum(isinstance(e, Move) for e in ev) == 2)
    before = len(moves.games()[-1]["actions"])
    service.take_back()
    assert len(moves.games()[-1]["actions"]) == before - 1  # the play is gone from the page too
    service.abandon_game()
    assert moves.games() == []
