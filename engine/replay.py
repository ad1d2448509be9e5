"""Replay of a match record through the rules: every play checked, every
position, score and cube known.

The flow of each game (opening roll, cube, resignations, scoring) is
:mod:`engine.game`'s state machine; plays are read with
:func:`engine.plays.parse_play` and judged with :func:`engine.judge.judge`.
A play that breaks the rules is accepted as made (it was, at the board) and
reported with its reasons: a checker moved backwards (``23/bar``) is moved so;
a play the board cannot follow at all (onto a point the opponent holds, from
a point where the player has none) leaves the board as it was, with a
warning.  A result the rules do not give (a match forfeit, a resignation
before the opening roll, a gammon counted single) is taken as the record
states it, with a warning.  Anything else the rules refuse (a take with no
double, a game recorded after the match was won, a score that does not add
up) stops the replay with a :class:`ReplayError` naming the game and move,
except in ``replay(match, tolerant=True)``, which the writers use: there the
action is kept as recorded, unchecked, with a warning, so that a record is
always written.

Numbering: games from 1; a game's moves (its :class:`~engine.record.RecordedMove`
actions, dances included) from 1.  ``move`` in a message is the number of the
move the action is, or follows.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from . import game as flow
from .ids import GameState, MatchId, Xgid
from .judge import judge
from .plays import (
    Play,
    PlayError,
    after_written,
    mover_side_after,
    parse_path,
    parse_paths,
    parse_play,
)
from .position import Position, PositionError
from .record import (
    Action,
    RecordedBeaver,
    RecordedDouble,
    RecordedDrop,
    RecordedGame,
    IllegalPlay,
    RecordedMatch,
    RecordedMove,
    RecordedRaccoon,
    RecordError,
    RecordedResign,
    RecordedResult,
    RecordedRoll,
    RecordedTake,
    other,
)


class ReplayError(RecordError):
    """An action the rules cannot follow; names the game and move."""

    def __init__(self, message: str, game: int, move: int, illegal: IllegalPlay | None = None) -> None:
        super().__init__(f"game {game}, move {move}: {message}")
        self.game = game
        self.move = move
        self.reason = message
        self.illegal = None if illegal is None else replace(illegal, game=game, move=move)


@dataclass(frozen=True, slots=True)
class Step:
    """One action of a game and the game's state around it.

    ``before`` is the state when the action is taken (for a move, with the dice
    rolled); ``play`` is the legal play a move made, ``reasons`` why a move was
    illegal (empty when legal); ``warnings`` what the replay could not follow
    as the rules say (the board left as it was, a result taken as stated).
    """

    action: Action
    move: int
    before: flow.Game
    after: flow.Game
    play: Play | None = None
    reasons: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def legal(self) -> bool:
        return not self.reasons


@dataclass(frozen=True, slots=True)
class GameReplay:
    """A replayed game: its number, the score and Crawford state before it, its
    steps, warnings (each naming the game and move) where the record was read
    as stated rather than as the rules give it, and, when read from a text
    file, the line of each step."""

    number: int
    score: tuple[int, int]
    steps: tuple[Step, ...]
    start: flow.Game
    end: flow.Game
    warnings: tuple[str, ...] = ()
    lines: tuple[int, ...] = ()

    def line_of(self, step: Step) -> int | None:
        """The file line a step was read from, when known."""
        for s, line in zip(self.steps, self.lines):
            if s is step:
                return line
        return None

    @property
    def result(self) -> RecordedResult | None:
        """The result the rules give (None when the record stops first)."""
        r = self.end.result
        if r is None:
            return None
        return RecordedResult(r.winner, r.points, r.how == "resignation")

    def moves(self) -> tuple[Step, ...]:
        """The steps that are moves."""
        return tuple(s for s in self.steps if isinstance(s.action, RecordedMove))


@dataclass(frozen=True, slots=True)
class MatchReplay:
    """A replayed match; ``warnings`` are the games' warnings and any about the
    record as a whole."""

    match: RecordedMatch
    games: tuple[GameReplay, ...]
    warnings: tuple[str, ...] = ()

    def illegal(self) -> Iterator[tuple[GameReplay, Step]]:
        """Every illegal move accepted as made, in order."""
        for g in self.games:
            for s in g.steps:
                if s.reasons:
                    yield g, s

    def play_count(self) -> int:
        """How many moves the match has (dances included)."""
        return sum(len(g.moves()) for g in self.games)


# --- plays ---------------------------------------------------------------------


def written_after(position: Position, text: str) -> Position:
    """The position a written play leads to (mover's view), without the dice.

    Every point a checker is written to land on (``20/18 18/14``,
    ``20/18*/14``) hits a blot there; a combined hop (``24/14``) hits nothing
    on the way.  Raises :class:`PlayError` when the text cannot be read or
    moves a checker that is not there.
    """
    if not text.strip():
        return position
    try:
        return after_written(position, text)
    except PositionError as exc:
        raise PlayError(f"{text!r} leads to an impossible position: {exc}") from None


def _move_step(state: flow.Game, action: RecordedMove, move: int) -> Step:
    """A move judged by the rules (once, in :func:`engine.game.apply`).  When
    the written position is not a legal play's, the text may still name one
    (a combined hop that must hit on the way): :func:`parse_play` decides.
    A play the rules cannot read forward (``23/bar``) is moved as made; one
    the board cannot follow leaves the board as it was."""
    try:
        written = written_after(state.position, action.play)
    except PlayError:
        return _as_made_step(state, action, move)
    made = flow.apply(state, flow.Move(action.player, written, accept_illegal=True))
    verdict = made.last_verdict
    assert verdict is not None
    if verdict.legal:
        return Step(action, move, state, made, verdict.play)
    try:
        play = parse_play(action.play, state.position, action.dice)
    except PlayError:
        return Step(action, move, state, made, None, tuple(r.text for r in verdict.reasons))
    return Step(action, move, state, flow.apply(state, flow.Move(action.player, play.after)), play)


def _as_made_step(state: flow.Game, action: RecordedMove, move: int) -> Step:
    try:
        after = _follow(state.position, action.play)
    except PlayError as exc:
        after = str(exc)
    if isinstance(after, Position):
        made = flow.apply(state, flow.Move(action.player, after, accept_illegal=True))
        assert made.last_verdict is not None
        reasons = tuple(r.text for r in made.last_verdict.reasons) or (f"{action.play!r} is not a play of the roll",)
        return Step(action, move, state, made, None, reasons)
    try:
        reasons = unacceptable_reasons(state.position, action.dice, action.play)
    except PlayError:
        reasons = (after,)  # written backwards, or not moves at all
    warning = f"the board cannot follow {action.play!r}: it is left as it was before the play"
    return Step(action, move, state, _turn_passed(state), None, reasons, (warning,))


def _turn_passed(state: flow.Game) -> flow.Game:
    """The game with the board unchanged and the turn passed (after a play the
    board cannot follow)."""
    nxt = other(state.turn)
    return replace(state, phase=flow.Phase.ROLL, position=state.position.swap(), on_roll=nxt, turn=nxt, dice=None)


def read_movement(text: str) -> list[tuple[int, int, frozenset[int], int]]:
    """Written moves read as checker movements, in any direction: each
    ``(from, to, points marked hit, count)`` in the mover's numbering (25 =
    bar, 0 = off).  ``23/bar`` is a checker moved back to the bar; ``bar``
    and ``25``, ``off`` and ``0`` are the same.  Raises :class:`PlayError`
    on text that is not moves (a damaged record)."""
    out = []
    for token in text.replace(",", " ").split():
        path = parse_path(token, text, forward=False)
        out.append((path.points[0], path.points[-1], path.hits | {path.points[-1]}, path.count))
    return out


def movement_after(position: Position, text: str) -> Position | None:
    """The position after written moves made as written, backwards too (mover's
    view): a checker landing on a blot hits it.  None when the board cannot
    follow them (a checker from where the player has none, onto a point the
    opponent holds).  Raises :class:`PlayError` on text that is not moves."""
    after = _follow(position, text)
    return after if isinstance(after, Position) else None


def _follow(position: Position, text: str) -> Position | str:
    """The position after written moves, or why the board cannot follow them."""
    mine, theirs = list(position.on_roll), list(position.opponent)
    mine_off = position.off()[0]
    for src, dst, landed, count in read_movement(text):
        for _ in range(count):
            if src == 0:
                if mine_off <= 0:
                    return f"{text!r} brings back a checker the player has not borne off"
                mine_off -= 1
            elif mine[src - 1] <= 0:
                return f"{text!r} moves a checker from a point where the player has none"
            else:
                mine[src - 1] -= 1
            if dst:
                mine[dst - 1] += 1
            else:
                mine_off += 1
            for point in landed:
                if 1 <= point <= 24 and theirs[24 - point] == 1:
                    theirs[24 - point] = 0
                    theirs[24] += 1
    try:
        return Position(tuple(mine), tuple(theirs))
    except PositionError as exc:
        return f"{text!r} leads to an impossible position ({str(exc).rpartition(': ')[2]})"


def unacceptable_reasons(position: Position, dice: tuple[int, int], text: str) -> tuple[str, ...]:
    """Why a written play that leads to no possible position is illegal (a
    checker put on a held point, or moved from a point where the player has
    none).  Raises :class:`PlayError` when the text cannot be read at all."""
    paths = parse_paths(text)
    mine = mover_side_after(position, paths)
    if mine is None:
        return (f"{text!r} moves a checker from a point where the player has none",)
    theirs = list(position.opponent)
    landed = {p.points[-1] for p in paths}.union(*(p.hits for p in paths))
    for point in landed:
        if 1 <= point <= 24 and theirs[24 - point] == 1:
            theirs[24 - point] = 0
            theirs[24] += 1
    verdict = judge(position, dice, (mine, tuple(theirs)))
    return tuple(r.text for r in verdict.reasons) or (f"{text!r} leads to an impossible position",)


# --- one game ------------------------------------------------------------------


def advance(state: flow.Game, action: Action, move: int) -> Step:
    """The step that ``action`` makes from ``state``; ``move`` is the number of
    the move the action is or follows (for messages).  Raises ReplayError
    (with game 0: the caller knows the game) when the rules cannot follow it."""
    try:
        return _advance(state, action, move)
    except (flow.EventRefused, PlayError, PositionError) as exc:
        raise ReplayError(str(exc), 0, move) from None


def _advance(state: flow.Game, action: Action, move: int) -> Step:
    if isinstance(action, (RecordedMove, RecordedRoll)):
        state = _rolled(state, action.player, action.dice)
        if isinstance(action, RecordedRoll):
            return Step(action, move, state, state)
        return _move_step(state, action, move)
    if isinstance(action, RecordedResign):
        return _resign(state, action, move)
    event = _cube_event(state, action)
    return Step(action, move, state, flow.apply(state, event))


def _rolled(state: flow.Game, player: int, dice: tuple[int, int]) -> flow.Game:
    """The state with ``player``'s dice rolled (the opening roll included)."""
    if state.phase is flow.Phase.OPENING:
        if dice[0] == dice[1]:
            raise flow.EventRefused(f"the opening roll {dice[0]}{dice[1]} is a double")
        high, low = max(dice), min(dice)
        opened = flow.apply(state, flow.OpeningRoll((high, low) if player == 0 else (low, high)))
        return _check_dice(opened, dice)
    return flow.apply(state, flow.Roll(player, dice))


def _check_dice(state: flow.Game, dice: tuple[int, int]) -> flow.Game:
    """The opening state with the dice in the order written."""
    return replace(state, dice=(dice[0], dice[1]))


def _cube_event(state: flow.Game, action: Action) -> flow.Event:
    if isinstance(action, RecordedDouble):
        _expect_cube(action.cube, state.cube * 2, "double")
        return flow.Double(action.player)
    if isinstance(action, RecordedBeaver):
        _expect_cube(action.cube, state.offered * 2, "beaver")
        return flow.Beaver(action.player)
    if isinstance(action, RecordedRaccoon):
        _expect_cube(action.cube, state.offered * 2, "raccoon")
        return flow.Raccoon(action.player)
    if isinstance(action, RecordedTake):
        return flow.Take(action.player)
    if isinstance(action, RecordedDrop):
        return flow.Drop(action.player)
    raise flow.EventRefused(f"unknown action {action!r}")


def _expect_cube(written: int, actual: int, what: str) -> None:
    if written != actual:
        raise flow.EventRefused(f"the {what} turns the cube to {actual}, not {written}")


def _resign(state: flow.Game, action: RecordedResign, move: int) -> Step:
    """A resignation the rules allow (1, 2 or 3 times the cube, in the game);
    any other (a match forfeit of the points the winner still needed, a
    resignation before the opening roll) ends the game as recorded, with a
    warning."""
    cube = state.cube
    level, rest = divmod(action.points, cube)
    if not rest and 1 <= level <= 3 and state.phase in (flow.Phase.ROLL, flow.Phase.MOVE):
        offered = flow.apply(state, flow.Resign(action.player, flow.Win(level)))
        return Step(action, move, state, flow.apply(offered, flow.AcceptResignation(other(action.player))))
    if state.phase is flow.Phase.OVER:
        raise flow.EventRefused("the game is over")
    if state.phase is flow.Phase.OPENING:
        why = f"player {action.player} resigned before the opening roll"
    elif rest or not 1 <= level <= 3:
        why = (
            f"player {other(action.player)} is given {action.points} point(s), which no resignation gives "
            f"(1, 2 or 3 times the cube of {cube}): read as stated (a forfeit, or the points needed for the match)"
        )
    else:
        why = f"player {action.player} resigned while the game waited for {state.phase.value}"
    return Step(action, move, state, ended(state, other(action.player), action.points), warnings=(why,))


def ended(state: flow.Game, winner: int, points: int, how: str = "resignation") -> flow.Game:
    """The game ended with the result a record states where the rules give
    another (or none): ``winner`` scores ``points``."""
    result = flow.Result(winner, points, flow.Win.SINGLE, how)
    return replace(state, phase=flow.Phase.OVER, result=result, turn=winner, resignation=None, resigned_in=None)


def game_start(state: flow.Game, cube: int, number: int) -> flow.Game:
    """The game at its opening roll with the cube at ``cube`` (automatic
    doubles, which the rules must allow)."""
    if cube == 1:
        return state
    rules = state.rules
    doubles = cube.bit_length() - 1
    if cube != 1 << doubles or not rules.money or doubles > rules.automatic_doubles or cube > rules.max_cube:
        raise ReplayError(
            f"the cube cannot start at {cube}: the rules allow {rules.automatic_doubles} automatic double(s)"
            + ("" if rules.money else " (none in match play)"),
            number,
            0,
        )
    return replace(state, cube=cube, automatic_doubles=doubles)


def replay_game(
    game: RecordedGame, state: flow.Game, number: int = 1, score: tuple[int, int] = (0, 0), tolerant: bool = False
) -> GameReplay:
    """Replay one game from ``state`` (a game at its opening roll).  With
    ``tolerant``, an action the rules refuse is kept as recorded (the state
    unchanged) with a warning instead of raising ReplayError."""
    steps: list[Step] = []
    try:
        state = game_start(state, game.cube, number)
    except ReplayError:
        if not tolerant:
            raise
        state = replace(state, cube=game.cube)
    current = state
    moves = 0
    for action in game.actions:
        if isinstance(action, RecordedMove):
            moves += 1
        try:
            step = advance(current, action, max(moves, 1))
        except ReplayError as exc:
            if not tolerant:
                raise ReplayError(exc.reason, number, exc.move, exc.illegal) from None
            step = Step(action, max(moves, 1), current, current, None, (), (f"not followed: {exc.reason}",))
        steps.append(step)
        current = step.after
    current, said = _settle_result(game, current, number, moves, tolerant)
    warnings = [f"game {number}, move {s.move}: {w}" for s in steps for w in s.warnings]
    warnings += [f"game {number}, move {max(moves, 1)}: {w}" for w in said]
    return GameReplay(number, score, tuple(steps), state, current, tuple(warnings))


def _settle_result(game: RecordedGame, end: flow.Game, number: int, moves: int, tolerant: bool) -> tuple[flow.Game, tuple[str, ...]]:
    """The game's end with the recorded result, and warnings where the rules
    give another.  A result the record states is kept; a different winner, or
    a result where the rules see the game go on or end unrecorded, is an
    error unless ``tolerant``."""
    said = game.result
    got = end.result
    if said is None and got is None:
        return end, ()
    if said is None or got is None or said.winner != got.winner:
        if said is None:
            message = f"the game ends here ({got}), but the record gives no result"
        elif got is None:
            message = f"the record says player {said.winner} won {said.points} point(s), but the game goes on here"
        else:
            message = f"the record says player {said.winner} won, the rules give player {got.winner} ({got.how})"
        if not tolerant:
            raise ReplayError(message, number, moves)
        if said is None:
            return end, (message,)
        return ended(end, said.winner, said.points, "resignation" if said.resigned else "bore off"), (message,)
    if (said.points, said.resigned) == (got.points, got.how == "resignation"):
        return end, ()
    how = "resignation" if said.resigned else got.how
    warnings: tuple[str, ...] = ()
    if said.points != got.points:
        warnings = (f"the record gives player {said.winner} {said.points} point(s), the rules give {got.points} ({got.how}): read as recorded",)
    return replace(end, result=replace(got, points=said.points, how=how)), warnings


# --- the match ---------------------------------------------------------------------


def start_match(rules: flow.Rules, games: tuple[RecordedGame, ...] | list[RecordedGame]) -> flow.Match:
    """The match before its first recorded game.  A record may start in the
    middle of a match: the first game's score is taken as given (its Crawford
    state follows from it); later games must add up."""
    first = tuple(games[0].score) if games else (0, 0)
    state = replace(flow.new_match(rules), score=(first[0], first[1]))
    return replace(state, game=flow.new_game(rules, crawford=state.next_is_crawford()))


def replay(match: RecordedMatch, tolerant: bool = False) -> MatchReplay:
    """Replay every game; checks each game's starting score against the match
    so far.  With ``tolerant`` (for writers) nothing raises: what the rules
    refuse is kept as recorded, with a warning."""
    state = start_match(match.rules, match.games)
    replays: list[GameReplay] = []
    notes: list[str] = []
    for number, game in enumerate(match.games, start=1):
        try:
            check_score(state, game.score, number)
        except ReplayError as exc:
            if not tolerant:
                raise
            notes.append(str(exc))
            state = replace(start_match(match.rules, [game]), games_played=state.games_played)
        assert state.game is not None
        done = replay_game(game, state.game, number, game.score, tolerant)
        replays.append(done)
        notes += done.warnings
        state = finish_game(state, done, number)
    return MatchReplay(match, tuple(replays), tuple(notes))


def check_score(state: flow.Match, score: tuple[int, int], number: int) -> None:
    """Raise ReplayError unless ``score`` is the match's score before game ``number``."""
    if state.winner is not None:
        raise ReplayError(f"the match was already won {state.score[0]}-{state.score[1]}", number, 0)
    if state.game is None:
        raise ReplayError(f"game {number - 1} has no result, so no game can follow it", number, 0)
    if tuple(score) != state.score:
        raise ReplayError(
            f"the record gives the score {score[0]}-{score[1]}, the games before give "
            f"{state.score[0]}-{state.score[1]}",
            number,
            0,
        )


def finish_game(state: flow.Match, done: GameReplay, number: int) -> flow.Match:
    """The match after a replayed game (its points added, the next game set up)."""
    if done.end.result is None:
        return replace(state, game=None)
    score = list(state.score)
    score[done.end.result.winner] += done.end.result.points
    played = replace(
        state,
        score=(score[0], score[1]),
        games_played=state.games_played + 1,
        crawford_played=state.crawford_played or done.start.crawford,
        game=done.end,
        last_result=done.end.result,
    )
    if played.winner is not None:
        return played
    return replace(played, game=flow.new_game(state.rules, crawford=played.next_is_crawford()))


# --- identifiers ---------------------------------------------------------------------


def match_id(state: flow.Game, score: tuple[int, int]) -> MatchId:
    """GNU Backgammon's Match ID fields for a game state; ``score`` is the score
    before the game (once the game is over, its points are added, as GNU
    Backgammon shows them)."""
    rules = state.rules
    over = state.result is not None
    if state.result is not None:
        added = list(score)
        added[state.result.winner] += state.result.points
        score = (added[0], added[1])
    return MatchId(
        match_length=rules.match_length,
        score=score,
        cube=state.cube,
        cube_owner=state.cube_owner,
        on_roll=state.on_roll,
        turn=state.on_roll if over else state.turn,
        crawford=state.crawford,
        game_state=_game_state(state),
        double_offered=state.phase in (flow.Phase.DOUBLED, flow.Phase.BEAVERED, flow.Phase.RACCOONED),
        resignation=int(state.resignation or 0),
        dice=state.dice if state.dice and state.phase is flow.Phase.MOVE else (0, 0),
        jacoby=rules.jacoby,
    )


def _game_state(state: flow.Game) -> GameState:
    if state.phase is flow.Phase.OPENING:
        return GameState.NONE
    if state.result is None:
        return GameState.PLAYING
    return {"drop": GameState.DROPPED, "resignation": GameState.RESIGNED}.get(state.result.how, GameState.OVER)


def xgid(state: flow.Game, score: tuple[int, int]) -> Xgid:
    """eXtreme Gammon's XGID fields for a game state at ``score``."""
    rules = state.rules
    doubled = state.phase in (flow.Phase.DOUBLED, flow.Phase.BEAVERED, flow.Phase.RACCOONED)
    return Xgid(
        position=state.position if not doubled else state.position.swap(),
        turn=state.turn,
        cube=state.cube,
        cube_owner=state.cube_owner,
        dice=state.dice if state.dice and state.phase is flow.Phase.MOVE else (0, 0),
        double_offered=doubled,
        score=score,
        match_length=rules.match_length,
        crawford=state.crawford,
        jacoby=rules.jacoby,
        beavers=rules.beavers,
        max_cube=rules.max_cube,
    )


def identifiers(state: flow.Game, score: tuple[int, int]) -> tuple[str, str, str]:
    """Position ID, Match ID and XGID of a game state; ``score`` is the score
    before the game.  The Position ID is seen from the player holding the dice
    (as GNU Backgammon shows it, also while the opponent answers a double)."""
    return state.position.id(), match_id(state, score).encode(), xgid(state, score).encode()
