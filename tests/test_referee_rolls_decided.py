"""How the referee decides a roll it read with doubt, on simulated settled readings (no camera).

Expected calls and records are written by hand from the rules (seeds, "Irregularities") and
the scene described in each test, never by asking the referee's own helpers."""

from dataclasses import replace

from engine import Position
from engine.board import Board
from engine.game import Move, Phase, Roll, Rules
from referee.core import Seen, SeenDie, Settings, observe, start

SETTINGS = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"))  # dark's right-hand half is the home half
DARK_HALF, LIGHT_HALF = "home", "outer"


class Table:
    def __init__(self, settings=SETTINGS):
        self.ref = start(settings)
        self.outs = []

    def see(self, board, *dice, hand=None, cube=(1, "centre")):
        self.ref, out = observe(self.ref, Seen(board=board, dice=tuple(dice), cube_value=cube[0], cube_position=cube[1], hand=hand))
        self.outs.append(out)
        return out

    def calls(self):
        return [(c.kind, c.player) for out in self.outs for c in out.calls]

    def events(self):
        return [e for out in self.outs for e in out.events]


def light_on_the_bar_against_a_closed_board() -> tuple[Table, Board]:
    """Light (Bob) is to roll with a checker on the bar; dark holds its points 1 to 6 (two each) and 13 (three).
    Light's other 14 checkers are on light's 6-point (dark's 19).  No roll enters: light has no play."""
    t = Table()
    start_board = Board.from_position(Position.start(), 0)
    t.see(start_board)
    t.see(start_board, SeenDie(5, True, DARK_HALF), SeenDie(2, True, LIGHT_HALF))  # Ann opens with 5-2
    light = [0] * 25
    light[5], light[24] = 14, 1  # light's own numbers: 14 on its 6-point, one on the bar
    dark = [0] * 25
    for i in range(6):
        dark[i] = 2
    dark[12] = 3
    position = Position(tuple(light), tuple(dark))  # seen from light, on roll
    game = replace(t.ref.game, phase=Phase.ROLL, position=position, on_roll=1, turn=1, dice=None)
    t.ref = replace(t.ref, match=replace(t.ref.match, game=game), dice_on_board=False, plays=1, before_roll=None, rolls_read=())
    t.outs.clear()
    return t, Board.from_position(position, 1)


def test_a_roll_with_no_play_read_with_a_die_in_doubt_stands_when_picked_up():
    """Bob rolls 6-5 on the bar against a closed board; the camera is unsure whether the 5 is flat (a look).
    He picks the dice up: nothing can be played, so that was his turn.  Ann then rolls 4-2 in her own half,
    thrown from her seat: her roll, no foul."""
    t, board = light_on_the_bar_against_a_closed_board()
    out = t.see(board, SeenDie(6, True, LIGHT_HALF, 0.95), SeenDie(5, False, LIGHT_HALF, 0.4), hand=1)
    assert [c.kind for c in out.calls] == ["please_look"]
    t.see(board)  # picked up: no checker moved
    t.see(board, SeenDie(4, True, DARK_HALF, 0.95), SeenDie(2, True, DARK_HALF, 0.95), hand=0)
    assert [c for c in t.calls() if c[0] != "please_look"] == []
    assert Roll(1, (6, 5)) in t.events() and any(isinstance(e, Move) and e.player == 1 for e in t.events())
    assert Roll(0, (4, 2)) in t.events()
    assert t.ref.game.turn == 0 and t.ref.game.dice == (4, 2)


def test_a_roll_with_no_play_picked_up_as_the_opponent_throws():
    """The same, but the camera sees no empty board between: Bob's dice gone and Ann's 4-2 down at once."""
    t, board = light_on_the_bar_against_a_closed_board()
    t.see(board, SeenDie(6, True, LIGHT_HALF, 0.95), SeenDie(5, False, LIGHT_HALF, 0.4), hand=1)
    t.see(board, SeenDie(4, True, DARK_HALF, 0.95), SeenDie(2, True, DARK_HALF, 0.95), hand=0)
    assert [c for c in t.calls() if c[0] != "please_look"] == []
    assert Roll(1, (6, 5)) in t.events() and Roll(0, (4, 2)) in t.events()


def test_a_roll_with_a_play_picked_up_unplayed_is_a_roll_made_again():
    """Bob (not on the bar) rolls 6-5 with the 5 in doubt, and picks the dice up without playing: he may move,
    so he is rolling again (the camera was right that the die was cocked); nothing is recorded yet."""
    t = Table()
    start_board = Board.from_position(Position.start(), 0)
    t.see(start_board)
    t.see(start_board, SeenDie(5, True, DARK_HALF), SeenDie(2, True, LIGHT_HALF))
    g = t.ref.game
    # Ann plays 13/8 13/11 (her numbers): from the start, dark's 13 -> 8 and 13 -> 11
    pts = list(Board.from_position(Position.start(), 0).points)
    pts[12] -= 2
    pts[7] += 1
    pts[10] += 1
    played = Board(tuple(pts), (0, 0))
    t.see(played, SeenDie(5, True, DARK_HALF), SeenDie(2, True, LIGHT_HALF))
    t.see(played)
    assert t.ref.game.turn == 1 and t.ref.game.phase is Phase.ROLL and g is not t.ref.game
    t.outs.clear()
    t.see(played, SeenDie(6, True, LIGHT_HALF, 0.95), SeenDie(5, False, LIGHT_HALF, 0.4), hand=1)
    t.see(played)
    assert not any(isinstance(e, Roll) for e in t.events())
    assert t.ref.game.turn == 1 and t.ref.game.phase is Phase.ROLL


def start_board() -> Board:
    return Board.from_position(Position.start(), 0)


def dark_moved(*hops) -> Board:
    """The start position with dark's checkers moved (dark's numbers)."""
    pts = list(start_board().points)
    for a, b in hops:
        pts[a - 1] -= 1
        pts[b - 1] += 1
    return Board(tuple(pts), (0, 0))


def test_opening_roll_never_seen_then_the_next_roll_is_the_other_players():
    """The camera reads no die of the opening roll.  Ann (dark) plays 13/11 13/8, which only 5-2 allows, so she
    opened with her 5 against Bob's 2.  Bob then throws 4-1 into his own right-hand half from his seat: that is
    his roll, not an opening roll thrown into one half (no wrong_half)."""
    t = Table()
    t.see(start_board())
    played = dark_moved((13, 11), (13, 8))
    t.see(played)  # the dice were never read; picked up
    t.see(played, SeenDie(4, True, LIGHT_HALF, 0.9), SeenDie(1, True, LIGHT_HALF, 0.9), hand=1)
    assert [c for c in t.calls() if c[0] != "please_look"] == []
    from engine.game import OpeningRoll
    events = t.events()
    assert events[0] == OpeningRoll((5, 2))
    assert isinstance(events[1], Move) and events[1].player == 0
    assert events[2] == Roll(1, (4, 1))


def test_opening_play_that_fits_two_rolls_is_recorded_with_a_look():
    """Ann's 13/7 (one checker six pips) fits 5-1 and 4-2 alike; no opening die was read.  Bob's roll comes:
    the game goes on with one of them recorded and a look naming the other; no foul is called."""
    t = Table()
    t.see(start_board())
    played = dark_moved((13, 7))
    t.see(played)
    t.see(played, SeenDie(6, True, LIGHT_HALF, 0.9), SeenDie(3, True, LIGHT_HALF, 0.9), hand=1)
    assert [c for c in t.calls() if c[0] != "please_look"] == []
    looks = [r for out in t.outs for c in out.calls if c.kind == "please_look" for r in c.reasons]
    assert any("5-1" in r and "4-2" in r for r in looks)
    assert Roll(1, (6, 3)) in t.events()
    assert t.ref.game.turn == 1 and t.ref.game.dice == (6, 3)


def test_opening_dice_read_still_decide_after_the_play():
    """Bob's 2 of the opening was read (in his half), Ann's die not; Ann plays 13/7 (5-1 or 4-2 as a play),
    Bob's 2 says 4-2.  Then Bob rolls 5-5: recorded after the opening 4-2 with no look about the roll."""
    t = Table()
    t.see(start_board())
    t.see(start_board(), SeenDie(2, True, LIGHT_HALF, 0.9))  # one opening die read
    played = dark_moved((13, 7))
    t.see(played, SeenDie(2, True, LIGHT_HALF, 0.9))
    t.see(played)
    t.see(played, SeenDie(5, True, LIGHT_HALF, 0.9), SeenDie(5, True, LIGHT_HALF, 0.9), hand=1)
    from engine.game import OpeningRoll
    assert t.events()[0] == OpeningRoll((4, 2))
    assert Roll(1, (5, 5)) in t.events()
    assert [c for c in t.calls() if c[0] != "please_look"] == []


def light_on_roll_after_ann_opened() -> tuple[Table, Board]:
    """Ann (dark) opened 5-2 with 13/11 13/8; Bob (light) is to roll."""
    t = Table()
    t.see(start_board())
    t.see(start_board(), SeenDie(5, True, DARK_HALF), SeenDie(2, True, LIGHT_HALF))
    played = dark_moved((13, 11), (13, 8))
    t.see(played, SeenDie(5, True, DARK_HALF), SeenDie(2, True, LIGHT_HALF))
    t.see(played)
    assert t.ref.game.turn == 1
    t.outs.clear()
    return t, played


def light_moved(board: Board, *hops) -> Board:
    """``board`` with light's checkers moved (light's own numbers; light's point n is dark's 25 - n)."""
    pts = list(board.points)
    for a, b in hops:
        pts[25 - a - 1] += 1  # one light checker fewer (light counts are negative)
        pts[25 - b - 1] -= 1
    return Board(tuple(pts), board.bar)


def test_a_die_misread_on_the_first_reading_is_outvoted_by_surer_readings():
    """Bob rolls 6-3.  The first reading has the 3 as a 4, unsure (0.3); with the checkers moved and the dice still
    down it reads 6-3 surely (0.95).  Bob played 24/18 13/9: one pip too far for 6-3 (13/10 was the 3), though it
    would be a legal 6-4.  The roll is 6-3 and the play is illegal: the first, unsure reading does not excuse it."""
    t, board = light_on_roll_after_ann_opened()
    t.see(board, SeenDie(6, True, LIGHT_HALF, 0.95), SeenDie(4, True, LIGHT_HALF, 0.3), hand=1)
    moved = light_moved(board, (24, 18), (13, 9))
    t.see(moved, SeenDie(6, True, LIGHT_HALF, 0.95), SeenDie(3, True, LIGHT_HALF, 0.95))
    t.see(moved)  # dice picked up: judged
    assert ("illegal_play", 1) in t.calls()
    assert t.ref.game.dice == (6, 3)


def test_disagreeing_readings_alike_in_sureness_go_by_what_the_play_fits():
    """Bob's 6-4 is read 6-3 first (0.9), then 6-4 (0.9) with the checkers moved: 24/18 13/9 is legal with 6-4 and
    not with 6-3, the readings are alike: the roll is 6-4 and no foul is called."""
    t, board = light_on_roll_after_ann_opened()
    t.see(board, SeenDie(6, True, LIGHT_HALF, 0.9), SeenDie(3, True, LIGHT_HALF, 0.9), hand=1)
    moved = light_moved(board, (24, 18), (13, 9))
    t.see(moved, SeenDie(6, True, LIGHT_HALF, 0.9), SeenDie(4, True, LIGHT_HALF, 0.9))
    t.see(moved)
    assert [c for c in t.calls() if c[0] != "please_look"] == []
    assert Roll(1, (6, 4)) in t.events() and t.ref.game.turn == 0


def test_a_double_misread_first_gives_way_to_the_roll_read_surely_twice():
    """Bob's 6-5 is read first as 5-5 with one 5 unsure (0.35); while he plays 24/18 18/13 (a 6-5, one checker)
    the dice read 6-5 surely (0.95) twice.  The roll recorded is 6-5, the play legal, no foul."""
    t, board = light_on_roll_after_ann_opened()
    t.see(board, SeenDie(5, True, LIGHT_HALF, 0.35), SeenDie(5, True, LIGHT_HALF, 0.9), hand=1)
    half = light_moved(board, (24, 18))
    t.see(half, SeenDie(6, True, LIGHT_HALF, 0.95), SeenDie(5, True, LIGHT_HALF, 0.95))
    moved = light_moved(half, (18, 13))
    t.see(moved, SeenDie(6, True, LIGHT_HALF, 0.95), SeenDie(5, True, LIGHT_HALF, 0.95))
    t.see(moved)
    assert [c for c in t.calls() if c[0] != "please_look"] == []
    assert Roll(1, (6, 5)) in t.events() and t.ref.game.turn == 0


def test_one_die_seen_in_the_other_half_thrown_by_the_roller_is_a_wrong_half():
    """Bob throws from his seat; the camera sees one die only, a 4 lying in Ann's right-hand half (the other die
    is not seen).  Wherever the other went, a die landed outside Bob's half: roll again, on Bob."""
    t, board = light_on_roll_after_ann_opened()
    t.see(board, SeenDie(4, True, DARK_HALF, 0.95), hand=1)
    assert t.calls() == [("wrong_half", 1)]


def test_one_die_seen_in_the_other_half_with_no_hand_seen_is_a_look():
    t, board = light_on_roll_after_ann_opened()
    t.see(board, SeenDie(4, True, DARK_HALF, 0.95))
    assert [k for k, _ in t.calls()] == ["please_look"]


def test_one_die_seen_surely_cocked_is_called_when_the_dice_are_picked_up():
    """Bob's roll: the camera sees one die, surely cocked, in his half (the other not seen).  He picks the dice up
    to roll again: the cocked die is called on him."""
    t, board = light_on_roll_after_ann_opened()
    t.see(board, SeenDie(3, False, LIGHT_HALF, 0.95), hand=1)
    assert t.calls() == []  # called once a second reading confirms it
    t.see(board)
    assert t.calls() == [("cocked", 1)]


def test_a_die_read_cocked_while_the_roll_is_played_as_it_lies_is_a_look_not_a_foul():
    """Bob's 6-4: the camera reads the 4 cocked, surely, twice; but Bob plays 24/18 13/9 with the dice lying as they
    fell.  Players do not play a cocked roll: vision alone says cocked, so a look is asked, no roll again; the
    roll stands and the play is legal."""
    t, board = light_on_roll_after_ann_opened()
    t.see(board, SeenDie(6, True, LIGHT_HALF, 0.95, (300.0, 100.0)), SeenDie(4, False, LIGHT_HALF, 0.9, (330.0, 140.0)), hand=1)
    moved = light_moved(board, (24, 18), (13, 9))
    t.see(moved, SeenDie(6, True, LIGHT_HALF, 0.95, (300.0, 100.0)), SeenDie(4, False, LIGHT_HALF, 0.9, (330.0, 140.0)))
    t.see(moved)
    assert [k for k, _ in t.calls()] == ["please_look"]
    assert Roll(1, (6, 4)) in t.events() and t.ref.game.turn == 0


def test_a_play_with_no_die_seen_then_the_opponent_moving_before_rolling():
    """Bob's dice are never seen; he plays 24/18 13/9 (only 6-4 makes that play) and picks them up.  Ann then moves
    a checker 13/11 before rolling, and puts it back when told.  Bob's roll is taken from his play (a look), and
    Ann is called for moving before her roll."""
    t, board = light_on_roll_after_ann_opened()
    bob = light_moved(board, (24, 18), (13, 9))
    t.see(bob)
    early = Board(tuple(n - 1 if i == 12 else n + 1 if i == 10 else n for i, n in enumerate(bob.points)), bob.bar)  # dark 13/11
    t.see(early)
    t.see(bob)
    assert Roll(1, (6, 4)) in t.events()
    assert [c for c in t.calls() if c[0] != "please_look"] == [("moved_before_roll", 0)]
    t.see(bob, SeenDie(3, True, DARK_HALF, 0.95), SeenDie(1, True, DARK_HALF, 0.95), hand=0)
    assert Roll(0, (3, 1)) in t.events()


def test_two_dice_in_one_half_after_checkers_moved_with_no_opening_seen_are_no_foul():
    """No opening die was read and the checkers stand as no opening play leaves them (a misread board); two dice
    lie in Bob's half.  Nothing tells whether they are an opening roll thrown into one half or a later roll: a look."""
    t = Table()
    t.see(start_board())
    odd = dark_moved((13, 12))  # one pip: no opening play
    t.see(odd, SeenDie(4, True, LIGHT_HALF, 0.9), SeenDie(1, True, LIGHT_HALF, 0.9), hand=1)
    assert [k for k, _ in t.calls()] in (["please_look"], [])


def test_the_cube_pushed_over_with_its_face_misread_is_the_double_the_rules_allow():
    """At the start of Bob's turn the cube, in the middle, is pushed to Ann's side; the camera reads its face as 16.
    A cube in the middle can only be turned to 2: Bob doubled, and a look is asked at the face."""
    from engine.game import Double
    t, board = light_on_roll_after_ann_opened()
    t.see(board, cube=(16, "dark"))
    assert Double(1) in t.events()
    assert [k for k, _ in t.calls()] == ["please_look"]
    assert t.ref.game.phase is Phase.DOUBLED


def test_the_cube_read_with_another_face_where_it_lies_is_no_double():
    """The cube lies in the middle, its face read as 16: it has not moved, so nothing happened."""
    t, board = light_on_roll_after_ann_opened()
    t.see(board, cube=(16, "centre"))
    assert t.events() == [] and t.calls() == []


def test_a_play_no_roll_with_the_die_seen_allows_is_illegal_whatever_the_other_die():
    """Bob's roll: the camera reads his 6 surely, the other die not at all.  He plays 24/15 6/5 (nine pips with one
    checker and one with another): no roll holding a 6 allows that (6-3 is 24/15 alone; 6-1 is 24/18 6/5).  He picks
    up the dice: the play is illegal whatever the die not seen was."""
    t, board = light_on_roll_after_ann_opened()
    t.see(board, SeenDie(6, True, LIGHT_HALF, 0.95), hand=1)
    moved = light_moved(board, (24, 15), (6, 5))
    t.see(moved, SeenDie(6, True, LIGHT_HALF, 0.95))
    t.see(moved)  # picked up
    assert ("illegal_play", 1) in t.calls()


def test_a_play_one_checker_off_every_roll_with_the_die_seen_is_a_look():
    """As above, but the checkers stand one checker off a legal 6-4 play (24/18 13/9 read with the 9-point's new
    checker missing, a stack misread): a look, not a foul."""
    t, board = light_on_roll_after_ann_opened()
    t.see(board, SeenDie(6, True, LIGHT_HALF, 0.95), hand=1)
    played = light_moved(board, (24, 18), (13, 9))
    pts = list(played.points)
    pts[25 - 9 - 1] += 1  # light's 9-point (dark's 16) read one checker short
    misread = Board(tuple(pts), played.bar)
    t.see(misread, SeenDie(6, True, LIGHT_HALF, 0.95))
    t.see(misread)
    assert ("illegal_play", 1) not in t.calls()


def test_one_unsure_die_seen_in_the_other_half_is_a_look():
    """As for one die seen in Ann's half thrown from Bob's seat, but the camera is unsure of that die (0.4): it may
    be no die at all.  A look, no foul."""
    t, board = light_on_roll_after_ann_opened()
    t.see(board, SeenDie(4, True, DARK_HALF, 0.4), hand=1)
    assert [k for k, _ in t.calls()] == ["please_look"]
