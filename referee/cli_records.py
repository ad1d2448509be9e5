"""`bgref check-match`, `bgref convert` and `bgref show`: match records on the command line.

Files ending in ``.sgf`` are GNU Backgammon SGF; anything else is read as a
``.mat`` text match.  Errors go to stderr as one line naming the file (and the
line, game and move where known); warnings (a result read as stated where the
rules give another, a play the board cannot follow, a game with no result) go
to stderr too, each ``bgref check-match: warning: …``.

Exit status of ``check-match``: 1 when any file has an illegal play or cannot
be read (damaged: the message names the line); else 3 when any file's last
game has no result (a file cut short, a match still in play); else 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from engine.game import Game as GameState
from engine.mat import read_mat_replay, write_mat
from engine.position import board_diagram
from engine.record import IllegalPlay, RecordedMatch, RecordedMove, RecordError
from engine.replay import GameReplay, MatchReplay, Step, identifiers
from engine.sgf import read_sgf_replay, write_sgf


def register(subparsers: Any) -> None:
    """Add the record subcommands to the `bgref` parser."""
    check = subparsers.add_parser(
        "check-match",
        help="replay match files and report illegal plays",
        epilog="exit status: 0 all read and legal; 1 an illegal play or a damaged file (the message names the line); "
        "3 a file's last game has no result (cut short, or still in play). See docs/records.md.",
    )
    check.add_argument("--json", action="store_true", help="one JSON line per file")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.set_defaults(func=check_match)
    convert = subparsers.add_parser("convert", help="convert a match between .mat and SGF")
    convert.add_argument("source", metavar="IN")
    convert.add_argument("target", metavar="OUT")
    convert.set_defaults(func=convert_match)
    show = subparsers.add_parser("show", help="print a position of a match with its IDs")
    show.add_argument("file", metavar="FILE")
    show.add_argument("--game", type=int, help="game number (default: the last)")
    show.add_argument("--move", type=int, help="move number: the position before it (default: the game's end)")
    show.set_defaults(func=show_position)


def load(path: str) -> MatchReplay:
    """Read and replay a match file; RecordError or OSError on failure.

    Text is UTF-8 (a byte-order mark is skipped); older programs' files in a
    single-byte code page are read as Latin-1 rather than refused."""
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    if path.lower().endswith(".sgf"):
        return read_sgf_replay(text, path)
    return read_mat_replay(text, path)


def _error(command: str, message: str) -> None:
    print(f"bgref {command}: {message}", file=sys.stderr)


# --- check-match -------------------------------------------------------------------


def check_match(args: argparse.Namespace) -> int:
    """Replay each file; exit 1 when any has an illegal play or cannot be read."""
    return run_check(args.files, args.json, sys.stdout)


UNFINISHED = 3  # exit status: a game has no result (and nothing worse)


def run_check(paths: list[str], as_json: bool, out: TextIO) -> int:
    failed = unfinished = False
    for path in paths:
        try:
            done = load(path)
        except (RecordError, OSError) as exc:
            failed = True
            message = _reason(path, exc)
            _error("check-match", message)
            if as_json:
                illegal = [_illegal_json(exc.illegal, exc.players)] if isinstance(exc, RecordError) and exc.illegal else []
                out.write(json.dumps({"file": path, "error": message, "games": [], "illegal": illegal, "warnings": []}) + "\n")
            continue
        report = match_report(path, done)
        failed |= bool(report["illegal"])
        unfinished |= not report["finished"]
        out.write((json.dumps(report) if as_json else _summary(report, done)) + "\n")
        for warning in report["warnings"]:
            _error("check-match", f"warning: {warning}")
        for game, step in done.illegal():
            _error("check-match", _illegal_message(path, game, step))
    out.flush()
    return 1 if failed else UNFINISHED if unfinished else 0


def _illegal_message(path: str, game: GameReplay, step: Step) -> str:
    """One line naming the file, line (when known), game and move of an illegal play."""
    line = game.line_of(step)
    where = f" on line {line}" if line is not None else ""
    play = step.action.play if isinstance(step.action, RecordedMove) else ""
    return f"{path}: game {game.number}, move {step.move}: illegal play {play!r}{where}: " + "; ".join(step.reasons)


def _reason(path: str, exc: Exception) -> str:
    if isinstance(exc, RecordError):
        return str(exc)
    return f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}"


def _illegal_json(illegal: IllegalPlay, names: tuple[str, str] | None) -> dict[str, Any]:
    """An illegal play in the report's form (the player by number when the
    names are unknown, as for a file that could not be read to the end)."""
    return {
        "game": illegal.game,
        "move": illegal.move,
        "player": names[illegal.player] if names else illegal.player,
        "play": illegal.play,
        "reasons": list(illegal.reasons),
    }


def match_report(path: str, done: MatchReplay) -> dict[str, Any]:
    """The JSON report of a replayed match (the `check-match --json` contract)."""
    names = done.match.players
    games = [_game_report(g, names) for g in done.games]
    illegal = [
        {
            "game": g.number,
            "move": s.move,
            "player": names[s.action.player],
            "play": s.action.play if isinstance(s.action, RecordedMove) else "",
            "reasons": list(s.reasons),
        }
        for g, s in done.illegal()
    ]
    warnings = list(done.warnings)
    games_played = done.match.games
    finished = bool(games_played) and games_played[-1].result is not None
    if not games_played:
        warnings.append(f"{path}: the match has no game")
    elif not finished:
        warnings.append(
            f"{path}: game {len(games_played)} has no result: the record stops during the game (a file cut short?)"
        )
    return {"file": path, "games": games, "illegal": illegal, "warnings": warnings, "finished": finished}


def _game_report(game: GameReplay, names: tuple[str, str]) -> dict[str, Any]:
    plays = []
    for step in game.moves():
        action = step.action
        assert isinstance(action, RecordedMove)
        plays.append(
            {
                "player": names[action.player],
                "dice": list(action.dice),
                "play": action.play,
                "position_id": step.before.position.id(),
            }
        )
    result = game.result
    return {
        "plays": plays,
        "winner": names[result.winner] if result else None,
        "points": result.points if result else 0,
        "resigned": result.resigned if result else False,
    }


def _summary(report: dict[str, Any], done: MatchReplay) -> str:
    match = done.match
    plays = sum(len(g["plays"]) for g in report["games"])
    score = match.final_score()
    kind = "money session" if match.is_money else f"{match.length}-point match"
    games = len(report["games"])
    line = (
        f"{report['file']}: {kind}, {games} game{'s' if games != 1 else ''}, {plays} plays, "
        f"final score {match.players[0]} {score[0]} - {match.players[1]} {score[1]}"
    )
    if not report["finished"]:
        line += ", the last game unfinished"
    if not report["illegal"]:
        return line + ", no illegal play"
    rows = [line + f", {len(report['illegal'])} illegal play(s):"]
    for item in report["illegal"]:
        rows.append(
            f"  game {item['game']}, move {item['move']}: {item['player']} played {item['play']!r}: "
            + "; ".join(item["reasons"])
        )
    return "\n".join(rows)


# --- convert -----------------------------------------------------------------------------


def convert_match(args: argparse.Namespace) -> int:
    """Write IN as OUT, the format chosen by OUT's extension (.sgf or .mat)."""
    try:
        match = load(args.source).match
        text = write_sgf(match) if args.target.lower().endswith(".sgf") else write_mat(match)
        Path(args.target).write_text(text, encoding="utf-8")
    except (RecordError, OSError) as exc:
        _error("convert", _reason(args.source, exc))
        return 1
    return 0


# --- show --------------------------------------------------------------------------------


def show_position(args: argparse.Namespace) -> int:
    """Print a position of a match as a text board with its IDs."""
    try:
        done = load(args.file)
        text = position_text(done, args.game, args.move)
    except (RecordError, OSError) as exc:
        _error("show", _reason(args.file, exc))
        return 1
    except LookupError as exc:
        _error("show", f"{args.file}: {exc.args[0]}")
        return 1
    print(text)
    return 0


def position_text(done: MatchReplay, game_number: int | None, move: int | None) -> str:
    """The board before move ``move`` of game ``game_number`` (defaults: the
    last game, its end) with Position ID, Match ID and XGID."""
    if not done.games:
        raise LookupError("the match has no games")
    number = len(done.games) if game_number is None else game_number
    if not 1 <= number <= len(done.games):
        raise LookupError(f"there is no game {number} (games 1-{len(done.games)})")
    game = done.games[number - 1]
    state, heading = _state_at(game, move, done.match)
    names = done.match.players
    mover = state.on_roll
    _, match_text, xgid_text = identifiers(state, game.score)
    lines = [
        heading,
        board_diagram(state.position, "X", "O"),
        f" X = {names[mover]}, O = {names[1 - mover]}; cube {state.cube}"
        + ("" if state.cube_owner is None else f" owned by {names[state.cube_owner]}"),
        f" Match ID: {match_text}",
        f" {xgid_text}",
    ]
    return "\n".join(lines)


def _state_at(game: GameReplay, move: int | None, match: RecordedMatch) -> tuple[GameState, str]:
    names = match.players
    moves = game.moves()
    if move is None:
        return game.end, f"Game {game.number}, after the last action"
    if not 1 <= move <= len(moves):
        raise LookupError(f"game {game.number} has no move {move} (moves 1-{len(moves)})")
    step = moves[move - 1]
    action = step.action
    assert isinstance(action, RecordedMove)
    return step.before, (
        f"Game {game.number}, move {move}: {names[action.player]} to play "
        f"{action.dice[0]}{action.dice[1]} (played {action.play or 'no move'!s})"
    )
