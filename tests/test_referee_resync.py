"""The referee finds its way again when its belief stops explaining the board (issue #43, item 5).

Physical sequences, scripted by hand: a roll the camera missed (a hand over the board the whole turn, or a die
read cocked and play going on), the mover played, the opponent rolled and played too.  The referee, still
waiting for the first roll, re-fits the game to the board: it records the two plays with their rolls taken
from them, journals a ``resync`` call, and follows the game from there.  The plays expected are written from
the game (which checkers moved, and the one roll each move can be), never computed by the referee.

Also: a call that stops play is not repeated on every later play, and a start position never matched is
not waited for in silence.
"""

from dataclasses import replace

from engine import Position
from engine.board import Board
from engine.game import Move, Phase, Roll, Rules
from engine.plays import Hop, apply_hops
from referee.core import Seen, SeenDie, Settings, Stage, observe, start

SETTINGS = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"))
DARK, LIGHT = SETTINGS.right_half(0), SETTINGS.right_half(1)


def die(value, half, flat=True, confidence=None):
    return SeenDie(value, flat, half, confidence)


def played(position, *hops):
    """The position after the mover (on roll in ``position``) makes ``hops`` (mover's numbering), mover's view."""
    return apply_hops(position, [Hop(a, b) for a, b in hops])


# The game by hand.  Ann (dark) opens 5-2: 13/11 13/8.  Bob (light) rolls 6-5: 24/18/13 (11 pips with one
# checker from his back point to his mid-point: only 6-5 plays it).  Ann rolls 3-1: 8/5 6/5 (her five-point:
# 3-1, or 1-1 played 8/7/6/5 6/5, half as likely).  Dark's numbers for the boards: Bob's 24 is dark's 1, his 13 is dark's 12.
OPENED = played(Position.start(), (13, 11), (13, 8))  # Ann's view
BOB_65 = played(OPENED.swap(), (24, 18), (18, 13))  # Bob's view
ANN_31 = played(BOB_65.swap(), (8, 5), (6, 5))  # Ann's view
AFTER_OPENING = Board.from_position(OPENED, 0)
AFTER_BOTH = Board.from_position(ANN_31, 0)
HIDDEN = ("point:1", "point:2", "point:3")  # a hand over the board


class Table:
    def __init__(self):
        self.ref = start(SETTINGS)
        self.t = 0.0
        self.outs = []

    def see(self, board, *dice, occluded=()):
        self.t += 1.0
        self.ref, out = observe(self.ref, Seen(board=board, dice=tuple(dice), occluded=occluded, t=self.t))
        self.outs.append(out)
        return out


def bob_to_roll():
    """Ann opened 5-2 and played 13/11 13/8; Bob is to roll."""
    t = Table()
    start_board = Board.from_position(Position.start(), 0)
    t.see(start_board)
    t.see(start_board, die(5, DARK), die(2, LIGHT))
    t.see(AFTER_OPENING, die(5, DARK), die(2, LIGHT))
    t.see(AFTER_OPENING)
    assert t.ref.game.phase is Phase.ROLL and t.ref.game.turn == 1
    t.outs.clear()
    return t


def test_the_boards_written_by_hand():
    # the boards themselves, point by point in dark's numbers (positive dark, negative light)
    assert AFTER_BOTH.points[0] == -1 and AFTER_BOTH.points[11] == -6  # Bob's back checker went 1 -> 12
    assert AFTER_BOTH.points[4] == 2 and AFTER_BOTH.points[5] == 4 and AFTER_BOTH.points[7] == 3  # Ann made her 5-point
    assert AFTER_BOTH.bar == (0, 0)


def test_a_whole_turn_missed_under_a_hand_is_followed_again_from_the_board():
    t = bob_to_roll()
    for _ in range(4):  # Bob rolls and plays, Ann rolls and plays: a hand hides it all
        t.see(AFTER_OPENING, occluded=HIDDEN)
    out = t.see(AFTER_BOTH)  # the first clear reading: two plays on, no dice
    assert [c.kind for c in out.calls] == ["resync"]
    reasons = " ".join(out.calls[0].reasons)
    assert "Bob 6-5" in reasons and "Ann 3-1" in reasons
    assert "Ann 1-1" in out.calls[0].reasons[1]  # the other roll that fits, named so the record can be mended
    assert out.events == (Roll(1, (6, 5)), Move(1, BOB_65), Roll(0, (3, 1)), Move(0, ANN_31))
    assert set(out.inferred) == {Roll(1, (6, 5)), Roll(0, (3, 1))}  # journalled as taken from the plays
    assert t.ref.game.phase is Phase.ROLL and t.ref.game.turn == 1 and t.ref.stage is Stage.PLAYING
    # and the game goes on as usual: Bob rolls 4-2 and plays 8/4 6/4
    out = t.see(AFTER_BOTH, die(4, LIGHT), die(2, LIGHT))
    assert out.events == (Roll(1, (4, 2)),)
    bob_42 = played(ANN_31.swap(), (8, 4), (6, 4))
    t.see(Board.from_position(bob_42, 1), die(4, LIGHT), die(2, LIGHT))
    out = t.see(Board.from_position(bob_42, 1))
    assert out.events == (Move(1, bob_42),) and not out.calls


def test_the_next_roll_already_down_is_recorded_after_the_plays_missed():
    t = bob_to_roll()
    t.see(AFTER_OPENING, occluded=HIDDEN)
    out = t.see(AFTER_BOTH, die(4, LIGHT), die(2, LIGHT))  # Bob has rolled again already
    assert [c.kind for c in out.calls] == ["resync"]
    assert out.events == (Roll(1, (6, 5)), Move(1, BOB_65), Roll(0, (3, 1)), Move(0, ANN_31), Roll(1, (4, 2)))
    assert t.ref.game.phase is Phase.MOVE and t.ref.game.turn == 1


def test_the_opponents_dice_still_down_wait_for_the_pick_up():
    t = bob_to_roll()
    t.see(AFTER_OPENING, occluded=HIDDEN)
    out = t.see(AFTER_BOTH, die(3, DARK), die(1, DARK))  # Ann's 3-1 still lies: her play may not be over
    assert out.events == () and not out.calls
    out = t.see(AFTER_BOTH)  # picked up
    assert [c.kind for c in out.calls] == ["resync"]
    assert out.events == (Roll(1, (6, 5)), Move(1, BOB_65), Roll(0, (3, 1)), Move(0, ANN_31))


def test_a_die_read_cocked_then_play_goes_on_is_followed_again():
    t = bob_to_roll()
    cocked = (die(6, LIGHT, confidence=0.95), die(5, LIGHT, flat=False, confidence=0.95))
    t.see(AFTER_OPENING, *cocked)
    out = t.see(AFTER_OPENING, *cocked)  # seen twice, surely: the referee calls it
    assert [c.kind for c in out.calls] == ["cocked"]
    # the players take the die for flat: Bob plays his 6-5, Ann rolls 3-1 and plays, all under a hand
    t.see(AFTER_OPENING, occluded=HIDDEN)
    out = t.see(AFTER_BOTH)
    assert [c.kind for c in out.calls] == ["resync"]
    assert out.events == (Roll(1, (6, 5)), Move(1, BOB_65), Roll(0, (3, 1)), Move(0, ANN_31))


def test_plays_that_fit_two_rolls_are_recorded_with_a_look_naming_the_other():
    # Ann's 13/7 (one checker six pips) is 5-1 (13/8/7) or 4-2 (13/9/7): both legal, alike in likelihood
    t = bob_to_roll()
    ann = played(BOB_65.swap(), (13, 8), (8, 7))
    t.see(AFTER_OPENING, occluded=HIDDEN)
    out = t.see(Board.from_position(ann, 0))
    assert [c.kind for c in out.calls] == ["resync"]
    assert out.events[:2] == (Roll(1, (6, 5)), Move(1, BOB_65)) and out.events[3] == Move(0, ann)
    recorded = out.events[2]
    assert recorded in (Roll(0, (5, 1)), Roll(0, (4, 2)))
    other = "Ann 4-2" if recorded.dice == (5, 1) else "Ann 5-1"
    assert other in out.calls[0].reasons[1] and "correct the record" in out.calls[0].reasons[1]


def test_nothing_is_invented_when_no_plays_explain_the_board():
    t = bob_to_roll()
    nonsense = Board(tuple(-p for p in AFTER_BOTH.points), AFTER_BOTH.bar)  # the colours swapped: no play does that
    out = t.see(nonsense)
    assert not out.events and "resync" not in [c.kind for c in out.calls]
    assert t.ref.game.phase is Phase.ROLL and t.ref.game.turn == 1


def test_more_than_two_plays_on_is_asked_about_once_with_no_foul_and_nothing_recorded():
    t = bob_to_roll()
    # three plays on (Bob 6-5, Ann 3-1, Bob 4-2): no two plays explain it, and Bob's dice lie on it.  Nobody moved
    # before rolling: both players' checkers have moved, so no one foul explains the board; a look, not a call
    bob_42 = played(ANN_31.swap(), (8, 4), (6, 4))
    three_on = Board.from_position(bob_42, 1)
    out = t.see(three_on, die(5, LIGHT), die(3, LIGHT))
    assert [c.kind for c in out.calls] == ["please_look"] and "more than two plays" in out.calls[0].reasons[0]
    assert not out.events
    out = t.see(three_on, die(6, LIGHT), die(1, LIGHT))  # play goes on
    assert not out.calls and not out.events  # said once
    out = t.see(three_on)
    assert not out.calls and not out.events  # never a guess recorded
    assert t.ref.game.phase is Phase.ROLL and t.ref.game.turn == 1


def test_a_stop_call_made_again_in_the_same_turn_becomes_a_look():
    t = bob_to_roll()
    # Bob's two back checkers moved 13 pips each (26: more than any roll), Ann's as they were, then dice in his half
    moved = Board.from_position(played(OPENED.swap(), (24, 11), (24, 11)), 1)
    out = t.see(moved, die(5, LIGHT), die(3, LIGHT))
    assert [c.kind for c in out.calls] == ["moved_before_roll"]
    out = t.see(moved, die(6, LIGHT), die(1, LIGHT))  # play goes on: the call was ignored
    assert [c.kind for c in out.calls] == ["please_look"] and "lost the thread" in out.calls[0].reasons[0]
    out = t.see(moved, die(2, LIGHT), die(2, LIGHT))
    assert not out.calls  # said once


def test_a_start_position_never_matched_asks_for_a_look():
    t = Table()
    short = list(Board.from_position(Position.start(), 0).points)
    short[5] = 4  # dark's 6-point read with four checkers (the start has five)
    board = Board(tuple(short))
    outs = []
    for _ in range(30):
        t.t += 4.0  # a reading every few seconds
        outs.append(t.see(board))
    calls = [c for out in outs for c in out.calls]
    assert [c.kind for c in calls] == ["please_look"]  # asked once, not silent, not again and again
    assert "point 6: 4 dark read, the start has 5 dark" in calls[0].reasons[0]
    first = next(i for i, out in enumerate(outs) if out.calls)
    assert 4 <= first <= 8  # after a while (about 20 s), not on the first reading
    out = t.see(Board.from_position(Position.start(), 0))
    assert t.ref.stage is Stage.PLAYING and "start position seen" in out.notes[0].text


def test_a_roll_read_with_a_stack_left_unread_is_the_roll():
    # Bob rolls 6-5; the camera reads the dice but leaves Ann's five-stack on her 6-point unread (a point it
    # cannot count, nothing else hidden): the reading is the board as it stands but for that point, and the roll
    t = bob_to_roll()
    unread = list(AFTER_OPENING.points)
    assert unread[5] == 5  # Ann's 6-point: five checkers, as the start has them
    unread[5] = 0
    out = t.see(Board(tuple(unread)), die(6, LIGHT), die(5, LIGHT), occluded=("point:6",))
    assert out.events == (Roll(1, (6, 5)),)


def test_a_die_read_cocked_and_misnumbered_but_played_as_it_lies():
    # Bob's 6-5 lies flat; the camera reads the 5 as a cocked 1, surely.  Bob plays 24/18/13 with the dice
    # as they lie: 11 pips, no play of 6-1.  The players took the die for flat, so the camera was wrong about
    # it, and may be about its number: the roll is the one the 6 read and the play allow, 6-5.
    t = bob_to_roll()
    misread = (die(6, LIGHT, confidence=0.9), die(1, LIGHT, flat=False, confidence=0.98))
    out = t.see(AFTER_OPENING, *misread)
    assert not out.calls  # called only when the next reading confirms it
    out = t.see(Board.from_position(BOB_65, 1), *misread)  # played as it lies
    assert [c.kind for c in out.calls] == ["please_look"] and not out.events
    out = t.see(Board.from_position(BOB_65, 1))  # dice picked up: the turn is over
    assert out.events == (Roll(1, (6, 5)), Move(1, BOB_65))
    assert not [c for c in out.calls if c.kind == "illegal_play"]


def _light_back_checkers_read_dark(board):
    """``board`` as a camera that reads light's two back checkers (dark's point 1, where the start has 2 light)
    in dark's colour would: 17 dark checkers and 13 light, which no board can hold."""
    points = list(board.points)
    assert points[0] == -2  # light's back checkers, by hand: the start and every board of this game have them there
    points[0] = 2
    return Board(tuple(points), board.bar)


def test_a_stack_read_in_the_other_colour_neither_hides_the_start_nor_stops_the_game():
    t = Table()
    start_board = Board.from_position(Position.start(), 0)
    misread = _light_back_checkers_read_dark(start_board)
    t.see(misread)
    assert t.ref.stage is Stage.PLAYING  # the start, with its one point in doubt
    t.see(misread, die(5, DARK), die(2, LIGHT))
    t.see(_light_back_checkers_read_dark(AFTER_OPENING), die(5, DARK), die(2, LIGHT))
    out = t.see(_light_back_checkers_read_dark(AFTER_OPENING))
    assert out.events[-1] == Move(0, OPENED) and not [c for c in out.calls if c.kind != "please_look"]
    assert t.ref.game.phase is Phase.ROLL and t.ref.game.turn == 1


def test_a_board_read_with_a_stack_in_the_other_colour_but_fifteen_a_side_is_not_the_start():
    # dark's 2 on point 24 and light's 2 on point 1 both read the other way round: 15 a side, a board that can be
    # (someone set up the back checkers the wrong way round), so not the start: nothing begins
    t = Table()
    points = list(Board.from_position(Position.start(), 0).points)
    assert points[0] == -2 and points[23] == 2
    points[0], points[23] = 2, -2
    t.see(Board(tuple(points), (0, 0)))
    assert t.ref.stage is not Stage.PLAYING


# Bob on the bar against points made.  Written by hand in Ann's numbering (her point n is Bob's 25 - n): Ann holds
# her 2-point (4) and 6-point (3), with 3 on her 8, 4 on her 13 and one back checker on her 22; Bob has 2 on the bar,
# 5 on his 13, 3 on his 8 and 5 on his 6.  Bob enters on Ann's point of his die: a 2 or a 6 is blocked, so 2-2, 6-2
# and 6-6 have no legal play (he "dances"); every other roll enters.
ANN_BEFORE = Position(
    on_roll=(0, 4, 0, 0, 0, 3, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0),
    opponent=(0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2),
)
BOB_ON_BAR = ANN_BEFORE.swap()  # Bob's view, Bob to roll
ANN_62 = played(ANN_BEFORE, (22, 16), (8, 6))  # Ann's 6-2 (or 2-2: 22/20/18/16 8/6, the same checkers)
BOB_41 = played(ANN_62.swap(), (25, 21), (25, 24))  # Bob enters both with 4-1


def bob_on_the_bar():
    t = Table()
    g = t.ref.match.game
    game = replace(g, phase=Phase.ROLL, position=BOB_ON_BAR, on_roll=1, turn=1, dice=None)
    t.ref = replace(t.ref, stage=Stage.PLAYING, match=replace(t.ref.match, game=game), plays=6)
    return t


def test_the_dancing_position_by_hand():
    from engine.plays import legal_plays
    dances = [r for r in ((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)) if not legal_plays(BOB_ON_BAR, r)]
    assert dances == [(6, 6), (6, 2), (2, 2)]


def test_a_dance_with_one_die_seen_then_the_opponents_play_is_recorded_as_no_play_not_a_guessed_play():
    # Bob rolls 2-2: the camera reads one 2, the other die hidden; he cannot enter and picks up.  Ann rolls 6-2
    # (read whole) and plays 22/16 8/6; Bob rolls 4-1 and enters both, his dice still down.  (Roll 52 of the demo.)
    t = bob_on_the_bar()
    before = Board.from_position(BOB_ON_BAR, 1)
    t.see(before, die(2, LIGHT))
    t.see(before)  # picked up: no checker moved
    t.see(before, die(6, DARK), die(2, DARK))  # Ann's roll
    after_ann = Board.from_position(ANN_62, 0)
    t.see(after_ann, die(6, DARK), die(2, DARK))
    t.see(after_ann)
    t.see(after_ann, die(4, LIGHT), die(1, LIGHT))
    t.see(Board.from_position(BOB_41, 1), die(4, LIGHT), die(1, LIGHT))
    t.see(Board.from_position(BOB_41, 1))
    events = [e for out in t.outs for e in out.events]
    calls = [c for out in t.outs for c in out.calls]
    assert [c.kind for c in calls if c.kind not in ("please_look", "resync")] == []  # no foul on anyone
    moves = [e for e in events if isinstance(e, Move)]
    assert moves == [Move(1, BOB_ON_BAR), Move(0, ANN_62), Move(1, BOB_41)]  # Bob's turn with no play, then the plays made
    rolls = [e for e in events if isinstance(e, Roll)]
    assert rolls[0].player == 1 and rolls[0].dice in ((6, 2), (2, 2))  # a dance holding the 2 seen (6-6 has no 2)
    assert rolls[1:] == [Roll(0, (6, 2)), Roll(1, (4, 1))]  # Ann's 6-2 read whole (not 2-2, which plays the same)
    resync = next(c for c in calls if c.kind == "resync")
    other = "Bob 2-2" if rolls[0].dice == (6, 2) else "Bob 6-2"
    assert other in resync.reasons[1] and "no play" in resync.reasons[0]
    assert set(rolls[:2]) <= {e for out in t.outs for e in out.inferred}


def test_the_wrong_turn_alone_bob_danced_unseen_and_ann_played():
    # (b) the board is one play by Ann where the referee expects Bob's roll: Bob danced with no die seen at all, and
    # Ann's roll was missed too.  The turn passed: Bob's roll with no play, then Ann's play, are recorded.
    t = bob_on_the_bar()
    t.see(Board.from_position(BOB_ON_BAR, 1), occluded=HIDDEN)
    out = t.see(Board.from_position(ANN_62, 0))
    assert [c.kind for c in out.calls] == ["resync"]
    moves = [e for e in out.events if isinstance(e, Move)]
    assert moves == [Move(1, BOB_ON_BAR), Move(0, ANN_62)]
    assert out.events[0].player == 1 and out.events[0].dice in ((6, 6), (6, 2), (2, 2))
    assert t.ref.game.turn == 1 and t.ref.game.phase is Phase.ROLL


def test_plays_that_differ_are_not_guessed_between():
    # the policy alone (referee.resync.decide): two explanations that make different plays (Bob's 6-5 as 24/13, or
    # as 24/18 13/8), no die read to tell them apart: nothing to adopt, both named; a die read that only one of
    # them holds settles it
    from referee.resync import Step, decide
    a = (Step(1, (6, 5), BOB_65), Step(0, (3, 1), ANN_31))
    b = (Step(1, (6, 5), played(OPENED.swap(), (24, 18), (13, 8))), Step(0, (3, 1), ANN_31))
    decision = decide([a, b])
    assert decision.adopt is None and set(decision.open) == {a, b}
    c = (Step(1, (4, 2), played(OPENED.swap(), (24, 18), (13, 8))), Step(0, (3, 1), ANN_31))
    assert decide([a, c], dice_seen=((1, 4),)).adopt == c
    # the same plays with other rolls: the plays are certain, the likeliest roll is taken, the other named
    d = (Step(1, (6, 5), BOB_65), Step(0, (1, 1), ANN_31))
    decision = decide([d, a])
    assert decision.adopt == a and decision.alike == (d,)


def test_one_play_by_the_other_player_is_not_a_turn_passed_when_the_roller_had_a_play():
    # Bob is to roll, off the bar: every roll he could have rolled has a play, so his turn cannot have passed
    # unseen.  Ann's checkers moving (8/5 6/5) is hers out of turn, or a misreading: nothing is recorded
    t = bob_to_roll()
    ann = played(OPENED, (8, 5), (6, 5))
    out = t.see(Board.from_position(ann, 0))
    assert not out.events and not [c for c in out.calls if c.kind == "resync"]
    assert t.ref.game.turn == 1 and t.ref.game.phase is Phase.ROLL


# While the referee asks a player to show a roll, the game goes on; a stack the camera leaves unread (or reads in
# the other side's colour) must not make every reading "impossible" and so hide the rest of the game.  By hand:
# Bob rolls 6-5 and plays 24/18/13 (seen); Ann's roll is missed and she plays 8/5 6/5 (3-1, or 1-1 played
# 8/7/6/5 6/5): the referee asks her to show the roll.  Instead Bob rolls 4-2, unseen, and plays 8/4 6/4 (only
# 4-2 plays it: a 4 and a 2 from two points; 2-2 would move four twos).
BOB_42 = played(ANN_31.swap(), (8, 4), (6, 4))  # Bob's view


def ann_asked_to_show_her_roll():
    t = bob_to_roll()
    t.see(AFTER_OPENING, die(6, LIGHT), die(5, LIGHT))
    t.see(Board.from_position(BOB_65, 1), die(6, LIGHT), die(5, LIGHT))
    t.see(Board.from_position(BOB_65, 1))
    assert t.ref.game.phase is Phase.ROLL and t.ref.game.turn == 0
    out = t.see(AFTER_BOTH)  # Ann's roll unseen: her play fits 3-1 or 1-1
    assert [c.kind for c in out.calls] == ["please_look"] and t.ref.asked_board == AFTER_BOTH
    t.outs.clear()
    return t


def _as_read(board, point, count):
    points = list(board.points)
    points[point - 1] = count
    return Board(tuple(points), board.bar)


def _recorded(t):
    return [e for out in t.outs for e in out.events]


def test_asked_for_a_roll_a_stack_left_unread_while_play_goes_on_does_not_lose_the_game():
    t = ann_asked_to_show_her_roll()
    assert AFTER_BOTH.points[12] == 3  # Ann's mid-point (dark's 13): 5 less the two she opened with
    after_bob = Board.from_position(BOB_42, 1)
    for _ in range(3):  # the camera cannot count Ann's mid-point: it reads it empty, and says so
        t.see(_as_read(after_bob, 13, 0), occluded=("point:13",))
    events = _recorded(t)
    assert Roll(0, (3, 1)) in events and Move(0, ANN_31) in events  # Ann's play, its roll taken from it
    assert Move(1, BOB_42) in events
    assert not [c for out in t.outs for c in out.calls if c.kind == "illegal_play"]
    assert t.ref.game.phase is Phase.ROLL and t.ref.game.turn == 0


def test_asked_for_a_roll_a_stack_read_in_the_other_colour_while_play_goes_on_does_not_lose_the_game():
    t = ann_asked_to_show_her_roll()
    assert AFTER_BOTH.points[0] == -1  # Bob's one back checker left on dark's 1 (the other went 24/18/13)
    after_bob = Board.from_position(BOB_42, 1)
    for _ in range(3):  # read in Ann's colour on every frame: 16 dark checkers and 14 light, no board holds that
        t.see(_as_read(after_bob, 1, 1))
    events = _recorded(t)
    assert Move(0, ANN_31) in events and Move(1, BOB_42) in events
    assert not [c for out in t.outs for c in out.calls if c.kind == "illegal_play"]


def test_asked_for_a_roll_a_reading_impossible_on_points_read_surely_is_still_set_aside():
    t = ann_asked_to_show_her_roll()
    after_bob = Board.from_position(BOB_42, 1)
    assert after_bob.points[7] == 3  # Ann's 8-point: three checkers
    for _ in range(3):  # one read surely missing: 14 dark checkers, and no point in doubt to put it on
        t.see(_as_read(after_bob, 8, 2))
    assert not _recorded(t)
    assert not [c for out in t.outs for c in out.calls if c.kind in ("illegal_play", "resync")]
    assert t.ref.game.phase is Phase.ROLL and t.ref.game.turn == 0 and t.ref.asked_board == AFTER_BOTH


def test_asked_for_a_roll_the_point_just_made_read_in_the_other_colour_does_not_lose_the_game():
    t = ann_asked_to_show_her_roll()
    after_bob = Board.from_position(BOB_42, 1)
    assert AFTER_BOTH.points[20] == 0 and after_bob.points[20] == -2  # Bob's 4-point (dark's 21), made by his 8/4 6/4
    for _ in range(3):  # read in Ann's colour: 17 dark and 13 light; only that point, given back to Bob, makes 15 a side
        t.see(_as_read(after_bob, 21, 2))
    events = _recorded(t)
    assert Move(0, ANN_31) in events and Move(1, BOB_42) in events
    assert not [c for out in t.outs for c in out.calls if c.kind == "illegal_play"]
