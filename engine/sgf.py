"""GNU Backgammon's SGF (``GM[6]``): write a match record, read one back.

References: the SGF backgammon spec (red-bean.com/sgf/backgammon.html) and GNU
Backgammon's ``sgf.c``.  One game tree per game.  Root: ``FF[4]GM[6]CA[UTF-8]
AP[…]MI[length:L][game:k][ws:n][bs:n]PW[…]PB[…]RU[…]RE[…]``.  White is player 0
(the first-listed player), Black player 1.  A point is a letter: White's
points 1-24 are ``a``-``x`` in White's numbering (so Black's point n is
``'x' - (n - 1)``), ``y`` is the bar, ``z`` off.  ``;W[31hefe]`` is White's 31:
8/5 6/5, ``;B[66]`` a roll that could not be played, ``;W[double]``,
``;B[take]``, ``;B[drop]``, ``;B[beaver]``, ``;W[raccoon]``; ``RE[W+2]``, and
``RE[B+2R]`` when the loser resigned.  ``C[…]`` holds a comment.

Beyond what GNU Backgammon writes (and ignores on reading): ``;PL[W]DI[65]``
is a roll at which the player resigned before playing; ``MI`` also carries
``[beavers:1]``, ``[raccoons:1]``, ``[maxcube:N]``; ``BT[key:value]`` keeps a
``.mat`` file's header tags; ``GC`` the match comment; ``PT[…]`` the text of an
illegal play accepted as made.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from . import game as flow
from .plays import Play, PlayError
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
    game_start,
    read_movement,
    replay,
    start_match,
)

_COLOURS = ("W", "B")
_CUBE_WORDS = ("double", "take", "drop", "beaver", "raccoon")


class SgfError(RecordError):
    """An SGF text that cannot be read; names the file, game and move."""


# --- writing ------------------------------------------------------------------------


def write_sgf(match: RecordedMatch, application: str = "bgref") -> str:
    """The match as SGF game trees, one per game."""
    done = replay(match, tolerant=True)  # a record is always written, as made
    trees = [_tree(match, g, r, application) for g, r in zip(match.games, done.games)]
    return "\n".join(trees) + "\n"


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _prop(name: str, *values: str) -> str:
    return name + "".join(f"[{_escape(v)}]" for v in values)


def _tree(match: RecordedMatch, game: RecordedGame, done: GameReplay, application: str) -> str:
    nodes = [";" + "".join(_root(match, game, done, application))]
    for step in done.steps:
        node = _node(step)
        if node:
            nodes.append(";" + node + (_prop("C", step.action.comment) if step.action.comment else ""))
    return "(" + "\n".join(nodes) + ")"


def _root(match: RecordedMatch, game: RecordedGame, done: GameReplay, application: str) -> list[str]:
    rules = match.rules
    info = [f"length:{match.length}", f"game:{done.number - 1}", f"ws:{game.score[0]}", f"bs:{game.score[1]}"]
    if rules.beavers:
        info.append("beavers:1")
    if rules.raccoons:
        info.append("raccoons:1")
    if rules.max_cube != 64:
        info.append(f"maxcube:{rules.max_cube}")
    if rules.automatic_doubles:
        info.append(f"autodoubles:{rules.automatic_doubles}")
    props = [_prop("FF", "4"), _prop("GM", "6"), _prop("CA", "UTF-8"), _prop("AP", application)]
    props += [_prop("MI", *info), _prop("PW", match.players[0]), _prop("PB", match.players[1])]
    rule = _rule_text(rules, done.start.crawford)
    if rule:
        props.append(_prop("RU", rule))
    if game.cube != 1:
        props.append(_prop("CV", str(game.cube)))
    if game.result is not None:
        r = game.result
        props.append(_prop("RE", f"{_COLOURS[r.winner]}+{r.points}{'R' if r.resigned else ''}"))
    if match.tags:
        props.append(_prop("BT", *(f"{k}:{v}" for k, v in match.tags)))
    if match.comment and done.number == 1:
        props.append(_prop("GC", match.comment))
    if game.comment:
        props.append(_prop("C", game.comment))
    return props


def _rule_text(rules: flow.Rules, crawford_game: bool) -> str:
    if rules.match_length:
        if not rules.crawford:
            return ""
        return "Crawford:CrawfordGame" if crawford_game else "Crawford"
    return "Jacoby" if rules.jacoby else ""


def _node(step: Step) -> str:
    action = step.action
    colour = _COLOURS[action.player]
    if isinstance(action, RecordedMove):
        dice = f"{action.dice[0]}{action.dice[1]}"
        if step.play is None:
            return f"{colour}[{dice}{_path_letters(action.player, action.play)}]" + _prop("PT", action.play)
        return f"{colour}[{dice}{_hop_letters(action.player, step.play)}]"
    if isinstance(action, RecordedRoll):
        return f"PL[{colour}]DI[{action.dice[0]}{action.dice[1]}]"
    if isinstance(action, RecordedResign):
        return ""  # the result says it: RE[…R]
    word = {RecordedDouble: "double", RecordedTake: "take", RecordedDrop: "drop", RecordedBeaver: "beaver", RecordedRaccoon: "raccoon"}[type(action)]
    return f"{colour}[{word}]"


def _letter(player: int, point: int) -> str:
    if point == 25:
        return "y"
    if point == 0:
        return "z"
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("x") - (point - 1))


def _point(player: int, letter: str) -> int:
    if letter == "y":
        return 25
    if letter == "z":
        return 0
    if not "a" <= letter <= "x":
        raise ValueError(f"{letter!r} is not a point letter (a-x, y bar, z off)")
    return ord(letter) - ord("a") + 1 if player == 0 else ord("x") - ord(letter) + 1


def _hop_letters(player: int, play: Play) -> str:
    hops = sorted(play.hops, key=lambda h: (h.src, h.dst), reverse=True)
    return "".join(_letter(player, h.src) + _letter(player, h.dst) for h in hops)


def _path_letters(player: int, text: str) -> str:
    """From/to letters of a written (illegal) play, one pair per checker, in
    any direction (``PT`` keeps the text itself); none when it is not moves."""
    try:
        movement = read_movement(text)
    except PlayError:
        return ""
    return "".join((_letter(player, src) + _letter(player, dst)) * count for src, dst, _, count in movement)


# --- parsing SGF syntax ----------------------------------------------------------------


Node = dict[str, list[str]]

_PROP = re.compile(r"\s*([A-Za-z]+)\s*")


@dataclass
class _Cursor:
    text: str
    at: int = 0

    def skip(self) -> None:
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1

    def line(self) -> int:
        """The line the cursor is on, from 1."""
        return self.text.count("\n", 0, self.at) + 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.at] if self.at < len(self.text) else ""


def parse_trees(text: str) -> list[list[Node]]:
    """The main line of each game tree in an SGF collection, as lists of nodes
    (property name -> values).  Variations other than the first are skipped."""
    cur = _Cursor(text.lstrip("\ufeff"))
    trees = []
    while cur.peek() == "(":
        trees.append(_tree_nodes(cur))
    if cur.peek():
        raise SgfError(f"line {cur.line()}: unexpected {cur.peek()!r}")
    return trees


def _tree_nodes(cur: _Cursor) -> list[Node]:
    cur.at += 1  # "("
    nodes: list[Node] = []
    while cur.peek() == ";":
        cur.at += 1
        nodes.append(_node_props(cur))
    first = True
    while cur.peek() == "(":
        sub = _tree_nodes(cur)
        if first:
            nodes += sub
            first = False
    if cur.peek() != ")":
        raise SgfError(f"line {cur.line()}: expected ')'")
    cur.at += 1
    return nodes


def _node_props(cur: _Cursor) -> Node:
    node: Node = {}
    while True:
        found = _PROP.match(cur.text, cur.at)
        if not found or cur.text[found.end() : found.end() + 1] != "[":
            return node
        name = "".join(c for c in found.group(1) if c.isupper())
        cur.at = found.end()
        values = node.setdefault(name, [])
        while cur.peek() == "[":
            values.append(_value(cur))


def _value(cur: _Cursor) -> str:
    cur.at += 1  # "["
    out = []
    text = cur.text
    while cur.at < len(text) and text[cur.at] != "]":
        if text[cur.at] == "\\" and cur.at + 1 < len(text):
            cur.at += 1
        out.append(text[cur.at])
        cur.at += 1
    if cur.at >= len(text):
        raise SgfError(f"line {cur.line()}: a property value is not closed with ']'")
    cur.at += 1
    return "".join(out)


# --- reading ------------------------------------------------------------------------------


def read_sgf(text: str, source: str = "<sgf>") -> RecordedMatch:
    """The match in an SGF text (GNU Backgammon's or ours)."""
    return read_sgf_replay(text, source).match


def read_sgf_replay(text: str, source: str = "<sgf>") -> MatchReplay:
    """The match in an SGF text with its replay."""
    try:
        trees = parse_trees(text)
    except SgfError as exc:
        raise SgfError(f"{source}: {exc}") from None
    if not trees:
        raise SgfError(f"{source}: no game tree")
    root = trees[0][0]
    rules = _rules(trees, source)
    state = start_match(rules, [RecordedGame(_score(trees[0][0], source, 1), ())])
    games: list[RecordedGame] = []
    replays: list[GameReplay] = []
    for number, nodes in enumerate(trees, start=1):
        score = _score(nodes[0], source, number)
        try:
            check_score(state, score, number)
        except ReplayError as exc:
            raise SgfError(f"{source}: {exc}") from None
        assert state.game is not None
        try:
            game, done = _read_game(nodes, state.game, number, score, source)
        except SgfError as exc:
            exc.players = (_one(root, "PW", "White"), _one(root, "PB", "Black"))
            raise
        games.append(game)
        replays.append(done)
        state = finish_game(state, done, number)
    players = (_one(root, "PW", "White"), _one(root, "PB", "Black"))
    tags = tuple(tuple(v.split(":", 1)) for v in root.get("BT", []) if ":" in v)
    match = RecordedMatch(players, rules, tuple(games), tags, _one(root, "GC", ""))  # type: ignore[arg-type]
    return MatchReplay(match, tuple(replays), tuple(w for g in replays for w in g.warnings))


def _one(node: Node, name: str, default: str) -> str:
    values = node.get(name)
    return values[0] if values else default


def _info(node: Node) -> dict[str, str]:
    return dict(v.split(":", 1) for v in node.get("MI", []) if ":" in v)


def _rules(trees: list[list[Node]], source: str) -> flow.Rules:
    root = trees[0][0]
    info = _info(root)
    try:
        length = int(info.get("length", "0"))
        rule_words = {_one(t[0], "RU", "") for t in trees}
        beavers = info.get("beavers") == "1"
        return flow.Rules(
            match_length=length,
            crawford=bool(length) and any(w.startswith("Crawford") for w in rule_words),
            jacoby=not length and "Jacoby" in rule_words,
            beavers=beavers,
            raccoons=beavers and info.get("raccoons") == "1",
            max_cube=int(info.get("maxcube", "64")),
            automatic_doubles=int(info.get("autodoubles", "0")),
        )
    except ValueError as exc:
        raise SgfError(f"{source}: game 1: the rules cannot be read: {exc}") from None


def _score(root: Node, source: str, number: int) -> tuple[int, int]:
    info = _info(root)
    try:
        return int(info.get("ws", "0")), int(info.get("bs", "0"))
    except ValueError:
        raise SgfError(f"{source}: game {number}: the score in MI cannot be read") from None


def _read_game(
    nodes: list[Node], start: flow.Game, number: int, score: tuple[int, int], source: str
) -> tuple[RecordedGame, GameReplay]:
    cube = _start_cube(nodes[0], source, number)
    try:
        state = start = game_start(start, cube, number)
    except ReplayError as exc:
        raise SgfError(f"{source}: {exc}") from None
    actions: list[Action] = []
    steps: list[Step] = []
    moves = 0
    for node in nodes[1:]:
        action = _action(node, state, source, number, moves + 1)
        if action is None:
            continue
        moves += isinstance(action, RecordedMove)
        try:
            step = advance(state, action, max(moves, 1))
        except ReplayError as exc:
            error = SgfError(f"{source}: game {number}, move {exc.move}: {exc.reason}")
            if exc.illegal is not None:
                error.illegal = replace(exc.illegal, game=number)
            raise error from None
        if isinstance(action, RecordedMove) and step.play is not None:
            action = replace(action, play=str(step.play))
            step = replace(step, action=action)
        actions.append(action)
        steps.append(step)
        state = step.after
    state, said = _finish(nodes[0], state, actions, steps, (source, number, max(moves, 1)))
    warnings = [f"{source}: game {number}, move {s.move}: {w}" for s in steps for w in s.warnings] + list(said)
    result = state.result
    game = RecordedGame(
        score,
        tuple(actions),
        None if result is None else RecordedResult(result.winner, result.points, result.how == "resignation"),
        _one(nodes[0], "C", ""),
        cube,
    )
    return game, GameReplay(number, score, tuple(steps), start, state, tuple(warnings))


def _start_cube(root: Node, source: str, number: int) -> int:
    """The cube's value at the start of a game (``CV``, automatic doubles)."""
    text = _one(root, "CV", "1").strip()
    if not text.isdigit():
        raise SgfError(f"{source}: game {number}: CV[{text}] is not a cube value")
    return int(text)


def _action(node: Node, state: flow.Game, source: str, game: int, move: int) -> Action | None:
    comment = _one(node, "C", "")
    for player, colour in enumerate(_COLOURS):
        if colour in node:
            return _move_or_cube(node[colour][0] if node[colour] else "", player, state, comment, (source, game, move), node)
    if "DI" in node and "PL" in node:
        colour = _one(node, "PL", "").strip().upper()
        if colour not in _COLOURS:
            raise SgfError(f"{source}: game {game}, move {move}: PL[{colour}] is not W or B")
        return RecordedRoll(_COLOURS.index(colour), _dice(_one(node, "DI", ""), (source, game, move)), comment)
    return None


def _move_or_cube(
    value: str, player: int, state: flow.Game, comment: str, where: tuple[str, int, int], node: Node
) -> Action:
    word = value.strip().lower()
    if word in _CUBE_WORDS:
        return _cube_action(word, player, state, comment)
    dice = _dice(value[:2], where)
    if "PT" in node:
        text = _one(node, "PT", "")
        try:
            read_movement(text)
        except PlayError as exc:
            raise SgfError(f"{where[0]}: game {where[1]}, move {where[2]}: PT[{text}]: {exc}") from None
        return RecordedMove(player, dice, text, comment)
    letters = value[2:]
    if len(letters) % 2:
        raise SgfError(f"{where[0]}: game {where[1]}, move {where[2]}: {value!r} has an odd number of point letters")
    try:
        hops = [f"{_point(player, letters[i])}/{_point(player, letters[i + 1])}" for i in range(0, len(letters), 2)]
    except ValueError as exc:
        raise SgfError(f"{where[0]}: game {where[1]}, move {where[2]}: {exc}") from None
    return RecordedMove(player, dice, " ".join(hops), comment)


def _cube_action(word: str, player: int, state: flow.Game, comment: str) -> Action:
    """The cube action a node names; the cube value follows from the game."""
    if word == "double":
        return RecordedDouble(player, state.cube * 2, comment)
    if word == "beaver":
        return RecordedBeaver(player, state.offered * 2, comment)
    if word == "raccoon":
        return RecordedRaccoon(player, state.offered * 2, comment)
    return RecordedTake(player, comment) if word == "take" else RecordedDrop(player, comment)


def _dice(text: str, where: tuple[str, int, int]) -> tuple[int, int]:
    if len(text) == 2 and all(c in "123456" for c in text):
        return int(text[0]), int(text[1])
    raise SgfError(f"{where[0]}: game {where[1]}, move {where[2]}: {text!r} is not a roll like 31")


def _finish(
    root: Node, state: flow.Game, actions: list[Action], steps: list[Step], where: tuple[str, int, int]
) -> tuple[flow.Game, tuple[str, ...]]:
    """Check the game's ``RE`` against the replay; a resignation becomes an
    action.  Warnings where the stated points are not the rules'."""
    source, game, move = where
    said = _one(root, "RE", "")
    if not said:
        return state, ()
    found = re.fullmatch(r"([WB])\+(\d+)(R?)", said.strip(), re.IGNORECASE)
    if not found:
        raise SgfError(f"{source}: game {game}: cannot read the result RE[{said}]")
    winner = _COLOURS.index(found.group(1).upper())
    points = int(found.group(2))
    if state.result is None and found.group(3):
        resign = RecordedResign(other(winner), points)
        try:
            step = advance(state, resign, move)
        except ReplayError as exc:
            raise SgfError(f"{source}: game {game}, move {move}: {exc.reason}") from None
        actions.append(resign)
        steps.append(step)
        state = step.after
    got = state.result
    if got is None or got.winner != winner:
        given = "no result" if got is None else f"{_COLOURS[got.winner]}+{got.points} ({got.how})"
        raise SgfError(f"{source}: game {game}, move {move}: RE[{said}], but the rules give {given}")
    if got.points == points:
        return state, ()
    # As the .mat reader: the result as stated (a forfeit, a gammon counted single).
    warning = f"{source}: game {game}, move {move}: RE[{said}], the rules give {got.points} ({got.how}): read as stated"
    return replace(state, result=replace(got, points=points)), (warning,)
