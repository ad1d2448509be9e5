"""Dice and cube (learned): the figures of the learned dice guard and cube reader, in one run.

    .venv/bin/python benchmarks/bench_dice_cube.py [--docs] [--quick]

Runs, each in its own process, and prints what each prints:

1. ``bench_dice_photos.py --photos test``: per die value accuracy and phantom dice on the real photos'
   test split (50 photos the networks were never fitted or tuned on);
2. ``bench_dice_phantoms.py``: phantom dice on drawn webcam scenes (white dice on wood beside laptop
   keys, side faces showing; key legends in typefaces the guard never saw);
3. ``bench_cube_faces.py``: the board reader's cube reading on faces in typefaces held out from the cube
   network's training (C059, URW Gothic, Linux Libertine, Cantarell, Caladea, Lato, OpenCV's Hershey faces).

``--docs`` writes the output into the section "Dice and cube (learned)" of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from benchmarks import docs_section  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    docs_section.add_flag(ap)
    ap.add_argument("--quick", action="store_true", help="fewer drawn scenes and faces (a smoke test)")
    args = ap.parse_args()
    runs = [["bench_dice_photos.py", "--photos", "test"],
            ["bench_dice_phantoms.py", "--n", "10" if args.quick else "40"],
            ["bench_cube_faces.py", "--n", "20" if args.quick else "100"]]
    with docs_section.recorded("dice-cube-learned", "Dice and cube (learned)", enabled=args.docs):
        for run in runs:
            print(f"$ benchmarks/{' '.join(run)}", flush=True)
            done = subprocess.run([sys.executable, str(HERE / run[0]), *run[1:]], capture_output=True, text=True)
            print(done.stdout.rstrip(), flush=True)
            if done.returncode:
                print(done.stderr[-2000:], file=sys.stderr)
                return done.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
