"""How far the referee trusts a board reading: every threshold it applies to one, with its reason.

The reader gives each point and die a confidence from 0 to 1 (docs/board-spec.md). The referee
acts on a reading only as far as these settings allow; a call that stops play (cocked, wrong
half, illegal) is made only on what vision is sure of, and anything less asks for a look.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True, slots=True)
class Trust:
    """The referee's thresholds on a reading (see ``REASONS`` for why each has its value)."""

    sure: float = 0.6
    unsure_run: int = 3
    near: int = 1


REASONS: dict[str, str] = {
    "sure": (
        "a point's or die's confidence below this is vision unsure: the referee prefers what the rules "
        "allow there and never calls a foul on it. The value is a choice carried over from the reader's "
        "own renders, not yet fitted on material the reader never saw (issue #45)"
    ),
    "unsure_run": (
        "impossible readings (not 15 a side, borne off too early, the other player's checkers moved) in a "
        "row before the players are asked to look: one or two are a shadow or a misread stack, which the "
        "next readings outvote; three settled readings that agree are a board that really changed"
    ),
    "near": (
        "checkers an impossible reading may be off by and still be taken for the board the rules allow: "
        "one checker is the reader's commonest miss (a second layer or a lone checker); more is a real change"
    ),
}

TRUST = Trust()

assert set(REASONS) == {f.name for f in fields(Trust)}, "every threshold has its reason"
