"""Write tests/data/engine/play_vectors.json: gnubg's own list of legal plays
(its `hint` text) for a seeded sample of self-played positions, so the tests
can compare against GNU Backgammon where its package has no wheel.

    .venv/bin/python benchmarks/make_play_vectors.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from engine import Position
from engine.selfplay import sample_positions
from referee import gnubg_link

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "engine" / "play_vectors.json"

# Hand-picked corners: bar entry against a closed board, bear-offs, a dance.
EXTRA = [
    ("4HPwATDgc/ABMA", (3, 1)),
    ("4HPwATDgc/ABMA", (6, 5)),
    ("4HPwATDgc/ABMA", (2, 2)),
]


def main() -> None:
    gnubg_link.require()
    rng = random.Random(20261121)
    items = [(Position.from_id(pid), dice) for pid, dice in EXTRA]
    sample = sample_positions(rng, 6000)
    rng.shuffle(sample)
    bear = [i for i in sample if max(i[0].on_roll[6:]) == 0][:60]
    bar = [i for i in sample if i[0].on_roll[24]][:60]
    rest = sample[:180]
    items += bear + bar + rest
    vectors = []
    for position, dice in items:
        vectors.append({"position_id": position.id(), "dice": list(dice), "plays": sorted(gnubg_link.hint_plays(position, dice))})
    OUT.write_text(json.dumps({"source": "GNU Backgammon (gnubg package) hint 999, 0-ply", "vectors": vectors}, indent=0) + "\n")
    print(f"wrote {len(vectors)} vectors to {OUT}")


if __name__ == "__main__":
    main()
