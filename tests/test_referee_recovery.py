"""A roll the camera did not see whole: a die missed, unreadable, or the dice
picked up before they were read.  The referee takes the roll from the play
when the play fits exactly one roll with the dice read, asks to see the dice
otherwise, and never records a roll the evidence does not determine."""

import json

import pytest

from engine import Position
from engine.board import Board
from engine.game import Move, OpeningRoll, Phase, Roll, Rules, Take
from engine.plays import Hop, apply_hops
from referee.core import Mode, Seen, SeenDie, Settings, Stage, observe, start
from referee.demo import load_recording
from referee.journal import recover
from referee.pipeline import DroppedDice
from referee.service import RefereeService

SETTINGS = Settings(rules=Rules(match_length=3), players=("Ann", "Bob"))
DARK, LIGHT = SETTINGS.right_half(0), SETTINGS.right_half(1)


def die(value, half, flat=True):
    return SeenDie(value, flat, half)


class Table:
    def __init__(self, settings=SETTINGS):
        self.ref = start(settings)
        self.cube = (1, "centre")
        self.outs = []

    def see(self, board, *dice):
        self.ref, out = observe(self.ref, Seen(board=board, dice=tuple(dice), cube_value=self.cube[0], cube_position=self.cube[1]))
        self.outs.append(out)
        return out

    def board(self):
        g = self.ref.game
        return Board.from_position(g.position, g.turn)

    def after(self, *hops):
        """The board after ``hops`` (mover's numbering) by the player on turn."""
        g = self.ref.game
        return Board.from_position(apply_hops(g.position, [Hop(a, b) for a, b in hops]), g.turn)

    def events(self):
        return [e for out in self.outs for e in out.events]


def light_to_roll(settings=SETTINGS):
    """Ann (dark) opened with 5-2 and played 13/11 13/8; Bob (light) is to roll."""
    t = Table(settings)
    start_board = Board.from_position(Position.start(), 0)
    t.see(start_board)
    t.see(start_board, die(5, DARK), die(2, LIGHT))
    played = t.after((13, 11), (13, 8))
    t.see(played, die(5, DARK), die(2, LIGHT))
    t.see(played)
    assert t.ref.game.phase is Phase.ROLL and t.ref.game.turn == 1
    t.outs.clear()
    return t


def kinds(out):
    return [type(e).__name__ for e in out.events]


def signals(out):
    return [s.kind for s in out.signals]


def test_one_die_seen_the_roll_is_taken_from_the_play():
    t = light_to_roll()
    t.see(t.board(), die(6, LIGHT))  # the 3 is hidden by a glare
    played = t.after((24, 18), (13, 10))
    out = t.see(played, die(6, LIGHT))
    assert out.events == () and out.notes == ()  # dice still down: the play may go on
    out = t.see(played)  # dice picked up: the turn is over
    assert kinds(out) == ["Roll", "Move"] and out.events[0] == Roll(1, (6, 3))
    assert out.inferred == (Roll(1, (6, 3)),)
    assert "a die was not seen; it is taken as 6-3 from the play" in out.notes[0].text and out.notes[0].level == "warning"
    assert "look_needed" not in signals(out) and "play_accepted" in signals(out)
    assert t.ref.game.turn == 0 and t.ref.game.phase is Phase.ROLL


def test_roll_seen_only_after_the_checkers_moved():
    t = light_to_roll()
    played = t.after((24, 18), (13, 10))
    out = t.see(played, die(3, LIGHT), die(6, LIGHT))  # the roll's own reading was missed
    assert out.events == (Roll(1, (6, 3)),) and "seen after the checkers moved" in out.notes[0].text
    assert out.inferred == ()
    out = t.see(played)
    assert kinds(out) == ["Move"] and out.verdict.legal


def test_dice_picked_up_before_they_were_seen():
    t = light_to_roll()
    played = t.after((24, 18), (13, 10))
    out = t.see(played)
    assert out.events == ()  # no die seen: dice unseen, or moving before rolling; the next reading tells
    out = t.see(played, die(4, DARK), die(2, DARK))  # Ann rolls: Bob's turn was over
    assert out.events[0] == Roll(1, (6, 3)) and kinds(out) == ["Roll", "Move", "Roll"]
    assert "the dice were not seen" in out.notes[0].text
    assert "look_needed" in signals(out)  # the play is the only evidence: the players are asked to look


def test_unreadable_die_then_played():
    t = light_to_roll()
    out = t.see(t.board(), die(6, LIGHT), die(None, LIGHT))
    assert signals(out) == ["look_needed"]  # vision is unsure, the player is not: a look, no roll again
    assert [c.kind for c in out.calls] == ["please_look"]
    played = t.after((24, 18), (13, 10))
    t.see(played, die(6, LIGHT), die(None, LIGHT))  # played on: the die was flat, vision could not read it
    out = t.see(played)
    assert out.events[0] == Roll(1, (6, 3)) and kinds(out) == ["Roll", "Move"]


def test_several_rolls_fit_the_players_are_asked_to_show_the_dice():
    t = light_to_roll()
    t.see(t.board(), die(2, LIGHT))
    played = t.after((13, 7), (7, 5))  # 13/5: 6-2, or 2-2 played with one checker
    out = t.see(played, die(2, LIGHT))
    assert signals(out) == ["look_needed"] and "6-2 or 2-2" in out.notes[0].text and "leave the dice" in out.notes[0].text
    out = t.see(played)
    assert out.events == () and signals(out) == ["look_needed"] and "put the dice back" in out.notes[0].text
    out = t.see(played, die(5, LIGHT), die(4, LIGHT))  # not a roll the play fits: a new roll, not recorded
    assert out.events == () and signals(out) == ["look_needed"]
    out = t.see(played, die(6, LIGHT), die(2, LIGHT))  # the roll shown
    assert out.events == (Roll(1, (6, 2)),)
    out = t.see(played)
    assert kinds(out) == ["Move"] and out.verdict.legal


def test_no_roll_fits_the_play_is_judged_against_the_dice_shown():
    t = light_to_roll()
    t.see(t.board(), die(6, LIGHT))
    wrong = t.after((24, 18), (24, 21), (13, 9))  # three numbers: no roll plays this
    t.see(wrong, die(6, LIGHT))
    out = t.see(wrong)
    assert out.events == () and "no roll explains" in out.notes[0].text
    out = t.see(wrong, die(6, LIGHT), die(3, LIGHT))
    assert out.events == (Roll(1, (6, 3)),)
    out = t.see(wrong)
    assert out.events == () and t.ref.stage is Stage.ILLEGAL and signals(out) == ["illegal_play"]


def test_checkers_put_back_after_the_question_resume_normally():
    t = light_to_roll()
    t.see(t.board(), die(2, LIGHT))
    t.see(t.after((13, 7), (7, 5)))
    out = t.see(t.board(), die(4, LIGHT), die(1, LIGHT))  # checkers back, rolled again
    assert out.events == (Roll(1, (4, 1)),)


def test_the_opponent_rolling_ends_the_unseen_turn():
    t = light_to_roll()
    t.see(t.board(), die(6, LIGHT))
    played = t.after((24, 18), (13, 10))
    t.see(played, die(6, LIGHT))
    out = t.see(played, die(5, DARK), die(5, DARK))  # Bob's pick-up was never read; Ann rolls
    assert out.events == (Roll(1, (6, 3)), Move(1, apply_hops(light_to_roll().ref.game.position, [Hop(24, 18), Hop(13, 10)])), Roll(0, (5, 5)))


def test_roll_of_the_opponent_seen_before_the_pick_up_after_a_seen_roll():
    t = light_to_roll()
    t.see(t.board(), die(6, LIGHT), die(3, LIGHT))
    played = t.after((24, 18), (13, 10))
    t.see(played, die(6, LIGHT), die(3, LIGHT))
    out = t.see(played, die(4, DARK), die(1, DARK))
    assert kinds(out) == ["Move", "Roll"] and out.events[1] == Roll(0, (4, 1))


def test_tournament_mode_requires_the_dice_to_be_seen():
    t = light_to_roll(Settings(rules=Rules(match_length=3), players=("Ann", "Bob"), mode=Mode.TOURNAMENT))
    t.see(t.board(), die(6, LIGHT))
    played = t.after((24, 18), (13, 10))
    out = t.see(played, die(6, LIGHT))
    assert signals(out) == ["look_needed"] and "tournament" in out.notes[0].text
    out = t.see(played)
    assert out.events == () and "put the dice back" in out.notes[0].text
    out = t.see(played, die(6, LIGHT), die(3, LIGHT))
    assert out.events == (Roll(1, (6, 3)),) and out.inferred == ()


def test_a_player_who_moves_while_the_others_dice_are_down():
    t = Table()
    start_board = Board.from_position(Position.start(), 0)
    t.see(start_board)
    t.see(start_board, die(5, DARK), die(2, LIGHT))
    g = t.ref.game
    ann = apply_hops(g.position, [Hop(13, 11), Hop(13, 8)])
    bob_early = apply_hops(ann.swap(), [Hop(24, 18)])  # Bob moves before Ann picked up her dice
    both = Board.from_position(bob_early, 1)
    t.see(both, die(5, DARK), die(2, LIGHT))
    out = t.see(both)
    assert out.events == (Move(0, ann),) and "Bob moved before Ann picked up the dice" in out.notes[-1].text
    out = t.see(both, die(6, LIGHT), die(1, LIGHT))  # Bob's roll does not count until the checker is back
    assert out.events == () and "put them back" in out.notes[0].text
    out = t.see(Board.from_position(ann, 0), die(6, LIGHT), die(1, LIGHT))
    assert out.events == (Roll(1, (6, 1)),)


def test_opening_roll_with_a_die_missed():
    t = Table()
    start_board = Board.from_position(Position.start(), 0)
    t.see(start_board)
    t.see(start_board, die(5, DARK))  # Bob's 2 unseen
    played = Board.from_position(apply_hops(Position.start(), [Hop(13, 11), Hop(13, 8)]), 0)
    t.see(played, die(5, DARK))
    out = t.see(played)
    assert kinds(out) == ["OpeningRoll", "Move"] and out.events[0] == OpeningRoll((5, 2)) and out.inferred == (OpeningRoll((5, 2)),)
    assert "the opening roll: a die was not seen" in out.notes[0].text


def test_double_then_a_roll_with_a_die_missed_is_a_take():
    t = light_to_roll()
    t.cube = (2, "dark")
    t.see(t.board())
    assert t.ref.game.phase is Phase.DOUBLED
    out = t.see(t.board(), die(6, LIGHT))  # Bob rolls on: taken
    assert out.events == (Take(0),)
    played = t.after((24, 18), (13, 10))
    t.see(played, die(6, LIGHT))
    out = t.see(played)
    assert kinds(out) == ["Roll", "Move"]


def test_illegal_play_accepted_by_a_roll_with_a_die_missed():
    t = Table()
    start_board = Board.from_position(Position.start(), 0)
    t.see(start_board)
    t.see(start_board, die(5, DARK), die(2, LIGHT))
    one_die = t.after((13, 8))
    t.see(one_die, die(5, DARK), die(2, LIGHT))
    t.see(one_die)
    assert t.ref.stage is Stage.ILLEGAL
    out = t.see(one_die, die(4, LIGHT))  # Bob rolls (one die unseen): the play is accepted as made
    assert kinds(out) == ["Move"] and out.events[0].accept_illegal


def test_a_misread_board_with_no_dice_is_not_taken_for_a_play():
    t = light_to_roll()
    points = list(t.board().points)
    points[0] += 1  # a phantom checker: no play does this
    out = t.see(Board(tuple(points), t.board().bar))
    assert out.events == () and out.notes == ()


# --- recorded games with a die hidden ---------------------------------------------------------


def readings(items):
    return [Seen.from_reading(item["reading"]) for item in items]


def referee_all(settings, folder, seen_items, chosen=lambda roll: False, seed=0):
    service = RefereeService(settings, folder, None)
    drop = DroppedDice(service, chosen, seed)
    notes = [n for s in seen_items for n in drop.handle(s).notes]
    return service, drop, notes


@pytest.fixture(scope="module")
def demo():
    header, items = load_recording(None)
    return readings(items)


def test_recording_with_a_die_hidden_from_one_roll_records_the_whole_match(tmp_path, demo):
    truth, plain, _ = referee_all(SETTINGS, tmp_path / "truth", demo)
    service, drop, notes = referee_all(SETTINGS, tmp_path / "seen", demo, lambda roll: roll == 4)
    assert drop.dropped == [4]
    assert service.events == truth.events and service.record() == truth.record()
    assert (tmp_path / "seen" / "match.mat").read_text() == (tmp_path / "truth" / "match.mat").read_text()
    assert sum("from the play" in n.text for n in notes) == 1
    lines = [json.loads(line)["entry"] for line in (tmp_path / "seen" / "match.journal").read_text().splitlines()]
    assert [e["type"] for e in lines if e.get("inferred")] == ["roll"]


class Core:
    """The referee's decisions alone (no journal, no files): fast enough for every roll of a game."""

    def __init__(self, settings):
        self.ref, self.events, self.notes = start(settings), [], []

    def handle(self, item):
        self.ref, out = observe(self.ref, item)
        self.events += [e for e in out.events if not (isinstance(e, OpeningRoll) and e.dice[0] == e.dice[1])]
        self.notes += out.notes
        return out


def _only_a_roll_guessed(got: list, want: list) -> bool:
    """The same events but for the dice of rolls (a roll the referee never saw whole, taken from the play)."""
    return len(got) == len(want) and all(
        a == b or (isinstance(a, Roll) and isinstance(b, Roll) and a.player == b.player) for a, b in zip(got, want))


@pytest.mark.slow  # every roll of the demo; the roll-by-roll cases above stay in the default suite
def test_every_roll_of_the_recording_with_a_die_hidden(demo):
    """Each roll of the bundled game in turn, each of its dice hidden from all
    its readings: the match is recorded whole, or the referee asks for the dice
    and records nothing past them.  The exceptions are the injected illegal
    plays whose number the hidden die held: they look like legal plays of
    another roll (equal opening dice, which an unseen die hides, are left out)."""
    truth = Core(SETTINGS)
    plain = DroppedDice(truth, lambda roll: False)
    for s in demo:
        plain.handle(s)
    rolls = plain.rolls + 1
    whole, asked, other = 0, 0, set()
    for roll in range(rolls):
        for seed in (0, 1):  # seed 0 hides the lower die of these rolls, seed 1 the higher (or the same when equal)
            core = Core(SETTINGS)
            drop = DroppedDice(core, lambda r, roll=roll: r == roll, seed)
            for s in demo:
                drop.handle(s)
            if core.events == truth.events:
                whole += 1
            elif core.events == truth.events[: len(core.events)] and any("not seen whole" in n.text for n in core.notes):
                asked += 1
            elif _only_a_roll_guessed(core.events, truth.events) and any("correct the record" in n.text for n in core.notes):
                asked += 1  # asked for the dice, play went on: the play recorded, its roll one of those that fit, flagged
            else:
                other.add(roll)
    assert rolls > 100
    assert whole >= 0.85 * 2 * rolls, (whole, asked, other)  # 214 of 232 whole, 15 asked, 3 (2 illegal plays) taken as legal
    # roll 7: Bob's wrong die (2-1 played as 4-2, the 1 hidden); roll 11: Ann's one die played of 4-3 (as 4-1, the 3 hidden);
    # (roll 52, Bob's 2-2 on the bar with a die hidden on every reading, no legal play, is no longer a miss: the resync
    # records his turn with no play, Ann's 6-2 and Bob's 4-1 as made; only the roll of the dance is open, 6-2 or 2-2
    # with the one 2 seen, recorded as 6-2 and flagged, so it counts with the rolls asked about.  Before, the resync
    # recorded Bob 4-1 entering before Ann's play, a wrong play, then called two false fouls)
    assert other <= {7, 11}, other


def test_power_cut_after_an_inferred_roll_resumes(tmp_path, demo):
    collected = []

    class Collect:
        def handle(self, item):
            collected.append(item)
            from referee.core import Outcome

            return Outcome()

    drop = DroppedDice(Collect(), lambda roll: roll == 4)
    for s in demo:
        drop.handle(s)
    full, _, _ = referee_all(SETTINGS, tmp_path / "full", collected)
    folder = tmp_path / "cut"
    first = RefereeService(SETTINGS, folder, None)
    for k, s in enumerate(collected):  # noqa: B007 - k is where the second service takes over
        if first.handle(s).inferred:
            break
    first.close()
    journal = folder / "match.journal"
    lines = journal.read_text().splitlines(keepends=True)
    cut = next(i for i, line in enumerate(lines) if '"inferred":true' in line) + 1
    assert '"type":"move"' in lines[cut]
    journal.write_text("".join(lines[:cut]) + lines[cut][:20])  # the power went as the play was written
    again = RefereeService(SETTINGS, folder, None)
    assert again.recovered.inferred and again.recovered.dropped_lines == 1
    assert again.ref.game.phase is Phase.MOVE
    for s in collected[k:]:
        again.handle(s)
    assert again.events == full.events and again.record() == full.record()
    assert recover(journal).inferred == again.recovered.inferred
