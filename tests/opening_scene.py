"""The referee tests' common opening, written by hand in dark's numbers (dark positive): the start position, dark
winning the opening roll 5-2 (dark's 5 in dark's half, light's 2 in light's) and playing it 13/8 13/11."""

from engine.board import Board
from engine.game import Phase, Rules
from referee.core import Referee, Seen, SeenDie, Settings, observe, start

SETTINGS = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"))
DARK, LIGHT = SETTINGS.right_half(0), SETTINGS.right_half(1)
# the start position: dark on 6, 8, 13, 24; light on 1, 12, 17, 19
START = {6: 5, 8: 3, 13: 5, 24: 2, 1: -2, 12: -5, 17: -3, 19: -5}
PLAYED = {**START, 13: 3, 8: 4, 11: 1}  # dark's opening 5-2: 13/8 13/11
DARK_DICE = (SeenDie(5, True, DARK, 0.99), SeenDie(2, True, DARK, 0.99))  # dark's 5-2 lying in dark's half


def board(points: dict[int, int]) -> Board:
    return Board(tuple(points.get(i, 0) for i in range(1, 25)), (0, 0))


def dark_to_play() -> Referee:
    """Dark won the opening roll 5-2: dark to play it."""
    ref = start(SETTINGS)
    ref, _ = observe(ref, Seen(board=board(START)))
    ref, _ = observe(ref, Seen(board=board(START), dice=(SeenDie(5, True, DARK, 0.99), SeenDie(2, True, LIGHT, 0.99))))
    assert ref.game.phase is Phase.MOVE and ref.game.turn == 0 and ref.game.dice == (5, 2)
    return ref


def dark_played(picked_up: bool = True) -> Referee:
    """Dark played the opening 5-2 13/8 13/11 with the dice down; ``picked_up``: then lifted them, light to roll."""
    ref, _ = observe(dark_to_play(), Seen(board=board(PLAYED), dice=DARK_DICE))
    if picked_up:
        ref, _ = observe(ref, Seen(board=board(PLAYED)))  # every die picked up: the turn is over
        assert ref.game.turn == 1 and ref.game.phase is Phase.ROLL
    return ref
