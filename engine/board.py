"""The board as the camera sees it (``docs/board-spec.md``) and positions.

A board reading numbers points 1-24 from dark's side; ``points[i]`` is dark's
point ``i + 1``, positive for dark checkers and negative for light.  Dark is
player 0 and light player 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .colour import Colour
from .position import CHECKERS, Position

DARK = Colour.DARK.player  # the engine's numbers for the colours (engine.colour)
LIGHT = Colour.LIGHT.player


@dataclass(frozen=True, slots=True)
class Board:
    """Checkers by colour in dark's numbering: ``points`` signed as in a board
    reading, ``bar`` as (dark, light).  It may be impossible (a raw reading)."""

    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)

    def to_reading(self) -> dict[str, Any]:
        """The checker fields of a board-spec JSON reading (``off`` by subtraction); a reading is read
        back, checked, by ``vision.reading.Reading.from_json``."""
        dark_on = sum(n for n in self.points if n > 0) + self.bar[0]
        light_on = -sum(n for n in self.points if n < 0) + self.bar[1]
        return {
            "points": list(self.points),
            "bar": {"dark": self.bar[0], "light": self.bar[1]},
            "off": {"dark": CHECKERS - dark_on, "light": CHECKERS - light_on},
        }

    def sides(self, player: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(player's side, opponent's side), each in its own numbering, unchecked."""
        dark = [max(n, 0) for n in self.points] + [self.bar[0]]
        # light's point n is dark's point 25 - n
        light = [max(-n, 0) for n in reversed(self.points)] + [self.bar[1]]
        return (tuple(dark), tuple(light)) if player == DARK else (tuple(light), tuple(dark))

    def position(self, player: int) -> Position:
        """The position with ``player`` on roll; raises PositionError if impossible."""
        mine, theirs = self.sides(player)
        return Position(mine, theirs)

    @classmethod
    def from_position(cls, position: Position, player: int) -> Board:
        """The board of a position in which ``player`` is on roll."""
        mine, theirs = position.on_roll, position.opponent
        dark, light = (mine, theirs) if player == DARK else (theirs, mine)
        points = tuple(dark[i] - light[23 - i] for i in range(24))
        return cls(points, (dark[24], light[24]))

    def mirrored(self) -> Board:
        """The same game with the colours exchanged (dark's checkers become light's)."""
        return Board(tuple(-n for n in reversed(self.points)), (self.bar[1], self.bar[0]))
