"""Game, cube and match flow as a state machine driven by events.

``apply(state, event)`` returns the next state, or raises :class:`EventRefused`
with the reason when the event breaks the rules (the state is immutable, so it
is unchanged).  Players are numbered 0 (dark, the first-listed player of a
``.mat`` file) and 1 (light).

Rules followed (the most complete rule sheet, ``seeds/000``; the optional ones
are settings in :class:`Rules`): opening roll of one die each, equal dice roll
again; automatic doubles on equal opening dice up to a limit; a player may
double at the start of their own turn, before rolling, when the cube is in the
middle or theirs; the doubled player takes (and owns the cube) or drops (and
loses the cube's value before the double); beavers and raccoons; resignation of
a single game, gammon or backgammon; gammon = the loser bore off nothing,
backgammon = and still has a checker on the bar or in the winner's home board;
the Jacoby rule (money only: gammons count single unless a double was offered);
the cube stops at 64; Crawford: no doubling in the first game after a player
reaches match point minus one.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Union

from .judge import Verdict, judge
from .plays import check_dice
from .position import Position


class EventRefused(ValueError):
    """An event that the rules do not allow now; the state is unchanged."""


class AcceptIllegal(enum.Enum):
    """When an illegal play counts as accepted (the rule sheets differ)."""

    ROLL_OR_DOUBLE = "roll_or_double"  # seeds/000: the opponent rolls or offers a double
    NEXT_ROLL = "next_roll"  # seeds/004: correction allowed until the next throw


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules agreed for a match or money session."""

    match_length: int = 0  # 0 = money play
    crawford: bool = True
    jacoby: bool = False  # money only
    beavers: bool = False  # money only
    raccoons: bool = False  # money only, needs beavers
    automatic_doubles: int = 0  # money only: how many per game (0 = off)
    max_cube: int = 64
    accept_illegal: AcceptIllegal = AcceptIllegal.ROLL_OR_DOUBLE

    def __post_init__(self) -> None:
        if self.match_length < 0:
            raise ValueError(f"match length {self.match_length} must be 0 (money) or more")
        if self.max_cube not in (2**k for k in range(1, 13)):
            raise ValueError(f"max cube {self.max_cube} must be a power of two from 2 to 4096")
        if self.raccoons and not self.beavers:
            raise ValueError("raccoons need beavers")
        if self.match_length and (self.jacoby or self.beavers or self.automatic_doubles):
            raise ValueError("Jacoby, beavers and automatic doubles are money-play rules")

    @property
    def money(self) -> bool:
        return self.match_length == 0


class Phase(enum.Enum):
    """What the game waits for."""

    OPENING = "opening roll"
    ROLL = "roll or double"
    MOVE = "play"
    DOUBLED = "take or drop"
    BEAVERED = "take or drop the beaver"
    RACCOONED = "take or drop the raccoon"
    RESIGNATION = "accept or reject the resignation"
    OVER = "game over"


class Win(enum.IntEnum):
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: who won, how many points, and how."""

    winner: int
    points: int
    win: Win
    how: str  # "bore off", "drop", "resignation"


# --- events ----------------------------------------------------------------------
# What happens at the board, fed to the state machine.  engine.record has Recorded* actions
# for what a record file says (its RecordedMove holds dice and notation, not a position);
# engine.from_events turns these events into those actions.


@dataclass(frozen=True, slots=True)
class OpeningRoll:
    dice: tuple[int, int]  # (player 0's die, player 1's die)


@dataclass(frozen=True, slots=True)
class Roll:
    player: int
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Move:
    """A play, given by the position after it (mover's view, as seen)."""

    player: int
    after: Position
    accept_illegal: bool = False  # the opponent accepted it as made


@dataclass(frozen=True, slots=True)
class Double:
    player: int


@dataclass(frozen=True, slots=True)
class Take:
    player: int


@dataclass(frozen=True, slots=True)
class Drop:
    player: int


@dataclass(frozen=True, slots=True)
class Beaver:
    player: int


@dataclass(frozen=True, slots=True)
class Raccoon:
    player: int


@dataclass(frozen=True, slots=True)
class Resign:
    player: int
    win: Win  # what the resigning player offers to lose


@dataclass(frozen=True, slots=True)
class AcceptResignation:
    player: int


@dataclass(frozen=True, slots=True)
class RejectResignation:
    player: int


Event = Union[
    OpeningRoll, Roll, Move, Double, Take, Drop, Beaver, Raccoon, Resign, AcceptResignation, RejectResignation
]


# --- the game ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Game:
    """One game's state.  ``position`` is seen from ``turn``'s side when the
    phase is ROLL or MOVE, else from ``on_roll``'s (the player who holds the dice)."""

    rules: Rules
    phase: Phase = Phase.OPENING
    position: Position = field(default_factory=Position.start)
    on_roll: int = 0  # whose turn it is to roll and play
    turn: int = 0  # who must act now
    dice: tuple[int, int] | None = None
    cube: int = 1
    cube_owner: int | None = None
    offered: int = 0  # cube value on offer while a double is pending
    doubled: bool = False  # a double was offered this game (Jacoby)
    automatic_doubles: int = 0
    crawford: bool = False  # this is the Crawford game: no doubling
    resignation: Win | None = None
    resigned_in: Phase | None = None  # the phase to return to if a resignation is rejected
    result: Result | None = None
    last_verdict: Verdict | None = None

    def may_double(self, player: int) -> str | None:
        """Why ``player`` may not double now, or None when they may."""
        if self.phase is not Phase.ROLL:
            return f"a double is offered before rolling, and the game waits for: {self.phase.value}"
        if player != self.turn:
            return f"it is player {self.turn}'s turn"
        if self.crawford:
            return "no doubling in the Crawford game"
        if self.cube_owner not in (None, player):
            return "the opponent owns the cube"
        if self.cube * 2 > self.rules.max_cube:
            return f"the cube is at its limit of {self.rules.max_cube}"
        return None


def new_game(rules: Rules, crawford: bool = False) -> Game:
    """A game at the opening roll."""
    return Game(rules=rules, crawford=crawford)


def apply(game: Game, event: Event) -> Game:
    """The game after ``event``; raises EventRefused (game unchanged) when the
    rules do not allow it."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise EventRefused(f"unknown event {event!r}")
    if game.phase is Phase.OVER:
        raise EventRefused("the game is over")
    return handler(game, event)


def _refuse(reason: str) -> EventRefused:
    return EventRefused(reason)


def _expect(game: Game, phase: Phase, player: int | None, what: str) -> None:
    if game.phase is not phase:
        raise _refuse(f"cannot {what} now: the game waits for {game.phase.value} by player {game.turn}")
    if player is not None and player != game.turn:
        raise _refuse(f"cannot {what}: it is player {game.turn}'s turn, not player {player}'s")


def _opening(game: Game, event: OpeningRoll) -> Game:
    _expect(game, Phase.OPENING, None, "make the opening roll")
    d0, d1 = event.dice
    check_dice((d0, d1))
    if d0 == d1:
        rules = game.rules
        if rules.money and game.automatic_doubles < rules.automatic_doubles and game.cube * 2 <= rules.max_cube:
            return replace(game, cube=game.cube * 2, automatic_doubles=game.automatic_doubles + 1)
        return game  # equal dice: roll again
    first = 0 if d0 > d1 else 1
    return replace(game, phase=Phase.MOVE, on_roll=first, turn=first, dice=(d0, d1) if first == 0 else (d1, d0))


def _roll(game: Game, event: Roll) -> Game:
    _expect(game, Phase.ROLL, event.player, "roll")
    check_dice(event.dice)
    return replace(game, phase=Phase.MOVE, dice=(event.dice[0], event.dice[1]))


def _move(game: Game, event: Move) -> Game:
    _expect(game, Phase.MOVE, event.player, "play")
    assert game.dice is not None
    verdict = judge(game.position, game.dice, event.after)
    if not verdict.legal and not event.accept_illegal:
        raise _refuse("illegal play: " + "; ".join(r.text for r in verdict.reasons))
    after = event.after
    if not any(after.on_roll):
        return _finish(replace(game, position=after, last_verdict=verdict), event.player, _bore_off_win(after), "bore off")
    nxt = 1 - event.player
    return replace(
        game,
        phase=Phase.ROLL,
        position=after.swap(),
        on_roll=nxt,
        turn=nxt,
        dice=None,
        last_verdict=verdict,
    )


def _bore_off_win(after: Position) -> Win:
    """The win of a player who has just borne off the last checker (mover's view)."""
    loser = after.opponent
    if sum(loser) < 15:
        return Win.SINGLE
    # The winner's home board is the loser's points 19-24; index 24 is the bar.
    if loser[24] or any(loser[18:24]):
        return Win.BACKGAMMON
    return Win.GAMMON


def _finish(game: Game, winner: int, win: Win, how: str) -> Game:
    rules = game.rules
    counted = win
    if rules.money and rules.jacoby and not game.doubled:
        counted = Win.SINGLE
    result = Result(winner, int(counted) * game.cube, counted, how)
    return replace(game, phase=Phase.OVER, result=result, turn=winner)


def _double(game: Game, event: Double) -> Game:
    why = game.may_double(event.player)
    if why:
        raise _refuse(f"cannot double: {why}")
    return replace(game, phase=Phase.DOUBLED, offered=game.cube * 2, doubled=True, turn=1 - event.player)


def _pending(game: Game, player: int, what: str) -> None:
    if game.phase not in (Phase.DOUBLED, Phase.BEAVERED, Phase.RACCOONED):
        raise _refuse(f"cannot {what}: no double is offered")
    if player != game.turn:
        raise _refuse(f"cannot {what}: it is player {game.turn} who must answer the cube")


def _take(game: Game, event: Take) -> Game:
    _pending(game, event.player, "take")
    # After a take the taker owns the cube, except that after a beaver (or a
    # raccoon) the one who redoubled keeps it.
    owner = event.player if game.phase is Phase.DOUBLED else 1 - event.player
    return replace(
        game, phase=Phase.ROLL, cube=game.offered, cube_owner=owner, offered=0, turn=game.on_roll
    )


def _drop(game: Game, event: Drop) -> Game:
    _pending(game, event.player, "drop")
    # The dropper loses the value the cube had before this last turn of it.
    value = game.offered // 2
    game = replace(game, cube=value, offered=0)
    result = Result(1 - event.player, value, Win.SINGLE, "drop")
    return replace(game, phase=Phase.OVER, result=result, turn=1 - event.player)


def _beaver(game: Game, event: Beaver) -> Game:
    if not game.rules.beavers:
        raise _refuse("beavers are not in the rules agreed")
    _pending(game, event.player, "beaver")
    if game.phase is not Phase.DOUBLED:
        raise _refuse("a beaver answers a double, not a beaver")
    if game.offered * 2 > game.rules.max_cube:
        raise _refuse(f"the cube cannot pass {game.rules.max_cube}")
    return replace(game, phase=Phase.BEAVERED, offered=game.offered * 2, turn=1 - event.player)


def _raccoon(game: Game, event: Raccoon) -> Game:
    if not game.rules.raccoons:
        raise _refuse("raccoons are not in the rules agreed")
    _pending(game, event.player, "raccoon")
    if game.phase is not Phase.BEAVERED:
        raise _refuse("a raccoon answers a beaver")
    if game.offered * 2 > game.rules.max_cube:
        raise _refuse(f"the cube cannot pass {game.rules.max_cube}")
    return replace(game, phase=Phase.RACCOONED, offered=game.offered * 2, turn=1 - event.player)


def _resign(game: Game, event: Resign) -> Game:
    if game.phase not in (Phase.ROLL, Phase.MOVE):
        raise _refuse(f"cannot resign now: the game waits for {game.phase.value}")
    return replace(
        game, phase=Phase.RESIGNATION, resignation=Win(event.win), resigned_in=game.phase, turn=1 - event.player
    )


def _accept_resignation(game: Game, event: AcceptResignation) -> Game:
    _expect(game, Phase.RESIGNATION, event.player, "accept a resignation")
    assert game.resignation is not None
    return _finish(game, event.player, game.resignation, "resignation")


def _reject_resignation(game: Game, event: RejectResignation) -> Game:
    _expect(game, Phase.RESIGNATION, event.player, "reject a resignation")
    assert game.resigned_in is not None
    return replace(game, phase=game.resigned_in, resignation=None, resigned_in=None, turn=game.on_roll)


_HANDLERS: dict[type, Callable[[Game, Any], Game]] = {
    OpeningRoll: _opening,
    Roll: _roll,
    Move: _move,
    Double: _double,
    Take: _take,
    Drop: _drop,
    Beaver: _beaver,
    Raccoon: _raccoon,
    Resign: _resign,
    AcceptResignation: _accept_resignation,
    RejectResignation: _reject_resignation,
}


# --- the match -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Match:
    """A match or money session: the score, the Crawford state and the game in play."""

    rules: Rules
    score: tuple[int, int] = (0, 0)
    game: Game | None = None
    games_played: int = 0
    crawford_played: bool = False
    last_result: Result | None = None  # of the game that ended last

    @property
    def winner(self) -> int | None:
        """The match winner, or None (always None in money play)."""
        length = self.rules.match_length
        if not length:
            return None
        for player in (0, 1):
            if self.score[player] >= length:
                return player
        return None

    def next_is_crawford(self) -> bool:
        """True when the next game is the Crawford game."""
        length = self.rules.match_length
        if not length or not self.rules.crawford or self.crawford_played:
            return False
        return max(self.score) == length - 1

    def post_crawford(self) -> bool:
        """True after the Crawford game has been played."""
        return self.crawford_played


def new_match(rules: Rules) -> Match:
    """A match with its first game at the opening roll."""
    return Match(rules=rules, game=new_game(rules))


def apply_to_match(match: Match, event: Event) -> Match:
    """The match after an event of its current game; a finished game adds its
    points and the next game starts (unless the match is over)."""
    if match.game is None or match.winner is not None:
        raise EventRefused("the match is over")
    game = apply(match.game, event)
    if game.result is None:
        return replace(match, game=game)
    score = list(match.score)
    score[game.result.winner] += game.result.points
    crawford_played = match.crawford_played or match.game.crawford
    done = replace(
        match,
        score=(score[0], score[1]),
        games_played=match.games_played + 1,
        crawford_played=crawford_played,
        game=game,
        last_result=game.result,
    )
    if done.winner is not None:
        return done
    return replace(done, game=new_game(match.rules, crawford=done.next_is_crawford()))
