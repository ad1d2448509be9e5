"""Scripted recordings of a whole game as the camera reports it: a stream of
board readings (``docs/board-spec.md``) with hands passing over the board,
and the irregularities a referee must catch.

Randomness is injected, so a seed gives the same recording.  The bundled demo
recording (``referee/data/demo-game.jsonl``) is made by
``python -m referee.recording --seed 7 -o referee/data/demo-game.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from engine import Position, legal_plays
from engine.board import Board
from engine.colour import COLOURS
from engine.plays import Hop, apply_hops



@dataclass
class Script:
    """What to inject into a recorded game, by turn number (0 = the opening play)."""

    cocked_die_turn: int = 2
    wrong_die_turn: int = 5  # an illegal play, then corrected
    one_die_turn: int = 8  # an illegal play (one die only), accepted by the opponent rolling
    double_turn: int = 11  # the player on roll doubles, the opponent takes
    out_of_turn_turn: int = 6  # the wrong player rolls first; the roll does not count
    bar_not_entered: bool = True  # the first time a player is on the bar, they move another checker first
    equal_opening: bool = True
    wrong_half_turn: int = -1  # one die rolls over the bar into the opponent's half; rolled again
    wrong_half_both_turn: int = -1  # both dice roll into the opponent's half (the roller's hand seen throwing); rolled again
    moved_before_roll_turn: int = -1  # the roller moves a checker before rolling, then puts it back and plays
    early_roll_turn: int = -1  # the opponent rolls before the mover picked up the dice; void, rolled again
    dark_right_half: str = "home"
    events: list[str] = field(default_factory=list)  # what was injected, for tests
    fouls: list[tuple[str, str, int]] = field(default_factory=list)  # (call kind, offender, turn) injected
    played: list[tuple[str, tuple[int, int], Position, bool]] = field(default_factory=list)  # (player, dice, after, accepted illegal)

    @classmethod
    def clean(cls, **kw: Any) -> Script:
        """A game with no irregularity at all (no equal opening roll, no double)."""
        off = dict(cocked_die_turn=-1, wrong_die_turn=-1, one_die_turn=-1, double_turn=-1, out_of_turn_turn=-1,
                   bar_not_entered=False, equal_opening=False)
        return cls(**{**off, **kw})


def _half(script: Script, player: int) -> str:
    if player == 0:
        return script.dark_right_half
    return "outer" if script.dark_right_half == "home" else "home"


# The points a hand reaching in from a player's seat hides first: those along that player's own edge of the
# table (each player sits behind their home and outer boards, dark's points 1-12, light's 13-24 in dark's numbers).
HAND_HIDES = (("point:5", "point:6", "point:7"), ("point:18", "point:19", "point:20"))


def _reading(board: Board, dice: list[dict[str, Any]] | None = None, cube: tuple[int, str] = (1, "centre"),
             hands: tuple[int, ...] = ()) -> dict[str, Any]:
    reading = board.to_reading()
    reading["dice"] = [{k: v for k, v in d.items() if k != "xy"} for d in dice or []]
    if any("xy" in d for d in dice or []):
        reading["image"] = {"dice_mm": [d.get("xy") for d in dice or []]}
    reading["cube"] = {"value": cube[0], "position": cube[1]}
    if hands:
        reading["occluded"] = [place for player in sorted(set(hands)) for place in HAND_HIDES[player]]
    return reading


def _die(value: int, half: str, flat: bool = True) -> dict[str, Any]:
    return {"value": value, "flat": flat, "half": half}


def _spot(throw: int, index: int) -> list[float]:
    """Where a die of a throw lies (mm): a new place each throw, the same while it lies."""
    return [60.0 + (throw * 37 + index * 91) % 300, 40.0 + (throw * 53 + index * 29) % 220]


def record_game(rng: random.Random, script: Script | None = None) -> Iterator[dict[str, Any]]:
    """Readings of one whole game, in time order, each as ``{"t": s, "reading": …}``."""
    script = script or Script()
    t = 0.0
    cube = (1, "centre")

    def emit(board: Board, dice: list[dict[str, Any]] | None = None, hands: tuple[int, ...] = (), dt: float = 1.5) -> dict[str, Any]:
        """A reading; ``hands``: the players whose hand is over the board (the reading is then occluded)."""
        nonlocal t
        t += dt
        item = {"t": round(t, 2), "reading": _reading(board, dice, cube, hands)}
        if hands:
            item["hands"] = [COLOURS[p] for p in sorted(set(hands))]  # whose arm is over the board (footage draws it from their seat)
        return item

    throws = 0

    def thrown(*dice: dict[str, Any]) -> list[dict[str, Any]]:
        """Dice just thrown: they land in new places."""
        nonlocal throws
        throws += 1
        return lying(*dice)

    def lying(*dice: dict[str, Any]) -> list[dict[str, Any]]:
        """The dice of the last throw, where they lie."""
        return [dict(d, xy=_spot(throws, i)) for i, d in enumerate(dice)]

    position = Position.start()
    board = Board.from_position(position, 0)
    yield emit(board)
    yield emit(board, hands=(0, 1), dt=0.5)  # hands reach for the dice
    if script.equal_opening:
        yield emit(board, thrown(_die(4, _half(script, 0)), _die(4, _half(script, 1))))
        yield emit(board, hands=(0, 1), dt=0.5)
        script.events.append("equal opening dice")
    while True:
        d0, d1 = rng.randint(1, 6), rng.randint(1, 6)
        if d0 != d1:
            break
    player = 0 if d0 > d1 else 1
    dice = (max(d0, d1), min(d0, d1))
    opening_dice = thrown(_die(d0, _half(script, 0)), _die(d1, _half(script, 1)))
    yield emit(board, opening_dice)
    turn = 0
    while True:
        on_roll_dice = opening_dice if turn == 0 else lying(_die(dice[0], _half(script, player)), _die(dice[1], _half(script, player)))
        plays = legal_plays(position, dice)
        play = plays[rng.randint(0, len(plays) - 1)] if plays else None
        after = play.after if play else position
        wrong = _wrong_die(position, dice) if turn == script.wrong_die_turn and play is not None else None
        if wrong is None and script.bar_not_entered and position.on_roll[24] and play is not None:
            wrong = _bar_not_entered(position, dice)
            if wrong is not None:
                script.bar_not_entered = False
                script.events.append(f"turn {turn}: moved while a checker waited on the bar, corrected")
        if wrong is not None:
            script.fouls.append(("illegal_play", COLOURS[player], turn))
        accepted = False
        if turn == script.one_die_turn and play is not None and play.dice_used >= 2:
            after = apply_hops(position, play.hops[:1])  # only one die played
            script.events.append(f"turn {turn}: one die only, accepted as made")
            script.fouls.append(("illegal_play", COLOURS[player], turn))
            accepted = True
        yield emit(board, on_roll_dice, hands=(player,), dt=0.5)  # a hand moves checkers
        if wrong is not None:
            shown = Board.from_position(wrong, player)
            yield emit(shown, on_roll_dice, dt=1.0)
            yield emit(shown, hands=(player,), dt=0.5)
            yield emit(shown, dt=0.5)  # dice picked up: judged illegal
            yield emit(shown, hands=(player,), dt=1.0)  # the player corrects it
            if turn == script.wrong_die_turn:
                script.events.append(f"turn {turn}: wrong die, corrected")
        board = Board.from_position(after, player)
        script.played.append((COLOURS[player], dice, after, accepted))
        if wrong is None:
            yield emit(board, on_roll_dice, dt=1.0)  # checkers moved, dice still down
            if turn == script.early_roll_turn:
                early = thrown(_die(rng.randint(1, 6), _half(script, 1 - player)), _die(rng.randint(1, 6), _half(script, 1 - player)))
                yield emit(board, on_roll_dice + early, dt=1.0)  # the opponent rolls with the mover's dice still down
                yield emit(board, hands=(1 - player,), dt=0.5)
                yield emit(board, on_roll_dice, dt=0.5)  # ... and picks them up again
                script.events.append(f"turn {turn}: {COLOURS[1 - player]} rolled before {COLOURS[player]} picked up")
                script.fouls.append(("roll_before_pickup", COLOURS[1 - player], turn))
            yield emit(board, hands=(player,), dt=0.5)  # picking up the dice
        yield emit(board, dt=0.5)  # the play is judged
        if not any(after.on_roll):
            return
        position = after.swap()
        player = 1 - player
        turn += 1
        if turn == script.double_turn:
            owner = COLOURS[1 - player]
            cube = (2, owner)
            yield emit(board, hands=(player,), dt=0.5)
            yield emit(board, dt=1.0)  # the cube turned to 2 and pushed to the opponent
            script.events.append(f"turn {turn}: {COLOURS[player]} doubles, {owner} takes by letting the roll go on")
        if turn == script.out_of_turn_turn:
            other = (rng.randint(1, 6), rng.randint(1, 6))
            yield emit(board, hands=(1 - player,), dt=0.5)  # the cup, from the other player's seat
            yield emit(board, thrown(_die(other[0], _half(script, 1 - player)), _die(other[1], _half(script, 1 - player))), dt=1.0)
            yield emit(board, hands=(1 - player,), dt=0.5)  # picked up again
            script.events.append(f"turn {turn}: {COLOURS[1 - player]} rolled out of turn")
            script.fouls.append(("out_of_turn", COLOURS[1 - player], turn))
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        half = _half(script, player)
        early_board = _moved_early(position, player) if turn == script.moved_before_roll_turn else None
        if early_board is not None:
            rolled = thrown(_die(dice[0], half), _die(dice[1], half))
            yield emit(early_board, dt=1.0)  # a checker moved, no dice rolled yet
            yield emit(early_board, hands=(player,), dt=0.5)  # the cup
            yield emit(early_board, rolled, dt=1.0)
            yield emit(board, rolled, hands=(player,), dt=0.5)  # told to put it back: it goes back, the roll stands
            yield emit(board, rolled, dt=1.0)
            script.events.append(f"turn {turn}: {COLOURS[player]} moved a checker before rolling, put it back")
            script.fouls.append(("moved_before_roll", COLOURS[player], turn))
            continue
        if turn == script.cocked_die_turn:
            yield emit(board, thrown(_die(dice[0], half), _die(dice[1], half, flat=False)), dt=1.0)
            yield emit(board, hands=(player,), dt=0.5)
            script.events.append(f"turn {turn}: cocked die, rolled again")
            script.fouls.append(("cocked", COLOURS[player], turn))
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        if turn == script.wrong_half_turn:
            other_half = _half(script, 1 - player)
            yield emit(board, thrown(_die(dice[0], half), _die(dice[1], other_half)), dt=1.0)  # one die over the bar
            yield emit(board, hands=(player,), dt=0.5)
            script.events.append(f"turn {turn}: a die rolled into the opponent's half, rolled again")
            script.fouls.append(("wrong_half", COLOURS[player], turn))
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        if turn == script.wrong_half_both_turn:
            other_half = _half(script, 1 - player)
            yield emit(board, hands=(player,), dt=0.5)  # the cup, from the roller's own seat
            yield emit(board, thrown(_die(dice[0], other_half), _die(dice[1], other_half)), dt=1.0)  # both dice over the bar
            yield emit(board, hands=(player,), dt=0.5)
            script.events.append(f"turn {turn}: both dice rolled into the opponent's half, rolled again")
            script.fouls.append(("wrong_half", COLOURS[player], turn))
            dice = (rng.randint(1, 6), rng.randint(1, 6))
        yield emit(board, thrown(_die(dice[0], half), _die(dice[1], half)), dt=1.0)


def _moved_early(position: Position, player: int) -> Board | None:
    """The board with one of the roller's checkers moved a pip before rolling (no roll's whole play)."""
    if position.on_roll[24]:
        return None
    for src in range(24, 1, -1):
        if position.on_roll[src - 1] and position.opponent[24 - (src - 1)] < 2:
            try:
                moved = apply_hops(position, [Hop(src, src - 1)])
            except ValueError:
                continue
            if not any(p.after == moved for a in range(1, 7) for b in range(a, 7) for p in legal_plays(position, (b, a))):
                return Board.from_position(moved, player)
    return None


def _bar_not_entered(position: Position, dice: tuple[int, int]) -> Position | None:
    """A checker moved by the higher die while one still waits on the bar."""
    for src in range(24, 0, -1):
        if position.on_roll[src - 1] and src - dice[0] >= 1:
            try:
                return apply_hops(position, [Hop(src, src - dice[0])])
            except ValueError:
                continue
    return None


def _wrong_die(position: Position, dice: tuple[int, int]) -> Position | None:
    """A play of one die and the wrong number for the other, if the board allows one."""
    results = {p.after for p in legal_plays(position, dice)}
    for play in legal_plays(position, dice):
        if play.dice_used != 2 or dice[0] == dice[1]:
            continue
        first = play.hops[0]
        one = apply_hops(position, [first])
        for src in range(24, 0, -1):
            for wrong in (1, 2, 3, 4, 5, 6):
                if wrong in dice or src - wrong < 1:
                    continue
                try:
                    candidate = apply_hops(one, [Hop(src, src - wrong)])
                except ValueError:
                    continue
                if candidate not in results:
                    return candidate
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write a scripted recording of a game as board readings (JSON lines).")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args(argv)
    script = Script()
    lines = [json.dumps(item) for item in record_game(random.Random(args.seed), script)]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    header = {"recording": "bgref demo game", "seed": args.seed, "injected": script.events, "players": ["Ann", "Bob"]}
    args.output.write_text(json.dumps(header) + "\n" + "\n".join(lines) + "\n")
    print(f"wrote {len(lines)} readings to {args.output}; injected: {script.events}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
