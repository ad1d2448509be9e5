"""Match records: who played, under which rules, and what happened in each game.

A record says what was done, in the game's words, and nothing that can be
worked out from it: positions, cube ownership and match scores before each
action come from replaying it (:mod:`engine.replay`).  Everything here is an
immutable value, so two readings of the same match compare equal.

Players are numbered as in GNU Backgammon's ``.mat`` export: player 0 is the
first listed (the left column of a ``.mat`` file, dark on the board, White in
GNU Backgammon's SGF), player 1 the second.

A play is kept as its notation in the mover's numbering (``"24/18 13/11"``),
in GNU Backgammon's canonical form when it is legal; ``""`` means no checker
moved (a roll that could not be played).  A play that broke the rules but was
accepted at the board is kept as it was made; the replay reports it.

The actions here are named ``Recorded*`` (:class:`RecordedMove`, :class:`RecordedRoll`,
:class:`RecordedDouble` ... :class:`RecordedMatch`) because :mod:`engine.game` has events and
states for the same moments of play that are other things: an event is what the referee feeds
the game's state machine (a :class:`engine.game.Move` holds the position after the play), an
action is what a record file says (a :class:`RecordedMove` holds the dice and the play's
notation).  :mod:`engine.from_events` turns events into a record, and :mod:`engine.replay` a
record back into positions.  No two types of the engine share a name.
"""

from __future__ import annotations

from dataclasses import dataclass

from .game import Rules


class RecordError(ValueError):
    """A record that cannot be read, or that contradicts itself.  ``illegal``
    is set when the cause is a play so illegal that the game cannot go on
    from it (a checker put on a point the opponent holds), with ``players``
    the names the record gives them."""

    illegal: IllegalPlay | None = None
    players: tuple[str, str] | None = None


@dataclass(frozen=True, slots=True)
class IllegalPlay:
    """A play that broke the rules: where it was (game and move from 1), who
    made it, as written, and why it is illegal."""

    game: int
    move: int
    player: int
    play: str
    reasons: tuple[str, ...]


def other(player: int) -> int:
    """The other player."""
    return 1 - player


# --- actions ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RecordedMove:
    """A roll and the play made with it (``""``: no checker moved)."""

    player: int
    dice: tuple[int, int]
    play: str
    comment: str = ""


@dataclass(frozen=True, slots=True)
class RecordedRoll:
    """A roll that was not played: the player resigned (or the record ends) first."""

    player: int
    dice: tuple[int, int]
    comment: str = ""


@dataclass(frozen=True, slots=True)
class RecordedDouble:
    """The player on roll turns the cube to ``cube``."""

    player: int
    cube: int
    comment: str = ""


@dataclass(frozen=True, slots=True)
class RecordedTake:
    """The doubled player takes and owns the cube."""

    player: int
    comment: str = ""


@dataclass(frozen=True, slots=True)
class RecordedDrop:
    """The doubled player passes and loses the game at the cube before the double."""

    player: int
    comment: str = ""


@dataclass(frozen=True, slots=True)
class RecordedBeaver:
    """The doubled player redoubles at once to ``cube`` and keeps the cube (money play)."""

    player: int
    cube: int
    comment: str = ""


@dataclass(frozen=True, slots=True)
class RecordedRaccoon:
    """The beavered player redoubles again to ``cube`` (money play)."""

    player: int
    cube: int
    comment: str = ""


@dataclass(frozen=True, slots=True)
class RecordedResign:
    """The player gives up the game and the opponent accepts: the opponent wins
    ``points`` (cube included).  A resignation refused is not recorded."""

    player: int
    points: int
    comment: str = ""


Action = RecordedMove | RecordedRoll | RecordedDouble | RecordedTake | RecordedDrop | RecordedBeaver | RecordedRaccoon | RecordedResign


@dataclass(frozen=True, slots=True)
class RecordedResult:
    """How a game ended: the winner, the points won (cube included), and
    whether the loser resigned."""

    winner: int
    points: int
    resigned: bool = False


@dataclass(frozen=True, slots=True)
class RecordedGame:
    """One game: the score before it, its actions in order, its result
    (``None`` when the record stops before the game ends), a comment, and the
    cube's value when play starts (above 1 after automatic doubles on equal
    opening rolls, money play)."""

    score: tuple[int, int]
    actions: tuple[Action, ...]
    result: RecordedResult | None = None
    comment: str = ""
    cube: int = 1

    def moves(self) -> tuple[RecordedMove, ...]:
        """The game's moves (rolls that were played, or danced), in order."""
        return tuple(a for a in self.actions if isinstance(a, RecordedMove))


@dataclass(frozen=True, slots=True)
class RecordedMatch:
    """A match or money session: the two players, the rules (with the match
    length, 0 = money), the games, the file's other header tags and a comment."""

    players: tuple[str, str]
    rules: Rules
    games: tuple[RecordedGame, ...]
    tags: tuple[tuple[str, str], ...] = ()
    comment: str = ""

    @property
    def length(self) -> int:
        """The match length in points (0 = money)."""
        return self.rules.match_length

    @property
    def is_money(self) -> bool:
        """True for a money session (no match length)."""
        return self.length == 0

    def final_score(self) -> tuple[int, int]:
        """The score after the last finished game."""
        if not self.games:
            return (0, 0)
        last = self.games[-1]
        score = list(last.score)
        if last.result is not None:
            score[last.result.winner] += last.result.points
        return (score[0], score[1])

    def winner(self) -> int | None:
        """The player who reached the match length, or None (money, unfinished)."""
        if self.is_money:
            return None
        score = self.final_score()
        for player in (0, 1):
            if score[player] >= self.length:
                return player
        return None
