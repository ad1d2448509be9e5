"""Immutable LED values: colours, blink patterns, one light, the whole board's state."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Protocol

from . import protocol
from .errors import InvalidSpotError
from .layout import LED_NAMES, Layout


class Pattern(IntEnum):
    """Blink patterns; the values are the wire codes of :mod:`firmware_bridge.protocol`."""

    OFF = protocol.OFF
    SOLID = protocol.SOLID
    BLINK_FAST = protocol.BLINK_FAST
    BLINK_SLOW = protocol.BLINK_SLOW
    DOUBLE = protocol.DOUBLE
    TRIPLE = protocol.TRIPLE

    @property
    def label(self) -> str:
        """Human name, e.g. ``"blink-fast"``."""
        return self.name.lower().replace("_", "-")

    def is_on(self, t_ms: int) -> bool:
        """Whether a light with this pattern is lit at ``t_ms``."""
        return bool(protocol.pattern_on(int(self), t_ms))


@dataclass(frozen=True, slots=True)
class Colour:
    """A named 8-bit RGB colour."""

    name: str
    r: int
    g: int
    b: int

    @property
    def rgb(self) -> tuple[int, int, int]:
        """(r, g, b) as a tuple."""
        return (self.r, self.g, self.b)


DARK = Colour("dark", 0, 0, 0)
RED = Colour("red", 255, 0, 0)
GREEN = Colour("green", 0, 255, 0)
BLUE = Colour("blue", 0, 0, 255)
AMBER = Colour("amber", 255, 110, 0)
WHITE = Colour("white", 255, 255, 255)


@dataclass(frozen=True, slots=True)
class Light:
    """What one LED shows: a colour and a blink pattern."""

    colour: Colour = DARK
    pattern: Pattern = Pattern.OFF

    @property
    def lit(self) -> bool:
        """Whether the light is ever on."""
        return self.pattern != Pattern.OFF and self.colour != DARK

    def is_on(self, t_ms: int) -> bool:
        """Whether the light is on at ``t_ms``."""
        return self.lit and self.pattern.is_on(t_ms)


OFF_LIGHT = Light()


@dataclass(frozen=True, slots=True)
class LedState:
    """The whole board's LEDs, in :data:`~firmware_bridge.layout.LED_NAMES` order."""

    lights: tuple[Light, ...] = (OFF_LIGHT,) * len(LED_NAMES)
    brightness: int = 96

    def __getitem__(self, name: str) -> Light:
        return self.lights[_index(name)]

    def with_lights(self, changes: Mapping[str, Light]) -> LedState:
        """A copy with some lights replaced."""
        lights = list(self.lights)
        for name, light in changes.items():
            lights[_index(name)] = light
        return replace(self, lights=tuple(lights))

    def lit(self) -> dict[str, Light]:
        """The lights that are not dark, by LED name."""
        return {n: light for n, light in zip(LED_NAMES, self.lights) if light.lit}

    def pixels(self, layout: Layout) -> list[tuple[int, int, int, int]]:
        """(r, g, b, pattern) per strip index, ready for :func:`protocol.encode_state`."""
        return [_pixel(self[name]) for name in layout.order]


def _pixel(light: Light) -> tuple[int, int, int, int]:
    if not light.lit:
        return (0, 0, 0, protocol.OFF)
    return light.colour.rgb + (int(light.pattern),)


def _index(name: str) -> int:
    try:
        return LED_NAMES.index(name)
    except ValueError:
        raise InvalidSpotError("%r is not an LED of the board" % (name,)) from None


class LedSink(Protocol):
    """Anything that shows a whole-board LED state (controller link, simulated board)."""

    def show(self, state: LedState) -> None:
        """Show ``state`` from now on."""
