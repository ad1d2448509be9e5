"""The set and the game as the world has them, written by hand from board-spec.md.

Nothing here is taken from the product.  Board frame: millimetres, origin at the
board's centre, +x "east" along the long side, +y "north", +z up.  The camera and
the players sit around it; which is where is a :class:`Seating`.
"""

from __future__ import annotations

from dataclasses import dataclass

# --- the set (board-spec.md, "Medium size") ---------------------------------------------
WIDTH, DEPTH = 480.0, 340.0  # outer size
FRAME = 20.0  # frame width
BAR = 30.0  # bar ridge width
HALF_W = (WIDTH - 2 * FRAME - BAR) / 2  # 205: one half of the playing surface
SURFACE_D = DEPTH - 2 * FRAME  # 300
POINT_W = HALF_W / 6  # ~34
POINT_L = 125.0
CHECKER_D, CHECKER_T = 30.0, 7.0
DIE, CUBE = 16.0, 20.0
RIM_H = 10.0  # how far frame and bar ridge stand above the leather (not in the spec: a guess)

EAST, WEST = "east", "west"
SOUTH, NORTH = "south", "north"


@dataclass(frozen=True, slots=True)
class Seating:
    """Where the home boards are (east or west half) and where dark sits (south or north long side).
    Light sits opposite dark."""

    home: str = EAST
    dark_seat: str = SOUTH

    @property
    def light_seat(self) -> str:
        return NORTH if self.dark_seat == SOUTH else SOUTH

    def seat(self, colour: str) -> str:
        return self.dark_seat if colour == "dark" else self.light_seat

    def right_half(self, colour: str) -> str:
        """The half on a seated player's right hand, "home" or "outer".

        Someone sitting at the south edge faces north: their right hand is east.
        Someone at the north edge faces south: their right hand is west.

                     north (facing south: right hand -> west)
                 +----------------+----------------+
            west |   13..18 / ..  |  .. 19..24     | east
                 |                |                |
                 |    7..12       |     1..6       |
                 +----------------+----------------+
                     south (facing north: right hand -> east)
            (drawn for dark at south with home east: dark's right = east = home)
        """
        right = EAST if self.seat(colour) == SOUTH else WEST
        return "home" if right == self.home else "outer"


def half_x_sign(seating: Seating, half: str) -> int:
    """+1 when ``half`` ("home"/"outer") is the east half, -1 when west."""
    east_is_home = seating.home == EAST
    return 1 if (half == "home") == east_is_home else -1


def side_y_sign(seating: Seating, colour: str) -> int:
    """+1 when ``colour`` sits north, -1 south."""
    return 1 if seating.seat(colour) == NORTH else -1


def point_frame(seating: Seating, point: int) -> tuple[float, float, float]:
    """Dark's point 1..24: (x of its centre line, y of its base at the frame, +-1 pointing inward).

    Dark's home 1..6 is on dark's side in the home half, 1 at the outer end, 6 by the bar;
    7..12 dark's side in the outer half from the bar outwards; 13..18 the far side, outer
    half, from its outer end to the bar; 19..24 the far side, home half, from the bar out.
    """
    if not 1 <= point <= 24:
        raise ValueError(f"no point {point}")
    if point <= 6:
        half, colour, k = "home", "dark", 6 - point  # k: 0 by the bar .. 5 at the outer end
    elif point <= 12:
        half, colour, k = "outer", "dark", point - 7
    elif point <= 18:
        half, colour, k = "outer", "light", 18 - point
    else:
        half, colour, k = "home", "light", point - 19
    sx = half_x_sign(seating, half)
    sy = side_y_sign(seating, colour)
    x = sx * (BAR / 2 + POINT_W * (k + 0.5))
    y_base = sy * SURFACE_D / 2
    return x, y_base, -sy


def half_at(seating: Seating, x: float, y: float) -> str:
    """Which half a spot on the board is in, as the reading contract names it."""
    if abs(y) > SURFACE_D / 2 or abs(x) < BAR / 2 or abs(x) > WIDTH / 2 - FRAME:
        return "off"
    return "home" if (x > 0) == (seating.home == EAST) else "outer"


# --- the game -----------------------------------------------------------------------------
START = {24: 2, 13: 5, 8: 3, 6: 5}  # dark's start, in dark's numbers (board-spec.md)


@dataclass(frozen=True, slots=True)
class Position:
    """Checkers per point in dark's numbers (+ dark, - light), on the bar and borne off."""

    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)  # dark, light

    @staticmethod
    def start() -> "Position":
        pts = [0] * 24
        for p, n in START.items():
            pts[p - 1] += n
            pts[24 - p] -= n  # light's point p is dark's 25-p
        return Position(tuple(pts))

    def count(self, colour: str) -> int:
        sign = 1 if colour == "dark" else -1
        on = sum(n * sign for n in self.points if n * sign > 0)
        return on + self.bar[0 if colour == "dark" else 1]

    def off(self, colour: str) -> int:
        return 15 - self.count(colour)

    def move(self, colour: str, src: int, dst: int) -> "Position":
        """One checker of ``colour`` from ``src`` to ``dst`` in the mover's own numbers
        (25 = bar, 0 = off), hitting a lone opponent.  Refuses what the board cannot do."""
        sign = 1 if colour == "dark" else -1
        me = 0 if colour == "dark" else 1
        pts, bar = list(self.points), list(self.bar)

        def idx(p: int) -> int:  # the mover's point p as an index into dark's numbering
            return p - 1 if colour == "dark" else 24 - p

        if src == 25:
            if bar[me] <= 0:
                raise ValueError(f"{colour} has no checker on the bar")
            bar[me] -= 1
        else:
            if pts[idx(src)] * sign <= 0:
                raise ValueError(f"{colour} has no checker on its point {src}")
            pts[idx(src)] -= sign
        if dst != 0:
            i = idx(dst)
            if pts[i] * sign < 0:
                if abs(pts[i]) > 1:
                    raise ValueError(f"{colour}'s point {dst} is blocked")
                pts[i] = 0
                bar[1 - me] += 1
            pts[i] += sign
        return Position(tuple(pts), (bar[0], bar[1]))

    def play(self, colour: str, moves: list[tuple[int, int]]) -> "Position":
        pos = self
        for src, dst in moves:
            pos = pos.move(colour, src, dst)
        return pos
