"""The journal survives a crash: every event before a torn tail is kept."""

import random

import pytest

from engine import legal_plays
from engine.game import Move, OpeningRoll, Phase, Roll, Rules, apply_to_match, new_match
from referee.core import Mode, Settings
from referee.journal import Journal, JournalError, entry_event, event_entry, recover

SETTINGS = Settings(rules=Rules(match_length=5), players=("Ann", "Bob"), mode=Mode.TEACH)


def some_events(n, seed=4):
    rng = random.Random(seed)
    match = new_match(SETTINGS.rules)
    events = []
    while len(events) < n:
        g = match.game
        if g.phase is Phase.OPENING:
            e = OpeningRoll((rng.randint(1, 6), rng.randint(1, 6)))
        elif g.phase is Phase.ROLL:
            e = Roll(g.turn, (rng.randint(1, 6), rng.randint(1, 6)))
        else:
            plays = legal_plays(g.position, g.dice)
            e = Move(g.turn, plays[rng.randint(0, len(plays) - 1)].after if plays else g.position)
        match = apply_to_match(match, e)
        events.append(e)
    return events, match


def test_events_round_trip(tmp_path):
    events, _ = some_events(80)
    for e in events:
        assert entry_event(event_entry(e)) == e
    path = tmp_path / "match.journal"
    j = Journal.create(path, SETTINGS)
    for e in events:
        j.append(e)
    j.close()
    rec = recover(path)
    assert rec.settings == SETTINGS and list(rec.events) == events and rec.dropped_lines == 0


@pytest.mark.parametrize("cut", [1, 7, 30])
def test_a_torn_tail_is_set_aside_and_appending_goes_on(tmp_path, cut):
    events, _ = some_events(40)
    path = tmp_path / "match.journal"
    j = Journal.create(path, SETTINGS)
    for e in events:
        j.append(e)
    j.close()
    data = path.read_bytes()
    path.write_bytes(data[:-cut])  # power cut in the middle of the last line
    j2, rec = Journal.reopen(path)
    assert list(rec.events) == events[:-1] and rec.dropped_lines == 1 and rec.set_aside.exists()
    j2.append(events[-1])
    j2.close()
    assert list(recover(path).events) == events


def test_a_corrupt_line_stops_the_read_there(tmp_path):
    events, _ = some_events(10)
    path = tmp_path / "match.journal"
    j = Journal.create(path, SETTINGS)
    for e in events:
        j.append(e)
    j.close()
    lines = path.read_text().splitlines(keepends=True)
    lines[5] = lines[5].replace('"player":0', '"player":1').replace('"player":1', '"player":0', 0)
    lines[5] = lines[5][:20] + "X" + lines[5][21:]
    path.write_text("".join(lines))
    rec = recover(path)
    assert len(rec.events) == 4 and rec.dropped_lines == len(lines) - 5


def test_not_a_journal(tmp_path):
    path = tmp_path / "x.journal"
    path.write_text("hello\n")
    with pytest.raises(JournalError, match="not a bgref match journal"):
        recover(path)
    with pytest.raises(FileExistsError):
        Journal.create(path, SETTINGS)
