"""SGF (GM[6]) writer and reader: GNU Backgammon's conventions, our additions, errors."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from test_record_property import random_match

from engine.mat import MatError, read_mat, write_mat
from engine.record import RecordedMove, RecordedResign, RecordedRoll
from engine.sgf import SgfError, parse_trees, read_sgf, read_sgf_replay, write_sgf

RECORDS = Path(__file__).parent / "data" / "records"


def fixture(name: str):
    return read_mat((RECORDS / name).read_text(encoding="utf-8"), name)


def test_points_are_letters_in_whites_numbering_with_bar_y_and_off_z():
    sgf = write_sgf(fixture("galaxy-game1.mat"))
    nodes = sgf.splitlines()
    # Black (mglough) 51: 24/23 13/8; White (lasse) 21: 24/23 13/11.
    assert nodes[1:3] == [";B[51ablq]", ";W[21xwmk]"]
    # White 52: bar/20 13/11*, entering from the bar.
    assert ";W[52ytmk]" in nodes
    assert nodes[-3:] == [";B[44]", ";W[double]", ";B[drop])"]


def test_root_holds_match_info_players_rules_and_result():
    sgf = write_sgf(fixture("galaxy-final.mat"))
    root = sgf.splitlines()[0]
    assert root.startswith("(;FF[4]GM[6]CA[UTF-8]AP[bgref]MI[length:3][game:0][ws:2][bs:0][maxcube:1024]PW[lasse]PB[aegeanbreeze]")
    assert "RU[Crawford:CrawfordGame]" in root and "RE[W+1R]" in root
    assert "BT[Site:BackgammonGalaxy]" in root


def test_bear_off_is_z():
    sgf = write_sgf(fixture("studio-games.mat"))
    assert ";W[64fzdz]" in sgf  # 64: 6/off 4/off


def test_a_roll_before_a_resignation_and_an_illegal_play_have_their_own_nodes():
    studio = fixture("studio-games.mat")
    sgf = write_sgf(studio)
    assert ";PL[B]DI[31]" in sgf and "RE[W+2R]" in sgf
    assert read_sgf(sgf) == studio
    illegal = fixture("illegal-play.mat")
    sgf = write_sgf(illegal)
    assert ";W[42hdfe]PT[8/4 6/5]" in sgf
    assert read_sgf(sgf) == illegal


def test_text_is_escaped_and_comments_survive():
    match = random_match(random.Random(11), 3, comments=True, players=("A]nn", "B\\ob"))
    sgf = write_sgf(match)
    assert "PW[A\\]nn]PB[B\\\\ob]" in sgf
    assert "C[note" in sgf and "GC[random match" in sgf
    assert read_sgf(sgf) == match


def test_money_session_rules():
    match = random_match(random.Random(2), 0, jacoby=True, beavers=True)
    sgf = write_sgf(match)
    assert "RU[Jacoby]" in sgf and "[beavers:1]" in sgf and "[maxcube:1024]" in sgf
    assert read_sgf(sgf).rules == match.rules


def test_only_the_main_line_of_variations_is_read():
    trees = parse_trees("(;GM[6](;W[31hefe])(;W[42]))")
    assert trees == [[{"GM": ["6"]}, {"W": ["31hefe"]}]]


@pytest.mark.parametrize(
    "text, message",
    [
        ("(;GM[6]", "line 1: expected ')'"),
        ("(;GM[6]\n;W[31hefe)", "line 2: a property value is not closed"),
        ("x", "line 1: unexpected 'x'"),
        ("", "no game tree"),
    ],
)
def test_syntax_errors_name_the_file(text, message):
    with pytest.raises(SgfError, match=f"^m.sgf: .*{re.escape(message)}"):
        read_sgf(text, "m.sgf")


def test_a_result_the_rules_do_not_give_is_an_error_naming_game_and_move():
    sgf = write_sgf(fixture("galaxy-game1.mat")).replace("RE[W+1]", "RE[B+1]")
    with pytest.raises(SgfError, match=r"^m\.sgf: game 1, move 13: RE\[B\+1\], but the rules give W\+1 \(drop\)"):
        read_sgf(sgf, "m.sgf")


def test_a_move_from_an_empty_point_is_illegal_with_a_warning_naming_game_and_move():
    # White's 21 at move 2 written from its 10 and 8 points, where it has no checker.
    sgf = write_sgf(fixture("galaxy-game1.mat")).replace(";W[21xwmk]", ";W[21jhmk]")
    done = read_sgf_replay(sgf, "m.sgf")
    (game, step), *_ = list(done.illegal())
    assert (game.number, step.move, step.action.play) == (1, 2, "10/8 13/11")
    assert done.warnings[0].startswith("m.sgf: game 1, move 2: the board cannot follow '10/8 13/11'")


def test_resignation_is_the_result_not_a_node():
    match = fixture("galaxy-final.mat")
    assert isinstance(match.games[0].actions[-1], RecordedResign)
    sgf = write_sgf(match)
    assert "resign" not in sgf.lower().replace("re[", "")
    back = read_sgf(sgf)
    assert back.games[0].actions[-1] == match.games[0].actions[-1]


def test_a_comment_on_a_move_is_kept():
    match = fixture("galaxy-game1.mat")
    game = match.games[0]
    first = game.actions[0]
    assert isinstance(first, RecordedMove)
    noted = replace(match, games=(replace(game, actions=(replace(first, comment="opening [5-1]"),) + game.actions[1:]),))
    sgf = write_sgf(noted)
    assert ";B[51ablq]C[opening [5-1\\]]" in sgf
    assert read_sgf(sgf) == noted
    assert not any(isinstance(a, RecordedRoll) for a in read_sgf(sgf).games[0].actions)


def test_automatic_doubles_start_the_cube_with_cv_and_a_mat_file_refuses_them():
    matches = (random_match(random.Random(seed), 0, automatic_doubles=2, start_cubes=True) for seed in range(50))
    match = next(m for m in matches if any(g.cube > 1 for g in m.games))
    sgf = write_sgf(match)
    assert re.search(r"CV\[[24]\]", sgf) and "[autodoubles:2]" in sgf
    assert read_sgf(sgf) == match
    with pytest.raises(MatError, match=r"^game \d+: the cube starts at [24] \(automatic doubles\)"):
        write_mat(match)


def test_a_cube_the_rules_do_not_allow_to_start_above_1_is_an_error():
    sgf = write_sgf(fixture("galaxy-game1.mat")).replace("RU[Crawford]", "RU[Crawford]CV[2]")
    with pytest.raises(SgfError, match=r"^m\.sgf: game 1, move 0: the cube cannot start at 2"):
        read_sgf(sgf, "m.sgf")


def test_a_play_onto_a_held_point_is_kept_as_written_and_reported_illegal():
    # White's 61: 13/7 7/6 written as 13/12 13/7 (12 is Black's 13 point).
    sgf = write_sgf(fixture("galaxy-game1.mat")).replace(";W[61mggf]", ";W[61mlmg]")
    done = read_sgf_replay(sgf, "m.sgf")
    (game, step), *_ = list(done.illegal())
    assert (game.number, step.move, step.action.player, step.action.play) == (1, 8, 0, "13/12 13/7")
    assert step.reasons == ("a checker landed on 12, a point held by the opponent",)
    assert done.warnings[0].startswith("m.sgf: game 1, move 8: the board cannot follow '13/12 13/7'")
    assert done.match.players == ("lasse", "mglough")
