"""Records made from the referee's events: resignations and automatic doubles."""

from engine import legal_plays
from engine.from_events import record_from_events
from engine.game import (
    AcceptResignation, Move, OpeningRoll, RejectResignation, Resign, Roll, Rules, Win, apply_to_match, new_match,
)
from engine.record import RecordedResign
from engine.replay import replay
from engine.sgf import read_sgf, write_sgf


def first_moves(rules):
    m = new_match(rules)
    events = [OpeningRoll((6, 6)), OpeningRoll((3, 1))]
    for e in events:
        m = apply_to_match(m, e)
    play = legal_plays(m.game.position, m.game.dice)[0]
    events.append(Move(0, play.after))
    return events


def test_a_rejected_resignation_is_not_recorded_and_an_accepted_one_is():
    rules = Rules()
    events = first_moves(rules) + [Resign(1, Win.GAMMON), RejectResignation(0), Roll(1, (4, 2)), Resign(1, Win.SINGLE), AcceptResignation(0)]
    record = record_from_events(("Ann", "Bob"), rules, events[:5])
    assert not any(isinstance(a, RecordedResign) for a in record.games[0].actions)
    done = record_from_events(("Ann", "Bob"), rules, events)
    resigns = [a for a in done.games[0].actions if isinstance(a, RecordedResign)]
    assert len(resigns) == 1 and done.games[0].result.winner == 0 and done.games[0].result.resigned


def test_automatic_doubles_set_the_starting_cube():
    rules = Rules(automatic_doubles=1)
    record = record_from_events(("Ann", "Bob"), rules, first_moves(rules))
    assert record.games[0].cube == 2
    assert replay(record).games  # the replay accepts it
    assert read_sgf(write_sgf(record)).games[0].cube == 2
