"""Issue 43, item 3: records are always written.  A play accepted as made at the
board, even one the rules cannot read forward (a checker moved back to the bar,
``23/bar``) or one the replay cannot follow, is written to ``.mat`` and SGF as
made, reads back as the same play, and ``check-match`` reports it as illegal.

The referee's events are built by hand here: positions as counts of checkers
per point, written out in the test (not derived by the code under test).
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.from_events import record_from_events
from engine.game import Double, Drop, Move, OpeningRoll, Roll, Rules
from engine.mat import read_mat, write_mat
from engine.position import Position
from engine.record import RecordedMove, RecordedResult
from engine.sgf import read_sgf, write_sgf
from referee.cli import main
from referee.service import RefereeService

START = {24: 2, 13: 5, 8: 3, 6: 5}


def side(counts: dict[int, int]) -> tuple[int, ...]:
    """A side's 25 slots (points 1-24, then the bar) from ``{point: checkers}``."""
    return tuple(counts.get(point, 0) for point in range(1, 26))


def position(mover: dict[int, int], opponent: dict[int, int]) -> Position:
    return Position(side(mover), side(opponent))


def moved(counts: dict[int, int], *hops: tuple[int, int]) -> dict[int, int]:
    out = dict(counts)
    for src, dst in hops:
        out[src] -= 1
        out[dst] = out.get(dst, 0) + 1
    return {p: n for p, n in out.items() if n}


# Dark (player 0) opens 31 with 24/23 13/10; light answers 43 with 13/9 13/10;
# dark's 43 is then seen as a checker going back from 23 to the bar and 13/9
# (accepted as made); light plays 65 24/18 18/13; dark doubles, light drops.
DARK_1 = moved(START, (24, 23), (13, 10))
LIGHT_1 = moved(START, (13, 9), (13, 10))
DARK_2 = moved(DARK_1, (23, 25), (13, 9))
LIGHT_2 = moved(LIGHT_1, (24, 18), (18, 13))

BACKWARDS = [
    OpeningRoll((3, 1)),
    Move(0, position(DARK_1, START)),
    Roll(1, (4, 3)),
    Move(1, position(LIGHT_1, DARK_1)),
    Roll(0, (4, 3)),
    Move(0, position(DARK_2, LIGHT_1), accept_illegal=True),
    Roll(1, (6, 5)),
    Move(1, position(LIGHT_2, DARK_2)),
    Double(0),
    Drop(1),
]


def plays(match) -> list[tuple[int, tuple[int, int], str]]:
    return [(m.player, m.dice, m.play) for g in match.games for m in g.moves()]


def check(tmp_path: Path, name: str, text: str, capsys) -> tuple[int, dict]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code = main(["check-match", "--json", str(path)])
    out, _ = capsys.readouterr()
    return code, json.loads(out)


def test_a_checker_moved_back_to_the_bar_is_written_and_read_back_as_made(tmp_path, capsys):
    record = record_from_events(("Dark", "Light"), Rules(match_length=5), BACKWARDS)
    made = plays(record)
    assert made[2] == (0, (4, 3), "23/bar 13/9")
    assert record.games[0].result == RecordedResult(0, 1, False)
    mat, sgf = write_mat(record), write_sgf(record)
    assert "43: 23/bar 13/9" in mat
    assert plays(read_mat(mat)) == made
    assert read_sgf(sgf) == record  # comments (the reasons) included
    for name, text in (("m.mat", mat), ("m.sgf", sgf)):
        code, report = check(tmp_path, name, text, capsys)
        assert code == 1
        assert [(i["game"], i["move"], i["player"], i["play"]) for i in report["illegal"]] == [(1, 3, "Dark", "23/bar 13/9")]
        assert report["games"][0]["winner"] == "Dark"


# Light's 43 is misread as also taking dark's back checker from 24 to 20; the
# record keeps only light's own checkers' movement, so dark's next play from 20
# (a legal 21 on the board: 23/22 20/18) moves a checker the record has not there.
LIGHT_SEEN = position(LIGHT_1, moved(DARK_1, (24, 20)))
DARK_ON_20 = moved(DARK_1, (24, 20))
UNFOLLOWABLE = [
    OpeningRoll((3, 1)),
    Move(0, position(DARK_1, START)),
    Roll(1, (4, 3)),
    Move(1, LIGHT_SEEN, accept_illegal=True),
    Roll(0, (2, 1)),
    Move(0, position(moved(DARK_ON_20, (23, 22), (20, 18)), LIGHT_1)),
]


def test_a_play_the_record_cannot_follow_is_still_written_and_read_back(tmp_path, capsys):
    record = record_from_events(("Dark", "Light"), Rules(match_length=5), UNFOLLOWABLE)
    made = plays(record)
    assert made[1] == (1, (4, 3), "13/10 13/9") and made[2] == (0, (2, 1), "23/22 20/18")
    assert record.games[0].result is None  # the game is still in play
    mat, sgf = write_mat(record), write_sgf(record)
    back = read_mat(mat)
    assert plays(back) == made
    assert read_sgf(sgf) == record
    code, report = check(tmp_path, "u.mat", mat, capsys)
    assert code == 1 and report["finished"] is False
    # (.mat keeps only the checkers a player moved: light's own 13/10 13/9 reads legal)
    assert [(i["move"], i["play"]) for i in report["illegal"]] == [(3, "23/22 20/18")]
    assert any("the board cannot follow '23/22 20/18'" in w for w in report["warnings"])


def test_the_referee_service_writes_both_records_of_such_a_match(tmp_path):
    service = RefereeService.__new__(RefereeService)  # only the writer is exercised here
    service.folder = tmp_path
    service.record = lambda: record_from_events(("Dark", "Light"), Rules(match_length=5), BACKWARDS)
    service.ref = type("Ref", (), {"match": type("M", (), {"games_played": 1})()})()
    written = RefereeService.write_records(service)
    assert sorted(p.name for p in written) == ["match.mat", "match.sgf"]
    assert "23/bar 13/9" in (tmp_path / "match.mat").read_text(encoding="utf-8")


def test_recorded_moves_keep_their_reasons_in_the_comment():
    record = record_from_events(("Dark", "Light"), Rules(match_length=5), BACKWARDS)
    illegal = record.games[0].moves()[2]
    assert isinstance(illegal, RecordedMove) and illegal.comment.startswith("illegal play accepted as made: ")


def test_a_format_that_cannot_say_the_match_is_skipped_and_the_other_written(tmp_path, caplog):
    # Money play with automatic doubles: equal opening dice turn the cube to 2,
    # which a .mat file cannot say; the SGF is still written.
    rules = Rules(automatic_doubles=1)
    events = [OpeningRoll((6, 6)), OpeningRoll((3, 1)), Move(0, position(moved(START, (8, 5), (6, 5)), START))]
    service = RefereeService.__new__(RefereeService)
    service.folder = tmp_path
    service.record = lambda: record_from_events(("Dark", "Light"), rules, events)
    service.ref = type("Ref", (), {"match": type("M", (), {"games_played": 0})()})()
    written = RefereeService.write_records(service)
    assert [p.name for p in written] == ["match.sgf"]
    assert "match.mat not written: game 1: the cube starts at 2" in caplog.text


def test_a_backward_play_from_an_empty_point_says_so():
    # Dark has no checker on its 20 point at the start: "20/bar" cannot be followed.
    from engine.mat import read_mat_replay

    text = " 3 point match\n\n Game 1\n Dark : 0                       Light : 0\n  1) 31: 20/bar 6/5\n"
    done = read_mat_replay(text, "b.mat")
    (_, step), = list(done.illegal())
    assert step.reasons == ("'20/bar 6/5' moves a checker from a point where the player has none",)
    assert step.after.position == step.before.position.swap()
