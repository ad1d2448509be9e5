"""Best plays and their equities from GNU Backgammon, when its package is installed.

Optional and slow-safe: evaluations run on one worker thread of their own (gnubg
is neither thread-safe nor available on a Pi's arm64), results are cached by
position, dice and match context, and a callback says when one is ready so the
page can be updated.  Equities are gnubg's 0-ply evaluations of the position
after each legal play, from the mover's side (normalised match equity in a
match, cubeless money equity otherwise).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from engine.plays import legal_plays
from engine.position import Position

from .view import TurnStart

log = logging.getLogger("bgref.web")

SHOWN = 5
METHOD = "GNU Backgammon 0-ply"


@dataclass(frozen=True, slots=True)
class Context:
    """What equities depend on besides the checkers: mover's view of the match."""

    match_length: int
    score: tuple[int, int]  # (mover, opponent)
    cube: int
    owner: str  # "centre", "mover", "opponent"
    crawford: bool


Evaluator = Callable[[Position, Context], float]


def rank_plays(evaluate: Evaluator, turn: TurnStart, context: Context) -> list[tuple[Position, str, float]]:
    """Every legal play with its equity for the mover, best first."""
    ranked = [(p.after, str(p), evaluate(p.after, context)) for p in legal_plays(turn.position, turn.dice)]
    return sorted(ranked, key=lambda item: item[2], reverse=True)


def analysis_dict(ranked: list[tuple[Position, str, float]], played: Position | None) -> dict[str, Any]:
    """The best plays with their equities and what the play made lost."""
    out: dict[str, Any] = {
        "method": METHOD,
        "best": [{"play": text, "equity": round(eq, 3)} for _, text, eq in ranked[:SHOWN]],
        "played": None,
    }
    if played is not None and ranked:
        for rank, (after, text, eq) in enumerate(ranked, start=1):
            if after == played:
                out["played"] = {"play": text, "equity": round(eq, 3), "loss": round(ranked[0][2] - eq, 3), "rank": rank}
                break
    return out


def gnubg_evaluator() -> Evaluator | None:
    """An evaluator backed by the gnubg package, or None when it is not installed."""
    from .. import gnubg_link

    if not gnubg_link.available():
        return None
    gnubg = gnubg_link.require()
    plies = gnubg.evalcontext(0, 0, 1, 0, 0.0)

    def evaluate(after: Position, ctx: Context) -> float:
        # gnubg evaluates for the player on roll: the opponent, after the play.
        owner = {"centre": -1, "mover": 0, "opponent": 1}[ctx.owner]
        cube = gnubg.cubeinfo(ctx.cube, owner, 1, ctx.match_length, (ctx.score[0], ctx.score[1]), int(ctx.crawford), 0)
        return -float(gnubg.evaluate(after.swap().gnubg_board(), cube, plies)[5])

    return evaluate


class Analyst:
    """Runs analyses off the caller's thread and remembers their results."""

    def __init__(self, evaluator: Evaluator | None, on_ready: Callable[[], None]) -> None:
        self.evaluator = evaluator
        self.on_ready = on_ready
        self._results: dict[tuple[Any, ...], list[tuple[Position, str, float]]] = {}
        self._asked: set[tuple[Any, ...]] = set()
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bgref-gnubg") if evaluator else None

    @property
    def available(self) -> bool:
        return self.evaluator is not None

    def ranked(self, turn: TurnStart, context: Context) -> list[tuple[Position, str, float]] | None:
        """The ranked plays if known; otherwise asks for them (``on_ready`` is called later)."""
        if self._pool is None:
            return None
        key = (turn.position, turn.dice, context)
        with self._lock:
            if key in self._results:
                return self._results[key]
            if key in self._asked:
                return None
            self._asked.add(key)
        self._pool.submit(self._run, key, turn, context)
        return None

    def _run(self, key: tuple[Any, ...], turn: TurnStart, context: Context) -> None:
        assert self.evaluator is not None
        try:
            ranked = rank_plays(self.evaluator, turn, context)
        except Exception:
            log.exception("gnubg analysis failed for %s %s", turn.position.id(), turn.dice)
            ranked = []
        with self._lock:
            self._results[key] = ranked
            if len(self._results) > 256:
                self._results.pop(next(iter(self._results)))
        self.on_ready()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
