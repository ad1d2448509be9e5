"""The wire protocol between the bgref host and the LED controller.

This one file is used by BOTH ends: the host imports it as
``firmware_bridge.protocol`` and the Raspberry Pi Pico runs it under MicroPython as
``protocol.py`` (see ``hardware/firmware/README.md``).  It must therefore stay
MicroPython-compatible: no ``typing``/``dataclasses``/``enum`` imports, no f-strings,
only ``struct``, ``bytes``/``bytearray`` and ``collections.namedtuple``.
Annotations are allowed (MicroPython ignores them) but must name builtins only.

Frame on the wire::

    0x00 | COBS( version:u8 | kind:u8 | seq:u16be | payload | crc:u16be ) | 0x00

* COBS: Consistent Overhead Byte Stuffing (Cheshire & Baker, IEEE/ACM ToN 1999);
  the encoded body has no 0x00, so 0x00 delimits frames.  A leading 0x00 flushes a
  truncated frame left in the receiver's buffer.
* CRC: CRC-16/CCITT-FALSE, polynomial 0x1021, initial value 0xFFFF, no reflection,
  no final XOR (check value of ``b"123456789"`` is 0x29B1), computed over header and
  payload.
* ``version`` is PROTOCOL_VERSION of the sender; the header layout never changes, so a
  peer can always read the version and refuse politely.

Messages (``kind``), all answered so that the host can retry:

=========== ====== ======================================= =========================
kind        dir    payload                                 answer
=========== ====== ======================================= =========================
HELLO       h->c   host version text (utf-8)               HELLO_REPLY
HELLO_REPLY c->h   led_count:u8, firmware version text     -
STATE       h->c   brightness:u8, n:u8, n x (r, g, b, pat) ACK (same seq)
HEARTBEAT   h->c   empty                                   ACK (same seq)
ACK         c->h   empty                                   -
NACK        c->h   reason:u8, firmware version text        -
=========== ====== ======================================= =========================

A STATE frame carries the WHOLE strip, so any frame may be resent and the newest one
supersedes all earlier ones.  Patterns are animated by the receiver from its own clock
with :func:`pattern_on`.
"""

import struct

try:
    from collections import namedtuple
except ImportError:  # pragma: no cover - very old MicroPython ports
    from ucollections import namedtuple  # type: ignore[no-redef]

PROTOCOL_VERSION = 1
HEADER_SIZE = 4
CRC_SIZE = 2
MAX_LEDS = 64
MAX_VERSION_TEXT = 32
# largest body before COBS: header + STATE payload + crc
MAX_BODY = HEADER_SIZE + 2 + 4 * MAX_LEDS + CRC_SIZE
MAX_PACKET = MAX_BODY + MAX_BODY // 254 + 2

HELLO = 1
HELLO_REPLY = 2
STATE = 3
HEARTBEAT = 4
ACK = 5
NACK = 6
KIND_NAMES = {
    HELLO: "hello",
    HELLO_REPLY: "hello-reply",
    STATE: "state",
    HEARTBEAT: "heartbeat",
    ACK: "ack",
    NACK: "nack",
}

# NACK reasons
NACK_FRAMING = 1
NACK_CRC = 2
NACK_VERSION = 3
NACK_PAYLOAD = 4
NACK_KIND = 5
NACK_NAMES = {
    NACK_FRAMING: "bad framing",
    NACK_CRC: "CRC mismatch",
    NACK_VERSION: "protocol version mismatch",
    NACK_PAYLOAD: "bad payload",
    NACK_KIND: "unknown message kind",
}

# Blink patterns: (period ms, ((on_from, on_to), ...)) within one period.
OFF = 0
SOLID = 1
BLINK_FAST = 2
BLINK_SLOW = 3
DOUBLE = 4
TRIPLE = 5
PATTERNS = {
    OFF: (1000, ()),
    SOLID: (1000, ((0, 1000),)),
    BLINK_FAST: (250, ((0, 125),)),
    BLINK_SLOW: (1000, ((0, 500),)),
    DOUBLE: (1200, ((0, 150), (300, 450))),
    TRIPLE: (1500, ((0, 150), (300, 450), (600, 750))),
}

Frame = namedtuple("Frame", ("version", "kind", "seq", "payload"))
Hello = namedtuple("Hello", ("led_count", "firmware"))
Pixel = namedtuple("Pixel", ("r", "g", "b", "pattern"))


class ProtocolError(ValueError):
    """Root of the errors found while decoding bytes from the other end."""


class FramingError(ProtocolError):
    """The bytes between two delimiters are not a valid COBS frame."""


class CrcError(ProtocolError):
    """The frame's CRC does not match its contents."""


class PayloadError(ProtocolError):
    """The frame is intact but its payload does not fit its kind."""


def crc16_ccitt(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of ``data`` (poly 0x1021, init 0xFFFF, no reflection)."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        crc &= 0xFFFF
    return crc


def cobs_encode(data: bytes) -> bytes:
    """COBS-encode ``data``: the result contains no zero byte."""
    out = bytearray()
    block = bytearray()
    ended_full = False
    for byte in data:
        ended_full = False
        if byte:
            block.append(byte)
        if not byte or len(block) == 254:
            ended_full = len(block) == 254
            out.append(len(block) + 1)
            out.extend(block)
            block = bytearray()
    if not ended_full:
        out.append(len(block) + 1)
        out.extend(block)
    return bytes(out)


def cobs_decode(packet: bytes) -> bytes:
    """Undo :func:`cobs_encode`; raise FramingError on a malformed packet."""
    out = bytearray()
    i = 0
    while i < len(packet):
        code = packet[i]
        if code == 0 or i + code > len(packet):
            raise FramingError("bad COBS code %d at offset %d" % (code, i))
        out.extend(packet[i + 1 : i + code])
        i += code
        if code < 0xFF and i < len(packet):
            out.append(0)
    return bytes(out)


def encode_frame(kind: int, seq: int, payload: bytes = b"", version: int = PROTOCOL_VERSION) -> bytes:
    """Bytes to put on the wire for one message, delimiters included."""
    body = struct.pack(">BBH", version, kind, seq & 0xFFFF) + bytes(payload)
    body += struct.pack(">H", crc16_ccitt(body))
    return b"\x00" + cobs_encode(body) + b"\x00"


def decode_frame(packet: bytes) -> Frame:
    """Frame from one packet (the bytes between two delimiters, COBS-encoded)."""
    body = cobs_decode(packet)
    if len(body) < HEADER_SIZE + CRC_SIZE:
        raise FramingError("frame of %d bytes is shorter than a header" % len(body))
    (crc,) = struct.unpack(">H", body[-CRC_SIZE:])
    if crc16_ccitt(body[:-CRC_SIZE]) != crc:
        raise CrcError("CRC mismatch: frame says 0x%04X" % crc)
    version, kind, seq = struct.unpack(">BBH", body[:HEADER_SIZE])
    return Frame(version, kind, seq, body[HEADER_SIZE:-CRC_SIZE])


class Framer:
    """Splits a byte stream fed in arbitrary chunks into packets at 0x00 delimiters."""

    def __init__(self, max_packet: int = MAX_PACKET) -> None:
        self._max = max_packet
        self._buf = bytearray()
        self._skipping = False
        self.overflows = 0

    def feed(self, chunk: bytes) -> list[bytes]:
        """Packets completed by ``chunk`` (COBS-encoded, without delimiters)."""
        packets: list[bytes] = []
        chunk = bytes(chunk)
        start = 0
        while True:
            end = chunk.find(b"\x00", start)
            if end < 0:
                self._append(chunk[start:])
                return packets
            self._append(chunk[start:end])
            if self._buf and not self._skipping:
                packets.append(bytes(self._buf))
            self._buf = bytearray()
            self._skipping = False
            start = end + 1

    def _append(self, data: bytes) -> None:
        if self._skipping:
            return
        self._buf.extend(data)
        if len(self._buf) > self._max:
            self.overflows += 1
            self._buf = bytearray()
            self._skipping = True


def encode_text(text: str) -> bytes:
    """UTF-8 bytes of a version text, cut to MAX_VERSION_TEXT."""
    return text.encode("utf-8")[:MAX_VERSION_TEXT]


def decode_text(data: bytes) -> str:
    """Version text from bytes; undecodable bytes become '?'."""
    try:
        return bytes(data).decode("utf-8")
    except UnicodeError:
        return "?"


def encode_hello_reply(led_count: int, firmware: str) -> bytes:
    """HELLO_REPLY payload."""
    return bytes((led_count,)) + encode_text(firmware)


def decode_hello_reply(payload: bytes) -> Hello:
    """Hello(led_count, firmware) from a HELLO_REPLY payload."""
    if len(payload) < 1:
        raise PayloadError("empty hello reply")
    return Hello(payload[0], decode_text(payload[1:]))


def encode_nack(reason: int, firmware: str) -> bytes:
    """NACK payload: reason code and the firmware's version text."""
    return bytes((reason,)) + encode_text(firmware)


def decode_nack(payload: bytes) -> tuple[int, str]:
    """(reason, firmware version text) from a NACK payload."""
    if len(payload) < 1:
        raise PayloadError("empty nack")
    return payload[0], decode_text(payload[1:])


def encode_state(pixels: list[tuple[int, int, int, int]], brightness: int = 255) -> bytes:
    """STATE payload for a whole strip: ``pixels`` is a sequence of (r, g, b, pattern)."""
    if len(pixels) > MAX_LEDS:
        raise PayloadError("%d LEDs exceed the maximum of %d" % (len(pixels), MAX_LEDS))
    out = bytearray((brightness & 0xFF, len(pixels)))
    for r, g, b, pattern in pixels:
        if pattern not in PATTERNS:
            raise PayloadError("unknown pattern %d" % pattern)
        out.extend(bytes((r, g, b, pattern)))
    return bytes(out)


def decode_state(payload: bytes) -> tuple[int, list[Pixel]]:
    """(brightness, [Pixel, ...]) from a STATE payload."""
    if len(payload) < 2 or len(payload) != 2 + 4 * payload[1]:
        raise PayloadError("state payload of %d bytes is malformed" % len(payload))
    pixels: list[Pixel] = []
    for i in range(2, len(payload), 4):
        pixel = Pixel(payload[i], payload[i + 1], payload[i + 2], payload[i + 3])
        if pixel.pattern not in PATTERNS:
            raise PayloadError("unknown pattern %d" % pixel.pattern)
        pixels.append(pixel)
    return payload[0], pixels


def pattern_on(pattern: int, t_ms: int) -> bool:
    """Whether an LED with ``pattern`` is lit at time ``t_ms`` (any clock, ms)."""
    period, spans = PATTERNS[pattern]
    phase = t_ms % period
    for start, stop in spans:
        if start <= phase < stop:
            return True
    return False
