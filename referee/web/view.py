"""What the web page shows, as plain JSON-ready values, from the referee's state.

Pure: the referee's immutable state (and the last reading seen) in, dictionaries
out.  Points are dark's numbers (board-spec): ``board.points[i]`` is dark's
point ``i + 1``, positive for dark checkers and negative for light.  An arrow
names its ends as dark's point numbers or ``"bar"`` / ``"off"`` of the mover.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.board import Board
from engine.colour import COLOURS
from engine.game import (
    Beaver,
    Double,
    Drop,
    Event,
    Game,
    Move,
    Phase,
    Raccoon,
    Resign,
    Take,
)
from engine.judge import Verdict, describe_movement, judge
from engine.plays import Hop, Play, legal_plays
from engine.position import CHECKERS, Position

from ..core import Mode, Note, Outcome, Referee, Seen, Stage

MAX_TEACHING_PLAYS = 60
MAX_NOTES = 30
CUBE_PHASES = (Phase.DOUBLED, Phase.BEAVERED, Phase.RACCOONED)


# --- conversions ------------------------------------------------------------------------


def dark_spot(point: int, player: int) -> int | str:
    """A mover's point (25 = bar, 0 = off) as dark's number, or ``"bar"`` / ``"off"``."""
    if point == 25:
        return "bar"
    if point == 0:
        return "off"
    return point if player == 0 else 25 - point


def arrows(hops: Iterable[Hop], player: int) -> list[dict[str, Any]]:
    """A play as arrows in dark's numbering, one per checker's path: hops that
    continue the same checker are joined unless it hit on the way."""
    paths: list[list[Any]] = []  # [src, dst, hit], mover's numbering
    for hop in sorted(hops, key=lambda h: (h.src, h.dst), reverse=True):
        path = next((p for p in paths if p[1] == hop.src and not p[2]), None)
        if path is None:
            paths.append([hop.src, hop.dst, hop.hit])
        else:
            path[1], path[2] = hop.dst, hop.hit
    colour = COLOURS[player]
    return [{"from": dark_spot(s, player), "to": dark_spot(d, player), "hit": hit, "colour": colour} for s, d, hit in paths]


def board_dict(board: Board, source: str) -> dict[str, Any]:
    """A drawable board: signed points, bar and off as (dark, light), pip counts."""
    dark_on = sum(n for n in board.points if n > 0) + board.bar[0]
    light_on = -sum(n for n in board.points if n < 0) + board.bar[1]
    return {
        "points": list(board.points),
        "bar": list(board.bar),
        "off": [max(CHECKERS - dark_on, 0), max(CHECKERS - light_on, 0)],
        "pips": list(pip_counts(board)),
        "source": source,
    }


def pip_counts(board: Board) -> tuple[int, int]:
    """(dark, light) pip counts of a board in dark's numbering."""
    dark = sum(n * (i + 1) for i, n in enumerate(board.points) if n > 0) + 25 * board.bar[0]
    light = sum(-n * (24 - i) for i, n in enumerate(board.points) if n < 0) + 25 * board.bar[1]
    return dark, light


def game_board(ref: Referee) -> Board:
    """The checkers as the match state has them (the game's position is the roller's view)."""
    g = ref.game
    if ref.stage is Stage.ILLEGAL and ref.illegal_after is not None:
        return Board.from_position(ref.illegal_after, g.turn)
    return Board.from_position(g.position, g.on_roll)


# --- the verdict of the last play -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnStart:
    """The position and dice a player had to play, for judging and analysing the play."""

    player: int
    position: Position
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class LastPlay:
    """A judged play with what it needs to be drawn: who moved, from where, with what."""

    verdict: Verdict
    turn: TurnStart
    after: Position | None  # the position made (mover's view), when possible
    pending: bool  # an illegal play waiting for correction or acceptance


def last_play_of(outcome: Outcome, ref: Referee, turn: TurnStart | None) -> LastPlay | None:
    """The play judged in ``outcome``, if any, with the turn it was made in."""
    verdict = outcome.verdict
    if verdict is None or turn is None:
        return None
    move = next((e for e in outcome.events if isinstance(e, Move)), None)
    if move is not None:
        return LastPlay(verdict, turn, move.after, pending=False)
    return LastPlay(verdict, turn, ref.illegal_after, pending=ref.stage is Stage.ILLEGAL)


def verdict_dict(last: LastPlay, players: tuple[str, str], hints: bool) -> dict[str, Any]:
    """The verdict in plain words with the arrows to draw."""
    v, player = last.verdict, last.turn.player
    out: dict[str, Any] = {
        "legal": v.legal,
        "pending": last.pending,
        "player": player,
        "name": players[player],
        "dice": sorted(last.turn.dice, reverse=True),
        "play": str(v.play) if v.play is not None else None,
        "arrows": arrows(v.play.hops, player) if v.play is not None else [],
        "reasons": [{"text": r.text, "points": [dark_spot(p, player) for p in r.points]} for r in v.reasons],
        "closest": [],
        "before": board_dict(Board.from_position(last.turn.position, player), "before"),
    }
    if hints:
        out["closest"] = [{"play": str(p), "arrows": arrows(p.hops, player)} for p in v.closest]
    return out


# --- teaching --------------------------------------------------------------------------------


def teaching_dict(turn: TurnStart, plays: list[Play]) -> dict[str, Any]:
    """The legal plays of the roll, in notation (gnubg's analysis is added elsewhere)."""
    return {
        "player": turn.player,
        "dice": sorted(turn.dice, reverse=True),
        "total": len(plays),
        "plays": [{"play": str(p), "arrows": arrows(p.hops, turn.player)} for p in plays[:MAX_TEACHING_PLAYS]],
    }


def turn_start(ref: Referee) -> TurnStart | None:
    """The roll waiting to be played, if the game waits for a play."""
    g = ref.match.game
    if g is None or g.phase is not Phase.MOVE or g.dice is None:
        return None
    return TurnStart(g.turn, g.position, (g.dice[0], g.dice[1]))


def hints_allowed(ref: Referee) -> bool:
    """Hints (closest plays, legal plays, analysis) are off in tournament mode."""
    return ref.settings.mode is not Mode.TOURNAMENT


# --- the match ------------------------------------------------------------------------------------


def match_dict(ref: Referee) -> dict[str, Any]:
    """Score, length, rules and the Crawford state."""
    m, rules = ref.match, ref.settings.rules
    return {
        "length": rules.match_length,
        "money": rules.money,
        "score": list(m.score),
        "crawford": bool(m.game is not None and m.game.crawford),
        "post_crawford": bool(rules.match_length and rules.crawford and m.crawford_played),
        "winner": m.winner,
        "games_played": m.games_played,
        "rules": {
            "crawford": rules.crawford,
            "jacoby": rules.jacoby,
            "beavers": rules.beavers,
            "raccoons": rules.raccoons,
            "automatic_doubles": rules.automatic_doubles,
            "max_cube": rules.max_cube,
            "accept_illegal": rules.accept_illegal.value,
        },
    }


def cube_dict(ref: Referee) -> dict[str, Any]:
    g = ref.game
    return {"value": g.cube, "owner": g.cube_owner, "offered": g.offered if g.phase in CUBE_PHASES else 0}


def actions_dict(ref: Referee) -> dict[str, bool]:
    """Which buttons do something now."""
    illegal = ref.stage is Stage.ILLEGAL
    cube = ref.match.game is not None and ref.game.phase in CUBE_PHASES
    return {"accept": illegal, "correct": illegal, "take": cube, "drop": cube}


def dice_of(ref: Referee, seen: Seen | None) -> dict[str, Any] | None:
    """The dice of the roll in play, else the dice seen on the board."""
    g = ref.game
    if g.dice is not None and g.phase is Phase.MOVE:
        return {"values": list(g.dice), "player": g.turn, "seen": False}
    if seen is not None and seen.dice:
        return {"values": [d.value for d in seen.dice], "player": None, "seen": True}
    return None


def status_dict(ref: Referee) -> dict[str, Any]:
    """Whose turn it is and what the referee waits for, in words."""
    g = ref.game
    return {"stage": ref.stage.name.lower(), "phase": g.phase.name.lower(), "turn": g.turn, "on_roll": g.on_roll, "waiting": _waiting(ref)}


def _waiting(ref: Referee) -> str:
    g: Game = ref.game
    names = ref.settings.players
    if ref.match.winner is not None:
        return f"the match is over: {names[ref.match.winner]} won"
    if ref.stage is not Stage.PLAYING:
        return str(ref.stage.value)
    if g.phase is Phase.OPENING:
        return "opening roll: each player rolls one die"
    if g.phase is Phase.MOVE and g.dice is not None:
        return f"{names[g.turn]} to play {max(g.dice)}-{min(g.dice)}"
    return f"{names[g.turn]} to {g.phase.value}"


# --- the move list ----------------------------------------------------------------------------------


def event_action(game: Game, event: Event) -> dict[str, Any] | None:
    """An event of ``game`` as a move-list cell (as in a ``.mat`` file), or None
    for a roll (it is written with its play)."""
    if isinstance(event, Move):
        return _move_cell(game, event)
    cube = {Double: game.cube * 2, Beaver: game.offered * 2, Raccoon: game.offered * 2}.get(type(event))
    if cube is not None:
        return {"player": event.player, "text": f"{type(event).__name__}s => {cube}", "comment": ""}  # type: ignore[union-attr]
    if isinstance(event, (Take, Drop)):
        return {"player": event.player, "text": f"{type(event).__name__}s", "comment": ""}
    if isinstance(event, Resign):
        return {"player": event.player, "text": f"Resigns {int(event.win) * game.cube}", "comment": ""}
    return None


def _move_cell(game: Game, move: Move) -> dict[str, Any]:
    assert game.dice is not None
    verdict = judge(game.position, game.dice, move.after)
    roll = f"{game.dice[0]}{game.dice[1]}:"
    if verdict.legal and verdict.play is not None:
        return {"player": move.player, "text": f"{roll} {verdict.play}".rstrip(), "comment": ""}
    reasons = "; ".join(r.text for r in verdict.reasons)
    text = f"{roll} {describe_movement(game.position, move.after)}".rstrip()
    return {"player": move.player, "text": text, "comment": f"illegal play accepted as made: {reasons}"}


@dataclass
class NoteLog:
    """The latest notes for the players, newest last."""

    notes: list[dict[str, str]] = field(default_factory=list)

    def add(self, note: Note) -> None:
        self.notes.append({"text": note.text, "level": note.level})
        del self.notes[:-MAX_NOTES]


def legal_for(turn: TurnStart) -> list[Play]:
    """The legal plays of a turn, the best known order kept (engine's)."""
    return legal_plays(turn.position, turn.dice)
