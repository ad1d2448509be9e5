"""`bgref plays` and `bgref judge`: the JSON contracts."""

import json
import subprocess
import sys

import pytest

from engine import Position, legal_plays

START = "4HPwATDgc/ABMA"


def bgref(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "referee.cli", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_plays_contract():
    out = bgref("plays", "--position-id", START, "--dice", "3-1")
    assert out.returncode == 0, out.stderr
    answer = json.loads(out.stdout)
    assert len(answer["plays"]) == 16
    by_play = {p["play"]: p["after_id"] for p in answer["plays"]}
    # after_id is with the opponent on roll
    after = Position.from_id(by_play["8/5 6/5"]).swap()
    assert after.on_roll[4] == 2 and after.on_roll[7] == 2


def test_judge_contract_legal_and_illegal():
    played = {str(p): p for p in legal_plays(Position.start(), (6, 1))}["13/7 8/7"]
    out = bgref("judge", "--position-id", START, "--dice", "6-1", "--after-id", played.after.swap().id())
    answer = json.loads(out.stdout)
    assert answer["legal"] is True and answer["play"] == "13/7 8/7" and answer["reasons"] == []
    out = bgref("judge", "--position-id", START, "--dice", "6-1", "--after-id", START)
    answer = json.loads(out.stdout)
    assert answer["legal"] is False and answer["play"] is None
    assert answer["reasons"] and isinstance(answer["reasons"][0], str)
    assert isinstance(answer["points"], list) and answer["closest"]
    assert {"play", "after_id"} <= set(answer["closest"][0])


def test_no_play_possible():
    closed = Position.from_counts({25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    out = bgref("plays", "--position-id", closed.id(), "--dice", "6-5")
    assert json.loads(out.stdout) == {"plays": []}
    out = bgref("judge", "--position-id", closed.id(), "--dice", "6-5", "--after-id", closed.swap().id())
    assert json.loads(out.stdout)["legal"] is True


def test_jsonl_many_requests_in_one_process():
    lines = [json.dumps({"position_id": START, "dice": [6, 1]}), "not json", json.dumps({"position_id": START, "dice": [9, 1]})]
    out = bgref("plays", "--jsonl", stdin="\n".join(lines) + "\n")
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(answers) == 3 and len(answers[0]["plays"]) > 0
    assert "not JSON" in answers[1]["error"] and "dice" in answers[2]["error"]
    assert out.returncode == 1
    req = json.dumps({"position_id": START, "dice": [6, 1], "after_id": START})
    out = bgref("judge", "--jsonl", stdin=req + "\n")
    assert json.loads(out.stdout)["legal"] is False and out.returncode == 0


@pytest.mark.parametrize(
    "args, message",
    [
        (["plays", "--position-id", "nope", "--dice", "3-1"], "14 characters"),
        (["plays", "--position-id", START, "--dice", "7-1"], "two numbers 1-6"),
        (["plays", "--dice", "3-1"], "position_id is missing"),
        (["judge", "--position-id", START, "--dice", "3-1"], "after_id is missing"),
    ],
)
def test_bad_input_gets_a_clear_message_not_a_traceback(args, message):
    out = bgref(*args)
    assert out.returncode == 2
    assert message in out.stderr and "Traceback" not in out.stderr
