"""Match ID and XGID: published vectors and round trips."""

import pytest
from hypothesis import given, strategies as st

from engine import Position
from engine.ids import GameState, IdError, MatchId, Xgid, gnubg_id


def test_match_id_vectors():
    m = MatchId.decode("QYkqASAAIAAE")
    assert (m.match_length, m.score, m.cube, m.cube_owner, m.on_roll, m.dice) == (9, (2, 4), 2, 0, 1, (5, 2))
    m = MatchId.decode("MIEFAAAAAAAA")
    assert (m.match_length, m.cube_owner, m.on_roll, m.dice, m.jacoby) == (0, None, 0, (3, 1), True)
    m = MatchId.decode("cImmAAAAAAAE")
    assert (m.match_length, m.score, m.on_roll, m.dice) == (5, (0, 0), 1, (5, 1))
    m = MatchId.decode("cBGgAAAACAAE")
    assert (m.match_length, m.score, m.on_roll, m.turn, m.double_offered) == (5, (0, 1), 1, 0, True)
    for text in ("QYkqASAAIAAE", "MIEFAAAAAAAA", "cImmAAAAAAAE", "cBGgAAAACAAE"):
        assert MatchId.decode(text).encode() == text


def test_match_id_errors():
    with pytest.raises(IdError, match="12 characters"):
        MatchId.decode("QYkq")
    with pytest.raises(IdError, match="does not fit"):
        MatchId(dice=(9, 1)).encode()


@given(
    st.integers(0, 25), st.tuples(st.integers(0, 30), st.integers(0, 30)), st.sampled_from([1, 2, 4, 8, 16, 32, 64]),
    st.sampled_from([None, 0, 1]), st.integers(0, 1), st.integers(0, 1), st.booleans(),
    st.sampled_from(list(GameState)), st.booleans(), st.integers(0, 3),
    st.sampled_from([(0, 0), (6, 1), (3, 3)]), st.booleans(),
)
def test_match_id_round_trips(length, score, cube, owner, on_roll, turn, crawford, state, offered, resign, dice, jacoby):
    m = MatchId(length, score, cube, owner, on_roll, turn, crawford, state, offered, resign, dice, jacoby)
    assert MatchId.decode(m.encode()) == m


def test_xgid_vector_and_round_trip():
    text = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"
    x = Xgid.decode(text)
    assert x.position == Position.start() and x.dice == (5, 2) and x.jacoby and x.beavers and x.turn == 0
    assert x.encode() == text
    match = Xgid(Position.from_id("ADAAAQAkIAAAAA"), turn=1, cube=4, cube_owner=0, score=(3, 5), match_length=7, crawford=True, dice=(6, 6))
    again = Xgid.decode(match.encode())
    assert again == match


def test_xgid_errors():
    with pytest.raises(IdError, match="26-character"):
        Xgid.decode("XGID=abc:0:0")
    with pytest.raises(IdError, match="not a checker count"):
        Xgid.decode("XGID=-b----E-C---eE---c-e----B?:0:0:1:52:0:0:3:0:10")


def test_gnubg_id():
    assert gnubg_id(Position.start(), MatchId.decode("MIEFAAAAAAAA")) == "4HPwATDgc/ABMA:MIEFAAAAAAAA"
