"""The PIN that guards every change to the match, and the checks of what a page sends.

Viewing is open; accepting, correcting, a new match, the mode and calibration
need the PIN printed on the service's console.  Five wrong PINs from one
address within a minute lock that address out for a minute.
"""

from __future__ import annotations

import hmac
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.colour import Colour
from engine.game import AcceptIllegal, Rules

from ..core import Mode, Settings

PIN_DIGITS = 6
MAX_FAILURES = 5
WINDOW_SECONDS = 60.0
NAME = re.compile(r"^[\w][\w .'\-]{0,23}$", re.UNICODE)
MAX_MATCH_LENGTH = 99


def make_pin(digits: int = PIN_DIGITS) -> str:
    """A random PIN of ``digits`` decimal digits."""
    return f"{secrets.randbelow(10**digits):0{digits}d}"


class PinError(Exception):
    """A change asked for without the right PIN; ``status`` is the HTTP status to answer."""

    def __init__(self, text: str, status: int) -> None:
        super().__init__(text)
        self.status = status


@dataclass
class PinGuard:
    """Checks PINs, counting failures per client address."""

    pin: str
    clock: Callable[[], float] = time.monotonic
    failures: dict[str, list[float]] = field(default_factory=dict)

    def check(self, given: str | None, client: str) -> None:
        """Return quietly for the right PIN; raise PinError otherwise."""
        now = self.clock()
        recent = [t for t in self.failures.get(client, []) if now - t < WINDOW_SECONDS]
        self.failures[client] = recent
        if len(recent) >= MAX_FAILURES:
            raise PinError(f"too many wrong PINs: wait {int(WINDOW_SECONDS - (now - recent[0])) + 1} s", 429)
        if not given:
            raise PinError("this needs the PIN shown on the referee's console", 401)
        if not hmac.compare_digest(given.encode(), self.pin.encode()):
            recent.append(now)
            raise PinError("wrong PIN", 403)
        self.failures.pop(client, None)


# --- what a page may send --------------------------------------------------------------------


def _flag(body: dict[str, Any], key: str, default: bool) -> bool:
    value = body.get(key, default)
    if not isinstance(value, bool):
        raise ValueError(f"{key} must be true or false")  # noqa: TRY004 - one error type for every bad field
    return value


def _whole(body: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = body.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{key} must be a whole number from {low} to {high}")
    return value


def player_name(value: Any, which: Colour) -> str:
    """A player's name: 1-24 letters, digits, spaces, dots, dashes or apostrophes."""
    if not isinstance(value, str) or not NAME.match(value.strip()):
        raise ValueError(f"{which}'s name must be 1-24 letters, digits, spaces, dots, dashes or apostrophes")
    return value.strip()


def settings_from_form(body: dict[str, Any], current: Settings) -> Settings:
    """Settings for a new match from the page's form; ValueError names the bad field."""
    players = body.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise ValueError("players must be two names, dark's first")
    names = (player_name(players[0], Colour.DARK), player_name(players[1], Colour.LIGHT))
    mode = body.get("mode", current.mode.value)
    if mode not in [m.value for m in Mode]:
        raise ValueError(f"mode must be one of {', '.join(m.value for m in Mode)}")
    accept = body.get("accept_illegal", AcceptIllegal.ROLL_OR_DOUBLE.value)
    if accept not in [a.value for a in AcceptIllegal]:
        raise ValueError(f"accept_illegal must be one of {', '.join(a.value for a in AcceptIllegal)}")
    rules = Rules(
        match_length=_whole(body, "match_length", 0, 0, MAX_MATCH_LENGTH),
        crawford=_flag(body, "crawford", True),
        jacoby=_flag(body, "jacoby", False),
        beavers=_flag(body, "beavers", False),
        raccoons=_flag(body, "raccoons", False),
        automatic_doubles=_whole(body, "automatic_doubles", 0, 0, 6),
        max_cube=_whole(body, "max_cube", 64, 2, 4096),
        accept_illegal=AcceptIllegal(accept),
    )  # Rules says which combinations do not fit together
    return Settings(rules=rules, players=names, mode=Mode(mode), dark_right_half=current.dark_right_half)
