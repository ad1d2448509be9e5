"""Frame round trip between the bridge and the real firmware code over a pty, and frame sizes.

    .venv/bin/python benchmarks/bench_bridge.py [--frames 500]

The firmware (hardware/firmware/bgled.py with firmware_bridge/protocol.py) runs under
CPython in a thread on the pty's master end, with stub ``machine``/``neopixel``
modules; the bridge (LedController over pyserial) opens the slave end.  A round trip
is: a new whole-strip state handed to the controller, sent, decoded and shown by the
firmware, acknowledged, and the ack decoded by the host.  On a real Pico the USB link
and MicroPython's slower interpreter add to this; the number here is the software's
own cost on this machine.
"""

from __future__ import annotations

import argparse
import os
import select
import statistics
import sys
import threading
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "hardware" / "firmware"))


class _Strip:
    def __init__(self, pin, n):
        self.n, self.buf = n, [(0, 0, 0)] * n

    def __setitem__(self, i, rgb):
        self.buf[i] = rgb

    def write(self):
        pass


def _stub_hardware() -> None:
    sys.modules["machine"] = types.SimpleNamespace(Pin=lambda n, *a: n, WDT=None)
    sys.modules["neopixel"] = types.SimpleNamespace(NeoPixel=_Strip)
    sys.modules["micropython"] = types.SimpleNamespace(kbd_intr=lambda n: None)


def _firmware_thread(master_fd: int, stop: threading.Event) -> threading.Thread:
    import bgled  # type: ignore[import-not-found]

    stream = os.fdopen(master_fd, "r+b", buffering=0)
    port = bgled.StreamPort(stream, stream, select)
    ticks = lambda: int(time.monotonic() * 1000)
    controller = bgled.Controller(_Strip(16, 36), 36, ticks, lambda a, b: a - b)

    def loop() -> None:
        while not stop.is_set():
            bgled.run_once(controller, port, timeout_ms=20)
        stream.close()

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    return thread


def _states(count: int):
    from firmware_bridge import Signals, SimulatedBoard

    board, points = SimulatedBoard(), list(range(1, 25))
    signals = Signals(board, lambda: 0.0)
    for i in range(count):
        signals.illegal_play([points[i % 24], points[(i * 7) % 24]])
        signals.cube(2 ** (1 + i % 6), "dark" if i % 2 else "light")
    return board.states


def _round_trips(frames: int) -> list[float]:
    from firmware_bridge import LedController, SerialConnector

    master, slave = os.openpty()
    path = os.ttyname(slave)
    os.close(slave)
    stop = threading.Event()
    thread = _firmware_thread(master, stop)
    opened = []
    connector = SerialConnector(path)
    controller = LedController(lambda: opened.append(connector()) or opened[-1], time.monotonic)
    _wait(controller, opened, time.monotonic() + 5)
    times = []
    for state in _states(frames):
        start = time.perf_counter()
        controller.show(state)
        _wait(controller, opened, time.monotonic() + 5)
        times.append(time.perf_counter() - start)
    stop.set()
    thread.join(2)
    controller.close()
    return times


def _wait(controller, opened, deadline: float) -> None:
    controller.service()
    while not controller.shown:
        if time.monotonic() > deadline:
            raise SystemExit("bench: the controller did not acknowledge (%s)" % controller.problem)
        if opened:
            select.select([opened[-1].fileno()], [], [], 0.05)
        controller.service()


def _frame_sizes() -> tuple[int, int]:
    from firmware_bridge import Layout, protocol

    state = _states(1)[-1]
    full = protocol.encode_frame(protocol.STATE, 0xFFFF, protocol.encode_state(state.pixels(Layout()), 255))
    worst = protocol.encode_frame(protocol.STATE, 0xFFFF, protocol.encode_state([(255, 255, 255, 5)] * protocol.MAX_LEDS))
    return len(full), len(worst)


def _codec_us(n: int = 2000) -> float:
    from firmware_bridge import Layout, protocol

    pixels = _states(1)[-1].pixels(Layout())
    start = time.perf_counter()
    for seq in range(n):
        wire = protocol.encode_frame(protocol.STATE, seq, protocol.encode_state(pixels))
        protocol.decode_state(protocol.decode_frame(protocol.Framer().feed(wire)[0]).payload)
    return (time.perf_counter() - start) / n * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=500)
    args = parser.parse_args()
    _stub_hardware()
    full, worst = _frame_sizes()
    print("full-state frame, 36 LEDs (whole strip): %d bytes (limit 1024)" % full)
    print("largest frame the protocol allows, 64 LEDs: %d bytes" % worst)
    print("codec, encode + frame + decode of a full state: %.0f us" % _codec_us())
    times = sorted(_round_trips(args.frames))
    p99 = times[min(len(times) - 1, int(round(0.99 * (len(times) - 1))))]
    print("round trip over the pty, %d frames: median %.2f ms, p99 %.2f ms, max %.2f ms"
          % (len(times), statistics.median(times) * 1e3, p99 * 1e3, times[-1] * 1e3))
    return 0 if full < 1024 else 1


if __name__ == "__main__":
    sys.exit(main())
