"""What the referee tells the players, and how each message looks on the board.

The referee calls :class:`Signals` (``illegal_play``, ``your_turn`` ...), never raw LEDs;
a signal passed on as a value is a :class:`SignalKind`, given by :meth:`Signals.show`.
:data:`SIGNAL_TABLE` is the one place where colours and patterns are chosen.  Every
signal differs from the others by pattern or place as well as by colour, so that a
colour-blind player can read it (``hardware/README.md`` prints the same table).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Protocol

from .errors import InvalidSignalError
from .layout import BARS, CUBE_VALUES, Side, check_side, spot_led
from .leds import AMBER, BLUE, GREEN, OFF_LIGHT, RED, WHITE, Colour, LedSink, LedState, Light, Pattern


class SignalKind(StrEnum):
    """What the referee can tell the players; each value names the :class:`Signals` method
    that shows it.  A name that is none of these is refused (``SignalKind("look")`` raises)."""

    ILLEGAL_PLAY = "illegal_play"
    PLAY_ACCEPTED = "play_accepted"
    YOUR_TURN = "your_turn"
    REROLL_NEEDED = "reroll_needed"
    TEACHING = "teaching"
    LOOK_NEEDED = "look_needed"
    CUBE = "cube"
    CAMERA_FAULT = "camera_fault"
    SETUP_NEEDED = "setup_needed"
    CONTROLLER_FAULT = "controller_fault"
    CLEAR = "clear"


@dataclass(frozen=True, slots=True)
class Look:
    """One row of the signal table."""

    signal: str
    where: str
    colour: Colour
    pattern: Pattern
    meaning: str

    @property
    def light(self) -> Light:
        """The LED setting of this look."""
        return Light(self.colour, self.pattern)


_LOOKS = (
    Look("illegal", "the offending points; every other LED dark", RED, Pattern.BLINK_FAST,
         "illegal play: put the checkers on the blinking points back"),
    Look("accepted", "the points of the play: two flashes within one second", GREEN, Pattern.DOUBLE,
         "play accepted"),
    Look("turn", "the seat light of the player to play", WHITE, Pattern.SOLID,
         "your turn"),
    Look("reroll", "the roller's seat light and both bar LEDs", AMBER, Pattern.DOUBLE,
         "roll again: a die is cocked or landed in the wrong half"),
    Look("teach-source", "points the player may move from", GREEN, Pattern.SOLID,
         "teaching: legal source points"),
    Look("teach-destination", "where the lifted checker may go", BLUE, Pattern.BLINK_SLOW,
         "teaching: destinations of the lifted checker"),
    Look("look", "the points in doubt (both bar LEDs when none is known)", AMBER, Pattern.TRIPLE,
         "please look: the camera cannot tell what was played; settle it at the board"),
    Look("cube-value", "one of the six cube LEDs 2..64", WHITE, Pattern.SOLID,
         "value of the doubling cube"),
    Look("cube-owner", "owner light on the owner's side of the cube ladder", WHITE, Pattern.SOLID,
         "who owns the cube"),
    Look("camera-fault", "both seat lights and both bar LEDs; points dark", WHITE, Pattern.TRIPLE,
         "the camera cannot see the board"),
    Look("setup", "both bar LEDs and both seat lights; points dark", BLUE, Pattern.BLINK_SLOW,
         "put the checkers in the start position: the referee learns the board from it"),
    Look("status-ok", "Pi status LED", GREEN, Pattern.SOLID, "referee running"),
    Look("status-controller-fault", "Pi status LED", RED, Pattern.BLINK_FAST,
         "LED controller missing or not answering"),
    Look("status-camera-fault", "Pi status LED", AMBER, Pattern.TRIPLE, "camera fault"),
)
SIGNAL_TABLE: dict[str, Look] = {look.signal: look for look in _LOOKS}
ACCEPTED_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class Cube:
    """The doubling cube: value 1..64 and owner (None = centred)."""

    value: int = 1
    owner: Side | None = None


@dataclass(frozen=True, slots=True)
class Overlay:
    """A transient message drawn over the base scene."""

    kind: str
    spots: tuple[str, ...] = ()
    others: tuple[str, ...] = ()
    side: Side | None = None
    until: float | None = None


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything the board should say at one time."""

    turn: Side | None = None
    cube: Cube = Cube()
    overlay: Overlay | None = None
    camera_fault: bool = False
    controller_fault: bool = False
    setup: bool = False  # not calibrated yet: waiting for the start position


def render(scene: Scene, now: float) -> LedState:
    """The LED state that shows ``scene`` at time ``now`` (seconds)."""
    if scene.camera_fault:
        look = SIGNAL_TABLE["camera-fault"].light
        return LedState().with_lights({n: look for n in BARS + ("turn-dark", "turn-light")})
    if scene.setup:
        look = SIGNAL_TABLE["setup"].light
        return LedState().with_lights({n: look for n in BARS + ("turn-dark", "turn-light")})
    overlay = scene.overlay
    if overlay is not None and overlay.until is not None and now >= overlay.until:
        overlay = None
    if overlay is not None and overlay.kind == "illegal":
        return LedState().with_lights({n: SIGNAL_TABLE["illegal"].light for n in overlay.spots})
    base = LedState().with_lights({**_turn_lights(scene.turn), **_cube_lights(scene.cube)})
    return base.with_lights(_overlay_lights(overlay)) if overlay else base


def status_look(scene: Scene) -> Look:
    """The Pi status LED's look for ``scene``."""
    if scene.controller_fault:
        return SIGNAL_TABLE["status-controller-fault"]
    if scene.camera_fault:
        return SIGNAL_TABLE["status-camera-fault"]
    return SIGNAL_TABLE["status-ok"]


def _turn_lights(turn: Side | None) -> dict[str, Light]:
    return {"turn-%s" % s: SIGNAL_TABLE["turn"].light if s == turn else OFF_LIGHT for s in ("dark", "light")}


def _cube_lights(cube: Cube) -> dict[str, Light]:
    value, owner = SIGNAL_TABLE["cube-value"].light, SIGNAL_TABLE["cube-owner"].light
    lights = {"cube-%d" % v: value for v in CUBE_VALUES if v == cube.value}
    if cube.owner is not None:
        lights["cube-owner-%s" % cube.owner] = owner
    return lights


def _overlay_lights(overlay: Overlay) -> dict[str, Light]:
    if overlay.kind == "teaching":
        lights = {n: SIGNAL_TABLE["teach-source"].light for n in overlay.spots}
        return lights | {n: SIGNAL_TABLE["teach-destination"].light for n in overlay.others}
    if overlay.kind == "reroll":
        names = BARS + ("turn-%s" % overlay.side,)
        return {n: SIGNAL_TABLE["reroll"].light for n in names}
    return {n: SIGNAL_TABLE[overlay.kind].light for n in overlay.spots}


def _spots(points: Iterable[int | str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(spot_led(p) for p in points))


class StatusSink(Protocol):
    """Anything that shows a :class:`Look` (the Pi's status LED)."""

    def show(self, look: Look) -> None:
        """Show ``look`` from now on."""

    def tick(self) -> object:
        """Update the LED for the current instant."""


class Signals:
    """The referee's vocabulary: each call changes the scene and updates the LEDs.

    ``sink`` shows whole-board states (a :class:`~firmware_bridge.link.LedController`
    or a :class:`~firmware_bridge.simulated.SimulatedBoard`); ``clock`` gives seconds;
    ``status`` is the Pi's status LED (:class:`~firmware_bridge.gpio.StatusLight`), if any.
    Call :meth:`tick` regularly so that timed signals end and the status LED blinks.

    >>> from firmware_bridge import SimulatedBoard
    >>> board = SimulatedBoard()
    >>> signals = Signals(board, clock=lambda: 0.0)
    >>> signals.illegal_play([13, 7])
    >>> sorted((name, light.colour.name, light.pattern.label) for name, light in board.current.lit().items())
    [('13', 'red', 'blink-fast'), ('7', 'red', 'blink-fast')]
    """

    def __init__(self, sink: LedSink, clock: Callable[[], float], status: StatusSink | None = None) -> None:
        self._sink = sink
        self._clock = clock
        self._status = status
        self._scene = Scene()
        self._shown: LedState | None = None
        self._status_shown: Look | None = None

    @property
    def scene(self) -> Scene:
        """The current scene."""
        return self._scene

    def illegal_play(self, points: Iterable[int | str]) -> None:
        """Blink the offending points red; everything else goes dark until cleared."""
        self._set(overlay=Overlay("illegal", _spots(points)))

    def play_accepted(self, points: Iterable[int | str] = ()) -> None:
        """Light the play's points green for a second."""
        until = self._clock() + ACCEPTED_SECONDS
        self._set(overlay=Overlay("accepted", _spots(points), until=until))

    def your_turn(self, side: str | None) -> None:
        """Light the seat light of ``side`` (None: nobody's turn)."""
        self._set(turn=None if side is None else check_side(side))

    def reroll_needed(self, side: str) -> None:
        """Tell ``side`` to roll again (cocked die or dice in the wrong half)."""
        self._set(overlay=Overlay("reroll", side=check_side(side)))

    def teaching(self, sources: Iterable[int | str], destinations: Iterable[int | str] = ()) -> None:
        """Show legal source points and the lifted checker's destinations."""
        self._set(overlay=Overlay("teaching", _spots(sources), _spots(destinations)))

    def look_needed(self, points: Iterable[int | str] = ()) -> None:
        """Ask the players to look: the reading fits neither a legal nor a clear illegal play."""
        self._set(overlay=Overlay("look", _spots(points) or BARS))

    def cube(self, value: int, owner: str | None = None) -> None:
        """Show the cube's value (1 = centred, no LED) and owner."""
        if value != 1 and value not in CUBE_VALUES:
            raise _bad_cube(value)
        self._set(cube=Cube(value, None if owner is None else check_side(owner)))

    def camera_fault(self, on: bool = True) -> None:
        """Show (or clear) the camera fault."""
        self._set(camera_fault=on)

    def setup_needed(self, on: bool = True) -> None:
        """Ask for the start position (no calibration yet), or stop asking."""
        self._set(setup=on)

    def controller_fault(self, on: bool = True) -> None:
        """Record a controller fault (shown on the Pi's status LED)."""
        self._set(controller_fault=on)

    def clear(self) -> None:
        """End the current transient message (illegal, teaching, reroll, accepted)."""
        self._set(overlay=None)

    def show(self, kind: SignalKind | str, *args: Any) -> None:
        """Give signal ``kind`` with its method's arguments: ``show("cube", 2, "dark")``.

        Raises InvalidSignalError for a name that is no :class:`SignalKind`.
        """
        try:
            kind = SignalKind(kind)
        except ValueError:
            names = ", ".join(k.value for k in SignalKind)
            raise InvalidSignalError(f"{kind!r} is not a signal: use one of {names}") from None
        _ACTIONS[kind](self, *args)

    def tick(self) -> LedState:
        """Re-render at the current time, push a changed state, and return it."""
        state = render(self._scene, self._clock())
        if state != self._shown:
            self._sink.show(state)
            self._shown = state
        self._tick_status()
        return state

    def _tick_status(self) -> None:
        if self._status is None:
            return
        look = status_look(self._scene)
        if look != self._status_shown:
            self._status.show(look)
            self._status_shown = look
        self._status.tick()

    def _set(self, **changes: object) -> None:
        self._scene = replace(self._scene, **changes)  # type: ignore[arg-type]
        self.tick()


_ACTIONS: dict[SignalKind, Callable[..., None]] = {
    SignalKind.ILLEGAL_PLAY: Signals.illegal_play,
    SignalKind.PLAY_ACCEPTED: Signals.play_accepted,
    SignalKind.YOUR_TURN: Signals.your_turn,
    SignalKind.REROLL_NEEDED: Signals.reroll_needed,
    SignalKind.TEACHING: Signals.teaching,
    SignalKind.LOOK_NEEDED: Signals.look_needed,
    SignalKind.CUBE: Signals.cube,
    SignalKind.CAMERA_FAULT: Signals.camera_fault,
    SignalKind.SETUP_NEEDED: Signals.setup_needed,
    SignalKind.CONTROLLER_FAULT: Signals.controller_fault,
    SignalKind.CLEAR: Signals.clear,
}


def _bad_cube(value: int) -> Exception:
    return InvalidSignalError("%r is not a cube value: use 1, 2, 4, 8, 16, 32 or 64" % (value,))


__all__ = ["SIGNAL_TABLE", "Cube", "Look", "Overlay", "Scene", "SignalKind", "Signals", "render", "status_look"]
