"""Legal plays: the rules one by one, gnubg's own play lists, and invariants."""

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from engine import Position, legal_plays
from engine.board import DARK, LIGHT, Board
from engine.plays import Hop, PlayError, after_written, apply_hops, format_hops, parse_play
from engine.selfplay import sample_positions

VECTORS = json.loads((Path(__file__).parent / "data" / "engine" / "play_vectors.json").read_text())["vectors"]


def texts(position, dice):
    return sorted(str(p) for p in legal_plays(position, dice))


def pos(mine, theirs):
    return Position.from_counts(mine, theirs)


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: f"{v['position_id']}-{v['dice'][0]}{v['dice'][1]}")
def test_same_plays_and_notation_as_gnubg(vector):
    position = Position.from_id(vector["position_id"])
    assert texts(position, tuple(vector["dice"])) == vector["plays"]


def test_opening_counts():
    start = Position.start()
    assert len(legal_plays(start, (3, 1))) == 16
    assert "8/5 6/5" in texts(start, (3, 1))
    assert texts(start, (6, 5)) == sorted(["24/13", "24/18 13/8", "24/18 8/3", "13/8 13/7", "13/7 8/3", "13/2", "8/3 8/2"])
    assert texts(start, (1, 3)) == texts(start, (3, 1))


def test_must_enter_from_the_bar_first():
    p = pos({25: 1, 13: 14}, {6: 2, 5: 2})  # my 19 and 20 are held
    assert texts(p, (6, 5)) == []  # both entry points (19, 20) blocked: dance
    assert texts(p, (6, 1)) == ["bar/18", "bar/24 13/7"]


def test_entering_some_but_not_all():
    p = pos({25: 2, 13: 13}, {6: 2})
    assert texts(p, (6, 1)) == ["bar/24"]


def test_combined_move_needs_an_open_intermediate_point():
    p = pos({13: 1, 1: 14}, {17: 2})  # opponent's 17 = my 8
    # 13/8 is blocked, so the 6-5 must go 13/7/2... via 7 (13-6=7 open), then 7-5=2
    assert texts(p, (6, 5)) == ["13/2"]
    p2 = pos({13: 1, 1: 14}, {17: 2, 18: 2})  # my 8 and 7 held: no way through
    assert texts(p2, (6, 5)) == []


def test_hits_are_marked_and_go_to_the_bar():
    p = pos({13: 15}, {18: 1, 24: 14})  # opponent blot on my 7
    plays = {str(pl): pl for pl in legal_plays(p, (6, 5))}
    assert "13/7*/2" in plays and "13/8 13/7*" in plays
    assert plays["13/7*/2"].after.opponent[24] == 1


def test_bear_off_exact_higher_and_not_while_outside():
    home = pos({6: 1, 4: 2, 1: 12}, {})
    assert "6/off 4/off" in texts(home, (6, 4))
    high = pos({4: 2, 2: 13}, {})
    assert texts(high, (6, 5)) == ["4/off(2)"]  # higher dice bear off from the highest point
    # 7/1 1/off and 7/6/off end the same: one play
    assert texts(pos({7: 1, 1: 14}, {}), (6, 1)) == ["7/off"]
    # 9/3 first; only then may the 1 bear off; 9/off is too far
    assert texts(pos({9: 1, 1: 14}, {}), (6, 1)) == ["9/2", "9/3 1/off"]


def test_no_bear_off_from_lower_point_with_a_higher_checker():
    # a 4 bears off nothing from the 3-point while the 5 stands; after 5/1 it does
    assert texts(pos({5: 1, 3: 14}, {}), (4, 4)) == ["5/1 3/off(3)"]


def test_higher_die_rule_exact_case():
    # 24 can go 6 (to 18) or 5 (to 19) but not both in any order; the 6 must be played
    p = pos({24: 1, 1: 14}, {7: 2, 8: 2})  # opponent's 7 and 8 are my 18 and 17
    # 24/18 blocked (18 held); 24/19 open; then 19/13 (6) open: both dice play: 24/13 via 19
    assert texts(p, (6, 5)) == ["24/13"]
    q = pos({24: 1, 1: 14}, {12: 2, 13: 2, 7: 2})  # my 13, 12 and 18 held
    # 24/19 then 19/13 blocked; 24/18 blocked: only the 5 can be played
    assert texts(q, (6, 5)) == ["24/19"]
    r = pos({24: 1, 1: 14}, {14: 2, 13: 2})  # my 11 and 12 held
    # 24/18 or 24/19 each possible, but 24/13 is open too: both dice
    assert texts(r, (6, 5)) == ["24/13"]
    s = pos({24: 1, 1: 14}, {12: 2, 13: 2, 6: 2, 14: 2})  # my 13, 12, 19, 11 held
    # 24/18 (6) then 18/13 (5) blocked; 24/19 (5) blocked: only the 6
    assert texts(s, (6, 5)) == ["24/18"]


def test_doubles_play_as_many_as_possible():
    # my 20 held: 24/22 and no more (the 1-point checkers may not bear off
    # while the 24 is outside)
    assert texts(pos({24: 1, 1: 14}, {5: 2}), (2, 2)) == ["24/22"]
    # my 12 and 18 held: the back checkers cannot move a 6
    assert texts(pos({24: 2, 13: 13}, {13: 2, 7: 2}), (6, 6)) == ["13/1 13/7(2)", "13/1(2)", "13/7(4)"]


def test_dice_are_checked():
    with pytest.raises(PlayError, match="two numbers from 1 to 6"):
        legal_plays(Position.start(), (7, 1))


def test_parse_play_reads_every_dialect():
    start = Position.start()
    assert str(parse_play("13/7 8/7", start, (6, 1))) == "13/7 8/7"
    assert str(parse_play("8/7 13/7", start, (6, 1))) == "13/7 8/7"
    assert str(parse_play("13/11(2) 6/4(2)", start, (2, 2))) == "13/11(2) 6/4(2)"
    assert str(parse_play("13/11 13/11 6/4 6/4", start, (2, 2))) == "13/11(2) 6/4(2)"
    assert str(parse_play("24/13", start, (6, 5))) == "24/13"
    assert str(parse_play("24/18/13", start, (6, 5))) == "24/13"
    p = pos({25: 1, 13: 14}, {})
    assert str(parse_play("25/22 13/8", p, (5, 3))) == "bar/22 13/8"
    assert str(parse_play("bar/20, 13/10", p, (5, 3))) == "bar/20 13/10"
    off = pos({6: 1, 4: 14}, {})
    assert str(parse_play("6/0 4/0", off, (6, 4))) == "6/off 4/off"
    with pytest.raises(PlayError, match="not a legal play"):
        parse_play("13/7", start, (6, 1))
    with pytest.raises(PlayError, match="not a point"):
        parse_play("13/x", start, (6, 1))
    with pytest.raises(PlayError, match="does not move forward"):
        parse_play("7/13", start, (6, 1))


def test_format_hops_like_gnubg():
    assert format_hops([Hop(13, 8), Hop(8, 7)]) == "13/7"
    assert format_hops([Hop(13, 8, True), Hop(8, 7)]) == "13/8*/7"
    assert format_hops([Hop(8, 5), Hop(6, 5)]) == "8/5 6/5"
    assert format_hops([Hop(7, 3, True), Hop(7, 3)]) == "7/3*(2)"
    assert format_hops([Hop(25, 22), Hop(6, 0)]) == "bar/22 6/off"


SAMPLE = sample_positions(random.Random(7), 1500)


@pytest.mark.slow  # 15 s: in the slow step; the published vectors and gnubg cross-checks stay in the default run
@pytest.mark.parametrize("chunk", range(3))
def test_invariants_on_self_played_positions(chunk):
    for position, dice in SAMPLE[chunk::3]:
        plays = legal_plays(position, dice)
        afters = [p.after for p in plays]
        assert len(set(afters)) == len(afters), "each play once"
        flipped = legal_plays(position, (dice[1], dice[0]))
        assert {p.after for p in flipped} == set(afters), "dice order does not matter"
        used = {p.dice_used for p in plays}
        assert len(used) <= 1, "every play uses the same, greatest number of dice"
        for play in plays:
            a = play.after
            assert sum(a.opponent) == sum(position.opponent), "no opponent checker leaves the board"
            assert sum(a.on_roll) <= sum(position.on_roll)
            assert a.pip_counts()[0] < position.pip_counts()[0]
            assert apply_hops(position, play.hops) == a
            assert after_written(position, str(play)) == a, "notation round-trips"
            assert parse_play(str(play), position, dice) == play


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 1499), st.sampled_from([DARK, LIGHT]))
def test_mirror_symmetry(index, player):
    """Exchanging the colours (and so the numbering) gives the same plays."""
    position, dice = SAMPLE[index]
    board = Board.from_position(position, player)
    mirrored = board.mirrored().position(1 - player)
    assert mirrored == position
    assert texts(mirrored, dice) == texts(board.position(player), dice)
