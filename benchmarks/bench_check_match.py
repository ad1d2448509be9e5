"""Plays replayed per second by ``bgref check-match`` on the real matches (``tests/data/matches``).

    .venv/bin/python benchmarks/bench_check_match.py [MATCHES_DIR] [--repeat N] [--all-round-trips] [--gnubg] [--docs]

Times the command's own work (read every file, replay every play through the
rules, write the JSON report) in-process, best of ``--repeat`` runs, as wall
time and as this process's CPU time (on a machine shared with other work the
CPU time is the fairer figure), per file and for the slowest file, and also
one run of the installed ``bgref check-match --json`` as a subprocess
(start-up included).  ``--docs`` writes the figures under the "Records"
heading of ``docs/benchmarks.md``.  ``--all-round-trips`` also checks the .mat and SGF round trips on
every match (as the test suite does); ``--gnubg`` also checks
that GNU Backgammon reads our .mat output of every match as the same games.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
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
import docs_section  # noqa: E402  (benchmarks/ is on sys.path when run as a script)

DEFAULT = Path(__file__).resolve().parent.parent / "tests" / "data" / "matches"


def match_files(folder: Path) -> list[str]:
    return sorted(str(p) for p in folder.rglob("*") if p.suffix in (".txt", ".mat"))


def count(report_lines: str) -> tuple[int, int, int, int, int]:
    """(games, plays, illegal plays, files with warnings, files not read) in check-match's JSON lines."""
    games = plays = illegal = warned = unread = 0
    for line in report_lines.splitlines():
        report = json.loads(line)
        games += len(report["games"])
        plays += sum(len(g["plays"]) for g in report["games"])
        illegal += len(report["illegal"])
        warned += bool(report.get("warnings"))
        unread += "error" in report
    return games, plays, illegal, warned, unread


def in_process(paths: list[str], repeat: int) -> tuple[float, float, str, int]:
    """(best wall seconds, best CPU seconds, the JSON lines, the exit status)."""
    best, best_cpu, text, code = float("inf"), float("inf"), "", 0
    for _ in range(repeat):
        sink = io.StringIO()
        start, start_cpu = time.perf_counter(), time.process_time()
        with contextlib.redirect_stderr(io.StringIO()):
            code = run_check(paths, True, sink)
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
        text = sink.getvalue()
    return best, best_cpu, text, code


def slowest(paths: list[str]) -> tuple[float, str]:
    """The most CPU time one file takes (best of two) and its name."""
    worst = (0.0, "")
    for path in paths:
        spent = float("inf")
        for _ in range(2):
            start = time.process_time()
            with contextlib.redirect_stderr(io.StringIO()):
                run_check([path], True, io.StringIO())
            spent = min(spent, time.process_time() - start)
        worst = max(worst, (spent, Path(path).name))
    return worst


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


DOCS = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"


def write_docs(folder: Path, lines: list[str], load: float) -> None:
    """Put the figures under the "Records" heading of docs/benchmarks.md (made
    if absent), leaving the other sections as they are."""
    section = (
        "## Records\n\n"
        f"`bgref check-match` on the real matches (`{folder.name}`: Backgammon Galaxy, Backgammon Studio and\n"
        "GNU Backgammon exports; none of them was used to tune the reader's leniency, whose cases come from\n"
        "issue 44's description of a different sample), measured by `benchmarks/bench_check_match.py --docs`\n"
        f"(1-minute load average when measured: {load:.1f}; the goal is under 50 ms per file):\n\n"
        + "".join(f"    {line}\n" for line in lines)
        + "\n"
    )
    text = DOCS.read_text(encoding="utf-8") if DOCS.exists() else "# Benchmarks\n\n"
    DOCS.parent.mkdir(exist_ok=True)
    DOCS.write_text(docs_section.replace_section(text, "check-match", section), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--all-round-trips", action="store_true")
    parser.add_argument("--gnubg", action="store_true")
    parser.add_argument("--docs", action="store_true", help='write the figures under "Records" in docs/benchmarks.md')
    args = parser.parse_args()
    paths = match_files(args.folder)
    if not paths:
        print(f"no .mat/.txt matches under {args.folder}", file=sys.stderr)
        return 2
    seconds, cpu, text, code = in_process(paths, args.repeat)
    games, plays, illegal, warned, unread = count(text)
    n = len(paths)
    lines = [
        (
            f"check-match: {n} files, {n - unread} read, {games} games, {plays} plays, {illegal} illegal, "
            f"{warned} files with warnings, exit {code}"
        ),
        (
            f"in-process: {seconds:.2f} s wall, {cpu:.2f} s CPU (best of {args.repeat}): {1000 * seconds / n:.1f} ms wall, "
            f"{1000 * cpu / n:.1f} ms CPU per file; {plays / cpu:,.0f} plays replayed per CPU second"
        ),
    ]
    worst, name = slowest(paths)
    lines.append(f"slowest file: {1000 * worst:.1f} ms CPU ({name})")
    wall = as_subprocess(paths)
    if wall is not None:
        lines.append(f"bgref check-match --json (subprocess, one run, start-up included): {wall:.2f} s, {1000 * wall / n:.1f} ms per file")
    if args.all_round_trips:
        mat_ok, sgf_ok = round_trips(paths)
        lines.append(f"round trips equal: .mat {mat_ok}/{n}, SGF {sgf_ok}/{n}")
    if args.gnubg:
        lines.append(f"GNU Backgammon reads our .mat as the same games: {gnubg_agrees(paths)}/{n}")
    print("\n".join(lines))
    if args.docs:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        write_docs(args.folder, lines, load)
    return 0


if __name__ == "__main__":
    sys.exit(main())
