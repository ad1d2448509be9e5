"""Issue 44: each way real exports differ from the rules' own bookkeeping, one
minimal file each, read as its author meant (lenient on dialect) while a play
that breaks the rules is still reported (strict on rules).

Expected values are written by hand from the rules and the file: who wins, how
many points the file states, what the rules would give, the exit status.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.mat import MatError, read_mat, read_mat_replay, write_mat
from engine.record import RecordedDouble, RecordedResign, RecordedResult, RecordedTake
from engine.sgf import read_sgf, write_sgf
from referee.cli import main

RECORDS = Path(__file__).parent / "data" / "records"


def check(capsys, tmp_path: Path, text: str, name: str = "m.mat") -> tuple[int, dict, str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code = main(["check-match", "--json", str(path)])
    out, err = capsys.readouterr()
    (report,) = [json.loads(line) for line in out.splitlines()]
    return code, report, err


def same_back(text: str) -> None:
    """The writer's .mat and SGF of what was read read back the same."""
    match = read_mat(text)
    assert read_mat(write_mat(match)) == match
    assert read_sgf(write_sgf(match)) == match


# --- match forfeits: the points the winner still needed, whatever the cube ------------------

GALAXY_FORFEIT = """\
; [Site "BackgammonGalaxy"]
; [Crawford "On"]

 5 point match

 Game 1
 alice : 0                       bob : 0
  1) 31: 8/5 6/5                 52: 13/8 13/11
  2) 42: 8/4 6/4
                                  Wins 5 point and the match
"""


def test_galaxy_forfeit_with_the_cube_on_1_is_read_as_stated_with_a_warning(capsys, tmp_path):
    # Alice forfeits after her 42: bob needed 5, the cube is on 1; no resignation gives 5.
    done = read_mat_replay(GALAXY_FORFEIT, "f.mat")
    game = done.match.games[0]
    assert game.result == RecordedResult(1, 5, True)
    assert game.actions[-1] == RecordedResign(0, 5)
    assert done.match.final_score() == (0, 5) and done.match.winner() == 1
    assert len(done.warnings) == 1 and "f.mat: line 10, game 1, move 3: " in done.warnings[0]
    assert "5 point(s)" in done.warnings[0] and "forfeit" in done.warnings[0]
    code, report, err = check(capsys, tmp_path, GALAXY_FORFEIT)
    assert code == 0 and report["illegal"] == [] and report["finished"] is True
    assert (report["games"][0]["winner"], report["games"][0]["points"], report["games"][0]["resigned"]) == ("bob", 5, True)
    assert "warning:" in err and "forfeit" in err
    same_back(GALAXY_FORFEIT)


STUDIO_FORFEIT = """\
; [Site "Backgammon Studio"]
; [Crawford "On"]

 13 point match

 Game 1
 Ann : 0                        Bob : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Takes                      52: 13/8 13/11
  3)  Doubles => 4               Takes
  4) 42: 8/4 6/4
      Wins 4016 point and the match
"""


def test_studio_forfeit_of_4016_points_with_the_cube_on_4_is_read_as_stated(capsys, tmp_path):
    # Bob doubled to 2, Ann redoubled to 4; after Ann's 42 Bob forfeits: 4016 points stated.
    done = read_mat_replay(STUDIO_FORFEIT, "s.mat")
    game = done.match.games[0]
    assert game.actions[1:3] + game.actions[4:5] == (RecordedDouble(1, 2), RecordedTake(0), RecordedDouble(0, 4))
    assert sorted(game.actions[3].play.split()) == ["13/11", "13/8"] and game.actions[3].dice == (5, 2)
    assert game.result == RecordedResult(0, 4016, True)
    assert done.match.final_score() == (4016, 0) and done.match.winner() == 0
    assert len(done.warnings) == 1 and "4016" in done.warnings[0] and "cube of 4" in done.warnings[0]
    code, report, _ = check(capsys, tmp_path, STUDIO_FORFEIT)
    assert code == 0 and report["games"][0]["points"] == 4016
    same_back(STUDIO_FORFEIT)


def test_a_resignation_of_one_two_or_three_times_the_cube_gives_no_warning():
    text = STUDIO_FORFEIT.replace("Wins 4016 point and the match", "Wins 8 point")
    done = read_mat_replay(text)
    assert done.match.games[0].result == RecordedResult(0, 8, True) and done.warnings == ()


# --- a resignation before the opening roll -----------------------------------------------------

RESIGNED_BEFORE_OPENING = """\
 3 point match

 Game 1
 Ann : 0                        Bob : 0
                                  Wins 1 point

 Game 2
 Ann : 0                        Bob : 1
  1) 31: 8/5 6/5                 52: 13/8 13/11
  2)  Doubles => 2               Drops
      Wins 1 point
"""


def test_a_resignation_before_the_opening_roll(capsys, tmp_path):
    done = read_mat_replay(RESIGNED_BEFORE_OPENING, "r.mat")
    first, second = done.match.games
    assert first.actions == (RecordedResign(0, 1),) and first.result == RecordedResult(1, 1, True)
    assert second.score == (0, 1) and second.result == RecordedResult(0, 1, False)
    assert done.match.final_score() == (1, 1)
    assert len(done.warnings) == 1 and "r.mat: line 5, game 1" in done.warnings[0]
    assert "before the opening roll" in done.warnings[0]
    code, report, _ = check(capsys, tmp_path, RESIGNED_BEFORE_OPENING)
    assert code == 0 and report["games"][0]["plays"] == [] and report["games"][0]["winner"] == "Bob"
    same_back(RESIGNED_BEFORE_OPENING)


# --- Galaxy's one-game "16 point match": an undoubled gammon scored 1 (Jacoby) ----------------


def jacoby_file() -> str:
    # A real Galaxy game (match 1199847, game 1): lasse bears off all fifteen while
    # bachi has borne off none, no double; Galaxy scored it "Wins 2 point" in a
    # 3-point match.  Its one-game 16-point matches score such a gammon 1.
    text = (RECORDS / "galaxy-gammon.mat").read_text(encoding="utf-8")
    assert text.count("Wins 2 point") == 1 and "Doubles" not in text
    return text.replace("3 point match", "16 point match").replace("Wins 2 point", "Wins 1 point")


def test_the_gammon_is_what_the_rules_give_in_the_real_file():
    done = read_mat_replay((RECORDS / "galaxy-gammon.mat").read_text(encoding="utf-8"))
    assert done.match.games[0].result == RecordedResult(0, 2, False) and done.warnings == ()


def test_an_undoubled_gammon_scored_1_is_read_as_stated_with_a_warning(capsys, tmp_path):
    done = read_mat_replay(jacoby_file(), "j.mat")
    assert done.match.games[0].result == RecordedResult(0, 1, False)
    assert done.match.final_score() == (1, 0)
    (warning,) = done.warnings
    assert warning.startswith("j.mat: line 32, game 1, move 45: ") and "the rules give 2" in warning
    code, report, _ = check(capsys, tmp_path, jacoby_file())
    assert code == 0 and (report["games"][0]["winner"], report["games"][0]["points"]) == ("lasse", 1)
    same_back(jacoby_file())


# --- a result joined onto a move line after a repeated move number ----------------------------

JOINED = """\
 2 point match

 Game 1
 Ann : 0                        Bob : 0
  1) 31: 8/5 6/5                 52: 13/8 13/11
  2) 43: 24/21 24/20       2)  Losses 2 point                Wins 2 point and the match
"""


def test_a_result_joined_onto_a_move_line(capsys, tmp_path):
    # Ann plays 43, then resigns a gammon: Bob wins 2 and the match.
    match = read_mat(JOINED)
    game = match.games[0]
    move, resign = game.actions[-2:]
    assert (move.player, move.dice, sorted(move.play.split())) == (0, (4, 3), ["24/20", "24/21"])
    assert resign == RecordedResign(0, 2)
    assert game.result == RecordedResult(1, 2, True) and match.winner() == 1
    code, _, err = check(capsys, tmp_path, JOINED)
    assert code == 0 and err == ""
    same_back(JOINED)


# --- empty player names --------------------------------------------------------------------------

EMPTY_LEFT = """\
; [Player 1 ""]
; [Player 2 ""]

 1 point match

 Game 1
  : 0                           Bob : 0
  1) 31: 8/5 6/5
                                  Wins 1 point and the match
"""


@pytest.mark.parametrize(
    "text, players",
    [
        (EMPTY_LEFT, ("", "Bob")),
        (EMPTY_LEFT.replace("  : 0                           Bob : 0", " Ann : 0                          : 0"), ("Ann", "")),
        (EMPTY_LEFT.replace("  : 0                           Bob : 0", " : 0                             : 0"), ("", "")),
    ],
)
def test_empty_player_names_left_or_right(capsys, tmp_path, text, players):
    # Ann plays her opening 31 and resigns: Bob wins the 1-point match.
    match = read_mat(text)
    assert match.players == players
    assert match.games[0].result == RecordedResult(1, 1, True)
    code, report, _ = check(capsys, tmp_path, text)
    assert code == 0 and report["games"][0]["plays"][0]["player"] == players[0]
    assert report["games"][0]["winner"] == players[1]
    same_back(text)


def test_a_blank_name_column_takes_the_header_tags_name():
    text = EMPTY_LEFT.replace('; [Player 1 ""]', '; [Player 1 "Ann"]')
    assert read_mat(text).players == ("Ann", "Bob")


# --- a file cut short at a line boundary ---------------------------------------------------------

WHOLE = RESIGNED_BEFORE_OPENING


@pytest.mark.parametrize("keep", [7, 8, 9])
def test_a_file_cut_short_warns_that_its_last_game_has_no_result(capsys, tmp_path, keep):
    # Cut after game 2's header (line 7), its score line (8), its first move line (9).
    text = "".join(WHOLE.splitlines(keepends=True)[:keep])
    match = read_mat(text)
    assert len(match.games) == 2 and match.games[1].result is None and match.final_score() == (0, 1)
    code, report, err = check(capsys, tmp_path, text)
    assert code == 3 and report["finished"] is False and report["illegal"] == []
    assert "game 2 has no result" in err and "cut short" in err


def test_a_whole_file_exits_0_and_a_cut_one_3_and_an_illegal_one_1(capsys, tmp_path):
    assert check(capsys, tmp_path, WHOLE)[0] == 0
    cut = "".join(WHOLE.splitlines(keepends=True)[:9])
    assert check(capsys, tmp_path, cut, "cut.mat")[0] == 3
    illegal = cut.replace("52: 13/8 13/11", "52: 13/8 13/10")  # 13/10 moves 3 with a 5 and a 2
    code, report, err = check(capsys, tmp_path, illegal, "illegal.mat")
    assert code == 1 and report["illegal"][0]["move"] == 2 and report["illegal"][0]["player"] == "Bob"
    assert "game 2, move 2: illegal play '13/8 13/10' on line 9" in err


# --- strict on rules: illegal plays reported, damage names the line ------------------------------


def test_an_illegal_play_in_a_lenient_file_is_still_reported(capsys, tmp_path):
    text = GALAXY_FORFEIT.replace("42: 8/4 6/4", "42: 8/4 6/3")  # 6/3 is a 3, not a 2
    code, report, err = check(capsys, tmp_path, text)
    assert code == 1
    assert [(i["game"], i["move"], i["player"], i["play"]) for i in report["illegal"]] == [(1, 3, "alice", "8/4 6/3")]
    assert "illegal play '8/4 6/3' on line 9" in err


def test_a_damaged_line_is_an_error_naming_the_line(capsys, tmp_path):
    text = GALAXY_FORFEIT.replace("42: 8/4 6/4", "42: 8/4 6/4 blah")
    with pytest.raises(MatError, match=r"^d\.mat: line 9, game 1, move 3: 'blah' in '8/4 6/4 blah' is not a move"):
        read_mat(text, "d.mat")
    code, report, err = check(capsys, tmp_path, text)
    assert code == 1 and "line 9" in report["error"] and "Traceback" not in err
