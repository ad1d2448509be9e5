"""The shared wire protocol: known vectors, round trips, chunked framing, refusal of bad bytes."""

from __future__ import annotations

import binascii

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import Layout, Signals, SimulatedBoard
from firmware_bridge import protocol as p

# COBS vectors from Cheshire & Baker / the Wikipedia article's table.
COBS_VECTORS = [
    ("", "01"),
    ("00", "0101"),
    ("0000", "010101"),
    ("001100", "01021101"),
    ("11220033", "0311220233"),
    ("11223344", "0511223344"),
    ("11000000", "0211010101"),
]

# Whole frames, delimiters included: pinned so that host and firmware never drift.
FRAME_VECTORS = [
    ((p.HELLO, 1, b"bgref"), "0003010109016267726566ea5500"),
    ((p.ACK, 0x1234, b""), "0007010512340a4200"),
    ((p.HEARTBEAT, 0xFFFF, b""), "00070104ffff33bb00"),
    ((p.NACK, 0, bytes((p.NACK_CRC,)) + b"1.0.0"), "00030106010802312e302e30ba0100"),
    ((p.HELLO_REPLY, 1, bytes((36,)) + b"1.0.0"), "000301020a0124312e302e30266700"),
    ((p.STATE, 2, bytes((96, 2, 255, 0, 0, 2, 0, 0, 0, 0))), "0003010305026002ff01020201010103e0a100"),
]


def test_crc_is_ccitt_false_with_initial_value_ffff():
    assert p.crc16_ccitt(b"123456789") == 0x29B1  # the catalogued check value
    assert p.crc16_ccitt(b"") == 0xFFFF


@settings(derandomize=True, deadline=None)
@given(st.binary(max_size=300))
def test_crc_agrees_with_an_independent_implementation(data):
    assert p.crc16_ccitt(data) == binascii.crc_hqx(data, 0xFFFF)


@pytest.mark.parametrize("raw,encoded", COBS_VECTORS)
def test_cobs_known_vectors(raw, encoded):
    assert p.cobs_encode(bytes.fromhex(raw)).hex() == encoded
    assert p.cobs_decode(bytes.fromhex(encoded)).hex() == raw


def test_cobs_long_runs():
    assert p.cobs_encode(bytes(range(1, 255))) == b"\xff" + bytes(range(1, 255))
    assert p.cobs_encode(bytes(range(255))) == b"\x01\xff" + bytes(range(1, 255))
    assert p.cobs_encode(bytes(range(1, 256))) == b"\xff" + bytes(range(1, 255)) + b"\x02\xff"
    assert p.cobs_encode(bytes(range(2, 256)) + b"\x00") == b"\xff" + bytes(range(2, 256)) + b"\x01\x01"


@settings(derandomize=True, deadline=None)
@given(st.binary(max_size=700))
def test_cobs_round_trips_and_never_emits_zero(data):
    encoded = p.cobs_encode(data)
    assert 0 not in encoded
    assert p.cobs_decode(encoded) == data


@pytest.mark.parametrize("args,wire", FRAME_VECTORS)
def test_frame_vectors(args, wire):
    kind, seq, payload = args
    assert p.encode_frame(kind, seq, payload).hex() == wire
    assert p.decode_frame(bytes.fromhex(wire).strip(b"\x00")) == p.Frame(p.PROTOCOL_VERSION, kind, seq, payload)


def test_full_state_frame_is_pinned_and_under_1_kb():
    board = SimulatedBoard()
    Signals(board, lambda: 0.0).illegal_play([13, 7])
    state = board.current
    frame = p.encode_frame(p.STATE, 3, p.encode_state(state.pixels(Layout()), state.brightness))
    assert len(frame) == 155
    assert frame.hex().startswith("0003010304036024")  # header, brightness 0x60, 36 LEDs
    assert frame.hex().endswith("02ff010402c6f100")  # 13 and 7 red fast blink, CRC 0xC6F1
    worst = p.encode_frame(p.STATE, 0xFFFF, p.encode_state([(255, 255, 255, p.TRIPLE)] * p.MAX_LEDS))
    assert len(worst) < 1024 and len(worst) - 2 <= p.MAX_PACKET


@settings(derandomize=True, deadline=None)
@given(st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=200))
def test_frames_round_trip(kind, seq, payload):
    wire = p.encode_frame(kind, seq, payload)
    assert p.Framer().feed(wire) == [wire[1:-1]]
    assert p.decode_frame(wire[1:-1]) == p.Frame(p.PROTOCOL_VERSION, kind, seq, payload)


@settings(max_examples=60, derandomize=True)
@given(st.lists(st.binary(max_size=60), min_size=1, max_size=5), st.lists(st.integers(1, 40), max_size=30))
def test_framer_finds_the_same_frames_whatever_the_chunking(payloads, cuts):
    wire = b"".join(p.encode_frame(p.STATE, i, pl) for i, pl in enumerate(payloads))
    framer, packets, at = p.Framer(), [], 0
    for cut in cuts + [len(wire)]:
        packets += framer.feed(wire[at : at + cut])
        at += cut
    packets += framer.feed(wire[at:])
    assert [p.decode_frame(pk).payload for pk in packets] == payloads


def test_framer_drops_an_oversized_run_and_recovers():
    framer = p.Framer(max_packet=20)
    good = p.encode_frame(p.ACK, 1)
    assert framer.feed(b"\x33" * 50 + good) == [good[1:-1]]
    assert framer.overflows == 1


def test_truncated_frame_is_flushed_by_the_leading_delimiter():
    framer = p.Framer()
    first, second = p.encode_frame(p.STATE, 1, b"abc"), p.encode_frame(p.ACK, 2)
    packets = framer.feed(first[:4] + second)
    assert len(packets) == 2
    with pytest.raises(p.ProtocolError):
        p.decode_frame(packets[0])
    assert p.decode_frame(packets[1]).kind == p.ACK


@pytest.mark.parametrize(
    "packet,error",
    [
        (b"\x05\x01", p.FramingError),  # code points past the end
        (b"\x03\x01\x01", p.FramingError),  # shorter than header + CRC
        (bytes.fromhex("03010109016267726566ea56"), p.CrcError),  # last CRC bit flipped
    ],
)
def test_bad_packets_raise_protocol_errors(packet, error):
    with pytest.raises(error):
        p.decode_frame(packet)
    assert issubclass(error, ValueError)


def test_state_payload_round_trip_and_refusals():
    pixels = [(1, 2, 3, p.SOLID), (0, 0, 0, p.OFF)]
    assert p.decode_state(p.encode_state(pixels, 7)) == (7, [p.Pixel(*px) for px in pixels])
    with pytest.raises(p.PayloadError):
        p.decode_state(b"\x07\x02\x01\x02\x03")
    with pytest.raises(p.PayloadError):
        p.encode_state([(0, 0, 0, 99)])
    with pytest.raises(p.PayloadError):
        p.decode_state(bytes((0, 1, 0, 0, 0, 99)))


def test_hello_and_nack_payloads():
    assert p.decode_hello_reply(p.encode_hello_reply(36, "1.2.3")) == p.Hello(36, "1.2.3")
    assert p.decode_nack(p.encode_nack(p.NACK_VERSION, "0.9")) == (p.NACK_VERSION, "0.9")
    assert p.decode_hello_reply(b"\x24\xff\xfe") == p.Hello(36, "?")
    with pytest.raises(p.PayloadError):
        p.decode_hello_reply(b"")


@pytest.mark.parametrize(
    "pattern,on_at,off_at",
    [
        (p.SOLID, [0, 500, 999], []),
        (p.OFF, [], [0, 500]),
        (p.BLINK_FAST, [0, 124, 250], [125, 249]),
        (p.BLINK_SLOW, [0, 499], [500, 999]),
        (p.DOUBLE, [0, 300], [150, 299, 450, 1199]),
        (p.TRIPLE, [0, 300, 600], [150, 450, 750, 1499]),
    ],
)
def test_pattern_phases(pattern, on_at, off_at):
    assert all(p.pattern_on(pattern, t) for t in on_at)
    assert not any(p.pattern_on(pattern, t) for t in off_at)
