"""The WS2812 strip driven straight from the Pi's SPI (for builders without a Pico).

WS2812B pixels read one bit per 1.25 us: a high of ~0.4 us for a 0, ~0.8 us for a 1.  At an SPI
clock of 2.4 MHz one SPI bit lasts 0.417 us, so each pixel bit is sent as three SPI bits,
``100`` (0) or ``110`` (1), and MOSI (GPIO10, header pin 19) carries the waveform.  Colours go
green, red, blue, most significant bit first; a low of at least 280 us latches them.  The Pi
animates the blink patterns itself (the Pico does that in its firmware), so :meth:`SpiStrip.service`
must be called often (every 10-50 ms), like :meth:`~firmware_bridge.link.LedController.service`.

Nothing opens the SPI device at import: :func:`open_spi` does (``spidev``, the ``pi`` extra).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from . import protocol
from .layout import Layout
from .leds import LedState

SPI_HZ = 2_400_000
RESET_BYTES = 90  # 90 x 8 bits at 2.4 MHz = 300 us low: latches a WS2812B (needs >= 280 us)
STRIP_BUDGET_MA = 1500  # the same cap as the Pico's firmware (hardware/README.md, power budget)
MA_PER_CHANNEL = 20  # at 255
_BIT_CODES = (0b100, 0b110)


def ws2812_spi_bytes(pixels: Sequence[tuple[int, int, int]]) -> bytes:
    """The SPI bytes (at :data:`SPI_HZ`) that set a WS2812 strip to ``pixels`` (r, g, b), with a
    latch low before and after (the leading one keeps an idle-high MOSI from adding a bit)."""
    out = bytearray(RESET_BYTES)
    for r, g, b in pixels:
        for value in (g, r, b):
            if not 0 <= value <= 255:
                raise ValueError("colour values are 0..255, got %r" % (value,))
            bits = 0
            for i in range(7, -1, -1):
                bits = (bits << 3) | _BIT_CODES[(value >> i) & 1]
            out += bits.to_bytes(3, "big")
    out += bytes(RESET_BYTES)
    return bytes(out)


def within_budget(pixels: Sequence[tuple[int, int, int]], budget_ma: int = STRIP_BUDGET_MA) -> list[tuple[int, int, int]]:
    """``pixels`` dimmed evenly so that the strip draws at most ``budget_ma``."""
    drawn = sum(sum(p) for p in pixels) * MA_PER_CHANNEL / 255
    if drawn <= budget_ma:
        return list(pixels)
    scale = budget_ma / drawn
    return [(int(r * scale), int(g * scale), int(b * scale)) for r, g, b in pixels]


def frame_at(state: LedState, layout: Layout, t_ms: int) -> list[tuple[int, int, int]]:
    """What each strip pixel shows at ``t_ms``: the pattern's phase and the state's brightness applied."""
    out = []
    for r, g, b, pattern in state.pixels(layout):
        on = protocol.pattern_on(pattern, t_ms)
        k = state.brightness
        out.append((r * k // 255, g * k // 255, b * k // 255) if on else (0, 0, 0))
    return within_budget(out)


class SpiStrip:
    """An LED sink writing the whole strip over SPI whenever what it shows changes."""

    def __init__(self, spi: Any, clock: Callable[[], float], layout: Layout = Layout()) -> None:
        self._spi = spi  # anything with writebytes2(bytes) (spidev.SpiDev)
        self._clock = clock
        self.layout = layout
        self._state = LedState()
        self._written: list[tuple[int, int, int]] | None = None
        self.problem: str | None = None

    def show(self, state: LedState) -> None:
        """Show ``state`` from now on."""
        self._state = state
        self.service()

    def service(self) -> None:
        """Write the strip if what it should show at this instant changed."""
        frame = frame_at(self._state, self.layout, int(self._clock() * 1000))
        if frame == self._written:
            return
        try:
            self._spi.writebytes2(ws2812_spi_bytes(frame))
        except OSError as exc:
            self.problem = "SPI write failed: %s" % exc
            return
        self._written, self.problem = frame, None

    def close(self) -> None:
        """Turn every LED off and close the SPI device."""
        try:
            self._spi.writebytes2(ws2812_spi_bytes([(0, 0, 0)] * len(self.layout.order)))
            self._spi.close()
        except OSError:
            pass


def open_spi(bus: int = 0, device: int = 0, hz: int = SPI_HZ) -> Any:
    """The SPI device (``/dev/spidev<bus>.<device>``) set up for a WS2812 strip."""
    try:
        import spidev  # type: ignore[import-not-found]
    except ImportError:
        raise OSError("spidev is not installed: `pip install 'bgref[pi]'` (or `sudo apt install python3-spidev`)") from None
    spi = spidev.SpiDev()
    try:
        spi.open(bus, device)
    except OSError as exc:
        raise OSError("/dev/spidev%d.%d cannot be opened (%s): enable SPI with `sudo raspi-config nonint do_spi 0` "
                      "and reboot" % (bus, device, exc.strerror or exc)) from None
    spi.max_speed_hz = hz
    spi.mode = 0
    return spi
