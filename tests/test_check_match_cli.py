"""`bgref check-match`, `bgref convert` and `bgref show`: the command-line contract."""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.ids import MatchId, Xgid
from engine.mat import read_mat
from engine.plays import parse_play
from engine.position import Position
from engine.sgf import read_sgf
from referee.cli import main

RECORDS = Path(__file__).parent / "data" / "records"
GALAXY = str(RECORDS / "galaxy-game1.mat")
STUDIO = str(RECORDS / "studio-games.mat")
ILLEGAL = str(RECORDS / "illegal-play.mat")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def reports(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def test_check_match_json_one_line_per_file_with_the_contract_fields(capsys):
    code, out, err = run(capsys, "check-match", "--json", GALAXY, STUDIO)
    assert code == 0 and err == ""
    galaxy, studio = reports(out)
    assert set(galaxy) >= {"file", "games", "illegal"} and galaxy["file"] == GALAXY
    assert (galaxy["warnings"], galaxy["finished"]) == ([], True)
    game = galaxy["games"][0]
    assert set(game) == {"plays", "winner", "points", "resigned"}
    assert game["plays"][0] == {"player": "mglough", "dice": [5, 1], "play": "24/23 13/8", "position_id": "4HPwATDgc/ABMA"}
    assert game["plays"][-1]["play"] == "" and game["plays"][-1]["dice"] == [4, 4]  # a dance
    assert (game["winner"], game["points"], game["resigned"]) == ("lasse", 1, False)
    assert [(g["winner"], g["points"], g["resigned"]) for g in studio["games"]] == [("Llabba", 2, True), ("Llabba", 1, False)]
    assert galaxy["illegal"] == [] and studio["illegal"] == []


def test_position_ids_are_before_each_play_with_the_mover_on_roll(capsys):
    _, out, _ = run(capsys, "check-match", "--json", STUDIO)
    plays = reports(out)[0]["games"][0]["plays"]
    match = read_mat(Path(STUDIO).read_text(encoding="utf-8"))
    for play, following in itertools.pairwise(plays):
        before = Position.from_id(play["position_id"])
        after = parse_play(play["play"], before, play["dice"]).after if play["play"] else before
        assert after.swap().id() == following["position_id"]
    assert len(plays) == len(match.games[0].moves())


def test_an_illegal_play_gives_exit_1_and_is_listed_with_reasons(capsys):
    code, out, err = run(capsys, "check-match", "--json", ILLEGAL)
    assert code == 1
    (report,) = reports(out)
    assert report["illegal"][0] == {
        "game": 1,
        "move": 6,
        "player": "lasse",
        "play": "8/4 6/5",
        "reasons": ["the checkers moved (8/5 6/4) cannot be made with 4-2"],
    }
    assert report["games"][0]["plays"][5]["play"] == "8/4 6/5"
    assert f"{ILLEGAL}: game 1, move 6: illegal play '8/4 6/5'" in err


def test_an_unreadable_file_gives_exit_1_and_says_where(capsys, tmp_path):
    broken = tmp_path / "broken.mat"
    broken.write_text(Path(GALAXY).read_text(encoding="utf-8").replace("61: 13/7 7/6", "61: 13/7 7/6x"))
    code, out, err = run(capsys, "check-match", "--json", GALAXY, str(broken), str(tmp_path / "missing.mat"))
    assert code == 1
    good, bad, missing = reports(out)
    assert good["illegal"] == [] and good["games"]
    assert bad["error"] == f"{broken}: line 22, game 1, move 8: '6x' in '13/7 7/6x' is not a point (1-24, bar or off)"
    assert "cannot read" in missing["error"]
    assert err.count("bgref check-match: ") == 2 and "Traceback" not in err


def test_check_match_without_json_prints_a_summary(capsys):
    code, out, _ = run(capsys, "check-match", GALAXY, ILLEGAL)
    assert code == 1
    first, second = out.split("\n", 1)
    assert first == f"{GALAXY}: 5-point match, 1 game, 13 plays, final score lasse 1 - mglough 0, no illegal play"
    assert "2 illegal play(s)" in second and "game 1, move 6: lasse played '8/4 6/5'" in second


def test_convert_between_mat_and_sgf_keeps_the_record(capsys, tmp_path):
    sgf, mat = tmp_path / "m.sgf", tmp_path / "m.mat"
    assert run(capsys, "convert", STUDIO, str(sgf))[0] == 0
    assert run(capsys, "convert", str(sgf), str(mat))[0] == 0
    original = read_mat(Path(STUDIO).read_text(encoding="utf-8"))
    assert read_sgf(sgf.read_text(encoding="utf-8")) == original
    assert read_mat(mat.read_text(encoding="utf-8")) == original
    code, _, err = run(capsys, "convert", str(tmp_path / "none.mat"), str(sgf))
    assert code == 1 and err.startswith("bgref convert: ")


def test_check_match_reads_sgf_as_it_reads_mat(capsys, tmp_path):
    sgf = tmp_path / "studio.sgf"
    assert run(capsys, "convert", STUDIO, str(sgf))[0] == 0
    code, out, _ = run(capsys, "check-match", "--json", STUDIO, str(sgf))
    from_mat, from_sgf = reports(out)
    assert code == 0 and from_mat["games"] == from_sgf["games"] and from_sgf["file"] == str(sgf)


def test_show_prints_board_and_ids_of_the_position_before_a_move(capsys):
    _, out, _ = run(capsys, "check-match", "--json", STUDIO)
    play = reports(out)[0]["games"][1]["plays"][4]  # game 2, move 5: DrVirus 64: 24/14
    code, shown, _ = run(capsys, "show", STUDIO, "--game", "2", "--move", "5")
    assert code == 0
    assert shown.splitlines()[0] == "Game 2, move 5: DrVirus to play 64 (played 24/14)"
    assert f"Position ID: {play['position_id']}" in shown
    match_id = MatchId.decode(shown.split("Match ID: ")[1].split()[0])
    assert (match_id.match_length, match_id.score, match_id.dice, match_id.on_roll) == (13, (8, 10), (6, 4), 1)
    xgid = Xgid.decode(shown.split("XGID=")[1].split()[0])
    assert xgid.position.id() == play["position_id"] and xgid.dice == (6, 4) and xgid.turn == 1


def test_show_defaults_to_the_end_of_the_last_game_and_refuses_missing_moves(capsys):
    code, shown, _ = run(capsys, "show", GALAXY)
    assert code == 0 and shown.startswith("Game 1, after the last action")
    match_id = MatchId.decode(shown.split("Match ID: ")[1].split()[0])
    assert match_id.score == (1, 0) and match_id.game_state.name == "DROPPED"
    code, _, err = run(capsys, "show", GALAXY, "--game", "1", "--move", "99")
    assert code == 1 and err.strip() == f"bgref show: {GALAXY}: game 1 has no move 99 (moves 1-13)"
    code, _, err = run(capsys, "show", GALAXY, "--game", "2")
    assert code == 1 and "there is no game 2" in err


@pytest.mark.skipif(shutil.which("bgref", path=str(Path(sys.executable).parent)) is None, reason="bgref not installed in this venv")
def test_the_installed_command_has_the_same_contract():
    bgref = shutil.which("bgref", path=str(Path(sys.executable).parent))
    done = subprocess.run([bgref, "check-match", "--json", GALAXY, ILLEGAL], capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert [json.loads(line)["file"] for line in done.stdout.splitlines()] == [GALAXY, ILLEGAL]
    done = subprocess.run([bgref, "check-match", GALAXY], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stderr == ""


def test_a_latin_1_file_is_read(capsys, tmp_path):
    latin = tmp_path / "latin.mat"
    latin.write_bytes(Path(GALAXY).read_text(encoding="utf-8").replace("mglough", "Jørgen").encode("latin-1"))
    code, out, _ = run(capsys, "check-match", "--json", str(latin))
    assert code == 0 and reports(out)[0]["games"][0]["plays"][0]["player"] == "Jørgen"


def test_a_play_onto_a_held_point_is_listed_as_illegal_and_the_board_left_as_it_was(capsys, tmp_path):
    held = tmp_path / "held.mat"
    held.write_text(Path(GALAXY).read_text(encoding="utf-8").replace("  5) 61: 13/7 7/6", "  5) 61: 13/12 13/7"))
    code, out, err = run(capsys, "check-match", "--json", str(held))
    (report,) = reports(out)
    assert code == 1
    assert report["illegal"][0] == {
        "game": 1,
        "move": 8,
        "player": "lasse",
        "play": "13/12 13/7",
        "reasons": ["a checker landed on 12, a point held by the opponent"],
    }
    assert report["warnings"][0] == (
        f"{held}: line 22, game 1, move 8: the board cannot follow '13/12 13/7': it is left as it was before the play"
    )
    assert f"bgref check-match: warning: {held}: line 22, game 1, move 8: " in err
    assert f"bgref check-match: {held}: game 1, move 8: illegal play '13/12 13/7'" in err


@pytest.mark.parametrize("keep", range(16, 27))
def test_a_real_file_cut_at_any_line_exits_3_until_its_game_has_ended(capsys, tmp_path, keep):
    # galaxy-game1.mat: game 1 starts on line 16; mglough drops on line 25, so a
    # cut from line 25 on still holds a finished game (exit 0), before it none (3).
    cut = tmp_path / "cut.mat"
    cut.write_text("".join(Path(GALAXY).read_text(encoding="utf-8").splitlines(keepends=True)[:keep]), encoding="utf-8")
    code, out, err = run(capsys, "check-match", "--json", str(cut))
    (report,) = reports(out)
    assert report["illegal"] == [] and "error" not in report
    if keep >= 25:
        assert code == 0 and report["finished"] and err == ""
    else:
        assert code == 3 and not report["finished"] and "game 1 has no result" in err
