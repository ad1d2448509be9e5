"""The firmware's state machine never stops on stray bytes, and always answers in valid frames."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol

FIRMWARE = Path(__file__).resolve().parents[1] / "hardware" / "firmware"


class Strip:
    def __init__(self, n):
        self.buf = [(0, 0, 0)] * n

    def __setitem__(self, i, rgb):
        self.buf[i] = rgb

    def write(self):
        pass


@pytest.fixture(scope="module")
def bgled():
    sys.path.insert(0, str(FIRMWARE))
    try:
        import bgled

        yield bgled
    finally:
        sys.path.remove(str(FIRMWARE))


def make(bgled, t=None):
    t = t if t is not None else [0]
    return bgled.Controller(Strip(36), 36, lambda: t[0], lambda a, b: a - b)


def answers(reply):
    return [protocol.decode_frame(p) for p in protocol.Framer().feed(reply)]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.lists(st.binary(max_size=120), max_size=8))
def test_random_bytes_never_stop_the_firmware(bgled, chunks):
    controller = make(bgled)
    for chunk in chunks:
        for frame in answers(controller.receive(chunk)):
            assert frame.kind in (protocol.NACK, protocol.ACK, protocol.HELLO_REPLY)
        controller.render()
    hello = protocol.encode_frame(protocol.HELLO, 42, b"host")
    assert [f.kind for f in answers(controller.receive(hello))][-1] == protocol.HELLO_REPLY


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=200))
def test_any_well_framed_message_gets_exactly_one_answer(bgled, kind, seq, payload):
    controller = make(bgled)
    replies = answers(controller.receive(protocol.encode_frame(kind, seq, payload)))
    assert len(replies) == 1 and replies[0].seq == seq


def test_state_with_the_wrong_led_count_is_refused_and_not_shown(bgled):
    controller = make(bgled)
    bad = protocol.encode_frame(protocol.STATE, 5, protocol.encode_state([(255, 0, 0, 1)] * 35))
    (reply,) = answers(controller.receive(bad))
    assert reply.kind == protocol.NACK and protocol.decode_nack(reply.payload)[0] == protocol.NACK_PAYLOAD
    controller.render()
    assert set(controller.strip.buf) == {(0, 0, 0)}


def test_current_is_capped_and_brightness_applied(bgled):
    controller = make(bgled)
    full_white = protocol.encode_frame(protocol.STATE, 1, protocol.encode_state([(255, 255, 255, 1)] * 36, 255))
    controller.receive(full_white)
    controller.render()
    drawn = sum(sum(px) for px in controller.strip.buf) * bgled.MA_PER_CHANNEL / 255
    assert drawn <= bgled.STRIP_BUDGET_MA
    half = protocol.encode_frame(protocol.STATE, 2, protocol.encode_state([(200, 0, 0, 1)] + [(0, 0, 0, 0)] * 35, 128))
    controller.receive(half)
    controller.render()
    assert controller.strip.buf[0] == (100, 0, 0)
