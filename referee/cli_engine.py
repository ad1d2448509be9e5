"""`bgref plays` and `bgref judge`: legal plays and judgement of a play, as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, TextIO

from engine.judge import Verdict, judge
from engine.plays import Play, PlayError, legal_plays
from engine.position import Position, PositionError, decode_id_sides

Handler = Callable[[dict[str, Any]], dict[str, Any]]


def register(subparsers: Any) -> None:
    """Add the engine's subcommands to the `bgref` parser."""
    plays = subparsers.add_parser("plays", help="list every legal play of a roll (JSON)")
    _common(plays)
    plays.set_defaults(func=lambda args: _run(args, plays_request))
    judge_cmd = subparsers.add_parser("judge", help="judge a play seen on the board (JSON)")
    _common(judge_cmd)
    judge_cmd.add_argument("--after-id", help="Position ID seen after the play, opponent on roll")
    judge_cmd.set_defaults(func=lambda args: _run(args, judge_request))


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--position-id", help="GNU Backgammon Position ID, player to move on roll")
    parser.add_argument("--dice", help="the roll, e.g. 6-1")
    parser.add_argument("--jsonl", action="store_true", help="read one JSON request per stdin line")


class RequestError(ValueError):
    """A request that names no valid position or dice."""


def parse_dice(value: Any) -> tuple[int, int]:
    """Dice from ``"6-1"``, ``"61"``, ``"6,1"`` or ``[6, 1]``."""
    if isinstance(value, str):
        digits = [c for c in value if c not in "-, /"]
        if len(digits) == 2 and all(c in "123456" for c in digits):
            return int(digits[0]), int(digits[1])
    elif isinstance(value, (list, tuple)) and len(value) == 2 and all(type(d) is int and 1 <= d <= 6 for d in value):
        return value[0], value[1]
    raise RequestError(f"dice {value!r} should be two numbers 1-6, like 6-1")


def _position(value: Any, name: str) -> Position:
    if not isinstance(value, str):
        raise RequestError(f"{name} is missing (a 14-character GNU Backgammon Position ID)")
    try:
        return Position.from_id(value)
    except PositionError as exc:
        raise RequestError(f"{name}: {exc}") from None


def _play_json(play: Play) -> dict[str, Any]:
    return {"play": str(play), "after_id": play.after.swap().id()}


def plays_request(request: dict[str, Any]) -> dict[str, Any]:
    """Answer a plays request: every legal play and the Position ID after it."""
    position = _position(request.get("position_id"), "position_id")
    dice = parse_dice(request.get("dice"))
    return {"plays": [_play_json(p) for p in legal_plays(position, dice)]}


def judge_request(request: dict[str, Any]) -> dict[str, Any]:
    """Answer a judge request: legal or not, why, where, and the closest plays."""
    position = _position(request.get("position_id"), "position_id")
    dice = parse_dice(request.get("dice"))
    after_id = request.get("after_id")
    if not isinstance(after_id, str):
        raise RequestError("after_id is missing (the Position ID seen after the play, opponent on roll)")
    try:
        mover, opponent = decode_id_sides(after_id)  # (not on roll, on roll) = (mover, opponent)
    except PositionError as exc:
        raise RequestError(f"after_id: {exc}") from None
    return verdict_json(judge(position, dice, (mover, opponent)))


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    """A verdict in the CLI's JSON form (points in the mover's numbering, 25 = bar, 0 = off)."""
    return {
        "legal": verdict.legal,
        "play": str(verdict.play) if verdict.play is not None else None,
        "reasons": [r.text for r in verdict.reasons],
        "points": list(verdict.points),
        "closest": [_play_json(p) for p in verdict.closest],
        "faults": [{"fault": r.fault.name.lower(), "text": r.text, "points": list(r.points)} for r in verdict.reasons],
    }


def _run(args: argparse.Namespace, handler: Handler) -> int:
    if args.jsonl:
        return _run_lines(handler, sys.stdin, sys.stdout)
    request: dict[str, Any] = {"position_id": args.position_id, "dice": args.dice}
    if hasattr(args, "after_id"):
        request["after_id"] = args.after_id
    try:
        answer = handler(request)
    except (RequestError, PlayError) as exc:
        print(f"bgref: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(answer))
    return 0


def _run_lines(handler: Handler, source: TextIO, sink: TextIO) -> int:
    """One answer line per request line; a bad line answers {"error": …} and the rest go on."""
    failed = False
    for number, line in enumerate(source, start=1):
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise RequestError("each line must be a JSON object")
            answer = handler(request)
        except json.JSONDecodeError as exc:
            answer, failed = {"error": f"line {number}: not JSON ({exc.msg})"}, True
        except (RequestError, PlayError) as exc:
            answer, failed = {"error": f"line {number}: {exc}"}, True
        sink.write(json.dumps(answer) + "\n")
    sink.flush()
    return 1 if failed else 0
