"""The checker-counting benchmark's tally: a reader that sees only the tops of towers scores per point the share of
empty points and lone checkers, and the piles column shows its piles all wrong."""

from __future__ import annotations

from benchmarks.bench_points import Tally


def _board(points: list[int]) -> dict:
    return {"points": points, "bar": {"dark": 0, "light": 0}}


def test_a_reader_counting_the_tops_of_towers_gets_every_pile_wrong_and_says_so() -> None:
    # a lone checker on point 1, towers of 4 (one tower), 7 (two: 4 and 3) and 2 (one) on points 3, 8 and 20
    truth = [1, 0, 4, 0, 0, 0, 0, -7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0]
    tops = [1, 0, 1, 0, 0, 0, 0, -2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]
    tally = Tally()
    tally.add(_board(truth), _board(tops))
    assert (tally.right, tally.points) == (21, 24)  # the 20 empty points and the lone checker
    assert (tally.piles_right, tally.piles) == (0, 3)
    assert tally.exact == 0
    assert tally.row() == "87.50% | 0.0% (0/3) | 0.0% (0/1)"


def test_piles_count_only_points_of_two_or_more_and_an_unread_board_reads_none() -> None:
    truth = [2, 0, 0, 0, 0, -5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, -12]
    read = list(truth)
    read[23] = None  # point 24 left unread: wrong
    tally = Tally()
    tally.add(_board(truth), _board(read))
    tally.add(_board(truth), None)  # no reading at all: its three piles count, none right
    assert (tally.piles_right, tally.piles) == (2, 6)
    assert (tally.right, tally.points, tally.exact, tally.boards) == (23, 48, 0, 2)
