"""Every call the referee makes, over whole scripted games (referee/recording.py) with injected fouls:
each foul called, of the right kind, on the right player, in the right turn; no call on a clean game;
and the recorded match equal to the game the script played.  Both seatings (dark's right half the home
half or the outer one) are run.

The expected calls come from the script's own record of what it injected (``Script.fouls``) and the
expected plays from what it played (``Script.played``), never from the referee."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.colour import COLOURS
from engine.game import Move, OpeningRoll, Roll, Rules
from referee.calls import format_calls, read_calls, run_show_calls
from referee.core import Seen, Settings
from referee.recording import Script, record_game
from referee.service import RefereeService
from vision.reading import Reading

HALVES = ("home", "outer")


def typed(reading: Any) -> Reading:
    """A script's reading (``referee.recording``: JSON, as a recording file holds it) read back and checked;
    a reading a test built or corrupted as a value stays as it is."""
    return reading if isinstance(reading, Reading) else Reading.from_json(reading)


def referee_run(items: list[dict[str, Any]], folder: Path, dark_right_half: str) -> RefereeService:
    settings = Settings(rules=Rules(match_length=0), players=("Ann", "Bob"), dark_right_half=dark_right_half)
    service = RefereeService(settings, folder, None)
    for item in items:
        service.handle(Seen.from_reading(typed(item["reading"]), item["t"]))
    service.close()
    return service


def recorded_plays(service: RefereeService) -> list[tuple[str, tuple[int, int], Any, bool]]:
    """(player, roll, position after, accepted as made) of each play, from the events the referee journalled."""
    plays, dice = [], None
    for event in service.events:
        if isinstance(event, OpeningRoll):
            dice = (max(event.dice), min(event.dice))
        elif isinstance(event, Roll):
            dice = event.dice
        elif isinstance(event, Move):
            plays.append((COLOURS[event.player], dice, event.after, event.accept_illegal))
    return plays


def played(script: Script) -> list[tuple[str, tuple[int, int], Any, bool]]:
    return [(who, (max(d), min(d)), after, accepted) for who, d, after, accepted in script.played]


def calls_of(folder: Path) -> list[dict[str, Any]]:
    path = folder / "calls.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.mark.parametrize("half", HALVES)
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_clean_game_draws_no_call_and_is_recorded_play_for_play(tmp_path: Path, seed: int, half: str) -> None:
    script = Script.clean(dark_right_half=half)
    items = list(record_game(random.Random(seed), script))
    service = referee_run(items, tmp_path, half)
    assert calls_of(tmp_path) == []
    assert recorded_plays(service) == played(script)
    assert service.ref.match.games_played == 1


FOULS = dict(cocked_die_turn=2, wrong_half_turn=3, moved_before_roll_turn=4, wrong_die_turn=5, out_of_turn_turn=6,
             early_roll_turn=7, one_die_turn=8, wrong_half_both_turn=9, bar_not_entered=True)


@pytest.mark.parametrize("half", HALVES)
@pytest.mark.parametrize("seed", [3, 5, 7])
def test_every_injected_foul_is_called_on_the_right_player_in_the_right_turn(tmp_path: Path, seed: int, half: str) -> None:
    script = Script.clean(dark_right_half=half, **FOULS)
    items = list(record_game(random.Random(seed), script))
    service = referee_run(items, tmp_path, half)
    called = sorted((c["call"], c["player"], c["turn"]) for c in calls_of(tmp_path))
    assert called == sorted(script.fouls), script.events
    assert {kind for kind, _, _ in script.fouls} >= {"cocked", "wrong_half", "moved_before_roll", "illegal_play",
                                                      "out_of_turn", "roll_before_pickup"}
    assert recorded_plays(service) == played(script)


def test_calls_carry_the_time_into_the_footage_and_show_as_a_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = Script.clean(cocked_die_turn=2, out_of_turn_turn=3)
    items = list(record_game(random.Random(11), script))
    referee_run(items, tmp_path, "home")
    calls, problems = read_calls(tmp_path / "calls.jsonl")
    assert problems == []
    assert [c["call"] for c in calls] == ["cocked", "out_of_turn"]
    times = {item["t"] for item in items}
    assert all(c["t"] in times and set(c) >= {"t", "player", "call", "reasons"} and c["reasons"] for c in calls)
    table = format_calls(calls)
    assert "cocked" in table and "out_of_turn" in table and table.strip().endswith("cocked 1, out_of_turn 1")

    class Args:
        folder = tmp_path
        kind = None

    assert run_show_calls(Args()) == 0  # type: ignore[arg-type]
    assert "out_of_turn" in capsys.readouterr().out


def test_show_calls_names_what_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    class Args:
        folder = tmp_path / "nowhere"
        kind = None

    assert run_show_calls(Args()) == 2  # type: ignore[arg-type]
    assert "no calls.jsonl" in capsys.readouterr().err


@pytest.mark.parametrize("hops", [((24, 18), (13, 10)), ((6, 5),)], ids=["a whole 6-3 play", "one checker a pip"])
def test_checkers_moved_before_rolling_then_put_back_are_called(hops: tuple[tuple[int, int], ...]) -> None:
    from test_referee_recovery import light_to_roll

    t = light_to_roll()
    standing = t.board()
    out = t.see(t.after(*hops))  # moved, and no die anywhere
    assert out.events == () and not out.calls
    out = t.see(standing)  # put back before any roll: Bob was moving before rolling
    assert [(c.kind, c.player) for c in out.calls] == [("moved_before_roll", 1)]
    assert out.events == ()


def test_a_checker_seen_moved_back_then_as_it_stood_is_no_call() -> None:
    """Backwards is no move a player makes: a misreading."""
    from test_referee_recovery import light_to_roll

    from engine.board import Board

    t = light_to_roll()
    standing = t.board()
    points = list(standing.points)
    points[18] += 1  # one of Bob's checkers on his 6-point (Ann's 19) ...
    points[17] -= 1  # ... read on his 7-point (Ann's 18), behind it
    t.see(Board(tuple(points), standing.bar))
    out = t.see(standing)
    assert out.calls == () and out.events == ()
