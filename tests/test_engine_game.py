"""Game, cube and match flow: every event, and refusals that leave the state unchanged."""

import random

import pytest

from engine import Position, legal_plays
from engine.game import (
    AcceptResignation, Beaver, Double, Drop, EventRefused, Move, OpeningRoll, Phase, Raccoon,
    RejectResignation, Resign, Roll, Rules, Take, Win, apply, apply_to_match, new_game, new_match,
)
from engine.plays import Hop, apply_hops

MONEY = Rules()


def opened(rules=MONEY, dice=(3, 1)):
    return apply(new_game(rules), OpeningRoll(dice))


def play_first(game):
    """The first legal play of the dice in hand."""
    plays = legal_plays(game.position, game.dice)
    return apply(game, Move(game.turn, plays[0].after if plays else game.position))


def test_opening_roll_higher_die_moves_first_with_both_dice():
    g = opened(dice=(2, 5))
    assert g.phase is Phase.MOVE and g.turn == 1 and g.dice == (5, 2)


def test_equal_opening_dice_roll_again_or_double_automatically():
    g = apply(new_game(MONEY), OpeningRoll((4, 4)))
    assert g.phase is Phase.OPENING and g.cube == 1
    auto = Rules(automatic_doubles=1)
    g = apply(new_game(auto), OpeningRoll((4, 4)))
    assert g.cube == 2 and g.cube_owner is None and g.phase is Phase.OPENING
    g = apply(g, OpeningRoll((5, 5)))
    assert g.cube == 2, "limited to one automatic double"


def test_refused_events_say_why_and_change_nothing():
    g = opened()
    with pytest.raises(EventRefused, match="waits for play"):
        apply(g, Roll(0, (1, 2)))
    with pytest.raises(EventRefused, match="before rolling"):
        apply(g, Double(0))
    g = play_first(g)
    with pytest.raises(EventRefused, match="player 1's turn"):
        apply(g, Roll(0, (1, 2)))
    g2 = apply(g, Roll(1, (6, 5)))
    with pytest.raises(EventRefused, match="cannot roll"):
        apply(g2, Roll(1, (6, 5)))  # rolled twice
    with pytest.raises(EventRefused, match="illegal play"):
        apply(g2, Move(1, g2.position))


def test_illegal_play_accepted_as_made():
    g = apply(play_first(opened()), Roll(1, (6, 1)))
    seen = apply_hops(g.position, [Hop(13, 7)])  # only one die played
    g2 = apply(g, Move(1, seen, accept_illegal=True))
    assert g2.turn == 0 and g2.last_verdict is not None and not g2.last_verdict.legal


def test_double_take_gives_the_cube_to_the_taker():
    g = apply(play_first(opened()), Double(1))
    assert g.phase is Phase.DOUBLED and g.turn == 0
    g = apply(g, Take(0))
    assert (g.cube, g.cube_owner, g.turn, g.phase) == (2, 0, 1, Phase.ROLL)
    with pytest.raises(EventRefused, match="opponent owns the cube"):
        apply(g, Double(1))


def test_drop_loses_the_value_before_the_double():
    g = apply(play_first(opened()), Double(1))
    g = apply(g, Drop(0))
    assert g.phase is Phase.OVER and g.result.winner == 1 and g.result.points == 1 and g.result.how == "drop"


def test_beaver_and_raccoon():
    rules = Rules(beavers=True, raccoons=True)
    g = apply(play_first(opened(rules)), Double(1))
    g = apply(g, Beaver(0))
    assert g.phase is Phase.BEAVERED and g.offered == 4 and g.turn == 1
    g_take = apply(g, Take(1))
    assert (g_take.cube, g_take.cube_owner) == (4, 0), "the beaverer keeps the cube"
    g_drop = apply(g, Drop(1))
    assert g_drop.result.winner == 0 and g_drop.result.points == 2
    g = apply(g, Raccoon(1))
    assert g.offered == 8 and g.turn == 0
    g = apply(g, Take(0))
    assert (g.cube, g.cube_owner) == (8, 1)
    with pytest.raises(EventRefused, match="beavers are not"):
        apply(apply(play_first(opened()), Double(1)), Beaver(0))


def test_cube_limit():
    g = apply(play_first(opened(Rules(max_cube=2))), Double(1))
    g = apply(g, Take(0))
    g = apply(g, Roll(1, (6, 5)))
    g = play_first(g)
    assert "limit" in g.may_double(0)


def test_resignation_levels_and_rejection():
    g = play_first(opened())
    g = apply(g, Resign(1, Win.GAMMON))
    assert g.phase is Phase.RESIGNATION and g.turn == 0
    back = apply(g, RejectResignation(0))
    assert back.phase is Phase.ROLL and back.turn == 1
    done = apply(g, AcceptResignation(0))
    assert done.result.winner == 0 and done.result.points == 2 and done.result.how == "resignation"


def _bear_off_finish(loser_side, rules=MONEY, cube=1, doubled=False):
    """A game where player 0 bears off its last checker against ``loser_side``."""
    from dataclasses import replace

    position = Position.from_counts({1: 1}, loser_side)
    g = replace(new_game(rules), phase=Phase.MOVE, position=position, turn=0, on_roll=0, dice=(2, 1), cube=cube, doubled=doubled)
    return apply(g, Move(0, legal_plays(position, (2, 1))[0].after))


def test_single_gammon_backgammon_and_jacoby():
    assert _bear_off_finish({6: 14}).result.win is Win.SINGLE  # one off already
    assert _bear_off_finish({6: 15}).result.win is Win.GAMMON
    assert _bear_off_finish({6: 14, 20: 1}).result.win is Win.BACKGAMMON  # in the winner's home board
    assert _bear_off_finish({6: 14, 25: 1}).result.win is Win.BACKGAMMON  # on the bar
    assert _bear_off_finish({6: 15}, cube=4).result.points == 8
    jacoby = Rules(jacoby=True)
    assert _bear_off_finish({6: 15}, jacoby).result.points == 1
    assert _bear_off_finish({6: 15}, jacoby, cube=2, doubled=True).result.points == 4


def test_rules_are_checked():
    with pytest.raises(ValueError, match="money-play rules"):
        Rules(match_length=5, jacoby=True)
    with pytest.raises(ValueError, match="raccoons need beavers"):
        Rules(raccoons=True)


def _play_match(rules, seed, double_rate=0.1):
    rng = random.Random(seed)
    m = new_match(rules)
    crawford_games = []
    while m.winner is None:
        g = m.game
        if g.phase is Phase.OPENING:
            m = apply_to_match(m, OpeningRoll((rng.randint(1, 6), rng.randint(1, 6))))
        elif g.phase is Phase.ROLL:
            if g.crawford:
                crawford_games.append(m.games_played)
                with pytest.raises(EventRefused, match="Crawford"):
                    apply(g, Double(g.turn))
            if g.may_double(g.turn) is None and rng.random() < double_rate:
                m = apply_to_match(m, Double(g.turn))
            else:
                m = apply_to_match(m, Roll(g.turn, (rng.randint(1, 6), rng.randint(1, 6))))
        elif g.phase is Phase.DOUBLED:
            m = apply_to_match(m, Take(g.turn) if rng.random() < 0.6 else Drop(g.turn))
        else:
            plays = legal_plays(g.position, g.dice)
            m = apply_to_match(m, Move(g.turn, plays[rng.randint(0, len(plays) - 1)].after if plays else g.position))
    return m, set(crawford_games)


@pytest.mark.parametrize("seed", range(6))
def test_matches_end_at_the_length_with_one_crawford_game(seed):
    m, crawford = _play_match(Rules(match_length=5), seed)
    assert max(m.score) >= 5 and m.winner == m.score.index(max(m.score))
    assert len(crawford) <= 1
    if crawford:
        assert m.crawford_played
