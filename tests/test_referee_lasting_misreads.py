"""Misreadings the rest of the board settles (issue #43: no missed fouls, no false calls).

A checker waiting on the bar that the camera does not see:

Vision that misses a checker misses it alike on every frame while it lies still.  A place read now as it was
read before, when the referee took it otherwise, is the same misreading: the checker is still there.  So a
player who moves a checker on the board while one of theirs waits on the bar, unseen, is called for it (not
taken as entering it on a point where none arrived), and the real play that follows is recorded.

One stack vision is unsure of, every other place sure: each side's fifteen count it, so an illegal play onto it
is called, not asked as a look nor taken as the legal play one point away.

Every board below is written by hand, in dark's numbers (dark positive, light negative).  Dark (Ann) rolls
into the home half, light (Bob) into the outer half.  The game: Bob opened 6-5 (24/18/13, his numbers), Ann
played 3-2 (24/21 13/11), Bob rolled 6-4 and hits with 24/20/14* (his 14 is Ann's 11).
"""

from __future__ import annotations

from engine import Position
from engine.board import Board
from engine.game import Move, OpeningRoll, Phase, Roll, Rules
from engine.plays import Hop, apply_hops
from referee.core import Outcome, Referee, Seen, SeenDie, Settings, observe, resume

DARK, LIGHT = 0, 1
SETTINGS = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"), dark_right_half="home")
STOPPING = {"illegal_play", "moved_before_roll", "out_of_turn", "wrong_half", "cocked", "roll_before_pickup", "seating"}


def points(**at: int) -> tuple[int, ...]:
    """24 points from ``p<N>=count`` (dark's numbers)."""
    return tuple(at.get(f"p{i}", 0) for i in range(1, 25))


# after Bob's 24/20/14*: Ann's blot on 11 is on the bar
HIT = points(p6=5, p8=3, p11=-1, p12=-6, p13=4, p17=-3, p19=-5, p21=1, p24=1)
# Ann (6-2) moves 24/18 with her checker still on the bar: illegal
BAR_WAITING = points(p6=5, p8=3, p11=-1, p12=-6, p13=4, p17=-3, p18=1, p19=-5, p21=1)
# what she had to play, e.g. bar/23 13/7
ENTERED = points(p6=5, p7=1, p8=3, p11=-1, p12=-6, p13=3, p17=-3, p19=-5, p21=1, p23=1, p24=1)


def bob_to_hit() -> Referee:
    """The referee with Bob's 6-4 rolled, to hit Ann's blot on 11."""
    bob = apply_hops(Position.start(), [Hop(24, 18), Hop(18, 13)])
    ann = apply_hops(bob.swap(), [Hop(24, 21), Hop(13, 11)])
    ref = resume(SETTINGS, [OpeningRoll((5, 6)), Move(LIGHT, bob), Roll(DARK, (3, 2)), Move(DARK, ann), Roll(LIGHT, (6, 4))])
    assert ref.game.turn == LIGHT and ref.game.phase is Phase.MOVE
    return ref


def see(ref: Referee, pts: tuple[int, ...], bar: tuple[int, int] = (0, 0), dice: tuple[SeenDie, ...] = ()) -> tuple[Referee, Outcome]:
    return observe(ref, Seen(board=Board(pts, bar), dice=dice, cube_value=1, cube_position="centre"))


def light_dice(a: int, b: int) -> tuple[SeenDie, ...]:
    return (SeenDie(a, True, "outer"), SeenDie(b, True, "outer"))


def dark_dice(a: int, b: int) -> tuple[SeenDie, ...]:
    return (SeenDie(a, True, "home"), SeenDie(b, True, "home"))


def stopping(outs: list[Outcome]) -> list[tuple[str, int | None]]:
    return [(c.kind, c.player) for out in outs for c in out.calls if c.kind in STOPPING]


def play_out(bar_seen: int, bar_seen_after: int | None = None) -> tuple[Referee, list[Outcome], list[tuple[str, int | None]]]:
    """Bob hits; Ann rolls 6-2, moves 24/18 leaving her bar checker, picks up, then plays bar/23 13/7.  The
    camera sees ``bar_seen`` of Ann's checkers on the bar while one is there (``bar_seen_after`` once she moved)."""
    ref = bob_to_hit()
    after = bar_seen if bar_seen_after is None else bar_seen_after
    outs: list[Outcome] = []
    for pts, bar, dice in [
        (HIT, (bar_seen, 0), light_dice(6, 4)),  # Bob has played, his dice still down
        (HIT, (bar_seen, 0), ()),  # he picks them up
        (HIT, (bar_seen, 0), dark_dice(6, 2)),  # Ann rolls
        (BAR_WAITING, (after, 0), dark_dice(6, 2)),  # she moves 24/18; her checker still waits on the bar
        (BAR_WAITING, (after, 0), ()),  # she picks up her dice: the play is made
    ]:
        ref, out = see(ref, pts, bar, dice)
        outs.append(out)
    ref, out = see(ref, ENTERED, (0, 0))  # told, she plays bar/23 13/7 (the bar is empty now, and read so)
    return ref, outs, stopping([out])


def test_checker_moved_while_one_waits_on_the_bar_is_called() -> None:
    ref, outs, after = play_out(bar_seen=1)
    assert stopping(outs) == [("illegal_play", DARK)]
    assert after == []
    assert ref.game.turn == LIGHT and Board.from_position(ref.game.position, LIGHT) == Board(ENTERED, (0, 0))


def test_called_when_the_bar_checker_is_never_seen() -> None:
    # the camera misses Ann's checker on the bar on every frame: it is still there (nothing took it away), so
    # 24/18 is a checker moved while it waits, not bar/23 24/18 with a checker unseen on 23
    ref, outs, after = play_out(bar_seen=0)
    assert stopping(outs) == [("illegal_play", DARK)]
    assert after == []
    assert ref.game.turn == LIGHT and Board.from_position(ref.game.position, LIGHT) == Board(ENTERED, (0, 0))


def test_bar_checker_lost_from_view_as_she_moves_asks_for_a_look() -> None:
    # the bar checker is seen until Ann moves, then no longer, and none arrives on 23: either she moved 24/18
    # with it still waiting (unseen now) or played bar/23 24/18 (23 misread).  The rules allow nothing nearer
    # than bar/23 24/18 (the bar empty, as read now), but the camera read 23 empty: a look is asked at 23, no
    # foul is called
    ref, outs, after = play_out(bar_seen=1, bar_seen_after=0)
    assert stopping(outs) == []
    looks = [c for c in outs[-1].calls if c.kind == "please_look"]
    assert [c.player for c in looks] == [DARK]
    assert "read 23 otherwise" in looks[0].reasons[0]


# Bob plays 6-4 as 24/20/13, one pip too far (his 13 is Ann's 12: a stack of six becomes seven), instead of 24/20/14*
ONE_TOO_FAR = points(p6=5, p8=3, p11=1, p12=-7, p13=4, p17=-3, p19=-5, p21=1, p24=1)


def bob_plays_one_too_far(unsure: frozenset[int]) -> list[Outcome]:
    ref = bob_to_hit()
    outs = []
    for dice in (light_dice(6, 4), ()):  # played with his dice down, then picked up
        ref, out = observe(ref, Seen(board=Board(ONE_TOO_FAR, (0, 0)), dice=dice, cube_value=1, cube_position="centre",
                                     unsure_points=unsure))
        outs.append(out)
    return outs


def test_illegal_play_onto_the_one_stack_vision_doubts_is_called_when_the_rest_counts_it() -> None:
    # vision is unsure of the stack of seven on 12 only; every other place is sure and each side has its 15, so
    # the stack holds seven: the play moved 11 pips on a 6-4, an illegal play, called as such
    outs = bob_plays_one_too_far(frozenset({12}))
    assert stopping(outs) == [("illegal_play", LIGHT)]


def test_illegal_play_with_two_places_in_doubt_asks_for_a_look() -> None:
    # unsure of 12 and of 19, both Bob's: his fifteen no longer fix either (a checker could be on one or the
    # other), so the play may be legal as played: a look.  (Unsure of Ann's 6 instead, her fifteen would count 6
    # and his count 12: see tests/test_referee_counted_per_side.py.)
    outs = bob_plays_one_too_far(frozenset({12, 19}))
    assert stopping(outs) == []
    assert [c.player for o in outs for c in o.calls if c.kind == "please_look"] == [LIGHT]


def test_illegal_play_onto_a_stack_read_short_and_unsure_is_called() -> None:
    # the stack of seven on 12 is read as six, unsure; every other place is sure.  Bob's fifteen leave seven
    # there: the checker went to 12 (one pip too far), not to 11, which is read surely as Ann's blot
    ref = bob_to_hit()
    short = points(p6=5, p8=3, p11=1, p12=-6, p13=4, p17=-3, p19=-5, p21=1, p24=1)
    outs = []
    for dice in (light_dice(6, 4), ()):
        ref, out = observe(ref, Seen(board=Board(short, (0, 0)), dice=dice, cube_value=1, cube_position="centre",
                                     unsure_points=frozenset({12})))
        outs.append(out)
    assert stopping(outs) == [("illegal_play", LIGHT)]
