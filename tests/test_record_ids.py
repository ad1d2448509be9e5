"""Position ID, Match ID and XGID of positions in a record, against the published vectors
(``docs/records.md``); every position of the shared matches is checked against GNU
Backgammon itself in ``test_mat_gnubg.py``."""

from __future__ import annotations

from engine.game import Rules
from engine.record import RecordedDouble, RecordedGame, RecordedMove, RecordedTake
from engine.replay import advance, identifiers, start_match


def opening(rules: Rules, score: tuple[int, int] = (0, 0)):
    return start_match(rules, [RecordedGame(score, ())]).game


def test_player_1_to_play_51_at_the_start_of_a_5_point_match():
    step = advance(opening(Rules(match_length=5)), RecordedMove(1, (5, 1), "24/23 13/8"), 1)
    assert identifiers(step.before, (0, 0)) == (
        "4HPwATDgc/ABMA",
        "cImmAAAAAAAE",
        "XGID=-b----E-C---eE---c-e----B-:0:0:-1:51:0:0:0:5:6",
    )


def test_player_1_has_doubled_player_0_to_decide_at_0_1():
    step = advance(opening(Rules(match_length=5), (0, 1)), RecordedMove(0, (3, 1), "8/5 6/5"), 1)
    doubled = advance(step.after, RecordedDouble(1, 2), 1).after
    assert identifiers(doubled, (0, 1))[1] == "cBGgAAAACAAE"


def test_money_jacoby_player_0_to_play_31():
    step = advance(opening(Rules(jacoby=True)), RecordedMove(0, (3, 1), "8/5 6/5"), 1)
    assert identifiers(step.before, (0, 0))[1] == "MIEFAAAAAAAA"


def test_9_point_match_2_4_player_0_owns_2_player_1_rolled_52():
    state = opening(Rules(match_length=9), (2, 4))
    for action in (RecordedMove(0, (3, 1), "8/5 6/5"), RecordedDouble(1, 2), RecordedTake(0)):
        state = advance(state, action, 1).after
    step = advance(state, RecordedMove(1, (5, 2), "13/8 13/11"), 2)
    assert identifiers(step.before, (2, 4))[1] == "QYkqASAAIAAE"


def test_xgid_money_jacoby_beavers_x_to_play_52():
    rules = Rules(jacoby=True, beavers=True, max_cube=1024)
    step = advance(opening(rules), RecordedMove(0, (5, 2), "13/8 13/11"), 1)
    assert identifiers(step.before, (0, 0))[2] == "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"
