"""The Pi's own I/O through gpiozero: four debounced buttons and the RGB status LED.

Nothing here opens a pin at import or in a constructor: :func:`open_buttons` and
:func:`open_status_led` create the gpiozero devices (gpiozero picks lgpio on a Pi 5,
RPi.GPIO or lgpio on a Pi 4; pass ``gpiozero.pins.mock.MockFactory()`` in tests), and
:class:`ButtonPanel` / :class:`StatusLight` receive them.  Debouncing is a pure state
machine fed by timestamps from an injected clock.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from .leds import Pattern
from .signals import Look

BUTTONS: tuple[str, ...] = ("accept", "take-back", "mode", "new-game")
DEBOUNCE_SECONDS = 0.03


@dataclass(frozen=True, slots=True)
class PinMap:
    """BCM GPIO numbers (hardware/README.md, wiring table)."""

    accept: int = 5
    take_back: int = 6
    mode: int = 13
    new_game: int = 19
    status_red: int = 17
    status_green: int = 27
    status_blue: int = 22

    def button_pins(self) -> dict[str, int]:
        """Button name -> BCM pin."""
        return {"accept": self.accept, "take-back": self.take_back, "mode": self.mode, "new-game": self.new_game}


@dataclass(frozen=True, slots=True)
class Debounce:
    """One input's debouncing state: the stable level and the raw level since when."""

    stable: bool = False
    raw: bool = False
    since: float = 0.0

    def step(self, t: float, raw: bool, hold: float = DEBOUNCE_SECONDS) -> tuple[Debounce, bool | None]:
        """The state after seeing level ``raw`` at ``t``, and the new stable level if it changed."""
        settled, change = self, None
        if self.raw != self.stable and t - self.since >= hold:
            settled, change = replace(self, stable=self.raw), self.raw
        if raw != settled.raw:
            settled = replace(settled, raw=raw, since=t)
        return settled, change


@dataclass(frozen=True, slots=True)
class ButtonPress:
    """A debounced press."""

    button: str
    at: float


class ButtonPanel:
    """Debounced presses of the referee's buttons.

    ``buttons`` maps names (:data:`BUTTONS`) to gpiozero ``Button`` objects created with
    ``bounce_time=None``; their edges are time-stamped by ``clock`` and debounced in
    :meth:`poll`.
    """

    def __init__(self, buttons: Mapping[str, Any], clock: Callable[[], float], hold: float = DEBOUNCE_SECONDS) -> None:
        self._buttons = dict(buttons)  # keep the devices alive (gpiozero closes collected ones)
        self._clock = clock
        self._hold = hold
        self._edges: deque[tuple[str, float, bool]] = deque()
        self._state = {name: Debounce() for name in buttons}
        for name, button in buttons.items():
            button.when_pressed = self._recorder(name, True)
            button.when_released = self._recorder(name, False)

    def close(self) -> None:
        """Close the buttons' pins."""
        for button in self._buttons.values():
            button.close()

    def _recorder(self, name: str, level: bool) -> Callable[[], None]:
        return lambda: self._edges.append((name, self._clock(), level))

    def poll(self) -> list[ButtonPress]:
        """Presses confirmed since the last poll, oldest first."""
        presses: list[ButtonPress] = []
        while self._edges:
            name, t, level = self._edges.popleft()
            presses += self._step(name, t, level)
        now = self._clock()
        for name, state in list(self._state.items()):
            presses += self._step(name, now, state.raw)
        return presses

    def _step(self, name: str, t: float, level: bool) -> list[ButtonPress]:
        before = self._state[name]
        self._state[name], change = before.step(t, level, self._hold)
        return [ButtonPress(name, before.since)] if change else []


class StatusLight:
    """The RGB status LED showing a :class:`Look`; :meth:`tick` animates its pattern."""

    def __init__(self, led: Any, clock: Callable[[], float]) -> None:
        self._led = led
        self._clock = clock
        self._look: Look | None = None

    def show(self, look: Look) -> None:
        """Show ``look`` from now on."""
        self._look = look
        self.tick()

    def tick(self) -> tuple[int, int, int]:
        """Set the LED for the current instant and return the (r, g, b) levels 0/1."""
        look = self._look
        on = look is not None and look.pattern != Pattern.OFF and look.pattern.is_on(int(self._clock() * 1000))
        colour = tuple(int(c > 0) for c in look.colour.rgb) if on and look else (0, 0, 0)
        self._led.color = colour
        return colour  # type: ignore[return-value]


def open_buttons(pins: PinMap = PinMap(), pin_factory: Any = None) -> dict[str, Any]:
    """gpiozero Buttons (to ground, internal pull-up, no gpiozero debounce) by name."""
    from gpiozero import Button

    return {
        name: Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
        for name, pin in pins.button_pins().items()
    }


def open_status_led(pins: PinMap = PinMap(), pin_factory: Any = None, common_anode: bool = True) -> Any:
    """The gpiozero RGBLED of the status light (on/off per channel, no PWM)."""
    from gpiozero import RGBLED

    return RGBLED(
        pins.status_red, pins.status_green, pins.status_blue,
        active_high=not common_anode, pwm=False, pin_factory=pin_factory,
    )
