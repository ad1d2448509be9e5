"""Compare every legal play with GNU Backgammon's on self-played positions.

    .venv/bin/python benchmarks/crosscheck_gnubg.py [--positions 20000] [--seed 1] [--docs]

Prints the number of positions, plays and differences (by resulting position).
gnubg's move tuples stop at the first bear-off, so where any play bears off the
complete plays come from gnubg's `hint` text, applied with every starred hit.
``--docs`` also writes the result into its section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from engine import legal_plays  # noqa: E402
from engine.selfplay import sample_positions  # noqa: E402
from referee import gnubg_link  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs_section  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    docs_section.add_flag(parser)
    args = parser.parse_args()
    if not gnubg_link.available():
        print("the gnubg package is not installed here (x86-64 wheels only)", file=sys.stderr)
        return 2
    with docs_section.recorded("crosscheck-gnubg", "Legal plays compared with GNU Backgammon's", enabled=args.docs):
        return _compare(args)


def _compare(args: argparse.Namespace) -> int:
    items = sample_positions(random.Random(args.seed), args.positions)
    start = time.perf_counter()
    plays = differences = via_hint = dances = 0
    for position, dice in items:
        ours = {p.after for p in legal_plays(position, dice)}
        moves = gnubg_link.find_moves(position, dice)
        via_hint += any(len(m) % 2 or 0 in m[1::2] for m in moves)
        theirs = gnubg_link.legal_results(position, dice)
        plays += len(theirs)
        dances += not theirs
        if ours != theirs:
            differences += 1
            print(f"DIFFERENT {position.id()} {dice}: ours {len(ours)}, gnubg {len(theirs)}")
    took = time.perf_counter() - start
    print(
        f"{len(items)} positions (seed {args.seed}), {plays} plays, {dances} rolls with no play, "
        f"{via_hint} positions compared through gnubg's hint text (bear-offs); "
        f"{differences} differences; {took:.1f} s"
    )
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
