"""The board reading as a typed value: what vision hands the referee.

Its one JSON form is the contract of ``docs/board-spec.md`` ("JSON contract of a board
reading"): :meth:`Reading.to_json` writes it, :meth:`Reading.from_json` reads it back and
checks it, naming the field that is wrong.  Fields beyond the contract (``image``, timings)
are kept as they are in :attr:`Reading.extra`.

The reader (:class:`vision.read.BoardReader`) returns a :class:`Reading`; the referee takes
one (``referee.core.Seen.from_reading``).  JSON is only at the edges: ``bgref read``'s output,
the recordings and footage scripts of readings, read back with :meth:`Reading.from_json`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, TypeVar

from engine.colour import Colour  # the engine's: players are one type everywhere

T = TypeVar("T")

POINTS = 24
CHECKERS = 15  # a side
CUBE_FACES = (1, 2, 4, 8, 16, 32, 64)
CONTRACT = ("points", "bar", "off", "dice", "cube")
OURS = ("confidence", "occluded")  # fields our reader adds, typed here
HAND = "hand"  # in ``occluded``: a hand over the board, the places under it not said (scripted recordings)


class ReadingError(ValueError):
    """A board reading that breaks the contract; the message names the field."""


class Half(StrEnum):
    """Where a die lies: the half with the home boards, the other half, or off the playing surface."""

    HOME = "home"
    OUTER = "outer"
    OFF = "off"


class CubePosition(StrEnum):
    """Where the cube sits: in the middle, or on the side of the player who owns it."""

    CENTRE = "centre"
    DARK = "dark"
    LIGHT = "light"


@dataclass(frozen=True, slots=True)
class PerColour(Generic[T]):
    """One value for each colour: a count (None: not seen) or a confidence."""

    dark: T
    light: T

    def __getitem__(self, colour: Colour | str) -> T:
        return self.dark if Colour(colour) is Colour.DARK else self.light


@dataclass(frozen=True, slots=True)
class Die:
    value: int | None  # 1..6, None when it cannot be read
    flat: bool  # False: cocked
    half: Half


@dataclass(frozen=True, slots=True)
class Cube:
    value: int | None  # the face up: 1 (64 in the middle), 2, 4, ..., 64; None when the numeral cannot be read surely
    position: CubePosition


@dataclass(frozen=True, slots=True)
class Confidence:
    """How sure the reader is, 0..1, per point (dark's numbering), bar side, die and the cube."""

    points: tuple[float | None, ...]
    bar: PerColour[float | None] | None = None
    dice: tuple[float | None, ...] = ()
    cube: float | None = None


@dataclass(frozen=True, slots=True)
class Reading:
    """One settled board as seen: ``points[i]`` is dark's point i+1 (positive dark, negative
    light, None unread); ``off`` is fifteen minus what is seen."""

    points: tuple[int | None, ...]
    bar: PerColour[int | None]
    off: PerColour[int | None]
    dice: tuple[Die, ...] = ()
    cube: Cube | None = None
    confidence: Confidence | None = None
    occluded: tuple[str, ...] = ()  # "point:N", "bar:dark", "bar:light", or "hand"
    extra: Mapping[str, Any] = field(default_factory=dict, compare=True, hash=False)

    def to_json(self) -> dict[str, Any]:
        """The contract's JSON object (with our added fields when known, and ``extra`` as it came)."""
        data: dict[str, Any] = {
            "points": list(self.points),
            "bar": {"dark": self.bar.dark, "light": self.bar.light},
            "off": {"dark": self.off.dark, "light": self.off.light},
            "dice": [{"value": d.value, "flat": d.flat, "half": d.half.value} for d in self.dice],
            "cube": None if self.cube is None else {"value": self.cube.value, "position": self.cube.position.value},
        }
        if self.confidence is not None:
            c = self.confidence
            data["confidence"] = {
                "points": list(c.points),
                "bar": None if c.bar is None else {"dark": c.bar.dark, "light": c.bar.light},
                "dice": list(c.dice),
                "cube": c.cube,
            }
        data["occluded"] = list(self.occluded)
        data.update({k: v for k, v in self.extra.items() if k not in data})
        return data

    @classmethod
    def from_json(cls, data: Any) -> Reading:
        """A reading from its JSON object, checked against the contract (ReadingError names what is wrong)."""
        if not isinstance(data, Mapping):
            raise ReadingError(f"a board reading is a JSON object, not {type(data).__name__}")
        missing = [k for k in CONTRACT if k not in data]
        if missing:
            raise ReadingError(f"a board reading needs {', '.join(missing)} (see docs/board-spec.md)")
        points = _points(data["points"])
        bar = _per_colour(data["bar"], "bar", CHECKERS)
        off = _per_colour(data["off"], "off", CHECKERS)
        for colour, sign in ((Colour.DARK, 1), (Colour.LIGHT, -1)):
            seen = sum(n * sign for n in points if n is not None and n * sign > 0) + (bar[colour] or 0)
            # a misread may see more than a side has (the referee copes); off is then unknown, never negative
            if seen > CHECKERS and off[colour] is not None:
                raise ReadingError(f"{seen} {colour} checkers on the points and bar: a side has {CHECKERS} (off.{colour} is null when more are seen)")
            counts_known = all(n is not None for n in points) and bar[colour] is not None
            if counts_known and off[colour] is not None and off[colour] != CHECKERS - seen:
                raise ReadingError(f"off.{colour} is {off[colour]}, but {seen} {colour} checkers are seen: it must be {CHECKERS - seen}")
        dice = _dice(data["dice"])
        reading = cls(
            points=points,
            bar=bar,
            off=off,
            dice=dice,
            cube=_cube(data["cube"]),
            confidence=_confidence(data.get("confidence"), len(dice)),
            occluded=_occluded(data.get("occluded")),
            extra={k: v for k, v in data.items() if k not in CONTRACT + OURS},
        )
        return reading


def _count(value: Any, where: str, low: int, high: int) -> int | None:
    if value is None:
        return None
    if type(value) is not int or not low <= value <= high:
        raise ReadingError(f"{where} must be a whole number from {low} to {high} or null, not {value!r}")
    return value


def _points(value: Any) -> tuple[int | None, ...]:
    if not isinstance(value, list) or len(value) != POINTS:
        raise ReadingError(f"points must be a list of {POINTS} counts (dark's point 1 first)")
    return tuple(_count(n, f"points[{i}] (point {i + 1})", -CHECKERS, CHECKERS) for i, n in enumerate(value))


def _per_colour(value: Any, where: str, high: int) -> PerColour[int | None]:
    if not isinstance(value, Mapping) or set(value) != {"dark", "light"}:
        raise ReadingError(f'{where} must be {{"dark": n, "light": n}}, not {value!r}')
    return PerColour(_count(value["dark"], f"{where}.dark", 0, high), _count(value["light"], f"{where}.light", 0, high))


def _choice(kind: type[StrEnum], value: Any, where: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        names = ", ".join(f'"{k.value}"' for k in kind)
        raise ReadingError(f"{where} must be one of {names}, not {value!r}") from None


def _dice(value: Any) -> tuple[Die, ...]:
    if not isinstance(value, list):
        raise ReadingError("dice must be a list (empty when no die is seen)")
    dice = []
    for i, die in enumerate(value):
        if not isinstance(die, Mapping) or not {"value", "flat", "half"} <= set(die):
            raise ReadingError(f'dice[{i}] must be {{"value", "flat", "half"}}, not {die!r}')
        if not isinstance(die["flat"], bool):
            raise ReadingError(f"dice[{i}].flat must be true or false, not {die['flat']!r}")
        dice.append(Die(_count(die["value"], f"dice[{i}].value", 1, 6), die["flat"], _choice(Half, die["half"], f"dice[{i}].half")))
    return tuple(dice)


def _cube(value: Any) -> Cube | None:
    if value is None:
        return None
    if not isinstance(value, Mapping) or not {"value", "position"} <= set(value):
        raise ReadingError(f'cube must be {{"value", "position"}} or null, not {value!r}')
    if value["value"] is not None and (type(value["value"]) is not int or value["value"] not in CUBE_FACES):
        raise ReadingError(f"cube.value must be one of {', '.join(map(str, CUBE_FACES))} or null (not read), not {value['value']!r}")
    return Cube(value["value"], _choice(CubePosition, value["position"], "cube.position"))


def _share(value: Any, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise ReadingError(f"{where} must be a number from 0 to 1 or null, not {value!r}")
    return float(value)


def _confidence(value: Any, dice: int) -> Confidence | None:
    if value is None:
        return None
    if not isinstance(value, Mapping) or not isinstance(value.get("points"), list) or len(value["points"]) != POINTS:
        raise ReadingError(f"confidence.points must be a list of {POINTS} numbers from 0 to 1")
    bar = value.get("bar")
    if bar is not None and (not isinstance(bar, Mapping) or set(bar) != {"dark", "light"}):
        raise ReadingError('confidence.bar must be {"dark": c, "light": c}')
    shown = value.get("dice") or []
    if not isinstance(shown, list) or len(shown) != dice:
        raise ReadingError(f"confidence.dice must give one number per die ({dice})")
    return Confidence(
        points=tuple(_share(c, f"confidence.points[{i}]") for i, c in enumerate(value["points"])),
        bar=None if bar is None else PerColour(_share(bar["dark"], "confidence.bar.dark"), _share(bar["light"], "confidence.bar.light")),
        dice=tuple(_share(c, f"confidence.dice[{i}]") for i, c in enumerate(shown)),
        cube=_share(value.get("cube"), "confidence.cube"),
    )


def _occluded(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ReadingError('occluded must be a list such as ["point:13", "bar:dark"]')
    places = {f"point:{n}" for n in range(1, POINTS + 1)} | {"bar:dark", "bar:light", HAND}
    for place in value:
        if place not in places:
            raise ReadingError(f'occluded holds "point:1" .. "point:24", "bar:dark", "bar:light" or "hand", not {place!r}')
    return tuple(value)


__all__ = ["Colour", "Confidence", "Cube", "CubePosition", "Die", "Half", "PerColour", "Reading", "ReadingError"]
