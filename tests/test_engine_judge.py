"""Judgement of a physical play: every fault, in words, with its points."""

import random

from hypothesis import given, settings, strategies as st

from engine import Position, legal_plays
from engine.judge import Fault, judge
from engine.plays import Hop, apply_hops
from engine.selfplay import sample_positions

START = Position.start()


def sides(position):
    return position.on_roll, position.opponent


def edit(position, mine=None, theirs=None):
    """Raw sides with some counts changed: {point: new count} (25 = bar)."""
    m, t = list(position.on_roll), list(position.opponent)
    for point, n in (mine or {}).items():
        m[point - 1] = n
    for point, n in (theirs or {}).items():
        t[point - 1] = n
    return tuple(m), tuple(t)


def faults(verdict):
    return [r.fault for r in verdict.reasons]


def test_a_legal_play_is_named():
    v = judge(START, (6, 1), apply_hops(START, [Hop(13, 7), Hop(8, 7)]))
    assert v.legal and str(v.play) == "13/7 8/7" and not v.reasons


def test_closest_legal_plays_for_a_near_miss():
    seen = apply_hops(START, [Hop(13, 7), Hop(6, 5)])  # 6-1 played as 13/7 6/5 is legal
    assert judge(START, (6, 1), seen).legal
    seen = apply_hops(START, [Hop(13, 7), Hop(8, 6)])  # a 2 instead of the 1
    v = judge(START, (6, 1), seen)
    assert not v.legal
    assert faults(v) == [Fault.NOT_THE_DICE]
    assert "13/7 8/7" in [str(p) for p in v.closest]
    assert 8 in v.points and 6 in v.points


def test_checker_count_changed():
    v = judge(START, (6, 1), edit(START, mine={6: 6}))
    assert Fault.CHECKER_COUNT in faults(v)
    assert "16 checkers" in v.reasons[0].text


def test_opponent_checker_removed():
    v = judge(START, (6, 1), edit(apply_hops(START, [Hop(13, 7), Hop(8, 7)]), theirs={6: 4}))
    assert Fault.CHECKER_COUNT in faults(v)


def test_backwards():
    v = judge(START, (6, 1), edit(START, mine={6: 4, 7: 1}))
    assert faults(v) == [Fault.BACKWARDS]
    assert v.points == (7,)


def test_hit_checker_not_put_on_the_bar():
    before = Position.from_counts({24: 2, 13: 5, 8: 3, 6: 5}, {24: 1, 23: 1, 13: 5, 8: 3, 6: 4, 7: 1})
    after = apply_hops(before, [Hop(24, 18), Hop(24, 20)])  # hits the blot on 18
    assert judge(before, (6, 4), after).legal
    v = judge(before, (6, 4), edit(after, theirs={25: 0}))
    assert faults(v) == [Fault.HIT_NOT_ON_BAR]
    assert v.points == (18,)


def test_moved_while_a_checker_waited_on_the_bar():
    before = Position.from_counts({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, {6: 5, 8: 3, 13: 5, 24: 1, 7: 1})
    v = judge(before, (6, 1), edit(before, mine={13: 4, 7: 1, 8: 2}))
    assert Fault.MOVED_WHILE_ON_BAR in faults(v)
    assert 25 in v.points


def test_landed_on_a_held_point():
    # 6-1 from the start: 24/18 is open, but 13/12 lands on the opponent's 13 (5 checkers)
    v = judge(START, (6, 1), edit(START, mine={13: 4, 12: 1, 24: 1, 18: 1}))
    assert Fault.HELD_POINT in faults(v)
    assert 12 in v.points


def test_fewer_dice_than_possible():
    v = judge(START, (6, 1), apply_hops(START, [Hop(13, 7)]))
    assert faults(v) == [Fault.TOO_FEW_DICE]
    v = judge(START, (6, 1), START)
    assert faults(v) == [Fault.TOO_FEW_DICE] and "no checker was moved" in v.reasons[0].text
    v = judge(START, (2, 2), apply_hops(START, [Hop(13, 11), Hop(13, 11)]))
    assert faults(v) == [Fault.TOO_FEW_DICE] and "2 of the 4" in v.reasons[0].text


def test_lower_die_when_the_higher_was_required():
    before = Position.from_counts({24: 1, 1: 14}, {12: 2, 13: 2, 6: 2, 14: 2})  # only the 6 plays
    assert [str(p) for p in legal_plays(before, (6, 5))] == ["24/18"]
    before = Position.from_counts({24: 1, 1: 14}, {12: 2, 13: 2, 7: 2})
    assert [str(p) for p in legal_plays(before, (6, 5))] == ["24/19"]
    # Here 24/18 (6) then 18/13 (5) is blocked, 24/19 (5) then 19/13 (6) blocked: one die only.
    before = Position.from_counts({24: 1, 1: 14}, {12: 2, 13: 2})
    plays = [str(p) for p in legal_plays(before, (6, 5))]
    assert plays == ["24/18"]
    v = judge(before, (6, 5), apply_hops(before, [Hop(24, 19)]))
    assert faults(v) == [Fault.LOWER_DIE]
    assert "higher one (6)" in v.reasons[0].text


def test_bore_off_with_a_checker_outside():
    before = Position.from_counts({8: 1, 6: 5, 5: 5, 4: 4}, {24: 2, 13: 5, 8: 3, 6: 5})
    v = judge(before, (6, 1), edit(before, mine={6: 4, 8: 0, 7: 1}))
    assert Fault.BORE_OFF_NOT_HOME in faults(v)


def test_no_play_possible_accepts_only_the_unchanged_position():
    before = Position.from_counts({25: 1, 13: 14}, {6: 2, 5: 2})
    assert legal_plays(before, (6, 5)) == []
    assert judge(before, (6, 5), before).legal
    v = judge(before, (6, 5), edit(before, mine={13: 13, 8: 1}))
    assert not v.legal and v.reasons


SAMPLE = sample_positions(random.Random(11), 600)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 599), st.integers(0, 10_000), st.integers(-2, 2))
def test_judge_accepts_exactly_the_results_of_plays(index, pick, nudge):
    position, dice = SAMPLE[index]
    plays = legal_plays(position, dice)
    results = {p.after for p in plays}
    for play in plays:
        verdict = judge(position, dice, play.after)
        assert verdict.legal and verdict.play.after == play.after
    # a nudged checker: legal only if it happens to be another legal result
    base = plays[pick % len(plays)].after if plays else position
    mine = list(base.on_roll)
    occupied = [i for i in range(24) if mine[i]]
    if not occupied or nudge == 0:
        return
    i = occupied[pick % len(occupied)]
    j = i + nudge
    if not 0 <= j < 24:
        return
    mine[i] -= 1
    mine[j] += 1
    seen = (tuple(mine), base.opponent)
    verdict = judge(position, dice, seen)
    as_position = None
    try:
        as_position = Position(*seen)
    except ValueError:
        pass
    assert verdict.legal == (as_position in results or (not plays and as_position == position))
    if not verdict.legal:
        assert verdict.reasons and all(r.text for r in verdict.reasons)
        assert verdict.closest or not plays


def test_a_hit_on_the_way_is_a_hit_not_the_opponent_moving():
    # 6-4: 24/18* hits a blot on 18, then 18/14 goes on; the hit checker is on the bar.
    before = Position.from_counts({24: 2, 13: 5, 8: 3, 6: 5}, {13: 5, 8: 3, 6: 4, 7: 1, 24: 2})
    legal = apply_hops(before, [Hop(24, 18), Hop(18, 14)])
    assert judge(before, (6, 4), legal).legal
    # The same, but 18/13 (a 5): only the numbers are wrong, nothing about the opponent.
    wrong = apply_hops(before, [Hop(24, 18), Hop(18, 13)])
    v = judge(before, (6, 4), wrong)
    assert faults(v) == [Fault.NOT_THE_DICE]
    # Hit on the way and the checker left off the board.
    v = judge(before, (6, 4), edit(legal, theirs={25: 0}))
    assert faults(v) == [Fault.HIT_NOT_ON_BAR] and v.points == (18,)
