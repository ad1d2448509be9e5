"""Who sits where, and so which half each player rolls into.

The one derivation of the seating from the calibrated layout.  Each player sits
behind their own home board and rolls into the half on their own right (seeds,
"Irregularities").  Both home boards lie on the same side of the bar, so the
half on a player's right is the home half for one player and the outer half
for the other.

:class:`vision.geometry.Layout` says how dark's numbering lies on the canonical
plane: the standard picture (dark at the bottom, home boards on the right) is
mirrored when ``not home_right`` and then turned 180° when ``not dark_bottom``.
A turn keeps left and right as a seated player sees them; only the mirror swaps
them.  So ``home_right`` means "the home boards are on dark's right", wherever
dark sits in the image, and ``dark_bottom`` does not enter into it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

HALVES = ("home", "outer")


@dataclass(frozen=True, slots=True)
class Seating:
    """The half on dark's right ("home" or "outer"); light's right is the other half."""

    dark_right: str = "home"

    def __post_init__(self) -> None:
        if self.dark_right not in HALVES:
            raise ValueError(f"the half on dark's right must be 'home' or 'outer', not {self.dark_right!r}")

    @classmethod
    def from_layout(cls, layout: Any) -> Seating:
        """The seating a calibration's layout implies (see the module's text)."""
        return cls("home" if layout.home_right else "outer")

    def right_half(self, player: int) -> str:
        """The half ``player`` (0 dark, 1 light) rolls into."""
        return self.dark_right if player == 0 else self._other(self.dark_right)

    def roller(self, half: str) -> int | None:
        """The player whose right-hand half ``half`` is (None for "off")."""
        if half not in HALVES:
            return None
        return 0 if half == self.dark_right else 1

    def swapped(self) -> Seating:
        """The players in each other's seats."""
        return Seating(self._other(self.dark_right))

    @staticmethod
    def _other(half: str) -> str:
        return "outer" if half == "home" else "home"
