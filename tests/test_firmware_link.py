"""The real LED controller firmware (hardware/firmware) against the real bridge, over a pty.

The firmware runs under CPython with stub ``machine``/``neopixel``/``micropython``
modules; the bridge opens the pty's slave end with pyserial exactly as it opens
/dev/ttyACM0.  Time is a shared fake clock; the only waiting is on pty readiness.
"""

from __future__ import annotations

import importlib.util
import os
import random
import select
import sys
import types
from pathlib import Path

import pytest
import serial

from firmware_bridge import (
    FirmwareVersionError,
    Layout,
    LedController,
    LinkStatus,
    PortOpenError,
    SerialConnector,
    Signals,
    protocol,
)
from firmware_bridge.errors import ControllerNotFoundError

FIRMWARE = Path(__file__).resolve().parents[1] / "hardware" / "firmware"


# -- stubs of the MicroPython hardware modules -------------------------------------
class StubNeoPixel:
    """neopixel.NeoPixel: a pixel buffer and the list of frames written."""

    def __init__(self, pin, n):
        self.pin, self.n = pin, n
        self.buf = [(0, 0, 0)] * n
        self.written: list[tuple] = []

    def __setitem__(self, i, rgb):
        self.buf[i] = tuple(rgb)

    def __getitem__(self, i):
        return self.buf[i]

    def __len__(self):
        return self.n

    def write(self):
        self.written.append(tuple(self.buf))


class StubPin:
    def __init__(self, pin_id, *args):
        self.id = pin_id


class StubWDT:
    def __init__(self, timeout):
        self.timeout, self.feeds = timeout, 0

    def feed(self):
        self.feeds += 1


class StubTimer:
    def __init__(self, period, callback):
        self.period, self.callback = period, callback


@pytest.fixture
def firmware(monkeypatch):
    """The firmware modules (bgled, main) loaded with stubbed hardware modules."""
    calls: list[int] = []
    bootsel: list[int] = []  # values rp2.bootsel_button() returns, then 0
    machine = types.SimpleNamespace(Pin=StubPin, WDT=StubWDT, Timer=StubTimer)
    micropython = types.SimpleNamespace(kbd_intr=calls.append)
    rp2 = types.SimpleNamespace(bootsel_button=lambda: bootsel.pop(0) if bootsel else 0)
    monkeypatch.setitem(sys.modules, "rp2", rp2)
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "neopixel", types.SimpleNamespace(NeoPixel=StubNeoPixel))
    monkeypatch.setitem(sys.modules, "micropython", micropython)
    monkeypatch.syspath_prepend(str(FIRMWARE))
    monkeypatch.delitem(sys.modules, "bgled", raising=False)
    spec = importlib.util.spec_from_file_location("bgref_firmware_main", FIRMWARE / "main.py")
    main = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(main)
    return types.SimpleNamespace(main=main, bgled=sys.modules["bgled"], kbd_intr_calls=calls, bootsel=bootsel)


class Rig:
    """Host (LedController + Signals) and firmware (bgled.Controller) joined by a pty."""

    def __init__(self, fw, **controller_args):
        self.fw = fw
        self.now = 0.0
        self.reports: list[str] = []
        self.host_ports: list[serial.Serial] = []
        self.connector = SerialConnector("/dev/nonexistent-bgref")
        self.plug(**controller_args)
        self.host = LedController(self._connect, lambda: self.now, report=self.reports.append)
        self.signals = Signals(self.host, lambda: self.now)

    # devices
    def plug(self, **controller_args):
        """A fresh pty pair: the firmware gets the master, the host will open the slave."""
        master, slave = os.openpty()
        self.path = os.ttyname(slave)
        os.close(slave)  # the bridge opens it by path, as it would /dev/ttyACM0
        self.master = os.fdopen(master, "r+b", buffering=0)
        self.port = self.fw.bgled.StreamPort(self.master, self.master, select)
        self.connector = SerialConnector(self.path)
        self.controller = self._make_controller(**controller_args)

    def _make_controller(self, **args):
        strip = StubNeoPixel(StubPin(16), 36)
        return self.fw.bgled.Controller(strip, args.pop("led_count", 36), self.ticks, lambda a, b: a - b, **args)

    def unplug(self):
        self.master.close()

    def _connect(self):
        port = self.connector()
        self.host_ports.append(port)
        return port

    def ticks(self):
        return int(self.now * 1000)

    # stepping
    def firmware_step(self, wait_ms=30):
        """One firmware loop turn; returns whether it replied."""
        data = self.port.read(wait_ms)
        reply = self.controller.receive(data) if data else b""
        if reply:
            self.port.write(reply)
        self.controller.render()
        return bool(reply)

    def wait_host_readable(self):
        port = self.host_ports[-1]
        select.select([port.fileno()], [], [], 2.0)

    def pump(self, rounds=8):
        """Alternate host and firmware until the firmware has nothing more to answer."""
        for _ in range(rounds):
            self.host.service()
            if self.host.status is LinkStatus.DISCONNECTED:
                return
            if self.firmware_step():
                self.wait_host_readable()
            elif self.host.shown:
                self.host.service()
                return

    def advance(self, seconds):
        self.now += seconds

    @property
    def strip(self):
        return self.controller.strip


def pixel(rig, name):
    return rig.strip.buf[Layout().index(name)]


@pytest.fixture
def rig(firmware):
    r = Rig(firmware)
    yield r
    r.host.close()
    if not r.master.closed:
        r.master.close()


def lit(rig):
    return {name for name in Layout().order if pixel(rig, name) != (0, 0, 0)}


# -- handshake and state ----------------------------------------------------------
def test_hello_reports_the_firmware_version_and_led_count(rig, firmware):
    rig.pump()
    assert rig.host.status is LinkStatus.READY
    assert rig.host.firmware == protocol.Hello(36, firmware.bgled.FIRMWARE_VERSION)
    assert rig.reports == []


def test_a_signal_reaches_the_strip_with_its_blink_pattern(rig):
    rig.pump()
    rig.signals.illegal_play([13, 7])
    rig.pump()
    assert rig.host.shown
    rig.controller.render()  # t = 0 ms: fast blink is on
    assert lit(rig) == {"13", "7"}
    red = pixel(rig, "13")
    assert red[0] > 0 and red[1:] == (0, 0)
    rig.advance(0.2)  # 200 ms: off phase of the 250 ms fast blink
    rig.controller.render()
    assert lit(rig) == set()


def test_main_disables_ctrl_c_feeds_the_watchdog_and_drives_pin_16(rig, firmware):
    rig.pump()  # the host holds the port open
    controller = firmware.main.make_controller(rig.ticks, lambda a, b: a - b)
    firmware.main.main(port=rig.port, controller=controller, steps=3)
    assert firmware.kbd_intr_calls[0] == -1
    assert controller.strip.pin.id == 16 and controller.strip.n == 36
    assert controller.strip.written  # rendered at least once


def test_bootsel_hands_the_port_back_to_the_repl(rig, firmware):
    rig.pump()
    firmware.bootsel.extend([0, 0, 1])
    controller = firmware.main.make_controller(rig.ticks, lambda a, b: a - b)
    timer = firmware.main.main(port=rig.port, controller=controller)  # returns: BOOTSEL pressed
    assert firmware.kbd_intr_calls == [-1, 3]
    assert len(controller.strip.written) >= 1 and timer.period == 1000


def test_a_lost_ack_makes_the_host_resend_the_same_frame(rig):
    rig.pump()
    rig.signals.your_turn("light")
    rig.host.service()  # sends the state; the firmware does not run yet
    rig.advance(0.3)
    rig.host.service()  # ack timeout: same frame again
    assert rig.host.resends == 1
    rig.pump()
    assert rig.host.shown and lit(rig) == {"turn-light"}


# -- bad input on the wire ------------------------------------------------------------
def test_garbage_is_refused_and_the_firmware_keeps_working(rig):
    rig.pump()
    rng = random.Random(5)
    noise = b"\x00".join(bytes(rng.randrange(1, 256) for _ in range(40)) for _ in range(3)) + b"\x00"
    rig.host_ports[-1].write(noise)
    for _ in range(20):
        if rig.controller.errors == 3:
            break
        rig.firmware_step()
    assert rig.controller.errors == 3  # each piece refused (NACKed) ...
    rig.signals.your_turn("dark")  # ... and it carries on
    rig.pump()
    assert rig.host.status is LinkStatus.READY
    assert rig.host.shown and lit(rig) == {"turn-dark"}


def test_an_oversized_run_without_delimiter_is_dropped(rig):
    rig.pump()
    rig.host_ports[-1].write(b"\x55" * 2000)
    for _ in range(10):
        rig.firmware_step(wait_ms=5)
    rig.signals.your_turn("dark")
    rig.pump()
    assert rig.host.shown and lit(rig) == {"turn-dark"}


def test_a_truncated_frame_is_flushed_by_the_next_frames_leading_delimiter(rig):
    rig.pump()
    frame = protocol.encode_frame(protocol.STATE, 999, protocol.encode_state([(255, 255, 255, 1)] * 36))
    rig.host_ports[-1].write(frame[: len(frame) // 2])
    rig.firmware_step()
    rig.signals.cube(8, "dark")
    rig.pump()
    assert rig.host.shown
    assert lit(rig) == {"cube-8", "cube-owner-dark"}


def test_a_crc_error_is_nacked_and_the_host_resends_at_once(rig):
    rig.pump()
    rig.signals.cube(2, "light")
    rig.host.service()
    wire = rig.port.read(200)
    while len(wire) < 2 or not wire.endswith(b"\x00"):
        wire += rig.port.read(200)
    body = bytearray(protocol.cobs_decode(wire.strip(b"\x00")))
    body[7] ^= 0x40  # one bit flipped in a colour
    reply = rig.controller.receive(b"\x00" + protocol.cobs_encode(bytes(body)) + b"\x00")
    assert protocol.decode_frame(reply.strip(b"\x00")).kind == protocol.NACK
    assert protocol.decode_nack(protocol.decode_frame(reply.strip(b"\x00")).payload)[0] == protocol.NACK_CRC
    rig.port.write(reply)
    rig.wait_host_readable()
    rig.host.service()  # NACK: resend without waiting for the ack timeout
    assert rig.host.resends == 1
    rig.pump()
    assert rig.host.shown and lit(rig) == {"cube-2", "cube-owner-light"}


def test_a_frame_of_another_protocol_version_is_refused_with_the_firmware_version(rig, firmware):
    reply = rig.controller.receive(protocol.encode_frame(protocol.HELLO, 7, b"x", version=9))
    frame = protocol.decode_frame(reply.strip(b"\x00"))
    assert (frame.kind, frame.seq) == (protocol.NACK, 7)
    assert protocol.decode_nack(frame.payload) == (protocol.NACK_VERSION, firmware.bgled.FIRMWARE_VERSION)


# -- a silent host -----------------------------------------------------------------------
def test_a_silent_host_makes_the_firmware_run_its_fault_pattern(rig):
    rig.pump()
    rig.signals.your_turn("dark")
    rig.pump()
    rig.advance(2.9)
    rig.controller.render()
    assert lit(rig) == {"turn-dark"}
    rig.advance(0.2)  # 3.1 s of silence
    rig.controller.render()
    assert rig.controller.host_silent
    chase = lit(rig)
    assert len(chase) == 1 and pixel(rig, chase.pop())[1:] == (0, 0)
    rig.advance(0.08)
    rig.controller.render()
    assert lit(rig) != chase  # it moves
    rig.pump()  # the host comes back: a heartbeat ends the fault
    assert not rig.controller.host_silent
    rig.controller.render()
    assert lit(rig) == {"turn-dark"}


def test_heartbeats_keep_the_firmware_out_of_fault(rig):
    rig.pump()
    rig.signals.your_turn("light")
    for _ in range(12):
        rig.advance(0.5)
        rig.pump()
    assert not rig.controller.host_silent
    assert lit(rig) == {"turn-light"}
    assert rig.host.status is LinkStatus.READY


# -- unplug and replug ----------------------------------------------------------------
def test_unplug_and_replug_resend_the_latest_state(rig):
    rig.pump()
    rig.signals.your_turn("dark")
    rig.pump()
    rig.unplug()
    rig.host.service()
    assert rig.host.status is LinkStatus.DISCONNECTED
    rig.signals.cube(4, "light")  # changed while unplugged: must not be lost
    for _ in range(4):
        rig.advance(1.1)
        rig.host.service()
    assert len(rig.reports) == 2, rig.reports  # "lost", then "no controller at ...": once each
    assert "lost" in rig.reports[0] and "does not exist" in rig.reports[1]
    rig.plug()  # a fresh controller (the Pico rebooted): it knows nothing
    rig.advance(1.1)
    rig.pump()
    assert rig.host.status is LinkStatus.READY and rig.host.shown
    assert lit(rig) == {"turn-dark", "cube-4", "cube-owner-light"}
    assert rig.reports[-1].startswith("LED controller ready")


def test_a_missing_controller_is_reported_once_and_clearly(firmware):
    reports: list[str] = []
    clock = [0.0]
    host = LedController(SerialConnector(scan=list), lambda: clock[0], report=reports.append)
    for _ in range(5):
        host.service()
        clock[0] += 1.1
    assert len(reports) == 1
    assert "no LED controller found" in reports[0] and "2E8A:0005" in reports[0]
    assert "Traceback" not in reports[0]
    assert isinstance(host.problem, ControllerNotFoundError)


def test_the_port_is_opened_exclusively(rig):
    first = rig.connector()
    try:
        with pytest.raises(PortOpenError, match="another program"):
            rig.connector()
    finally:
        first.close()


# -- version mismatch ---------------------------------------------------------------------
def test_firmware_of_another_major_version_is_refused_once(firmware):
    rig = Rig(firmware, firmware_version="2.0.0")
    try:
        for _ in range(3):
            rig.pump()
            rig.advance(1.1)
        assert isinstance(rig.host.problem, FirmwareVersionError)
        assert len(rig.reports) == 1 and "'2.0.0'" in rig.reports[0] and "1.x" in rig.reports[0]
        assert rig.controller.frames == 3  # one hello per attempt, never a state
    finally:
        rig.host.close()
        rig.master.close()


def test_firmware_speaking_another_protocol_version_is_refused(firmware):
    rig = Rig(firmware, protocol_version=2)
    try:
        rig.pump()
        assert isinstance(rig.host.problem, FirmwareVersionError)
        assert "protocol version 2" in str(rig.host.problem)
        assert rig.host.status is LinkStatus.DISCONNECTED
    finally:
        rig.host.close()
        rig.master.close()


def test_firmware_with_another_led_count_is_refused(firmware):
    rig = Rig(firmware, led_count=30)
    try:
        rig.pump()
        assert "drives 30 LEDs" in str(rig.host.problem)
    finally:
        rig.host.close()
        rig.master.close()


# -- the diagnostic command against the firmware ------------------------------------------
def test_bgref_leds_shows_a_signal_on_the_controller(firmware, capsys):
    import argparse
    import threading

    from firmware_bridge import cli

    master, slave = os.openpty()
    path = os.ttyname(slave)
    stream = os.fdopen(master, "r+b", buffering=0)
    port = firmware.bgled.StreamPort(stream, stream, select)
    strip = StubNeoPixel(StubPin(16), 36)
    controller = firmware.bgled.Controller(strip, 36, lambda: 0, lambda a, b: a - b)  # t = 0: blink on
    stop = threading.Event()
    thread = threading.Thread(target=lambda: firmware.bgled.run(controller, port, stop=stop.is_set, timeout_ms=5))
    thread.start()  # the slave stays open here so that the firmware never sees a hang-up
    try:
        parser = argparse.ArgumentParser(prog="bgref")
        cli.register(parser.add_subparsers())
        args = parser.parse_args(["leds", "--signal", "illegal", "--points", "1,24", "--port", path, "--hold", "0"])
        assert args.func(args) == 0
    finally:
        stop.set()
        thread.join(5)
        stream.close()
        os.close(slave)
    assert "shown on the LED controller (firmware 1.0.0)" in capsys.readouterr().out
    lit_now = {Layout().order[i]: rgb for i, rgb in enumerate(strip.buf) if rgb != (0, 0, 0)}
    assert set(lit_now) == {"1", "24"} and all(g == b == 0 < r for r, g, b in lit_now.values())
