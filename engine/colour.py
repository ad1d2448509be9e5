"""The players' colours, and the engine's numbers for them.

Everything outside the engine names a player by colour (a reading's ``bar.dark``, a call's
``"player": "light"``, the LEDs' sides); the engine counts them 0 and 1 because its
arithmetic needs it (``1 - player``, ``sides[player]``).  :attr:`Colour.player` and
:meth:`Colour.of_player` are the one mapping between the two.  Colour lives here, in the
innermost package, so that vision, the bridge and the referee share the engine's.
"""

from __future__ import annotations

from enum import StrEnum


class Colour(StrEnum):
    """A player's colour: dark (olive inlay, player 0, moves 24 → 1) or light (player 1).

    A ``StrEnum``: it is its own JSON form (``"dark"``, ``"light"``) and compares equal to it."""

    DARK = "dark"
    LIGHT = "light"

    @property
    def player(self) -> int:
        """The engine's player number: 0 for dark, 1 for light."""
        return 0 if self is Colour.DARK else 1

    @property
    def other(self) -> Colour:
        return Colour.LIGHT if self is Colour.DARK else Colour.DARK

    @classmethod
    def of_player(cls, player: int) -> Colour:
        """The colour of the engine's player ``player`` (0 or 1)."""
        if player not in (0, 1):
            raise ValueError(f"a player is 0 (dark) or 1 (light), not {player!r}")
        return cls.DARK if player == 0 else cls.LIGHT


COLOURS = (Colour.DARK, Colour.LIGHT)  # by the engine's player number: COLOURS[player] is Colour.of_player(player)

__all__ = ["COLOURS", "Colour"]
