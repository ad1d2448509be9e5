"""A turn that ends unseen is no foul (issue #43: no false calls).

Two classes seen on independent dev footage, each written here from the rules by hand:

- The next roll repeats the last one (one time in 18 for a non-double).  The player who has just played
  throws the same numbers into their own right-hand half, with the hand seen coming from their seat, before
  the camera saw the other player's dice picked up.  The turn has passed: the play is judged, the roll is the
  new roller's, and their checkers moving next is their play, not a move before the other's turn ended.
- A double waits for its answer; the take and the doubler's roll go unseen (dice thrown into the wrong
  half and picked up under a hand, say), the doubler's checkers then stand one play further, and the one
  doubled throws into their own half.  Nobody plays before a take, and a drop ends the game: the double was
  taken, the doubler rolled and played, and the throw is the doubled player's own roll, not out of turn.

Dark rolls into the home half here, light into the outer half.
"""

from __future__ import annotations

from engine import Position
from engine.board import Board
from engine.game import Move, OpeningRoll, Phase, Roll, Rules
from engine.plays import Hop, apply_hops
from referee.core import Seen, SeenDie, Settings, observe, resume, start

DARK, LIGHT = 0, 1
SETTINGS = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"), dark_right_half="home")
STOPPING = {"illegal_play", "moved_before_roll", "out_of_turn", "wrong_half", "cocked", "bar_waiting"}


def see(ref, board, dice=(), hand=None, cube=(1, "centre")):
    return observe(ref, Seen(board=board, dice=tuple(dice), hand=hand, cube_value=cube[0], cube_position=cube[1]))


def dark_half(a: int, b: int):
    return (SeenDie(a, True, "home"), SeenDie(b, True, "home"))


def light_half(a: int, b: int):
    return (SeenDie(a, True, "outer"), SeenDie(b, True, "outer"))


def light_to_roll():
    """Ann (dark) opened with 5-2 and played 13/11 13/8; Bob (light) is to roll."""
    ref = start(SETTINGS)
    board = Board.from_position(Position.start(), DARK)
    ref, _ = see(ref, board)
    ref, _ = see(ref, board, (SeenDie(5, True, "home"), SeenDie(2, True, "outer")))
    played = Board.from_position(apply_hops(ref.game.position, [Hop(13, 11), Hop(13, 8)]), DARK)
    ref, _ = see(ref, played, (SeenDie(5, True, "home"), SeenDie(2, True, "outer")))
    ref, _ = see(ref, played)
    assert ref.game.phase is Phase.ROLL and ref.game.turn == LIGHT
    return ref, played


def stopping(outs) -> list[str]:
    return [c.kind for out in outs for c in out.calls if c.kind in STOPPING]


def test_the_next_roll_with_the_same_numbers_thrown_from_the_other_seat_is_that_players_roll() -> None:
    ref, board = light_to_roll()
    ref, o1 = see(ref, board, light_half(6, 1), hand=LIGHT)
    assert o1.events == (Roll(LIGHT, (6, 1)),)
    # Bob plays 13/7 8/7 (his numbers) with his dice still down
    bob = Board.from_position(apply_hops(ref.game.position, [Hop(13, 7), Hop(8, 7)]), LIGHT)
    ref, o2 = see(ref, bob, light_half(6, 1))
    # Bob's dice are picked up unseen; Ann throws 6-1 too, into her own half, her hand seen throwing
    ref, o3 = see(ref, bob, dark_half(6, 1), hand=DARK)
    assert Roll(DARK, (6, 1)) in o3.events  # her roll, recorded after Bob's play
    assert ref.game.turn == DARK and ref.game.phase is Phase.MOVE and ref.plays == 2
    # Ann plays 13/7 8/7 and picks up: her play, no foul anywhere
    ann = Board.from_position(apply_hops(ref.game.position, [Hop(13, 7), Hop(8, 7)]), DARK)
    ref, o4 = see(ref, ann, dark_half(6, 1))
    ref, o5 = see(ref, ann)
    assert stopping([o1, o2, o3, o4, o5]) == []
    assert ref.plays == 3 and ref.game.turn == LIGHT and ref.game.phase is Phase.ROLL


def test_the_rollers_own_dice_pushed_into_the_other_half_do_not_end_the_turn() -> None:
    ref, board = light_to_roll()
    ref, _ = see(ref, board, light_half(6, 1), hand=LIGHT)
    bob = Board.from_position(apply_hops(ref.game.position, [Hop(13, 7), Hop(8, 7)]), LIGHT)
    ref, _ = see(ref, bob, light_half(6, 1))
    # Bob's own hand pushes his dice over the bar while he plays: still his turn, no roll of Ann's
    ref, out = see(ref, bob, dark_half(6, 1), hand=LIGHT)
    assert out.events == () and out.calls == ()
    assert ref.game.turn == LIGHT and ref.plays == 1


def light_doubled():
    """Bob (light), to roll, has turned the cube to 2 and pushed it to Ann's side: Ann is to take or drop."""
    ref, board = light_to_roll()
    ref, out = see(ref, board, cube=(2, "dark"))
    assert ref.game.phase is Phase.DOUBLED
    return ref, board


def test_the_doubler_a_play_on_and_the_one_doubled_throwing_is_a_take_and_two_rolls() -> None:
    ref, _ = light_doubled()
    # unseen: Ann takes, Bob rolls 6-4 and picks up; then Bob plays 13/7/3 (his numbers, the only play of ten pips
    # with two of his checkers' steps from 13: 6 then 4)
    bob = Board.from_position(apply_hops(ref.game.position, [Hop(13, 7), Hop(7, 3)]), LIGHT)
    ref, o1 = see(ref, bob, cube=(2, "dark"))
    # Ann throws 5-4 into her own half, her hand seen throwing
    ref, o2 = see(ref, bob, dark_half(5, 4), hand=DARK, cube=(2, "dark"))
    kinds = [type(e).__name__ for e in o1.events + o2.events]
    assert kinds[0] == "Take" and Roll(LIGHT, (6, 4)) in o2.events and Roll(DARK, (5, 4)) in o2.events
    assert stopping([o1, o2]) == []
    assert ref.game.cube == 2 and ref.game.cube_owner == DARK
    assert ref.game.turn == DARK and ref.game.phase is Phase.MOVE and ref.game.dice == (5, 4)


def test_the_one_doubled_throwing_with_the_doublers_checkers_unmoved_is_still_out_of_turn() -> None:
    ref, board = light_doubled()
    ref, out = see(ref, board, dark_half(5, 4), hand=DARK, cube=(2, "dark"))
    assert [(c.kind, c.player) for c in out.calls] == [("out_of_turn", DARK)]
    assert ref.game.phase is Phase.DOUBLED


def light_on_the_bar_to_roll():
    """Ann opened 3-1 (8/5 6/5); Bob rolled 6-4 (24/18 13/9, his numbers); Ann rolled 6-1 and hit, 13/7* 8/7.  Bob
    is on the bar against Ann's 5-, 6- and 7-points made: 6-6, 5-5 and 6-5 have no play for him (a dance)."""
    ann_opened = apply_hops(Position.start(), [Hop(8, 5), Hop(6, 5)])
    bob_played = apply_hops(ann_opened.swap(), [Hop(24, 18), Hop(13, 9)])
    ann_hit = apply_hops(bob_played.swap(), [Hop(13, 7), Hop(8, 7)])
    events = [OpeningRoll((3, 1)), Move(DARK, ann_opened), Roll(LIGHT, (6, 4)), Move(LIGHT, bob_played), Roll(DARK, (6, 1)), Move(DARK, ann_hit)]
    ref = resume(SETTINGS, events)
    assert ref.game.turn == LIGHT and ref.game.phase is Phase.ROLL and ref.game.position.on_roll[24] == 1
    return ref, Board.from_position(ann_hit, DARK)


def test_bobs_hand_over_the_board_and_a_dance_possible_ann_throwing_is_a_look_not_out_of_turn() -> None:
    ref, board = light_on_the_bar_to_roll()
    # Bob's hand over his side of the board (rolling, say 6-5, and picking up: no play), then the board clear
    ref, o1 = observe(ref, Seen(board=board, occluded=("point:16", "point:17"), cube_value=1, cube_position="centre"))
    ref, o2 = see(ref, board)
    # Ann throws 4-2 into her own half, her hand seen throwing: her turn, if Bob danced unseen; out of turn if not
    ref, o3 = see(ref, board, dark_half(4, 2), hand=DARK)
    assert stopping([o1, o2, o3]) == []
    assert [c.kind for c in o3.calls] == ["please_look"]


def test_no_hand_of_bobs_seen_ann_throwing_is_still_out_of_turn() -> None:
    ref, board = light_on_the_bar_to_roll()
    ref, o1 = see(ref, board, dark_half(4, 2), hand=DARK)
    assert [(c.kind, c.player) for c in o1.calls] == [("out_of_turn", DARK)]
