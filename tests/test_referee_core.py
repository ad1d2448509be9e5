"""The referee's decisions on simulated settled readings (no camera): whole games,
illegal plays and irregularities."""

import random


from engine import Position, legal_plays
from engine.board import Board
from engine.game import Phase, Rules
from engine.plays import Hop, apply_hops
from referee.core import Mode, Press, Seen, SeenDie, Settings, Stage, observe, resume, start

SETTINGS = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"))


def seen(ref_or_board, dice=(), cube=(1, "centre"), hand=None):
    board = ref_or_board if isinstance(ref_or_board, Board) else ref_or_board
    return Seen(board=board, dice=tuple(dice), cube_value=cube[0], cube_position=cube[1], hand=hand)


def dice_in(settings, player, d1, d2, flat=True):
    half = settings.right_half(player)
    return (SeenDie(d1, True, half), SeenDie(d2, flat, half))


def board_of(ref):
    g = ref.game
    return Board.from_position(g.position, g.turn)


class Table:
    """Two players at a board, as the camera would see them settle."""

    def __init__(self, settings=SETTINGS, seed=1):
        self.settings = settings
        self.ref = start(settings)
        self.rng = random.Random(seed)
        self.log = []
        self.cube = (1, "centre")

    def see(self, board, dice=(), hand=None):
        self.ref, out = observe(self.ref, seen(board, dice, self.cube, hand))
        self.log.append(out)
        return out

    def press(self, button):
        self.ref, out = observe(self.ref, Press(button))
        self.log.append(out)
        return out

    def opening(self, d0=5, d1=2):
        start_board = Board.from_position(Position.start(), 0)
        self.see(start_board)
        half0, half1 = self.settings.right_half(0), self.settings.right_half(1)
        return self.see(start_board, (SeenDie(d0, True, half0), SeenDie(d1, True, half1)))

    @classmethod
    def after_first_play(cls):
        """Dark opened with 5-2 and played its first legal play; light is to roll."""
        t = cls()
        t.opening(5, 2)
        g = t.ref.game
        t.play(Board.from_position(legal_plays(g.position, g.dice)[0].after, 0), dice_in(t.settings, 0, 5, 2))
        return t

    def play(self, after_board, dice_seen):
        self.see(after_board, dice_seen)  # checkers moved, dice still down
        return self.see(after_board)  # dice picked up: judged


def test_whole_game_legal_plays_are_recorded_without_false_alarm():
    t = Table(seed=3)
    t.opening()
    assert t.ref.game.phase is Phase.MOVE
    moves = 0
    while t.ref.stage is not Stage.OVER:
        g = t.ref.game
        player = g.turn
        if g.phase is Phase.ROLL:
            d = (t.rng.randint(1, 6), t.rng.randint(1, 6))
            t.see(board_of(t.ref), dice_in(t.settings, player, *d))
            continue
        plays = legal_plays(g.position, g.dice)
        after = plays[t.rng.randint(0, len(plays) - 1)].after if plays else g.position
        half = t.settings.right_half(player)
        out = t.play(Board.from_position(after, player), (SeenDie(g.dice[0], True, half), SeenDie(g.dice[1], True, half)))
        assert not any(n.level == "illegal" for n in out.notes), out.notes
        moves += 1
    assert t.ref.match.games_played == 1 and moves > 20
    events = [e for out in t.log for e in out.events]
    again = resume(t.settings, events)
    assert again.match == t.ref.match, "the journal of events rebuilds the match"


def test_illegal_play_is_flagged_then_corrected():
    t = Table()
    t.opening(5, 2)  # dark plays 5-2 first
    g = t.ref.game
    wrong = Board.from_position(apply_hops(g.position, [Hop(13, 8), Hop(13, 10)]), 0)  # a 3 instead of the 2
    out = t.play(wrong, dice_in(t.settings, 0, 5, 2))
    assert t.ref.stage is Stage.ILLEGAL
    assert [s.kind for s in out.signals] == ["illegal_play"]
    assert 10 in out.signals[0].args[0]
    assert "numbers that are not the dice" in out.verdict.reasons[0].fault.value
    right = Board.from_position(apply_hops(g.position, [Hop(13, 8), Hop(13, 11)]), 0)
    out = t.see(right)
    assert t.ref.stage is Stage.PLAYING and out.events and "played 13/11 13/8" in out.notes[0].text


def test_illegal_play_accepted_when_the_opponent_rolls():
    t = Table()
    t.opening(5, 2)
    g = t.ref.game
    wrong = Board.from_position(apply_hops(g.position, [Hop(13, 8)]), 0)  # only the 5
    t.play(wrong, dice_in(t.settings, 0, 5, 2))
    assert t.ref.stage is Stage.ILLEGAL
    out = t.see(wrong, dice_in(t.settings, 1, 6, 4))  # light rolls: accepted as made
    kinds = [type(e).__name__ for e in out.events]
    assert kinds == ["Move", "Roll"]
    assert out.events[0].accept_illegal is True
    assert t.ref.game.phase is Phase.MOVE and t.ref.game.turn == 1


def test_accept_button():
    t = Table()
    t.opening(5, 2)
    g = t.ref.game
    wrong = Board.from_position(apply_hops(g.position, [Hop(13, 8)]), 0)
    t.play(wrong, dice_in(t.settings, 0, 5, 2))
    out = t.press("accept")
    assert out.events[0].accept_illegal and t.ref.game.turn == 1


def test_cocked_die_and_wrong_half_call_a_reroll():
    t = Table.after_first_play()
    board = board_of(t.ref)
    cocked = dice_in(t.settings, 1, 3, 3, flat=False)
    out = t.see(board, cocked)
    assert not out.signals and not out.calls  # one reading of a cocked die is not yet sure
    out = t.see(board, cocked)  # seen cocked again, where it lay: roll again
    assert out.signals[0].kind == "reroll_needed" and "cocked" in out.notes[0].text
    assert [(c.kind, c.player) for c in out.calls] == [("cocked", 1)]
    wrong_half = tuple(SeenDie(d.value, True, t.settings.right_half(0)) for d in dice_in(t.settings, 1, 3, 1))
    out = t.see(board, wrong_half)
    # both dice in dark's half and nobody seen throwing: Bob into the wrong half or Ann out of turn; no foul
    # is called on a guess (tests/test_referee_rolls.py has the throw seen), and the roll does not count
    assert out.signals[0].kind == "look_needed" and "the camera did not see who threw them" in out.notes[0].text
    assert [(c.kind, c.player) for c in out.calls] == [("please_look", 1)]
    assert t.ref.game.phase is Phase.ROLL


def test_roll_before_the_opponent_picked_up_is_void():
    t = Table()
    t.opening(5, 2)
    g = t.ref.game
    after = legal_plays(g.position, g.dice)[0].after
    board = Board.from_position(after, 0)
    t.see(board, dice_in(t.settings, 0, 5, 2))
    t.see(board)  # judged, dark's dice picked up
    # a dice pair still on the board from the previous roll blocks a new roll
    out = t.see(board, dice_in(t.settings, 1, 4, 4) + dice_in(t.settings, 0, 5, 2))
    assert t.ref.game.phase is Phase.ROLL and out.signals and out.signals[0].kind == "reroll_needed"


def test_double_take_and_drop():
    t = Table.after_first_play()
    board = board_of(t.ref)
    t.cube = (2, "dark")  # light turns the cube to 2 and pushes it to dark
    out = t.see(board)
    assert t.ref.game.phase is Phase.DOUBLED and out.events[0].__class__.__name__ == "Double"
    out = t.see(board, dice_in(t.settings, 1, 6, 1))  # light rolls on: taken
    assert [type(e).__name__ for e in out.events] == ["Take", "Roll"]
    assert t.ref.game.cube == 2 and t.ref.game.cube_owner == 0


def test_drop_button_ends_the_game():
    t = Table.after_first_play()
    t.cube = (2, "dark")
    t.see(board_of(t.ref))
    out = t.press("drop")
    assert t.ref.stage is Stage.OVER and t.ref.match.score == (0, 1)
    assert "wins 1 point" in out.notes[0].text


def test_teaching_mode_shows_sources():
    t = Table(Settings(rules=Rules(), mode=Mode.TEACH))
    out = t.opening(6, 1)
    teach = [s for s in out.signals if s.kind == "teaching"]
    assert teach and set(teach[0].args[0]) == {24, 13, 8, 6}


def test_occluded_reading_waits():
    t = Table()
    t.opening()
    before = t.ref
    t.ref, out = observe(t.ref, Seen(board=board_of(t.ref), occluded=("hand",)))
    assert t.ref == before and out.events == ()


def test_unsure_reading_prefers_the_legal_play_it_allows():
    t = Table()
    t.opening(5, 2)
    g = t.ref.game
    right = apply_hops(g.position, [Hop(13, 8), Hop(13, 11)])
    board = Board.from_position(right, 0)
    misread = list(board.points)
    misread[10] -= 1  # point 11 read as empty...
    misread[9] += 1  # ...and 10 as holding the checker, both with low confidence
    seen_board = Board(tuple(misread), board.bar)
    t.see(seen_board, dice_in(t.settings, 0, 5, 2))
    t.ref, out = observe(t.ref, Seen(board=seen_board, unsure_points=frozenset({10, 11})))
    assert out.verdict.legal and "13/11 13/8" in out.notes[0].text


def test_unsure_reading_that_no_legal_play_explains_asks_for_a_look():
    t = Table()
    t.opening(5, 2)
    g = t.ref.game
    wrong = Board.from_position(apply_hops(g.position, [Hop(13, 8), Hop(13, 10)]), 0)
    t.see(wrong, dice_in(t.settings, 0, 5, 2))
    # unsure of 10 and of 6 too: the count of the rest fixes neither (unsure of 10 alone, every other place
    # sure and 15 a side, 10 holds its one checker and the play is called: test_referee_lasting_misreads)
    t.ref, out = observe(t.ref, Seen(board=wrong, unsure_points=frozenset({10, 6})))
    assert [s.kind for s in out.signals] == ["look_needed"] and "please look at 10" in out.notes[0].text
    assert t.ref.stage is Stage.ILLEGAL


def test_mode_button_cycles_modes():
    t = Table()
    out = t.press("mode")
    assert t.ref.settings.mode is Mode.TEACH and "teach" in out.notes[0].text


def test_roll_out_of_turn_is_refused():
    t = Table.after_first_play()
    out = t.see(board_of(t.ref), dice_in(t.settings, 0, 6, 6), hand=0)  # dark's hand throws again: light's turn
    assert out.signals[0].kind == "reroll_needed" and "Bob's turn to roll" in out.notes[0].text
    assert [(c.kind, c.player) for c in out.calls] == [("out_of_turn", 0)]
    assert t.ref.game.phase is Phase.ROLL and t.ref.game.turn == 1


def test_roll_while_the_mover_still_has_dice_down_is_void():
    t = Table()
    t.opening(5, 2)
    g = t.ref.game
    after = Board.from_position(legal_plays(g.position, g.dice)[0].after, 0)
    out = t.see(after, dice_in(t.settings, 0, 5, 2) + dice_in(t.settings, 1, 6, 6))
    assert "roll is void" in out.notes[0].text and t.ref.game.phase is Phase.MOVE


def test_teaching_mode_shows_where_a_lifted_checker_may_go():
    t = Table(Settings(rules=Rules(), mode=Mode.TEACH))
    t.opening(6, 1)  # dark plays 6-1
    g = t.ref.game
    lifted = list(Board.from_position(g.position, 0).points)
    lifted[12] -= 1  # one checker lifted from dark's 13-point
    out = t.see(Board(tuple(lifted)), dice_in(t.settings, 0, 6, 1))
    teach = [s for s in out.signals if s.kind == "teaching"]
    assert teach and set(teach[0].args[1]) == {7, 6}  # 13/7, 13/7/6 (13/12 is held)
