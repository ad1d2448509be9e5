"""The product's reader on the independent world's stills (benchmarks/world), per factor.

For each camera setup (camera mounting, lamp, set, seating, table: drawn from a seed) the
start position is rendered and calibrated once with ``bgref calibrate``; then stills of
the same setup (positions, stacking styles, dice, cube typefaces, arms, noise, blur,
JPEG drawn per still) are read with ``bgref read``.  The renderer imports nothing from
the product; the truth is the scene description, including what an arm, sleeve or cup
covers (``benchmarks/world/cover.py``, from the world's own camera).  Prints, per factor
value: whole board exact (a covered place may be left unsure, never read wrong), per
point read, unsure points (all; in view; covered), confident wrong counts under cover,
per die value (flat dice), flat/cocked, cube value, calibration.

    python benchmarks/bench_vision_world.py [--setups 12 --stills 10 --seed 1] [--quick]
        [--fix lens=barrel] [--hold-out typeface=FreeSerif/fill] [--docs]
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

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import docs_section  # noqa: E402
from benchmarks.world.cover import truth as world_truth  # noqa: E402
from benchmarks.world.fonts import PACKAGES, missing  # noqa: E402
from benchmarks.world.render import render  # noqa: E402
from benchmarks.world.scene import FACTORS, Scene, random_scene  # noqa: E402

HEADING = "## Vision on independent renders"
MEASURES = ("exact", "points", "unsure points", "unsure visible", "unsure covered", "wrong covered", "die value", "flat/cocked", "cube",
            "die sure wrong", "cube sure wrong")
SURE = 0.6  # the referee acts on a die or cube read at least this surely (docs/board-spec.md)


def bgref(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "referee.cli", *args], cwd=ROOT, env=env, capture_output=True, text=True)


def parse_kv(items: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for item in items:
        k, _, v = item.partition("=")
        if k not in FACTORS or v not in FACTORS[k]:
            raise SystemExit(f"{item!r}: a factor=value of benchmarks.world.FACTORS (e.g. lens=barrel)")
        out[k].append(v)
    return out


def _no_cover(truth: dict) -> dict:
    return {"points": [False] * 24, "bar": {"dark": False, "light": False}, "dice": [False] * len(truth["dice"]), "cube": False}


def _dice_ok(truth: dict, read_dice: list[dict], cover: list[bool]) -> bool:
    """Every die in view read right (value, flat, half), each die under an arm read right, unsure (null
    value) or not at all, and no die seen that is not there."""
    key = lambda d: (d.get("value"), bool(d.get("flat")), d.get("half"))  # noqa: E731
    seen = Counter(key(d) for d in read_dice)
    for d, hid in zip(truth["dice"], cover):
        if not hid:
            if seen[key(d)] <= 0:
                return False
            seen[key(d)] -= 1
    hidden = [key(d) for d, hid in zip(truth["dice"], cover) if hid]
    for k in list(seen.elements()):
        match = next((h for h in hidden if h == k or (k[0] is None and k[2] == h[2])), None)
        if match is None:
            return False
        hidden.remove(match)
    return True


def score(truth: dict, read: dict | None) -> dict[str, tuple[int, int]]:
    """(right, of) per measure for one still.

    ``truth["covered"]`` (:mod:`benchmarks.world.cover`) says which places an arm, a sleeve or a cup hides.
    There the reader may say unsure (null) but never a wrong count: "exact" needs every point, bar half,
    die and cube in view read right, and each covered one read right or left unsure (a covered cube or die
    may also go unseen). "points" is right of those read; "unsure points" the share of all points left
    unread, split into "unsure visible" (of the points in view: the reader too cautious) and "unsure
    covered" (of the covered points); "wrong covered" the covered points read with a wrong count (a
    confident wrong count under an arm: the contract forbids it). The last three count frames read only
    (not those of a setup that did not calibrate)."""
    unread = read is None
    if read is None:
        read = {"points": [None] * 24, "bar": {}, "dice": [], "cube": None}
    cover = truth.get("covered") or _no_cover(truth)
    got = read.get("points") or [None] * 24
    hid = cover["points"]
    unsure = sum(b is None for b in got)
    pts_read = sum(a == b for a, b in zip(truth["points"], got) if b is not None)
    # a frame not read at all (its setup did not calibrate) says nothing of caution under an arm
    in_view = [] if unread else [(a, b) for a, b, h in zip(truth["points"], got, hid) if not h]
    under = [] if unread else [(a, b) for a, b, h in zip(truth["points"], got, hid) if h]
    t_flat = Counter((d["value"], d["half"]) for d in truth["dice"] if d["flat"])
    r_flat = Counter((d.get("value"), d.get("half")) for d in read.get("dice") or [] if d.get("flat"))
    dv = sum((t_flat & r_flat).values())
    t_fc = Counter(d["flat"] for d in truth["dice"])
    r_fc = Counter(bool(d.get("flat")) for d in read.get("dice") or [])
    fc = sum((t_fc & r_fc).values())
    n_dice = max(len(truth["dice"]), len(read.get("dice") or []))
    tc, rc = truth["cube"], read.get("cube")
    cube_ok = (tc is None and rc is None) or (tc is not None and rc is not None and rc.get("value") == tc["value"] and rc.get("position") == tc["position"])
    dice_ok = _dice_ok(truth, read.get("dice") or [], cover["dice"])
    bar = read.get("bar") or {}
    bar_ok = all(bar.get(k) == v or (cover["bar"][k] and bar.get(k) is None) for k, v in truth["bar"].items())
    points_ok = not unread and all(a == b for a, b in in_view) and all(b is None or a == b for a, b in under)
    exact = points_ok and bar_ok and dice_ok and (cube_ok or (cover["cube"] and rc is None))
    out = {"exact": (int(exact), 1), "points": (pts_read, 24 - unsure), "unsure points": (unsure, 24),
           "unsure visible": (sum(b is None for _, b in in_view), len(in_view)),
           "unsure covered": (sum(b is None for _, b in under), len(under)),
           "wrong covered": (sum(b is not None and a != b for a, b in under), len(under)),
           "die value": (dv, sum(t_flat.values())), "flat/cocked": (fc, n_dice)}
    # what the referee would act on: dice and cube read surely (confidence >= SURE) yet wrong
    conf = read.get("confidence") or {}
    dice_conf = list(conf.get("dice") or [])
    rdice = read.get("dice") or []
    sure_read = [d for i, d in enumerate(rdice) if i < len(dice_conf) and (dice_conf[i] or 0) >= SURE]
    fkey = lambda d: (d.get("value") if d.get("flat") else None, bool(d.get("flat")), d.get("half"))  # noqa: E731
    sure_wrong = sum((Counter(fkey(d) for d in sure_read) - Counter(fkey(d) for d in truth["dice"])).values())
    out["die sure wrong"] = (sure_wrong, len(sure_read))
    if rc is not None and rc.get("value") is not None and (conf.get("cube") or 0) >= SURE:
        out["cube sure wrong"] = (int(not cube_ok), 1)
    if tc is not None:
        out["cube"] = (int(cube_ok), 1)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--setups", type=int, default=12)
    ap.add_argument("--stills", type=int, default=10, help="stills per setup")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="3 setups x 4 stills (a smoke test)")
    ap.add_argument("--fix", action="append", default=[], help="factor=value for every still")
    ap.add_argument("--hold-out", action="append", default=[], help="factor=value never drawn")
    ap.add_argument("--write-docs", "--docs", action="store_true", help="write the table into its section of docs/benchmarks.md")
    ap.add_argument("--keep", type=Path, help="keep the rendered stills and readings here")
    args = ap.parse_args()
    if args.quick:
        args.setups, args.stills = 3, 4
    if lacking := missing():
        print(f"bench_vision_world: this machine lacks the fonts {', '.join(lacking)}, so a seed draws other stills "
              f"than the documented run; install the Debian packages {' '.join(PACKAGES)}")
        if args.write_docs:
            return 2
    fixed = {k: v[0] for k, v in parse_kv(args.fix).items()}
    hold = {k: tuple(v) for k, v in parse_kv(args.hold_out).items()}
    tally: dict[tuple[str, str], dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    calib: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    overall: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    setups_ok = 0
    started = time.perf_counter()
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="bench_vision_world_"))
    for s in range(args.setups):
        folder = tmp / f"setup{s:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        start_fix = {**fixed, "position": "start", "dice": "none", "cube": "centre", "arms": "none", "motion": "none"}
        setup = random_scene(args.seed * 10_007 + s, start_fix, hold)
        setup = Scene(setup.seating, setup.mounting, setup.position, setup.checkers, (), setup.cube and setup.cube.__class__(1, "centre", *[getattr(setup.cube, k) for k in ("x", "y", "z", "yaw", "typeface")]),
                      setup.look, (), setup.factors, setup.seed)
        cv2.imwrite(str(folder / "start.jpg"), render(setup))
        cal = folder / "calibration.json"
        res = bgref("calibrate", str(folder / "start.jpg"), "-o", str(cal))
        ok = res.returncode == 0 and cal.exists()
        setups_ok += ok
        for k in ("turn", "side", "tilt", "height", "lens", "fill", "defocus", "lamp", "sources", "shadows", "dim", "leather", "copper", "walnut",
                  "white_balance", "home", "dark_seat", "table"):
            c = calib[(k, setup.factors[k])]
            c[0] += ok; c[1] += 1
        why = "" if ok else (res.stderr.strip().splitlines() or ["?"])[-1][:110]
        scenes = [random_scene(args.seed * 10_007 + 1000 * (s + 1) + i, fixed, hold, setup=setup) for i in range(args.stills)]
        paths = []
        for i, sc in enumerate(scenes):
            p = folder / f"still{i:02d}.jpg"
            cv2.imwrite(str(p), render(sc), [cv2.IMWRITE_JPEG_QUALITY, 98])
            paths.append(p)
        reads: list[dict | None] = [None] * len(scenes)
        if ok:
            out = bgref("read", *map(str, paths), "--calibration", str(cal))
            lines = [ln for ln in out.stdout.splitlines() if ln.strip().startswith("{")]
            for i, ln in enumerate(lines[: len(scenes)]):
                try:
                    reads[i] = json.loads(ln)
                except json.JSONDecodeError:
                    pass
        exact = 0
        for sc, rd in zip(scenes, reads):
            truth = world_truth(sc)
            sco = score(truth, rd)
            exact += sco["exact"][0]
            for m, (a, b) in sco.items():
                overall[m][0] += a; overall[m][1] += b
                for k, v in sc.factors.items():
                    t = tally[(k, v)][m]
                    t[0] += a; t[1] += b
            (folder / f"still{scenes.index(sc):02d}.json").write_text(json.dumps({"truth": truth, "read": rd, "factors": sc.factors}))
        print(f"setup {s:2d}: calibrated {'yes' if ok else 'NO '} {why}  exact {exact}/{len(scenes)}  "
              f"[turn {setup.factors['turn']}, side {setup.factors['side']}, lens {setup.factors['lens']}, fill {setup.factors['fill']}, lamp {setup.factors['lamp']}, dim {setup.factors['dim']}]", flush=True)
    elapsed = time.perf_counter() - started

    def pct(a: int, b: int) -> str:
        return f"{100 * a / b:.1f}% ({a}/{b})" if b else "-"

    n = args.setups * args.stills
    lines = [f"Setups {args.setups} x stills {args.stills} = {n} stills, seed {args.seed}"
             + (f", fixed {fixed}" if fixed else "") + (f", held out {hold}" if hold else "") + f"; {elapsed:.0f} s.", "",
             f"Calibration: {setups_ok} of {args.setups} setups.  Overall: " + ", ".join(f"{m} {pct(*overall[m])}" for m in MEASURES), "",
             "| factor | value | calibrated | " + " | ".join(MEASURES) + " |", "|---|---|---|" + "---|" * len(MEASURES)]
    for name, values in FACTORS.items():
        for v in values:
            if (name, v) not in tally and (name, v) not in calib:
                continue
            t = tally.get((name, v), {})
            c = calib.get((name, v))
            lines.append(f"| {name} | {v} | {pct(*c) if c else '(per still)'} | " + " | ".join(pct(*t[m]) if m in t else "-" for m in MEASURES) + " |")
    text = "\n".join(lines)
    print(text)
    if args.write_docs:
        write_section(HEADING, "Written by `benchmarks/bench_vision_world.py` (renderer: `benchmarks/world`, which imports nothing from the product; "
                      "calibrated once per camera setup with `bgref calibrate`, read with `bgref read`). "
                      "Measures: whole board exact (points, bar, dice, cube; a place an arm, sleeve or cup covers, by the world's own geometry, "
                      "may be read right or left unsure, never wrong), per point read (a point the reader calls unsure "
                      "is counted under 'unsure points' instead; 'unsure visible' of the points in view, 'unsure covered' of those covered), "
                      "'wrong covered': covered points read with a wrong count, per flat die value, flat/cocked per die, cube value and owner (an unread cube counts as a miss); "
                      "'die sure wrong' and 'cube sure wrong': of the dice and cubes read at confidence >= 0.6 (what the referee acts on), "
                      "those wrong. "
                      "A setup that does not calibrate counts its stills as unread.\n\n" + text)
    return 0


def write_section(heading: str, body: str) -> None:
    """Replace (or add) this run's section of docs/benchmarks.md (``benchmarks/docs_section.py``),
    leaving the others alone; the section's name is the heading's words."""
    title = heading.lstrip("#").strip()
    name = "-".join("".join(c if c.isalnum() else " " for c in title.lower()).split())
    docs_section.write_section(name, title, body, markdown=True)


if __name__ == "__main__":
    raise SystemExit(main())
