"""An opening die misread on one reading (issue #43: no false calls; the record equals the game).

Each player rolls one die into their own right-hand half; the higher die opens.  A die misread once can
change who opens: dark's 5 and light's 6 read as 5 and 4 make dark the opener, and light's opening play is
then "the opponent's checkers moved".  Every reading of the opening dice counts, one die too, weighed by how
sure vision was; the play then tells which reading it fits, as for any roll read both ways.

Expected values written by hand from the rules.  Dark (Ann) rolls into the home half, light (Bob) into the
outer half.  Light's 24/13 (dark's point 1 to dark's point 12) is an opening play of 6-5 and of nothing else.
"""

from __future__ import annotations

from engine import Position
from engine.board import Board
from engine.game import Move, OpeningRoll, Phase, Rules
from engine.plays import Hop, apply_hops
from referee.core import Seen, SeenDie, Settings, observe, start

DARK, LIGHT = 0, 1
SETTINGS = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"), dark_right_half="home")
STOPPING = {"illegal_play", "moved_before_roll", "out_of_turn", "wrong_half", "cocked", "roll_before_pickup", "seating"}
START = Board.from_position(Position.start(), DARK)
BOB_24_13 = apply_hops(Position.start(), [Hop(24, 13)])  # light's view
PLAYED = Board.from_position(BOB_24_13, LIGHT)


def see(ref, board, dice=()):
    return observe(ref, Seen(board=board, dice=tuple(dice), cube_value=1, cube_position="centre"))


def ann(value: int, sure: float = 0.9) -> SeenDie:
    return SeenDie(value, True, "home", sure)


def bob(value: int, sure: float = 0.9) -> SeenDie:
    return SeenDie(value, True, "outer", sure)


def stopping(outs) -> list[tuple[str, int | None]]:
    return [(c.kind, c.player) for out in outs for c in out.calls if c.kind in STOPPING]


def test_bobs_six_read_once_then_misread_as_four_the_play_and_the_readings_give_bob_the_opening() -> None:
    ref, o0 = see(start(SETTINGS), START)
    ref, o1 = see(ref, START, [bob(6, 0.95)])  # Bob's die lands first: a 6
    ref, o2 = see(ref, START, [ann(5), bob(4, 0.9)])  # both down: Bob's misread as a 4 (Ann "opens" 5-4)
    ref, o3 = see(ref, PLAYED, [ann(5), bob(4, 0.9)])  # Bob plays 24/13, the dice still down
    ref, o4 = see(ref, PLAYED)  # picked up
    # the opening was Ann's 5 and Bob's 6: Bob opened 6-5 and played 24/13; nobody is called
    assert OpeningRoll((5, 6)) in o4.events and Move(LIGHT, BOB_24_13) in o4.events
    assert o4.retracted == 1  # Ann's 5-4 withdrawn
    assert stopping([o0, o1, o2, o3, o4]) == []
    assert ref.plays == 1 and ref.game.turn == DARK and ref.game.phase is Phase.ROLL


def test_the_opening_read_the_same_way_throughout_stands_and_the_other_player_moving_is_called() -> None:
    ref, _ = see(start(SETTINGS), START)
    ref, o1 = see(ref, START, [ann(5), bob(4)])
    ref, o2 = see(ref, PLAYED, [ann(5), bob(4)])
    ref, o3 = see(ref, PLAYED)
    # Ann opened 5-4 as far as anyone saw; Bob moved his checkers instead, and 24/13 is no 5-4 play of his either
    assert o1.events == (OpeningRoll((5, 4)),)
    assert stopping([o1, o2, o3]) == [("illegal_play", DARK)]


def test_a_roll_again_forgets_the_dice_of_the_roll_before() -> None:
    ref, _ = see(start(SETTINGS), START)
    ref, _ = see(ref, START, [bob(6)])
    ref, o1 = see(ref, START, [ann(3), bob(3)])  # equal dice: roll again
    assert o1.events == (OpeningRoll((3, 3)),) and ref.game.phase is Phase.OPENING
    ref, _ = see(ref, START)
    ref, o2 = see(ref, START, [ann(5), bob(4)])
    ref, o3 = see(ref, PLAYED, [ann(5), bob(4)])
    ref, o4 = see(ref, PLAYED)
    # the 6 was a die of the roll before: it says nothing of this one, so Ann's 5-4 stands, and Bob's move is called
    assert o2.events == (OpeningRoll((5, 4)),)
    assert stopping([o2, o3, o4]) == [("illegal_play", DARK)]


def test_both_dice_misread_once_before_the_play_and_read_right_after_it_give_bob_the_opening() -> None:
    ref, _ = see(start(SETTINGS), START)
    ref, o1 = see(ref, START, [ann(5), bob(1, 0.9)])  # Bob's 6 misread as a 1: Ann "opens" 5-1
    ref, o2 = see(ref, PLAYED, [ann(5), bob(6, 0.95)])  # Bob plays 24/13; his die now read right
    ref, o3 = see(ref, PLAYED)
    # Bob's checkers moved are his opening play (6-5), not Ann's opponent's checkers to put back
    assert o1.events == (OpeningRoll((5, 1)),)
    assert OpeningRoll((5, 6)) in o3.events and Move(LIGHT, BOB_24_13) in o3.events
    assert stopping([o1, o2, o3]) == []
    assert ref.plays == 1 and ref.game.turn == DARK


def test_one_die_misread_once_the_play_one_checker_short_is_still_the_opening_of_the_surer_reading() -> None:
    ref, _ = see(start(SETTINGS), START)
    ref, _ = see(ref, START, [ann(5), bob(2, 0.9)])  # Bob's 6 misread as a 2: Ann "opens" 5-2
    short = list(PLAYED.points)
    short[11] += 1  # Bob's 13-point (dark's 12) read a checker short: six read as five
    ref, _ = see(ref, Board(tuple(short)), [ann(5), bob(6, 0.95)])
    ref, o3 = see(ref, Board(tuple(short)))
    assert OpeningRoll((5, 6)) in o3.events and Move(LIGHT, BOB_24_13) in o3.events
    assert ref.plays == 1 and ref.game.turn == DARK
