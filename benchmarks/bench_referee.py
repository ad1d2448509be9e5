"""The referee (`bgref replay`) on independent footage of real games with injected fouls.

Footage comes from ``benchmarks/world`` (a renderer sharing no code with the product):
games of a real match (tests/data/world, MIT) played on the rendered board under each of
the eight camera mountings (home boards left/right of the image x dark near/far x camera
turned 0/180 degrees), with fouls injected: an illegal play then corrected, a cocked die,
a roll into the opponent's half, a roll out of turn, checkers moved before the roll, a
checker moved while one waits on the bar.  Per mounting the product is calibrated on the
first frame (`bgref calibrate`) and replays the folder (`bgref replay`); the benchmark
reads what it wrote (``match.mat``, ``calls.jsonl``) and prints:

- whether the recorded game equals the played game, play for play (dice, the position
  after each play, cube actions), and how many plays matched before the first difference;
- per call kind: fouls called in the right window and for the right player / injected;
- false calls: calls that stop play (every kind but please_look) that no foul explains;
  please_look calls are counted apart.

``--corrupt 0.01`` shows about 1% of frames wrong (a checker too many or too few on a point, a
die showing another face) for as long as that board lies still, as a misreading would be.

    python benchmarks/bench_referee.py [--quick] [--plays N | --full] [--mountings NAME,...] [--games 1,2,3]
        [--corrupt 0.01] [--seed 1] [--hold-out factor=value ...] [--keep DIR] [--write-docs]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.world.board import Position  # noqa: E402
from benchmarks.world.footage import CALL_OF, MOUNTINGS, mounting_named, write_footage  # noqa: E402
from benchmarks.world.matches import read_games  # noqa: E402

STOPPING = ("illegal_play", "cocked", "wrong_half", "out_of_turn", "moved_before_roll", "roll_before_pickup", "seating", "illegal_cube")
HEADING = "## Referee on independent footage"


def bgref(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "referee.cli", *args], cwd=ROOT, env=env, capture_output=True, text=True)


def played_actions(truth: dict[str, Any]) -> list[tuple]:
    """The played game as comparable steps: (player, roll dice, position after) or (player, cube action)."""
    out, pos = [], Position.start()
    for a in truth["played"]:
        if a["action"] == "roll":
            pos = pos.play(a["player"], [tuple(m) for m in a["moves"]])
            out.append((a["player"], "roll", tuple(sorted(a["dice"], reverse=True)), pos))
        else:
            out.append((a["player"], a["action"]))
    return out


def recorded_actions(mat: Path) -> list[tuple] | str:
    """The first game of the product's match.mat as the same steps (read with the world's own reader)."""
    if not mat.exists():
        return "no match.mat written"
    try:
        games = read_games(mat.read_text(encoding="utf-8", errors="replace"))
    except (ValueError, IndexError) as exc:  # an odd record can trip the world's reader: a record unequal, not a crash
        return f"match.mat unreadable: {exc!r}"
    if not games:
        return []
    out, pos = [], Position.start()
    for a in games[0]:
        if a.kind == "roll":
            try:
                pos = pos.play(a.player, list(a.moves))
            except (ValueError, IndexError) as exc:
                out.append((a.player, "roll", tuple(sorted(a.dice, reverse=True)), f"impossible: {exc!r}"))
                continue
            out.append((a.player, "roll", tuple(sorted(a.dice, reverse=True)), pos))
        else:
            out.append((a.player, a.kind))
    return out


def compare(played: list[tuple], recorded: list[tuple] | str) -> tuple[bool, int, str]:
    """(equal, steps matching before the first difference, what differs first)."""
    if isinstance(recorded, str):
        return False, 0, recorded
    for i, (p, r) in enumerate(zip(played, recorded)):
        if p != r:
            return False, i, f"step {i + 1}: played {_say(p)}, recorded {_say(r)}"
    if len(played) != len(recorded):
        return False, min(len(played), len(recorded)), f"played {len(played)} steps, recorded {len(recorded)}"
    return True, len(played), ""


def _say(step: tuple) -> str:
    if step[1] == "roll":
        extra = "" if isinstance(step[3], Position) else f" ({step[3]})"
        return f"{step[0]} {step[2][0]}{step[2][1]}{extra}"
    return f"{step[0]} {step[1]}"


def read_calls(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    calls = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            calls.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return calls


def judge_calls(fouls: list[dict], calls: list[dict]) -> dict[str, Any]:
    """Each foul called (right kind, right player, within its window); calls no foul explains."""
    called: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    explained = [False] * len(calls)
    missed = []
    for f in fouls:
        c = called[f["call"]]
        c[1] += 1
        hit = False
        for i, call in enumerate(calls):
            t = float(call.get("t", -1))
            if f["t"] - 0.5 <= t <= f["until"] and call.get("call") == f["call"] and call.get("player") == f["player"]:
                explained[i] = True
                hit = True
        if hit:
            c[0] += 1
        else:
            near = [f"{c2.get('call')}/{c2.get('player')}@{c2.get('t')}" for c2 in calls if f["t"] - 0.5 <= float(c2.get("t", -1)) <= f["until"]]
            missed.append(f"{f['kind']} ({f['player']}, play {f['turn']}, t {f['t']}): " + (", ".join(near) if near else "no call"))
    false = Counter()
    looks = 0
    false_list = []
    for call, ok in zip(calls, explained):
        kind = call.get("call")
        if kind == "please_look":
            looks += 1
        elif not ok and kind in STOPPING + tuple(CALL_OF.values()):
            false[kind] += 1
            false_list.append(f"{kind}/{call.get('player')}@{call.get('t')}: {'; '.join(map(str, call.get('reasons') or []))[:100]}")
    return {"called": dict(called), "false": dict(false), "looks": looks, "missed": missed, "false_list": false_list}


def run_one(folder: Path, out: Path, truth: dict[str, Any]) -> dict[str, Any]:
    cal = folder / "calibration.json"
    res = bgref("calibrate", str(folder / "frame00000.jpg"), "-o", str(cal))
    if res.returncode != 0 or not cal.exists():
        return {"calibrated": False, "why": (res.stderr.strip().splitlines() or ["?"])[-1][:160]}
    started = time.perf_counter()
    rep = bgref("replay", str(folder), "--calibration", str(cal), "--out", str(out), "--fps", str(truth["fps"]))
    seconds = time.perf_counter() - started
    equal, upto, diff = compare(played_actions(truth), recorded_actions(out / "match.mat"))
    tail = (rep.stderr.strip().splitlines() or [""])[-1]
    return {"calibrated": True, "exit": rep.returncode, "traceback": "Traceback" in rep.stderr, "stderr_tail": tail[:200],
            "equal": equal, "upto": upto, "steps": len(truth["played"]), "diff": diff, "seconds": seconds,
            **judge_calls(truth["fouls"], read_calls(out / "calls.jsonl"))}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="two mountings (turned 0 and 180), 12 plays of game 1")
    ap.add_argument("--plays", type=int, default=20, help="plays of each game (default 20)")
    ap.add_argument("--full", action="store_true", help="whole games")
    ap.add_argument("--games", default="1,2,3", help="games of the match, dealt to the mountings in turn")
    ap.add_argument("--mountings", help="comma-separated names (default: all eight)")
    ap.add_argument("--corrupt", type=float, default=0.0, help="share of frames showing a settled board wrong (e.g. 0.01)")
    ap.add_argument("--no-fouls", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hold-out", action="append", default=[], help="factor=value never drawn (the dev split bars the held-out values)")
    ap.add_argument("--keep", type=Path, help="keep footage and replay folders here")
    ap.add_argument("--write-docs", "--docs", action="store_true", help="write the result into its section of docs/benchmarks.md")
    args = ap.parse_args()
    mountings = [mounting_named(n) for n in args.mountings.split(",")] if args.mountings else list(MOUNTINGS)
    games = [int(g) for g in args.games.split(",")]
    hold: dict[str, tuple[str, ...]] = defaultdict(tuple)
    for kv in args.hold_out:
        name, _, value = kv.partition("=")
        hold[name] += (value,)
    plays = None if args.full else args.plays
    if args.quick:
        mountings = [mounting_named("home-right_dark-near_turn-0"), mounting_named("home-right_dark-near_turn-180")]
        games, plays = [1], 12
    base = args.keep or Path(tempfile.mkdtemp(prefix="bench_referee_"))
    rows, totals = [], {"called": defaultdict(lambda: [0, 0]), "false": Counter(), "looks": 0}
    started = time.perf_counter()
    for i, m in enumerate(mountings):
        game = games[i % len(games)]
        folder = base / f"{m.name}_g{game}"
        t0 = time.perf_counter()
        truth = write_footage(folder, game, m, args.seed * 100 + i, plays, not args.no_fouls, args.corrupt, hold_out=dict(hold))
        render_s = time.perf_counter() - t0
        r = run_one(folder, base / f"{m.name}_g{game}_out", truth)
        r.update(mounting=m.name, game=game, frames=truth["frames"], render_s=render_s, fouls=len(truth["fouls"]))
        rows.append(r)
        if not r["calibrated"]:
            print(f"{m.name} game {game}: calibration failed: {r['why']}", flush=True)
            for f in truth["fouls"]:
                totals["called"][f["call"]][1] += 1
            continue
        for k, (a, b) in r["called"].items():
            totals["called"][k][0] += a; totals["called"][k][1] += b
        totals["false"].update(r["false"])
        totals["looks"] += r["looks"]
        print(f"{m.name} game {game}: {truth['frames']} frames; recorded = played: {r['equal']} ({r['upto']}/{r['steps']} steps)"
              f"{'; ' + r['diff'] if r['diff'] else ''}; fouls called {sum(a for a, _ in r['called'].values())}/{r['fouls']}; "
              f"false calls {sum(r['false'].values())}; looks asked {r['looks']}; exit {r['exit']}{' TRACEBACK' if r['traceback'] else ''}; "
              f"replay {r['seconds']:.0f} s, render {render_s:.0f} s", flush=True)
        for s in r["missed"]:
            print(f"    missed: {s}")
        for s in r["false_list"][:6]:
            print(f"    false: {s}")
    elapsed = time.perf_counter() - started
    lines = [f"{len(mountings)} mountings, games {sorted(set(games[i % len(games)] for i in range(len(mountings))))} of "
             f"tests/data/world/charlot1-charlot2 (7-point match, GNU Backgammon), "
             + (f"{plays} plays each" if plays else "whole games") + f", seed {args.seed}"
             + (f", about {args.corrupt:.1%} of frames showing a settled board wrong" if args.corrupt else "")
             + (f", held out {dict(hold)}" if hold else "") + f"; {elapsed / 60:.1f} min.", "",
             "| mounting | game | frames | calibrated | recorded = played | steps right before the first difference | fouls called | false calls | looks asked | exit |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if not r["calibrated"]:
            lines.append(f"| {r['mounting']} | {r['game']} | {r['frames']} | no: {r['why']} | - | - | 0/{r['fouls']} | - | - | - |")
            continue
        lines.append(f"| {r['mounting']} | {r['game']} | {r['frames']} | yes | {'yes' if r['equal'] else 'no'} | {r['upto']}/{r['steps']} | "
                     f"{sum(a for a, _ in r['called'].values())}/{r['fouls']} | {sum(r['false'].values())} | {r['looks']} | "
                     f"{r['exit']}{' (traceback)' if r['traceback'] else ''} |")
    lines += ["", "| call kind | fouls called in the right turn / injected | false calls |", "|---|---|---|"]
    for kind in sorted(set(totals["called"]) | set(totals["false"])):
        a, b = totals["called"].get(kind, [0, 0])
        lines.append(f"| {kind} | {a}/{b} | {totals['false'].get(kind, 0)} |")
    lines.append(f"\nplease_look calls (asking, not stopping play): {totals['looks']}.")
    lines.append(f"Mountings whose record equals the game played: {sum(bool(r.get('equal')) for r in rows)} of {len(rows)}.")
    text = "\n".join(lines)
    print(text)
    if args.write_docs:
        from benchmarks.bench_vision_world import write_section

        write_section(HEADING + (" (corrupted readings)" if args.corrupt else ""),
                      "Written by `benchmarks/bench_referee.py`: footage rendered by `benchmarks/world` (imports nothing from the product), "
                      "calibrated with `bgref calibrate` on the first frame, refereed with `bgref replay`; the record read back from "
                      "`match.mat` and the calls from `calls.jsonl`. A foul counts as called when a call of its kind for the offending "
                      "player falls between the foul's first frame and the next play's roll (+2 s).\n\n" + text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
