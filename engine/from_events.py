"""A match record (:mod:`engine.record`) from the events of :mod:`engine.game`.

The referee journals engine events; this turns them into the record that the
``.mat`` and SGF writers take.  A play accepted as made is written as it was
made, with its reasons in the move's comment.
"""

from __future__ import annotations

from typing import Iterable

from . import game as flow
from . import record
from .judge import describe_movement, judge


def record_from_events(players: tuple[str, str], rules: flow.Rules, events: Iterable[flow.Event]) -> record.RecordedMatch:
    """The match record of ``events`` (games in progress are included, unfinished)."""
    match = flow.new_match(rules)
    games: list[record.RecordedGame] = []
    actions: list[record.Action] = []
    score = match.score
    resigning: record.RecordedResign | None = None  # offered, not yet accepted or rejected
    for event in events:
        before = match.game
        assert before is not None
        action = _action(before, event)
        match = flow.apply_to_match(match, event)
        if isinstance(action, record.RecordedResign):
            resigning = action  # recorded only if it is accepted
        elif action is not None:
            actions.append(action)
        if isinstance(event, flow.RejectResignation):
            resigning = None
        if match.games_played > len(games):
            if isinstance(event, flow.AcceptResignation) and resigning is not None:
                actions.append(resigning)
            resigning = None
            result = match.last_result
            assert result is not None
            games.append(_game(score, actions, before, record.RecordedResult(result.winner, result.points, result.how == "resignation")))
            actions = []
            score = match.score
    if actions:
        assert match.game is not None
        games.append(_game(score, actions, match.game, None))
    return record.RecordedMatch(players, rules, tuple(games))


def _game(score: tuple[int, int], actions: list[record.Action], game: flow.Game, result: record.RecordedResult | None) -> record.RecordedGame:
    # The cube when play started: above 1 after automatic doubles.
    start_cube = 2 ** game.automatic_doubles
    return record.RecordedGame(score, tuple(actions), result, cube=start_cube)


def _action(game: flow.Game, event: flow.Event) -> record.Action | None:
    if isinstance(event, (flow.OpeningRoll, flow.Roll)):
        return None  # recorded with the play
    if isinstance(event, flow.Move):
        assert game.dice is not None
        verdict = judge(game.position, game.dice, event.after)
        if verdict.legal and verdict.play is not None:
            return record.RecordedMove(event.player, game.dice, str(verdict.play))
        reasons = "; ".join(r.text for r in verdict.reasons)
        text = describe_movement(game.position, event.after)
        return record.RecordedMove(event.player, game.dice, text, comment=f"illegal play accepted as made: {reasons}")
    if isinstance(event, flow.Double):
        return record.RecordedDouble(event.player, game.cube * 2)
    if isinstance(event, flow.Take):
        return record.RecordedTake(event.player)
    if isinstance(event, flow.Drop):
        return record.RecordedDrop(event.player)
    if isinstance(event, flow.Beaver):
        return record.RecordedBeaver(event.player, game.offered * 2)
    if isinstance(event, flow.Raccoon):
        return record.RecordedRaccoon(event.player, game.offered * 2)
    if isinstance(event, flow.Resign):
        return record.RecordedResign(event.player, int(event.win) * game.cube)
    return None  # accepting or rejecting a resignation is part of the Resign record
