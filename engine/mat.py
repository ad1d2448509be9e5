"""The Jellyfish/FIBS ``.mat`` text match format: read every dialect, write GNU Backgammon's.

Dialects read (``docs/records.md``; GNU Backgammon's ``import.c`` and
``export.c``): GNU Backgammon, Backgammon Galaxy (bar ``25``, off ``0``, one
hop per die, ``Losses N point``, ``Wins N point and the match``), Backgammon
Studio and eXtreme Gammon (``bar/22``, ``6/off``, ``13/11(2)``, chains
``bar/21*/16``, combined hops ``24/14``, ``Cannot Move``, ``???``/``????``
after a roll at which the player resigned), a UTF-8 byte-order mark, ``;``
header tags and comments, ``0 point match`` for money sessions.

The left column is player 0 (the first-listed player, dark).  ``Wins N
points`` ends a game: after a drop it is the drop's result, on a finished
board the natural result, otherwise a resignation by the other player.  A roll
with nothing after the colon is a dance, or, when the game then ends by
resignation and the roll could have been played, a roll at which the player
resigned.  ``Losses N point`` lines repeat the ``Wins`` line and are skipped.

Reading is lenient on dialect and strict on rules.  Every play is replayed
(:mod:`engine.replay`): plays are stored in GNU Backgammon's canonical
notation, illegal ones as written (``23/bar`` too) and reported.  A result
is read as stated, with a warning where the rules give other points: a match
forfeit (``Wins 4 point`` with the cube on 1), a resignation before the
opening roll, a gammon counted single.  A ``Wins`` line that only caps a
finished game's points at the match (``Wins 2 point and the match`` after a
drop with the cube on 4) keeps the rules' points.  Also read: blank player
names, two numbered lines joined into one, a file that stops after a game's
header.  Errors (:class:`MatError`: damage) name the file, line, game and
move; warnings (``MatchReplay.warnings``) do too.  A match may start mid-way:
the first game's score is taken as given.

The writer follows GNU Backgammon's ``ExportGameJF`` layout: ``%3d) %-27s``
for the left column (padding kept: gnubg's importer needs it after
``Takes``), game header `` %-31s%s : %d``, one hop per die in the mover's
numbering with bar ``25`` and off ``0``, ``*`` on hits, ``Wins`` in the
winner's column.  Where gnubg has no form we write what other programs do:
``31: ????`` for a roll at which the player resigned, ``Beavers => 4`` and
``Raccoons => 8`` (gnubg's importer reads these as doubles), an illegal play
as it was made (gnubg's importer cannot follow it; SGF keeps it).  Comments
on single actions have no place in the format and are not written.

>>> text = '''
...  3 point match
...
...  Game 1
...  Ann : 0                        Bob : 0
...   1)                             52: 13/8 13/11
...   2) 31: 8/5 6/5                 64: 24/14
...   3) 44: 24/20 13/9(2) 8/4        Doubles => 2
...   4)  Drops                       Wins 1 point
... '''
>>> match = read_mat(text, "example.mat")
>>> match.games[0].actions[2:4]
(RecordedMove(player=1, dice=(6, 4), play='24/14', comment=''), RecordedMove(player=0, dice=(4, 4), play='24/20 13/9(2) 8/4', comment=''))
>>> match.games[0].actions[4:]
(RecordedDouble(player=1, cube=2, comment=''), RecordedDrop(player=0, comment=''))
>>> match.games[0].result
RecordedResult(winner=1, points=1, resigned=False)
>>> for line in write_mat(match).splitlines()[5:]:
...     line
' Ann : 0                        Bob : 0'
'  1)                             52: 13/11 13/8'
'  2) 31: 8/5 6/5                 64: 24/18 18/14'
'  3) 44: 24/20 13/9 13/9 8/4      Doubles => 2'
'  4)  Drops                       Wins 1 point'
''
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from . import game as flow
from .plays import PlayError, legal_plays
from .record import (
    Action,
    RecordedBeaver,
    RecordedDouble,
    RecordedDrop,
    RecordedGame,
    RecordedMatch,
    RecordedMove,
    RecordedRaccoon,
    RecordError,
    RecordedResign,
    RecordedResult,
    RecordedRoll,
    RecordedTake,
    other,
)
from .replay import (
    GameReplay,
    MatchReplay,
    ReplayError,
    Step,
    advance,
    check_score,
    finish_game,
    read_movement,
    replay,
    start_match,
)


class MatError(RecordError):
    """A ``.mat`` text that cannot be read; names the file, line, game and move."""


# --- the syntax layer ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Wins:
    """A ``Wins N point(s)`` line."""

    player: int
    points: int


Item = RecordedMove | RecordedRoll | RecordedDouble | RecordedTake | RecordedDrop | RecordedBeaver | RecordedRaccoon | Wins


@dataclass(frozen=True, slots=True)
class _Line:
    number: int
    item: Item


@dataclass
class _RawGame:
    number: int
    line: int
    players: tuple[str, str]
    score: tuple[int, int]
    items: list[_Line]


@dataclass
class _RawMatch:
    length: int | None
    tags: list[tuple[str, str]]
    comments: list[str]
    games: list[_RawGame]


_TAG = re.compile(r'^;\s*\[\s*([^"\]]+?)\s+"(.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^\s*(\d+)\s+points?\s+match\b", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_SCORE = re.compile(r"^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*$")
_NUMBERED = re.compile(r"^\s*(\d+)\)(.*)$")
_RENUMBERED = re.compile(r"(?<=\s)\d+\)(?=\s)")  # a move number repeated inside a line
_ITEM_START = re.compile(r"(?<![\w/*])(?:[1-6][1-6]:|Doubles\b|Takes\b|Drops\b|Beavers\b|Raccoons\b|Wins\b|Losses\b)", re.IGNORECASE)
_ROLL = re.compile(r"^([1-6])([1-6]):\s*(.*)$")
_CUBE = re.compile(r"^(Doubles|Beavers|Raccoons)(?:\s*=>\s*(\d+))?$", re.IGNORECASE)
_WINS = re.compile(r"^Wins\s+(\d+)\s+points?(?:\s+and\s+the\s+match)?\.?$", re.IGNORECASE)
_LOSSES = re.compile(r"^Losses\s+(\d+)\s+points?$", re.IGNORECASE)
_RIGHT_COLUMN = 12  # an item this far or farther after "n)" is in the right column
_RIGHT_INDENT = 20  # an unnumbered line indented this far is in the right column


def _fail(source: str, line: int, message: str, game: int | None = None, move: int | None = None) -> MatError:
    where = f"{source}: line {line}"
    if game is not None:
        where += f", game {game}"
    if move is not None:
        where += f", move {move}"
    return MatError(f"{where}: {message}")


def _parse(text: str, source: str) -> _RawMatch:
    raw = _RawMatch(None, [], [], [])
    lines = text.lstrip("\ufeff").splitlines()
    expect_score = False
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if expect_score:
            raw.games[-1].players, raw.games[-1].score = _score_line(stripped, source, number)
            expect_score = False
        elif stripped.startswith(";"):
            _header_line(raw, stripped, source, number)
        elif game := _GAME.match(stripped):
            raw.games.append(_RawGame(int(game.group(1)), number, ("", ""), (0, 0), []))
            expect_score = True
        elif not raw.games and (length := _LENGTH.match(stripped)):
            raw.length = int(length.group(1))
        elif raw.games:
            raw.games[-1].items.extend(_body_line(line, source, number, raw.games[-1].number))
        else:
            raise _fail(source, number, f"expected a header tag, ';' comment or 'N point match', not {stripped!r}")
    if raw.length is None:
        raise _fail(source, len(lines), "no 'N point match' line")
    if expect_score:
        # The file stops after a game's header (a download cut short): the game
        # is kept, with no score line, no play and no result.
        raw.games[-1].score = (-1, -1)
    return raw


def _header_line(raw: _RawMatch, stripped: str, source: str, number: int) -> None:
    tag = _TAG.match(stripped)
    if tag:
        raw.tags.append((tag.group(1), tag.group(2)))
    elif not raw.games:
        raw.comments.append(stripped[1:].strip())
    else:
        raise _fail(source, number, "a ';' line inside a game")


def _score_line(stripped: str, source: str, number: int) -> tuple[tuple[str, str], tuple[int, int]]:
    found = _SCORE.match(stripped)
    if not found:
        raise _fail(source, number, f"expected 'name : score   name : score', not {stripped!r}")
    return (found.group(1), found.group(3)), (int(found.group(2)), int(found.group(4)))


def _body_line(line: str, source: str, number: int, game: int) -> list[_Line]:
    numbered = _NUMBERED.match(line)
    body = numbered.group(2) if numbered else line
    again = _RENUMBERED.search(body) if numbered else None
    if again:
        # Two numbered lines joined into one (``24) 43: 21/18 18/14    24)  Losses
        # 2 point    Wins 2 point``): the second is read with its own columns.
        head, rest = line[: len(line) - len(body) + again.start()], body[again.start() :]
        return _body_line(head, source, number, game) + _body_line(rest, source, number, game)
    starts = [m.start() for m in _ITEM_START.finditer(body)]
    if not starts:
        if body.strip():
            raise _fail(source, number, f"cannot read {body.strip()!r}", game)
        return []
    if body[: starts[0]].strip():
        raise _fail(source, number, f"cannot read {body[: starts[0]].strip()!r}", game)
    first = _first_column(body, starts[0], bool(numbered))
    out = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(body)
        column = min(first + k, 1)
        if first + k > 1 and not _is_wins(body[start:end]):
            raise _fail(source, number, "more than two moves on one line", game)
        item = _item(body[start:end].strip(), column, source, number, game)
        if item is not None:
            out.append(_Line(number, item))
    return out


def _is_wins(text: str) -> bool:
    return text.strip().lower().startswith(("wins", "losses"))


def _first_column(body: str, start: int, numbered: bool) -> int:
    """0 (left player) or 1 (right player) for the first item on a line."""
    limit = _RIGHT_COLUMN if numbered else _RIGHT_INDENT
    return 1 if start >= limit else 0


def _item(text: str, player: int, source: str, number: int, game: int) -> Item | None:
    roll = _ROLL.match(text)
    if roll:
        dice = (int(roll.group(1)), int(roll.group(2)))
        rest = roll.group(3).strip()
        if rest and set(rest) == {"?"}:
            return RecordedRoll(player, dice)
        if rest.lower() == "cannot move":
            rest = ""
        return RecordedMove(player, dice, rest)
    cube = _CUBE.match(text)
    if cube:
        value = int(cube.group(2)) if cube.group(2) else 0
        kind = cube.group(1).lower()
        return RecordedDouble(player, value) if kind == "doubles" else RecordedBeaver(player, value) if kind == "beavers" else RecordedRaccoon(player, value)
    if text.lower() == "takes":
        return RecordedTake(player)
    if text.lower() == "drops":
        return RecordedDrop(player)
    wins = _WINS.match(text)
    if wins:
        return Wins(player, int(wins.group(1)))
    if _LOSSES.match(text):
        return None
    raise _fail(source, number, f"cannot read {text!r}", game)


# --- interpretation: replay each game through the rules -----------------------------


def read_mat(text: str, source: str = "<mat>") -> RecordedMatch:
    """The match in a ``.mat`` text; ``source`` names it in error messages."""
    return read_mat_replay(text, source).match


def read_mat_replay(text: str, source: str = "<mat>") -> MatchReplay:
    """The match in a ``.mat`` text with its replay (read once, checked once);
    the replay's warnings name the line of what was read as stated rather
    than as the rules give it."""
    raw = _parse(text, source)
    rules, tags = _rules(raw, source)
    state = start_match(rules, [RecordedGame(g.score, ()) for g in raw.games[:1] if g.score != (-1, -1)])
    games: list[RecordedGame] = []
    replays: list[GameReplay] = []
    warnings: list[str] = []
    for number, raw_game in enumerate(raw.games, start=1):
        if raw_game.score == (-1, -1):
            raw_game.score = state.score
            raw_game.players = raw.games[number - 2].players if number > 1 else ("", "")
            warnings.append(f"{source}: line {raw_game.line}: game {number}: the file ends after the game's header")
        try:
            check_score(state, raw_game.score, number)
        except ReplayError as exc:
            raise _fail(source, raw_game.line + 1, exc.reason, number) from None
        assert state.game is not None
        try:
            game, done = _interpret(raw_game, state.game, number, source)
        except MatError as exc:
            exc.players = raw_game.players
            raise
        games.append(game)
        replays.append(done)
        warnings += done.warnings
        state = finish_game(state, done, number)
    tagged = _tag_players(raw.tags)
    players = raw.games[0].players if raw.games else (tagged[0] or "Player 1", tagged[1] or "Player 2")
    # A blank name column: the header tag's name, when it has one.
    players = (players[0] or tagged[0].strip(), players[1] or tagged[1].strip())
    match = RecordedMatch(players, rules, tuple(games), tags, "\n".join(raw.comments))
    return MatchReplay(match, tuple(replays), tuple(warnings))


_RULE_TAGS = ("crawford", "jacoby", "beaver", "beavers", "cubelimit", "raccoons", "raccoon", "autodoubles")


def _rules(raw: _RawMatch, source: str) -> tuple[flow.Rules, tuple[tuple[str, str], ...]]:
    assert raw.length is not None
    found = {k.lower(): v.strip().lower() for k, v in raw.tags}
    money = raw.length == 0

    def on(key: str, default: str) -> bool:
        return found.get(key, default) in ("on", "yes", "true", "1")

    beavers = money and (on("beaver", "off") or on("beavers", "off"))
    limit = found.get("cubelimit", "")
    max_cube = int(limit) if limit.isdigit() and int(limit) in {2**k for k in range(1, 13)} else 64
    automatic = found.get("autodoubles", "0")
    rules = flow.Rules(
        match_length=raw.length,
        crawford=not money and on("crawford", "on"),
        jacoby=money and on("jacoby", "off"),
        beavers=beavers,
        raccoons=beavers and (on("raccoons", "off") or on("raccoon", "off")),
        max_cube=max_cube,
        automatic_doubles=int(automatic) if money and automatic.isdigit() else 0,
    )
    kept = tuple((k, v) for k, v in raw.tags if k.lower() not in _RULE_TAGS)
    return rules, kept


def _tag_players(tags: list[tuple[str, str]]) -> tuple[str, str]:
    found = {k.lower(): v for k, v in tags}
    return found.get("player 1", ""), found.get("player 2", "")


def _interpret(raw: _RawGame, start: flow.Game, number: int, source: str) -> tuple[RecordedGame, GameReplay]:
    steps: list[Step] = []
    actions: list[Action] = []
    lines: list[int] = []  # the line of each step
    state = start
    moves = 0
    claimed: _Line | None = None
    items = raw.items
    for k, entry in enumerate(items):
        if claimed is not None:
            raise _fail(source, entry.number, "a move after the game's result", number, moves)
        if isinstance(entry.item, Wins):
            claimed = entry
            continue
        action = _action(entry.item, state, ends_game=_only_wins_follow(items, k))
        moves += isinstance(action, RecordedMove)
        step = _advance(state, action, source, entry.number, number, max(moves, 1))
        if isinstance(action, RecordedMove) and step.reasons:
            _check_syntax(action.play, source, entry.number, number, moves)  # illegal, or damaged?
        canonical = _canonical(action, step)
        if canonical is not action:
            action, step = canonical, replace(step, action=canonical)
        actions.append(action)
        steps.append(step)
        lines.append(entry.number)
        state = step.after
    said: tuple[str, ...] = ()
    if claimed is not None:
        state, said = _claim(claimed, state, raw.score, actions, steps, (source, number, max(moves, 1)))
        lines += [claimed.number] * (len(steps) - len(lines))
    result = state.result
    game = RecordedGame(
        raw.score,
        tuple(actions),
        None if result is None else RecordedResult(result.winner, result.points, result.how == "resignation"),
    )
    warnings = [f"{source}: line {line}, game {number}, move {s.move}: {w}" for s, line in zip(steps, lines) for w in s.warnings]
    if claimed is not None:
        warnings += [f"{source}: line {claimed.number}, game {number}, move {max(moves, 1)}: {w}" for w in said]
    return game, GameReplay(number, raw.score, tuple(steps), start, state, tuple(warnings), tuple(lines))


def _check_syntax(play: str, source: str, line: int, game: int, move: int) -> None:
    """A play's text must be moves, however illegal; anything else is damage."""
    try:
        read_movement(play)
    except PlayError as exc:
        raise _fail(source, line, str(exc), game, move) from None


def _only_wins_follow(items: list[_Line], k: int) -> bool:
    rest = items[k + 1 :]
    return bool(rest) and all(isinstance(e.item, Wins) for e in rest)


def _action(item: Item, state: flow.Game, ends_game: bool) -> Action:
    """The record's action for a ``.mat`` item; fills cube values a dialect leaves out."""
    resigned_at_roll = ends_game and state.phase is not flow.Phase.OPENING
    if isinstance(item, RecordedMove) and not item.play and resigned_at_roll and legal_plays(state.position, item.dice):
        return RecordedRoll(item.player, item.dice)
    if isinstance(item, (RecordedBeaver, RecordedRaccoon)) and not item.cube:
        return replace(item, cube=state.offered * 2)
    return item  # type: ignore[return-value]


def _advance(state: flow.Game, action: Action, source: str, line: int, game: int, move: int) -> Step:
    try:
        return advance(state, action, move)
    except ReplayError as exc:
        error = _fail(source, line, exc.reason, game, move)
        if exc.illegal is not None:
            error.illegal = replace(exc.illegal, game=game, move=move)
        raise error from None


def _canonical(action: Action, step: Step) -> Action:
    if isinstance(action, RecordedMove) and step.play is not None:
        text = str(step.play)
        return action if text == action.play else replace(action, play=text)
    return action


def _claim(
    claimed: _Line, state: flow.Game, score: tuple[int, int], actions: list[Action], steps: list[Step], where: tuple[str, int, int]
) -> tuple[flow.Game, tuple[str, ...]]:
    """The state after a ``Wins`` line (the game's result, or a resignation)
    and warnings where the stated points are not what the rules give.

    The result is read as stated: on a game in play, ``Wins N`` is the
    loser's resignation of N points, and points no resignation gives (a
    match forfeit: Galaxy's ``Wins 4 point`` with the cube on 1, Studio's
    ``Wins 4016 point`` with the cube on 4) are kept with a warning; on a
    finished game, points other than the rules' (a gammon counted single in
    Galaxy's one-game matches, played with the Jacoby rule) are kept with a
    warning, except a claim capped at the match (``Wins 2 point and the
    match`` after a drop with the cube on 4: the points the winner needed),
    which keeps the rules' points, as GNU Backgammon does.  A winner other
    than the rules' is an error.
    """
    assert isinstance(claimed.item, Wins)
    source, game, move = where
    winner, points = claimed.item.player, claimed.item.points
    length = state.rules.match_length
    needed = length - score[winner] if length else 0
    if state.result is None:
        resign = RecordedResign(other(winner), points)
        step = _advance(state, resign, source, claimed.number, game, move)
        actions.append(resign)
        steps.append(step)
        state = step.after
    assert state.result is not None
    given = state.result.points
    if state.result.winner != winner:
        raise _fail(
            source,
            claimed.number,
            f"says player {winner} wins {points} point(s); the rules give player "
            f"{state.result.winner} {given} ({state.result.how})",
            game,
            move,
        )
    if given == points or 0 < needed <= min(points, given):
        return state, ()
    warning = f"says player {winner} wins {points} point(s), the rules give {given} ({state.result.how}): read as stated"
    return replace(state, result=replace(state.result, points=points)), (warning,)


# --- the writer ---------------------------------------------------------------------


def write_mat(match: RecordedMatch) -> str:
    """The match as GNU Backgammon exports it (``export match mat``).

    Raises :class:`MatError` for a game whose cube starts above 1 (automatic
    doubles): the format cannot say so (SGF can, with ``CV``)."""
    for number, game in enumerate(match.games, start=1):
        if game.cube != 1:
            raise MatError(
                f"game {number}: the cube starts at {game.cube} (automatic doubles), "
                "which a .mat file cannot say; write SGF"
            )
    done = replay(match, tolerant=True)  # a record is always written, as made
    out = [f'; [{key} "{value}"]' for key, value in match.tags]
    out += _rule_tags(match.rules)
    out += [f"; {line}" if line else ";" for line in match.comment.splitlines()]
    out += ["", f" {match.length} point match", ""]
    for game, game_replay in zip(match.games, done.games):
        out += _game_lines(match, game, game_replay)
    return "\n".join(out) + "\n"


def _rule_tags(rules: flow.Rules) -> list[str]:
    tags = [f'; [Crawford "{"On" if rules.crawford else "Off"}"]'] if rules.match_length else []
    if rules.jacoby:
        tags.append('; [Jacoby "On"]')
    if rules.beavers:
        tags.append('; [Beaver "On"]')
    if rules.raccoons:
        tags.append('; [Raccoons "On"]')
    if rules.max_cube != 64:
        tags.append(f'; [CubeLimit "{rules.max_cube}"]')
    if rules.automatic_doubles:
        tags.append(f'; [AutoDoubles "{rules.automatic_doubles}"]')
    return tags


class _Columns:
    """Lays out half-moves two to a numbered line, left player first."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.number = 0
        self.pending: str | None = None  # a left cell waiting for its right cell
        self.rolled = False  # the pending cell is a roll not played (GNU Backgammon's "set dice")

    def put(self, player: int, text: str, rolled: bool = False) -> None:
        if player == 0:
            self.flush()
            self.number += 1
            self.pending = f"{self.number:3d}) {text:<27s} "
            self.rolled = rolled
            return
        if self.pending is None:
            self.number += 1
            self.pending = f"{self.number:3d}) {'':<27s} "
        self.lines.append((self.pending + text).rstrip())
        self.pending = None

    def flush(self) -> None:
        if self.pending is not None:
            # GNU Backgammon keeps the padding; its importer needs it after "Takes".
            self.lines.append(self.pending)
            self.pending = None

    def result(self, winner: int, points: int) -> None:
        """The ``Wins`` line in the winner's column; as GNU Backgammon does, on
        the same line as a left cell still waiting for its right one."""
        text = f"Wins {points} point{'s' if points != 1 else ''}"
        if winner == 1 and self.pending is not None:
            self.put(1, text if self.rolled else " " + text)
            return
        self.flush()
        self.lines.append(" " * (6 if winner == 0 else 34) + text)


def _game_lines(match: RecordedMatch, game: RecordedGame, done: GameReplay) -> list[str]:
    head = f"{match.players[0]} : {game.score[0]}"
    lines = [f" Game {done.number}", f" {head:<31s}{match.players[1]} : {game.score[1]}"]
    columns = _Columns()
    for step in done.steps:
        text = _cell(step)
        if text is not None:
            columns.put(step.action.player, text, isinstance(step.action, RecordedRoll))
    if game.result is not None:
        columns.result(game.result.winner, game.result.points)
    columns.flush()
    if game.result is not None:
        columns.lines.append("")
    return lines + columns.lines


def _cell(step: Step) -> str | None:
    action = step.action
    if isinstance(action, RecordedMove):
        return f"{action.dice[0]}{action.dice[1]}: {_hops(step)}"
    if isinstance(action, RecordedRoll):
        # GNU Backgammon writes the bare roll, which its own importer takes
        # for a dance or, when only one play is possible, for that play;
        # "????" (as eXtreme Gammon and Backgammon Studio write) it reads as
        # dice set before a resignation, and so do we.
        return f"{action.dice[0]}{action.dice[1]}: ????"
    if isinstance(action, RecordedDouble):
        return f" Doubles => {action.cube}"
    if isinstance(action, RecordedBeaver):
        return f" Beavers => {action.cube}"
    if isinstance(action, RecordedRaccoon):
        return f" Raccoons => {action.cube}"
    if isinstance(action, RecordedTake):
        return " Takes"
    if isinstance(action, RecordedDrop):
        return " Drops"
    return None  # a resignation shows as its Wins line


def _hops(step: Step) -> str:
    """One hop per die, bar 25 and off 0, as GNU Backgammon writes a play."""
    assert isinstance(step.action, RecordedMove)
    if step.play is None:
        return step.action.play
    hops = sorted(step.play.hops, key=lambda h: (h.src, h.dst), reverse=True)
    return " ".join(f"{h.src}/{h.dst}{'*' if h.hit else ''}" for h in hops)

