"""Pure backgammon rules: positions, legal plays, judgement, cube and match flow.

No I/O, no clock, no randomness, no third-party imports.
"""

from .colour import Colour
from .game import Rules
from .ids import MatchId, Xgid
from .judge import Verdict, judge
from .mat import read_mat, write_mat
from .plays import Hop, Play, PlayError, apply_hops, format_hops, legal_plays, parse_play
from .position import BAR, OFF, Position, PositionError, Problem
from .replay import replay
from .sgf import read_sgf, write_sgf

__all__ = [
    "BAR",
    "Colour",
    "OFF",
    "Hop",
    "MatchId",
    "Play",
    "PlayError",
    "Position",
    "PositionError",
    "Problem",
    "Rules",
    "Verdict",
    "Xgid",
    "apply_hops",
    "format_hops",
    "judge",
    "legal_plays",
    "parse_play",
    "read_mat",
    "read_sgf",
    "replay",
    "write_mat",
    "write_sgf",
]
