"""`bgref demo`: referee a bundled recording of a whole game with simulated LEDs,
then print the recorded match.

No camera, Pi or LED controller is needed.  The recording holds what the
camera reports (settled board readings, hands passing over the board) for one
whole game with an equal opening roll, a cocked die, an illegal play that is
corrected, an illegal play accepted as made, and a double that is taken.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
import time
from functools import partial
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, TextIO

from engine.game import Rules
from firmware_bridge import Signals, SimulatedBoard

from .commands import web_address
from .core import Mode, Note, Seen, Settings
from .service import RefereeService

if TYPE_CHECKING:
    from vision.reading import Reading

RECORDING = "demo-game.jsonl"


def register(subparsers: Any) -> None:
    demo = subparsers.add_parser("demo", help="referee a bundled recorded game with simulated LEDs")
    demo.add_argument("--recording", type=Path, help="a recording of board readings (JSON lines); default: the bundled game")
    demo.add_argument("--video", help="camera footage instead (a video file or a folder of frames, e.g. from `python -m referee.footage`): calibrated on its first frame, then settled, read and refereed frame by frame")
    demo.add_argument("--calibration", type=Path, help="with --video: a calibration file instead of calibrating on the first frame")
    demo.add_argument("--out", type=Path, help="match folder to write the journal, .mat and SGF into (default: a temporary folder)")
    demo.add_argument("--mode", choices=[m.value for m in Mode], default="referee")
    demo.add_argument("--realtime", action="store_true", help="play the recording at the speed it was made")
    demo.add_argument("--leds", choices=["changes", "illegal", "none"], default="illegal", help="when to draw the LED board")
    demo.add_argument("--web", metavar="[HOST:]PORT", type=web_address, help="serve the live web page while refereeing (host default 0.0.0.0)")
    demo.add_argument("--keep-serving", action="store_true", help="with --web: keep serving the page after the recording ends (Ctrl-C stops)")
    demo.set_defaults(func=run)


def _start_web(service: RefereeService, address: tuple[str, int], out: TextIO) -> Any:
    """The live page for the demo (None when it cannot be served: said on stderr)."""
    from .web import WebServer

    devices = {
        "camera": lambda: (False, "no camera: a recorded game is replayed"),
        "leds": lambda: (False, "no LED controller: the LEDs are simulated on the console"),
    }
    web = WebServer(service, address[0], address[1], devices=devices)
    try:
        web.start()
    except OSError as exc:
        print(f"bgref demo: {exc}", file=sys.stderr)
        return None
    out.write(web.banner() + "\n")
    out.flush()
    return web


def _keep_serving(out: TextIO) -> None:
    out.write("serving the web page until Ctrl-C\n")
    out.flush()
    try:
        while True:
            time.sleep(1.0)
    except KeyboardInterrupt:
        pass


def load_recording(path: Path | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The recording's header and its items (``{"t", "reading"}`` or ``{"t", "press"}``), each reading
    checked and typed (a ``vision.reading.Reading``)."""
    if path is None:
        text = resources.files("referee.data").joinpath(RECORDING).read_text(encoding="utf-8")
        source = f"bundled {RECORDING}"
    else:
        text = path.read_text(encoding="utf-8")
        source = str(path)
    lines = [line for line in text.splitlines() if line.strip()]
    try:
        header = json.loads(lines[0])
        items = [json.loads(line) for line in lines[1:]]
    except (IndexError, json.JSONDecodeError) as exc:
        raise SystemExit(f"bgref demo: {source} is not a recording of board readings ({exc})") from None
    from vision.reading import Reading, ReadingError

    for number, item in enumerate(items, start=2):
        if isinstance(item, dict) and "reading" in item:
            try:
                item["reading"] = Reading.from_json(item["reading"])
            except ReadingError as exc:
                raise SystemExit(f"bgref demo: {source}, line {number}: not a board reading: {exc}") from None
    return header, items


def _reading_steps(items: list[dict[str, Any]], handle: Callable[[Seen], Any]) -> Iterator[tuple[float, Callable[[], Any]]]:
    for item in items:
        t = float(item.get("t", 0.0))
        yield t, partial(_handle_reading, handle, item["reading"], t)


def _handle_reading(handle: Callable[[Seen], Any], reading: Reading, t: float) -> Any:
    return handle(Seen.from_reading(reading, t))


def _video_steps(source: Any, pipeline: Any) -> Iterator[tuple[float, Callable[[], Any]]]:
    for t, frame in source.frames():
        yield t, partial(pipeline.feed, t, frame)


def _open_video(args: argparse.Namespace) -> tuple[Any, Any, str]:
    """The footage, opened; its calibration; and the half on dark's right."""
    from vision import BoardReader, CalibrationConfig, calibrate, load_calibration
    from vision.sources import CameraError, open_source
    from vision.errors import VisionError

    from .seating import Seating

    try:
        source = open_source(args.video)
        source.open()
        if args.calibration:
            cal = load_calibration(args.calibration)
        else:
            first = next(iter(source.frames()), None)
            if first is None:
                raise SystemExit(f"bgref demo: {args.video} holds no frames")
            cal = calibrate(CalibrationConfig(), first[1])
            source.close()
            source.open()
    except (CameraError, VisionError) as exc:
        raise SystemExit(f"bgref demo: {exc}") from None
    return source, BoardReader(cal), Seating.from_layout(cal.layout).dark_right


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.ERROR, format="%(message)s")  # notes are printed below
    header, items = load_recording(args.recording)
    video = _open_video(args) if args.video else None
    players = tuple(header.get("players", ("Dark", "Light")))
    settings = Settings(
        rules=Rules(match_length=3),
        players=(players[0], players[1]),
        mode=Mode(args.mode),
        dark_right_half=video[2] if video else "home",
    )
    folder = args.out or Path(tempfile.mkdtemp(prefix="bgref-demo-"))
    if (folder / "match.journal").exists():
        print(f"bgref demo: {folder} already holds a match; give another --out folder", file=sys.stderr)
        return 2
    board = SimulatedBoard()
    clock = _Clock()
    signals = Signals(board, clock=clock)
    service = RefereeService(settings, folder, signals)
    out = sys.stdout
    web = _start_web(service, args.web, out) if args.web else None
    if args.web and web is None:
        return 2
    target: Any = web if web is not None else service
    if video is not None:
        from .pipeline import FramePipeline

        pipeline = FramePipeline(video[1], target)
        steps = _video_steps(video[0], pipeline)
        what = f"the footage {args.video}"
    else:
        steps = _reading_steps(items, target.handle)
        what = f"{header.get('recording', 'a recording')} ({len(items)} readings)"
    out.write(f"bgref demo: refereeing {what}, simulated LEDs\n")
    out.write(f"players: {settings.players[0]} (dark) and {settings.players[1]} (light); match folder {folder}\n\n")
    started = time.perf_counter()
    notes: list[Note] = []
    service.listeners.on_note.append(notes.append)
    shown = board.current
    count = 0
    for t, feed in _timed(steps, clock, args.realtime):
        before = len(notes)
        feed()
        count += 1
        for note in notes[before:]:
            mark = {"illegal": "!!", "warning": " !"}.get(note.level, "  ")
            out.write(f"{t:7.1f}s {mark} {note.text}\n")
        if board.current != shown:
            shown = board.current
            if args.leds == "changes" or (args.leds == "illegal" and any(n.level == "illegal" for n in notes[before:])):
                _draw(out, board)
    took = time.perf_counter() - started
    if web is not None and (args.realtime or args.keep_serving):
        _keep_serving(out)
    if web is not None:
        web.stop()
        service = web.service  # a new match may have been started from the page
        folder = service.folder
    service.write_records()
    service.close()
    record_text = (folder / "match.mat").read_text(encoding="utf-8")
    unit = "frames" if video is not None else "readings"
    out.write(f"\nprocessed {count} {unit} in {took:.2f} s; files in {folder}:\n")
    for name in sorted(p.name for p in folder.iterdir()):
        out.write(f"  {name}\n")
    out.write("\nthe recorded match (.mat, as GNU Backgammon and eXtreme Gammon import it):\n\n")
    out.write(record_text)
    return 0


class _Clock:
    """The recording's time, for the LED patterns."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _timed(steps: Iterator[tuple[float, Callable[[], Any]]], clock: _Clock, realtime: bool) -> Iterator[tuple[float, Callable[[], Any]]]:
    last = None
    for t, feed in steps:
        if realtime and last is not None:
            time.sleep(max(0.0, t - last))
        last = t
        clock.now = t
        yield t, feed


def _draw(out: TextIO, board: SimulatedBoard) -> None:
    out.write("\n" + board.text() + "\n\n")
