"""The host's side of the serial link: hello, whole-state frames, ack and retry, heartbeats.

:class:`LedController` is an LED sink (``show(state)``) that keeps the last state asked
for and pushes it to the controller whenever it can: after every change, on a missing
ack, and after every (re)connection.  :meth:`LedController.service` does one
non-blocking round of I/O and timing; call it often (every 10-50 ms) from the
referee's loop.  Problems never raise out of ``service``: they are reported once,
through ``report``, and kept in :attr:`LedController.problem`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from . import protocol
from .errors import BridgeError, ControllerLostError, DeviceReportedError, FirmwareVersionError
from .layout import LED_COUNT, Layout
from .leds import LedState

HOST_VERSION = "bgref-host 0.1.0"
FIRMWARE_MAJOR = 1  # firmware versions 1.x speak this bridge's protocol

_log = logging.getLogger(__name__)


class LinkStatus(Enum):
    """Where the link stands."""

    DISCONNECTED = "disconnected"
    HANDSHAKING = "handshaking"
    READY = "ready"


@dataclass(frozen=True, slots=True)
class Timing:
    """Time limits of the link, in seconds."""

    ack_timeout: float = 0.25
    max_tries: int = 4
    hello_interval: float = 0.5
    hello_tries: int = 4
    heartbeat_interval: float = 1.0
    silence_timeout: float = 3.0
    reconnect_interval: float = 1.0


@dataclass(frozen=True, slots=True)
class Pending:
    """A frame sent and not yet acknowledged."""

    seq: int
    data: bytes
    sent_at: float
    tries: int


def check_firmware(hello: protocol.Hello) -> None:
    """Raise FirmwareVersionError unless ``hello`` is from compatible firmware."""
    major = hello.firmware.split(".")[0]
    if major != str(FIRMWARE_MAJOR):
        raise FirmwareVersionError(
            "LED controller runs firmware %r; this bgref needs firmware %d.x: copy hardware/firmware "
            "and firmware_bridge/protocol.py from this checkout to the Pico" % (hello.firmware, FIRMWARE_MAJOR)
        )
    if hello.led_count != LED_COUNT:
        raise FirmwareVersionError(
            "LED controller drives %d LEDs, this bgref expects %d: set LED_COUNT in hardware/firmware/main.py"
            % (hello.led_count, LED_COUNT)
        )


class LedController:
    """Keeps the LED controller showing the latest state, across retries and replugs."""

    def __init__(
        self,
        connect: Callable[[], Any],
        clock: Callable[[], float],
        layout: Layout = Layout(),
        timing: Timing = Timing(),
        report: Callable[[str], None] = _log.warning,
    ) -> None:
        self._connect = connect
        self._clock = clock
        self._layout = layout
        self._timing = timing
        self._report = report
        self._port: Any = None
        self._framer = protocol.Framer()
        self._state = LedState()
        self._dirty = True
        self._seq = 0
        self._pending: Pending | None = None
        self._hello_at = 0.0
        self._hello_tries = 0
        self._last_tx = 0.0
        self._unanswered_since: float | None = None
        self._next_connect = float("-inf")
        self.status = LinkStatus.DISCONNECTED
        self.problem: BridgeError | None = None
        self.firmware: protocol.Hello | None = None
        self.rx_errors = 0
        self.resends = 0

    @property
    def layout(self) -> Layout:
        """Which strip pixel shows which LED."""
        return self._layout

    @layout.setter
    def layout(self, layout: Layout) -> None:
        if layout != self._layout:
            self._layout, self._dirty = layout, True  # the same state, sent again in the new order

    # -- the sink -----------------------------------------------------------------
    def show(self, state: LedState) -> None:
        """Show ``state`` from now on (sent at the next :meth:`service`)."""
        if state != self._state:
            self._state, self._dirty = state, True

    @property
    def shown(self) -> bool:
        """Whether the controller has acknowledged the latest state."""
        return self.status is LinkStatus.READY and not self._dirty and self._pending is None

    # -- the pump -----------------------------------------------------------------
    def service(self) -> None:
        """One non-blocking round: connect, read replies, send, retry, heartbeat."""
        now = self._clock()
        try:
            self._service(now)
        except OSError as exc:  # pyserial's SerialException is an OSError
            self._lose(ControllerLostError("LED controller lost (%s): %s; reconnecting" % (self._name(), exc)))
        except BridgeError as exc:
            self._lose(exc)

    def close(self) -> None:
        """Close the port (the state to show is kept)."""
        port, self._port = self._port, None
        self.status = LinkStatus.DISCONNECTED
        if port is not None:
            try:
                port.close()
            except OSError:
                pass

    def _service(self, now: float) -> None:
        if self._port is None:
            self._try_connect(now)
            return
        self._receive(now)
        if self.status is LinkStatus.HANDSHAKING:
            self._handshake(now)
        elif self.status is LinkStatus.READY:
            self._keep_up(now)

    def _try_connect(self, now: float) -> None:
        if now < self._next_connect:
            return
        self._next_connect = now + self._timing.reconnect_interval
        self._port = self._connect()
        self._framer = protocol.Framer()
        self.status = LinkStatus.HANDSHAKING
        self._hello_tries, self._hello_at = 0, float("-inf")
        self._pending, self._unanswered_since = None, None
        self._handshake(now)

    def _handshake(self, now: float) -> None:
        if now - self._hello_at < self._timing.hello_interval:
            return
        if self._hello_tries >= self._timing.hello_tries:
            raise ControllerLostError(
                "the device at %s does not answer hello: is the bgref firmware on the Pico? "
                "(see hardware/firmware/README.md)" % self._name()
            )
        self._hello_tries += 1
        self._hello_at = now
        self._write(protocol.encode_frame(protocol.HELLO, self._next_seq(), protocol.encode_text(HOST_VERSION)), now)

    def _keep_up(self, now: float) -> None:
        waited = self._unanswered_since
        if waited is not None and now - waited > self._timing.silence_timeout:
            raise ControllerLostError("LED controller at %s stopped answering; reconnecting" % self._name())
        if self._dirty:
            self._send_state(now)
        elif self._pending is not None and now - self._pending.sent_at >= self._timing.ack_timeout:
            self._resend(now)
        elif now - self._last_tx >= self._timing.heartbeat_interval:
            self._write(protocol.encode_frame(protocol.HEARTBEAT, self._next_seq()), now)

    def _send_state(self, now: float) -> None:
        seq = self._next_seq()
        payload = protocol.encode_state(self._state.pixels(self._layout), self._state.brightness)
        data = protocol.encode_frame(protocol.STATE, seq, payload)
        self._pending, self._dirty = Pending(seq, data, now, 1), False
        self._write(data, now)

    def _resend(self, now: float) -> None:
        pending = self._pending
        assert pending is not None
        if pending.tries >= self._timing.max_tries:
            raise ControllerLostError(
                "LED controller at %s did not acknowledge a frame after %d tries; reconnecting"
                % (self._name(), pending.tries)
            )
        self._pending = Pending(pending.seq, pending.data, now, pending.tries + 1)
        self.resends += 1
        self._write(pending.data, now)

    # -- receiving ----------------------------------------------------------------
    def _receive(self, now: float) -> None:
        data = self._port.read(max(1, self._port.in_waiting))
        for packet in self._framer.feed(data):
            self._take(packet, now)

    def _take(self, packet: bytes, now: float) -> None:
        try:
            frame = protocol.decode_frame(packet)
            if frame.version != protocol.PROTOCOL_VERSION:
                raise _protocol_mismatch(frame)
            self._unanswered_since = None
            self._dispatch(frame, now)
        except protocol.ProtocolError:  # bytes from the controller that make no sense
            self.rx_errors += 1

    def _dispatch(self, frame: protocol.Frame, now: float) -> None:
        if frame.kind == protocol.HELLO_REPLY and self.status is LinkStatus.HANDSHAKING:
            self._ready(protocol.decode_hello_reply(frame.payload))
        elif frame.kind == protocol.ACK:
            if self._pending is not None and frame.seq == self._pending.seq:
                self._pending = None
        elif frame.kind == protocol.NACK:
            self._nacked(frame, now)

    def _ready(self, hello: protocol.Hello) -> None:
        check_firmware(hello)
        self.firmware = hello
        self.status = LinkStatus.READY
        self._dirty = True
        if self.problem is not None:
            self._report("LED controller ready at %s (firmware %s)" % (self._name(), hello.firmware))
        self.problem = None

    def _nacked(self, frame: protocol.Frame, now: float) -> None:
        reason, firmware = protocol.decode_nack(frame.payload)
        if reason == protocol.NACK_VERSION:
            raise FirmwareVersionError(
                "LED controller (firmware %r) refused protocol version %d: flash the firmware from this checkout"
                % (firmware, protocol.PROTOCOL_VERSION)
            )
        if reason == protocol.NACK_PAYLOAD:
            raise DeviceReportedError("LED controller refused a state frame as malformed (firmware %r)" % firmware)
        if self._pending is not None and self.status is LinkStatus.READY:
            self._resend(now)

    # -- plumbing -----------------------------------------------------------------
    def _write(self, data: bytes, now: float) -> None:
        self._port.write(data)
        self._last_tx = now
        if self._unanswered_since is None:
            self._unanswered_since = now

    def _next_seq(self) -> int:
        self._seq = (self._seq + 1) & 0xFFFF
        return self._seq

    def _name(self) -> str:
        return str(getattr(self._port, "port", None) or "the controller port")

    def _lose(self, problem: BridgeError) -> None:
        self.close()
        self._dirty = True
        if self.problem is None or str(problem) != str(self.problem):
            self._report(str(problem))
        self.problem = problem


def _protocol_mismatch(frame: protocol.Frame) -> FirmwareVersionError:
    return FirmwareVersionError(
        "LED controller speaks protocol version %d, this bgref speaks %d: flash hardware/firmware from this checkout"
        % (frame.version, protocol.PROTOCOL_VERSION)
    )
