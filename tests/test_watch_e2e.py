"""The real `bgref watch` entry point end to end, as systemd runs it: a folder of camera frames in,
no calibration file, the LED controller's real firmware on the far end of a pty, SIGTERM to stop.

The firmware (hardware/firmware/bgled.py) runs in a thread of the test process under CPython with
a stub NeoPixel, on the pty's master end; `watch` opens the slave end by path as it would
/dev/ttyACM0.  The footage is rendered with referee.footage (its own renderer, not the reader).
"""

from __future__ import annotations

import importlib.util
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
import types
from pathlib import Path

import cv2
import pytest
from vision.reading import Reading

ROOT = Path(__file__).resolve().parents[1]
FIRMWARE = ROOT / "hardware" / "firmware"


class StubNeoPixel:
    def __init__(self, n: int) -> None:
        self.buf = [(0, 0, 0)] * n
        self.written: list[tuple] = []

    def __setitem__(self, i, rgb):
        self.buf[i] = tuple(rgb)

    def __len__(self):
        return len(self.buf)

    def write(self):
        self.written.append(tuple(self.buf))


class FirmwareOnPty:
    """The LED controller firmware answering on a pty, with the real clock, in a thread."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        stub = types.SimpleNamespace
        monkeypatch.setitem(sys.modules, "machine", stub(Pin=lambda *a: None, WDT=None, Timer=None))
        monkeypatch.setitem(sys.modules, "neopixel", stub(NeoPixel=None))
        monkeypatch.setitem(sys.modules, "micropython", stub(kbd_intr=lambda n: None))
        monkeypatch.syspath_prepend(str(FIRMWARE))
        monkeypatch.delitem(sys.modules, "bgled", raising=False)
        spec = importlib.util.spec_from_file_location("bgled", FIRMWARE / "bgled.py")
        self.bgled = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(self.bgled)
        master, slave = os.openpty()
        self.path = os.ttyname(slave)
        self._slave = slave  # kept open so the pty survives the host closing and reopening it
        self.master = os.fdopen(master, "r+b", buffering=0)
        self.strip = StubNeoPixel(36)
        self.controller = self.bgled.Controller(self.strip, 36, lambda: int(time.monotonic() * 1000), lambda a, b: a - b)
        self.port = self.bgled.StreamPort(self.master, self.master, select)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            try:
                self.bgled.run_once(self.controller, self.port, timeout_ms=10)
            except OSError:
                time.sleep(0.01)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(2)
        self.master.close()
        os.close(self._slave)

    def lit(self, frame: tuple) -> dict[int, tuple]:
        return {i: rgb for i, rgb in enumerate(frame) if rgb != (0, 0, 0)}


SETUP_PIXELS = {6, 13, 22, 29}


def _led_frames(firmware: FirmwareOnPty) -> tuple[list[dict], list[dict], list[dict]]:
    """The LED frames written so far, those of the setup signal (blue on the bar LEDs and seat lights), and those after it."""
    frames = [firmware.lit(f) for f in list(firmware.strip.written)]
    setup = [f for f in frames if f and set(f) == SETUP_PIXELS and all(b > 0 and r == g == 0 for r, g, b in f.values())]
    return frames, setup, (frames[frames.index(setup[-1]) + 1:] if setup else [])


def _lit_after_setup(firmware: FirmwareOnPty) -> bool:
    return any(f and set(f) != SETUP_PIXELS for f in _led_frames(firmware)[2])


@pytest.fixture(scope="module")
def footage_dir(tmp_path_factory) -> Path:
    """The opening and two plays of a scripted game, seen by a rendered camera, as a folder of JPEG
    frames; the board then stays still for a few hundred frames (links to the last), so that `watch`
    is still running when the test stops it."""
    from referee.footage import FootageConfig, footage, game_items, scripted_setup
    from referee.recording import Script

    cfg = FootageConfig(size=(1280, 720))
    setup = scripted_setup(5, cfg.size)
    folder = tmp_path_factory.mktemp("frames")
    items = game_items(7, setup.layout, Script(), turns=2)
    n = 0
    for n, (_, frame, _) in enumerate(footage(items, setup, 5, cfg)):
        cv2.imwrite(str(folder / f"frame{n:05d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
    for k in range(n + 1, n + 400):
        (folder / f"frame{k:05d}.jpg").symlink_to(folder / f"frame{n:05d}.jpg")
    (folder / "fps.txt").write_text("5\n")
    (folder / "layout.json").write_text(json.dumps({"home_right": setup.layout.home_right, "dark_bottom": setup.layout.dark_bottom}))
    return folder


def start_watch(tmp_path: Path, camera: str, led_port: str, *extra: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONUNBUFFERED="1", XDG_CONFIG_HOME=str(tmp_path / "no-config"), STATE_DIRECTORY=str(tmp_path / "state"))
    env.pop("BGREF_CONFIG", None)
    (tmp_path / "state").mkdir(exist_ok=True)
    cmd = [sys.executable, "-m", "referee.cli", "watch", "--camera", camera, "--led-port", led_port, "--web", "off", *extra]
    return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def sigterm(proc: subprocess.Popen) -> tuple[int, float, str]:
    """Stop ``watch`` as systemd does: its exit code, the seconds it took, what it printed."""
    sent = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    code = proc.wait(timeout=10)
    return code, time.monotonic() - sent, proc.stdout.read()


def journal_events(path: Path) -> list[dict]:
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
    return [json.loads(line)["entry"] for line in lines[1:] if line.endswith("}")]


@pytest.mark.slow  # renders camera footage first (the module's footage_dir, about a minute)
def test_watch_first_run_calibrates_referees_and_stops_cleanly_on_sigterm(tmp_path, footage_dir, monkeypatch) -> None:
    from referee.journal import recover

    firmware = FirmwareOnPty(monkeypatch)
    try:
        proc = start_watch(tmp_path, str(footage_dir), firmware.path)
        journal = tmp_path / "state" / "current" / "match.journal"
        deadline = time.monotonic() + 120
        # the LED frame of play follows the journal's events on another thread: under load it can lag them
        while ((len(journal_events(journal)) < 3 or not _lit_after_setup(firmware)) and proc.poll() is None
               and time.monotonic() < deadline):
            time.sleep(0.05)
        assert proc.poll() is None, "watch ended before the game was under way:\n" + proc.stdout.read()
        code, stop_seconds, output = sigterm(proc)
    finally:
        firmware.close()
    assert code == 0, output
    assert stop_seconds < 2.0, (stop_seconds, output)
    assert "stopped by signal 15" in output and "Traceback" not in output
    # no calibration file at the start: the first settled start position made one, saved in the state folder
    assert "put the checkers in the start position" in output
    saved = json.loads((tmp_path / "state" / "calibration.json").read_text())
    truth = json.loads((footage_dir / "layout.json").read_text())
    assert saved["layout"] == truth
    # the journal is whole (no torn line) and the records were written on the way out
    recovered = recover(journal)
    assert recovered.dropped_lines == 0 and len(recovered.events) >= 3
    assert (tmp_path / "state" / "current" / "match.mat").read_text().strip()
    # LED frames came over the pty: first the setup signal (blue on both bar LEDs and both seat lights:
    # pixels 6, 29, 13, 22 for every seating with the strip's start at the bottom of the image), then play
    frames, setup_frames, later = _led_frames(firmware)
    assert setup_frames, frames[:5]
    assert any(f and set(f) != SETUP_PIXELS for f in later), "no LED frame after calibration"


def test_watch_retries_a_missing_camera_and_stops_at_once(tmp_path, monkeypatch) -> None:
    firmware = FirmwareOnPty(monkeypatch)
    try:
        proc = start_watch(tmp_path, "usb:97", firmware.path)
        time.sleep(3.0)  # start-up, a failed open, and into the 2 s retry wait
        assert proc.poll() is None
        code, stop_seconds, output = sigterm(proc)
    finally:
        firmware.close()
    assert code == 0 and stop_seconds < 2.0, (stop_seconds, output)
    assert "no camera at index 97" in output and "retrying every 2 s" in output
    # the camera fault is on the LEDs: white triple flash on both seat lights and both bar LEDs
    assert any(set(firmware.lit(f)) == {6, 13, 22, 29} and all(rgb[0] == rgb[1] == rgb[2] > 0 for rgb in firmware.lit(f).values())
               for f in firmware.strip.written)


@pytest.mark.slow  # renders camera footage first (the module's footage_dir, about a minute)
def test_selfcheck_and_snapshot_use_the_watch_pipeline(tmp_path, footage_dir, monkeypatch) -> None:
    firmware = FirmwareOnPty(monkeypatch)
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "no-config"), STATE_DIRECTORY=str(tmp_path))
    try:
        check = subprocess.run([sys.executable, "-m", "referee.cli", "selfcheck", "--camera", str(footage_dir), "--led-port", firmware.path],
                               cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    finally:
        firmware.close()
    lines = check.stdout.splitlines()
    assert any(line.startswith("ok    camera") and "1280x720" in line for line in lines), check.stdout
    assert any(line.startswith("ok    LEDs") and "firmware 1." in line for line in lines), check.stdout
    assert any(line.startswith("FAIL  GPIO") for line in lines)  # no GPIO on this machine: said, not a traceback
    assert check.returncode == 1 and "Traceback" not in check.stderr
    # the sweep: each LED alone, lit white, in turn
    singles = [firmware.lit(f) for f in firmware.strip.written if len(firmware.lit(f)) == 1]
    assert {i for f in singles for i in f} == set(range(36))
    out = tmp_path / "snap.jpg"
    snap = subprocess.run([sys.executable, "-m", "referee.cli", "snapshot", "--camera", str(footage_dir), "-o", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert snap.returncode == 0 and cv2.imread(str(out)).shape == (720, 1280, 3)


@pytest.mark.slow
def test_watch_without_calibration_referees_a_whole_recorded_game(tmp_path) -> None:
    """`bgref watch --camera DIR` with no calibration file: the game from its start position to its
    end, the same events as the script's true readings give."""
    from engine.game import Rules
    from referee.core import Seen, Settings
    from referee.footage import FootageConfig, footage, game_items, scripted_setup
    from referee.journal import recover
    from referee.recording import Script
    from referee.seating import Seating
    from referee.service import RefereeService

    cfg = FootageConfig(size=(1280, 720))
    setup = scripted_setup(5, cfg.size)
    items = game_items(7, setup.layout, Script())
    frames = tmp_path / "frames"
    frames.mkdir()
    for n, (_, frame, _) in enumerate(footage(items, setup, 5, cfg)):
        cv2.imwrite(str(frames / f"frame{n:05d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 90])
    (frames / "fps.txt").write_text("5\n")
    settings = Settings(rules=Rules(match_length=5), players=("Dark", "Light"), dark_right_half=Seating.from_layout(setup.layout).dark_right)
    truth = RefereeService(settings, tmp_path / "truth", None)
    for item in items:
        truth.handle(Seen.from_reading(Reading.from_json(item["reading"])))
    assert truth.ref.match.games_played == 1  # the script plays the game to its end
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "no-config"), STATE_DIRECTORY=str(tmp_path / "state"))
    run = subprocess.run([sys.executable, "-m", "referee.cli", "watch", "--camera", str(frames), "--simulate-leds", "--web", "off", "--match-length", "5"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=3600)
    assert run.returncode == 0, run.stderr[-3000:]
    seen = recover(tmp_path / "state" / "current" / "match.journal")
    assert list(seen.events) == truth.events
    assert (tmp_path / "state" / "current" / "match.mat").read_text() == (tmp_path / "truth" / "match.mat").read_text()


@pytest.mark.slow  # renders camera footage first (the module's footage_dir, shared with the slow tests above)
def test_watch_asks_for_the_start_position_on_the_page(tmp_path, footage_dir, monkeypatch) -> None:
    import re
    import urllib.request

    firmware = FirmwareOnPty(monkeypatch)
    env = dict(os.environ, PYTHONUNBUFFERED="1", XDG_CONFIG_HOME=str(tmp_path / "no-config"), STATE_DIRECTORY=str(tmp_path / "page"))
    cmd = [sys.executable, "-m", "referee.cli", "watch", "--camera", str(footage_dir), "--led-port", firmware.path, "--web", "127.0.0.1:0"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        url = None
        for line in proc.stdout:
            found = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
            if found:
                url = found.group(1)
                break
        assert url, "no web page address in the log"
        state = json.loads(urllib.request.urlopen(url + "api/state", timeout=10).read())
        assert any("put the checkers in the start position" in note["text"] for note in state["notes"]), state["notes"]
    finally:
        code, seconds, _ = sigterm(proc)
        firmware.close()
    assert code == 0 and seconds < 2.0
