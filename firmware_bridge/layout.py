"""Names of the LEDs on the board and where each one sits on the WS2812 strip.

Points are dark's numbering 1..24 (see ``docs/board-spec.md``); the bar has one
LED per colour, ``"bar-dark"`` and ``"bar-light"``.  The strip runs once round the frame
(``hardware/README.md``, "LED index map"): along dark's edge from dark's left, up the
right-hand rail (dark's turn light, cube ladder), and back along light's edge.  Which
points lie under which LEDs depends on the side the players chose for the home boards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .errors import InvalidSignalError, InvalidSpotError

Side = Literal["dark", "light"]
HomeSide = Literal["right", "left"]
DarkEdge = Literal["start", "end"]
ImageEdge = Literal["bottom", "top"]
Spot = int | str  # a point 1..24 or "bar-dark" / "bar-light"

SIDES: tuple[Side, ...] = ("dark", "light")
CUBE_VALUES: tuple[int, ...] = (2, 4, 8, 16, 32, 64)
BARS: tuple[str, ...] = ("bar-dark", "bar-light")
POINT_LEDS: tuple[str, ...] = tuple(str(n) for n in range(1, 25))
LED_NAMES: tuple[str, ...] = (
    POINT_LEDS
    + BARS
    + ("turn-dark", "turn-light")
    + tuple("cube-%d" % v for v in CUBE_VALUES)
    + ("cube-owner-dark", "cube-owner-light")
)
LED_COUNT = len(LED_NAMES)


def spot_led(spot: Spot) -> str:
    """LED name of a point (1..24, also as text) or a bar name; InvalidSpotError otherwise."""
    text = str(spot).strip().lower()
    if text in BARS or text in POINT_LEDS:
        return text
    raise InvalidSpotError(
        "%r is not a point: use 1..24 (dark's numbering) or 'bar-dark' / 'bar-light'" % (spot,)
    )


def parse_spots(text: str) -> tuple[str, ...]:
    """LED names from a comma-separated list such as ``"13,7,bar-dark"``."""
    return tuple(spot_led(part) for part in text.split(",") if part.strip())


def check_side(side: str) -> Side:
    """``side`` if it is "dark" or "light"; InvalidSpotError otherwise."""
    if side == "dark":
        return "dark"
    if side == "light":
        return "light"
    raise InvalidSignalError("%r is not a side: use 'dark' or 'light'" % (side,))


@dataclass(frozen=True, slots=True)
class Layout:
    """Strip order for one seating: the side of the home boards (seen from dark's seat) and the
    edge of the frame dark sits at: ``"start"``, the edge the strip begins along (pixels 0-12, the
    wiring of hardware/README.md), or ``"end"``, the edge it comes back along (pixels 23-35)."""

    home: HomeSide = "right"
    dark_edge: DarkEdge = "start"

    @classmethod
    def seen(cls, home_right: bool, dark_bottom: bool, strip_start: ImageEdge = "bottom") -> Layout:
        """The layout for a calibration's seating (``vision.geometry.Layout``: home boards on dark's
        right, dark at the bottom of the image) and the edge of the camera image the strip's first
        pixels run along (``"bottom"``, or ``"top"`` for a camera turned 180 degrees)."""
        if strip_start not in ("bottom", "top"):
            raise InvalidSignalError("%r is not an edge of the image: use 'bottom' or 'top'" % (strip_start,))
        near_start = dark_bottom == (strip_start == "bottom")
        return cls("right" if home_right else "left", "start" if near_start else "end")

    @property
    def order(self) -> tuple[str, ...]:
        """LED names in strip order: index i of the tuple is pixel i of the strip."""
        # dark's row from dark's left, light's row from dark's right: whichever edge dark sits at,
        # the strip runs past dark's row from dark's left (start edge, rail on dark's right, or end
        # edge coming off the rail on dark's left) and past light's row from dark's right
        dark_row = _row(range(12, 0, -1) if self.home == "right" else range(1, 13), "bar-dark")
        light_row = _row(range(24, 12, -1) if self.home == "right" else range(13, 25), "bar-light")
        near, far = ("dark", "light") if self.dark_edge == "start" else ("light", "dark")
        rail = ("turn-" + near, "cube-owner-" + near) + tuple("cube-%d" % v for v in CUBE_VALUES)
        rail += ("cube-owner-" + far, "turn-" + far)
        if self.dark_edge == "start":
            return dark_row + rail + light_row
        return light_row + rail + dark_row

    def index(self, name: str) -> int:
        """Strip index of an LED name."""
        return self.order.index(name)


def _row(points: range, bar: str) -> tuple[str, ...]:
    names = [str(n) for n in points]
    return tuple(names[:6]) + (bar,) + tuple(names[6:])
