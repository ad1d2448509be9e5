"""The referee service on rendered camera footage of a whole scripted game.

Renders the footage (seeded; 1280x720 JPEG frames in a temporary folder, as a
camera would deliver them), calibrates on the first frame, then referees every
frame from the folder and prints:

- frames per second sustained by the pipeline (JPEG decode, settle detection,
  reading, refereeing, journal) on one process;
- time from the dice being picked up to the verdict: the settle wait (footage
  time) plus the measured time to read and judge, median and worst;
- whether the recorded match equals the game refereed from its true readings,
  and the flags raised against those injected.

``--drop-dice N[,SEED]`` hides one die (picked by SEED) of every Nth roll from
the settled readings the referee gets, from the footage and from the true
readings alike (``--drop-first-only``: from a roll's first reading only), as
when vision misses a die; it reports the events recorded, the rolls taken
from the play and the flags raised.

    .venv/bin/python benchmarks/bench_referee.py [--seed 7] [--camera-seed 11] [--turns N] [--fps 10] [--drop-dice 5,1]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: as `bgref` runs (referee/cli.py)

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import cv2

from engine.game import Rules
from referee.core import Seen, Settings
from referee.footage import FootageConfig, footage, game_items, scripted_setup
from referee.seating import Seating
from referee.pipeline import DroppedDice, FramePipeline
from referee.recording import Script
from referee.service import RefereeService
from vision import BoardReader, CalibrationConfig, calibrate
from vision.sources import FolderSource


def pickup_times(items: list[dict], cfg: FootageConfig) -> list[float]:
    """Footage times of the first frame after the dice were picked up (the footage's timeline)."""
    out, t, had_dice = [], 0.0, False
    for item in items:
        reading = item["reading"]
        occluded = bool(reading.get("occluded"))
        if not occluded:
            if had_dice and not reading.get("dice"):
                out.append(t)
            had_dice = bool(reading.get("dice"))
        t += (cfg.arm_frames if occluded else cfg.hold_frames) / cfg.fps
    return out


def dropping(service: RefereeService, spec: str, first_only: bool) -> DroppedDice:
    """``--drop-dice N[,SEED]``: one die of every Nth roll hidden."""
    every, _, seed = spec.partition(",")
    n, s = int(every), int(seed or 0)
    return DroppedDice(service, lambda roll: roll % n == s % n, seed=s, first_only=first_only)


def report_drop(what: str, drop: DroppedDice, service: RefereeService, truth: RefereeService, notes: list) -> None:
    """Events recorded and flags raised with dice hidden, against the untouched readings."""
    flags = [n for n in notes if n.level != "info"]
    inferred = sum("from the play" in n.text for n in flags)
    asks = sum("not seen whole" in n.text for n in flags)
    prefix = service.events == truth.events[: len(service.events)]
    print(f"{what} with a die hidden from {len(drop.dropped)} of {drop.rolls + 1} rolls {drop.dropped}: recorded match equals the game played: "
          f"{service.record() == truth.record()}; events {len(service.events)} of {len(truth.events)} (all as played: {prefix}); "
          f"flags {len(flags)}: {inferred} rolls taken from the play, {asks} requests to show the dice")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--camera-seed", type=int, default=11)
    parser.add_argument("--turns", type=int, help="cut the game after about this many plays")
    parser.add_argument("--fps", type=float, default=10.0)
    parser.add_argument("--frames", type=Path, help="reuse the frames a previous run rendered (same seeds and fps)")
    parser.add_argument("--drop-dice", metavar="N[,SEED]", help="hide one die of every Nth roll (from roll SEED %% N; the die picked by SEED)")
    parser.add_argument("--drop-first-only", action="store_true", help="with --drop-dice: from the roll's first settled reading only")
    args = parser.parse_args()
    cfg = FootageConfig(size=(1280, 720), fps=args.fps, hold_frames=max(3, round(0.6 * args.fps)), arm_frames=max(1, round(0.2 * args.fps)))
    setup = scripted_setup(args.camera_seed, cfg.size)
    script = Script()
    items = game_items(args.seed, setup.layout, script, args.turns)
    work = Path(tempfile.mkdtemp(prefix="bgref-bench-"))
    pickups = pickup_times(items, cfg)
    if args.frames:
        frames_dir = args.frames
        print(f"reusing the frames in {frames_dir}; injected: {script.events}")
    else:
        frames_dir = work / "frames"
        frames_dir.mkdir()
        (frames_dir / "fps.txt").write_text(f"{args.fps:g}\n")
        start = time.perf_counter()
        n = 0
        for _, frame, _truth in footage(items, setup, args.camera_seed, cfg):
            cv2.imwrite(str(frames_dir / f"frame{n:05d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
            n += 1
        print(f"rendered {n} frames of {len(items)} readings in {time.perf_counter() - start:.0f} s; injected: {script.events}")

    settings = Settings(rules=Rules(match_length=5), players=("Ann", "Bob"), dark_right_half=Seating.from_layout(setup.layout).dark_right)
    truth_service = RefereeService(settings, work / "truth", None)
    truth_flags = [n for item in items for n in truth_service.handle(Seen.from_reading(item["reading"])).notes if n.level != "info"]
    if args.drop_dice:
        dropped = RefereeService(settings, work / "truth-dropped", None)
        drop = dropping(dropped, args.drop_dice, args.drop_first_only)
        notes = [n for item in items for n in drop.handle(Seen.from_reading(item["reading"])).notes]
        report_drop("true readings", drop, dropped, truth_service, notes)

    source = FolderSource(frames_dir, fps=args.fps)
    source.open()
    first = next(iter(source.frames()))[1]
    cal = calibrate(CalibrationConfig(), first)
    service = RefereeService(settings, work / "seen", None)
    drop = dropping(service, args.drop_dice, args.drop_first_only) if args.drop_dice else None
    pipeline = FramePipeline(BoardReader(cal), drop or service)
    latencies: list[float] = []
    flags = []
    begin = time.perf_counter()
    for t, frame in source.frames():
        tick = time.perf_counter()
        outcome = pipeline.feed(t, frame)
        if outcome is None:
            continue
        flags += [n for n in outcome.notes if n.level != "info"]
        if outcome.verdict is not None:
            waited = min((t - p for p in pickups if p <= t), default=0.0)
            latencies.append(waited + (time.perf_counter() - tick))
    wall = time.perf_counter() - begin
    stats = pipeline.stats
    print(f"pipeline: {stats.frames} frames in {wall:.1f} s = {stats.frames / wall:.1f} frames/s sustained; {stats.reads} readings, "
          f"median read {1000 * statistics.median(stats.read_seconds):.0f} ms, max {1000 * max(stats.read_seconds):.0f} ms")
    if latencies:
        print(f"dice picked up -> verdict: median {1000 * statistics.median(latencies):.0f} ms, max {1000 * max(latencies):.0f} ms "
              f"over {len(latencies)} verdicts (settle wait {pipeline.settle_cfg.settle_seconds} s included, at {args.fps:g} fps)")
    same = service.record() == truth_service.record()
    print(f"recorded match equals the game played: {same}; events {len(service.events)} vs {len(truth_service.events)}")
    print(f"flags raised: {len(flags)} (from the true readings: {len(truth_flags)}); same flags: {[f.text for f in flags] == [f.text for f in truth_flags]}")
    for note in flags:
        print(f"  {note.level}: {note.text}")
    if drop is not None:
        report_drop("footage", drop, service, truth_service, flags)
    print(f"frames and files in {work}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
