"""Pure backgammon rules: positions, legal plays, judgement, cube and match flow.

No I/O, no clock, no randomness, no third-party imports.
"""

from .plays import Hop, Play, PlayError, apply_hops, format_hops, legal_plays, play_for
from .position import BAR, OFF, Position, PositionError, Problem

__all__ = [
    "BAR",
    "OFF",
    "Hop",
    "Play",
    "PlayError",
    "Position",
    "PositionError",
    "Problem",
    "apply_hops",
    "format_hops",
    "legal_plays",
    "play_for",
]
