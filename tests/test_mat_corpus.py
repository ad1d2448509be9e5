"""The 230 real matches of ``tests/data/matches``: every play replayed, scores, round trips.

The matches are a copy of the project's shared real matches (their origin and
licence in ``tests/data/matches/README.md``).
``corpus()`` reads each match once per test session; the GNU Backgammon
oracle tests (``test_mat_gnubg.py``) use it too.
"""

from __future__ import annotations

import functools
import itertools
import re
from pathlib import Path

import pytest

from engine.mat import read_mat, write_mat
from engine.record import RecordedResign
from engine.replay import MatchReplay
from engine.sgf import read_sgf, write_sgf

MATCHES = Path(__file__).parent / "data" / "matches"


def match_files() -> list[Path]:
    """Every .mat text in the real matches (the SGF copy of the gnubg match aside)."""
    return sorted(p for p in MATCHES.rglob("*") if p.suffix in (".txt", ".mat"))

@functools.lru_cache(maxsize=1)
def corpus() -> dict[Path, MatchReplay]:
    """Every real match, read (and so replayed) once."""
    from engine.mat import read_mat_replay

    return {p: read_mat_replay(p.read_text(encoding="utf-8"), str(p)) for p in match_files()}

def test_every_shared_match_replays_with_no_illegal_play():
    matches = corpus()
    by_source = {name: sum(1 for p in matches if p.parent.name == name) for name in ("galaxy", "studio", "gnubg")}
    games = sum(len(m.games) for m in matches.values())
    plays = sum(m.play_count() for m in matches.values())
    dances = sum(1 for m in matches.values() for g in m.games for s in g.moves() if s.action.play == "")
    illegal = [(p.name, g.number, s.move) for p, m in matches.items() for g, s in m.illegal()]
    assert by_source == {"galaxy": 150, "studio": 79, "gnubg": 1}
    assert (len(matches), games, plays) == (230, 1173, 49080)
    assert dances == 4915
    assert illegal == []

def test_every_shared_match_is_won_at_the_match_length_or_was_left_after_game_one():
    unfinished = []
    for path, done in corpus().items():
        match = done.match
        final = match.final_score()
        assert all(g.result is not None for g in match.games), path.name
        winner = match.winner()
        if winner is None:
            unfinished.append((path.name, len(match.games), final))
            continue
        assert final[1 - winner] < match.length, path.name
    # Three Galaxy matches were left after their first game (a drop, a drop, a resignation).
    assert sorted(unfinished) == [
        ("match10315962.txt", 1, (1, 0)),
        ("match1093632.txt", 1, (1, 0)),
        ("match1173715.txt", 1, (2, 0)),
    ]

def test_and_the_match_lines_name_the_match_winner():
    """Backgammon Galaxy writes "Wins N point and the match" on the last game only."""
    checked = 0
    for path, done in corpus().items():
        text = path.read_text(encoding="utf-8")
        if "and the match" not in text:
            continue
        checked += 1
        assert text.count("and the match") == 1, path.name
        last_game_text = text[text.rindex(" Game ") :]
        assert "and the match" in last_game_text, path.name
        assert done.match.games[-1].result.winner == done.match.winner()
    assert checked == 156

def test_every_game_score_adds_up_from_the_results_before_it():
    for path, done in corpus().items():
        games = done.match.games
        for before, after in itertools.pairwise(games):
            expected = list(before.score)
            expected[before.result.winner] += before.result.points
            assert tuple(expected) == after.score, path.name

@pytest.mark.slow  # every real match written and read back
def test_mat_reader_writer_reader_round_trip_on_every_shared_match():
    for path, done in corpus().items():
        assert read_mat(write_mat(done.match), str(path)) == done.match, path.name

@pytest.mark.slow  # every real match written and read back
def test_sgf_writer_reader_round_trip_on_every_shared_match():
    for path, done in corpus().items():
        assert read_sgf(write_sgf(done.match), str(path)) == done.match, path.name

def test_combined_hops_and_dialect_notations_are_expanded_into_legal_plays():
    """Backgammon Studio writes one checker's two hops as one (``24/14``);
    every such play is a legal play of the roll with all its dice used."""
    combined = 0
    for path, done in corpus().items():
        if path.parent.name != "studio":
            continue
        text_moves = re.findall(r"\b(\d\d): ([^\s].*?)(?=\s{2,}|$)", path.read_text(encoding="utf-8"), re.MULTILINE)
        combined += sum(1 for dice, play in text_moves if _has_combined_hop(dice, play))
        for game in done.games:
            for step in game.moves():
                assert step.play is not None and step.legal
    assert combined > 1000

def _has_combined_hop(dice: str, play: str) -> bool:
    d1, d2 = int(dice[0]), int(dice[1])
    for token in play.split():
        parts = token.split("(")[0].rstrip("*").split("/")
        if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
            distance = int(parts[0]) - int(parts[1])
            if distance not in (d1, d2) and parts[1] != "0":
                return True
    return False

def test_resignations_and_rolls_before_them_are_read():
    resigned = [g for m in corpus().values() for g in m.match.games if g.result.resigned]
    resign_actions = [a for g in resigned for a in g.actions if isinstance(a, RecordedResign)]
    assert len(resigned) == len(resign_actions) == 76
    assert all(isinstance(g.actions[-1], RecordedResign) for g in resigned)

def test_gnubg_sgf_and_mat_exports_of_one_match_read_the_same():
    folder = MATCHES / "gnubg"
    mat = next(folder.glob("*.mat"))
    sgf = next(folder.glob("*.sgf"))
    from_mat = read_mat(mat.read_text(encoding="utf-8"), str(mat))
    from_sgf = read_sgf(sgf.read_text(encoding="utf-8"), str(sgf))
    assert from_sgf.games == from_mat.games
    assert from_sgf.players == from_mat.players and from_sgf.rules == from_mat.rules
    assert sum(len(g.moves()) for g in from_sgf.games) == 189
