"""GNU Backgammon's Match ID and eXtreme Gammon's XGID.

Match ID: GNU Backgammon manual, "A technical description of the Match ID", and
``matchid.c``: a 9-byte key, bits packed least significant first, Base64
without padding.  Players are numbered 0 and 1 as in gnubg; this project maps
dark (the first-listed player of a ``.mat`` file) to player 0.

XGID: eXtreme Gammon's position text, ``XGID=<position>:<cube exponent>:<owner>:
<turn>:<dice>:<score X>:<score O>:<rules>:<length>:<max cube exponent>``, the
position written from X's side.  Player 0 is X.
"""

from __future__ import annotations

import base64
import enum
from dataclasses import dataclass

from .position import Position, PositionError


class IdError(ValueError):
    """A Match ID or XGID that cannot be read."""


class GameState(enum.IntEnum):
    """gnubg's game states as the Match ID stores them."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


# (field, bit offset, width), in key order
_FIELDS = (
    ("cube_log2", 0, 4),
    ("cube_owner", 4, 2),
    ("on_roll", 6, 1),
    ("crawford", 7, 1),
    ("game_state", 8, 3),
    ("turn", 11, 1),
    ("double_offered", 12, 1),
    ("resignation", 13, 2),
    ("die1", 15, 3),
    ("die2", 18, 3),
    ("match_length", 21, 15),
    ("score0", 36, 15),
    ("score1", 51, 15),
    ("jacoby_off", 66, 1),
)
_CENTRED = 3


@dataclass(frozen=True, slots=True)
class MatchId:
    """What a Match ID holds.

    ``cube_owner`` is 0, 1 or None (centred).  ``on_roll`` holds the dice;
    ``turn`` must act now (differs while a double or resignation is pending).
    ``dice`` is (0, 0) before the roll.  ``match_length`` 0 is money play.
    ``resignation`` 0 none, 1 single, 2 gammon, 3 backgammon offered.
    """

    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    cube: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    turn: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    jacoby: bool = True

    def encode(self) -> str:
        """The 12-character Match ID."""
        values = {
            "cube_log2": self.cube.bit_length() - 1,
            "cube_owner": _CENTRED if self.cube_owner is None else self.cube_owner,
            "on_roll": self.on_roll,
            "crawford": int(self.crawford),
            "game_state": int(self.game_state),
            "turn": self.turn,
            "double_offered": int(self.double_offered),
            "resignation": self.resignation,
            "die1": self.dice[0],
            "die2": self.dice[1],
            "match_length": self.match_length,
            "score0": self.score[0],
            "score1": self.score[1],
            "jacoby_off": int(not self.jacoby),
        }
        key = 0
        for name, offset, width in _FIELDS:
            value = values[name]
            if not 0 <= value < 1 << width:
                raise IdError(f"{name} = {value} does not fit a Match ID")
            key |= value << offset
        return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")

    @classmethod
    def decode(cls, match_id: str) -> MatchId:
        """Read a 12-character Match ID."""
        text = match_id.strip()
        if len(text) != 12:
            raise IdError(f"Match ID {match_id!r} must be 12 characters, not {len(text)}")
        try:
            key = int.from_bytes(base64.b64decode(text, validate=True), "little")
        except ValueError:
            raise IdError(f"Match ID {match_id!r} is not Base64") from None
        f = {name: key >> offset & ((1 << width) - 1) for name, offset, width in _FIELDS}
        if f["game_state"] > GameState.DROPPED or f["cube_owner"] == 2:
            raise IdError(f"Match ID {match_id!r} holds an impossible game state or cube owner")
        return cls(
            match_length=f["match_length"],
            score=(f["score0"], f["score1"]),
            cube=1 << f["cube_log2"],
            cube_owner=None if f["cube_owner"] == _CENTRED else f["cube_owner"],
            on_roll=f["on_roll"],
            turn=f["turn"],
            crawford=bool(f["crawford"]),
            game_state=GameState(f["game_state"]),
            double_offered=bool(f["double_offered"]),
            resignation=f["resignation"],
            dice=(f["die1"], f["die2"]),
            jacoby=not f["jacoby_off"],
        )


def gnubg_id(position: Position, match: MatchId) -> str:
    """GNU Backgammon's combined ``PositionID:MatchID``."""
    return f"{position.id()}:{match.encode()}"


# --- XGID -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Xgid:
    """What an XGID holds.  Player 0 is X; ``position`` is seen from the player
    whose ``turn`` it is.  ``cube_owner`` is 0, 1 or None (centred)."""

    position: Position
    turn: int = 0
    cube: int = 1
    cube_owner: int | None = None
    dice: tuple[int, int] = (0, 0)
    double_offered: bool = False
    score: tuple[int, int] = (0, 0)
    match_length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    max_cube: int = 1024

    def encode(self) -> str:
        """The XGID text, ``XGID=…``."""
        x_side, o_side = self._sides()
        cells = ["-"] * 26
        cells[0] = _xg_count(o_side[24], upper=False)
        cells[25] = _xg_count(x_side[24], upper=True)
        for p in range(1, 25):
            if x_side[p - 1]:
                cells[p] = _xg_count(x_side[p - 1], upper=True)
            elif o_side[24 - p]:
                cells[p] = _xg_count(o_side[24 - p], upper=False)
        owner = 0 if self.cube_owner is None else (1 if self.cube_owner == 0 else -1)
        if self.double_offered:
            dice = "D"
        else:
            dice = f"{self.dice[0]}{self.dice[1]}"
        if self.match_length:
            rules = int(self.crawford)
        else:
            rules = int(self.jacoby) | int(self.beavers) << 1
        fields = [
            "".join(cells),
            str(self.cube.bit_length() - 1),
            str(owner),
            "1" if self.turn == 0 else "-1",
            dice,
            str(self.score[0]),
            str(self.score[1]),
            str(rules),
            str(self.match_length),
            str(self.max_cube.bit_length() - 1),
        ]
        return "XGID=" + ":".join(fields)

    def _sides(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        p = self.position
        return (p.on_roll, p.opponent) if self.turn == 0 else (p.opponent, p.on_roll)

    @classmethod
    def decode(cls, text: str) -> Xgid:
        """Read an XGID (with or without the ``XGID=`` prefix)."""
        body = text.strip()
        if body.upper().startswith("XGID="):
            body = body[5:]
        parts = body.split(":")
        if len(parts) < 9 or len(parts[0]) != 26:
            raise IdError(f"XGID {text!r} needs a 26-character position and at least 9 fields")
        try:
            return _decode_xgid_fields(parts)
        except (ValueError, PositionError) as exc:
            raise IdError(f"XGID {text!r}: {exc}") from None


def _xg_count(n: int, upper: bool) -> str:
    if n == 0:
        return "-"
    if n > 16:
        raise IdError(f"{n} checkers on one point cannot be written in an XGID")
    return chr((ord("A") if upper else ord("a")) + n - 1)


def _decode_xgid_fields(parts: list[str]) -> Xgid:
    cells = parts[0]
    x_side = [0] * 25
    o_side = [0] * 25
    for i, c in enumerate(cells):
        if c == "-":
            continue
        if "A" <= c <= "P":
            n, mine = ord(c) - ord("A") + 1, True
        elif "a" <= c <= "p":
            n, mine = ord(c) - ord("a") + 1, False
        else:
            raise ValueError(f"{c!r} is not a checker count")
        if i == 0:
            if mine:
                raise ValueError("X checkers cannot stand on O's bar")
            o_side[24] = n
        elif i == 25:
            if not mine:
                raise ValueError("O checkers cannot stand on X's bar")
            x_side[24] = n
        elif mine:
            x_side[i - 1] = n
        else:
            o_side[24 - i] = n
    turn = 0 if int(parts[3]) == 1 else 1
    position = Position(tuple(x_side), tuple(o_side)) if turn == 0 else Position(tuple(o_side), tuple(x_side))
    owner_code = int(parts[2])
    dice_text = parts[4]
    doubled = dice_text.upper() in ("D", "B", "R")
    dice = (0, 0) if doubled else (int(dice_text[0]), int(dice_text[1]))
    length = int(parts[8])
    rules = int(parts[7])
    return Xgid(
        position=position,
        turn=turn,
        cube=1 << int(parts[1]),
        cube_owner=None if owner_code == 0 else (0 if owner_code == 1 else 1),
        dice=dice,
        double_offered=doubled,
        score=(int(parts[5]), int(parts[6])),
        match_length=length,
        crawford=bool(length and rules & 1),
        jacoby=bool(not length and rules & 1),
        beavers=bool(not length and rules & 2),
        max_cube=1 << int(parts[9]) if len(parts) > 9 and parts[9] else 1024,
    )
