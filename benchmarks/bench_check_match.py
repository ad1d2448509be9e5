"""Plays replayed per second by ``bgref check-match`` on the real matches (``tests/data/matches``).

    .venv/bin/python benchmarks/bench_check_match.py [MATCHES_DIR] [--repeat N] [--all-round-trips] [--gnubg] [--docs]

Times the command's own work (read every file, replay every play through the
rules, write the JSON report) in-process, best of ``--repeat`` runs, and also one
run of the installed ``bgref check-match --json`` as a subprocess (start-up
included).  ``--all-round-trips`` also checks the .mat and SGF round trips on
every match (as the test suite does); ``--gnubg`` also checks
that GNU Backgammon reads our .mat output of every match as the same games.  ``--docs``
also writes the result into its section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from engine.mat import read_mat, read_mat_replay, write_mat
from engine.sgf import read_sgf, write_sgf
from referee.cli_records import run_check

sys.path.insert(0, str(Path(__file__).resolve().parent))
import docs_section  # noqa: E402

DEFAULT = Path(__file__).resolve().parent.parent / "tests" / "data" / "matches"


def match_files(folder: Path) -> list[str]:
    return sorted(str(p) for p in folder.rglob("*") if p.suffix in (".txt", ".mat"))


def count(report_lines: str) -> tuple[int, int, int]:
    """(games, plays, illegal plays) in check-match's JSON lines."""
    games = plays = illegal = 0
    for line in report_lines.splitlines():
        report = json.loads(line)
        games += len(report["games"])
        plays += sum(len(g["plays"]) for g in report["games"])
        illegal += len(report["illegal"])
    return games, plays, illegal


def in_process(paths: list[str], repeat: int) -> tuple[float, str, int]:
    best, text, code = float("inf"), "", 0
    for _ in range(repeat):
        sink = io.StringIO()
        start = time.perf_counter()
        code = run_check(paths, True, sink)
        best = min(best, time.perf_counter() - start)
        text = sink.getvalue()
    return best, text, code


def as_subprocess(paths: list[str]) -> float | None:
    bgref = shutil.which("bgref", path=str(Path(sys.executable).parent))
    if bgref is None:
        return None
    start = time.perf_counter()
    subprocess.run([bgref, "check-match", "--json", *paths], capture_output=True, check=False)
    return time.perf_counter() - start


def round_trips(paths: list[str]) -> tuple[int, int]:
    """(.mat round trips equal, SGF round trips equal) over every match."""
    mat_ok = sgf_ok = 0
    for path in paths:
        match = read_mat(Path(path).read_text(encoding="utf-8"), path)
        mat_ok += read_mat(write_mat(match), path) == match
        sgf_ok += read_sgf(write_sgf(match), path) == match
    return mat_ok, sgf_ok


def gnubg_agrees(paths: list[str]) -> int:
    """How many matches GNU Backgammon reads from our .mat as the same games."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from test_mat_gnubg import ours, theirs

    from referee import gnubg_link

    oracle = gnubg_link.require()
    same = 0
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "match.mat"
        for path in paths:
            done = read_mat_replay(Path(path).read_text(encoding="utf-8"), path)
            target.write_text(write_mat(done.match), encoding="utf-8")
            gnubg_link.run_command(f'import mat "{target}"')
            same += theirs(oracle.match(analysis=0, boards=1)) == ours(done)
    return same


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--all-round-trips", action="store_true")
    parser.add_argument("--gnubg", action="store_true")
    docs_section.add_flag(parser)
    args = parser.parse_args()
    paths = match_files(args.folder)
    if not paths:
        print(f"no .mat/.txt matches under {args.folder}", file=sys.stderr)
        return 2
    with docs_section.recorded("check-match", "Real matches replayed by bgref check-match", enabled=args.docs):
        return _measure(args, paths)


def _measure(args: argparse.Namespace, paths: list[str]) -> int:
    seconds, text, code = in_process(paths, args.repeat)
    games, plays, illegal = count(text)
    print(f"check-match: {len(paths)} files, {games} games, {plays} plays, {illegal} illegal, exit {code}")
    print(f"in-process: {seconds:.2f} s (best of {args.repeat}), {plays / seconds:,.0f} plays replayed per second")
    wall = as_subprocess(paths)
    if wall is not None:
        print(f"bgref check-match --json (subprocess, one run): {wall:.2f} s, {plays / wall:,.0f} plays per second")
    if args.all_round_trips:
        mat_ok, sgf_ok = round_trips(paths)
        print(f"round trips equal: .mat {mat_ok}/{len(paths)}, SGF {sgf_ok}/{len(paths)}")
    if args.gnubg:
        print(f"GNU Backgammon reads our .mat as the same games: {gnubg_agrees(paths)}/{len(paths)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
