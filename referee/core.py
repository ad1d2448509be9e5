"""The referee's decisions: settled board readings and button presses in,
engine events, LED signals and messages out.

Pure: no camera, clock, file or LED here.  The rules live in ``engine``; this
module only interprets what the camera sees (seeds, "Irregularities"):

- the opening roll is one die each, rolled into the roller's right-hand half;
- a roll is two dice, flat, in the roller's right-hand half, else it is rolled
  again; a roll made before the opponent picked up their dice is void;
- the turn ends when the roller picks up the dice; then the play is judged;
- a roll the camera did not see whole (a die missed, unreadable, or the dice
  picked up before they were read) is taken from the play when the die seen
  and the checkers moved fit exactly one roll; otherwise the roller is asked
  to show the dice (see :func:`_moved_before_roll`);
- an illegal play waits: the player corrects it, or the opponent accepts it as
  made (button, or by rolling or turning the cube, as the rules agreed say);
- a double is the cube turned to the next value and pushed to the opponent's
  side; the doubler rolling next means it was taken; a drop is said with the
  button (or the web page), or seen as the checkers set up again.

Players: 0 is dark, 1 is light.  Points named to the LEDs are dark's numbers.
"""

from __future__ import annotations

import enum
import functools
import itertools
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from engine.board import DARK, Board
from engine.colour import COLOURS
from engine.game import (
    AcceptIllegal,
    Double,
    Drop,
    Event,
    EventRefused,
    Game,
    Match,
    Move,
    OpeningRoll,
    Phase,
    Roll,
    Rules,
    Take,
    Beaver,
    apply_to_match,
    new_match,
)
from engine.judge import Verdict, judge
from engine.plays import Play, apply_hops, legal_plays
from engine.position import Position, PositionError
from firmware_bridge.signals import SignalKind

from .resync import ROLLS, Decision, Step, decide, missed_plays, moved_beyond_hits
from .rolls import dice_out_of_place, hand_side
from .seating import HALVES, Seating
from .trust import TRUST

if TYPE_CHECKING:  # the referee reads a Reading's fields; importing vision (and OpenCV) is the caller's
    from vision.reading import Reading



class Mode(enum.Enum):
    """How the referee speaks.  A roll not seen whole is taken from the play
    (when the play fits exactly one roll) in every mode but TOURNAMENT, where
    the dice must be seen: a strict referee cannot tell a legal play of an
    unseen roll from an illegal play of another, so it asks for the dice."""

    REFEREE = "referee"
    TEACH = "teach"
    RECORD = "record"  # silent: no LED verdicts
    TOURNAMENT = "tournament"  # no hints; rolls must be seen


@dataclass(frozen=True, slots=True)
class Settings:
    """How the referee works for these players (rules are in ``rules``)."""

    rules: Rules = field(default_factory=Rules)
    players: tuple[str, str] = ("Dark", "Light")
    mode: Mode = Mode.REFEREE
    dark_right_half: str = "home"  # the half on dark's right: "home" or "outer" (see referee.seating)

    @property
    def seating(self) -> Seating:
        return Seating(self.dark_right_half)

    def right_half(self, player: int) -> str:
        """The half a player rolls into (their right-hand side)."""
        return self.seating.right_half(player)


# --- what the camera saw ------------------------------------------------------------


SURE = TRUST.sure  # below this a die's or point's confidence (0..1) is vision unsure (referee.trust)


@dataclass(frozen=True, slots=True)
class SeenDie:
    value: int | None
    flat: bool
    half: str  # home, outer, off
    confidence: float | None = None  # of the reading (None: given as a fact, e.g. a scripted reading)
    xy: tuple[float, float] | None = None  # where it lies on the board (mm), when the reading says

    @property
    def sure(self) -> bool:
        return self.confidence is None or self.confidence >= SURE

    @property
    def known(self) -> bool:
        """Its number counts: read, and flat, or read cocked by a camera that is not sure of it."""
        return self.value is not None and (self.flat or not self.sure)


@dataclass(frozen=True, slots=True)
class Seen:
    """A settled reading of the board (board-spec JSON)."""

    board: Board
    dice: tuple[SeenDie, ...] = ()
    cube_value: int | None = 1
    cube_position: str | None = "centre"
    occluded: tuple[str, ...] = ()
    unsure_points: frozenset[int] = frozenset()  # dark's numbers read with low confidence
    t: float | None = None  # seconds into the footage (or since the start), when known
    hand: int | None = None  # the player from whose side a hand last reached over the board before this settled (referee.rolls)
    as_read: Board | None = None  # the checkers as vision read them, where the referee took them otherwise (_reconciled)
    final: bool = False  # the footage ended with the board lying as read: nothing more will be seen (see _ended)

    @classmethod
    def from_reading(cls, reading: Reading, t: float | None = None) -> Seen:
        """What the referee takes of a reading (``vision.reading``; from JSON by ``Reading.from_json``)."""
        sure = reading.confidence.dice if reading.confidence is not None else ()
        image = reading.extra.get("image")
        where = list(image.get("dice_mm") or []) if isinstance(image, Mapping) else []
        dice = tuple(
            SeenDie(d.value, d.flat, d.half.value, sure[i] if i < len(sure) else None, _xy(where[i] if i < len(where) else None))
            for i, d in enumerate(reading.dice)
        )
        unsure = frozenset(
            i + 1 for i, c in enumerate(reading.confidence.points if reading.confidence is not None else ()) if c is not None and c < SURE
        )
        # Hidden places carry no guess (null): nothing is judged on a reading with any (``occluded``).
        if any(n is None for n in reading.points) and not reading.occluded:
            raise PositionError("a reading with unread points must say they are occluded")
        board = Board(tuple(n or 0 for n in reading.points), (reading.bar.dark or 0, reading.bar.light or 0))
        return cls(
            board=board,
            dice=dice,
            cube_value=None if reading.cube is None else reading.cube.value,
            cube_position=None if reading.cube is None else reading.cube.position.value,
            occluded=reading.occluded,
            unsure_points=unsure,
            t=t,
        )


def _xy(value: Any) -> tuple[float, float] | None:
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(_number(v) is not None for v in value):
        return (float(value[0]), float(value[1]))
    return None


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


@dataclass(frozen=True, slots=True)
class Press:
    """A button (GPIO or web page): accept, correct, take, drop, new_game, mode."""

    button: str


# --- what the referee says ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Signal:
    """An LED message: ``kind`` is a :class:`SignalKind` (its name is accepted and checked:
    a misspelt one raises ValueError here, where it was made)."""

    kind: SignalKind
    args: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", SignalKind(self.kind))


@dataclass(frozen=True, slots=True)
class Note:
    """A message for the players (console, web page) and for the record."""

    text: str
    level: str = "info"  # info, warning, illegal


CALL_KINDS = (
    "illegal_play",  # a play against the rules (stops play)
    "cocked",  # a die not flat: roll again (stops play)
    "wrong_half",  # a die outside the roller's right-hand half: roll again (stops play)
    "out_of_turn",  # the player not on roll rolled
    "moved_before_roll",  # checkers moved before the roll (or before the opponent's turn ended)
    "roll_before_pickup",  # rolled before the opponent picked up their dice: void
    "please_look",  # the camera is unsure: the players are asked to look, nobody is called for a foul
    "seating",  # the plays fit the players in each other's seats
    "resync",  # the referee had lost the thread of the game and follows it again from the board (referee.resync)
)


@dataclass(frozen=True, slots=True)
class Call:
    """A call the referee makes: what (``kind``, one of :data:`CALL_KINDS`), about whom (0 dark, 1 light,
    None: both, as for the opening roll) and why.  ``game`` (from 1) and ``turn`` (plays made in the game
    before it, so 0 is the opening play) are stamped by :func:`observe`."""

    kind: str
    player: int | None
    reasons: tuple[str, ...] = ()
    game: int = 0
    turn: int = 0
    silent: bool = False  # recorded, not shown (record mode)

    def to_json(self) -> dict[str, Any]:
        return {
            "player": None if self.player is None else COLOURS[self.player],
            "call": self.kind,
            "reasons": list(self.reasons),
            "game": self.game,
            "turn": self.turn,
            **({"silent": True} if self.silent else {}),
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one observation led to: events for the journal (in order), LED
    signals, notes and the calls made."""

    events: tuple[Event, ...] = ()
    signals: tuple[Signal, ...] = ()
    notes: tuple[Note, ...] = ()
    verdict: Verdict | None = None
    inferred: tuple[Event, ...] = ()  # those of ``events`` taken from the play, not seen (journalled as such)
    calls: tuple[Call, ...] = ()
    retracted: int = 0  # the last events journalled before these are withdrawn (a roll misread, the seating swapped)


class Stage(enum.Enum):
    SETUP = "waiting for the start position"
    PLAYING = "playing"
    ILLEGAL = "an illegal play waits for correction or acceptance"
    SEATING = "the players look swapped: waiting for the seating to be confirmed"
    OVER = "game over: set up the checkers for the next game"


@dataclass(frozen=True, slots=True)
class Standing:
    """A call that stops play, with what it is about: the checkers as the referee took them when it was made,
    and the dice lying.  It stands until that changes (see :func:`_standing`)."""

    kind: str
    player: int | None
    board: Board
    dice: tuple[SeenDie, ...] = ()


@dataclass(frozen=True, slots=True)
class Referee:
    """The referee's whole state: the match (engine) and what it waits for."""

    settings: Settings
    match: Match
    stage: Stage = Stage.SETUP
    illegal_after: Position | None = None  # the illegal play seen, mover's view
    illegal_verdict: Verdict | None = None
    dice_on_board: bool = False  # the current roll's dice are still seen
    dice_read: tuple[SeenDie, ...] = ()  # the roller's dice read so far (flat, readable) of a roll not yet recorded
    moved_early: bool = False  # the roller's checkers moved before their turn: they go back before anything else
    asked_board: Board | None = None  # the checkers when the roller was asked to show a roll the play left open...
    asked_rolls: tuple[tuple[int, int], ...] = ()  # ...and the rolls they fit (none: no roll explains them)
    plays: int = 0  # plays made in this game
    before_roll: Match | None = None  # the match before this turn's roll was recorded (to amend a misread roll)
    rolls_read: tuple[tuple[tuple[int, int], float], ...] = ()  # each reading of this turn's roll (higher die first), with how sure vision was
    openings_read: tuple[tuple[tuple[int, int], float], ...] = ()  # each reading of the opening roll (dark's die, light's die), how sure
    reached: frozenset[int] = frozenset()  # players whose hand was seen over the board since the last play
    swap_play: Position | None = None  # the first play as the other player made it, while the seating is in doubt
    unsure_run: int = 0  # readings in a row that cannot physically be (see _reconciled)
    moved_unrolled: Board | None = None  # the roller's checkers seen moved with no dice on the board
    cocked_seen: tuple[SeenDie, ...] = ()  # a roll read with a die cocked, waiting for the next reading to confirm it
    hidden_since: bool = False  # a hand hid the board since: dice read with no place may have been rolled again
    last_turn: tuple[Match, Match, bool] | None = None  # the last legal play's match before its roll, after it, roll inferred?
    hand: int | None = None  # the player whose hand was over the board on the readings hidden since the last clear one
    called_dice: tuple[SeenDie, ...] = ()  # dice lying where a roll was called (wrong half, out of turn, a look): not called again
    last_board: Board | None = None  # the checkers of the last clear reading, as the referee took them
    last_read: Board | None = None  # ...and as vision read them (where the two differ, a misreading: see _misread_still)
    last_dice: tuple[SeenDie, ...] = ()  # the dice of the clear reading before this one (see _void_roll)
    rolls_seen: tuple[tuple[int, tuple[int, int]], ...] = ()  # (player, roll) read whole in a player's half since the last play
    dice_seen: tuple[tuple[int, int], ...] = ()  # (player, die) read in a player's half since the last play (one die is evidence too)
    stop_calls: tuple[str, ...] = ()  # the calls that stop play made since the last play (repeated, the referee may be lost)
    setup_since: float | None = None  # waiting for the start: when the board was first seen not to be it
    setup_reads: int = 0  # ...and the readings since that were not it (-1: a look was asked)
    doubt_read: tuple[tuple[int, int], ...] = ()  # (point, checkers read) where the start was taken in doubt: unsure while read so
    standing: tuple[Standing, ...] = ()  # the calls that stop play standing: made on these checkers (and dice), not yet changed

    @property
    def game(self) -> Game:
        """The game in play (or the last one, when the match is over)."""
        assert self.match.game is not None
        return self.match.game


def start(settings: Settings) -> Referee:
    """A referee waiting for the players to set up the first game."""
    return Referee(settings=settings, match=new_match(settings.rules))


def resume(settings: Settings, events: Iterable[Event]) -> Referee:
    """The referee after replaying journalled events (crash or power cut)."""
    ref = start(settings)
    match = ref.match
    plays = 0
    for event in events:
        games = match.games_played
        match = apply_to_match(match, event)
        plays = 0 if match.games_played > games else plays + isinstance(event, Move)
    game = match.game
    assert game is not None
    stage = Stage.PLAYING if match.games_played or game.phase is not Phase.OPENING else Stage.SETUP
    if game.phase is Phase.OPENING and match.games_played:
        stage = Stage.OVER
    if match.winner is not None:
        stage = Stage.OVER
    return replace(ref, match=match, stage=stage, plays=plays)


# --- the decision function -------------------------------------------------------------


def observe(ref: Referee, seen: Seen | Press) -> tuple[Referee, Outcome]:
    """The referee after a settled reading or a button press, and what it says."""
    new, out = _observe(ref, seen)
    return new, _stamped(ref, out)


def _stamped(ref: Referee, out: Outcome) -> Outcome:
    """The outcome with each call not yet stamped put in ``ref``'s game and turn."""
    if all(c.game for c in out.calls):
        return out
    game, turn = ref.match.games_played + 1, ref.plays
    return replace(out, calls=tuple(c if c.game else replace(c, game=game, turn=turn) for c in out.calls))


Handler = Callable[[Referee, "Seen"], tuple[Referee, Outcome]]


def _in_turn(handler: Handler) -> Handler:
    """Calls made by ``handler`` belong to the turn of the referee it is given: a reading that ends one turn
    (a play accepted, a roll taken from the play) and shows the next one's roll has calls in both."""

    @functools.wraps(handler)
    def stamping(ref: Referee, seen: Seen) -> tuple[Referee, Outcome]:
        new, out = handler(ref, seen)
        return new, _stamped(ref, out)

    return stamping


def _lone_unread_point(seen: Seen) -> Seen:
    """One point left unread, nothing else hidden: vision is unsure of that point (a stack it cannot count),
    not a hand over the board (a hand, sleeve or cup hides more than one place).  The rest of the reading
    stands, with that point unsure: waiting on it as on a hand would let a whole play go by unseen."""
    if len(seen.occluded) != 1 or not seen.occluded[0].startswith("point:"):
        return seen
    point = int(seen.occluded[0].split(":", 1)[1])
    return replace(seen, occluded=(), unsure_points=seen.unsure_points | {point})


def _observe(ref: Referee, seen: Seen | Press) -> tuple[Referee, Outcome]:
    if isinstance(seen, Press):
        return _press(ref, seen)
    seen = _lone_unread_point(seen)
    if seen.final and not _ended(ref, seen):
        return ref, Outcome()  # read already, and it changes nothing that the footage ended there
    if seen.occluded:
        # a hand or cup hides part of the board: wait, noting whose side it came from (who throws next)
        hand = hand_side(seen.occluded)
        reached = ref.reached if hand is None else ref.reached | {hand}
        return replace(ref, hidden_since=bool(ref.cocked_seen), hand=hand, reached=reached), Outcome()
    if seen.hand is None and ref.hand is not None:
        seen = replace(seen, hand=ref.hand)
    ref = replace(ref, hand=None)
    if ref.stage in (Stage.PLAYING, Stage.ILLEGAL, Stage.SEATING):
        ref, seen = _still_in_doubt(ref, seen)
        read = seen.board
        ref, fitted, out = _reconciled(ref, seen)
        if fitted is None:
            return ref, out
        seen = fitted
    else:
        read = seen.board
    ref = replace(ref, last_board=seen.board, last_read=read)
    handler = {
        Stage.SETUP: _setup,
        Stage.PLAYING: _playing,
        Stage.ILLEGAL: _illegal,
        Stage.SEATING: _seating,
        Stage.OVER: _over,
    }[ref.stage]
    new, out = handler(ref, seen)
    return _kept_track(ref, replace(new, last_dice=seen.dice), seen, out)


def _still_in_doubt(ref: Referee, seen: Seen) -> tuple[Referee, Seen]:
    """A point taken in doubt at the start (read otherwise than the start, see :func:`_setup`) and read the same
    way since is the same misreading, not a fact: vision that misreads a stack once (a colour, a count) tends to
    misread it alike on every frame while it lies still, so being sure of it later proves nothing.  It stays
    unsure while it reads so; read any other way (the stack changed, or vision now sees it right), the doubt is
    settled for good.  Read so, the stack has not changed, so it holds what the referee knows it held: the
    reading takes that (unsure), and is judged on the points vision reads otherwise."""
    if not ref.doubt_read:
        return ref, seen
    still = tuple((p, n) for p, n in ref.doubt_read if seen.board.points[p - 1] == n)
    if still != ref.doubt_read:
        ref = replace(ref, doubt_read=still)
    if not still:
        return ref, seen
    doubt = {p for p, _ in still}
    held = Board.from_position(ref.game.position, _viewer(ref.game)).points
    points = tuple(held[i] if i + 1 in doubt else n for i, n in enumerate(seen.board.points))
    return ref, replace(seen, board=Board(points, seen.board.bar), unsure_points=seen.unsure_points | doubt)


STOP_CALLS = ("moved_before_roll", "illegal_play")  # the calls a referee that lost the thread would make on every play


def _standing(old: Referee, new: Referee, seen: Seen, out: Outcome) -> tuple[tuple[Standing, ...], Outcome]:
    """One event, one call.  A call that stops play is about a situation: the checkers as the referee took them
    and the dice lying.  The call stands until that situation changes; the same call (kind and player) about
    the same unchanged situation is not made again, whichever check finds it again and in whatever words (a
    play judged and the next turn begun on one reading both see the opponent's checkers moved early), on this
    reading or a later one.  A new game, checkers that changed, or dice picked up or thrown end what stood (a
    call made again after play went on is :func:`_kept_track`'s)."""
    kept = old.standing if new.match.games_played == old.match.games_played else ()
    standing = tuple(s for s in kept if s.board == seen.board and _same_dice(s.dice, seen.dice))
    calls: list[Call] = []
    for call in out.calls:
        if call.kind in ("please_look", "resync"):
            calls.append(call)
        elif not any(s.kind == call.kind and s.player == call.player for s in standing):
            standing += (Standing(call.kind, call.player, seen.board, seen.dice),)
            calls.append(call)
        # else it stands: said once
    return standing, out if tuple(calls) == out.calls else replace(out, calls=tuple(calls))


def _kept_track(old: Referee, new: Referee, seen: Seen, out: Outcome) -> tuple[Referee, Outcome]:
    """What the referee keeps of a reading for finding its way again (see :func:`_resync`): the rolls read whole
    in a player's half, and the calls that stop play made, since the last play.  A call that stops play made again
    in the same turn, about a situation since changed, is not made again: the players went on as if it were not
    made, so either the referee is lost or they ignore it; once it asks for a look instead, then it keeps quiet
    until a play is recorded.  (About the same situation, it still stands: see :func:`_standing`.)"""
    standing, out = _standing(old, new, seen, out)
    new = replace(new, standing=standing)
    same_turn = new.plays == old.plays and new.match.games_played == old.match.games_played and new.stage not in (Stage.SETUP, Stage.OVER)
    rolls, made = (new.rolls_seen, new.stop_calls) if same_turn else ((), ())
    dice_seen = new.dice_seen if same_turn else ()
    if new.stage in (Stage.PLAYING, Stage.ILLEGAL) and not new.dice_on_board:  # (dice of a roll recorded tell nothing missed)
        for player in (0, 1):
            dice = _readable(seen.dice, new.settings.right_half(player))
            dice_seen = tuple(dict.fromkeys(dice_seen + tuple((player, d.value) for d in dice if d.value is not None)))[-12:]
            roll = _roll_of(dice)
            if roll is not None and len(seen.dice) == 2:
                rolls = tuple(dict.fromkeys(rolls + ((player, roll),)))[-8:]
    calls: list[Call] = []
    for call in out.calls:
        if call.kind not in STOP_CALLS or call.kind not in made or not same_turn:
            made += (call.kind,) if call.kind in STOP_CALLS else ()
            calls.append(call)
        elif "please_look" not in made:
            made += ("please_look",)
            text = (f"{call.kind.replace('_', ' ')} again, and play goes on: the referee may have lost the thread of the game: "
                    "please look (it follows the board again as soon as the plays explain it)")
            calls.append(Call("please_look", call.player, (text,) + call.reasons))
    if tuple(calls) != out.calls:
        out = replace(out, calls=tuple(calls))
    return replace(new, rolls_seen=rolls, dice_seen=dice_seen, stop_calls=made), out


# --- what can physically have happened ---------------------------------------------------

UNSURE_RUN = TRUST.unsure_run  # impossible readings in a row before a look is asked (referee.trust)
NEAR = TRUST.near  # checkers an impossible reading may be off by (referee.trust)


def _distance(a: Board, b: Board, unsure: frozenset[int] = frozenset()) -> int:
    """Checkers to add or take away to turn one board into the other (but on the points ``unsure``)."""
    points = sum(abs(x - y) for i, (x, y) in enumerate(zip(a.points, b.points)) if i + 1 not in unsure)
    return points + sum(abs(x - y) for x, y in zip(a.bar, b.bar))


def _viewer(g: Game) -> int:
    """The player whose view ``g.position`` is in: the one on turn while rolling and playing, else the one who
    holds the dice (a double waiting for its answer is the doubler's position, the answer the other's turn)."""
    return g.turn if g.phase in (Phase.ROLL, Phase.MOVE) else g.on_roll


def _possible(ref: Referee, seen: Seen) -> bool:
    """Whether the checkers seen can physically be on the board now: 15 a side less those borne off; only the
    player on turn, after their roll, has checkers off the board: in hand while their dice are down, or borne
    off (all their checkers home, at most four a turn)."""
    g = ref.game
    mine, theirs = seen.board.sides(_viewer(g))
    if sum(theirs) != sum(g.position.opponent):
        return False
    gone = sum(g.position.on_roll) - sum(mine)
    if gone == 0:
        return True
    if g.phase is not Phase.MOVE or not 0 < gone <= 4:
        return False
    in_hand = any(d.half == ref.settings.right_half(g.turn) for d in seen.dice)  # their dice still down: playing
    return in_hand or not any(mine[6:])


def _all_seen(ref: Referee, seen: Seen) -> bool:
    """Whether the reading shows every checker the game has on the board (none in hand or borne off this turn):
    a reading so is :func:`_possible`."""
    g = ref.game
    mine, theirs = seen.board.sides(_viewer(g))
    return sum(mine) == sum(g.position.on_roll) and sum(theirs) == sum(g.position.opponent)


def _allowed_boards(ref: Referee) -> list[tuple[Board, int]]:
    """The boards the rules allow now, each with a rank (0 first: what asks for nothing unseen): after a roll,
    its legal plays (0); before one, the checkers as they stand (0) and the plays of any roll (1: a roll not
    seen; before the opening roll, the opening plays of either player); an illegal play or a swapped first play
    waiting, that play (0)."""
    g = ref.game
    unseen = g.dice is None
    rolls = [g.dice] if g.dice is not None else list(ROLLS) if g.phase is Phase.ROLL else []
    plays = [(Board.from_position(p.after, g.turn), int(unseen)) for r in rolls for p in legal_plays(g.position, r)]
    if g.phase is Phase.OPENING:
        plays = [(board, 1) for board in _opening_boards()]  # the opening roll not seen: its play may be made
    # after a roll with a play to make, the checkers as they stood are no longer what the rules allow
    standing = [] if g.dice is not None and plays else [(Board.from_position(g.position, _viewer(g)), 0)]
    boards = standing + plays
    if ref.illegal_after is not None:
        boards.append((Board.from_position(ref.illegal_after, g.turn), 0))
    if ref.swap_play is not None:
        boards.append((Board.from_position(ref.swap_play, 1 - g.turn), 0))
    best: dict[Board, int] = {}
    for board, rank in boards:
        best[board] = min(rank, best.get(board, rank))
    return list(best.items())


def _mend_opponent(ref: Referee, board: Board) -> Board:
    """The board with the checkers of the player not on turn as they must be while the other plays: the same
    as before the roll but for blots hit (gone to the bar where the mover now stands).  A stack of that player's
    read a checker short or long (a persistent misreading) is put right; the mover's checkers are left as read."""
    g = ref.game
    if g.phase is not Phase.MOVE:
        return board
    mine, theirs = board.sides(g.turn)
    expected = g.position.opponent
    mended = list(theirs)
    gone = [i for i in range(24) if expected[i] == 1 and theirs[i] == 0]
    stood = [i for i in gone if mine[23 - i]]  # hit where the hitter now stands
    # hit by a checker that moved on: as many more as the bar shows, nearest the mover's start first
    passed = [i for i in sorted(set(gone) - set(stood), reverse=True)][: max(0, theirs[24] - expected[24] - len(stood))]
    hits = len(stood) + len(passed)
    for i in range(24):
        if theirs[i] != expected[i] and i not in stood and i not in passed and not mine[23 - i]:
            mended[i] = expected[i]
    mended[24] = expected[24] + hits
    if tuple(mended) == theirs:
        return board
    dark, light = (mine, tuple(mended)) if g.turn == 0 else (tuple(mended), mine)
    return Board(tuple(dark[i] - light[23 - i] for i in range(24)), (dark[24], light[24]))


def _reconciled(ref: Referee, seen: Seen) -> tuple[Referee, Seen | None, Outcome]:
    """The reading as the referee takes it.  A reading that cannot physically be (a checker missing from a
    stack or added to it, a colour mixed up) is unsure, not a fact: where a board the rules allow lies within
    a checker or two of it, that board is taken (no checker moves before a roll; a play is one of the legal
    plays); else the reading is set aside, and the referee goes on as soon as readings fit again."""
    if ref.stage is Stage.PLAYING and ref.game.phase is Phase.OPENING and _is_start(seen.board):
        return replace(ref, unsure_run=0), seen, Outcome()
    opening = _opening_read_otherwise(ref, seen)
    if opening is not None:
        return replace(ref, unsure_run=0), opening, Outcome()
    if _all_seen(ref, seen):  # every checker in view: possible, whatever the dice
        return replace(ref, unsure_run=0), seen, Outcome()
    # a checker missing, or thought in the mover's hand, may be one vision has been missing all along
    mended = replace(seen, board=_mend_opponent(ref, seen.board), as_read=seen.board)
    still = _misread_still(ref, seen) or (_misread_still(ref, mended) if mended.board != seen.board else None)
    if still is not None:
        return replace(ref, unsure_run=0), still, Outcome()
    if _possible(ref, seen):
        return replace(ref, unsure_run=0), seen, Outcome()
    if mended.board != seen.board and _possible(ref, mended):
        return replace(ref, unsure_run=0), mended, Outcome()
    filled = _filled_by_the_rest(ref, seen)
    if filled is not None:
        return replace(ref, unsure_run=0), filled, Outcome()
    g = ref.game
    # Waiting on the players to show a roll, the game may have moved on beyond what the referee follows.
    allowed = _allowed_boards(ref) if ref.asked_board is None else []
    last = ref.last_board
    if last is not None and last not in dict(allowed) and _possible(ref, replace(seen, board=last)):
        allowed.append((last, 2))  # the board last seen, if it can still be: nothing moves but under a hand (ranked last)
    # points vision is unsure of (a stack left unread) count for nothing: there the rules decide; so do a stack
    # or two read in the other side's colour, since the reading cannot be as it stands
    near = sorted((_distance(b, seen.board, seen.unsure_points | _mixed_few(b, seen.board)), rank, i) for i, (b, rank) in enumerate(allowed))
    near = [n for n in near if n[0] <= NEAR]
    if near and (len(near) == 1 or near[0][:2] < near[1][:2]):
        board = allowed[near[0][2]][0]
        # the points read otherwise stay unsure: no foul is called on them (see _judge_seen)
        unsure = {i + 1 for i, (a, b) in enumerate(zip(board.points, seen.board.points)) if a != b}
        taken = replace(seen, board=board, unsure_points=seen.unsure_points | unsure, as_read=seen.board)
        return replace(ref, unsure_run=0), taken, Outcome()
    doubted = _doubt_as_last(ref, seen)
    if doubted is not None:
        return replace(ref, unsure_run=0), doubted, Outcome()
    ref = replace(ref, unsure_run=ref.unsure_run + 1)
    if ref.unsure_run != UNSURE_RUN:
        return ref, None, Outcome()
    standing = Board.from_position(g.position, _viewer(g))
    wrong = sorted(i + 1 for i, (a, b) in enumerate(zip(standing.points, seen.board.points)) if a != b)
    where = f" at {', '.join(map(str, wrong))}" if wrong else ""
    text = f"the camera cannot make sense of the checkers{where} (as read they cannot be there): please look"
    return ref, None, _look(g.turn, text, tuple(wrong))


def _filled_by_the_rest(ref: Referee, seen: Seen) -> Seen | None:
    """A reading a side's checkers short or long with one point only read unsure, every other place sure: that
    point holds what the rest leaves (a stack vision cannot count), rather than a point read surely being
    taken otherwise for the nearest legal play.  None unless that makes the reading whole."""
    if len(seen.unsure_points) != 1:
        return None
    (point,) = seen.unsure_points
    g = ref.game
    viewer = _viewer(g)
    mine, theirs = seen.board.sides(viewer)
    short = {viewer: sum(g.position.on_roll) - sum(mine), 1 - viewer: sum(g.position.opponent) - sum(theirs)}
    off = [c for c in (0, 1) if short[c]]
    if len(off) != 1:
        return None
    sign = 1 if off[0] == DARK else -1
    n = seen.board.points[point - 1] * sign  # the side's checkers read there (negative: the other side's)
    if n < 0 or n + short[off[0]] < 1:
        return None
    points = tuple((n + short[off[0]]) * sign if i + 1 == point else v for i, v in enumerate(seen.board.points))
    filled = replace(seen, board=Board(points, seen.board.bar))  # as read, the count vision left open filled in
    return filled if _all_seen(ref, filled) else None


def _misread_still(ref: Referee, seen: Seen) -> Seen | None:
    """An impossible reading with the misreadings of the last one still in it.  A place (a point, a side of the
    bar) that vision reads now as it read it last, when the referee took it otherwise then, is the same
    misreading: nothing there changed (vision misreads a checker or a stack alike on every frame while it lies
    still; a checker waiting on the bar unseen is still waiting), so it holds what the referee took it to hold.
    What moved is what reads otherwise, as between two readings.  Taken only when that makes the reading
    possible; the points so taken stay unsure.  (A place a hand really emptied but that still reads the same
    makes the reading impossible the other way, and is left to the rest of :func:`_reconciled`.)"""
    taken, read = ref.last_board, ref.last_read
    if taken is None or read is None or taken == read:
        return None

    def still(now: tuple[int, ...], before: tuple[int, ...], held: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(h if n == b != h else n for n, b, h in zip(now, before, held))

    points = still(seen.board.points, read.points, taken.points)
    bar = still(seen.board.bar, read.bar, taken.bar)
    if (points, bar) == (seen.board.points, seen.board.bar):
        return None
    unsure = {i + 1 for i, (a, b) in enumerate(zip(points, seen.board.points)) if a != b}
    fitted = replace(seen, board=Board(points, (bar[0], bar[1])), unsure_points=seen.unsure_points | unsure, as_read=seen.as_read or seen.board)
    return fitted if _possible(ref, fitted) else None


def _doubt_as_last(ref: Referee, seen: Seen) -> Seen | None:
    """Waiting for a roll (asked to show one, or before it), the game may have moved on beyond the boards the
    rules allow now, and then no allowed board lies near a reading.  A reading impossible only on points in
    doubt (read unsure, or a stack or two read in the other side's colour, as against the board last taken)
    is then the board last taken on those points, with them unsure: the play matching and the resync see it,
    and count those points for nothing (no foul is called on them).  None when the reading is impossible on
    points vision is sure of, or more than ``START_DOUBT`` points are in doubt."""
    last = ref.last_board if ref.last_board is not None else ref.asked_board
    if last is None or (ref.asked_board is None and ref.game.phase is not Phase.ROLL):
        return None
    differ = {i + 1 for i, (a, b) in enumerate(zip(last.points, seen.board.points)) if a != b}
    doubt = frozenset(differ & (seen.unsure_points | _mixed_few(last, seen.board)))
    if len(doubt) > START_DOUBT:
        return None
    board = Board(tuple(a if i + 1 in doubt else b for i, (a, b) in enumerate(zip(last.points, seen.board.points))), seen.board.bar)
    taken = replace(seen, board=board, unsure_points=seen.unsure_points | doubt, as_read=seen.board)
    if doubt and _possible(ref, taken):
        return taken
    # a stack read in the other side's colour where checkers moved (a point read as on the last board is
    # confirmed by it): only if one set of as few such points, no more than MIXED_MAX, makes the reading possible
    sure = [i for i, n in enumerate(board.points) if n and i + 1 in differ and i + 1 not in taken.unsure_points]
    for k in range(1, MIXED_MAX + 1):
        fits = [flipped for c in itertools.combinations(sure, k)
                if _possible(ref, flipped := replace(taken, board=_flipped(board, c), unsure_points=taken.unsure_points | {i + 1 for i in c}))]
        if fits:
            return fits[0] if len(fits) == 1 and len(doubt) + k <= START_DOUBT else None
    return None


def _flipped(board: Board, indices: Iterable[int]) -> Board:
    """The board with the checkers at ``indices`` (0-based) given to the other side."""
    flip = set(indices)
    return Board(tuple(-n if i in flip else n for i, n in enumerate(board.points)), board.bar)


def _mixed_few(expected: Board, read: Board) -> frozenset[int]:
    """The points read in the other side's colour (see :func:`_colours_mixed`), if no more than ``MIXED_MAX``."""
    mixed = _colours_mixed(expected, read)
    return mixed if len(mixed) <= MIXED_MAX else frozenset()


def _say(
    *notes: Note,
    signals: Iterable[Signal] = (),
    events: Iterable[Event] = (),
    verdict: Verdict | None = None,
    inferred: Iterable[Event] = (),
    calls: Iterable[Call] = (),
) -> Outcome:
    return Outcome(tuple(events), tuple(signals), notes, verdict, tuple(inferred), tuple(calls))


def _look(player: int | None, text: str, points: tuple[Any, ...] = ()) -> Outcome:
    """Ask the players to look: the camera is unsure, or the evidence leaves something open."""
    return _say(Note(text, "warning"), signals=[Signal(SignalKind.LOOK_NEEDED, (points,) if points else ())], calls=[Call("please_look", player, (text,))])


def _is_start(board: Board) -> bool:
    try:
        return board.position(0) == Position.start()
    except PositionError:
        return False


START_DOUBT = 3  # at most this many points may differ from the start position (each in doubt) and still count as it


def _in_doubt(expected: Board, seen: Seen) -> frozenset[int] | None:
    """The points where a reading differs from ``expected`` if each is in doubt, else None.  A point is in doubt
    where vision says it is unsure of it (a stack left unread, a count read with low confidence), or where it
    shows as many checkers as expected but of the other colour (at most ``MIXED_MAX``) while the reading, with
    those colours as read, cannot be (not 15 a side): a misread, not a real board.  At most ``START_DOUBT``
    points in all; the bar must match.  Used only where the rules say what the board is (the start position,
    an opening play from it)."""
    if expected.bar != seen.board.bar:
        return None
    wrong = frozenset(i + 1 for i, (a, b) in enumerate(zip(expected.points, seen.board.points)) if a != b)
    mixed = (wrong - seen.unsure_points) & _colours_mixed(expected, seen.board)
    if len(wrong) > START_DOUBT or wrong - seen.unsure_points - mixed or len(mixed) > MIXED_MAX:
        return None
    if mixed:
        if _fifteen_a_side(_flipped(expected, (p - 1 for p in mixed))):
            return None  # the colours as read make a real board (back checkers swapped): a setup, not a misread
    return wrong


def _start_within_doubt(seen: Seen) -> Seen:
    """Waiting for a game, a reading that is the start position but on points in doubt (see :func:`_in_doubt`)
    is the start, with those points unsure: a stack vision reads short and says it is unsure of, or reads in
    the other side's colour, must not keep the game from ever beginning (a club referee knows the start)."""
    start = Board.from_position(Position.start(), DARK)
    doubt = _in_doubt(start, seen)
    if doubt is None:
        return seen
    return replace(seen, board=start, unsure_points=seen.unsure_points | doubt)


MIXED_MAX = 2  # points whose checkers an impossible reading may show in the other side's colour (a misread stack or two)


def _colours_mixed(expected: Board, read: Board) -> frozenset[int]:
    """Points (dark's numbers) that hold as many checkers as expected, but of the other colour."""
    return frozenset(i + 1 for i, (a, b) in enumerate(zip(expected.points, read.points)) if a and b == -a)


def _fifteen_a_side(board: Board) -> bool:
    """Whether each side has 15 checkers on the board and the bar (as before any is borne off)."""
    dark = sum(n for n in board.points if n > 0) + board.bar[0]
    light = sum(-n for n in board.points if n < 0) + board.bar[1]
    return dark == light == 15


@functools.lru_cache(maxsize=1)
def _opening_boards() -> tuple[Board, ...]:
    """Every board one opening play (of any opening roll, by either player) leaves."""
    boards: dict[Board, None] = {}
    for high in range(2, 7):
        for low in range(1, high):
            for play in legal_plays(Position.start(), (high, low)):
                for player in (0, 1):
                    boards[Board.from_position(play.after, player)] = None
    return tuple(boards)


def _opened_unseen(seen: Seen) -> Seen | None:
    """The board stands one opening play (of some roll, by either player) from the start position, with no
    more than a few points in doubt (else too little is known to say a game began): the reading, its board
    the opening play's where only points in doubt differ and only one play fits so; None if none fits."""
    if len(seen.unsure_points) > START_DOUBT:
        return None
    if _opening_fits([(d0, d1) for d0 in range(1, 7) for d1 in range(1, 7) if d0 != d1], seen):
        return seen
    fits = {b: d for b in _opening_boards() if (d := _in_doubt(b, seen)) is not None}
    if len(fits) != 1:
        return None
    ((board, doubt),) = fits.items()
    return replace(seen, board=board, unsure_points=seen.unsure_points | doubt)


def _opening_fits(pairs: Iterable[tuple[int, int]], seen: Seen) -> list[tuple[int, int]]:
    """Of opening rolls (dark's die, light's die), those one opening play from the start leaves as seen
    (the higher die's owner moved)."""
    return _fitting((((d0, d1), Position.start(), 0 if d0 > d1 else 1, (d0, d1)) for d0, d1 in pairs), seen)


SETUP_LOOK_READS = 5  # settled readings that are not the start position before the players are asked to look...
SETUP_LOOK_SECONDS = 20.0  # ...over at least this long (setting up takes a while; a board never matched must not mean silence)


def _not_the_start(ref: Referee, seen: Seen) -> tuple[Referee, Outcome]:
    """Waiting for the start position, the board read otherwise: players still setting up, or a point the camera
    keeps misreading.  After a while the players are asked to look (once a game), naming the points that differ:
    a referee that silently waits for ever looks switched off."""
    if ref.setup_reads < 0:
        return ref, Outcome()
    since = ref.setup_since if ref.setup_since is not None else seen.t
    ref = replace(ref, setup_since=since, setup_reads=ref.setup_reads + 1)
    waited = since is None or seen.t is None or seen.t - since >= SETUP_LOOK_SECONDS
    if ref.setup_reads < SETUP_LOOK_READS or not waited:
        return ref, Outcome()
    start = Board.from_position(Position.start(), DARK)
    wrong = [i + 1 for i, (a, b) in enumerate(zip(start.points, seen.board.points)) if a != b]
    where = [f"point {p}: {_checkers(seen.board.points[p - 1])} read, the start has {_checkers(start.points[p - 1])}" for p in wrong]
    where += [f"{COLOURS[i]}'s bar: {n} read" for i, n in enumerate(seen.board.bar) if n]
    text = "the start position is not seen yet: " + ("; ".join(where) if where else "the board does not match it") + ": please look"
    return replace(ref, setup_reads=-1), _look(None, text, tuple(wrong))


def _checkers(n: int) -> str:
    return "none" if n == 0 else f"{abs(n)} {COLOURS[0] if n > 0 else COLOURS[1]}"


def _setup(ref: Referee, seen: Seen) -> tuple[Referee, Outcome]:
    read = seen.board
    seen = _start_within_doubt(seen)
    if not _is_start(seen.board):
        opened = _opened_unseen(seen)
        if opened is None:
            return _not_the_start(ref, seen)
        # the start was never seen whole (a hand over it, a stack misread) and the opening play is made:
        # the game is on, and its opening roll is taken as for any opening the camera missed
        ref = replace(ref, stage=Stage.PLAYING, plays=0, setup_since=None, setup_reads=0, doubt_read=_read_otherwise(read, opened.board))
        ref, more = _playing(ref, opened)
        note = "the start position was not seen whole, but the opening play was: the game is followed" + _taken_as(read, opened.board)
        return ref, _merge(_say(Note(note)), more)
    ref = replace(ref, stage=Stage.PLAYING, plays=0, setup_since=None, setup_reads=0, doubt_read=_read_otherwise(read, seen.board))
    note = "start position seen: each player rolls one die for the opening roll" + _taken_as(read, seen.board)
    out = _say(Note(note), signals=[_cube_signal(ref)])
    if seen.dice:
        ref, more = _playing(ref, seen)
        return ref, _merge(out, more)
    return ref, out


def _read_otherwise(read: Board, taken: Board) -> tuple[tuple[int, int], ...]:
    """The points where the board taken differs from the reading (taken in doubt), with what was read there."""
    return tuple((i + 1, b) for i, (a, b) in enumerate(zip(taken.points, read.points)) if a != b)


def _taken_as(read: Board, taken: Board) -> str:
    """The doubt logged when a board the rules give is taken for a reading that differs from it on points in doubt."""
    where = [f"point {i + 1}: {_checkers(a)} read, taken as {_checkers(b)}" for i, (a, b) in enumerate(zip(read.points, taken.points)) if a != b]
    return f" (vision in doubt, {'; '.join(where)})" if where else ""


def _over(ref: Referee, seen: Seen) -> tuple[Referee, Outcome]:
    if ref.match.winner is not None:
        return ref, Outcome()
    return _setup(replace(ref, stage=Stage.SETUP), seen)


def _merge(a: Outcome, b: Outcome) -> Outcome:
    return Outcome(a.events + b.events, a.signals + b.signals, a.notes + b.notes, b.verdict or a.verdict, a.inferred + b.inferred,
                   a.calls + b.calls, a.retracted + b.retracted)


@_in_turn
def _playing(ref: Referee, seen: Seen) -> tuple[Referee, Outcome]:
    phase = ref.game.phase
    if phase is Phase.OPENING:
        return _opening(ref, seen)
    if phase is Phase.ROLL:
        return _await_roll(ref, seen)
    if phase is Phase.MOVE:
        return _in_play(ref, seen)
    if phase in (Phase.DOUBLED, Phase.BEAVERED, Phase.RACCOONED):
        return _cube_pending(ref, seen)
    return ref, Outcome()


# --- rolls ----------------------------------------------------------------------------


def _dice_problem(dice: tuple[SeenDie, ...], count: int) -> tuple[str, str] | None:
    """(call kind, why) when the dice seen cannot be read as a roll of ``count`` dice: a call that stops
    play (cocked) only when vision is sure; else a look."""
    if len(dice) > count:
        return "please_look", f"{len(dice)} dice on the board"
    if any(d.value is None for d in dice):
        return "please_look", "a die cannot be read"
    if any(not d.flat and d.sure for d in dice):
        return "cocked", "a die is cocked"
    if any(not d.flat for d in dice):
        return "please_look", "a die may be cocked (the camera is unsure)"
    return None


def _roll_problem(ref: Referee, seen: Seen, player: int, count: int) -> tuple[str, int, str] | None:
    """(call kind, who is called, why) when the dice seen are not a valid roll of ``count`` dice by ``player``.
    Where the dice lie comes first: a roll into the wrong half or out of turn does not count whether or not
    a die is cocked (referee.rolls tells which of the two it is)."""
    dice = seen.dice
    if len(dice) > count:
        return "please_look", player, f"{len(dice)} dice on the board"
    halves = (ref.settings.right_half(0), ref.settings.right_half(1))
    if not dice or (len(dice) < count and all(d.half == halves[player] for d in dice)):
        # a die not seen: what is seen decides only a die surely cocked (the other die cannot make the roll good)
        sure_cocked = any(d.value is not None and not d.flat and d.sure for d in dice)
        return ("cocked", player, "a die is cocked") if sure_cocked else None
    # a die seen outside the roller's half is the roll's foul whatever the die not seen did (referee.rolls)
    placed = dice_out_of_place(player, (d.half for d in dice), halves, seen.hand, ref.settings.players)
    if placed is not None and len(dice) < count and placed.kind != "please_look" and not all(d.sure for d in dice):
        return "please_look", player, f"a die may lie outside {COLOURS[player]}'s right-hand half (the camera is unsure of it)"
    if placed is not None:
        return placed.kind, placed.player, placed.why
    problem = _dice_problem(dice, count)
    if problem:
        return problem[0], player, problem[1]
    return None


def _opening(ref: Referee, seen: Seen) -> tuple[Referee, Outcome]:
    dice = seen.dice
    went_on = _opening_went_on(ref, seen)
    if went_on is not None:
        return went_on
    if not _is_start(seen.board) and (len(dice) < 2 or any(d.value is None or not d.flat for d in dice)):
        return _opening_from_play(ref, seen)
    if len(dice) < 2:
        read = _opening_dice(ref, dice)
        halves = (ref.settings.right_half(0), ref.settings.right_half(1))
        partial = tuple(((d.value, 0) if d.half == halves[0] else (0, d.value), _sureness((d,))) for d in read if d.value is not None)
        return replace(ref, dice_read=read or (ref.dice_read if dice else ()),
                       openings_read=ref.openings_read + partial if dice else ()), Outcome()
    seating = ref.settings.seating
    problem = _dice_problem(dice, 2)
    if problem and problem[0] == "please_look":
        return replace(ref, dice_read=_opening_dice(ref, dice)), _look(None, f"opening roll: {problem[1]}: please look")
    if problem:
        who = {seating.roller(d.half) for d in dice if not d.flat}
        return ref, _reroll(None, f"opening roll: roll again ({problem[1]})", Call(problem[0], who.pop() if len(who) == 1 else None, (problem[1],)))
    by_half = {d.half: d.value for d in dice}
    halves = (ref.settings.right_half(0), ref.settings.right_half(1))
    if set(by_half) != set(halves):
        why = "each player rolls one die into their own right-hand half"
        rollers = {seating.roller(d.half) for d in dice}
        only = rollers.pop() if len(rollers) == 1 else None
        other = 1 - only if only is not None else None  # both in one half: the other roller
        if not _is_start(seen.board):
            # checkers have moved: these may be a later roll after an opening the camera missed; no foul on a guess
            return replace(ref, dice_read=()), _look(other, f"opening roll: {why}, and the checkers have moved: please look")
        return ref, _reroll(None, f"opening roll: roll again: {why}", Call("wrong_half", other, (why,)))
    d0, d1 = by_half[halves[0]], by_half[halves[1]]
    assert d0 is not None and d1 is not None
    event = OpeningRoll((d0, d1))
    ref_after = replace(ref, match=apply_to_match(ref.match, event), dice_read=(), before_roll=ref.match,
                        rolls_read=(((max(d0, d1), min(d0, d1)), _sureness(dice)),), openings_read=ref.openings_read + (((d0, d1), _sureness(dice)),))
    if ref_after.game.phase is Phase.OPENING:
        ref_after = replace(ref_after, openings_read=())
        note = "equal opening dice: roll again"
        if ref_after.game.cube > ref.game.cube:
            note += f" (automatic double: the cube is at {ref_after.game.cube})"
        return ref_after, _say(Note(note), signals=[Signal(SignalKind.REROLL_NEEDED, (None,))], events=[event])
    first = ref_after.game.turn
    ref = replace(ref_after, dice_on_board=True)
    return ref, _say(
        Note(f"{ref.settings.players[first]} plays first with {max(d0, d1)}-{min(d0, d1)}"),
        signals=[Signal(SignalKind.YOUR_TURN, (COLOURS[first],))] + _teaching(ref),
        events=[event],
    )


def _opening_dice(ref: Referee, dice: Iterable[SeenDie]) -> tuple[SeenDie, ...]:
    """The opening dice whose number is known, each in a roller's half."""
    halves = (ref.settings.right_half(0), ref.settings.right_half(1))
    return tuple(d for h in halves for d in _readable(dice, h))


def _opening_from_play(ref: Referee, seen: Seen) -> tuple[Referee, Outcome]:
    """The first play made before the opening roll was seen whole: as for a
    roll (:func:`_moved_before_roll`), the roll is taken from the play when
    the dice read and the play fit one opening roll (whose higher die tells
    who moved)."""
    now = _opening_dice(ref, seen.dice)
    if now:
        ref = replace(ref, dice_read=now)
    halves = (ref.settings.right_half(0), ref.settings.right_half(1))
    known = {halves.index(d.half): d.value for d in ref.dice_read}
    pairs = [(d0, d1) for d0 in range(1, 7) for d1 in range(1, 7) if d0 != d1 and known.get(0, d0) == d0 and known.get(1, d1) == d1]
    fits = _opening_fits(pairs, seen)
    values = tuple(v for v in known.values() if v is not None)
    rolls = [(max(p), min(p)) for p in fits]
    strict = ref.settings.mode is Mode.TOURNAMENT
    if not (seen.dice or values or fits):
        return ref, Outcome()  # no sign of a roll, and no play: a misreading, or checkers straightened
    if seen.dice:
        if len(fits) == 1 and not strict:
            return ref, Outcome()  # the play may not be finished: taken when the dice are picked up
        return ref, _ask_roll(ref, values, rolls, dice_down=True, opening=True)
    if len(fits) != 1 or strict:
        return ref, _ask_roll(ref, values, rolls, dice_down=False, opening=True)
    return _taken_from_play(ref, seen, OpeningRoll(fits[0]), values)


def _opening_went_on(ref: Referee, seen: Seen) -> tuple[Referee, Outcome] | None:
    """The opening roll went unseen (or was asked about) and play went on: the checkers stand one opening play
    from the start, and two dice lie in one player's right-hand half.  Those are the next roll, not an opening
    roll thrown into one half: the opening roll is the other player's, so it is taken from their play (with
    the opening dice read, if any), the play judged, and the dice judged as the next player's roll.  Of rolls
    that fit alike (6-1 or 4-3 for 13/7 24/... ), the first is recorded with a look asked naming the others:
    the alternative, waiting for ever or calling the roll now down a foul, would lose the game."""
    dice = seen.dice
    halves = (ref.settings.right_half(0), ref.settings.right_half(1))
    if _is_start(seen.board) or len(dice) != 2 or dice[0].half != dice[1].half or dice[0].half not in halves:
        return None
    roller = halves.index(dice[0].half)
    opener = 1 - roller
    if seen.hand == opener or ref.settings.mode is Mode.TOURNAMENT:
        return None  # the opener's own hand threw them: not the next roll
    known = {halves.index(d.half): d.value for d in ref.dice_read if d.half in halves}
    pairs = [(d0, d1) for d0 in range(1, 7) for d1 in range(1, 7)
             if d0 != d1 and (d0 > d1) == (opener == 0) and known.get(0, d0) == d0 and known.get(1, d1) == d1]
    fits = _opening_fits(pairs, seen)  # the pairs are the opener's: its die the higher
    if not fits:
        return None
    values = tuple(v for v in known.values() if v is not None)
    others = [(max(p), min(p)) for p in fits[1:]]
    return _went_on_with(ref, replace(seen, dice=()), OpeningRoll(fits[0]), values, others, "the opening roll", opener, seen)


def _went_on_with(ref: Referee, played: Seen, event: OpeningRoll | Roll, known: tuple[int, ...], others: list[tuple[int, int]],
                  subject: str, player: int, seen: Seen) -> tuple[Referee, Outcome]:
    """Play went on past a turn whose roll was never seen whole: its roll is recorded as taken from the play
    (``played``), with a look naming the ``others`` it fits alike, and the reading ``seen`` is followed as the
    next turn's."""
    ref, out = _taken_from_play(ref, played, event, known)
    if others:
        roll = (max(event.dice), min(event.dice))
        text = (f"{subject} was never seen whole and play went on: recorded as {roll[0]}-{roll[1]}, "
                f"but the play fits {' or '.join(f'{a}-{b}' for a, b in others)} as well: correct the record if it was another")
        out = _merge(out, _look(player, text))
    if ref.stage is not Stage.PLAYING or ref.game.phase is not Phase.ROLL:
        return ref, out
    ref, more = _await_roll(ref, seen)
    return ref, _merge(out, more)


def _void_roll(ref: Referee, mover: int, seen: Seen) -> Outcome:
    """The opponent of ``mover`` rolled with the mover's dice still down: void, called only when vision is
    sure of it (every die read surely, a whole roll of two in the opponent's right-hand half beside a die of the
    mover's in theirs, and no hand of the mover's seen throwing); a die more than a roll seen otherwise (a
    phantom, a die read in the wrong half) asks for a look.  Where the reading before saw none of the mover's
    dice (picked up), they lie there still only if vision missed them then: they show again as they lay, both
    flat; one die there, or one cocked, is vision's (a phantom where the dice lay): a look."""
    names = ref.settings.players
    caller = 1 - mover
    halves = [d.half for d in seen.dice]
    mine = ref.settings.right_half(mover)
    theirs = [d for d in seen.dice if d.half == mine]
    still_down = any(d.half == mine for d in ref.last_dice) or (len(theirs) == 2 and all(d.flat for d in theirs))
    sure = (all(d.sure for d in seen.dice) and halves.count(ref.settings.right_half(caller)) == 2
            and halves.count(mine) >= 1 and seen.hand != mover and still_down)
    if not sure:
        return _look(caller, f"{len(seen.dice)} dice on the board, read unsurely or not as a roll beside {names[mover]}'s "
                             f"dice (the camera cannot tell whether {names[caller]} rolled early): please look")
    why = f"{names[caller]} rolled before {names[mover]} picked up the dice: that roll is void"
    return _reroll(caller, why, Call("roll_before_pickup", caller, (why,)))


def _reroll(player: int | None, why: str, call: Call) -> Outcome:
    side = COLOURS[player] if player is not None else None
    return _say(Note(why, "warning"), signals=[Signal(SignalKind.REROLL_NEEDED, (side,))], calls=[call])


@_in_turn
def _await_roll(ref: Referee, seen: Seen) -> tuple[Referee, Outcome]:
    player = ref.game.turn
    if ref.dice_on_board:
        if seen.dice:
            return ref, Outcome()  # the last roller has not picked up yet
        ref = replace(ref, dice_on_board=False)
    if (ref.cocked_seen and _still_lying(ref, ref.cocked_seen, seen) and not all(d.flat for d in seen.dice)
            and not _same_checkers(ref, seen) and ref.settings.mode is not Mode.TOURNAMENT):
        # The roller plays the dice as they lie: the die read cocked lies as the players take it, flat.  Vision
        # alone says otherwise, so no foul stops play: a look, and the roll as read.
        name = ref.settings.players[player]
        text = f"{name}'s roll: a die read cocked is being played as it lies (the camera may be wrong): please look"
        ref = replace(ref, cocked_seen=(), hidden_since=False)
        ref, more = _await_roll(ref, replace(seen, dice=_played_as_lying(ref, seen)))
        return ref, _merge(_look(player, text), more)
    if ref.cocked_seen:
        ref, confirmed, still = _cocked_confirmed(ref, seen)
        if still:
            return ref, confirmed
        if confirmed.calls:
            ref, more = _await_roll(ref, seen)  # what the reading shows besides: a new roll, the dice picked up
            return ref, _merge(confirmed, more)
    if not _same_checkers(ref, seen) or (ref.dice_read and _rolled_by(ref, seen, 1 - player)):
        # The checkers moved, or the opponent rolls after a die of this turn was read: no roll is recorded yet.
        reread = _last_play_read_again(ref, seen)
        if reread is not None:
            return reread
        return _moved_before_roll(ref, seen)
    cube = _cube_action(ref, seen, player)
    if cube is not None:
        doubled, said = cube
        if seen.dice and doubled.game.phase is Phase.DOUBLED:
            doubled, more = _cube_pending(doubled, seen)  # the double first seen with the doubler's roll: taken
            said = _merge(said, more)
        return doubled, said
    # the roller's checkers seen moved forward with no dice down, now back where they stood: moved before rolling
    # (or seen moved with no die of the turn read, the roll asked for, and put back: no roll was made)
    moved = ref.moved_unrolled if ref.moved_unrolled is not None else ref.asked_board if not ref.dice_read else None
    put_back = moved is not None and _one_play_away(ref.game.position, moved.sides(player))
    ref = replace(ref, moved_early=False, asked_board=None, asked_rolls=(), moved_unrolled=None)
    if put_back:
        text = f"{ref.settings.players[player]} moved checkers before rolling (put back)"
        ref, more = _await_roll(ref, seen)
        return ref, _merge(_say(Note(text, "warning"), calls=[Call("moved_before_roll", player, (text,))]), more)
    if not seen.dice:
        stood = _roll_without_play(ref, seen)
        if stood is not None:
            return stood
        return replace(ref, dice_read=(), called_dice=()), Outcome()  # picked up to roll again: what was read is void
    if ref.called_dice and _same_dice(ref.called_dice, seen.dice):
        return ref, Outcome()  # the dice called lie where they lay: said once
    ref = replace(ref, called_dice=())
    if len(seen.dice) > 2 and {d.half for d in seen.dice} >= {"home", "outer"}:
        return replace(ref, dice_read=()), _void_roll(ref, 1 - player, seen)  # rolled with the other pair still down
    problem = _roll_problem(ref, seen, player, 2)
    if problem and problem[0] == "out_of_turn" and problem[1] != player and _may_have_danced(ref):
        name = ref.settings.players[player]
        problem = ("please_look", player, f"{problem[2]}; or {name} rolled with no legal play, unseen, and the turn has passed")
    if problem:
        kind, who, why = problem
        name = ref.settings.players[player]
        if kind == "please_look":
            mine = all(d.half == ref.settings.right_half(player) for d in seen.dice)  # else no die of this roll is down
            read = _readable(seen.dice, ref.settings.right_half(player)) if mine else ()
            return replace(ref, dice_read=read, called_dice=() if mine else seen.dice), _look(player, f"{name}'s roll: {why}: please look")
        if kind == "cocked":
            return replace(ref, dice_read=(), cocked_seen=seen.dice), Outcome()  # called when the next reading confirms it
        return replace(ref, dice_read=(), called_dice=seen.dice), _reroll(player, f"{name}: roll again: {why}", Call(kind, who, (why,)))
    if len(seen.dice) < 2:
        return replace(ref, dice_read=_readable(seen.dice, ref.settings.right_half(player))), Outcome()
    d1, d2 = seen.dice[0].value, seen.dice[1].value
    assert d1 is not None and d2 is not None  # _roll_problem asks for a look at unreadable dice
    return _record_roll(ref, (d1, d2), "", _sureness(seen.dice))


def _may_have_danced(ref: Referee) -> bool:
    """The player on roll may have had their turn unseen: their hand was over the board since the last play (a
    roll thrown and picked up under it), and some roll of theirs has no legal play (on the bar against points
    made), so their turn may have passed with the checkers unchanged.  The other player throwing is then no sure
    roll out of turn: their own turn may have begun."""
    g = ref.game
    return g.turn in ref.reached and any(not legal_plays(g.position, roll) for roll in ROLLS)


def _played_as_lying(ref: Referee, seen: Seen) -> tuple[SeenDie, ...]:
    """The dice of a roll played with a die the camera read cocked: flat, as the players take them.  The camera was
    wrong about that die, so where the checkers as they stand are no legal play of the numbers read, it may be wrong
    about its number too (a five read as a cocked one, seen on independent footage): the number is left unread, and
    the roll is taken from the play with the flat dice read (see _moved_before_roll)."""
    flat = tuple(replace(d, flat=True) for d in seen.dice)
    values = [d.value for d in flat if d.value is not None]
    if len(values) != 2 or judge(ref.game.position, (max(values), min(values)), seen.board.sides(ref.game.turn)).legal:
        return flat
    return tuple(replace(d, flat=True) if d.flat else replace(d, value=None, flat=True) for d in seen.dice)


def _roll_without_play(ref: Referee, seen: Seen) -> tuple[Referee, Outcome] | None:
    """The roller's two dice were read (a look asked about one: maybe cocked, the camera unsure, so its number
    counts) but not recorded, and are picked up with the checkers unmoved.  With a legal play to make that is
    a roll made again; with none, it is the turn as the rules have it (roll, nothing to play, pick up): the roll
    is recorded with its empty play.  Without this the referee would wait for a roll already made, and take
    the opponent's next roll for one out of turn."""
    player = ref.game.turn
    read = _readable(ref.dice_read, ref.settings.right_half(player))
    if len(read) != 2 or not _same_checkers(ref, seen) or ref.settings.mode is Mode.TOURNAMENT:
        return None
    a, b = read[0].value, read[1].value
    assert a is not None and b is not None
    roll = (max(a, b), min(a, b))
    if legal_plays(ref.game.position, roll):
        return None
    ref, out = _record_roll(ref, roll, "", _sureness(read))
    ref, more = _judge_seen(replace(ref, dice_on_board=False), replace(seen, dice=()))
    return ref, _merge(out, more)


def _same_die(a: SeenDie, b: SeenDie) -> bool:
    near = a.xy is None or b.xy is None or abs(a.xy[0] - b.xy[0]) + abs(a.xy[1] - b.xy[1]) < 8.0
    return a.value == b.value and a.half == b.half and near


def _same_dice(a: tuple[SeenDie, ...], b: tuple[SeenDie, ...]) -> bool:
    """The same dice lying where they lay (as far as the readings say where)."""
    return len(a) == len(b) and all(any(_same_die(x, y) for y in b) for x in a)


def _cocked_confirmed(ref: Referee, seen: Seen) -> tuple[Referee, Outcome, bool]:
    """A die read cocked is called on the next reading, once the camera has seen it twice: the same dice lying
    where they lay, now read flat, were flat (a misreading: no call, the roll stands); anything else (the die
    still cocked, the dice picked up or rolled again) confirms it.  Also says whether the die is still cocked
    (then the reading has no more to tell)."""
    same = _still_lying(ref, ref.cocked_seen, seen)
    ref = replace(ref, cocked_seen=(), hidden_since=False)
    player, name = ref.game.turn, ref.settings.players[ref.game.turn]
    if same and all(d.flat for d in seen.dice):
        return ref, Outcome(), False
    why = "a die is cocked"
    if same:
        return ref, _reroll(player, f"{name}: roll again: {why}", Call("cocked", player, (why,))), True
    return ref, _say(Note(f"{name}: roll again: {why} (rolled again already)", "warning"), calls=[Call("cocked", player, (why,))]), False


def _still_lying(ref: Referee, pending: tuple[SeenDie, ...], seen: Seen) -> bool:
    """Whether the dice read before (``pending``) still lie where they lay: each is seen again (a die not seen
    before may have come into view).  Not when a hand hid the board and the readings say nowhere where the
    dice lie: picked up under the hand and rolled again, maybe to the same numbers, nothing tells."""
    if ref.hidden_since and any(d.xy is None for d in pending + seen.dice):
        return False
    return bool(pending) and len(seen.dice) <= 2 and all(any(_same_die(x, y) for y in seen.dice) for x in pending)


def _sureness(dice: Iterable[SeenDie]) -> float:
    """How sure vision is of a reading of a roll: its least sure die (a die given as a fact counts as sure)."""
    return min((1.0 if d.confidence is None else d.confidence for d in dice), default=1.0)


def _record_roll(ref: Referee, dice: tuple[int, int], how: str, sure: float = 1.0) -> tuple[Referee, Outcome]:
    """The roll of the player on turn, seen with its dice still down (``sure``: how sure vision was of it)."""
    player = ref.game.turn
    d1, d2 = max(dice), min(dice)  # where each die landed means nothing
    event = Roll(player, (d1, d2))
    ref = replace(ref, match=apply_to_match(ref.match, event), dice_on_board=True, dice_read=(), moved_early=False, asked_board=None, asked_rolls=(),
                  before_roll=ref.match, rolls_read=((event.dice, sure),), moved_unrolled=None)
    note = f"{ref.settings.players[player]} rolled {d1}-{d2}{how}"
    if not legal_plays(ref.game.position, (d1, d2)):
        note += ": no legal play; pick up the dice"
    return ref, _say(Note(note), signals=_teaching(ref), events=[event])


def _readable(dice: Iterable[SeenDie], half: str) -> tuple[SeenDie, ...]:
    """The dice in ``half`` whose number is known: flat and read."""
    return tuple(d for d in dice if d.half == half and d.known)


# --- a roll not seen whole ----------------------------------------------------------------



def _moved_before_roll(ref: Referee, seen: Seen) -> tuple[Referee, Outcome]:
    """The checkers moved while no roll is recorded.

    - both of the roller's dice read (and no other): the roll was seen after
      the checkers moved; it is recorded, and the play judged when the dice
      are picked up, as usual;
    - the roller's dice still down but not all read: the play may be
      unfinished, so nothing is taken yet; when the checkers as they stand
      fit no roll, or several, the roller is asked to leave the dice in view;
    - the roller's dice gone (picked up, never seen, or the opponent already
      rolling): the turn is over.  When the dice read this turn and the play
      fit exactly one roll, that roll is recorded (marked as inferred) with
      the play; otherwise the roller is asked to show the roll, and the match
      waits: a roll is never recorded that the evidence does not determine.

    In tournament mode nothing is taken from the play: the dice must be seen.
    A player whose checkers moved before their turn began puts them back first.
    """
    player = ref.game.turn
    names = ref.settings.players
    went_on = _play_went_on(ref, seen) or _unseen_play_then_other_moved(ref, seen) or _resync(ref, seen) or _lost(ref, seen)
    if went_on is not None:
        return went_on
    if ref.moved_early:
        text = f"{names[player]}'s checkers moved before {names[1 - player]}'s turn ended: put them back, then roll"
        return ref, _say(Note(text, "warning"), signals=[Signal(SignalKind.LOOK_NEEDED, ())], calls=[Call("moved_before_roll", player, (text,))])
    half, other_half = ref.settings.right_half(player), ref.settings.right_half(1 - player)
    mine = [d for d in seen.dice if d.half == half]
    theirs = [d for d in seen.dice if d.half == other_half]
    read = _readable(mine, half)
    one_play = _one_play_away(ref.game.position, seen.board.sides(player))
    roll_read = _roll_of(read)
    if roll_read is not None and one_play and any(not d.flat for d in read) and not judge(ref.game.position, roll_read, seen.board.sides(player)).legal:
        # as for a roll played as it lies (_played_as_lying): a die read cocked by a camera unsure of it, whose number
        # makes the checkers as they stand no legal play, may be misread in number too: it counts as unread
        read = tuple(d for d in read if d.flat)
    if len(read) == 2 and len(mine) == 2 and not theirs:
        return _roll_after_play(ref, seen, read, one_play)
    if mine and theirs:
        return ref, _void_roll(ref, player, seen)
    if read:
        ref = replace(ref, dice_read=read)
    if theirs and not mine:
        stood = _roll_without_play(ref, seen)
        if stood is not None:  # the roll with no play was picked up and the opponent has rolled
            ref, out = stood
            if ref.stage is Stage.PLAYING and ref.game.phase is Phase.ROLL:
                ref, more = _await_roll(ref, seen)
                out = _merge(out, more)
            return ref, out
    known = tuple(d.value for d in ref.dice_read if d.value is not None)
    rolls = _rolls_explaining(ref, seen, known) if one_play else []
    strict = ref.settings.mode is Mode.TOURNAMENT
    if not (mine or theirs or known or rolls):
        # no sign of a roll, and no play: a misreading, checkers straightened, or a move before rolling
        return replace(ref, moved_unrolled=seen.board), Outcome()
    if mine:  # the dice are still down: the play may not be finished
        if len(rolls) == 1 and not strict:
            return ref, Outcome()
        return ref, _ask_roll(ref, known, rolls, dice_down=True)
    if len(rolls) != 1 or strict:
        asked = _ask_roll(ref, known, rolls, dice_down=False)
        if not rolls and one_play and not theirs and _illegal_whatever_the_die_unseen(ref, seen, known):
            text = (f"illegal play by {names[player]}: no roll with the {' and '.join(map(str, known))} seen allows the checkers "
                    f"as they stand: correct the play (the roll was not seen whole: show it)")
            asked = _merge(asked, _say(Note(text, "illegal"), calls=[Call("illegal_play", player, (text,))]))
        return replace(ref, asked_board=seen.board, asked_rolls=tuple(rolls)), asked
    if not seen.dice and not known and ref.moved_unrolled != seen.board:
        # A play of one roll, and no die seen: the dice went unseen, or the roller is moving before rolling.
        # The next reading tells: the dice landing on it, the checkers put back, or the turn going on.
        return replace(ref, moved_unrolled=seen.board), Outcome()
    ref, out = _taken_from_play(ref, seen, Roll(player, rolls[0]), known)
    if seen.dice and ref.stage is Stage.PLAYING:
        ref, more = _await_roll(ref, seen)  # the opponent has rolled already
        out = _merge(out, more)
    return ref, out


def _resync(ref: Referee, seen: Seen) -> tuple[Referee, Outcome] | None:
    """The referee waits for the roll of the player on turn, but the checkers stand where no play of theirs leaves
    them: a roll was missed (a die unread or read cocked, the dice picked up under a hand, a roll with no legal
    play picked up unseen), the player moved, and the opponent rolled and moved too.  When legal plays explain
    the board (the roller's then the opponent's), the referee adopts the game they lead to, records those plays
    with their rolls taken from the plays (marked as inferred) and journals a ``resync`` call naming them; the
    next roll, if its dice are down, is then followed as usual.  The dice read since the last play pick among
    the explanations (:func:`referee.resync.decide`); if those left make different plays, nothing is recorded
    and the players are asked (a ``please_look`` naming them, once a turn).  Nothing is invented: no
    explanation, nothing is adopted (and a board more than two plays on gets a look, see :func:`_lost`)."""
    g, player = ref.game, ref.game.turn
    if g.phase is not Phase.ROLL or ref.settings.mode is Mode.TOURNAMENT or (ref.asked_board is not None and ref.asked_rolls):
        # (asked to show a roll the play fitted, play going on is _play_went_on's)
        return None
    if _one_play_away(g.position, seen.board.sides(player)) and _rolls_explaining(ref, seen, ()):
        return None  # one play of the roller's: followed as a roll not seen (see _moved_before_roll)
    halves = {d.half for d in seen.dice}
    owners = [p for p in (0, 1) if halves == {ref.settings.right_half(p)}]
    if seen.dice and not owners:
        return None  # dice in both halves, or off the board: nothing to tell whose roll they are
    last_dice, down = None, None
    roll_read = _roll_of(_readable(seen.dice, ref.settings.right_half(owners[0]))) if owners else None
    if owners and owners[0] != player:  # the opponent's dice still down: their play may not be finished
        if roll_read is None:
            return None
        last_dice = roll_read
    elif roll_read is not None:
        down = (player, roll_read)  # the roller's next roll, already down
    found = missed_plays(g.position, player, seen.board, seen.unsure_points, last_dice)
    decision = decide(found, ref.rolls_seen, ref.dice_seen, down)
    if decision.adopt is None:
        return _resync_open(ref, decision) if decision.open else None
    if last_dice is not None:
        return ref, Outcome()  # explained, but the dice are still down: adopted when they are picked up
    return _adopt(ref, seen, decision.adopt, list(decision.alike))


def _roll_of(dice: tuple[SeenDie, ...]) -> tuple[int, int] | None:
    """The roll two dice read show (higher die first), if both are read."""
    values = [d.value for d in dice if d.value is not None]
    return (max(values), min(values)) if len(dice) == 2 and len(values) == 2 else None


def _said(ref: Referee, steps: tuple[Step, ...]) -> str:
    """The plays of ``steps`` in words: who, with which roll (a roll with no play said so)."""
    names, before, said = ref.settings.players, ref.game.position, []
    for s in steps:
        said.append(f"{names[s.player]} {s.dice[0]}-{s.dice[1]}" + (" (no play)" if s.after == before else ""))
        before = s.after.swap()
    return ", ".join(said)


def _resync_open(ref: Referee, decision: Decision) -> tuple[Referee, Outcome]:
    """Legal plays explain the board, but different ones, and the dice read do not tell which: the record would be
    a guess.  Nothing is recorded; the players are asked, once a turn, naming the explanations."""
    if "resync_open" in ref.stop_calls:
        return ref, Outcome()
    names = ref.settings.players
    ways = "; or ".join(_said(ref, steps) for steps in decision.open[:4])
    text = (f"the referee waited for {names[ref.game.turn]}'s roll, but the checkers stand further on, and the plays that "
            f"lead there differ ({ways}): nothing is recorded: please look (show the last roll, or set the checkers back)")
    return replace(ref, stop_calls=ref.stop_calls + ("resync_open",)), _look(ref.game.turn, text)


def _lost(ref: Referee, seen: Seen) -> tuple[Referee, Outcome] | None:
    """Waiting for a roll, both players' checkers have moved (more than blots hit) and no two plays explain the
    board: more than two plays were missed, or the board is misread.  Calling a foul on anyone would be a guess,
    and so would any record: the players are asked to look, once a turn; the referee follows the game again as
    soon as the plays explain the board."""
    g, player = ref.game, ref.game.turn
    if g.phase is not Phase.ROLL or ref.settings.mode is Mode.TOURNAMENT:
        return None
    if not (moved_beyond_hits(g.position, player, seen.board, seen.unsure_points)
            and moved_beyond_hits(g.position.swap(), 1 - player, seen.board, seen.unsure_points)):
        return None
    if "lost" in ref.stop_calls:
        return ref, Outcome()
    text = (f"the referee waited for {ref.settings.players[player]}'s roll, but both players' checkers have moved, more "
            "than two plays it can tell: nothing is recorded past the last play it followed: please look "
            "(it follows the board again as soon as the plays explain it)")
    return replace(ref, stop_calls=ref.stop_calls + ("lost",)), _look(None, text)


def _adopt(ref: Referee, seen: Seen, steps: tuple[Step, ...], others: list[tuple[Step, ...]]) -> tuple[Referee, Outcome]:
    """Follow the game from the board again: record ``steps`` (rolls taken from the plays) and say so."""
    names = ref.settings.players
    was = f"the referee waited for {names[ref.game.turn]}'s roll, but the checkers stand {len(steps)} play{'s' if len(steps) > 1 else ''} on"
    text = f"{was}: the game is followed again from the board, with the plays {_said(ref, steps)} (rolls taken from the plays)"
    reasons = [text]
    if others:
        alike = "; ".join(_said(ref, o) for o in others[:4])
        reasons.append(f"the board fits {alike} as well: correct the record if it was another")
    # the players see the other rolls too: a roll the record holds that they know is wrong is mended now or never
    out = _say(Note(": ".join(reasons), "warning"), signals=[Signal(SignalKind.LOOK_NEEDED, ())], calls=[Call("resync", ref.game.turn, tuple(reasons))])
    ref = replace(ref, dice_read=(), moved_early=False, asked_board=None, asked_rolls=(), moved_unrolled=None, cocked_seen=(), called_dice=(),
                  dice_on_board=False)
    for step in steps:
        if ref.stage is not Stage.PLAYING:
            break
        event = Roll(step.player, step.dice)
        ref = replace(ref, match=apply_to_match(ref.match, event), before_roll=ref.match, rolls_read=())
        ref, more = _judge_seen_after(ref, step.after)
        out = _merge(out, _merge(_say(events=[event], inferred=[event]), more))
    if ref.stage is Stage.PLAYING and ref.game.phase is Phase.ROLL and seen.dice:
        ref, more = _await_roll(ref, seen)  # the next roll is down already
        out = _merge(out, more)
    return ref, out


def _unseen_play_then_other_moved(ref: Referee, seen: Seen) -> tuple[Referee, Outcome] | None:
    """A whole play of exactly one roll seen with no die anywhere (waiting one reading, see below), and now the
    roller's checkers stand as they were left while the opponent's have moved, with no dice down: the roller's
    turn is over (the roll is taken from the play, with a look) and the opponent is moving before rolling,
    which their next turn follows as usual (called when put back, or when their dice land on it)."""
    pending, player = ref.moved_unrolled, ref.game.turn
    if pending is None or seen.dice or ref.dice_read or pending == seen.board or ref.settings.mode is Mode.TOURNAMENT:
        return None
    if pending.sides(player)[0] != seen.board.sides(player)[0] or not _one_play_away(ref.game.position, pending.sides(player)):
        return None
    rolls = _rolls_explaining(ref, replace(seen, board=pending, dice=()), ())
    if len(rolls) != 1:
        return None
    return _went_on_with(ref, replace(seen, board=pending, dice=()), Roll(player, rolls[0]), (), [],
                         f"{ref.settings.players[player]}'s roll", player, seen)


def _illegal_whatever_the_die_unseen(ref: Referee, seen: Seen, known: tuple[int, ...]) -> bool:
    """The dice picked up, a die of the roll read surely, and no roll holding it has a legal play within a
    checker of the board as read (a stack miscounted looks like a play one checker off): the play is illegal
    whatever the die not seen showed, and vision is sure of what that rests on."""
    if not known or not ref.dice_read or not all(d.sure for d in ref.dice_read):
        return False  # (points read unsure were allowed for already: no roll fits even on them, see _fitting)
    g = ref.game
    for roll in ROLLS:
        if all(known.count(v) <= roll.count(v) for v in known):
            afters = [p.after for p in legal_plays(g.position, roll)] or [g.position]
            if any(_distance(Board.from_position(a, g.turn), seen.board) <= NEAR for a in afters):
                return False
    return True


def _last_play_read_again(ref: Referee, seen: Seen) -> tuple[Referee, Outcome] | None:
    """Before anything of the next turn is seen, the last play read differently, as another legal play of its
    roll (or, when that roll was taken from the play, of exactly one roll): the first reading after the dice
    were picked up was wrong, or the checkers were straightened.  The play is withdrawn and recorded as now
    read, with a look asked; the game is followed from there."""
    if ref.last_turn is None or seen.dice or ref.dice_read or ref.plays == 0 or ref.settings.mode is Mode.TOURNAMENT:
        return None
    before_roll, rolled, inferred = ref.last_turn
    g = rolled.game
    assert g is not None
    if g.dice is None:
        return None
    mover = g.turn
    rolls = [g.dice] if not inferred else [r for r in ROLLS if not (ref.plays == 1 and r[0] == r[1])]
    fits = [r for r in rolls if judge(g.position, r, seen.board.sides(mover)).legal]
    roll = fits[0] if len(fits) == 1 else _likeliest(fits) if g.dice not in fits else g.dice
    if roll is None:
        return None
    name = ref.settings.players[mover]
    events: tuple[Event, ...] = ()
    if roll == g.dice:
        base, retracted = rolled, 1
    else:
        event: Event = Roll(mover, roll) if ref.plays > 1 else OpeningRoll(roll if mover == 0 else (roll[1], roll[0]))
        base, retracted, events = apply_to_match(before_roll, event), 2, (event,)
    again = replace(ref, match=base, plays=ref.plays - 1, before_roll=before_roll, rolls_read=() if inferred else ((roll, 1.0),))
    new, out = _judge_seen_after(again, seen.board.sides(mover))
    text = f"{name}'s play read again before {ref.settings.players[1 - mover]}'s turn began: taken as read now"
    said = Outcome(events=events, notes=(Note(text, "warning"),), retracted=retracted, inferred=events if inferred else (),
                   calls=(Call("please_look", mover, (text,)),))
    return new, _merge(said, out)


def _likeliest(rolls: Iterable[tuple[int, int]]) -> tuple[int, int] | None:
    """The one roll likelier than the others (a non-double is twice as likely as a double), if there is one."""
    weighed = sorted(((1 if a == b else 2), (a, b)) for a, b in rolls)
    if not weighed or (len(weighed) > 1 and weighed[-1][0] == weighed[-2][0]):
        return None
    return weighed[-1][1]


def _play_went_on(ref: Referee, seen: Seen) -> tuple[Referee, Outcome] | None:
    """Asked to show a roll the play left open, the players played on instead: the opponent rolled with the
    checkers left as asked about, or their checkers now stand one play further.  The turn asked about is over.
    The roll is taken as the likeliest of those the play fitted (3-1 before 1-1; of rolls alike, the first
    named in the question, with the others said), marked as taken from the play with a look asked; the
    opponent's turn is then followed as usual.  The alternative, waiting for ever, would lose the rest of the
    game."""
    board, player = ref.asked_board, ref.game.turn
    if board is None or not ref.asked_rolls or ref.settings.mode is Mode.TOURNAMENT:
        return None
    if seen.dice:
        # the opponent's roll, the checkers as they were asked about
        went_on = seen.board == board and (_rolled_by(ref, seen, 1 - player) or seen.hand == 1 - player)
    else:
        try:
            went_on = seen.board != board and _one_play_away(board.position(1 - player), seen.board.sides(1 - player))
        except PositionError:
            went_on = False
    if not went_on:
        return None
    likeliest = _likeliest(ref.asked_rolls)
    roll = likeliest or ref.asked_rolls[0]
    others = [r for r in ref.asked_rolls if r != roll]
    known = tuple(d.value for d in ref.dice_read if d.value is not None)
    return _went_on_with(ref, replace(seen, board=board, dice=()), Roll(player, roll), known, others if likeliest is None else [],
                         f"{ref.settings.players[player]}'s roll", player, seen)


def _roll_after_play(ref: Referee, seen: Seen, read: tuple[SeenDie, ...], one_play: bool) -> tuple[Referee, Outcome]:
    """Both dice read after the checkers moved: the roll, unless the board is
    more than one play on.  A roller asked to show a roll the play left open
    must show it with the checkers as they were asked about, and one of the
    rolls they fit: other dice, or checkers moved since, may be a new turn.
    The roller's own checkers standing as they stood, what reads otherwise is the opponent's side, in a way no
    play explains (a checker read where none can have gone): that is no move of the roller's before rolling but a
    misreading, and the roll is judged as on the checkers as they stood (a die cocked or unsure still counts so)."""
    if not one_play and seen.board.sides(ref.game.turn)[0] == ref.game.position.on_roll:
        standing = Board.from_position(ref.game.position, _viewer(ref.game))
        return _await_roll(ref, replace(seen, board=standing, as_read=seen.as_read or seen.board))
    if not one_play:
        text = "the checkers moved before the roll: put them back"
        return ref, _say(Note(text, "warning"), signals=[Signal(SignalKind.LOOK_NEEDED, ())], calls=[Call("moved_before_roll", ref.game.turn, (text,))])
    a, b = read[0].value, read[1].value
    assert a is not None and b is not None
    roll = (max(a, b), min(a, b))
    if ref.moved_unrolled == seen.board and all(_fit(Board.from_position(p.after, ref.game.turn), seen) is None
                                                 for p in legal_plays(ref.game.position, roll)):
        # seen moved with no dice down, then the dice rolled onto it, and it is no play of them: moved first
        name = ref.settings.players[ref.game.turn]
        text = f"{name} moved checkers before rolling: put them back, then play the {roll[0]}-{roll[1]}"
        ref, out = _record_roll(ref, roll, "", _sureness(read))
        return ref, _merge(out, _say(Note(text, "warning"), signals=[Signal(SignalKind.LOOK_NEEDED, ())],
                                     calls=[Call("moved_before_roll", ref.game.turn, (text,))]))
    if ref.asked_board is not None and (seen.board != ref.asked_board or (ref.asked_rolls and roll not in ref.asked_rolls)):
        known = tuple(d.value for d in ref.dice_read if d.value is not None)
        rolls = _rolls_explaining(ref, seen, known)
        return replace(ref, asked_board=seen.board, asked_rolls=tuple(rolls)), _ask_roll(ref, known, rolls, dice_down=False)
    return _record_roll(ref, roll, " (seen after the checkers moved)", _sureness(read))


def _one_play_away(before: Position, sides: tuple[tuple[int, ...], ...]) -> bool:
    """Whether the checkers seen (mover's side, opponent's side) may be one
    play from ``before``: the mover moved forward at most 24 pips, and the
    opponent's checkers only went to the bar (hit)."""
    mine, theirs = sides
    ahead = _pips(before.on_roll) - _pips(mine)
    if not 0 < ahead <= 24 or sum(mine) > sum(before.on_roll) or sum(theirs) != sum(before.opponent):
        return False
    return all(theirs[i] <= before.opponent[i] for i in range(24))


def _rolls_explaining(ref: Referee, seen: Seen, known: tuple[int, ...]) -> list[tuple[int, int]]:
    """The rolls, holding the dice ``known``, of which a legal play by the
    player on turn leaves the checkers as seen."""
    g = ref.game
    rolls = [r for r in ROLLS if all(known.count(v) <= r.count(v) for v in known)]
    return _fitting(((r, g.position, g.turn, r) for r in rolls), seen)


def _fitting(candidates: Iterable[tuple[Any, Position, int, tuple[int, int]]], seen: Seen) -> list[Any]:
    """The keys of the candidates ``(key, position, player, dice)`` of which a
    legal play (or no play, when there is none) leaves the checkers as seen;
    those differing only on points read unsure count when none is exact."""
    exact: list[Any] = []
    loose: list[Any] = []
    for key, position, player, dice in candidates:
        afters = [p.after for p in legal_plays(position, dice)] or [position]
        fits = {_fit(Board.from_position(a, player), seen) for a in afters}
        if "exact" in fits:
            exact.append(key)
        elif "unsure" in fits:
            loose.append(key)
    return exact or loose


def _fit(expected: Board, seen: Seen) -> str | None:
    """How a board fits the reading: "exact", "unsure" (differs only on points read unsure), or None."""
    if expected == seen.board:
        return "exact"
    wrong = {i + 1 for i, (a, b) in enumerate(zip(expected.points, seen.board.points)) if a != b}
    if wrong and wrong <= seen.unsure_points and expected.bar == seen.board.bar:
        return "unsure"
    return None


def _taken_from_play(ref: Referee, seen: Seen, event: OpeningRoll | Roll, known: tuple[int, ...]) -> tuple[Referee, Outcome]:
    """Record a roll taken from the play (marked as inferred), then judge the play as usual."""
    ref = replace(ref, match=apply_to_match(ref.match, event), dice_on_board=False, dice_read=(), before_roll=ref.match, rolls_read=())
    names = ref.settings.players
    if isinstance(event, OpeningRoll):
        subject, value = "the opening roll", f"{names[0]} {event.dice[0]}, {names[1]} {event.dice[1]}"
    else:
        subject, value = f"{names[event.player]}'s roll", f"{event.dice[0]}-{event.dice[1]}"
    what = "a die was not seen" if known else "the dice were not seen"
    note = Note(f"{subject}: {what}; it is taken as {value} from the play", "warning")
    # With no die seen at all the play is the only evidence: ask the players to look.
    player = event.player if isinstance(event, Roll) else ref.game.turn
    said = _say(note, events=[event], inferred=[event]) if known else _merge(_look(player, note.text), _say(events=[event], inferred=[event]))
    ref, out = _judge_seen(ref, seen)
    return ref, _merge(said, out)


def _ask_roll(ref: Referee, known: tuple[int, ...], rolls: list[tuple[int, int]], dice_down: bool, opening: bool = False) -> Outcome:
    """Ask for the dice to be shown: the roll cannot be taken from the play."""
    player = ref.game.turn
    subject = "the opening roll" if opening else f"{ref.settings.players[player]}'s roll"
    seen_text = f" ({' and '.join(map(str, known))} seen)" if known else ""
    if ref.settings.mode is Mode.TOURNAMENT:
        why = "in tournament mode the dice must be seen"
    elif rolls:
        why = "the checkers fit " + " or ".join(f"{a}-{b}" for a, b in rolls)
    else:
        why = "no roll explains the checkers as they stand"
    where = "each player's right-hand half" if opening else f"{COLOURS[player]}'s right-hand half"
    if dice_down:
        how = "leave the dice where they are and let the camera see them"
    else:
        how = f"show the roll: put the dice back in {where} as rolled (or put the checkers back and roll again)"
    return _look(None if opening else player, f"{subject} was not seen whole{seen_text} and {why}: {how}")


def _same_checkers(ref: Referee, seen: Seen) -> bool:
    return Board.from_position(ref.game.position, _viewer(ref.game)) == seen.board


# --- the cube ---------------------------------------------------------------------------


def _cube_signal(ref: Referee) -> Signal:
    g = ref.game
    owner = None if g.cube_owner is None else COLOURS[g.cube_owner]
    return Signal(SignalKind.CUBE, (g.cube, owner))


def _cube_action(ref: Referee, seen: Seen, player: int) -> tuple[Referee, Outcome] | None:
    """A double seen at the start of ``player``'s turn: the cube turned up and
    pushed to the opponent's side."""
    g = ref.game
    if seen.cube_value is None or seen.cube_position is None:
        return None
    expected_position = "centre" if g.cube_owner is None else COLOURS[g.cube_owner]
    if seen.cube_position == expected_position and _cube_value(seen) == g.cube:
        return None
    # Pushed over to the opponent's side from where it lay: a double, to the one value the rules allow.  A face
    # read otherwise there (a 16 for the 2, seen on independent footage) is vision unsure of the face, not a
    # cube that jumped: the double is taken, with a look at the face.
    pushed = seen.cube_position == COLOURS[1 - player] and seen.cube_position != expected_position
    if pushed or (seen.cube_position == COLOURS[1 - player] and _cube_value(seen) == g.cube * 2):
        try:
            match = apply_to_match(ref.match, Double(player))
        except EventRefused as exc:
            # a cube misread looks just like it (seen on independent footage): ask for a look, call no foul
            return ref, _look(player, f"the cube cannot be turned: {exc}: please look")
        ref = replace(ref, match=match)
        out = _say(
            Note(f"{ref.settings.players[player]} doubles to {g.cube * 2}: take (roll on) or drop (button)"),
            signals=[Signal(SignalKind.CUBE, (g.cube * 2, COLOURS[1 - player]))],
            events=[Double(player)],
        )
        if _cube_value(seen) != g.cube * 2:
            out = _merge(out, _look(player, f"the cube was pushed to {COLOURS[1 - player]}'s side reading {seen.cube_value}: "
                                            f"taken as the double to {g.cube * 2}, the only value it can be turned to: please look at its face"))
        return ref, out
    return None


def _cube_value(seen: Seen) -> int:
    # The 64 face in the middle is the cube at 1.
    if seen.cube_position == "centre" and seen.cube_value == 64:
        return 1
    return seen.cube_value or 1


def _cube_pending(ref: Referee, seen: Seen) -> tuple[Referee, Outcome]:
    g = ref.game
    answering = g.turn
    doubler = 1 - answering
    if g.phase is Phase.DOUBLED and ref.settings.rules.beavers and seen.cube_position == COLOURS[answering] and _cube_value(seen) == g.offered * 2:
        match = apply_to_match(ref.match, Beaver(answering))
        return replace(ref, match=match), _say(
            Note(f"{ref.settings.players[answering]} beavers: the cube is at {g.offered * 2}"),
            signals=[Signal(SignalKind.CUBE, (g.offered * 2, COLOURS[answering]))],
            events=[Beaver(answering)],
        )
    if _is_start(seen.board) and not seen.dice:
        return _drop(ref, answering)
    if _rolled_by(ref, seen, doubler) or (seen.dice and seen.hand == doubler):
        # The doubler rolls on: the double was taken (a die missed or cocked, or the dice thrown into the
        # wrong half, is the roll's business).
        return _took(ref, seen, "")
    if (_rolled_by(ref, seen, answering) and seen.hand != doubler and not _same_checkers(ref, seen)
            and _one_play_away(g.position, seen.board.sides(doubler))):
        # The doubler's checkers stand a play on and the one doubled throws into their own half: the take and the
        # doubler's roll went unseen (a drop ends the game; nobody plays before a take), not a roll out of turn.
        return _took(ref, seen, " (seen from the play that followed)")
    if seen.dice:
        return _thrown_while_doubled(ref, seen)
    return _unrolled_while_doubled(ref, seen)


def _took(ref: Referee, seen: Seen, how: str) -> tuple[Referee, Outcome]:
    """The double is taken (the one on turn answers it) and the reading goes on as the doubler's roll."""
    answering = ref.game.turn
    ref = replace(ref, match=apply_to_match(ref.match, Take(answering)))
    ref, out = _await_roll(ref, seen)
    return ref, _merge(_say(Note(f"{ref.settings.players[answering]} took{how}"), events=[Take(answering)], signals=[_cube_signal(ref)]), out)


def _thrown_while_doubled(ref: Referee, seen: Seen) -> tuple[Referee, Outcome]:
    """Dice thrown while a double waits for its answer, not as the doubler's roll: the one who must answer
    throwing is a roll out of turn; who threw them not seen, a look (referee.rolls)."""
    if ref.called_dice and _same_dice(ref.called_dice, seen.dice):
        return ref, Outcome()
    doubler = ref.game.on_roll
    halves = (ref.settings.right_half(0), ref.settings.right_half(1))
    placed = dice_out_of_place(doubler, (d.half for d in seen.dice), halves, seen.hand, ref.settings.players)
    if placed is None or placed.kind == "wrong_half":
        return ref, Outcome()  # the doubler's own dice (a take seen when they are read whole), or not thrown by anyone seen
    ref = replace(ref, called_dice=seen.dice)
    name = ref.settings.players[placed.player]
    if placed.kind == "please_look":
        return ref, _look(doubler, f"{ref.settings.players[doubler]}'s double waits for an answer: {placed.why}: please look")
    why = f"{ref.settings.players[doubler]} doubled: {name} takes or drops; that roll does not count"
    return ref, _say(Note(f"{name} rolled out of turn: {why}", "warning"), signals=[Signal(SignalKind.REROLL_NEEDED, (COLOURS[placed.player],))],
                     calls=[Call("out_of_turn", placed.player, (why,))])


def _unrolled_while_doubled(ref: Referee, seen: Seen) -> tuple[Referee, Outcome]:
    """No dice while a double waits: the doubler's checkers seen moved forward are a move before rolling, called
    when they are seen put back (or when the roll comes), as on any turn."""
    g = ref.game
    doubler = g.on_roll
    if _same_checkers(ref, seen):
        if ref.moved_unrolled is None:
            return replace(ref, called_dice=()), Outcome()
        text = f"{ref.settings.players[doubler]} moved checkers before rolling (put back)"
        return replace(ref, moved_unrolled=None, called_dice=()), _say(Note(text, "warning"), calls=[Call("moved_before_roll", doubler, (text,))])
    if _one_play_away(g.position, seen.board.sides(doubler)):
        return replace(ref, moved_unrolled=seen.board, called_dice=()), Outcome()
    return replace(ref, called_dice=()), Outcome()


def _rolled_by(ref: Referee, seen: Seen, player: int) -> bool:
    """Dice seen, all in ``player``'s right-hand half: they rolled (whether or not the roll stands)."""
    half = ref.settings.right_half(player)
    return bool(seen.dice) and all(d.half == half for d in seen.dice)


def _drop(ref: Referee, player: int) -> tuple[Referee, Outcome]:
    match = apply_to_match(ref.match, Drop(player))
    ref = replace(ref, match=match, stage=Stage.OVER, dice_on_board=False)
    return ref, _say(_result_note(ref, f"{ref.settings.players[player]} drops"), events=[Drop(player)], signals=[Signal(SignalKind.CUBE, (1, None))])


def _result_note(ref: Referee, how: str) -> Note:
    result = ref.match.last_result
    assert result is not None
    text = f"{how}: {ref.settings.players[result.winner]} wins {result.points} point{'s' if result.points != 1 else ''}"
    score = ref.match.score
    text += f"; score {ref.settings.players[0]} {score[0]}, {ref.settings.players[1]} {score[1]}"
    if ref.match.winner is not None:
        text += f"; {ref.settings.players[ref.match.winner]} wins the match"
    return Note(text)


# --- the play ------------------------------------------------------------------------------


def _in_play(ref: Referee, seen: Seen) -> tuple[Referee, Outcome]:
    if len(seen.dice) > 2:
        return ref, _void_roll(ref, ref.game.turn, seen)
    if _opponent_rolled(ref, seen):
        # The roller's dice went unseen as they were picked up: the play is judged, then the roll.
        ref, out = _judge_seen(replace(ref, dice_on_board=False), seen)
        if ref.stage is Stage.PLAYING and ref.game.phase is Phase.ROLL:
            ref, more = _await_roll(ref, seen)
            out = _merge(out, more)
        return ref, out
    if _thrown_over_play(ref, seen):
        # The roller's pickup went unseen and the opponent threw into the roller's half: the play stands as made,
        # then the throw is judged as the opponent's roll (into the wrong half).
        ref, out = _judge_seen(replace(ref, dice_on_board=False), replace(seen, dice=()))
        if ref.stage is Stage.PLAYING and ref.game.phase is Phase.ROLL:
            ref, more = _await_roll(ref, seen)
            out = _merge(out, more)
        return ref, out
    if seen.dice and seen.final:
        # the footage ended with the play lying made and the dice still down: the play as it stands is the record
        return _judge_seen(replace(ref, dice_on_board=False), replace(seen, dice=()))
    if seen.dice:
        return _roll_read_again(ref, seen), _lifted(ref, seen)  # the turn ends when the roller picks up the dice
    return _judge_seen(replace(ref, dice_on_board=False), seen)


def _thrown_over_play(ref: Referee, seen: Seen) -> bool:
    """Two dice in the roller's own half that are not their dice: read surely as other numbers than the roll, and
    thrown by a hand from the opponent's side, over checkers that stand as a whole legal play of the roll.  The
    roller picked up (unseen: that reading lost) and the opponent threw, into the wrong half.  Dice keep their
    numbers while they lie, and the opponent's hand does not pick up the roller's dice, so it is no misread die."""
    g = ref.game
    if ref.plays == 0 or g.dice is None or seen.hand != 1 - g.turn or len(seen.dice) != 2 or not _rolled_by(ref, seen, g.turn):
        return False
    values = [d.value for d in seen.dice if d.value is not None and d.sure]
    if len(values) != 2 or sorted(values) == sorted(g.dice):
        return False
    return judge(g.position, g.dice, _explained(ref, seen)).legal


def _ended(ref: Referee, seen: Seen) -> bool:
    """Whether the footage ending on this reading (``seen.final``, read already) settles anything: a play lying
    made, legal, with the dice still down (their pickup not seen: the recording stopped first, or that reading
    was lost).  Nothing more will be seen, so the checkers as they lie are the play (a last bear-off ends the
    game).  An illegal play, or one not finished, is left as it stands: no call is made on a reading made only
    because the footage ended."""
    g = ref.game
    if ref.stage is not Stage.PLAYING or g.phase is not Phase.MOVE or g.dice is None or not 0 < len(seen.dice) <= 2 or seen.occluded:
        return False
    fitted = _reconciled(ref, seen)[1]
    return fitted is not None and judge(g.position, g.dice, _explained(ref, fitted)).legal


def _roll_read_again(ref: Referee, seen: Seen) -> Referee:
    """Count another reading of the roll while its dice lie on the board (a die misread once is outvoted)."""
    g = ref.game
    halves = {ref.settings.right_half(0), ref.settings.right_half(1)} if ref.plays == 0 else {ref.settings.right_half(g.turn)}
    dice = [d for d in seen.dice if d.half in halves and d.known and d.value is not None]
    if len(dice) != 2 or len(seen.dice) != 2:
        return ref
    a, b = (d.value for d in dice)
    assert a is not None and b is not None
    ref = replace(ref, rolls_read=ref.rolls_read + (((max(a, b), min(a, b)), _sureness(dice)),))
    by_half = {d.half: d.value for d in dice}
    dark, light = by_half.get(ref.settings.right_half(0)), by_half.get(ref.settings.right_half(1))
    if ref.plays == 0 and ref.openings_read and dark is not None and light is not None:
        ref = replace(ref, openings_read=ref.openings_read + (((dark, light), _sureness(dice)),))
    return ref


OUTWEIGH = 2.0  # a roll read this much more surely than one making the play legal is taken over it (the play then illegal)


def _roll_decided(ref: Referee, after: Position | tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[int, int] | None:
    """The roll to judge this turn's play by, when its readings disagree (None: one roll read, or none).

    Each reading counts by how sure vision was of it (its least sure die), summed over the readings while the
    dice lay: a die misread once at low confidence is outvoted, whichever reading came first.  Where the rules
    decide between readings, they do: of the rolls read, one the play is legal with is taken, unless another was
    read at least twice as surely and surely (then the play is called with that one: on independent footage,
    excusing a play with a roll misread once hid a real illegal play).  Never a roll nobody read."""
    g = ref.game
    if ref.before_roll is None or g.dice is None:
        return None
    weight: dict[Pair, float] = {}
    surest: dict[Pair, float] = {}
    for roll, sure in ref.rolls_read:
        if ref.plays == 0 and roll[0] == roll[1]:
            continue  # no opening roll is a double
        weight[roll] = weight.get(roll, 0.0) + sure
        surest[roll] = max(surest.get(roll, 0.0), sure)
    return _surest_fitting(weight, surest, g.dice, lambda r: judge(g.position, r, after).legal)


Pair = tuple[int, int]  # two dice: a roll (higher first) or an opening roll (dark's die first)


def _surest_fitting(weight: dict[Pair, float], surest: dict[Pair, float], recorded: Pair, legal_with: Callable[[Pair], bool]) -> Pair | None:
    """Of the rolls read (each weighed by how sure vision was of it, summed over the readings, and the surest
    reading of it), the one to judge the play by (None: only one read); see :func:`_roll_decided`."""
    if len(weight) < 2:
        return None
    legal = {r: legal_with(r) for r in weight}
    order = sorted(weight, key=lambda r: (-weight[r], r != recorded))  # the surest first; alike, the one recorded
    heaviest = order[0]
    fits = [r for r in order if legal[r]]
    if legal[heaviest] or not fits:
        return heaviest
    other = fits[0]
    if weight[heaviest] >= OUTWEIGH * weight[other] and surest[heaviest] >= SURE:
        return heaviest
    return other


def _opening_weights(ref: Referee) -> tuple[dict[Pair, float], dict[Pair, float]]:
    """Each opening roll (dark's die, light's die) the readings of this game's opening dice hold, weighed by how sure
    vision was of it (summed over the readings, and the surest), a reading of one die (0 for the other) counting for
    each opening roll that has it.  Empty unless the opening play is waited for."""
    if ref.plays != 0 or ref.game.phase is not Phase.MOVE or not ref.openings_read:
        return {}, {}
    darks = {d for (d, _), _ in ref.openings_read if d}
    lights = {x for (_, x), _ in ref.openings_read if x}
    weight: dict[Pair, float] = {}
    surest: dict[Pair, float] = {}
    for pair in ((d, x) for d in darks for x in lights if d != x):
        fits = [sure for read, sure in ref.openings_read if all(r in (0, v) for r, v in zip(read, pair))]
        if fits:
            weight[pair], surest[pair] = sum(fits), max(fits)
    return weight, surest


@functools.cache
def _opening_boards_of(pair: Pair) -> tuple[Board, ...]:
    """The boards the opening plays of ``pair`` (dark's die, light's die) leave: the higher die's owner moved.  Kept
    once worked out: the start is always the same, and each reading while the opening play is waited for asks."""
    opener = 0 if pair[0] > pair[1] else 1
    return tuple(Board.from_position(p.after, opener) for p in legal_plays(Position.start(), (max(pair), min(pair))))


def _opening_read_otherwise(ref: Referee, seen: Seen) -> Seen | None:
    """The opening play waited for, with the opening dice read more than one way: the reading as a play of one of
    the opening rolls read (exact, or but on points read unsure, or within a checker), the surest of those read
    first, before it is fitted to the one recorded.  A die misread once may have given the opening to the other
    player: their play is then no move of the opponent's checkers to put right, but the opening."""
    weight, _ = _opening_weights(ref)
    if len(weight) < 2:
        return None
    order = sorted(weight, key=lambda p: -weight[p])
    for pair in order:
        if any(_fit(board, seen) is not None for board in _opening_boards_of(pair)):
            return seen
    for pair in order:
        near = sorted((_distance(b, seen.board, seen.unsure_points), i) for i, b in enumerate(_opening_boards_of(pair)))
        near = [n for n in near if n[0] <= NEAR]
        if near and (len(near) == 1 or near[0][0] < near[1][0]):
            board = _opening_boards_of(pair)[near[0][1]]
            unsure = {i + 1 for i, (a, b) in enumerate(zip(board.points, seen.board.points)) if a != b}
            return replace(seen, board=board, unsure_points=seen.unsure_points | unsure)
    return None


def _opening_decided(ref: Referee, seen: Seen) -> Pair | None:
    """The opening roll to judge the opening play by, as (dark's die, light's die), when its readings disagree.
    A die misread at the opening may change who opens (dark's 5 and light's 6 read as 5 and 4): the play, the
    opener's checkers moved, tells which reading it fits, weighed as for any roll (:func:`_roll_decided`)."""
    g = ref.game
    weight, surest = _opening_weights(ref)
    if g.dice is None or ref.before_roll is None or len(weight) < 2:
        return None
    recorded = g.dice if g.turn == 0 else (g.dice[1], g.dice[0])
    taken = _surest_fitting(weight, surest, recorded, lambda pair: any(_fit(b, seen) is not None for b in _opening_boards_of(pair)))
    return taken if taken is not None and taken != recorded else None


def _amend_opening(ref: Referee, pair: Pair, seen: Seen) -> tuple[Referee, Outcome]:
    """Withdraw the opening roll recorded, record ``pair`` (dark's die, light's die), and judge the play with it."""
    assert ref.before_roll is not None and ref.game.dice is not None
    was, opener = ref.game.dice, ref.settings.players[ref.game.turn]
    event = OpeningRoll(pair)
    amended = replace(ref, match=apply_to_match(ref.before_roll, event))
    text = (f"the opening roll was {ref.settings.players[0]}'s {pair[0]} and {ref.settings.players[1]}'s {pair[1]}, not {opener}'s "
            f"{was[0]}-{was[1]} (the dice were read both ways; the play and the surer reading taken)")
    new, out = _judge_seen(amended, seen, decided=True)
    return new, _merge(Outcome(events=(event,), notes=(Note(text, "warning"),), retracted=1), out)


def _amend_roll(ref: Referee, roll: tuple[int, int], seen: Seen) -> tuple[Referee, Outcome]:
    """Withdraw the roll recorded this turn, record ``roll`` instead, and judge the play with it."""
    assert ref.before_roll is not None and ref.game.dice is not None
    mover = ref.game.turn
    was = ref.game.dice
    event: Event = Roll(mover, roll) if ref.plays else OpeningRoll(roll if mover == 0 else (roll[1], roll[0]))
    amended = replace(ref, match=apply_to_match(ref.before_roll, event))
    text = f"{ref.settings.players[mover]}'s roll was {roll[0]}-{roll[1]}, not {was[0]}-{was[1]} (the dice were read both ways; the surer reading taken)"
    new, out = _judge_seen(amended, seen, decided=True)
    return new, _merge(Outcome(events=(event,), notes=(Note(text, "warning"),), retracted=1), out)


def _opponent_rolled(ref: Referee, seen: Seen) -> bool:
    """Two dice in the opponent's half that are not the roller's numbers (the roller may push their own dice
    aside while playing), or are, thrown by a hand from the opponent's side (a roll repeats one time in 18)."""
    g = ref.game
    values = sorted(d.value or 0 for d in seen.dice)
    if len(seen.dice) != 2 or not _rolled_by(ref, seen, 1 - g.turn) or g.dice is None:
        return False
    return values != sorted(g.dice) or seen.hand == 1 - g.turn


def _lifted(ref: Referee, seen: Seen) -> Outcome:
    """Teaching: one of the mover's checkers is in hand; show where it may go."""
    if ref.settings.mode is not Mode.TEACH:
        return Outcome()
    g = ref.game
    mine, theirs = seen.board.sides(g.turn)
    before = g.position
    gone = [i for i in range(25) if mine[i] < before.on_roll[i]]
    if theirs != before.opponent or len(gone) != 1 or sum(before.on_roll) - sum(mine) != 1:
        return Outcome()
    point = gone[0] + 1
    dark_point = point if g.turn == 0 or point == 25 else 25 - point
    sources = _teaching(ref)
    destinations = teaching_destinations(ref, dark_point) if point != 25 else _bar_destinations(ref)
    spots = sources[0].args[0] if sources else ()
    return _say(signals=[Signal(SignalKind.TEACHING, (spots, destinations))])


def _bar_destinations(ref: Referee) -> tuple[int | str, ...]:
    g = ref.game
    assert g.dice is not None
    return _dark_points(sorted(d for d in _reachable(g.position, g.dice, 25) if d), g.turn)


def _explained(ref: Referee, seen: Seen) -> Position | tuple[tuple[int, ...], tuple[int, ...]]:
    """The checkers seen, preferring a legal play that differs from the
    reading only on points read with low confidence."""
    g = ref.game
    assert g.dice is not None  # a play is judged only after a roll
    mine, theirs = seen.board.sides(g.turn)
    if not seen.unsure_points:
        return mine, theirs
    for play in legal_plays(g.position, g.dice):
        if _fit(Board.from_position(play.after, g.turn), seen) == "unsure":
            return play.after
    return mine, theirs


def _judge_seen_after(ref: Referee, after: Position | tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[Referee, Outcome]:
    """Commit a play known to be legal with the roll recorded."""
    g = ref.game
    assert g.dice is not None
    verdict = judge(g.position, g.dice, after)
    return _commit_play(ref, Move(g.turn, verdict.play.after if verdict.play else g.position), verdict,
                        f"{ref.settings.players[g.turn]} played {verdict.play}")


def _judge_seen(ref: Referee, seen: Seen, decided: bool = False) -> tuple[Referee, Outcome]:
    """Judge the checkers seen as the play of the roll recorded (``decided``: the roll was chosen among
    disagreeing readings already)."""
    g = ref.game
    assert g.dice is not None  # a play is judged only after a roll
    player = g.turn
    after = _explained(ref, seen)
    opening = None if decided else _opening_decided(ref, seen)
    if opening is not None:
        return _amend_opening(ref, opening, seen)
    roll = None if decided else _roll_decided(ref, after)
    if roll is not None and roll != g.dice:
        return _amend_roll(ref, roll, seen)
    verdict = judge(g.position, g.dice, after)
    name = ref.settings.players[player]
    if verdict.legal:
        ref, out = _commit_play(ref, Move(player, verdict.play.after if verdict.play else g.position), verdict, f"{name} played {verdict.play}")
        return ref, _merge(out, _snapped_look(player, verdict, seen))
    early = _played_then_other_moved(ref, seen)
    if early is not None:
        if _playing_their_roll(ref, early, seen):
            return _commit_play(ref, Move(player, early.after), judge(g.position, g.dice, early.after), f"{name} played {early}")
        return _other_moved_early(ref, early)
    swapped = _swapped_play(ref, seen)
    if swapped is not None and ref.settings.mode is not Mode.TOURNAMENT:
        return _seating_doubt(ref, swapped)
    reasons = "; ".join(r.text for r in verdict.reasons)
    call = Call("illegal_play", player, tuple(r.text for r in verdict.reasons))
    if ref.settings.mode is Mode.RECORD:
        # Silent recording: the play is recorded as made, with its reasons.
        ref, out = _accept_illegal(replace(ref, illegal_after=_as_position(after), illegal_verdict=verdict), "recorded as made")
        return ref, replace(out, calls=out.calls + (replace(call, silent=True),))
    points = _dark_points(verdict.points, player)
    hint = f" (did you mean {verdict.closest[0]}?)" if verdict.closest and ref.settings.mode is not Mode.TOURNAMENT else ""
    ref = replace(ref, stage=Stage.ILLEGAL, illegal_after=_as_position(after), illegal_verdict=verdict)
    doubt = sorted(p for p in seen.unsure_points & {p for p in points if isinstance(p, int)} if not _counted_by_the_rest(ref, seen, p))
    miscount = _one_checker_from_legal(ref, seen)
    if miscount and not doubt:
        # One checker more or fewer than a legal play: a stack miscounted looks just like it.
        doubt = miscount
    if doubt:
        # Neither a legal play nor a clear illegal one: say what was seen and ask for a look.
        text = f"please look at {', '.join(map(str, doubt))}: the camera is unsure, and as read the play is illegal: {reasons}"
        return ref, replace(_look(player, text, tuple(doubt)), verdict=verdict)
    return ref, _say(
        Note(f"illegal play by {name}: {reasons}{hint}", "illegal"),
        signals=[Signal(SignalKind.ILLEGAL_PLAY, (points,))],
        verdict=verdict,
        calls=[call],
    )


def _counted_by_the_rest(ref: Referee, seen: Seen, point: int) -> bool:
    """Whether a point vision is unsure of holds what the rest leaves: each side's checkers add up to what it has
    (none in hand, none borne off this turn; the reading taken as read), and no other point read unsure could hold
    checkers of the same side in its stead: it is the only point read unsure, or it holds checkers of one colour
    and every other point read unsure holds the other's.  Its side's total then counts it (see
    :func:`_filled_by_the_rest`).  A play illegal so is illegal, whatever vision's doubt there."""
    if seen.as_read is not None or not _all_seen(ref, seen):
        return False
    others = seen.unsure_points - {point}
    n = seen.board.points[point - 1]
    return not others or (n != 0 and all(seen.board.points[q - 1] * n < 0 for q in others))


def _snapped_look(player: int, verdict: Verdict, seen: Seen) -> Outcome:
    """A play taken as the legal one nearest an impossible reading (see :func:`_reconciled`) where vision read
    surely empty a place the play itself moves a checker to, or a checker where it moves the last one from: the
    play is recorded, since the rules allow nothing nearer, but nobody saw it made so: a look is asked, not a
    foul called.  (A stack read a checker short, or one the play did not touch, is vision's miscount, not a
    doubt about the play.)"""
    read = seen.as_read
    if read is None or verdict.play is None:
        return Outcome()
    taken = seen.board
    # where vision saw a checker missing or extra (read empty, or taken empty), not a tall stack miscounted
    otherwise: list[int | str] = [p for p in range(1, 25) if taken.points[p - 1] != read.points[p - 1] and 0 in (taken.points[p - 1], read.points[p - 1])]
    otherwise += [f"bar-{COLOURS[c]}" for c in (0, 1) if taken.bar[c] != read.bar[c] and 0 in (taken.bar[c], read.bar[c])]
    moved = set(_dark_points({h.src for h in verdict.play.hops} | {h.dst for h in verdict.play.hops}, player))
    doubt = tuple(p for p in otherwise if p in moved)
    if not doubt:
        return Outcome()
    text = (f"{verdict.play} taken as played, the only legal play near what the camera saw, but it read "
            f"{', '.join(map(str, doubt))} otherwise: please look")
    return _look(player, text, doubt)


# --- a second opinion on the seating ---------------------------------------------------------


def _swapped_play(ref: Referee, seen: Seen) -> Play | None:
    """The game's first play, illegal as the mover's, seen to be a legal play of the same roll by the
    other player: what the camera shows when the players sit in each other's seats (each die then lands
    in the half the referee takes for the other player's, so the opening roll goes to the wrong player)."""
    g = ref.game
    if ref.plays != 0 or g.dice is None or g.dice[0] == g.dice[1] or ref.before_roll is None:
        return None
    other = 1 - g.turn
    for play in legal_plays(Position.start(), g.dice):
        if _fit(Board.from_position(play.after, other), seen) is not None:
            return play
    return None


def _seating_doubt(ref: Referee, play: Play) -> tuple[Referee, Outcome]:
    g = ref.game
    assert g.dice is not None
    names, other = ref.settings.players, 1 - ref.game.turn
    text = (f"seating looks swapped: confirm (accept button), or put the checkers back: the play is {names[other]}'s "
            f"{play} with {g.dice[0]}-{g.dice[1]}, as if {COLOURS[other]} sat where {COLOURS[g.turn]} sits")
    ref = replace(ref, stage=Stage.SEATING, swap_play=play.after)
    return ref, _say(Note(text, "warning"), signals=[Signal(SignalKind.LOOK_NEEDED, ())], calls=[Call("seating", None, (text,))])


def _seating(ref: Referee, seen: Seen) -> tuple[Referee, Outcome]:
    """Waiting on the seating: the checkers put back (the seating stands), play going on (the next roll
    seen in a half with the first play left standing: the seating is swapped), or a button."""
    assert ref.swap_play is not None
    g = ref.game
    if _is_start(seen.board) and not seen.dice:
        return replace(ref, stage=Stage.PLAYING, swap_play=None), _say(Note("checkers put back: the seating stands"))
    on_board = Board.from_position(ref.swap_play, 1 - g.turn) == seen.board
    if on_board and seen.dice and len({d.half for d in seen.dice}) == 1 and seen.dice[0].half in HALVES:
        ref, out = _swap_seating(ref, "play went on with it")
        more_ref, more = _playing(ref, seen)
        return more_ref, _merge(out, more)
    if not on_board and not seen.dice:
        # the checkers changed: judge them as the mover's play again (a correction)
        ref, out = _judge_seen(replace(ref, stage=Stage.PLAYING, swap_play=None), seen)
        return ref, out
    return ref, Outcome()


def _swap_seating(ref: Referee, how: str) -> tuple[Referee, Outcome]:
    """The players sit in each other's seats: the opening roll is given to the other players, and the
    first play is theirs."""
    g = ref.game
    assert ref.swap_play is not None and ref.before_roll is not None and g.dice is not None
    first = 1 - g.turn
    high, low = g.dice
    opening = OpeningRoll((high, low) if first == 0 else (low, high))
    settings = replace(ref.settings, dark_right_half=ref.settings.seating.swapped().dark_right)
    swapped = replace(ref, settings=settings, match=apply_to_match(ref.before_roll, opening), stage=Stage.PLAYING, swap_play=None)
    after = ref.swap_play
    ref, out = _commit_play(swapped, Move(first, after), judge(swapped.game.position, g.dice, after), f"{settings.players[first]} played")
    text = f"seating swapped ({how}): {COLOURS[first]} rolls into the {settings.right_half(first)} half; {settings.players[first]} opened with {high}-{low}"
    return ref, _merge(Outcome(events=(opening,), notes=(Note(text, "warning"),), retracted=1), out)


def _one_checker_from_legal(ref: Referee, seen: Seen) -> list[int]:
    """The points (dark's numbers) where the checkers seen differ by a single checker from a legal play
    (a move changes two points, so this is a count: a checker borne off or not, or a stack misread)."""
    g = ref.game
    assert g.dice is not None
    for play in legal_plays(g.position, g.dice):
        board = Board.from_position(play.after, g.turn)
        if _distance(board, seen.board) == 1:
            return [i + 1 for i, (a, b) in enumerate(zip(board.points, seen.board.points)) if a != b]
    return []


def _played_then_other_moved(ref: Referee, seen: Seen) -> Play | None:
    """A legal play of the mover's checkers as seen, the opponent's having
    moved forward too (same count): the opponent played before the mover
    picked up the dice."""
    g = ref.game
    assert g.dice is not None
    mine, theirs = seen.board.sides(g.turn)
    for play in legal_plays(g.position, g.dice):
        expected = play.after.opponent
        if play.after.on_roll == mine and theirs != expected and sum(theirs) == sum(expected) and _pips(theirs) < _pips(expected):
            return play
    return None


def _playing_their_roll(ref: Referee, play: Play, seen: Seen) -> bool:
    """The opponent's checkers moved past the mover's ``play`` are the opponent's own turn, not a move before it:
    their two dice lie in their right-hand half and their checkers stand as a legal play of those dice, whole or
    begun.  The camera missed the mover's dice picked up and the opponent's roll; a player whose dice are down
    is playing them."""
    opponent = 1 - ref.game.turn
    if len(seen.dice) != 2 or not _rolled_by(ref, seen, opponent):
        return False
    roll = _roll_of(_readable(seen.dice, ref.settings.right_half(opponent)))
    if roll is None:
        return False
    before = play.after.swap()
    for q in legal_plays(before, roll):
        if any(Board.from_position(apply_hops(before, q.hops[:k]), opponent) == seen.board for k in range(1, len(q.hops) + 1)):
            return True
    return False


def _pips(side: tuple[int, ...]) -> int:
    return sum((i + 1) * n for i, n in enumerate(side))


def _other_moved_early(ref: Referee, play: Play) -> tuple[Referee, Outcome]:
    """The mover's play stands; the opponent's checkers go back before their turn starts."""
    g = ref.game
    assert g.dice is not None
    mover, names = g.turn, ref.settings.players
    ref, out = _commit_play(ref, Move(mover, play.after), judge(g.position, g.dice, play.after), f"{names[mover]} played {play}")
    if ref.stage is not Stage.PLAYING:
        return ref, out
    text = f"{names[1 - mover]} moved before {names[mover]} picked up the dice: put those checkers back, then roll"
    said = _say(Note(text, "warning"), signals=[Signal(SignalKind.LOOK_NEEDED, ())], calls=[Call("moved_before_roll", 1 - mover, (text,))])
    return replace(ref, moved_early=True), _merge(out, said)


def _as_position(after: Position | tuple[tuple[int, ...], tuple[int, ...]]) -> Position | None:
    if isinstance(after, Position):
        return after
    try:
        return Position(*after)
    except PositionError:
        return None  # impossible as seen (e.g. 16 checkers): cannot be accepted


def _dark_points(points: Iterable[int], player: int) -> tuple[int | str, ...]:
    """Mover's numbers (25 = bar, 0 = off) as LED spots in dark's numbering."""
    out: list[int | str] = []
    for p in points:
        if p == 25:
            out.append(f"bar-{COLOURS[player]}")
        elif 1 <= p <= 24:
            out.append(p if player == 0 else 25 - p)
    return tuple(out)


def _commit_play(ref: Referee, move: Move, verdict: Verdict, text: str) -> tuple[Referee, Outcome]:
    player = move.player
    ref_games = ref.match.games_played
    match = apply_to_match(ref.match, move)
    last = (ref.before_roll, ref.match, not ref.rolls_read) if ref.before_roll is not None and not move.accept_illegal else None
    ref = replace(ref, match=match, stage=Stage.PLAYING, illegal_after=None, illegal_verdict=None, dice_read=(), moved_early=False, asked_board=None, asked_rolls=(),
                  plays=ref.plays + 1, before_roll=None, rolls_read=(), openings_read=(), moved_unrolled=None, cocked_seen=(), last_turn=last,
                  reached=frozenset())
    moved = _dark_points(sorted({h.src for h in verdict.play.hops} | {h.dst for h in verdict.play.hops}), player) if verdict.play else ()
    signals = [] if ref.settings.mode is Mode.RECORD else [Signal(SignalKind.PLAY_ACCEPTED, (moved,))]
    notes = [Note(text)]
    if match.games_played > ref_games:
        ref = replace(ref, stage=Stage.OVER)
        notes.append(_result_note(ref, f"{ref.settings.players[player]} bore off"))
        return ref, _say(*notes, signals=signals, events=[move], verdict=verdict)
    signals.append(Signal(SignalKind.YOUR_TURN, (COLOURS[1 - player],)))
    return ref, _say(*notes, signals=signals, events=[move], verdict=verdict)


def _illegal(ref: Referee, seen: Seen) -> tuple[Referee, Outcome]:
    g = ref.game
    opponent = 1 - g.turn
    # The opponent rolling (or turning the cube) accepts the play as made; unless the checkers as now seen
    # are a legal play (corrected at the last moment, or the illegal play was a misreading).  A roll is the
    # opponent's when the dice lie in their half, or their hand was seen throwing them (into the wrong half:
    # that is called as the roll's own foul once the play is accepted).
    threw = _rolled_by(ref, seen, opponent) or (bool(seen.dice) and seen.hand == opponent)
    if threw and g.dice is not None and judge(g.position, g.dice, _explained(ref, seen)).legal:
        ref, out = _judge_seen(replace(ref, stage=Stage.PLAYING), seen)
        if ref.stage is Stage.OVER:
            return ref, out
        ref, more = _await_roll(ref, seen)
        return ref, _merge(out, more)
    if threw:
        ref, out = _accept_illegal(ref, "accepted as made: the opponent rolled")
        if ref.stage is Stage.OVER:
            return ref, out
        ref, more = _await_roll(ref, seen)
        return ref, _merge(out, more)
    if (
        ref.settings.rules.accept_illegal is AcceptIllegal.ROLL_OR_DOUBLE
        and seen.cube_position == COLOURS[g.turn]
        and _cube_value(seen) == g.cube * 2
    ):
        ref, out = _accept_illegal(ref, "accepted as made: the opponent turned the cube")
        ref, more = _await_roll(ref, seen)
        return ref, _merge(out, more)
    if seen.dice:
        return ref, Outcome()
    # The player corrects: judge the board again.
    return _judge_seen(ref, seen)


def _accept_illegal(ref: Referee, how: str) -> tuple[Referee, Outcome]:
    g = ref.game
    if ref.illegal_after is None:
        return ref, _look(g.turn, "this play cannot be accepted: the board is impossible as seen; correct it")
    verdict = ref.illegal_verdict
    reasons = "; ".join(r.text for r in verdict.reasons) if verdict else ""
    move = Move(g.turn, ref.illegal_after, accept_illegal=True)
    ref, out = _commit_play(ref, move, verdict or Verdict(False, None), f"{ref.settings.players[g.turn]}'s illegal play {how} ({reasons})")
    return ref, out


# --- buttons ---------------------------------------------------------------------------------


def _press(ref: Referee, press: Press) -> tuple[Referee, Outcome]:
    button = press.button
    if button == "accept" and ref.stage is Stage.ILLEGAL:
        return _accept_illegal(ref, "accepted as made by the opponent")
    if button == "accept" and ref.stage is Stage.SEATING:
        return _swap_seating(ref, "confirmed")
    if button == "correct" and ref.stage is Stage.ILLEGAL and ref.illegal_verdict is not None:
        points = _dark_points(ref.illegal_verdict.points, ref.game.turn)
        return ref, _say(Note("correct the play: the blinking points show where"), signals=[Signal(SignalKind.ILLEGAL_PLAY, (points,))])
    if button == "drop" and ref.game.phase in (Phase.DOUBLED, Phase.BEAVERED, Phase.RACCOONED):
        return _drop(ref, ref.game.turn)
    if button == "take" and ref.game.phase in (Phase.DOUBLED, Phase.BEAVERED, Phase.RACCOONED):
        answering = ref.game.turn
        match = apply_to_match(ref.match, Take(answering))
        ref = replace(ref, match=match)
        return ref, _say(Note(f"{ref.settings.players[answering]} took"), events=[Take(answering)], signals=[_cube_signal(ref)])
    if button == "mode":
        modes = list(Mode)
        mode = modes[(modes.index(ref.settings.mode) + 1) % len(modes)]
        ref = replace(ref, settings=replace(ref.settings, mode=mode))
        return ref, _say(Note(f"mode: {mode.value}"), signals=_teaching(ref))
    return ref, _say(Note(f"the {button} button does nothing now ({ref.stage.value})", "warning"))


# --- teaching ------------------------------------------------------------------------------------


def _teaching(ref: Referee) -> list[Signal]:
    """In teaching mode, the points the player may move from."""
    if ref.settings.mode is not Mode.TEACH or ref.game.dice is None:
        return []
    player = ref.game.turn
    mine = ref.game.position.on_roll
    sources = {h.src for p in legal_plays(ref.game.position, ref.game.dice) for h in p.hops if mine[h.src - 1]}
    return [Signal(SignalKind.TEACHING, (_dark_points(sorted(sources), player),))]


def teaching_destinations(ref: Referee, lifted_from: int) -> tuple[int | str, ...]:
    """Where a checker lifted from dark's point ``lifted_from`` may go this turn (dark's numbers)."""
    g = ref.game
    if g.dice is None:
        return ()
    player = g.turn
    src = lifted_from if player == 0 or lifted_from == 25 else 25 - lifted_from
    return _dark_points(sorted(d for d in _reachable(g.position, g.dice, src) if d), player)


def _reachable(position: Position, dice: tuple[int, int], src: int) -> set[int]:
    """Every point a checker from ``src`` (mover's numbering) stops on in some legal play."""
    out: set[int] = set()
    for play in legal_plays(position, dice):
        at = src
        for hop in play.hops:
            if hop.src == at:
                out.add(hop.dst)
                at = hop.dst
    return out
