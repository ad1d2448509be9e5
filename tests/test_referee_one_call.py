"""One event, one call (issue #43: no false calls).

A call that stops play is about a situation: the checkers as they stand and, for a call about a roll, the
dice lying.  It stands until that changes.  Two checks that find the same event (a play judged and the next
turn begun on one reading; the same board read again after a hand passed) make one call, not two in two
wordings.  And a player whose dice are down, with their checkers standing as a play of them, is playing
their roll, not moving before it.

Each expected call is written here by hand from the rules.  Dark (Ann) rolls into the home half, light (Bob)
into the outer half.  Points are dark's numbers unless said.
"""

from __future__ import annotations

from engine import Position
from engine.board import Board
from engine.game import Move, OpeningRoll, Phase, Roll, Rules
from engine.plays import Hop, apply_hops
from referee.core import Seen, SeenDie, Settings, observe, resume

DARK, LIGHT = 0, 1
SETTINGS = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"), dark_right_half="home")
STOPPING = {"illegal_play", "moved_before_roll", "out_of_turn", "wrong_half", "cocked", "roll_before_pickup", "seating"}


def see(ref, board, dice=(), hand=None):
    return observe(ref, Seen(board=board, dice=tuple(dice), hand=hand, cube_value=1, cube_position="centre"))


def dark_half(a: int, b: int):
    return (SeenDie(a, True, "home"), SeenDie(b, True, "home"))


def light_half(a: int, b: int):
    return (SeenDie(a, True, "outer"), SeenDie(b, True, "outer"))


def bob_has_played():
    """Ann opened with 5-2 (13/11 13/8); Bob rolled 6-1 and played 13/7 8/7 (his numbers), his dice still down.
    Returns the referee, the position Ann will roll from (her view) and Bob's board."""
    ann = apply_hops(Position.start(), [Hop(13, 11), Hop(13, 8)])
    ref = resume(SETTINGS, [OpeningRoll((5, 2)), Move(DARK, ann), Roll(LIGHT, (6, 1))])
    assert ref.game.turn == LIGHT and ref.game.phase is Phase.MOVE
    after_bob = apply_hops(ann.swap(), [Hop(13, 7), Hop(8, 7)])
    ref, out = see(ref, Board.from_position(after_bob, LIGHT), light_half(6, 1))
    assert not out.calls
    return ref, after_bob.swap()


def calls(outs) -> list[tuple[str, int | None]]:
    return [(c.kind, c.player) for out in outs for c in out.calls]


def test_checkers_moved_early_read_again_unchanged_is_one_call() -> None:
    ref, ann_to_roll = bob_has_played()
    # Ann moves 8/4 while Bob's dice are still down; Bob picks up; a hand passes and the same board is read again
    early = Board.from_position(apply_hops(ann_to_roll, [Hop(8, 4)]), DARK)
    ref, o1 = see(ref, early, light_half(6, 1))
    ref, o2 = see(ref, early)
    ref, o3 = see(ref, early)
    # one event: Ann moved before Bob's turn ended.  Called once; read again unchanged, the call stands (no
    # second call, and no "called again, play goes on" look: nothing went on)
    assert calls([o1, o2, o3]) == [("moved_before_roll", DARK)]
    assert ref.plays == 2 and ref.game.turn == DARK
    # Ann puts the checker back: nothing more is called, and she is to roll
    ref, o4 = see(ref, Board.from_position(ann_to_roll, DARK))
    assert calls([o4]) == []
    assert ref.game.turn == DARK and ref.game.phase is Phase.ROLL


def test_moved_early_then_rolled_on_one_reading_is_one_call() -> None:
    ref, ann_to_roll = bob_has_played()
    # unseen: Ann moves 8/4, Bob picks up, Ann throws 6-5 into her own half; 8/4 is no part of a play of 6-5
    early = Board.from_position(apply_hops(ann_to_roll, [Hop(8, 4)]), DARK)
    ref, out = see(ref, early, dark_half(6, 5), hand=DARK)
    # Bob's play is recorded; Ann moved before his turn ended: one call, whichever check finds it
    assert [(c.kind, c.player) for c in out.calls if c.kind in STOPPING] == [("moved_before_roll", DARK)]
    assert ref.plays == 2


def test_moved_again_after_putting_back_is_a_new_situation() -> None:
    ref, ann_to_roll = bob_has_played()
    early = Board.from_position(apply_hops(ann_to_roll, [Hop(8, 4)]), DARK)
    ref, _ = see(ref, early, light_half(6, 1))
    ref, o1 = see(ref, early)
    assert calls([o1]) == [("moved_before_roll", DARK)]
    # put back, and the situation the call was about has changed; Ann rolls 3-1 and plays 8/5 6/5: no call
    ref, o2 = see(ref, Board.from_position(ann_to_roll, DARK))
    ref, o3 = see(ref, Board.from_position(ann_to_roll, DARK), dark_half(3, 1), hand=DARK)
    assert o3.events == (Roll(DARK, (3, 1)),)
    played = Board.from_position(apply_hops(ann_to_roll, [Hop(8, 5), Hop(6, 5)]), DARK)
    ref, o4 = see(ref, played, dark_half(3, 1))
    ref, o5 = see(ref, played)
    assert [k for k, _ in calls([o2, o3, o4, o5]) if k in STOPPING] == []
    assert ref.plays == 3 and ref.game.turn == LIGHT


def test_the_opponents_dice_down_and_a_play_of_them_begun_is_their_turn_not_a_move_before_it() -> None:
    ref, ann_to_roll = bob_has_played()
    # unseen: Bob picks up, Ann throws 6-5 into her own half and moves 13/7 (the 6 of a 6-5: begun)
    begun = Board.from_position(apply_hops(ann_to_roll, [Hop(13, 7)]), DARK)
    ref, o1 = see(ref, begun, dark_half(6, 5), hand=DARK)
    assert Roll(DARK, (6, 5)) in o1.events  # Bob's play recorded, then Ann's roll
    assert ref.plays == 2 and ref.game.turn == DARK and ref.game.phase is Phase.MOVE
    # she finishes 13/8 and picks up: her play
    whole = Board.from_position(apply_hops(ann_to_roll, [Hop(13, 7), Hop(13, 8)]), DARK)
    ref, o2 = see(ref, whole, dark_half(6, 5))
    ref, o3 = see(ref, whole)
    assert [k for k, _ in calls([o1, o2, o3]) if k in STOPPING] == []
    assert ref.plays == 3 and ref.game.turn == LIGHT


def test_the_same_cocked_roll_lying_is_called_once_and_a_new_cocked_roll_again() -> None:
    ref, ann_to_roll = bob_has_played()
    board = Board.from_position(ann_to_roll, DARK)
    ref, _ = see(ref, board)  # Bob picked up: Ann to roll
    cocked = (SeenDie(4, False, "home", 0.95, (100.0, 50.0)), SeenDie(2, True, "home", 0.95, (140.0, 60.0)))
    ref, o1 = see(ref, board, cocked, hand=DARK)
    ref, o2 = see(ref, board, cocked)  # the same dice lying: confirmed, one call
    ref, o3 = see(ref, board, cocked)
    assert [k for k, _ in calls([o1, o2, o3])] == ["cocked"]
    # picked up and thrown again, cocked again elsewhere: a new roll, a new call
    ref, _ = see(ref, board)
    again = (SeenDie(5, False, "home", 0.95, (60.0, 120.0)), SeenDie(1, True, "home", 0.95, (30.0, 90.0)))
    ref, o4 = see(ref, board, again, hand=DARK)
    ref, o5 = see(ref, board, again)
    assert [k for k, _ in calls([o4, o5])] == ["cocked"]
