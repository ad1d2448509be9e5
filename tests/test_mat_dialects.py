"""The .mat reader on each dialect, on small fixtures, and its error messages.

Fixtures (``tests/data/records``, see its README): excerpts of real Galaxy and
Studio matches, one with an illegal play, and a money session written in
Studio style.  Random matches are also written in the Galaxy and Studio
dialects by the helpers below and must read back as the same records.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from test_record_property import random_match

from engine.mat import MatError, read_mat, read_mat_replay, write_mat
from engine.record import RecordedBeaver, RecordedDouble, RecordedDrop, RecordedMatch, RecordedMove, RecordedRaccoon, RecordedResign, RecordedResult, RecordedRoll, RecordedTake
from engine.replay import replay

RECORDS = Path(__file__).parent / "data" / "records"


def fixture(name: str) -> str:
    return (RECORDS / name).read_text(encoding="utf-8")


# --- writers of other programs' dialects (test helpers) ----------------------------------


def studio_text(match: RecordedMatch) -> str:
    """The match as Backgammon Studio writes it: a BOM, canonical notation with
    ``bar``/``off`` words, ``(2)``, chains and combined hops, ``Cannot Move``,
    ``????`` after a roll not played, ``Wins`` on numbered lines, column 40."""
    done = replay(match)
    out = [f'; [{k} "{v}"]' for k, v in match.tags]
    out[:1] = ["\ufeff" + line for line in out[:1]] or ["\ufeff;"]
    out.append(f'; [Crawford "{"On" if match.rules.crawford else "Off"}"]')
    if match.rules.max_cube != 64:
        out.append(f'; [CubeLimit "{match.rules.max_cube}"]')
    if match.rules.jacoby:
        out.append('; [Jacoby "On"]')
    if match.rules.beavers:
        out.append('; [Beaver "On"]')
    if match.rules.raccoons:
        out.append('; [Raccoons "On"]')
    out += [f"; {line}" for line in match.comment.splitlines()]
    out += ["", f"{match.length} point match", "", ""]
    for game, game_done in zip(match.games, done.games):
        head = f" {match.players[0]} : {game.score[0]}"
        out += [f" Game {game_done.number}", f"{head:<40s}{match.players[1]} : {game.score[1]}"]
        cells = [(s.action.player, _studio_cell(s)) for s in game_done.steps if not isinstance(s.action, RecordedResign)]
        if game.result is not None:
            cells.append((game.result.winner, f" Wins {game.result.points} point"))
        out += _rows(cells, width=34)
        out.append("")
    return "\n".join(out) + "\n"


def _studio_cell(step) -> str:
    a = step.action
    if isinstance(a, RecordedMove):
        return f"{a.dice[0]}{a.dice[1]}: {a.play or 'Cannot Move'}"
    if isinstance(a, RecordedRoll):
        return f"{a.dice[0]}{a.dice[1]}: ????"
    if isinstance(a, (RecordedDouble, RecordedBeaver, RecordedRaccoon)):
        return f" {type(a).__name__.removeprefix('Recorded')}s => {a.cube}"
    return {RecordedTake: " Takes", RecordedDrop: " Drops"}[type(a)]


def _rows(cells: list[tuple[int, str]], width: int) -> list[str]:
    rows, left, number = [], None, 0
    for player, text in cells:
        if player == 0:
            if left is not None:
                rows.append(left)
            number += 1
            left = f"  {number}) {text:<{width}s}"
        else:
            if left is None:
                number += 1
                left = f"  {number}) {'':<{width}s}"
            rows.append(left + text)
            left = None
    if left is not None:
        rows.append(left)
    return rows


def galaxy_text(match: RecordedMatch) -> str:
    """The match as Backgammon Galaxy writes it: one hop per die with bar 25
    and off 0 and no ``*`` on hits, ``Losses N point`` beside the winner's line."""
    text = write_mat(match).replace("*", "")
    return re.sub(r"^( {34})(Wins .*)$", r"      Losses 1 point\n\1\2", text, flags=re.MULTILINE)


# --- fixtures of real matches --------------------------------------------------------------


def test_galaxy_game_is_replayed_with_hits_found_and_written_canonically():
    match = read_mat(fixture("galaxy-game1.mat"), "galaxy-game1.mat")
    (game,) = match.games
    moves = game.moves()
    assert match.players == ("lasse", "mglough") and match.length == 5 and match.rules.crawford
    assert [m.play for m in moves[:3]] == ["24/23 13/8", "24/23 13/11", "13/11(2) 6/4(2)"]
    assert moves[12] == RecordedMove(1, (4, 4), "")  # "44:" with nothing after it: a dance
    assert str(moves[9].play) == "bar/20 13/11*"  # Galaxy does not mark hits; the rules do
    assert game.actions[-2:] == (RecordedDouble(0, 2), RecordedDrop(1))
    assert (game.result.winner, game.result.points, game.result.resigned) == (0, 1, False)
    assert dict(match.tags)["Site"] == "BackgammonGalaxy"


def test_galaxy_final_game_losses_line_and_wins_and_the_match():
    match = read_mat(fixture("galaxy-final.mat"), "galaxy-final.mat")
    (game,) = match.games
    done = replay(match)
    assert game.score == (2, 0) and done.games[0].start.crawford  # a match may start mid-way
    assert game.actions[-1] == RecordedResign(1, 1)
    assert (game.result.winner, game.result.points, game.result.resigned) == (0, 1, True)
    assert match.final_score() == (3, 0) and match.winner() == 0


def test_studio_games_roll_then_resign_combined_hops_and_words():
    done = read_mat_replay(fixture("studio-games.mat"), "studio-games.mat")
    g11, g12 = done.match.games
    assert g11.score == (6, 10) and g12.score == (8, 10)
    assert g11.actions[-2:] == (RecordedRoll(1, (3, 1)), RecordedResign(1, 2))
    assert (g11.result.winner, g11.result.points, g11.result.resigned) == (0, 2, True)
    combined = [s for s in done.games[0].moves() if s.action.dice == (6, 4) and s.action.player == 0][2]
    assert combined.action.play == "21/11" and len(combined.play.hops) == 2  # "64: 21/11"
    assert [str(s.play) for s in done.games[0].moves()][16:18] == ["13/10(3) 6/3", "13/10 13/8"]
    assert done.match.rules.max_cube == 1024 and ("ClockType", "Live8 780/10") in done.match.tags


def test_bom_words_numbers_and_cannot_move_read_the_same():
    text = fixture("galaxy-game1.mat")
    plain = read_mat(text)
    words = text.replace(" 25/", " bar/").replace("/0 ", "/off ")
    assert words != text
    assert read_mat("\ufeff" + words) == plain
    assert read_mat(text.replace("44:\n", "44: Cannot Move\n")) == plain


def test_hand_made_money_session_fixture():
    done = read_mat_replay(fixture("hand-made.mat"), "hand-made.mat")
    match = done.match
    assert match.is_money and match.rules.jacoby and match.rules.beavers
    assert match.comment == "a money session written in Backgammon Studio's style"
    actions = [a for g in match.games for a in g.actions]
    assert any(isinstance(a, RecordedBeaver) for a in actions)
    assert any(re.search(r"\d\*/\d", a.play) for a in actions if isinstance(a, RecordedMove))
    assert any(a.play == "" for a in actions if isinstance(a, RecordedMove))
    assert "\ufeff" in fixture("hand-made.mat") and "Cannot Move" in fixture("hand-made.mat")
    assert read_mat(write_mat(match)) == match


# --- random matches in other programs' dialects ----------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_random_matches_in_studio_and_galaxy_dialects_read_back(seed):
    rng = random.Random(seed)
    match = random_match(rng, [0, 3, 5, 7][seed % 4], beavers=True, jacoby=seed % 3 == 0, illegal=0.02)
    assert read_mat(studio_text(match)) == match
    legal_only = random_match(random.Random(seed), [0, 3, 5, 7][seed % 4], beavers=True)
    assert read_mat(galaxy_text(legal_only)) == legal_only  # (an illegal play's own '*' would be lost)


# --- illegal plays accepted as made ------------------------------------------------------------


def test_illegal_play_is_kept_as_made_with_its_reasons():
    done = read_mat_replay(fixture("illegal-play.mat"), "illegal-play.mat")
    (game, step), (_, then) = list(done.illegal())
    assert (game.number, step.move) == (1, 6)
    assert step.action == RecordedMove(0, (4, 2), "8/4 6/5")
    assert step.play is None and step.reasons == ("the checkers moved (8/5 6/4) cannot be made with 4-2",)
    # With the 4 point left open, the opponent's later "44:" was a play refused.
    assert (then.move, then.action) == (13, RecordedMove(1, (4, 4), ""))
    assert then.reasons == ("no checker was moved, but 4-4 can be played",)
    assert read_mat(write_mat(done.match)) == done.match


def test_a_play_the_board_cannot_follow_is_illegal_and_the_board_left_as_it_was():
    """A checker moved from a point where the player has none (line 22,
    lasse's 61 at move 8): kept as written, reported illegal, and a warning
    that the board stays as it was; the game reads on."""
    text = fixture("galaxy-game1.mat").replace("61: 13/7 7/6", "61: 12/6 6/5")
    done = read_mat_replay(text, "some.mat")
    (game, step), *_ = list(done.illegal())
    assert (game.number, step.move, step.action) == (1, 8, RecordedMove(0, (6, 1), "12/6 6/5"))
    assert step.reasons == ("'12/6 6/5' moves a checker from a point where the player has none",)
    assert step.after.position == step.before.position.swap()
    assert done.warnings[0] == (
        "some.mat: line 22, game 1, move 8: the board cannot follow '12/6 6/5': it is left as it was before the play"
    )
    assert done.match.games[0].result == RecordedResult(0, 1, False)  # the drop that ends the game still reads
    assert read_mat(write_mat(done.match)) == done.match


# --- errors name the file, line, game and move -------------------------------------------------


def _error(text: str) -> str:
    with pytest.raises(MatError) as caught:
        read_mat(text, "some.mat")
    return str(caught.value)


def test_errors_name_file_line_game_and_move():
    text = fixture("galaxy-game1.mat")
    bad_syntax = text.replace("52: 25/20 13/11", "52: 25/20 13/x1")
    assert _error(bad_syntax).startswith("some.mat: line 23, game 1, move 10: 'x1' in '25/20 13/x1' is not a point")
    wrong_cube = text.replace("Doubles => 2", "Doubles => 4")
    assert _error(wrong_cube).startswith("some.mat: line 25, game 1, move 13: the double turns the cube to 2")
    gibberish = text.replace("  3) 55:", "  3) 5x:")
    assert _error(gibberish).startswith("some.mat: line 20, game 1: cannot read '5x: 6/1 6/1 23/18 18/13'")


def test_score_that_does_not_add_up_is_an_error():
    text = fixture("studio-games.mat").replace(" Llabba : 8 ", " Llabba : 7 ")
    assert _error(text).startswith("some.mat: line 45, game 2: the record gives the score 7-10, the games before give 8-10")


def test_wrong_winner_or_points_is_an_error():
    text = fixture("galaxy-game1.mat").replace("      Wins 1 point", "                                  Wins 1 point")
    assert "says player 1 wins 1 point(s); the rules give player 0 1 (drop)" in _error(text)


def test_a_file_without_match_length_or_with_junk_is_an_error():
    assert "no 'N point match' line" in _error("; just a comment\n")
    assert _error("hello\n").startswith("some.mat: line 1: expected a header tag")


def test_a_roll_before_a_resignation_reads_bare_or_with_question_marks():
    """GNU Backgammon writes the bare roll (``31:``), eXtreme Gammon and Studio
    ``31: ????``; we write the latter, which gnubg reads as dice set before a
    resignation even when the roll has one legal play (the bare form it then plays)."""
    match = read_mat(fixture("studio-games.mat"))
    written = write_mat(match)
    assert re.search(r"^ 22\) 54: 5/0 4/0 +31: \?\?\?\?$", written, re.MULTILINE)
    assert read_mat(written) == match
    assert read_mat(written.replace("31: ????", "31:")) == match
