"""Property: random matches written as .mat or SGF and read back are the same records.

The random matches are played through the rules with a seeded generator: random
legal plays, doubles, takes, drops, beavers and raccoons (money), resignations
(also right after a roll), dances, and now and then an illegal play accepted
as made.  ``random_match`` is also used by other record tests.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import Game as GameState
from engine.game import Phase, Rules
from engine.mat import read_mat, write_mat
from engine.plays import legal_plays
from engine.record import (
    Action,
    RecordedBeaver,
    RecordedDouble,
    RecordedDrop,
    RecordedGame,
    RecordedMatch,
    RecordedMove,
    RecordedRaccoon,
    RecordedResign,
    RecordedResult,
    RecordedRoll,
    RecordedTake,
    other,
)
from engine.replay import (
    GameReplay,
    advance,
    finish_game,
    game_start,
    replay,
    start_match,
)
from engine.sgf import read_sgf, write_sgf

DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def random_match(
    rng: random.Random,
    length: int,
    *,
    crawford: bool = True,
    jacoby: bool = False,
    beavers: bool = False,
    max_games: int = 3,
    comments: bool = False,
    illegal: float = 0.0,
    players: tuple[str, str] = ("Ann Lee", "Bob"),
    automatic_doubles: int = 0,
    start_cubes: bool = False,
) -> RecordedMatch:
    """A match played at random under the rules (``length`` 0 = money); with
    ``start_cubes`` some money games start with the cube turned automatically."""
    money = length == 0
    rules = Rules(
        match_length=length,
        crawford=not money and crawford,
        jacoby=money and jacoby,
        beavers=money and beavers,
        raccoons=money and beavers and rng.random() < 0.5,
        max_cube=1024 if money else 64,
        automatic_doubles=automatic_doubles if money else 0,
    )
    state = start_match(rules, [])
    games: list[RecordedGame] = []
    while state.winner is None and state.game is not None and len(games) < max_games:
        cube = 1 << rng.randint(0, rules.automatic_doubles) if start_cubes else 1
        game, done = _random_game(rng, game_start(state.game, cube, 1), state.score, comments, illegal)
        games.append(game)
        state = finish_game(state, done, len(games))
    comment = f"random match {rng.randrange(10**6)}\nsecond line" if comments else ""
    return RecordedMatch(players, rules, tuple(games), (("Site", "kitchen table"), ("Round", "1")), comment)


def _random_game(
    rng: random.Random, start: GameState, score: tuple[int, int], comments: bool, illegal: float
) -> tuple[RecordedGame, GameReplay]:
    state = start
    actions: list[Action] = []
    steps = []
    while state.result is None:
        for action in _choose(rng, state, illegal):
            step = advance(state, action, 1)
            if isinstance(action, RecordedMove) and step.play is not None:
                action = replace(action, play=str(step.play))
            if comments and not isinstance(action, RecordedResign) and rng.random() < 0.1:
                action = replace(action, comment=f"note {len(actions)}: [sic] \\ ok")
            actions.append(action)
            steps.append(step)
            state = step.after
    assert state.result is not None
    result = RecordedResult(state.result.winner, state.result.points, state.result.how == "resignation")
    game = RecordedGame(score, tuple(actions), result, "a game comment" if comments else "", start.cube)
    return game, GameReplay(0, score, tuple(steps), start, state)


def _choose(rng: random.Random, state: GameState, illegal: float) -> list[Action]:
    """The next action(s) of a random game."""
    if state.phase in (Phase.DOUBLED, Phase.BEAVERED, Phase.RACCOONED):
        return [_answer(rng, state)]
    turn = state.turn
    r = rng.random()
    if state.phase is Phase.ROLL and r < 0.05 and state.may_double(turn) is None:
        return [RecordedDouble(turn, state.cube * 2)]
    if state.phase is Phase.ROLL and r < 0.07:
        return [RecordedResign(rng.choice((0, 1)), _resign_points(rng, state))]
    dice = rng.choice(DICE)
    while state.phase is Phase.OPENING and dice[0] == dice[1]:
        dice = rng.choice(DICE)
    player = rng.choice((0, 1)) if state.phase is Phase.OPENING else turn
    if state.phase is Phase.ROLL and r < 0.08:
        return [RecordedRoll(player, dice), RecordedResign(player, _resign_points(rng, state))]
    return [RecordedMove(player, dice, _play_text(rng, state, player, dice, illegal))]


def _answer(rng: random.Random, state: GameState) -> Action:
    player = state.turn
    rules = state.rules
    r = rng.random()
    if state.phase is Phase.DOUBLED and rules.beavers and r < 0.3 and state.offered * 2 <= rules.max_cube:
        return RecordedBeaver(player, state.offered * 2)
    if state.phase is Phase.BEAVERED and rules.raccoons and r < 0.3 and state.offered * 2 <= rules.max_cube:
        return RecordedRaccoon(player, state.offered * 2)
    return RecordedTake(player) if r < 0.7 else RecordedDrop(player)


def _resign_points(rng: random.Random, state: GameState) -> int:
    """What a resignation is worth: 1, 2 or 3 times the cube (only single under Jacoby before a double)."""
    rules = state.rules
    if rules.match_length == 0 and rules.jacoby and not state.doubled:
        return state.cube
    return rng.choice((1, 1, 1, 2, 3)) * state.cube


def _play_text(rng: random.Random, state: GameState, player: int, dice: tuple[int, int], illegal: float) -> str:
    position = state.position  # the roller's view before the roll (the opening: symmetric)
    plays = legal_plays(position, dice)
    if plays and rng.random() < illegal:
        other_dice = rng.choice(DICE)
        wrong = legal_plays(position, other_dice)
        if wrong:
            text = str(rng.choice(wrong))
            if advance(state, RecordedMove(player, dice, text), 1).reasons:
                return text
    return str(rng.choice(plays)) if plays else ""


# --- properties ------------------------------------------------------------------------

LENGTHS = st.sampled_from([0, 1, 3, 5, 7])


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), length=LENGTHS, crawford=st.booleans(), jacoby=st.booleans(), beavers=st.booleans())
def test_random_matches_survive_mat(seed, length, crawford, jacoby, beavers):
    match = random_match(
        random.Random(seed),
        length,
        crawford=crawford,
        jacoby=jacoby,
        beavers=beavers,
        illegal=0.02,
        automatic_doubles=seed % 3,
    )
    assert read_mat(write_mat(match)) == match


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), length=LENGTHS, crawford=st.booleans(), jacoby=st.booleans(), beavers=st.booleans())
def test_random_matches_survive_sgf_with_comments(seed, length, crawford, jacoby, beavers):
    match = random_match(
        random.Random(seed),
        length,
        crawford=crawford,
        jacoby=jacoby,
        beavers=beavers,
        comments=True,
        illegal=0.02,
        players=("Ann ]Lee[", "Bob \\ C"),
        automatic_doubles=seed % 3,
        start_cubes=True,
    )
    assert read_sgf(write_sgf(match)) == match


def test_generator_covers_what_the_properties_claim():
    """The random matches do hold the actions the properties are about."""
    kinds: set[str] = set()
    illegal = 0
    for seed in range(40):
        match = random_match(random.Random(seed), seed % 2 and 5, beavers=True, illegal=0.02)
        done = replay(match)
        illegal += sum(1 for _ in done.illegal())
        for game in match.games:
            kinds |= {type(a).__name__.removeprefix("Recorded") for a in game.actions}
            kinds |= {"Dance" for a in game.moves() if a.play == ""}
            if game.result and game.result.resigned:
                kinds.add("Resigned")
    assert {"Move", "Roll", "Double", "Take", "Drop", "Beaver", "Raccoon", "Resign", "Dance", "Resigned"} <= kinds
    assert illegal > 0


def test_other_is_the_other_player():
    assert other(0) == 1 and other(1) == 0
