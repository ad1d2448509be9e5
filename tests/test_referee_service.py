"""The service end to end on the bundled recording: verdicts, LEDs, journal, match files,
and resuming after the process is killed mid-game."""

import json
import random
import subprocess
import sys

import pytest

from engine.game import Rules
from engine.mat import read_mat
from firmware_bridge import Signals, SimulatedBoard
from referee.core import Seen, Settings, Stage
from referee.demo import load_recording
from referee.recording import Script, record_game
from referee.service import RefereeService

from test_referee_calls import typed

SETTINGS = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"))


def run_items(service, items):
    outcomes = []
    for item in items:
        outcomes.append(service.handle(Seen.from_reading(typed(item["reading"]))))
    return outcomes


@pytest.mark.parametrize("seed", [7, 8, 9])
def test_recorded_game_is_refereed_without_false_alarm(tmp_path, seed):
    script = Script()
    items = list(record_game(random.Random(seed), script))
    board = SimulatedBoard()
    service = RefereeService(SETTINGS, tmp_path, Signals(board, clock=lambda: 0.0))
    outcomes = run_items(service, items)
    illegal = [n.text for o in outcomes for n in o.notes if n.level == "illegal"]
    injected_illegal = [e for e in script.events if "wrong die" in e or "one die" in e or "on the bar" in e]
    assert len(illegal) == len(injected_illegal), (illegal, script.events)
    rerolls = [n.text for o in outcomes for n in o.notes if "roll again" in n.text]
    assert len(rerolls) == sum("cocked" in e or "equal" in e or "out of turn" in e for e in script.events)
    assert service.ref.stage is Stage.OVER and service.ref.match.games_played == 1
    record = read_mat((tmp_path / "match.mat").read_text())
    assert record.final_score() == service.ref.match.score
    moves = record.games[0].moves()
    assert len(moves) > 20
    accepted = [m for m in service.record().games[0].moves() if "accepted as made" in m.comment]
    assert len(accepted) == sum("accepted" in e for e in script.events)
    assert board.states, "the LEDs were driven"


def test_killed_mid_game_resumes_with_nothing_lost(tmp_path):
    items = list(record_game(random.Random(7), Script()))
    full = RefereeService(SETTINGS, tmp_path / "full", None)
    run_items(full, items)
    cut = len(items) // 2
    first = RefereeService(SETTINGS, tmp_path / "cut", None)
    run_items(first, items[:cut])
    journal = tmp_path / "cut" / "match.journal"
    # the process dies; half a line is left at the end of the journal
    with open(journal, "a") as handle:
        handle.write('{"seq": 99, "crc": 1, "entry": {"type": "ro')
    second = RefereeService(SETTINGS, tmp_path / "cut", None)
    assert "set aside" in second.resumed_message()
    assert second.ref.match == first.ref.match
    run_items(second, items[cut:])
    assert second.ref.match == full.ref.match
    assert (tmp_path / "cut" / "match.mat").read_text() == (tmp_path / "full" / "match.mat").read_text()


def test_bundled_recording_loads():
    header, items = load_recording(None)
    assert header["injected"] and len(items) > 100 and "reading" in items[0]


def test_demo_command_prints_the_recorded_match(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "referee.cli", "demo", "--out", str(tmp_path / "m")],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "point match" in out.stdout and "Wins" in out.stdout
    assert "illegal play by" in out.stdout and "accepted as made" in out.stdout
    assert (tmp_path / "m" / "match.mat").exists() and (tmp_path / "m" / "match.journal").exists()
    again = subprocess.run([sys.executable, "-m", "referee.cli", "demo", "--out", str(tmp_path / "m")], capture_output=True, text=True, timeout=60)
    assert again.returncode == 2 and "already holds a match" in again.stderr


@pytest.mark.slow  # renders footage; test_referee_e2e covers footage too
def test_demo_on_camera_footage_records_the_game_the_readings_record(tmp_path):
    """`bgref demo --video` calibrates on the first frame and referees frame by frame."""
    frames = tmp_path / "frames"
    made = subprocess.run(
        [sys.executable, "-m", "referee.footage", str(frames), "--turns", "2", "--camera-seed", "5"],
        capture_output=True, text=True, timeout=300,
    )
    assert made.returncode == 0, made.stderr
    out = subprocess.run(
        [sys.executable, "-m", "referee.cli", "demo", "--video", str(frames), "--out", str(tmp_path / "seen")],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr
    assert "processed" in out.stdout and "frames" in out.stdout
    from referee.footage import game_items, scripted_setup
    from referee.seating import Seating

    layout = scripted_setup(5, (1280, 720)).layout
    settings = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"), dark_right_half=Seating.from_layout(layout).dark_right)
    truth = RefereeService(settings, tmp_path / "truth", None)
    run_items(truth, game_items(7, layout, Script(), turns=2))
    assert len(truth.events) >= 4
    assert read_mat((tmp_path / "seen" / "match.mat").read_text()) == truth.record()


def test_a_recording_with_a_reading_that_breaks_the_contract_is_refused_naming_line_and_field(tmp_path):
    header, items = load_recording(None)
    bad = dict(items[0]["reading"].to_json(), dice=[{"value": 7, "flat": True, "half": "home"}])
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in (header, {"t": 0.0, "reading": bad})) + "\n")
    with pytest.raises(SystemExit, match=r"line 2: not a board reading: dice\[0\].value"):
        load_recording(path)
