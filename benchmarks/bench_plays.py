"""Time to list every legal play, per position, over 10,000 self-played positions.

Prints median and p99 for this engine's `legal_plays` (plays with their
resulting positions) and, in the same run, for GNU Backgammon's
`findbestmoves` at 0-ply where the `gnubg` package is installed.

    .venv/bin/python benchmarks/bench_plays.py [--positions 10000] [--seed 1] [--docs]

``--docs`` also writes the result into its section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from engine.plays import legal_plays  # noqa: E402
from engine.selfplay import sample_positions  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs_section  # noqa: E402


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _time_each(items, fn, repeat: int) -> list[float]:
    out = []
    clock = time.perf_counter
    for position, dice in items:
        best = float("inf")
        for _ in range(repeat):
            start = clock()
            fn(position, dice)
            best = min(best, clock() - start)
        out.append(best * 1000.0)
    return out


def _report(name: str, times: list[float]) -> None:
    print(
        f"{name:<28} median {statistics.median(times):.4f} ms   p99 {_percentile(times, 0.99):.4f} ms   "
        f"max {max(times):.3f} ms   total {sum(times) / 1000:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="time each position this many times, keep the best")
    docs_section.add_flag(parser)
    args = parser.parse_args()
    with docs_section.recorded("plays", "Legal plays per position (engine)", enabled=args.docs):
        items = sample_positions(random.Random(args.seed), args.positions)
        doubles = sum(1 for _, d in items if d[0] == d[1])
        print(f"{len(items)} positions from self-played games (seed {args.seed}), {doubles} with doubles")
        _report("bgref legal_plays", _time_each(items, legal_plays, args.repeat))
        try:
            from referee import gnubg_link
        except ImportError:
            gnubg_link = None
        if gnubg_link is not None and gnubg_link.available():
            _report("gnubg findbestmoves 0-ply", _time_each(items, gnubg_link.find_moves, args.repeat))
        else:
            print("gnubg: not installed here (x86-64 wheels only); no comparison")


if __name__ == "__main__":
    main()
