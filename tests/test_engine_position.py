"""Positions and GNU Backgammon Position IDs (vectors from GNU Backgammon's documentation of the Position ID)."""

import pytest
from hypothesis import given, strategies as st

from engine import Position, PositionError, Problem
from engine.position import decode_id_sides, problems

START = "4HPwATDgc/ABMA"


def side(**points):
    out = [0] * 25
    for name, n in points.items():
        out[25 - 1 if name == "bar" else int(name[1:]) - 1] = n
    return tuple(out)


def test_start_position_id_and_key_bytes():
    assert Position.start().id() == START
    import base64

    assert base64.b64decode(START + "==").hex(" ").upper() == "E0 73 F0 01 30 E0 73 F0 01 30"


@pytest.mark.parametrize(
    "pid, not_on_roll, on_roll",
    [
        ("4PPgASjgc/ABMA", {6: 5, 8: 4, 13: 4, 23: 1, 24: 1}, {6: 5, 8: 3, 13: 5, 24: 2}),
        ("4HPkASjg8+ABKA", {6: 5, 8: 3, 11: 1, 13: 4, 23: 1, 24: 1}, {6: 5, 8: 4, 13: 4, 23: 1, 24: 1}),
        ("ADAAAQAkIAAAAA", {13: 2, 23: 1}, {15: 1, 17: 1, 24: 1}),
    ],
)
def test_published_vectors(pid, not_on_roll, on_roll):
    position = Position.from_id(pid)
    assert position == Position.from_counts(on_roll, not_on_roll)
    assert position.id() == pid


def test_pips_off_bar_and_swap():
    p = Position.from_id("ADAAAQAkIAAAAA")
    assert p.pip_counts() == (15 + 17 + 24, 13 * 2 + 23)
    assert p.off() == (12, 12)
    assert p.swap().swap() == p
    assert p.swap().on_roll == p.opponent
    assert Position.start().pip_counts() == (167, 167)


def test_impossible_positions_are_refused_with_the_reason():
    with pytest.raises(PositionError, match="more than 15"):
        Position(side(p6=16), side(p6=5))
    with pytest.raises(PositionError, match="both colours"):
        Position(side(p6=2), side(p19=1))
    with pytest.raises(PositionError, match="must be 14 characters"):
        Position.from_id("4HPwATDgc")
    with pytest.raises(PositionError, match="not Base64"):
        Position.from_id("4HPwATDgc/AB!A")
    assert problems(side(p6=2), side(p19=1)) == Problem.SHARED_POINT
    assert problems(side(bar=2, p1=2, p2=2, p3=2, p4=2, p5=2, p6=2), side(bar=1, p1=2, p2=2, p3=2, p4=2, p5=2, p6=2)) & Problem.BOTH_ON_BAR_BOARDS_CLOSED


def test_raw_decode_keeps_impossible_sides_for_the_judge():
    # 16 checkers on one side can still be encoded and decoded raw
    from engine.position import _encode_id

    raw = _encode_id(side(p6=16), side(p6=5))
    with pytest.raises(PositionError):
        Position.from_id(raw)
    assert decode_id_sides(raw) == (side(p6=16), side(p6=5))


def test_repr_rebuilds_and_str_draws_a_board():
    p = Position.from_id(START)
    assert eval(repr(p)) == p
    text = str(p)
    assert START in text and "pips 167" in text


@st.composite
def positions(draw):
    """Any possible position: 15 checkers a side spread at random, no shared point."""
    mine = [0] * 25
    theirs = [0] * 25
    for _ in range(draw(st.integers(0, 15))):
        mine[draw(st.integers(0, 24))] += 1
    for _ in range(draw(st.integers(0, 15))):
        i = draw(st.integers(0, 24))
        if i < 24 and mine[23 - i]:
            continue
        theirs[i] += 1
    try:
        return Position(tuple(mine), tuple(theirs))
    except PositionError:
        from hypothesis import assume

        assume(False)


@given(positions())
def test_position_id_round_trips(position):
    assert Position.from_id(position.id()) == position
    assert len(position.id()) == 14
