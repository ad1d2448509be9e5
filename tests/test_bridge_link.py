"""The host's link state machine against a scripted port (no firmware): retries, supersession, bad replies."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import LedController, LedState, Light, LinkStatus, protocol
from firmware_bridge.errors import ControllerLostError
from firmware_bridge.leds import RED, Pattern


class ScriptedPort:
    """A serial-like port: bytes queued by the test are read, writes are recorded."""

    port = "/dev/scripted"

    def __init__(self):
        self.incoming = bytearray()
        self.sent = []

    @property
    def in_waiting(self):
        return len(self.incoming)

    def read(self, n):
        data, self.incoming = bytes(self.incoming[:n]), self.incoming[n:]
        return data

    def write(self, data):
        self.sent.append(protocol.decode_frame(data[1:-1]))

    def close(self):
        pass

    def reply(self, kind, seq, payload=b""):
        self.incoming += protocol.encode_frame(kind, seq, payload)


def ready(now=None):
    now = now or [0.0]
    port = ScriptedPort()
    reports = []
    host = LedController(lambda: port, lambda: now[0], report=reports.append)
    host.service()
    hello = port.sent[-1]
    port.reply(protocol.HELLO_REPLY, hello.seq, protocol.encode_hello_reply(36, "1.4.0"))
    host.service()
    assert host.status is LinkStatus.READY
    return host, port, now, reports


def red(name):
    return LedState().with_lights({name: Light(RED, Pattern.SOLID)})


def test_a_newer_state_supersedes_a_pending_one():
    host, port, now, _ = ready()
    host.service()  # first state (all dark) sent
    first = port.sent[-1]
    host.show(red("5"))
    host.service()
    second = port.sent[-1]
    assert second.kind == protocol.STATE and second.seq != first.seq
    port.reply(protocol.ACK, first.seq)  # a late ack of the old frame does not count
    host.service()
    assert not host.shown
    port.reply(protocol.ACK, second.seq)
    host.service()
    assert host.shown


def test_unacknowledged_frames_are_retried_then_the_link_is_dropped():
    host, port, now, reports = ready()
    host.service()
    for _ in range(3):
        now[0] += 0.3
        host.service()
    assert host.resends == 3 and len({f.seq for f in port.sent if f.kind == protocol.STATE}) == 1
    now[0] += 0.3
    host.service()
    assert host.status is LinkStatus.DISCONNECTED
    assert isinstance(host.problem, ControllerLostError) and "after 4 tries" in reports[-1]


def test_heartbeats_when_idle():
    host, port, now, _ = ready()
    host.service()
    port.reply(protocol.ACK, port.sent[-1].seq)
    host.service()
    now[0] += 1.0
    host.service()
    assert port.sent[-1].kind == protocol.HEARTBEAT


def test_a_controller_that_never_answers_hello_is_reported_once():
    now, port, reports = [0.0], ScriptedPort(), []
    host = LedController(lambda: port, lambda: now[0], report=reports.append)
    for _ in range(20):
        host.service()
        now[0] += 0.5
    assert len(reports) == 1 and "does not answer hello" in reports[0]


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.lists(st.binary(max_size=80), max_size=6))
def test_garbage_from_the_controller_never_raises(chunks):
    host, port, now, _ = ready()
    for chunk in chunks:
        port.incoming += chunk
        host.service()
        now[0] += 0.1
    assert host.status in (LinkStatus.READY, LinkStatus.DISCONNECTED)


def test_a_malformed_hello_reply_is_counted_not_raised():
    now, port = [0.0], ScriptedPort()
    host = LedController(lambda: port, lambda: now[0], report=lambda m: None)
    host.service()
    port.reply(protocol.HELLO_REPLY, port.sent[-1].seq, b"")
    host.service()
    assert host.rx_errors == 1 and host.status is LinkStatus.HANDSHAKING
