"""bgref LED controller logic (MicroPython on a Raspberry Pi Pico; also runs under CPython).

Receives frames from the host, shows the whole-strip state they carry, answers every
frame (hello -> hello-reply, state/heartbeat -> ack, anything broken -> nack), and
runs a fault pattern (one red LED chasing round the strip) when the host has been
silent for HOST_TIMEOUT_MS.  The wire format is ``protocol.py``, the very same file as
the host's ``firmware_bridge/protocol.py``.

Hardware access is confined to ``main.py``; this module receives a strip object
(``neopixel.NeoPixel``-like: ``strip[i] = (r, g, b)``, ``strip.write()``) and a clock.
"""

try:  # on the host (tests, benchmark): the package; on the Pico: the copied file
    from firmware_bridge import protocol
except ImportError:
    import protocol

FIRMWARE_VERSION = "1.0.0"
HOST_TIMEOUT_MS = 3000
CHASE_STEP_MS = 80
CHASE_COLOUR = (64, 0, 0)
# Power budget of the strip (hardware/README.md): 20 mA per channel at 255.
STRIP_BUDGET_MA = 1500
MA_PER_CHANNEL = 20


def limit_current(pixels, budget_ma=STRIP_BUDGET_MA):
    """Pixels scaled down so that the strip draws at most ``budget_ma``."""
    total = 0
    for r, g, b in pixels:
        total += r + g + b
    drawn = total * MA_PER_CHANNEL // 255
    if drawn <= budget_ma:
        return pixels
    return [(r * budget_ma // drawn, g * budget_ma // drawn, b * budget_ma // drawn) for r, g, b in pixels]


def chase(led_count, t_ms):
    """The fault pattern at ``t_ms``: one dim red LED running round the strip."""
    lit = (t_ms // CHASE_STEP_MS) % led_count
    return [CHASE_COLOUR if i == lit else (0, 0, 0) for i in range(led_count)]


class Controller:
    """The controller's state machine: bytes in, reply bytes out, strip rendered."""

    def __init__(self, strip, led_count, clock, diff,
                 firmware_version=FIRMWARE_VERSION, protocol_version=protocol.PROTOCOL_VERSION):
        self.strip = strip
        self.led_count = led_count
        self._clock = clock
        self._diff = diff
        self.firmware_version = firmware_version
        self.protocol_version = protocol_version
        self._framer = protocol.Framer()
        self._pixels = [protocol.Pixel(0, 0, 0, protocol.OFF)] * led_count
        self._brightness = 255
        self._last_rx = clock()
        self._shown = None
        self.errors = 0
        self.frames = 0

    @property
    def host_silent(self):
        """Whether the host has sent nothing valid for HOST_TIMEOUT_MS."""
        return self._diff(self._clock(), self._last_rx) > HOST_TIMEOUT_MS

    def receive(self, data):
        """Reply bytes for the bytes ``data`` just read from the host."""
        out = bytearray()
        for packet in self._framer.feed(data):
            out.extend(self._answer(packet))
        return bytes(out)

    def render(self):
        """Write the strip if what it should show at this instant changed."""
        now = self._clock()
        colours = chase(self.led_count, now) if self.host_silent else self._colours(now)
        colours = limit_current(colours)
        if colours != self._shown:
            for i in range(self.led_count):
                self.strip[i] = colours[i]
            self.strip.write()
            self._shown = colours

    def _colours(self, now):
        scale = self._brightness
        out = []
        for p in self._pixels:
            on = protocol.pattern_on(p.pattern, now)
            out.append((p.r * scale // 255, p.g * scale // 255, p.b * scale // 255) if on else (0, 0, 0))
        return out

    def _answer(self, packet):
        try:
            frame = protocol.decode_frame(packet)
        except protocol.CrcError:
            return self._refuse(protocol.NACK_CRC, 0)
        except protocol.ProtocolError:
            return self._refuse(protocol.NACK_FRAMING, 0)
        if frame.version != self.protocol_version:
            return self._refuse(protocol.NACK_VERSION, frame.seq)
        self._last_rx = self._clock()
        self.frames += 1
        return self._dispatch(frame)

    def _dispatch(self, frame):
        if frame.kind == protocol.HELLO:
            reply = protocol.encode_hello_reply(self.led_count, self.firmware_version)
            return self._send(protocol.HELLO_REPLY, frame.seq, reply)
        if frame.kind == protocol.HEARTBEAT:
            return self._send(protocol.ACK, frame.seq)
        if frame.kind == protocol.STATE:
            return self._take_state(frame)
        return self._refuse(protocol.NACK_KIND, frame.seq)

    def _take_state(self, frame):
        try:
            brightness, pixels = protocol.decode_state(frame.payload)
        except protocol.PayloadError:
            return self._refuse(protocol.NACK_PAYLOAD, frame.seq)
        if len(pixels) != self.led_count:
            return self._refuse(protocol.NACK_PAYLOAD, frame.seq)
        self._brightness, self._pixels = brightness, pixels
        return self._send(protocol.ACK, frame.seq)

    def _refuse(self, reason, seq):
        self.errors += 1
        return self._send(protocol.NACK, seq, protocol.encode_nack(reason, self.firmware_version))

    def _send(self, kind, seq, payload=b""):
        return protocol.encode_frame(kind, seq, payload, self.protocol_version)


class StreamPort:
    """The USB serial port as streams: ``read`` waits up to timeout_ms, ``write`` sends."""

    def __init__(self, rstream, wstream, select_module, pollable=None, limit=512):
        self._r = rstream
        self._w = wstream
        self._limit = limit
        self._poll = select_module.poll()
        self._poll.register(pollable or rstream, select_module.POLLIN)

    def read(self, timeout_ms):
        """Bytes available within ``timeout_ms`` (b"" if none), one byte per read call."""
        data = bytearray()
        wait = timeout_ms
        while len(data) < self._limit and self._poll.poll(wait):
            byte = self._r.read(1)
            if not byte:
                break
            data.extend(byte)
            wait = 0
        return bytes(data)

    def write(self, data):
        """Send ``data`` to the host."""
        self._w.write(data)


def run_once(controller, port, timeout_ms=10):
    """One turn of the main loop: read, answer, render."""
    data = port.read(timeout_ms)
    if data:
        reply = controller.receive(data)
        if reply:
            port.write(reply)
    controller.render()


def run(controller, port, steps=None, feed=None, stop=None, timeout_ms=10):
    """The main loop: until ``stop()`` is true or ``steps`` turns; ``feed`` kicks the watchdog."""
    done = 0
    while steps is None or done < steps:
        if stop is not None and stop():
            return
        run_once(controller, port, timeout_ms)
        if feed is not None:
            feed()
        done += 1
