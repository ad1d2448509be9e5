"""Property: any match the writers produce reads back identically, from ``.mat``
and from SGF, whatever was accepted at the board.

The matches are drawn by Hypothesis with a generator that shares no code with
the product: it follows the turn order and cube rules written out here from
the rule sheet (who rolls, who may double, Crawford, a drop loses the cube
before the double) but knows nothing of the board.  Its plays are checkers
moved backwards (``6/13``, ``20/bar``), which no roll ever makes legal, so
every one is an illegal play accepted as made, followed where the board can
and left as it was where it cannot; and dances.  Games end by a drop, by a
resignation of 1, 2 or 3 times the cube, by points no resignation gives (a
forfeit), by a resignation before the opening roll, or not at all (the last
game of a record cut short).  Player names may be blank.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import Rules
from engine.mat import read_mat, write_mat
from engine.record import RecordedDouble, RecordedDrop, RecordedGame, RecordedMatch, RecordedMove, RecordedResign, RecordedResult, RecordedRoll, RecordedTake
from engine.sgf import read_sgf, write_sgf

NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 -_.", max_size=12).map(str.strip)
POINT_NAMES = {25: ("25", "bar"), 0: ("0", "off")}


@st.composite
def backwards_play(draw) -> str:
    """One to four checkers moved away from home: never a legal play."""
    hops = []
    for _ in range(draw(st.integers(1, 4))):
        src = draw(st.integers(1, 23))
        dst = draw(st.integers(src + 1, 25))
        dst_name = draw(st.sampled_from(POINT_NAMES[dst])) if dst in POINT_NAMES else str(dst)
        hops.append(f"{src}/{dst_name}")
    return " ".join(hops)


@st.composite
def game_actions(draw, cube_allowed: bool, needed: tuple[int, int], last: bool) -> tuple[list, RecordedResult | None]:
    """One game's actions and result, by the turn order and cube rules only."""
    actions: list = []
    cube, owner = 1, None
    if draw(st.integers(0, 19)) == 0:  # a resignation before the opening roll
        loser = draw(st.integers(0, 1))
        return [RecordedResign(loser, 1)], RecordedResult(1 - loser, 1, True)
    dice = draw(st.sampled_from([(a, b) for a in range(1, 7) for b in range(1, 7) if a != b]))
    turn = draw(st.integers(0, 1))
    previous_dance = False
    for _ in range(draw(st.integers(1, 12))):
        play = draw(st.one_of(backwards_play(), st.just("")))
        actions.append(RecordedMove(turn, dice, play))
        previous_dance = play == ""
        turn = 1 - turn
        choice = draw(st.integers(0, 9))
        if choice == 0 and cube_allowed and owner in (None, turn) and cube < 64:
            actions.append(RecordedDouble(turn, cube * 2))
            if draw(st.booleans()):
                actions.append(RecordedDrop(1 - turn))
                return actions, RecordedResult(turn, cube, False)
            actions.append(RecordedTake(1 - turn))
            cube, owner = cube * 2, 1 - turn
        elif choice == 1 and not previous_dance:
            loser = draw(st.integers(0, 1))
            points = draw(st.one_of(st.sampled_from([cube, 2 * cube, 3 * cube]), st.just(max(needed[1 - loser], 1))))
            actions.append(RecordedResign(loser, points))
            return actions, RecordedResult(1 - loser, points, True)
        elif choice == 2:
            roll = draw(st.sampled_from([(a, b) for a in range(1, 7) for b in range(1, 7)]))
            actions += [RecordedRoll(turn, roll), RecordedResign(turn, cube)]
            return actions, RecordedResult(1 - turn, cube, True)
        dice = draw(st.sampled_from([(a, b) for a in range(1, 7) for b in range(1, 7)]))
    if last and draw(st.booleans()):
        return actions, None  # the record stops during the game
    if previous_dance:
        # A roll left unplayed just before a resignation is a roll at which the
        # player resigned, not a dance (as .mat files write it): play it.
        actions.append(RecordedMove(turn, dice, draw(backwards_play())))
        turn = 1 - turn
    loser = draw(st.integers(0, 1))
    actions.append(RecordedResign(loser, cube))
    return actions, RecordedResult(1 - loser, cube, True)


@st.composite
def matches(draw) -> RecordedMatch:
    length = draw(st.sampled_from([0, 1, 3, 5, 7]))
    crawford = bool(length) and draw(st.booleans())
    rules = Rules(match_length=length, crawford=crawford)
    score = [0, 0]
    crawford_played = False
    games: list[RecordedGame] = []
    count = draw(st.integers(1, 4))
    for k in range(count):
        crawford_game = crawford and not crawford_played and max(score) == length - 1
        crawford_played |= crawford_game
        needed = (length - score[0], length - score[1]) if length else (0, 0)
        actions, result = draw(game_actions(not crawford_game, needed, last=k == count - 1))
        games.append(RecordedGame((score[0], score[1]), tuple(actions), result))
        if result is None:
            break
        score[result.winner] += result.points
        if length and max(score) >= length:
            break
    return RecordedMatch((draw(NAMES), draw(NAMES)), rules, tuple(games))


@settings(max_examples=150, deadline=None, derandomize=True)
@given(match=matches())
def test_any_match_the_writers_produce_reads_back_identically(match):
    assert read_mat(write_mat(match)) == match
    assert read_sgf(write_sgf(match)) == match
