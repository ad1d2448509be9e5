"""Cross-check against GNU Backgammon on self-played positions (needs the gnubg package).

The full check over 20,000 positions is `benchmarks/crosscheck_gnubg.py`; the
suite runs 2,000.  gnubg's move tuples stop at the first bear-off, so positions
where a play bears off are compared through gnubg's complete `hint` text.
"""

import random

import pytest

from engine import legal_plays
from engine.selfplay import sample_positions

gnubg_link = pytest.importorskip("referee.gnubg_link")
if not gnubg_link.available():
    pytest.skip("the gnubg package is not installed (x86-64 wheels only)", allow_module_level=True)


SAMPLE = sample_positions(random.Random(2026), 2000)


@pytest.mark.parametrize("chunk", range(4))
def test_same_resulting_positions_as_gnubg(chunk):
    for position, dice in SAMPLE[chunk::4]:
        ours = {p.after for p in legal_plays(position, dice)}
        assert ours == gnubg_link.legal_results(position, dice), f"{position.id()} {dice}"


def test_same_notation_as_gnubg():
    gnubg = gnubg_link.require()
    checked = 0
    for position, dice in SAMPLE[:400]:
        moves = gnubg_link.find_moves(position, dice)
        if any(len(m) % 2 or 0 in m[1::2] for m in moves):
            continue
        ours = sorted(str(p) for p in legal_plays(position, dice))
        theirs = sorted(gnubg.movetupletostring(m, position.gnubg_board()) for m in moves)
        assert ours == theirs, position.id()
        checked += 1
    assert checked > 300
