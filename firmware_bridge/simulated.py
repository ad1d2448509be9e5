"""A simulated LED board: shows in a terminal, and as JSON, what the LEDs would do."""

from __future__ import annotations

import json
from typing import Any

from .layout import LED_NAMES, Layout
from .leds import LedState, Light, Pattern

_PATTERN_MARK = {
    Pattern.OFF: "",
    Pattern.SOLID: "",
    Pattern.BLINK_FAST: "!",
    Pattern.BLINK_SLOW: "~",
    Pattern.DOUBLE: "2",
    Pattern.TRIPLE: "3",
}


class SimulatedBoard:
    """An LED sink without hardware: records every state it is shown."""

    def __init__(self, layout: Layout = Layout()) -> None:
        self.layout = layout
        self.states: list[LedState] = []

    @property
    def current(self) -> LedState:
        """The last state shown (all dark before the first)."""
        return self.states[-1] if self.states else LedState()

    def show(self, state: LedState) -> None:
        """Record ``state``."""
        self.states.append(state)

    def assert_states(self, expected: list[LedState]) -> None:
        """Raise AssertionError unless exactly ``expected`` were shown, in order."""
        if self.states != expected:
            raise AssertionError("shown %d states, expected %d: %r" % (len(self.states), len(expected), self.states))

    def text(self) -> str:
        """The current state drawn as the board seen from dark's seat."""
        return render_text(self.current, self.layout)

    def json(self, t_ms: int | None = None) -> str:
        """The current state as JSON (``on`` per LED when ``t_ms`` is given)."""
        return json.dumps(state_dict(self.current, t_ms))


def light_dict(light: Light, t_ms: int | None = None) -> dict[str, Any]:
    """One LED as a JSON-ready dict."""
    out: dict[str, Any] = {"colour": light.colour.name, "rgb": list(light.colour.rgb), "pattern": light.pattern.label}
    if not light.lit:
        out = {"colour": "dark", "rgb": [0, 0, 0], "pattern": "off"}
    if t_ms is not None:
        out["on"] = light.is_on(t_ms)
    return out


def state_dict(state: LedState, t_ms: int | None = None) -> dict[str, Any]:
    """The whole board as a JSON-ready dict keyed by LED name."""
    leds = {name: light_dict(state[name], t_ms) for name in LED_NAMES}
    return {"brightness": state.brightness, "leds": leds}


def cell(light: Light) -> str:
    """Short code of one LED: colour initial and pattern mark, '.' when dark."""
    if not light.lit:
        return "."
    return light.colour.name[0].upper() + _PATTERN_MARK[light.pattern]


def render_text(state: LedState, layout: Layout = Layout()) -> str:
    """The board as text: light's edge on top, dark's edge below, rail on the right."""
    order = layout.order
    top, bottom = order[35:22:-1], order[0:13]
    rail = order[13:23]
    far, near = ("light's edge ", "dark's edge  ") if layout.dark_edge == "start" else ("dark's edge  ", "light's edge ")
    lines = [
        far + _row(top, lambda n: n, state),
        "             " + _row(top, None, state),
        "             " + _row(bottom, None, state),
        near + _row(bottom, lambda n: n, state),
        "rail         " + "  ".join("%s=%s" % (_short(n), cell(state[n])) for n in rail),
        "legend: R red, G green, B blue, A amber, W white; ! fast blink, ~ slow blink, "
        "2 double flash, 3 triple flash, no mark = steady",
    ]
    lines += ["  %-16s %s %s" % (n, light.colour.name, light.pattern.label) for n, light in state.lit().items()]
    return "\n".join(lines)


def _row(names: tuple[str, ...], label: Any, state: LedState) -> str:
    if label is not None:
        return " ".join("%3s" % ("bar" if n.startswith("bar") else n) for n in names)
    return " ".join("%3s" % cell(state[n]) for n in names)


def _short(name: str) -> str:
    return name.replace("cube-owner-", "own-").replace("turn-", "turn-")
